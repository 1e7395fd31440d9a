# shellcheck shell=bash
# run_memory.sh -- per-pass memory: the NPU compiler's memory-usage-collector
# lines (npu/memory.h) on the rows of their report, through the tree JSON,
# run.json, `top --by memory` and `diff`.  Sourced by tests/run.sh (uses its
# check, $NPUSCOPE, $TMP, $FIX), or run alone: `bash tests/run_memory.sh`
# prints "N passed, N failed".
#
# The input is tests/fixtures/constructed-npu-memory.log (two compiles in
# one process; its header names the source of the line's format) and the
# run folders tests/data/memory/runs (tests/data/memory/gen.sh: the same log
# recorded with --preset npu, B's FeasibleAllocation raising the peak more).
# The golden cases tree-npu-memory*, top-by-memory*, diff-memory and
# tree-memory-run show the whole outputs; these checks name the facts.

if ! declare -F check >/dev/null 2>&1; then
    # alone: the suite's helpers and set-up (tests/lib.sh)
    # shellcheck source=tests/lib.sh
    . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
    MEM_ALONE=1
fi

MEM_LOG=$FIX/constructed-npu-memory.log
MEM_RUNS=tests/data/memory/runs

# [name, peak, increase] of every row of report N (0-based) in tree JSON
# shellcheck disable=SC2016 # a jq program: $n is jq's
MEM_ROWS='[.reports[$n].root | .. | objects | select(has("name")) | [.name, .mem_peak_kb, .mem_increase_kb]]'

mem_rows() {
    # each line on the row it names, in report order; two lines of one pass
    # (two functions) summed on one row, the largest peak kept; MLIR's
    # adaptor line on no row; each compile's lines on its own report
    "$NPUSCOPE" tree --npu --format json "$MEM_LOG" >"$TMP/mem.json" || return 1
    jqt --argjson n 0 "$MEM_ROWS"' | map(select(.[0] == "ConvertShapeTo4D")) == [["ConvertShapeTo4D", 2227200, 122880]]' "$TMP/mem.json" &&
    jqt --argjson n 0 "$MEM_ROWS"' | map(select(.[0] == "Canonicalizer") | .[2]) == [12288, null, 2048, 6144, null]' "$TMP/mem.json" &&
    jqt --argjson n 0 "$MEM_ROWS"' | map(select(.[2] == 4096)) == []' "$TMP/mem.json" &&
    jqt --argjson n 0 "$MEM_ROWS"' | map(select(.[0] == "FeasibleAllocation")) == [["FeasibleAllocation", 2948096, 524288]]' "$TMP/mem.json" &&
    jqt --argjson n 1 "$MEM_ROWS"' | map(select(.[2] != null)) == [["FeasibleAllocation", 3046400, 32768]]' "$TMP/mem.json" &&
    jqt '[.reports[].columns] == [["wall", "mem_peak", "mem_increase"], ["wall", "mem_peak", "mem_increase"]]' "$TMP/mem.json"
}
check "memory: each collector line on its row of its own report, by name in report order" mem_rows

mem_never_zero() {
    # rows without a line have null, never 0 (text: "-")
    "$NPUSCOPE" tree --npu --format json "$MEM_LOG" >"$TMP/mem.json" || return 1
    jqt '[.. | objects | select(has("mem_increase_kb")) | .mem_peak_kb, .mem_increase_kb | select(. == 0)] == []' "$TMP/mem.json" &&
    jqt '[.. | objects | select(.name == "TilingStrategyAssignment") | has("mem_peak_kb") and .mem_peak_kb == null and .mem_increase_kb == null] | all' "$TMP/mem.json" &&
    "$NPUSCOPE" tree --npu "$MEM_LOG" >"$TMP/mem.txt" &&
    grep -Eq '^ +0\.5640 .* +- +- +TilingStrategyAssignment$' "$TMP/mem.txt"
}
check "memory: a row without a line has none (null, '-'), never 0" mem_never_zero

