#!/usr/bin/env bash
# dense.sh -- `top` on a report-dense log against its floors (bench.sh runs it).
#
# The log is a CI job's: many `mlir-opt --mlir-timing` runs, each printing
# its report (the MLIR text fixtures, tree display) between 20 and 200 lines
# of build and test output, about half the bytes report rows -- the worst
# case for npuscope, where its parsers, not the noise skip, set the speed.
# Against, in the same run on the same file (best of BENCH_RUNS each,
# interleaved, page cache warm):
#   - tests/bench/dense_scan.c, a hand-written single-pass scanner of that
#     one format (it hashes each row name once): target within 1.5x;
#   - `wc -l`: the floor of reading the file at all.
# The ratios are of CPU time (user + sys of the process, from getrusage
# through bash's `times`, to the millisecond): on a shared machine the wall
# clock measures the neighbours as much as the program (2.78x in wall time
# under a load of 10-16 was about 2x in CPU time).  Wall times are printed
# beside them.
# The two must agree on the reports and the five heaviest rows, or the
# bench fails (exit 1).  Timings are never asserted.
#
# Each measurement is a function (measure_wc, measure_scan, measure_top)
# that sets its NAME_cpu and NAME_wall and adds its table rows in
# report_rows; a new one (another thread count, another tool) is one more
# function and one line in each list below.
#
# Environment: BENCH_DENSE_MB (200), BENCH_RUNS (3), NPUSCOPE (./npuscope),
# BENCH_DIR (where to write; default a new mktemp -d), BENCH_KEEP=1 (keep
# the log), CC (cc).
set -u
cd "$(dirname "$0")/../.." || exit 2
export LC_ALL=C
MB=1000000
BENCH_DENSE_MB=${BENCH_DENSE_MB:-200}
BENCH_RUNS=${BENCH_RUNS:-3}
NPUSCOPE=${NPUSCOPE:-./npuscope}
for v in BENCH_DENSE_MB BENCH_RUNS; do
    case ${!v} in ''|*[!0-9]*|0) echo "dense.sh: $v must be a positive integer (got '${!v}')" >&2; exit 2;; esac
done
[ -x "$NPUSCOPE" ] || { echo "dense.sh: $NPUSCOPE not found: run 'make' first" >&2; exit 2; }
if [ -n "${BENCH_DIR:-}" ]; then
    W=$BENCH_DIR/dense; mkdir -p "$W" || exit 2
else
    W=$(mktemp -d "${TMPDIR:-/tmp}/npuscope-dense.XXXXXX") || exit 2
fi
if [ "${BENCH_KEEP:-0}" = 1 ]; then trap 'echo "kept: $W/dense.log"' EXIT; else trap 'rm -rf "$W"' EXIT; fi
trap 'exit 130' INT TERM
FAILED=0
fail() { echo "dense.sh: FAIL: $*" >&2; FAILED=1; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
stamp() { printf -v "$1" '%s000' "${EPOCHREALTIME/./}"; }

# bash's `times` prints "XmY.YYYs XmY.YYYs" (user, sys) for the shell, then
# for its children: their sum, in seconds
cpu_of() { awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] } printf "%.4f", t }'; }

# run_once OUT CMD...: one run, stdout to OUT; sets ONE_CPU and ONE_WALL (s).
# The command runs in a subshell of its own, so that `times` there counts
# it alone.
run_once() {
    local out=$1 t0 t1; shift
    stamp t0
    ( "$@" > "$out" 2> "$W/err" || exit 1; times > "$W/times" ) || { fail "'$*' failed: $(head -c 300 "$W/err")"; return 1; }
    stamp t1
    ONE_CPU=$(cpu_of < "$W/times")
    ONE_WALL=$(calc "%.4f" "($t1 - $t0) / 1e9")
}

# keep_best NAME: NAME_cpu, NAME_wall = the smaller of theirs and this run's
keep_best() {
    local c=${1}_cpu w=${1}_wall
    if [ -z "${!c:-}" ] || awk "BEGIN { exit !($ONE_CPU < ${!c}) }"; then printf -v "$c" %s "$ONE_CPU"; fi
    if [ -z "${!w:-}" ] || awk "BEGIN { exit !($ONE_WALL < ${!w}) }"; then printf -v "$w" %s "$ONE_WALL"; fi
}

