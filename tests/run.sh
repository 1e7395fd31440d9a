#!/usr/bin/env bash
# run.sh -- every test of npuscope; `make check` runs it after building.
#
#   1. unit tests (tests/unit.c)
#   2. exactness: every fixture's reports re-printed byte for byte
#      (`tree --format original` against an independent awk extraction)
#   3. exports: json/chrome/speedscope parse as JSON (jq) and agree with the
#      row counts; csv and folded have the documented shape
#   4. golden cases: tests/cases/NAME.args -> NAME.out / NAME.err / NAME.rc
#   5. end to end: real mlir-opt-22, flang-22 and clang-22 compiles
#   6. bad input: nothing crashes, hangs, or goes unexplained
#   7. the same build with clang, and the suite under ASan+UBSan
# The last line is "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
NPUSCOPE=${NPUSCOPE:-./build/npuscope}
FIX=tests/fixtures
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0

ok()   { pass=$((pass + 1)); [ -n "${VERBOSE:-}" ] && echo "ok   $*"; return 0; }
bad()  { fail=$((fail + 1)); echo "FAIL $*"; }
check() { local name=$1; shift; if "$@" >"$TMP/out" 2>&1; then ok "$name"; else bad "$name"; sed 's/^/     /' "$TMP/out" | head -20; fi; }

