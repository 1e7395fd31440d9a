#!/bin/sh
# deps.sh -- install what npuscope needs on Debian when it is missing.
#   deps.sh build   compiler, make, jansson            (make)
#   deps.sh demo    + mlir-opt-22 and python3 for the demo's study (make demo)
#   deps.sh test    + real compilers and tools the tests run, node, npm and
#                   chromium for the report's browser tests, Slurm and munge
#                   for a one-host cluster, pandas, stress-ng (make check)
#   deps.sh bench   + GNU time for peak-RSS figures     (make bench)
#   deps.sh windows mingw-w64, cmake, dpkg-dev and zip for the Windows
#                   build (make windows); the test tier adds wine64
# As root it runs `apt-get update` once and installs; otherwise it prints
# the command to run and fails.
set -eu
mode=${1:-test}
need=""
want() { need="$need $1"; }
have() { command -v "$1" >/dev/null 2>&1; }

have cc || want gcc
have make || want make
[ -f /usr/include/jansson.h ] || want libjansson-dev
if [ "$mode" = windows ] || [ "$mode" = test ]; then
    # the Windows build (make windows, tests/run_windows.sh): mingw-w64,
    # cmake for jansson, dpkg-source for Debian's source packages; the
    # test tier runs npuscope.exe under Wine
    have x86_64-w64-mingw32-gcc || want mingw-w64
    have cmake || want cmake
    have dpkg-source || want dpkg-dev
    have python3 || want python3
    have groff || want groff
fi
if [ "$mode" = test ]; then
    [ -x /usr/lib/wine/wine64 ] || have wine64 || want wine64
fi
if [ "$mode" = demo ]; then
    # the demo's study: a real mlir-opt-22 sweep, jq, python3 for the
    # constructed NPU study
    have mlir-opt-22 || want mlir-22-tools
    have python3 || want python3
fi
if [ "$mode" != build ] && [ "$mode" != demo ]; then
    have clang || want clang
    have jq || want jq
    have mlir-opt-22 || want mlir-22-tools
    have flang-22 || want flang-22
    have clang-22 || want clang-22
    # clang-22's sanitizer runtimes (the suite's ASan+UBSan pass, make fuzz
    # FUZZ_CC=clang-22) come in a package of their own
    t=$(mktemp)
    echo 'int main(void) { return 0; }' |
        clang-22 -fsanitize=address,undefined -x c -o "$t" - >/dev/null 2>&1 ||
        want libclang-rt-22-dev
    rm -f "$t"
    have opt-22 || want llvm-22
    have timeout || want coreutils
    have parallel || want parallel
    [ -x /usr/bin/time ] || want time
fi
if [ "$mode" = test ]; then
    # the report page's browser tests (tests/run_browser.sh): node's test
    # runner drives Debian's chromium through playwright-core (npm ci)
    have node || want nodejs
    have npm || want npm
    [ -x /usr/bin/chromium ] || want chromium
    # a one-host Slurm cluster for the sharded sweeps (tests/run_slurm.sh)
    have munged || want munge
    have slurmctld || want slurmctld
    have slurmd || want slurmd
    have sbatch || want slurm-client
    # busy loops beside the timing-sensitive tests (tests/run_load.sh)
    have stress-ng || want stress-ng
    # pandas reading every CSV and JSON table (tests/run_pandas.sh)
    # (Debian's python3: a python3 earlier on PATH may be another build)
    /usr/bin/python3 -c 'import pandas' >/dev/null 2>&1 || want python3-pandas
fi
if [ "$mode" = bench ]; then
    [ -x /usr/bin/time ] || want time
    have python3 || want python3
fi
[ -n "$need" ] || exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "npuscope: missing packages:$need" >&2
    echo "npuscope: install them with: sudo apt-get update && sudo apt-get install -y$need" >&2
    exit 1
fi
echo "npuscope: installing:$need" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $need >&2
