#!/bin/sh
# win-zip.sh -- the Windows download: npuscope.exe, README, LICENSE and the
# man page as text, in one zip (`make windows`).
#   tools/win-zip.sh WIN ZIP     WIN: the Windows build folder
# Refuses an npuscope.exe that needs a DLL beyond Windows' own (jansson,
# TRE, libgcc and winpthreads are linked in statically).
set -eu
W=$1
ZIP=$2
EXE=$W/npuscope.exe
dlls=$(x86_64-w64-mingw32-objdump -p "$EXE" | sed -n 's/^[[:space:]]*DLL Name: //p' | tr 'A-Z' 'a-z' | sort -u)
for d in $dlls; do
    case $d in
    kernel32.dll | user32.dll | shell32.dll | advapi32.dll | msvcrt.dll | ntdll.dll | \
        api-ms-win-*.dll | ucrtbase.dll | ws2_32.dll | psapi.dll) ;;
    *) echo "win-zip: $EXE needs $d, which Windows does not have" >&2; exit 1 ;;
    esac
done
stage=$W/zip/npuscope-$(basename "$ZIP" .zip | sed 's/^npuscope-//; s/-win64$//')-win64
rm -rf "$W/zip"
mkdir -p "$stage" "$(dirname "$ZIP")"
cp "$EXE" "$stage/npuscope.exe"
# text files with CRLF line ends, for Notepad of any age
sed 's/$/\r/' README.md >"$stage/README.md"
sed 's/$/\r/' LICENSE >"$stage/LICENSE.txt"
MANWIDTH=80 LC_ALL=C.UTF-8 man -l -Tutf8 docs/npuscope.1 2>/dev/null | col -bx | sed 's/$/\r/' >"$stage/npuscope.1.txt" ||
    groff -man -Tutf8 docs/npuscope.1 | col -bx | sed 's/$/\r/' >"$stage/npuscope.1.txt"
[ -s "$stage/npuscope.1.txt" ] || { echo "win-zip: the man page came out empty" >&2; exit 1; }
rm -f "$ZIP"
(cd "$W/zip" && python3 -m zipfile -c "$OLDPWD/$ZIP.tmp" "$(basename "$stage")") && mv "$ZIP.tmp" "$ZIP"
echo "win-zip: $ZIP ($(wc -c <"$ZIP") bytes; DLLs: $(echo $dlls))"
