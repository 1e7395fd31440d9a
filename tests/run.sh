#!/usr/bin/env bash
# run.sh -- every test of npuscope; `make check` runs it after building.
#
#   0. predict on real compiles, timed while the machine is quiet
#      (tests/run_predict_real.sh)
#   1. unit tests (tests/unit*.c); the self-test (tests/selftest.sh): each
#      check that could pass on empty or wrong output is fed it; the layer
#      checker (tools/layers.sh)
#   2. exactness: every fixture's reports re-printed byte for byte
#      (`tree --format original` against an independent awk extraction)
#   3. exports: json/chrome/speedscope parse as JSON (jq) and agree with the
#      row counts; csv and folded have the documented shape; every JSON
#      output passes jansson's strict parser (tests/jsoncheck.c)
#   4. golden cases: tests/cases/NAME.args -> NAME.out / NAME.err / NAME.rc,
#      and NAME.desc, one line on what the case shows
#   5. end to end: real mlir-opt-22, flang-22 and clang-22 compiles
#   6. bad input: nothing crashes, hangs, or goes unexplained (tests/bad);
#      record/sweep faults, browser tests, analyses, npuscope.exe under
#      Wine (tests/run_*.sh)
#   7. builds with clang, and clang-22 without SSE2, with ASan+UBSan (unit
#      tests, fixtures and bad input in every format; tests/run_builds.sh),
#      the threaded scan under TSan (tests/run_tsan.sh), and the whole suite
#      again against a clang-22 ASan+UBSan build (NPUSCOPE_INNER=1 is that
#      inner run: it skips section 7, the self-test, the layer checker and
#      the browser tests)
#
# Two tiers, one runner:
#   TIER=full  (make check, the default) everything above
#   TIER=fast  (make test) sections 1-6a: no root, no package installs, no
#              browser, no other builds; no record/sweep or analysis runs;
#              a real compiler that is not installed skips its end-to-end
#              check.  Each part left out says so on a "skipped: ..." line,
#              which is never counted as passed.
# The last line is "N passed, N failed".
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

# The builds this script makes itself (section 7, the report under ASan)
# are developer builds: warnings are errors there as in make check's own
export WERROR=1
# The constructed NPU study: made once by this run (the inner sanitized run
# makes its own) and copied by every test that reads one, the load check's
# rounds too (tests/helpers/study.sh)
export NS_STUDY=$TMP/study-made

TIER=${TIER:-full}
case $TIER in fast | full) ;; *) echo "run.sh: TIER is fast or full, not '$TIER'" >&2; exit 2 ;; esac
tier_full() { [ "$TIER" = full ]; }
# present WHAT CMD...: true when every CMD is installed; in the full tier
# always (make check installed them, and a missing one fails the check
# itself), in the fast tier a missing one skips WHAT, saying why
present() {
    local what=$1 cmd; shift
    tier_full && return 0
    for cmd; do
        command -v "$cmd" >/dev/null 2>&1 ||
            { skip "$what ($cmd is not installed; make check installs it)"; return 1; }
    done
}
command -v jq >/dev/null 2>&1 || bad "jq is not installed, and most checks need it (apt-get install jq)"
# the builds this script makes, in parallel (make check's own make gives
# its -j to its sub-make only)
NS_J=-j$(nproc 2>/dev/null || echo 1)

# ---------------------------------------------------------------- 0. timed on a quiet machine
# predict on real compiles, before the lanes and the sanitized build below
# start (tests/run_predict_real.sh says why, and when it skips)
group "0. predict on real compiles, the machine quiet"
if ! tier_full; then
    skip "predict on real mlir-opt-22 compiles (16k and 32k from 1k..8k; make check)"
elif [ -n "${NPUSCOPE_INNER:-}" ]; then
    :
else
    # shellcheck source=tests/run_predict_real.sh
    . tests/run_predict_real.sh
fi

