# shellcheck shell=bash
# run_builds.sh -- section 7 of the suite, the other builds: Debian's clang
# and clang-22 with warnings as errors (newer compilers warn about more), a
# portable build without the SSE2 fast path, and the ASan+UBSan build of
# the sanitized inner suite (clang-22's, tests/run.sh) with its unit tests,
# against each input in the formats that suite does not run, and the
# report page under it.
# tests/run.sh starts it in the background before the record and fault
# groups (which mostly wait for their processes; nothing here races a
# clock), so it runs on beside the load check, and joins its counts and
# times ("beside: 7. ...") in section 7.
# Alone:
#   bash tests/run_builds.sh
# Full tier only; its own lib.sh, temporary folder and summary line.

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
export WERROR=1
# Twice as many jobs as CPUs: much of this lane runs beside the load
# check, in make check's session with its busy loops, and the scheduler
# shares that session's CPU between its tasks: more of them here is more
# of it for the builds and less for the loops (alone on a quiet machine,
# -j4 on two CPUs costs nothing).
NS_NCPU=$(nproc 2>/dev/null || echo 1)
NS_J=-j$((2 * NS_NCPU))

# Debian's default clang (14 on bookworm) and clang-22: newer compilers
# warn about more (clang-22 found an unused counter clang 14 did not)
# (`units` builds the program first, then the unit programs: one make
# over the objects, never two at once)
# (clang 14: its warnings over every source and unit test, `make syntax`,
# -fsyntax-only: they come from its front end, the same at any
# optimisation level; its objects, which nothing ran, cost 40 s of CPU at
# -O0 and three times that at -O2 -g)
group "7. clang, and clang-22 without SSE2"
check "clang -Wall -Wextra -Werror: every source and unit test, no warning" make -s BUILD=build-clang CC=clang syntax
# clang-22 builds the portable code, without the SSE2 fast paths
# (-U__SSE2__), and the unit tests of tests/unit.c run (the scanner's,
# whose portable loops these are; unit_npu_skip runs every vector level
# a CPU can choose in every build, the portable one too).  The fast paths
# are built by gcc and clang 14 here and by clang-22 in the sanitized
# builds (ASan, TSan: its warnings about them are seen there), so one
# build does both jobs (the no-SSE2 build was gcc's own until this round)
clang22_portable() {
    make -s "$NS_J" BUILD=build-clang-22 CC=clang-22 CFLAGS=-U__SSE2__ units >/dev/null || return 1
    prog_run build-clang-22/unit ./build-clang-22/unit || { echo "$prog_why"; return 1; }
    [ "$prog_fail" -eq 0 ]
}
check "build with clang-22 -Wall -Wextra -Werror, portable (no SSE2 fast path): unit tests" clang22_portable
# The inner run's ASan+UBSan build (build-asan-clang-22, tests/run.sh,
# which says when it is built: NS_ASAN_BUILT; alone, this builds it): the
# unit tests, and each input in each format that the inner run does not
# reach.  (gcc's own ASan build did this until this round: a second
# sanitized build of the same code, the same classes of bug caught, two
# CPU-minutes of make check; gcc builds and checks the code at -O2, the
# mingw build with it.)  The inner run already gives every
# fixture (.txt, .log, the -ftime-trace JSON) through tree original,
# json, csv, chrome, speedscope and folded, top --format json, advise,
# and every bad input through its own arguments and json, chrome and
# speedscope (sections 2, 3 and 6), with leaks checked only where a path
# is taken first (tests/run.sh, "leak checks").  Left for here, leaks
# checked: the text and top of every fixture, every format
# of the other JSON fixtures (NPU schedule traces, strategies), and the
# text, csv, folded, original and top of every bad input (every format
# of one whose own run is a usage error, so the inner run's formats
# never ran on it).
asan_formats() { # asan_formats FILE: the formats of FILE left for here
    local n
    case $1 in
    */*ftime-trace.json | "$FIX"/*.txt | "$FIX"/*.log) echo text top ;;
    "$FIX"/*) echo text json csv folded chrome speedscope original top ;;
    *)
        n=$(basename "$1" .in)
        # reports-100000: json only, the inner run's (each format takes
        # 5-15 s under ASan); the 100,000-deep trees: csv's full path
        # per row and the compiler's own indentation (original) are
        # quadratic in depth by their formats (gigabytes; the MLIR JSON
        # one's csv ran past 120 s under ASan on a loaded machine)
        case $n in
        reports-100000) return ;;
        deep-100000 | mlir-json-deep-100000) echo text folded top; return ;;
        esac
        if [ "$(cat "$BAD/$n.rc" 2>/dev/null || echo 0)" -le 1 ]; then echo text csv folded original top
        else echo text json csv folded chrome speedscope original top; fi ;;
    esac
}
NS_ASAN_CC=${NS_ASAN_CC:-clang-22}
command -v "$NS_ASAN_CC" >/dev/null 2>&1 || NS_ASAN_CC=clang
export ASAN_BUILD=build-asan-$NS_ASAN_CC
# asan_one FILE FORMAT [ARG...]: one input in one format under $ASAN_BUILD
# (ARGs after the file); prints
# why and fails on a sanitizer report or an exit above 2 (a sanitizer
# report exits 1, as "no timing report found" does, so look for the
# report itself).  Ten minutes each, a hang's limit: the 10,000-deep
# trees' csv (a full path a row) takes 7 s of CPU alone, and beside the
# load check's busy loops, the other lanes and three more of these it
# passed 120 s (2026-12-07).
asan_one() {
    local err rc
    err=$(mktemp "$TMP/asan.XXXXXX")
    if [ "$2" = top ]; then timeout 600 "./$ASAN_BUILD/npuscope" top -q --all -n 0 "$1" "${@:3}"
    else timeout 600 "./$ASAN_BUILD/npuscope" tree -q --format "$2" "$1" "${@:3}"; fi >/dev/null 2>"$err"
    rc=$?
    if [ $rc -gt 2 ] || grep -Eq 'ERROR: [A-Za-z]*Sanitizer|runtime error:' "$err"; then
        echo "$1 ($2): exit $rc"; head -30 "$err"; rm -f "$err"; return 1
    fi
    rm -f "$err"
}
asan() {
    local units_pid rc=0
    # (the program built by the inner run's make, never beside it: its unit
    # programs are added by a make of the same flags, which finds the
    # program's objects made)
    if [ -n "${NS_ASAN_BUILT:-}" ]; then
        wait_for 3600 all_exist "$NS_ASAN_BUILT" || { echo "the sanitized build did not end within an hour"; return 1; }
        [ "$(cat "$NS_ASAN_BUILT")" = 0 ] || { echo "the sanitized build failed (the inner suite's check says why)"; return 1; }
    fi
    make -s "$NS_J" BUILD="$ASAN_BUILD" CC="$NS_ASAN_CC" SANITIZE=1 units >/dev/null || return 1
    # The unit programs run beside the inputs, not before them: under ASan
    # unit_npu_skip takes most of a minute of a core, and after it this
    # lane, the last of make check, ran on alone with half the machine idle
    ( units_pass "$ASAN_BUILD" "$NS_NCPU" >"$TMP/asan-units.why" 2>&1
      echo $? >"$TMP/asan-units.rc" ) &
    units_pid=$!
    asan_inputs || rc=1
    wait "$units_pid"
    [ "$(cat "$TMP/asan-units.rc" 2>/dev/null)" = 0 ] || { cat "$TMP/asan-units.why"; rc=1; }
    return $rc
}
# asan_inputs: each input in the formats left for here (asan_formats)
asan_inputs() {
    local f fmt
    [ -d "$BADGEN" ] || sh tests/bad/gen.sh "$BADGEN" || return 1
    # every pair, twice as many at a time as there are CPUs (the loop is
    # serial work; NS_J says why twice), the large generated inputs first,
    # so that the small ones fill in beside them rather than after them
    for f in "$BADGEN"/*.in "$FIX"/*.txt "$FIX"/*.log "$FIX"/*.json "$BAD"/*.in; do
        for fmt in $(asan_formats "$f"); do printf '%s\0%s\0' "$f" "$fmt"; done
    done >"$TMP/asan.pairs"
    [ -s "$TMP/asan.pairs" ] || { echo "no input to run"; return 1; }
    export -f asan_one
    export TMP ASAN_BUILD
    xargs -0 -n 2 -P "$((2 * NS_NCPU))" bash -c 'asan_one "$1" "$2" || exit 255' sh <"$TMP/asan.pairs" || return 1
    # The threaded scan (parse/split.c) with its leaks checked: the
    # sanitized suite runs tests/run_split.sh without LeakSanitizer
    # (tests/run.sh, "Leak checks"), and the inputs above are too small to
    # be split.  Every fixture in one file, cut every 4 KiB, two threads.
    cat "$FIX"/*.txt "$FIX"/*.log >"$TMP/asan-all.log"
    NPUSCOPE_SPLIT_CHUNK=4096 asan_one "$TMP/asan-all.log" json --threads 2 &&
        NPUSCOPE_SPLIT_CHUNK=4096 asan_one "$TMP/asan-all.log" top --threads 2
}
# The report page under the same build: logs, a trace, pass names that
# would be markup, a 10,000-deep tree, run folders and a diff (after the
# pass above, which built it)
rb_asan() {
    local f rc RB=$TMP/report
    mkdir -p "$RB"
    # (pass names that would be markup: tests/run_browser.sh's rb_hostile)
    sed -e 's/Canonicalizer$/<script>alert(1)<\/script>/' \
        -e 's/  LoopInvariantCodeMotion$/  "><img src=x onerror=alert(2)>/' \
        -e 's/  Inliner$/  <\/script>/' "$FIX/mlir22-tree-st.txt" >"$RB/hostile.log"
    { head -n 6 "$FIX/mlir22-tree-st.txt"
      awk 'BEGIN { for (i = 0; i < 10000; i++) { printf "    0.0001 (  0.0%%)  "; for (j = 0; j < i; j++) printf "  "; print "P" i } }'
    } >"$RB/deep.log"
    for f in "$FIX/noisy-build.log" "$FIX/constructed-npuw-7.log" "$FIX/clang22-ftime-trace.json" \
             "$RB/hostile.log" "$RB/deep.log" tests/runs; do
        "./$ASAN_BUILD/npuscope" report -q -o "$RB/asan.html" --svg-dir "$RB/asan-svg" "$f" 2>"$RB/asan.err"; rc=$?
        [ $rc -eq 0 ] && ! grep -q 'runtime error\|Sanitizer' "$RB/asan.err" ||
            { echo "$f: exit $rc"; head -30 "$RB/asan.err"; return 1; }
    done
    "./$ASAN_BUILD/npuscope" report -q -o "$RB/asan.html" --a model=m1 --b model=m2 --baseline window=128 tests/runs 2>"$RB/asan.err" ||
        { head -30 "$RB/asan.err"; return 1; }
}
group "7. ASan+UBSan (the inner run's build): unit tests, what the inner run does not reach"
check "ASan+UBSan (-Werror): unit tests, and each fixture and bad input in the formats the sanitized suite does not run" asan
check "report under ASan+UBSan: logs, traces, deep trees, run folders, diff" rb_asan

finish