mem_no_leak() {
    # no other fixture carries per-pass memory, with --npu or without
    local f
    for f in "$FIX"/*.txt "$FIX"/*.log; do
        [ "$f" = "$MEM_LOG" ] && continue
        "$NPUSCOPE" tree -q --npu --format json "$f" >"$TMP/mem.json" 2>/dev/null || continue
        jqt '[.. | objects | select(has("mem_peak_kb") or has("mem_increase_kb"))] == [] and
             ([.reports[].columns[] | select(startswith("mem_"))] == [])' "$TMP/mem.json" ||
            { echo "$f"; return 1; }
    done
}
check "memory: no other fixture's tree has mem_peak_kb or mem_increase_kb" mem_no_leak

mem_original() {
    # the compiler's report printed again byte for byte: the logged columns
    # are npuscope's, not the report's
    clean "$MEM_LOG" | awk -f tests/extract-reports.awk >"$TMP/want" &&
    "$NPUSCOPE" tree --npu --format original "$MEM_LOG" >"$TMP/got" &&
    diff "$TMP/want" "$TMP/got"
}
check "memory: --format original re-prints the report without the memory columns" mem_original

mem_run_json() {
    # run.json keeps them: a recorded run reads back the rows the log gives
    # (B's FeasibleAllocation of the first compile aside: gen.sh changed it)
    local run
    run=$(ls -d "$MEM_RUNS"/side-b-*-r01) || return 1
    "$NPUSCOPE" tree --npu --format json "$MEM_LOG" >"$TMP/mem.json" &&
    "$NPUSCOPE" tree --format json "$run" >"$TMP/mem-run.json" || return 1
    local drop='map(select(.[0] != "FeasibleAllocation"))'
    [ "$(jq -c --argjson n 0 "$MEM_ROWS | $drop" "$TMP/mem.json")" = "$(jq -c --argjson n 0 "$MEM_ROWS | $drop" "$TMP/mem-run.json")" ] &&
    [ "$(jq -c --argjson n 1 "$MEM_ROWS" "$TMP/mem.json")" = "$(jq -c --argjson n 1 "$MEM_ROWS" "$TMP/mem-run.json")" ] &&
    jqt --argjson n 0 "$MEM_ROWS"' | map(select(.[0] == "FeasibleAllocation" and .[2] >= 786432)) | length == 1' "$TMP/mem-run.json" &&
    jqt '[.reports[].columns] == [["wall", "mem_peak", "mem_increase"], ["wall", "mem_peak", "mem_increase"]]' "$TMP/mem-run.json"
}
check "memory: run.json round-trips mem_peak_kb and mem_increase_kb" mem_run_json

mem_unmatched() {
    # a line naming no row of its report: one warning with the report's
    # place; the adaptor's line: none
    {
        echo "[INFO] 10:00:00.001 [memory-usage-collector] Peak memory usage after 'NoSuchPass' pass: 1000 kB, increase 10 kB"
        echo "[INFO] 10:00:00.002 [memory-usage-collector] Peak memory usage after 'mlir::detail::OpToOpPassAdaptor' pass: 1010 kB, increase 10 kB"
        echo "[INFO] 10:00:00.003 [memory-usage-collector] Peak memory usage after 'Canonicalizer' pass: 1020 kB, increase 10 kB"
        cat "$FIX/mlir22-tree-st.txt"
    } >"$TMP/mem-un.log"
    "$NPUSCOPE" tree --npu --format json "$TMP/mem-un.log" >"$TMP/mem.json" 2>"$TMP/mem.err" || return 1
    grep -q "mem-un.log:4: warning: report #1: 1 memory-usage-collector line before it names no row of it (first: 'NoSuchPass'); left out" "$TMP/mem.err" &&
    [ "$(wc -l <"$TMP/mem.err")" -eq 1 ] &&
    jqt '[.. | objects | select(.mem_increase_kb != null) | [.name, .mem_increase_kb]] == [["Canonicalizer", 10]]' "$TMP/mem.json"
}
check "memory: a line naming no row is a warning, the adaptor's is dropped quietly" mem_unmatched

mem_top() {
    "$NPUSCOPE" top --npu --by memory --format json -n 0 "$MEM_LOG" >"$TMP/mem-top.json" || return 1
    jqt '.by == "memory" and .mem_reports == 2 and .total_increase_kb == 937984' "$TMP/mem-top.json" &&
    jqt '.rows[0] | .name == "FeasibleAllocation" and .mem_increase_kb == 557056 and .mem_count == 2 and .mem_peak_kb == 3046400' "$TMP/mem-top.json" &&
    jqt '[.rows[] | select(.name == "Canonicalizer") | [.count, .mem_count, .mem_increase_kb]] == [[7, 3, 20480]]' "$TMP/mem-top.json" &&
    jqt '[.rows[].mem_increase_kb] | . == (sort | reverse) and length == 6' "$TMP/mem-top.json" &&
    jqt '[.rows[] | select(.mem_count == 0)] == []' "$TMP/mem-top.json" &&
    strict_json top --npu --by memory --format json "$MEM_LOG" &&
    strict_json tree --npu --format json "$MEM_LOG"
}
check "memory: top --by memory ranks passes by summed increase, only those with a line" mem_top

mem_diff() {
    # B's FeasibleAllocation raises the peak ~48% more: flagged as the time
    # rows are (p < alpha, shift over the threshold), everything else same
    "$NPUSCOPE" diff -q --format json "$MEM_RUNS" --a side=a --b side=b >"$TMP/mem-diff.json" || return 1
    jqt '[.rows[] | select(.kind == "memory" and .verdict != "same") | [.name, .verdict, .better]] == [["mem:FeasibleAllocation", "slower", "lower"]]' "$TMP/mem-diff.json" &&
    jqt '[.rows[] | select(.kind == "memory")] | length == 6 and (.[0].a_median >= 557056 and .[0].a_median <= 565248) and (.[0].b_median > .[0].a_median)' "$TMP/mem-diff.json" &&
    "$NPUSCOPE" diff -q --format json --threshold 60 "$MEM_RUNS" --a side=a --b side=b >"$TMP/mem-diff.json" &&
    jqt '[.rows[] | select(.kind == "memory" and .verdict != "same")] == []' "$TMP/mem-diff.json"
}
check "memory: diff flags a pass whose memory increase grew, by the time rows' threshold" mem_diff

mem_page() {
    # the report page embeds each report's columns (docs/formats.md 2.15):
    # decoded back into tree JSON (tests/browser/data.mjs), its rows carry
    # the same two keys; a row without a collector line has them null
    "$NPUSCOPE" report -q --npu -o "$TMP/mem.html" "$MEM_LOG" 2>/dev/null || return 1
    node tests/browser/data.mjs "$TMP/mem.html" |
        jqt '[.reports[].root | .. | objects | select(.name == "FeasibleAllocation" or .name == "TilingStrategyAssignment")
              | [.name, .wall_s, .mem_peak_kb, .mem_increase_kb]][:2]
             == [["TilingStrategyAssignment", 0.564, null, null], ["FeasibleAllocation", 4.8125, 2948096, 524288]]'
}
if command -v node >/dev/null 2>&1; then
    check "memory: the report page's embedded trees carry mem_peak_kb and mem_increase_kb" mem_page
else
    skip "memory: the report page's embedded trees (node missing: the page's data is not decoded)"
fi

mem_page_diff() {
    # the page's A/B table gives a pass's memory increase in whole kB, as
    # diff does (not as seconds to 0.1 ms)
    "$NPUSCOPE" report -q --a side=a --b side=b -o "$TMP/mem-ab.html" tests/data/memory/runs 2>/dev/null || return 1
    tr '\n' ' ' <"$TMP/mem-ab.html" | sed 's/<[^>]*>/ /g' | tr -s ' ' >"$TMP/mem-ab.txt"
    grep -Eq 'mem:FeasibleAllocation 5 5 5[0-9]{5} [89][0-9]{5} 1\.[0-9]{3} [0-9.]+ slower \(higher\)' "$TMP/mem-ab.txt" ||
        { grep -o 'mem:FeasibleAllocation.\{0,80\}' "$TMP/mem-ab.txt"; return 1; }
}
check "memory: the report page's A/B table gives a pass's memory increase in kB" mem_page_diff

if [ -n "${MEM_ALONE:-}" ]; then finish; fi