# ---------------------------------------------------------------- 7, begun: the whole suite sanitized, beside
# Section 7's inner run -- the whole suite again against a clang-22
# ASan+UBSan build -- starts here, in the background, and section 7 joins
# it: on two cores it and this run overlap instead of following each other
# (it is the longest part of make check).  Its files: $INNER_DIR.
# The same build is section 7's ASan+UBSan pass (tests/run_builds.sh: the
# unit tests, and every input in the formats the inner run does not
# reach), which waits for NS_ASAN_BUILT (0 once it is built) and builds
# its unit programs beside it: one sanitized build of the program, not two.
if tier_full && [ -z "${NPUSCOPE_INNER:-}" ]; then
    INNER_DIR=$TMP/inner
    mkdir -p "$INNER_DIR"
    NS_ASAN_CC=clang-22
    command -v clang-22 >/dev/null 2>&1 || NS_ASAN_CC=clang
    export NS_ASAN_CC NS_ASAN_BUILT=$INNER_DIR/build.rc
    inner_bg() {
        local cc=$NS_ASAN_CC bin=build-asan-$NS_ASAN_CC/npuscope
        echo 1 >"$INNER_DIR/rc"
        make -s "$NS_J" BUILD="build-asan-$cc" CC="$cc" SANITIZE=1 "$bin" >"$INNER_DIR/err" 2>&1
        echo $? >"$INNER_DIR/build.rc.tmp" && mv "$INNER_DIR/build.rc.tmp" "$NS_ASAN_BUILT"
        if [ "$(cat "$NS_ASAN_BUILT")" = 0 ]; then
            env ASAN_OPTIONS=exitcode=86 UBSAN_OPTIONS=halt_on_error=1:exitcode=87 \
                NPUSCOPE="$bin" NPUSCOPE_INNER=1 bash tests/run.sh >"$INNER_DIR/out" 2>"$INNER_DIR/err" </dev/null
            echo $? >"$INNER_DIR/rc"
        else
            echo "the sanitized build failed" >"$INNER_DIR/out"
        fi
        : >"$INNER_DIR/done"
    }
    # (not our child: beside() says why)
    ( inner_bg & )
fi

# ---------------------------------------------------------------- leak checks
# In the inner sanitized run, LeakSanitizer checks the heap at every exit
# of npuscope: about 50 ms of CPU a process (two thirds of what ASan costs
# a short one), over thousands of processes that take the same paths
# again.  So leaks are checked where each path is taken first -- the
# golden cases (every command and most options), the constructed study
# and predict, compiles that fail, record, sweep, watch and configurations
# (leaks on) -- and not in the groups that run those paths again over
# more inputs: exactness, exports, the bad-input corpus, split, mapped,
# NPU facts, the fault tier's data side (leaks off).  Every fixture and
# bad input in every format, the threaded scan and the unit tests are
# leak-checked by section 7's ASan pass (tests/run_builds.sh).
# leaks on|off: in the inner run, set ASan's detect_leaks for what follows
if [ -n "${NPUSCOPE_INNER:-}" ]; then
    NS_ASAN_BASE=${ASAN_OPTIONS:-}
    leaks() {
        if [ "$1" = on ]; then export ASAN_OPTIONS=$NS_ASAN_BASE
        else export ASAN_OPTIONS=${NS_ASAN_BASE:+$NS_ASAN_BASE:}detect_leaks=0; fi
    }
else
    leaks() { :; }
fi
leaks off

