# shellcheck shell=bash
# run_tsan.sh -- section 7 of the suite, ThreadSanitizer: the threads of one
# file's scan against a clang-22 TSan build.  tests/run.sh starts it in
# the background before the record and fault groups (which mostly wait
# for their processes), and joins its counts and times in section 7.  Alone:
#   bash tests/run_tsan.sh
# Full tier only; its own lib.sh, temporary folder and summary line.

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
export WERROR=1
NS_J=-j$(nproc 2>/dev/null || echo 1)

# The threads of one file's scan (parse/split.c, model/report.c's shared
# pool) under ThreadSanitizer: the split suite's threaded cases against
# a TSan build, each against the one-thread output of the plain build
# (SPLIT_REF: one thread cannot race), each way the threads run once
# (SPLIT_RACES_ONLY: not what is read by one thread anyway, nor every
# fixture one file at a time, which all fixtures in one file covers; the
# comment there says why).  A race report exits 88
# (the exit codes and the standard errors of the pair differ) and halts
# the run.
tsan_split() {
    local cc=clang-22 bin
    command -v clang-22 >/dev/null 2>&1 || cc=clang
    bin=build-tsan-$cc/npuscope
    make -s "$NS_J" BUILD="build-tsan-$cc" CC="$cc" SANITIZE=thread "$bin" >/dev/null || return 1
    prog_run "the split suite under TSan" env TSAN_OPTIONS="halt_on_error=1 exitcode=88" \
        NPUSCOPE="$bin" SPLIT_REF="$NPUSCOPE" SPLIT_RACES_ONLY=1 NPUSCOPE_INNER=1 \
        bash tests/run_split.sh || { echo "$prog_why"; return 1; }
    tail -n 1 "$TMP/prog.out"
    [ "$prog_fail" -eq 0 ]
}
group "7. TSan: the threaded scan"
check "the threaded scan against a clang-22 ThreadSanitizer build (tests/run_split.sh)" tsan_split

finish
