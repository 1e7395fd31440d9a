#!/usr/bin/env bash
# dense.sh -- `top` on a report-dense log against its floors (bench.sh runs it).
#
# The log is a CI job's: many `mlir-opt --mlir-timing` runs, each printing
# its report (the MLIR text fixtures, tree display) between 20 and 200 lines
# of build and test output, about half the bytes report rows -- the worst
# case for npuscope, where its parsers, not the noise skip, set the speed.
# Against, in the same run on the same file (best of BENCH_RUNS each, page
# cache warm):
#   - tests/bench/dense_scan.c, a hand-written single-pass scanner of that
#     one format (it hashes each row name once): target within 1.5x;
#   - `wc -l`: the floor of reading the file at all.
# The two must agree on the reports and the five heaviest rows, or the
# bench fails (exit 1).  Timings are never asserted.
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
# best_of N OUT CMD...: BEST (s) of N runs, stdout to OUT
best_of() {
    local n=$1 out=$2 i t0 t1 d best=; shift 2
    for ((i = 0; i < n; i++)); do
        stamp t0; "$@" > "$out" 2> "$W/err" || { fail "'$*' failed: $(head -c 300 "$W/err")"; BEST=; return 1; }
        stamp t1; d=$((t1 - t0))
        if [ -z "$best" ] || [ "$d" -lt "$best" ]; then best=$d; fi
    done
    BEST=$(calc "%.4f" "$best / 1e9")
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
best_of "$BENCH_RUNS" "$W/out" wc -l "$LOG"; wc_s=$BEST
best_of "$BENCH_RUNS" "$W/base.out" "$W/dense_scan" "$LOG"; base_s=$BEST
top_s=
if best_of "$BENCH_RUNS" "$W/top.json" "$NPUSCOPE" top -q -n 5 --format json "$LOG"; then top_s=$BEST; fi
mbps() { calc "%.0f" "$bytes / $MB / $1"; }
echo "wc -l                         : ${wc_s} s  $(mbps "$wc_s") MB/s"
echo "dense_scan (hand-written)     : ${base_s} s  $(mbps "$base_s") MB/s"
[ -z "$top_s" ] || echo "npuscope top -q -n 5          : ${top_s} s  $(mbps "$top_s") MB/s"

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
row() { printf '| %-40s | %-14s | %-20s | %-6s | %-8s | %-7s |\n' "$@"; }
met() { if awk "BEGIN { exit !($1) }"; then echo met; else echo "not met"; fi; }
row measure value baseline ratio target met
if [ -n "$top_s" ]; then
    r=$(calc "%.2f" "$top_s / $base_s")
    row "dense log, top vs hand-written scanner" "$(mbps "$top_s") MB/s" "dense_scan $(mbps "$base_s") MB/s" "${r}x" "<= 1.5x" "$(met "$r <= 1.5")"
    r=$(calc "%.2f" "$wc_s / $top_s")
    row "dense log, top vs wc -l" "$(mbps "$top_s") MB/s" "wc -l $(mbps "$wc_s") MB/s" "$r" "-" "-"
fi

# ---- two threads (parse/split.h; the split helper's block) ----
# The same log read with --threads 2 and --threads 1, wall clock (what a
# second thread buys is throughput), against `wc -l` measured again right
# before them; the two outputs must be the same bytes.
best_of "$BENCH_RUNS" "$W/out" wc -l "$LOG"; wc2_s=$BEST
t1_s= t2_s=
if best_of "$BENCH_RUNS" "$W/top1.json" "$NPUSCOPE" top -q -n 5 --format json --threads 1 "$LOG"; then t1_s=$BEST; fi
if best_of "$BENCH_RUNS" "$W/top2.json" "$NPUSCOPE" top -q -n 5 --format json --threads 2 "$LOG"; then t2_s=$BEST; fi
if [ -n "$t1_s" ] && [ -n "$t2_s" ]; then
    cmp -s "$W/top1.json" "$W/top2.json" || fail "top --threads 2 and --threads 1 differ"
    r=$(calc "%.2f" "$wc2_s / $t2_s")
    row "dense log, top --threads 2 vs wc -l" "$(mbps "$t2_s") MB/s" "wc -l $(mbps "$wc2_s") MB/s" "$r" ">= 0.25" "$(met "$r >= 0.25")"
    r=$(calc "%.2f" "$wc2_s / $t1_s")
    row "dense log, top --threads 1 vs wc -l" "$(mbps "$t1_s") MB/s" "wc -l $(mbps "$wc2_s") MB/s" "$r" "-" "-"
    r=$(calc "%.2f" "$t1_s / $t2_s")
    row "dense log, --threads 2 speed-up" "$(mbps "$t2_s") MB/s" "--threads 1 $(mbps "$t1_s") MB/s" "${r}x" "-" "-"
fi
exit "$FAILED"