# ---------------------------------------------------------------- beside: groups that run alone
# Three groups that each run alone run one after another in the
# background from here, beside the sections below, and are joined before
# section 7: on two cores the two streams overlap.  Their counts and FAIL
# lines join ours there, their times are marked "beside".
#   tests/run_groups.sh  the tables of one clang/flang/opt/llc compile counted once
#   tests/run_split.sh   a big file read by two threads, byte for byte as by one
#   tests/run_mapped.sh  a file read through a mapping, byte for byte as by read()
# beside LANE SCRIPT...: run the scripts one after another in the
# background, each alone (bash SCRIPT: its own lib.sh, temporary folder and
# summary line; a script written only to be sourced is given as
# sourced:SCRIPT and run as `. tests/lib.sh; . SCRIPT; finish`), their
# outputs in $TMP/bg-SCRIPT.{out,err,rc};
# beside_join LANE: wait for the lane, then count each script's results
# and join its times, marked "beside: ".
declare -A BESIDE_SCRIPTS
# (Started from a subshell that exits at once, so that the lane is not
# this shell's child: its CPU would be added to whichever group of ours is
# running when it ends (bash's times); its own lines say it.)
beside() {
    local lane=$1
    shift
    ( (
        for sc; do
            case $sc in
            sourced:*) NPUSCOPE=$NPUSCOPE bash -c '. tests/lib.sh; . "$1"; finish' sh "${sc#sourced:}" ;;
            *) NPUSCOPE=$NPUSCOPE bash "$sc" ;;
            esac >"$TMP/bg-${sc##*/}.out" 2>"$TMP/bg-${sc##*/}.err" </dev/null
            echo $? >"$TMP/bg-${sc##*/}.rc"
        done
        : >"$TMP/lane-$lane.done"
    ) & )
    BESIDE_SCRIPTS[$lane]="$*"
}
beside_join() {
    local sc line
    # (its done file, not `wait PID`: tests/lib.sh's all_exist says why;
    # each script of the lane has hang limits of its own)
    wait_for 3600 all_exist "$TMP/lane-$1.done" || bad "the lane $1 (${BESIDE_SCRIPTS[$1]}) did not finish within an hour"
    for sc in ${BESIDE_SCRIPTS[$1]}; do
        tally "$sc (beside)" ns_replay "$TMP/bg-${sc##*/}"
        # what it skipped, said and counted here as well
        grep '^skipped: ' "$TMP/bg-${sc##*/}.out" >"$TMP/bg-skips"
        while IFS= read -r line; do skip "${line#skipped: }"; done <"$TMP/bg-skips"
        ns_times_join "beside: " "$TMP/bg-${sc##*/}.out"
    done
}
beside first tests/run_groups.sh tests/run_split.sh tests/run_mapped.sh
# The fast tier runs three more in a second lane: the constructed study and
# predict, mostly one process at a time, and the bad-input corpus, the
# longest group of the line below (make test's 120 s: with it here the
# line and the two lanes take about the same time).  The full tier sources
# them in section 6 as before: its sanitized suite already fills the other
# core.
if ! tier_full; then beside second tests/run_study.sh tests/run_predict.sh tests/run_bad.sh; fi
# npuscope.exe under Wine (tests/run_windows.sh: the same answers as the
# Linux binary, record and sweep of Windows programs), full tier, in a
# lane of its own from here.  After the load check, where it ran until
# 2026-12-07, it was the last lane to end, alone for its last two minutes
# with half the machine idle; from section 6b it met the load check's busy
# loops and took 1000 s.  Its checks wait for what they check (the lock
# and interrupt checks for files the test makes), so where it runs changes
# its time, not its results.
if tier_full && [ -z "${NPUSCOPE_INNER:-}" ]; then beside windows tests/run_windows.sh; fi

# ---------------------------------------------------------------- 1. unit
# (after the lanes have started: the unit programs run side by side, and
# the longest, unit_npu_skip, ran on alone for seconds beside an idle CPU)
group "1. unit programs"
# (once: the inner sanitized run would run the same programs again; the
# unit tests under ASan+UBSan are section 7's)
if [ -z "${NPUSCOPE_INNER:-}" ]; then
    units_all "${BUILD:-build}"
fi

# ---------------------------------------------------------------- 1a. the checks checked
group "1a. the self-test"
# tests/selftest.sh feeds the checks of tests/lib.sh empty and wrong output
# and wants each to fail (and right output, and wants it to pass); its
# counts join ours.  Once: not again in the inner, sanitized run.
if [ -z "${NPUSCOPE_INNER:-}" ]; then
    NPUSCOPE=$NPUSCOPE tally tests/selftest.sh bash tests/selftest.sh