"${CC:-cc}" -O2 -o "$W/dense_scan" tests/bench/dense_scan.c || { echo "dense.sh: cannot build dense_scan" >&2; exit 2; }

# one block of about 10 MB, repeated: reports between CI noise (seeded: the
# same log on every machine)
FIX=tests/fixtures
awk -v target=$((10 * MB)) 'BEGIN { srand(16) }
function noise(   k) {
    k = int(rand() * 6)
    if (k == 0) return sprintf("[%3d%%] Building CXX object lib/Dialect/D%d/CMakeFiles/obj.dir/Op%d.cpp.o", int(rand() * 100), int(rand() * 40), int(rand() * 900))
    if (k == 1) return sprintf("+ mlir-opt-22 --mlir-timing --pass-pipeline=builtin.module(inline,canonicalize) test/case_%d.mlir -o /dev/null", int(rand() * 9000))
    if (k == 2) return sprintf("PASS: MLIR :: Dialect/Arith/case_%d.mlir (%d of 9000)", int(rand() * 9000), int(rand() * 9000))
    if (k == 3) return sprintf("[%d/%d] Linking CXX executable bin/tool_%d", int(rand() * 900), 900, int(rand() * 50))
    if (k == 4) return sprintf("ok %d - conversion/test_%d.mlir", int(rand() * 9000), int(rand() * 9000))
    return sprintf("-- Found dependency lib%d (version %d.%d)", int(rand() * 90), int(rand() * 20), int(rand() * 10))
}
FNR == 1 { nf++ }
{ text[nf] = text[nf] $0 "\n" }
END {
    while (bytes < target) {
        for (i = 20 + int(rand() * 181); i > 0; i--) { l = noise(); print l; bytes += length(l) + 1 }
        k = 1 + int(rand() * nf); printf "%s", text[k]; bytes += length(text[k]); reports++
    }
    print reports > "/dev/stderr"
}' "$FIX/mlir22-tree-mt.txt" "$FIX/mlir22-tree-st.txt" "$FIX/mlir14-tree-mt.txt" "$FIX/mlir22-inliner-st.txt" \
    > "$W/block.log" 2> "$W/block.n" || { echo "dense.sh: generating the log failed" >&2; exit 2; }
bsize=$(wc -c < "$W/block.log")
nblocks=$(( (BENCH_DENSE_MB * MB + bsize - 1) / bsize ))
for ((i = 0; i < nblocks; i++)); do cat "$W/block.log"; done > "$W/dense.log" || exit 2
LOG=$W/dense.log
bytes=$(wc -c < "$LOG")
want_reports=$(( $(cat "$W/block.n") * nblocks ))
cat "$LOG" > /dev/null

echo "log     : $(calc "%.0f" "$bytes / $MB") MB, $want_reports MLIR text reports between 20..200 CI lines each"

# ====== Measurements ======
# One run each; the loop below interleaves them, BENCH_RUNS rounds, so
# that each side of a ratio ran within seconds of the other.  A failed run
# leaves its NAME_cpu unset, and what reads it is skipped.
measure_wc() { run_once "$W/out" wc -l "$LOG" && keep_best wc; }
measure_scan() { run_once "$W/base.out" "$W/dense_scan" "$LOG" && keep_best scan; }
measure_top() {
    [ "${top_failed:-0}" = 1 ] && return 1
    run_once "$W/top.json" "$NPUSCOPE" top -q -n 5 --format json "$LOG" && keep_best top || top_failed=1
}
# two threads (parse/split.h): what a second thread buys is throughput,
# so its figure is wall clock, against wc -l's wall clock of the same rounds
measure_top2() {
    [ "${top2_failed:-0}" = 1 ] && return 1
    run_once "$W/top2.json" "$NPUSCOPE" top -q -n 5 --format json --threads 2 "$LOG" && keep_best top2 || top2_failed=1
}
MEASURES="measure_wc measure_scan measure_top measure_top2"
for ((i = 0; i < BENCH_RUNS; i++)); do
    for m in $MEASURES; do $m; done
done