# ---------------------------------------------------------------- 1. unit
for u in build/unit build/unit_*; do
    [ -x "$u" ] || continue
    out=$("$u") || true
    echo "$out" | grep '^FAIL' || true
    last=$(echo "$out" | tail -n 1)
    u_pass=$(echo "$last" | sed -n 's/^[a-z_]*: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    u_fail=$(echo "$last" | sed -n 's/^[a-z_]*: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
    if [ -z "$u_pass" ]; then bad "$u did not finish"; else
        pass=$((pass + u_pass)); fail=$((fail + u_fail)); fi
done

# ---------------------------------------------------------------- 2. exactness
# Clean what the scanner cleans (colour, CR, logger prefixes) before the
# naive extraction; the reports themselves are untouched.
clean() { sed 's/\x1b\[[0-9;]*m//g; s/\r$//; s/^\[[A-Z]*\] [^ ]* \[[^]]*\] //' "$1"; }
exact() {
    local f=$1
    clean "$f" | awk -f tests/extract-reports.awk >"$TMP/want"
    [ -s "$TMP/want" ] || { echo "no report extracted from $f"; return 1; }
    "$NPUSCOPE" tree --format original "$f" >"$TMP/got" 2>"$TMP/err" || return 1
    [ ! -s "$TMP/err" ] || { echo "unexpected warnings:"; cat "$TMP/err"; return 1; }
    diff "$TMP/want" "$TMP/got"
}
for f in "$FIX"/*.txt "$FIX"/*.log; do
    check "exact $(basename "$f")" exact "$f"
done

# ---------------------------------------------------------------- 3. exports
exports() {
    local f=$1 n
    "$NPUSCOPE" tree -q --format json "$f" >"$TMP/j" || return 1
    # rows + roots = nodes; every report complete; Total == header total
    n=$(jq '[.reports[] | [.root | .. | objects | select(has("children"))] | length] | add' "$TMP/j") || return 1
    jq -e '[.reports[] | .complete] | all' "$TMP/j" >/dev/null || { echo "incomplete report"; return 1; }
    jq -e '[.reports[] | select(.header_total_s != null and .producer != "llvm-timer-group")
            | .header_total_s == .root.wall_s] | all' "$TMP/j" >/dev/null ||
        { echo "Total differs from Total Execution Time"; return 1; }
    jq -e '[.reports[] | select(.header_wall_clock_s != null) | .header_wall_clock_s == .root.wall_s] | all' \
        "$TMP/j" >/dev/null || { echo "LLVM Total wall differs from the wall clock header"; return 1; }
    local rows; rows=$("$NPUSCOPE" tree -q --format csv "$f" | tail -n +2 | wc -l)
    local reports; reports=$(jq '.reports | length' "$TMP/j")
    [ "$rows" -eq $((n - reports)) ] || { echo "csv rows $rows, json nodes $n, reports $reports"; return 1; }
    "$NPUSCOPE" tree -q --format chrome "$f" | jq -e '.traceEvents | length > 0' >/dev/null || return 1
    "$NPUSCOPE" tree -q --format speedscope "$f" |
        jq -e '[.profiles[] | (.samples | length) == (.weights | length)] | all' >/dev/null || return 1
    "$NPUSCOPE" tree -q --format folded "$f" | grep -qv ' [0-9][0-9]*$' && { echo "bad folded line"; return 1; }
    "$NPUSCOPE" top -q -n 0 --format json "$f" | jq -e '.rows | length > 0' >/dev/null || return 1
    return 0
}
for f in "$FIX"/*.txt "$FIX"/*.log "$FIX"/*ftime-trace.json; do
    check "exports $(basename "$f")" exports "$f"
done

# ---------------------------------------------------------------- 4. golden
golden() {
    local c=$1 args=()
    mapfile -t args <"$c.args"
    "$NPUSCOPE" "${args[@]}" >"$TMP/out" 2>"$TMP/err" </dev/null
    echo $? >"$TMP/rc"
    diff "$c.out" "$TMP/out" && diff "$c.err" "$TMP/err" && diff "$c.rc" "$TMP/rc"
}
for c in tests/cases/*.args; do
    check "golden $(basename "${c%.args}")" golden "${c%.args}"
done

# ---------------------------------------------------------------- 5. end to end
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
    jq -e '.reports | length == 1' "$TMP/real.json" >/dev/null || return 1
    jq -e '.reports[0] | .complete and .header_total_s == .root.wall_s and
           ([.root.children[].name] | index("Canonicalizer") != null)' "$TMP/real.json" >/dev/null || return 1
    exact "$TMP/real.log" || return 1
    # the same compile piped straight into npuscope
    mlir-opt-22 --mlir-timing --mlir-timing-display=list \
        --pass-pipeline='builtin.module(canonicalize)' "$TMP/in.mlir" 2>&1 >/dev/null |
        "$NPUSCOPE" tree --format json - | jq -e '.reports[0].producer == "mlir-text-list"' >/dev/null
}
e2e_flang() {
    printf 'subroutine s%d(a, n)\n  integer :: n, i\n  real :: a(n)\n  do i = 1, n\n    a(i) = a(i) * 2.0 + %d.0\n  end do\nend subroutine\n' \
        $(seq 1 40 | awk '{print $1, $1}') >"$TMP/k.f90"
    (cd "$TMP" && flang-22 -O2 -ftime-report -c k.f90 -o k.o) 2>"$TMP/flang.log" || return 1
    "$NPUSCOPE" tree --format json "$TMP/flang.log" >"$TMP/flang.json" || return 1
    jq -e '[.reports[] | select(.title == "Flang execution timing report")] | length == 1' "$TMP/flang.json" >/dev/null &&
    jq -e '[.reports[] | select(.producer == "llvm-timer-group")] | length >= 2' "$TMP/flang.json" >/dev/null &&
    exact "$TMP/flang.log"
}
e2e_clang() {
    awk 'BEGIN { for (i = 0; i < 30; i++) printf "int f%d(int x){int s=0;for(int i=0;i<x;i++)s+=i*%d;return s;}\n", i, i }' >"$TMP/c.c"
    (cd "$TMP" && clang-22 -O2 -c -ftime-trace=c.trace.json -ftime-report c.c -o c.o) 2>"$TMP/clang.log" || return 1
    "$NPUSCOPE" tree --format json "$TMP/c.trace.json" |
        jq -e '.reports[0].producer == "chrome-trace" and ([.. | objects | select(.name? == "ExecuteCompiler")] | length == 1)' >/dev/null &&
    exact "$TMP/clang.log"
}
check "e2e mlir-opt-22 --mlir-timing" e2e_mlir
check "e2e flang-22 -ftime-report" e2e_flang
check "e2e clang-22 -ftime-trace/-ftime-report" e2e_clang

# ---------------------------------------------------------------- 6. bad input
# Each: input, expected exit code, a pattern the stderr must contain.
badcase() {
    local name=$1 want_rc=$2 pattern=$3 rc
    timeout 60 "$NPUSCOPE" tree "$TMP/$name" >"$TMP/bo" 2>"$TMP/be"; rc=$?
    [ "$rc" -eq "$want_rc" ] || { echo "exit $rc, wanted $want_rc"; cat "$TMP/be"; return 1; }
    if [ -z "$pattern" ]; then
        [ ! -s "$TMP/be" ] || { echo "unexpected messages:"; cat "$TMP/be"; return 1; }
    else
        grep -q -- "$pattern" "$TMP/be" || { echo "stderr lacks '$pattern':"; cat "$TMP/be"; return 1; }
    fi
}
: >"$TMP/empty"
awk 'BEGIN { srand(7); for (i = 0; i < 65536; i++) printf "%c", int(rand() * 256) }' >"$TMP/binary"
printf 'a\0b\nc\0\0d\n' >"$TMP/nul"
head -n 9 "$FIX/mlir22-tree-st.txt" >"$TMP/truncated"
head -n 4 "$FIX/mlir22-tree-st.txt" >"$TMP/header-only"
{ head -n 6 "$FIX/mlir22-tree-st.txt"; awk 'BEGIN { for (i = 0; i < 10000; i++) { printf "    0.0001 (  0.0%%)  "; for (j = 0; j < i; j++) printf "  "; print "P" i } }'; } >"$TMP/deep"
{ cat "$FIX/mlir22-tree-st.txt"; awk 'BEGIN { for (i = 0; i < 1048576; i++) printf "x"; print "" }'; cat "$FIX/mlir22-tree-st.txt"; } >"$TMP/longline"
sed '9s/0\.0/0.X/; 11s/( *[0-9.]*%)/(abc%)/' "$FIX/mlir22-tree-st.txt" >"$TMP/garbage"
check "bad: empty file"      badcase empty 1 "npuscope: no timing report found"
check "bad: binary"          badcase binary 1 "npuscope: no timing report found"
check "bad: NUL bytes"       badcase nul 1 "npuscope: no timing report found"
check "bad: truncated"       badcase truncated 0 "truncated:1: warning: report #1 is incomplete"
check "bad: header only"     badcase header-only 1 "no timing report found"
check "bad: 10000-deep"      badcase deep 0 "deep:1: warning: report #1 is incomplete"
check "bad: 1 MB line"       badcase longline 0 ""
check "bad: garbage numbers" badcase garbage 0 "garbage:.*: warning: report #1: skipped"
check "bad: missing file"    badcase no-such-file 2 "npuscope: .*no-such-file: No such file or directory"
# more bad input: each must give its exit code, say what is wrong, never
# crash, and keep every export valid JSON
mk_rows() { head -n 6 "$FIX/mlir22-tree-st.txt"; printf '%s\n' "$@"; }
mk_rows "    0.0100 ( 10.0%)  caf$(printf '\xff\xfe')" "    0.1000 (100.0%)  Total" >"$TMP/bad-utf8"
mk_rows "    0.0100 ( 10.0%)  A" "    0.0100 ( 10.0%)    0.0100 ( 10.0%)  B" "    0.1000 (100.0%)  Total" >"$TMP/bad-columns"
mk_rows "       nan (  nan%)  A" "      -inf ( -inf%)  B" "   -5.0000 ( -5.0%)  C" \
        "99999999999999999999.0000 (100.0%)  D" "    0.1000 (100.0%)  Total" >"$TMP/bad-numbers"
printf '[\n{"wall": {"duration": "fast", "percentage":   1.0}, "name": "A", "passes": [\n{}]},\n]\n' >"$TMP/bad-json-types"
printf '{"traceEvents":[{"ph":"X","ts":"soon","dur":5,"name":"A","pid":1,"tid":1},{"ph":"X","ts":1,"dur":2,"name":7}]}' >"$TMP/bad-trace-types"
head -n 3 "$FIX/mlir22-tree-st.txt" >"$TMP/bad-mid-header"
awk 'BEGIN { for (i = 0; i < 100000; i++) { print "===-------------------------------------------------------------------------==="; print "  ... Execution time report ..."; print "===-------------------------------------------------------------------------==="; print "  Total Execution Time: 0.0010 seconds"; print ""; print "  ----Wall Time----  ----Name----"; print "    0.0010 (100.0%)  P"; print "    0.0000 (  0.0%)  Rest"; print "    0.0010 (100.0%)  Total" } }' >"$TMP/bad-100k"
badjson() { # badjson NAME RC: exit RC, no crash, the json export still valid
    local name=$1 want=$2 rc
    timeout 60 "$NPUSCOPE" tree -q --format json "$TMP/$name" >"$TMP/bj.json" 2>"$TMP/bj.err"; rc=$?
    [ "$rc" -eq "$want" ] || { echo "exit $rc, wanted $want"; cat "$TMP/bj.err"; return 1; }
    [ "$rc" -ne 0 ] || jq -e . "$TMP/bj.json" >/dev/null || { echo "invalid JSON"; return 1; }
}
check "bad: invalid UTF-8 in a name (JSON stays valid)" badjson bad-utf8 0
check "bad: invalid UTF-8 is replaced, not dropped" sh -c "\"$NPUSCOPE\" tree -q --format json \"$TMP/bad-utf8\" | grep -q 'caf\\\\ufffd\\\\ufffd'"
check "bad: columns that change mid-report" badcase bad-columns 0 "skipped 1 line that is not a row"
check "bad: nan, -inf, negative, absurdly large numbers (JSON null, no crash)" badjson bad-numbers 0
check "bad: MLIR JSON with a string duration" badcase bad-json-types 0 "report #1 is incomplete"
check "bad: trace JSON with wrong types" badcase bad-trace-types 2 "skipped 2 malformed trace events"
check "bad: truncated mid-header" badcase bad-mid-header 1 "no timing report found"
hundred_k() {
    [ "$(timeout 120 "$NPUSCOPE" top -q --format json "$TMP/bad-100k" | jq .reports)" -eq 100000 ]
}
check "bad: 100,000 reports in one file" hundred_k

# regressions found by fuzzing and review (tests/bad/README.md)
cp tests/bad/review-scan-1 "$TMP/review-scan-1"
check "bad: '[' + 4096 blanks + '{' (trace sniffing overflow)" badcase review-scan-1 1 "no timing report found"
npuw_layout_whole() {
    "$NPUSCOPE" tree --npuw=a:1,bad --format csv tests/bad/review-scan-2 >"$TMP/o" 2>"$TMP/e"
    [ $? -eq 2 ] && grep -q "a layout is STAGE:COUNT" "$TMP/e"
}
check "bad: an NPUW layout malformed after its first part is refused" npuw_layout_whole
metric_stacked() {
    timeout 5 "$NPUSCOPE" record -q -o "$TMP/mx" --metric "x=$(cat tests/bad/fuzz-fuzz_metric-1 | cut -c3-)" -- true 2>"$TMP/e"
    [ $? -eq 2 ] && grep -q "repeats repetitions too deeply" "$TMP/e" || return 1
    timeout 5 "$NPUSCOPE" record -q -o "$TMP/mx" --metric 'x=(((((((((((((((((((n)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+' -- true 2>"$TMP/e"
    [ $? -eq 2 ] && grep -q "repeats repetitions too deeply" "$TMP/e" || return 1
    timeout 5 "$NPUSCOPE" tree --label-regex '((n{1000}){1000}){1000}' "$FIX/mlir22-tree-st.txt" >/dev/null 2>"$TMP/e"
    [ $? -eq 2 ] && grep -q "repeats repetitions too deeply" "$TMP/e" || return 1
    # ordinary patterns, many repetitions in a row, are fine
    "$NPUSCOPE" tree -q --label-regex 'a+b+c+d+e+f+g+h+i+j+k+l+m+n+o+p+q+r+s+t+u+v+w+x+y+z+([0-9]+)' "$FIX/mlir22-tree-st.txt" >/dev/null
}
check "bad: --metric and --label-regex patterns that would explode in regcomp are refused" metric_stacked
# (jq stops at depth 10000, so count by text: every row once, fully closed)
deep_json() {
    "$NPUSCOPE" tree -q --format json "$TMP/deep" >"$TMP/deep.json" || return 1
    [ "$(grep -o '"name":"P[0-9]*"' "$TMP/deep.json" | sort -u | wc -l)" -eq 10000 ] &&
    [ "$(grep -o ']}' "$TMP/deep.json" | wc -l)" -eq 10002 ] # nodes, root, document
}
check "bad: 10000-deep exports keep every level" deep_json
trunc_exports() {
    local fmt
    for fmt in json chrome speedscope; do
        "$NPUSCOPE" tree -q --format $fmt "$TMP/truncated" | jq -e . >/dev/null || { echo "$fmt"; return 1; }
    done
}
check "bad: an incomplete report still exports valid JSON" trunc_exports
long_two() { [ "$("$NPUSCOPE" tree -q --format json "$TMP/longline" | jq '.reports | length')" = 2 ]; }
check "bad: 1 MB line between two reports" long_two

# A large input crosses many read-buffer boundaries: the same reports must
# come out as from the small file, byte for byte, from a file and a pipe.
large() {
    local i
    for i in $(seq 1 40); do cat "$FIX/noisy-build.log"; done >"$TMP/big.log"
    [ "$(wc -c <"$TMP/big.log")" -gt 2000000 ] || return 1
    "$NPUSCOPE" tree --format original "$FIX/noisy-build.log" >"$TMP/one" || return 1
    for i in $(seq 1 40); do cat "$TMP/one"; done >"$TMP/want40"
    "$NPUSCOPE" tree --format original "$TMP/big.log" >"$TMP/got40" || return 1
    cmp "$TMP/want40" "$TMP/got40" || return 1
    "$NPUSCOPE" tree --format original - <"$TMP/big.log" | cmp - "$TMP/want40"
}
check "a large file and a pipe give the same reports as a small file" large

# ---------------------------------------------------------------- 6a. NPU logs
npuw_dev_names() {
    # a developer build names each subgraph before compiling it
    { echo "[ NPUW:INFO ]     Compiling Subgraph[0]: Model0_kv1152_REP00C9__0..."
      sed -n '/^===-/,/  Total$/p' "$FIX/mlir22-tree-st.txt"
      echo "[ NPUW:INFO ]     Compiling Subgraph[1]: Model0_kv1152_prefill_1..."
      sed -n '/^===-/,/  Total$/p' "$FIX/mlir22-tree-st.txt"
      sed -n '/^===-/,/  Total$/p' "$FIX/mlir22-tree-st.txt"; } >"$TMP/npuw-dev.log"
    "$NPUSCOPE" tree --npuw -q --format json "$TMP/npuw-dev.log" |
        jq -e '[.reports[].label] == ["Model0_kv1152_REP00C9__0", "Model0_kv1152_prefill_1", "generate/3"]' >/dev/null
}
check "npuw: developer-build subgraph names label their reports" npuw_dev_names
npu_no_leak() {
    # facts only with --npu, and an MLIR log has none
    "$NPUSCOPE" tree --npu --format json "$FIX/noisy-build.log" | jq -e '[.reports[] | has("metrics")] | any | not' >/dev/null &&
    "$NPUSCOPE" tree --format json "$FIX/constructed-npu-2025.log" | jq -e '.reports[0] | has("metrics") | not' >/dev/null
}
check "npu facts: none without --npu, none in non-NPU logs" npu_no_leak
npu_strategy_log() {
    # dump-strategy-to-log=true: the strategy JSON in the log, then the report
    { echo "[INFO] 09:41:01.000 [output-pipelining] Final strategies for output pipelining:"
      echo "[INFO] 09:41:01.001 [output-pipelining] "
      cat "$FIX/constructed-strategy.json"
      sed -n '/^===-/,/  Total$/p' "$FIX/mlir22-tree-st.txt"; } >"$TMP/strat.log"
    "$NPUSCOPE" tree --npu --format json "$TMP/strat.log" | jq -e '.reports[0].metrics == {"tiles": 10, "tiled_ops": 2}' >/dev/null &&
    "$NPUSCOPE" tree --format json "$TMP/strat.log" | jq -e '.reports | length == 1' >/dev/null
}
check "npu facts: the strategy logged with dump-strategy-to-log gives tiles" npu_strategy_log
npuw_report() {
    "$NPUSCOPE" report -q --npuw -o "$TMP/npuw.html" "$FIX/constructed-npuw-7.log" &&
    grep -q "By sub-model kind: generate 28.11 s (26%), prefill 71.27 s (67%), lm_head 7.724 s (7%)." "$TMP/npuw.html"
}
check "report --npuw: the finding by sub-model kind" npuw_report

# ---------------------------------------------------------------- 6b. record, sweep, table
# shellcheck source=tests/run_record.sh
. tests/run_record.sh
# shellcheck source=tests/run_browser.sh
. tests/run_browser.sh
# shellcheck source=tests/run_analysis.sh
. tests/run_analysis.sh

# ---------------------------------------------------------------- 7. other builds
if [ -z "${NPUSCOPE_INNER:-}" ]; then
    clang_build() { make -s BUILD=build-clang CC=clang build-clang/npuscope units >/dev/null; }
    check "build with clang -Wall -Wextra -Werror" clang_build
    nosse() { make -s BUILD=build-nosse CFLAGS=-U__SSE2__ build-nosse/unit >/dev/null && ./build-nosse/unit >/dev/null; }
    check "portable build (no SSE2 fast path): unit tests" nosse
    asan() {
        make -s BUILD=build-asan SANITIZE=1 build-asan/npuscope units >/dev/null || return 1
        for u in build-asan/unit build-asan/unit_*; do "$u" >/dev/null || return 1; done
        local f
        for f in "$FIX"/*.txt "$FIX"/*.log "$FIX"/*.json "$TMP"/deep "$TMP"/binary "$TMP"/garbage "$TMP"/truncated; do
            for fmt in text json csv folded chrome speedscope original; do
                ./build-asan/npuscope tree -q --format $fmt "$f" >/dev/null 2>"$TMP/asan.err"
                [ $? -le 2 ] || { echo "$f ($fmt):"; head -30 "$TMP/asan.err"; return 1; }
            done
            ./build-asan/npuscope top -q --all -n 0 "$f" >/dev/null 2>"$TMP/asan.err"
            [ $? -le 2 ] || { echo "$f (top):"; head -30 "$TMP/asan.err"; return 1; }
        done
    }
    check "ASan+UBSan: unit tests and every fixture in every format" asan
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