fi

# ---------------------------------------------------------------- 1b. layers
group "1b. layers"
# Every dependency points down the layers of src/LAYERS (tools/layers.sh,
# on the sources and on the objects of this build).  Once, as 1a.
if [ -z "${NPUSCOPE_INNER:-}" ]; then
    layers() { bash tools/layers.sh "${BUILD:-build}"; }
    check "layers: every include and call points down src/LAYERS (tools/layers.sh)" layers
fi

# ---------------------------------------------------------------- 1c. docs
group "1c. docs"
# Every option of every command's option table (npuscope CMD
# --completion-helper) is in its --help and in the man page, and every exit
# code of base/exit.h in the man page's EXIT STATUS (tests/check_docs.sh).
check "docs: every option table entry in --help and the man page, every exit code in the man page" \
    bash tests/check_docs.sh "$NPUSCOPE"

# ---------------------------------------------------------------- 2. exactness
group "2. exactness"
for f in "$FIX"/*.txt "$FIX"/*.log; do
    check "exact $(basename "$f")" exact "$f"
done

# ---------------------------------------------------------------- 3. exports
group "3. exports"
for f in "$FIX"/*.txt "$FIX"/*.log "$FIX"/*ftime-trace.json; do
    check "exports ${f##*/}" exports "$f"
done

# Every JSON npuscope writes, from every fixture, through jansson's strict
# parser (strict_json, tests/lib.sh).  tree's json, chrome and speedscope
# and top's json are the files the exports check above wrote (lib.sh's
# exports keeps them): each written once, checked twice.
strict_fixture() {
    local f=$1 x o
    o=$TMP/exp/${f##*/}
    for x in json chrome speedscope top; do
        [ -s "$o.$x" ] || { echo "no $x export of $f kept by the exports check"; return 1; }
    done
    # (one jsoncheck of the four; it names the file it refuses)
    "$JSONCHECK" "$o.json" "$o.chrome" "$o.speedscope" "$o.top" || { echo "an export of $f: not strict JSON"; return 1; }
    strict_json top -q --by stage --format json "$f" &&
    strict_json advise --format json "$f"
}
for f in "$FIX"/*.txt "$FIX"/*.log "$FIX"/*ftime-trace.json; do
    check "strict JSON (jansson) of every export: ${f##*/}" strict_fixture "$f"
done
strict_runs() {
    # (the constructed runs kept no report: exit 1, and still a document)
    strict_json -x 1 tree -q --format json tests/runs &&
    strict_json -x 1 tree -q --merge --format json tests/runs &&
    strict_json table -q --format json tests/runs &&
    strict_json table -q --stages --format json tests/runs &&
    strict_json fit -q --x window --y wall --format json tests/runs &&
    strict_json fit -q --x window --y cold_s --by model --format json tests/data/seed-compile-table.csv &&
    strict_json diff -q --format json tests/runs/model-m1_window-128-b0160d83-cold-r01 tests/runs/model-m1_window-1024-71805e85-cold-r01 &&
    strict_json advise --format json tests/runs
}
check "strict JSON (jansson) of table, fit, advise on run folders" strict_runs

# ---------------------------------------------------------------- 4. golden
group "4. golden cases"
leaks on
for c in tests/cases/*.args; do
    c=${c%.args} case_desc=
    [ ! -f "$c.desc" ] || read -r case_desc <"$c.desc"
    check "golden ${c##*/} — $case_desc" golden "$c"
done
check "golden: every case has its .args, .out, .err, .rc and .desc" golden_layout tests/cases
leaks off

