#!/bin/sh
# mingw-deps.sh -- build npuscope's two libraries for Windows, from Debian's
# source packages, with mingw-w64: jansson (JSON) and TRE (POSIX regular
# expressions).  `make windows` runs it.
#
#   tools/mingw-deps.sh DIR     DIR: the build folder (make's WIN, build-win)
#
# Leaves DIR/deps/{include,lib} with static libjansson.a and libtre.a, and
# does nothing when both are there already (the suite's Windows tier and a
# second `make windows` cost nothing).  The sources are Debian's own
# (`apt-get source`, the Debian patches applied by dpkg-source), so the
# Windows build reads JSON with the very jansson the Linux build links.
#
# Why TRE: npuscope hands --metric and --label-regex patterns to POSIX
# regcomp/regexec with REG_EXTENDED (base/regex_guard.h refuses the
# patterns any backtracking matcher would take minutes over).  mingw-w64
# has no <regex.h>; TRE is a complete POSIX regcomp/regexec, ERE dialect,
# byte-oriented as built here (no wide-character or multibyte mode, as the
# C locale of glibc), in Debian, and small.  Linux keeps glibc's: the
# dialect is the one POSIX defines, and the guards of regex_guard.h run
# before either library sees a pattern, so both refuse the same ones.
#
# Needs (tests/deps.sh windows installs them): mingw-w64, cmake, make,
# dpkg-dev (dpkg-source) and a deb-src line for Debian's main archive;
# without one, as root, it adds one (a .sources file of its own under
# /etc/apt/sources.list.d/) and runs apt-get update.
set -eu
W=${1:-build-win}
DEPS=$W/deps
CC=${WINCC:-x86_64-w64-mingw32-gcc}
HOST=x86_64-w64-mingw32
if [ -f "$DEPS/lib/libjansson.a" ] && [ -f "$DEPS/lib/libtre.a" ] && [ -f "$DEPS/include/jansson.h" ] &&
    [ -f "$DEPS/include/tre/regex.h" ]; then
    exit 0
fi
mkdir -p "$W/src" "$DEPS"
DEPS=$(cd "$DEPS" && pwd)
cd "$W/src"

# ---------------------------------------------------------------- sources
have_src() { ls jansson_*.dsc tre_*.dsc >/dev/null 2>&1; }
if ! have_src; then
    if ! apt-get source --download-only jansson tre >fetch.log 2>&1; then
        if [ "$(id -u)" -ne 0 ]; then
            cat fetch.log >&2
            echo "mingw-deps: apt-get source needs a deb-src line; as root this script adds one" >&2
            exit 1
        fi
        . /etc/os-release
        cat >/etc/apt/sources.list.d/npuscope-src.sources <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: ${VERSION_CODENAME:-bookworm}
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
        echo "mingw-deps: added deb-src for Debian ${VERSION_CODENAME:-bookworm}; apt-get update" >&2
        apt-get update -qq >&2
        apt-get source --download-only jansson tre >fetch.log 2>&1 || { cat fetch.log >&2; exit 1; }
    fi
fi
for dsc in jansson_*.dsc tre_*.dsc; do
    dir=$(basename "$dsc" .dsc | sed 's/_/-/; s/-[^-]*$//')
    [ -d "$dir" ] || dpkg-source --no-check -x "$dsc" "$dir" >/dev/null
done
J=$(ls -d jansson-*/ | head -1)
T=$(ls -d tre-*/ | head -1)

# ---------------------------------------------------------------- jansson
echo "mingw-deps: jansson from $J" >&2
cmake -S "$J" -B jansson-build -DCMAKE_SYSTEM_NAME=Windows -DCMAKE_C_COMPILER="$CC" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$DEPS" -DJANSSON_BUILD_DOCS=OFF \
    -DJANSSON_WITHOUT_TESTS=ON -DJANSSON_EXAMPLES=OFF -DJANSSON_BUILD_SHARED_LIBS=OFF \
    >jansson.log 2>&1 || { tail -20 jansson.log >&2; exit 1; }
cmake --build jansson-build -j2 >>jansson.log 2>&1 || { tail -20 jansson.log >&2; exit 1; }
cmake --install jansson-build >>jansson.log 2>&1 || { tail -20 jansson.log >&2; exit 1; }

# ---------------------------------------------------------------- TRE
echo "mingw-deps: TRE from $T" >&2
(cd "$T" && ./configure --host=$HOST CC="$CC" --prefix="$DEPS" --disable-shared --enable-static \
    --disable-agrep --disable-nls --disable-wchar --disable-multibyte --disable-approx \
    >../tre.log 2>&1 && make -C lib -j2 >>../tre.log 2>&1 && make -C lib install >>../tre.log 2>&1) ||
    { tail -20 tre.log >&2; exit 1; }
[ -f "$DEPS/lib/libtre.a" ] && [ -f "$DEPS/lib/libjansson.a" ] || { echo "mingw-deps: libraries missing" >&2; exit 1; }
echo "mingw-deps: $DEPS/lib: libjansson.a libtre.a" >&2