# MB/s at $1 seconds ("-" for a time below the clock's millisecond)
mbps() { if awk "BEGIN { exit !($1 > 0) }"; then calc "%.0f" "$bytes / $MB / $1"; else echo -; fi; }
line() { printf '%-30s: %s s CPU (%s s wall)  %s MB/s of CPU time\n' "$1" "$2" "$3" "$(mbps "$2")"; }
[ -z "${wc_cpu:-}" ] || line "wc -l" "$wc_cpu" "$wc_wall"
[ -z "${scan_cpu:-}" ] || line "dense_scan (hand-written)" "$scan_cpu" "$scan_wall"
[ -z "${top_cpu:-}" ] || line "npuscope top -q -n 5" "$top_cpu" "$top_wall"
[ -z "${top2_cpu:-}" ] || line "npuscope top --threads 2" "$top2_cpu" "$top2_wall"
[ -n "${scan_cpu:-}" ] && [ -n "${wc_cpu:-}" ] || { echo "dense.sh: the baselines did not run" >&2; exit 2; }
top_s=${top_cpu:-}

# both read the same log: the reports, and the five heaviest rows to the digit
if [ -n "$top_s" ]; then
    got=$(grep -o '"reports":[0-9]*' "$W/top.json" | head -1 | cut -d: -f2)
    [ "$got" = "$want_reports" ] || fail "npuscope finds ${got:-no} reports, $want_reports were put in"
    base_reports=$(sed -n '1s/^reports=\([0-9]*\).*/\1/p' "$W/base.out")
    [ "$base_reports" = "$want_reports" ] || fail "dense_scan finds $base_reports reports, $want_reports were put in"
    jq -r '.rows[] | "\(.wall_s) \(.name)"' "$W/top.json" | awk '{ printf "%.4f", $1; $1 = ""; print }' > "$W/top.rows"
    tail -n +2 "$W/base.out" > "$W/base.rows"
    cmp -s "$W/top.rows" "$W/base.rows" || fail "npuscope and dense_scan disagree on the heaviest rows: $(paste -d'|' "$W/top.rows" "$W/base.rows" | head -5 | tr '\n' ' ')"
fi

echo
row() { printf '| %-44s | %-14s | %-20s | %-6s | %-8s | %-7s |\n' "$@"; }
met() { if awk "BEGIN { exit !($1) }"; then echo met; else echo "not met"; fi; }
# ====== The table (CPU time) ======
report_top() {
    [ -n "${top_cpu:-}" ] || return 0
    local r
    r=$(calc "%.2f" "$top_cpu / ($scan_cpu > 0 ? $scan_cpu : 1e-9)")
    row "dense log, top vs hand-written scanner" "$(mbps "$top_cpu") MB/s" "dense_scan $(mbps "$scan_cpu") MB/s" "${r}x" "<= 1.5x" "$(met "$r <= 1.5")"
    r=$(calc "%.2f" "$wc_cpu / ($top_cpu > 0 ? $top_cpu : 1e-9)")
    row "dense log, top vs wc -l" "$(mbps "$top_cpu") MB/s" "wc -l $(mbps "$wc_cpu") MB/s" "$r" "-" "-"
}
# the two-thread run must print the same bytes as the single-threaded one
report_threads() {
    [ -n "${top_wall:-}" ] && [ -n "${top2_wall:-}" ] || return 0
    cmp -s "$W/top.json" "$W/top2.json" || fail "top --threads 2 and --threads 1 differ"
    local r
    r=$(calc "%.2f" "$wc_wall / ($top2_wall > 0 ? $top2_wall : 1e-9)")
    row "dense log, top --threads 2 vs wc -l (wall)" "$(mbps "$top2_wall") MB/s" "wc -l $(mbps "$wc_wall") MB/s" "$r" ">= 0.25" "$(met "$r >= 0.25")"
    r=$(calc "%.2f" "$wc_wall / ($top_wall > 0 ? $top_wall : 1e-9)")
    row "dense log, top --threads 1 vs wc -l (wall)" "$(mbps "$top_wall") MB/s" "wc -l $(mbps "$wc_wall") MB/s" "$r" "-" "-"
    r=$(calc "%.2f" "$top_wall / ($top2_wall > 0 ? $top2_wall : 1e-9)")
    row "dense log, --threads 2 speed-up (wall)" "$(mbps "$top2_wall") MB/s" "--threads 1 $(mbps "$top_wall") MB/s" "${r}x" "-" "-"
}
REPORTS="report_top report_threads"
echo "CPU time (user+sys), best of $BENCH_RUNS; the --threads rows in wall clock:"
row measure value baseline ratio target met
for rp in $REPORTS; do $rp; done
exit "$FAILED"