# ---------------------------------------------------------------- 5. end to end
group "5. end to end"
e2e_mlir() {
    # A real compile: 300 functions through a lowering pipeline, threaded.
    awk 'BEGIN { for (i = 0; i < 300; i++) {
        printf "func.func @f%d(%%a: i32, %%b: i32) -> i32 {\n", i
        printf "  %%0 = arith.addi %%a, %%b : i32\n  %%1 = arith.muli %%0, %%a : i32\n"
        printf "  %%2 = arith.addi %%1, %%0 : i32\n  return %%2 : i32\n}\n" } }' >"$TMP/in.mlir"
    mlir-opt-22 --mlir-timing \
        --pass-pipeline='builtin.module(inline,func.func(canonicalize,cse),convert-to-llvm,canonicalize)' \
        "$TMP/in.mlir" -o /dev/null 2>"$TMP/real.log" || return 1
    "$NPUSCOPE" tree --format json "$TMP/real.log" >"$TMP/real.json" || return 1
    jqt '.reports | length == 1' "$TMP/real.json" || return 1
    jqt '.reports[0] | .complete and .header_total_s == .root.wall_s and
           ([.root.children[].name] | index("Canonicalizer") != null)' "$TMP/real.json" || return 1
    exact "$TMP/real.log" || return 1
    # the same compile piped straight into npuscope
    mlir-opt-22 --mlir-timing --mlir-timing-display=list \
        --pass-pipeline='builtin.module(canonicalize)' "$TMP/in.mlir" 2>&1 >/dev/null |
        "$NPUSCOPE" tree --format json - | jqt '.reports[0].producer == "mlir-text-list"'
}
e2e_flang() {
    awk 'BEGIN { for (i = 1; i <= 40; i++)
        printf "subroutine s%d(a, n)\n  integer :: n, i\n  real :: a(n)\n  do i = 1, n\n    a(i) = a(i) * 2.0 + %d.0\n  end do\nend subroutine\n", i, i }' >"$TMP/k.f90"
    (cd "$TMP" && flang-22 -O2 -ftime-report -c k.f90 -o k.o) 2>"$TMP/flang.log" || return 1
    "$NPUSCOPE" tree --format json "$TMP/flang.log" >"$TMP/flang.json" || return 1
    jqt '[.reports[] | select(.title == "Flang execution timing report")] | length == 1' "$TMP/flang.json" &&
    jqt '[.reports[] | select(.producer == "llvm-timer-group")] | length >= 2' "$TMP/flang.json" &&
    exact "$TMP/flang.log"
}
e2e_clang() {
    awk 'BEGIN { for (i = 0; i < 30; i++) printf "int f%d(int x){int s=0;for(int i=0;i<x;i++)s+=i*%d;return s;}\n", i, i }' >"$TMP/c.c"
    (cd "$TMP" && clang-22 -O2 -c -ftime-trace=c.trace.json -ftime-report c.c -o c.o) 2>"$TMP/clang.log" || return 1
    "$NPUSCOPE" tree --format json "$TMP/c.trace.json" |
        jqt '.reports[0].producer == "chrome-trace" and ([.. | objects | select(.name? == "ExecuteCompiler")] | length == 1)' &&
    exact "$TMP/clang.log"
}
present "e2e mlir-opt-22 --mlir-timing" mlir-opt-22 && check "e2e mlir-opt-22 --mlir-timing" e2e_mlir
present "e2e flang-22 -ftime-report" flang-22 && check "e2e flang-22 -ftime-report" e2e_flang
present "e2e clang-22 -ftime-trace/-ftime-report" clang-22 &&
    check "e2e clang-22 -ftime-trace/-ftime-report" e2e_clang

# ---------------------------------------------------------------- 6. bad input
group "6. large input"
# The corpus in tests/bad/cases: each input with its exit code and messages,
# never a crash, a hang or unbounded memory (tests/bad/README.md).
# (the fast tier: in the second lane, from the top)
if tier_full; then
    # shellcheck source=tests/run_bad.sh
    . tests/run_bad.sh
fi
# the constructed study: regimes, the per-report fit, size_b, the page
# figures (tests/run_study.sh); predict: a sparse study, a cliff, refusals,
# adaptive sweeps in the full tier (tests/run_predict.sh) -- in the fast
# tier run beside from the top, joined at the end
if tier_full; then
    leaks on
    # shellcheck source=tests/run_study.sh
    . tests/run_study.sh
    # shellcheck source=tests/run_predict.sh
    . tests/run_predict.sh
    leaks off
fi
# the vpux stage map against the compiler's own pass order (tests/stagemap)
# shellcheck source=tests/run_stagemap.sh
. tests/run_stagemap.sh
# per-pass memory: memory-usage-collector lines, tree/run.json/top/diff (tests/run_memory.sh)
# shellcheck source=tests/run_memory.sh
. tests/run_memory.sh
# NPU facts, old and new forms, and NPU logs recognised without a flag
# shellcheck source=tests/run_npu.sh
. tests/run_npu.sh
# (run_groups.sh, run_split.sh, run_mapped.sh: beside, from section 1 on)
# the fault tier's data side: diff at any sample size, one run one count,
# linear readers, names as data (tests/run_faults_data.sh)
# shellcheck source=tests/run_faults_data.sh
. tests/run_faults_data.sh
# compiles that fail, the environment, the timeline of a load (tests/run_failures.sh)
leaks on
# shellcheck source=tests/run_failures.sh
. tests/run_failures.sh
leaks off

# A large input crosses many read-buffer boundaries: the same reports must
# come out as from the small file, byte for byte, from a file and a pipe.
large() {
    for _ in $(seq 1 40); do cat "$FIX/noisy-build.log"; done >"$TMP/big.log"
    [ "$(wc -c <"$TMP/big.log")" -gt 2000000 ] || return 1
    "$NPUSCOPE" tree --format original "$FIX/noisy-build.log" >"$TMP/one" || return 1
    [ -s "$TMP/one" ] || { echo "no report in the small file"; return 1; }
    for _ in $(seq 1 40); do cat "$TMP/one"; done >"$TMP/want40"
    "$NPUSCOPE" tree --format original "$TMP/big.log" >"$TMP/got40" || return 1
    cmp "$TMP/want40" "$TMP/got40" || return 1
    "$NPUSCOPE" tree --format original - <"$TMP/big.log" | cmp - "$TMP/want40"
}
check "a large file and a pipe give the same reports as a small file" large

# ---------------------------------------------------------------- 6a. NPU logs
group "6a. NPU logs"
npuw_dev_names() {
    # a developer build names each subgraph before compiling it
    { echo "[ NPUW:INFO ]     Compiling Subgraph[0]: Model0_kv1152_REP00C9__0..."
      sed -n '/^===-/,/  Total$/p' "$FIX/mlir22-tree-st.txt"
      echo "[ NPUW:INFO ]     Compiling Subgraph[1]: Model0_kv1152_prefill_1..."
      sed -n '/^===-/,/  Total$/p' "$FIX/mlir22-tree-st.txt"
      sed -n '/^===-/,/  Total$/p' "$FIX/mlir22-tree-st.txt"; } >"$TMP/npuw-dev.log"
    "$NPUSCOPE" tree --npuw -q --format json "$TMP/npuw-dev.log" |
        jqt '[.reports[].label] == ["Model0_kv1152_REP00C9__0", "Model0_kv1152_prefill_1", "generate/3"]'
}
check "npuw: developer-build subgraph names label their reports" npuw_dev_names
check "npu facts: none with --no-npu, none in non-NPU logs" npu_no_leak
npu_strategy_log() {
    # dump-strategy-to-log=true: the strategy JSON in the log, then the report
    { echo "[INFO] 09:41:01.000 [output-pipelining] Final strategies for output pipelining:"
      echo "[INFO] 09:41:01.001 [output-pipelining] "
      cat "$FIX/constructed-strategy.json"
      sed -n '/^===-/,/  Total$/p' "$FIX/mlir22-tree-st.txt"; } >"$TMP/strat.log"
    "$NPUSCOPE" tree --npu --format json "$TMP/strat.log" | jqt '.reports[0].metrics == {"tiles": 10, "tiled_ops": 2}' &&
    "$NPUSCOPE" tree --format json "$TMP/strat.log" | jqt '.reports | length == 1'
}
check "npu facts: the strategy logged with dump-strategy-to-log gives tiles" npu_strategy_log
npuw_report() {
    "$NPUSCOPE" report -q --npuw -o "$TMP/npuw.html" "$FIX/constructed-npuw-7.log" &&
    grep -q "By sub-model kind: generate 28.11 s (26%), prefill 71.27 s (67%), lm_head 7.724 s (7%)." "$TMP/npuw.html"
}
check "report --npuw: the finding by sub-model kind" npuw_report

# ---------------------------------------------------------------- 6b. record, sweep, table
# ThreadSanitizer (tests/run_tsan.sh: the threaded scan against a
# clang-22 TSan build, pure CPU) in a lane of its own from here: the
# record and fault groups below mostly wait for the processes they start,
# and the CPU log of make check showed a quarter of the two cores idle
# from here to the load check.  (It used to start after the load check,
# in the busiest part of the run.)  Joined in section 7.
# Section 7's builds and its sanitizer pass (tests/run_builds.sh: clang,
# clang-22 without SSE2, ASan+UBSan, the report under it) start
# here too, in a lane of their own: they race no clock, and beside the
# load check below they got what its busy loops left (584-644 s of a lane
# that takes about 200 s alone).  Started at the very top, they made make
# check two minutes longer: the groups there were not as idle as they
# looked.
if tier_full && [ -z "${NPUSCOPE_INNER:-}" ]; then
    beside tsan tests/run_tsan.sh
    beside builds tests/run_builds.sh
fi
group "6b. record, sweep, table"
leaks on
# (real processes and compiles, timing-sensitive: the full tier only; the
# report page's structure runs in both, its browser tests in the full one)
if tier_full; then
    # shellcheck source=tests/run_record.sh
    . tests/run_record.sh
    # shellcheck source=tests/run_outdir.sh
    . tests/run_outdir.sh
    # (the outer run's run_live.sh is in the load check, below)
    if [ -n "${NPUSCOPE_INNER:-}" ]; then
        # shellcheck source=tests/run_live.sh
        . tests/run_live.sh
    fi
    # the fault tier, process and stream side: streams, signals, job control
    # shellcheck source=tests/run_faults_proc.sh
    . tests/run_faults_proc.sh
    # (npuscope.exe under Wine, tests/run_windows.sh: in a lane of its own
    # from the top, above; not in the inner, sanitized run)
else
    skip "record, sweep and table with real processes and compiles (tests/run_record.sh, run_outdir.sh, run_live.sh, run_faults_proc.sh; make check)"
fi
# the outer full run runs the browser tests and run_live.sh in the load check
if tier_full && [ -z "${NPUSCOPE_INNER:-}" ]; then NS_LOAD=1; fi
# shellcheck source=tests/run_browser.sh
. tests/run_browser.sh
# Beside the load check, in a lane: the checks of one answer per question
# and of configurations (run_consistency.sh, run_configs.sh), which record
# real compiles but time nothing and race no clock.  In make check's
# session they take CPU from the busy loops (autogroup: tests/
# run_load.sh), not from the pages.  (The inner sanitized run has no load
# check and sources run_configs.sh below.)
if tier_full && [ -z "${NPUSCOPE_INNER:-}" ]; then
    beside window sourced:tests/run_consistency.sh sourced:tests/run_configs.sh
fi
if [ -n "${NS_LOAD:-}" ]; then
    # the timing-sensitive checks three times beside two busy loops per CPU
    # shellcheck source=tests/run_load.sh
    . tests/run_load.sh
fi
if tier_full; then
    # Real timing -- fits of real compiles' exponents, a diff A/B of them --
    # not in the inner sanitized run, which runs beside the outer one and,
    # late in make check, beside the load check's busy loops: there an A run
    # hit by a burst of load outlasted B runs (medians 3.6 s and 14.8 s, yet
    # p 0.095, twice), and a fit's exponent came out 1.58.  That measures
    # the machine, not npuscope; fit's and diff's code runs sanitized in the
    # golden cases, run_configs.sh and run_faults_data.sh.
    if [ -z "${NPUSCOPE_INNER:-}" ]; then
        # shellcheck source=tests/run_analysis.sh
        . tests/run_analysis.sh
    fi
    # run_configs.sh: in the outer run, the lane beside the load check
    # (above); run_consistency.sh there too, and not in the inner sanitized
    # run: it records real compiles and compares the numbers each output
    # prints -- the same code paths as the exports, golden cases and
    # analyses it runs sanitized, so a second copy found nothing new and
    # cost about 100 s of a core; run_pandas.sh's work is python's
    if [ -n "${NPUSCOPE_INNER:-}" ]; then
        # shellcheck source=tests/run_configs.sh
        . tests/run_configs.sh
    fi
    # real neighbours: a one-host Slurm cluster, and pandas reading the tables
    # shellcheck source=tests/run_slurm.sh
    . tests/run_slurm.sh
    if [ -z "${NPUSCOPE_INNER:-}" ]; then
        # shellcheck source=tests/run_pandas.sh
        . tests/run_pandas.sh
    fi
else
    skip "fit and diff on real compiles, configurations and widths, consistency, Slurm, pandas (tests/run_analysis.sh, run_configs.sh, run_consistency.sh, run_slurm.sh, run_pandas.sh; make check)"
fi

# the groups run beside, joined
group "joining the groups run beside"
beside_join first
if ! tier_full; then beside_join second; fi
if tier_full && [ -z "${NPUSCOPE_INNER:-}" ]; then beside_join window; fi

# ---------------------------------------------------------------- 7. other builds
group "7. other builds"
if [ -z "${NPUSCOPE_INNER:-}" ] && ! tier_full; then
    skip "other builds: clang, clang-22, no SSE2, ASan+UBSan (and the report under it), TSan, the whole suite sanitized (make check)"
elif [ -z "${NPUSCOPE_INNER:-}" ]; then
    group "7. other builds, beside: joining"
    beside_join builds
    beside_join tsan
    beside_join windows
    # The whole suite once more (sections 2-6: exactness, exports, golden
    # cases, real compiles, bad input, record/sweep faults, analyses)
    # against an ASan+UBSan build made by clang-22, begun in the background
    # at the top: every test above runs sanitized, and with the other
    # compiler's code.  A sanitizer report exits 86 or 87, which no test
    # expects; UBSan aborts (-fno-sanitize-recover), which every test sees
    # as a crash.  Its summary line must say that checks ran and none
    # failed; its groups' times join ours, marked "beside".
    group "7. waiting for the sanitized suite"
    wait_for 3600 all_exist "$INNER_DIR/done" || echo "the sanitized suite did not finish within an hour" >>"$INNER_DIR/out"
    whole_suite_sanitized() {
        prog_run "the inner suite" sh -c 'cat "$1"; cat "$2" >&2; exit "$(cat "$3")"' sh \
            "$INNER_DIR/out" "$INNER_DIR/err" "$INNER_DIR/rc" || { echo "$prog_why"; cat "$TMP/prog.why"; return 1; }
        tail -n 1 "$TMP/prog.out"
        [ "$prog_fail" -eq 0 ]
    }
    check "the whole suite against a clang-22 ASan+UBSan build (run beside this one)" whole_suite_sanitized
    ns_times_join "sanitized, beside: " "$INNER_DIR/out"
fi

# The suite leaves the machine as it found it.  Run as root, anything that
# replaces its output file (a rename over it, an unlink first) given
# /dev/null would turn it into a plain file, and every later test would
# then fail oddly (tmux's server cannot start): say so here, plainly
check "the suite left /dev/null a character device" test -c /dev/null

finish
