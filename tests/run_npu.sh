# shellcheck shell=bash
# run_npu.sh -- the NPU facts read exactly, old and new forms, and NPU logs
# recognised without a flag.  Sourced by tests/run.sh (uses its check,
# $NPUSCOPE, $TMP, $FIX), or run alone: `bash tests/run_npu.sh` prints
# "N passed, N failed".
#
# Every input here is constructed (tests/fixtures/constructed-*: each one's
# header names the source file and version its format strings come from);
# there is no real NPU log.  What is checked:
#   - each fact of each format line, 2024 and 2025+, with its exact value;
#   - weights separation: N+1 reports labelled Init[i] / Main that share one
#     ws_compile; NPUW's compile trace: labels and elapsed seconds;
#   - over ALL of tests/fixtures: an MLIR/LLVM/clang input shows no NPU fact,
#     an NPU log shows them without --npu (from a file and from a pipe), and
#     --no-npu turns that off;
#   - record --collect: the 2025+ schedule trace counts its Shave tasks, a
#     2026 strategy counts the tiles of every key set, and a wildcard
#     collects the strategy dumps the run wrote (not a stale one, not a link
#     out of the working directory).

if ! declare -F check >/dev/null 2>&1; then
    # alone: the suite's helpers and set-up (tests/lib.sh)
    # shellcheck source=tests/lib.sh
    . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
    NPU_ALONE=1
fi

NPU=$TMP/npu
mkdir -p "$NPU"

# the fixtures that are NPU logs (they carry the NPU stack's logger lines);
# every other file of tests/fixtures must show no NPU fact.  A new fixture
# is one or the other: add it here if it is an NPU log.
NPU_LOGS="constructed-npu-2024.log constructed-npu-2025.log constructed-npu-ws-2026.log
constructed-npuw-7.log constructed-npuw-trace.log constructed-vpux-prefix.log constructed-ansi-crlf.log
constructed-npu-memory.log constructed-npu-failure.log"

npu_is_log() { case " $(echo $NPU_LOGS) " in *" $1 "*) return 0 ;; esac; return 1; }

# npu_facts FILE [OPTS...]: the number of reports with NPU facts ("metrics")
# in `tree --format json` of FILE ("-": read from a pipe); 0 when it has no
# report at all
npu_facts() {
    local f=$1; shift
    local out rc
    if [ "$f" = - ]; then out=$("$NPUSCOPE" tree -q --format json "$@" - 2>/dev/null); rc=$?
    else out=$("$NPUSCOPE" tree -q --format json "$@" "$f" 2>/dev/null); rc=$?; fi
    if [ "$rc" -ne 0 ] || [ -z "$out" ]; then echo 0; return; fi
    jq '[.reports[] | select((.metrics // {}) | length > 0)] | length' <<<"$out"
}

npu_all_fixtures() {
    local f b n seen=0 npu=0
    for f in "$FIX"/*; do
        b=$(basename "$f")
        case $b in README.md | gen.sh) continue ;; esac
        [ -f "$f" ] || continue # load/: inputs of run_failures.sh
        seen=$((seen + 1))
        n=$(npu_facts "$f")
        if npu_is_log "$b"; then
            npu=$((npu + 1))
            [ "$n" -gt 0 ] || { echo "$b: an NPU log, but no NPU fact without --npu"; return 1; }
        else
            [ "$n" -eq 0 ] || { echo "$b: not an NPU log, but $n report(s) with NPU facts"; return 1; }
        fi
    done
    [ "$seen" -gt 25 ] && [ "$npu" -eq 9 ] || { echo "only $seen fixtures, $npu NPU logs"; return 1; }
}
check "npu: over all fixtures, only the NPU logs show NPU facts, without --npu" npu_all_fixtures

npu_pipe() {
    local n
    n=$(npu_facts - <"$FIX/constructed-npu-2025.log")
    [ "$n" -eq 1 ] || { echo "an NPU log on a pipe: $n reports with facts"; return 1; }
    n=$(npu_facts - <"$FIX/mlir22-tree-mt.txt")
    [ "$n" -eq 0 ] || { echo "an MLIR log on a pipe: $n reports with facts"; return 1; }
    n=$(npu_facts - <"$FIX/noisy-build.log")
    [ "$n" -eq 0 ] || { echo "the noisy build log on a pipe: $n reports with facts"; return 1; }
}
check "npu: from a pipe, an NPU log shows its facts, MLIR logs none" npu_pipe

# the texts alone are not enough: an MLIR log with a compile fact's text on
# a line of its own (no NPU logger) gives no fact
npu_text_no_leak() {
    { cat "$FIX/mlir22-tree-st.txt"; echo "Compile net time: 5 ms"; echo "Estimated inference latency: 9 us"; } >"$NPU/leak.txt"
    local n
    n=$(npu_facts "$NPU/leak.txt")
    [ "$n" -eq 0 ] || { echo "$n reports with facts"; return 1; }
    n=$(npu_facts "$NPU/leak.txt" --npu)
    [ "$n" -eq 1 ] || { echo "with --npu: $n reports with facts"; return 1; }
}
check "npu: fact texts in an MLIR log give no fact without --npu, do with it" npu_text_no_leak

npu_no_npu() {
    local f n
    for f in $NPU_LOGS; do
        n=$(npu_facts "$FIX/$f" --no-npu)
        [ "$n" -eq 0 ] || { echo "$f --no-npu: $n reports with facts"; return 1; }
    done
    n=$(npu_facts - --no-npu <"$FIX/constructed-npu-2025.log")
    [ "$n" -eq 0 ] || { echo "pipe --no-npu: $n"; return 1; }
    n=$(npu_facts "$FIX/constructed-npu-2025.log" --no-npu --npu)
    [ "$n" -eq 1 ] || { echo "--no-npu --npu: $n"; return 1; }
    "$NPUSCOPE" top --no-npu "$FIX/constructed-npu-2025.log" >/dev/null &&
        "$NPUSCOPE" stages --no-npu "$FIX/constructed-npu-2025.log" >/dev/null &&
        "$NPUSCOPE" advise --no-npu "$FIX/constructed-npu-2025.log" >/dev/null
}
check "npu: --no-npu turns the recognising off (tree, top, stages, advise)" npu_no_npu

# record without --preset npu: an output that shows itself an NPU compile's
# is read for its facts as it arrives, as tree reads the same bytes from a
# pipe (run folders are not read again: facts not taken then are lost);
# other output gives none, and record --no-npu takes none
npu_record_detect() {
    local f d want got n
    for f in $NPU_LOGS mlir22-tree-st.txt noisy-build.log; do
        d=$NPU/rec-$f
        "$NPUSCOPE" record -q -o "$d" -- cat "$FIX/$f" || return 1
        want=$("$NPUSCOPE" tree -q --format json - <"$FIX/$f" | jq -c '[.reports[] | .metrics // {}]')
        got=$(jq -c '[.reports[] | .metrics // {}]' "$d"/*/run.json)
        [ -n "$want" ] && [ "$got" = "$want" ] || { echo "$f: recorded $got, tree from a pipe $want"; return 1; }
        n=$(jq '[.reports[] | select((.metrics // {}) | length > 0)] | length' "$d"/*/run.json)
        if npu_is_log "$f"; then [ "$n" -gt 0 ] || { echo "$f: recorded with no facts"; return 1; }
        else [ "$n" -eq 0 ] || { echo "$f: not an NPU log, recorded with facts"; return 1; }; fi
    done
    "$NPUSCOPE" record -q -o "$NPU/rec-off" --no-npu -- cat "$FIX/constructed-npu-2025.log" || return 1
    n=$(jq '[.reports[] | select((.metrics // {}) | length > 0)] | length' "$NPU"/rec-off/*/run.json)
    [ "$n" -eq 0 ] || { echo "record --no-npu: $n reports with facts"; return 1; }
}
check "npu: record without --preset npu takes an NPU compile's facts as tree does from a pipe; --no-npu none" \
    npu_record_detect

# ---------------------------------------------------------------- the facts, exactly
npu_json() { "$NPUSCOPE" tree -q --format json "$@" >"$NPU/t.json" 2>"$NPU/t.err"; }

npu_2024() {
    npu_json "$FIX/constructed-npu-2024.log" || return 1
    jqt '.reports | length == 1 and (.[0].metrics == {"vcl_convert_ms": 152, "est_latency_us": 5644,
           "compiler_vmpeak_kb": 1843200, "compile_net_ms": 7480, "vcl_get_blob_ms": 12, "vcl_export_ms": 3})' \
        "$NPU/t.json" || { jq -c '.reports[].metrics' "$NPU/t.json"; return 1; }
}
check "npu: 2024 lines: End of compilation memory usage (absolute VmPeak), latency {0}us, VCL timings" npu_2024

npu_2025() {
    npu_json "$FIX/constructed-npu-2025.log" || return 1
    jqt '.reports[0].metrics | .ie_ops == 412 and .compiler_vmpeak_delta_kb == 528485 and
           .est_latency_us == 5644 and .vpuip_tasks == 1648 and .compile_net_ms == 62742 and
           .threads_available == 9 and .mlir_workers == 8 and (has("compiler_vmpeak_kb") | not)' "$NPU/t.json"
}
check "npu: 2025+ lines: IE - N (P%), Compilation memory usage (a delta), latency in MHz, tasks" npu_2025

# a 2025+ compiler at LOG_DEBUG logs the absolute VmPeak too (compiler.cpp:820
# of Maxim-Doronin/npu_compiler 01a807a7, log.debug): both facts, and the
# DEBUG "Start of ..." line is no fact
npu_vmpeak_debug() {
    local rep
    rep=$(sed -n '/^===/,/^ *[0-9.]* (100.0%)  Total$/p' "$FIX/mlir22-tree-st.txt")
    printf '%s\n' "[INFO] 09:00:00.001 [vpux-compiler] Verifiers are disabled" "$rep" \
        "[DEBUG] 09:00:01.000 [vpux-compiler] Start of compilation memory usage: Peak 2000000 KB" \
        "[DEBUG] 09:00:01.001 [vpux-compiler] End of compilation memory usage: Peak 2500000 KB" \
        "[INFO] 09:00:01.002 [vpux-compiler] Compilation memory usage: Peak 500000 KB" >"$NPU/dbg.log"
    npu_json "$NPU/dbg.log" || return 1
    jqt '.reports[0].metrics == {"compiler_vmpeak_kb": 2500000, "compiler_vmpeak_delta_kb": 500000}' "$NPU/t.json"
}
check "npu: at LOG_DEBUG both the absolute VmPeak and the delta, not the start value" npu_vmpeak_debug

# "IE - N (100.00%)" and a bare "IE - N" both, only on the statistics logger
npu_ie_ops() {
    local rep
    rep=$(sed -n '/^===/,/^ *[0-9.]* (100.0%)  Total$/p' "$FIX/mlir22-tree-st.txt")
    printf '%s\n' "[INFO] 09:00:00.001 [vpux-compiler] Verifiers are disabled" \
        "[INFO] 09:00:00.002 [dump-statistics-of-ie-ops]     IE - 77 (100.00%)" "$rep" \
        "[INFO] 09:00:01.002 [dump-statistics-of-ie-ops]     IE - 78" "$rep" \
        "[INFO] 09:00:02.002 [dump-statistics-of-ie-ops]     IE - 79 ops" \
        "[INFO] 09:00:02.003 [other-logger] IE - 80 (100.00%)" "$rep" >"$NPU/ie.log"
    npu_json "$NPU/ie.log" || return 1
    jqt '[.reports[] | .metrics.ie_ops] == [77, 78, null]' "$NPU/t.json"
}
check "npu: ie_ops from 'IE - N (P%)' and 'IE - N', on the statistics logger only" npu_ie_ops

# weights separation's N+1 reports are one compile: top counts one (two
# for two such compiles), advise no "sub-model compiles", and the same
# from a recorded run folder (run.json read back)
npu_ws_compiles() {
    "$NPUSCOPE" top -q --format json "$FIX/constructed-npu-ws-2026.log" >"$NPU/ws-top.json" || return 1
    jqt '.reports == 3 and .compiles == 1' "$NPU/ws-top.json" || return 1
    cat "$FIX/constructed-npu-ws-2026.log" "$FIX/constructed-npu-ws-2026.log" >"$NPU/ws2.log"
    "$NPUSCOPE" top -q --format json "$NPU/ws2.log" | jqt '.reports == 6 and .compiles == 2' || return 1
    "$NPUSCOPE" advise "$FIX/constructed-npu-ws-2026.log" >"$NPU/ws-advise.txt" || return 1
    grep -q 'per compile$' "$NPU/ws-advise.txt" && ! grep -q 'sub-model compiles' "$NPU/ws-advise.txt" ||
        { head -3 "$NPU/ws-advise.txt"; return 1; }
    rm -rf "$NPU/ws-run"
    "$NPUSCOPE" record -q --preset npu -o "$NPU/ws-run" -- cat "$FIX/constructed-npu-ws-2026.log" || return 1
    "$NPUSCOPE" top -q --format json "$NPU/ws-run" | jqt '.reports == 3 and .compiles == 1'
}

npu_ws() {
    npu_json "$FIX/constructed-npu-ws-2026.log" || return 1
    jqt '(.reports | map(.label)) == ["Init[0]", "Init[1]", "Main"] and
           all(.reports[]; .metrics.ws_compile == 1 and .metrics.ws_inits == 2) and
           .reports[0].metrics.ie_ops == 208 and .reports[0].metrics.vcl_convert_ms == 98 and
           .reports[2].metrics.compiler_vmpeak_delta_kb == 913408 and .reports[2].metrics.compile_net_ms == 6100 and
           (.reports[0].metrics | has("compile_net_ms") | not)' "$NPU/t.json" ||
        { jq -c '.reports[] | [.label, .metrics]' "$NPU/t.json"; return 1; }
    # two such compiles in one input: two groups
    cat "$FIX/constructed-npu-ws-2026.log" "$FIX/constructed-npu-ws-2026.log" >"$NPU/ws2.log"
    npu_json "$NPU/ws2.log" || return 1
    jqt '[.reports[] | .metrics.ws_compile] == [1, 1, 1, 2, 2, 2]' "$NPU/t.json"
}
check "npu: weights separation: Init[i] / Main labels, one ws_compile per compile" npu_ws
check "npu: weights separation's N+1 reports are one compile (top, advise, a recorded run)" npu_ws_compiles

# lines that only look like them label nothing (an index past 9 digits,
# no digits, text after the bracket, another logger's "Compile Main" ok)
npu_ws_bad() {
    local rep
    rep=$(sed -n '/^===/,/^ *[0-9.]* (100.0%)  Total$/p' "$FIX/mlir22-tree-st.txt")
    printf '%s\n' "[INFO] 09:00:00.001 [vpux-compiler] Compile Init[99999999999999999999]" "$rep" \
        "[INFO] 09:00:00.002 [vpux-compiler] Compile Init[]" "$rep" \
        "[INFO] 09:00:00.003 [vpux-compiler] Compile Init[2] again" "$rep" \
        "[INFO] 09:00:00.004 [vpux-compiler] Total number of Inits: 1.5" "$rep" \
        "Compile Main" "$rep" >"$NPU/wsbad.log"
    npu_json "$NPU/wsbad.log" || return 1
    jqt '(.reports | map(.label)) == ["#1", "#2", "#3", "#4", "#5"] and
           all(.reports[]; (.metrics // {}) | has("ws_compile") | not)' "$NPU/t.json" ||
        { jq -c '.reports[] | [.label, .metrics]' "$NPU/t.json"; return 1; }
}
check "npu: weights-separation look-alikes label nothing" npu_ws_bad

npu_trace() {
    npu_json "$FIX/constructed-npuw-trace.log" || return 1
    jqt '(.reports | map(.label)) == ["Model0_kv1152/subgraph[0]", "Model0_kv1152/subgraph[1]",
            "Model0_kv1152_prefill/subgraph[0]"] and
           ([.reports[] | .metrics.npuw_compile_s] == [2.134, 32.118, 3.017]) and
           ([.reports[] | .metrics.compiler_vmpeak_delta_kb] == [1048576, 0, 2048])' "$NPU/t.json" ||
        { jq -c '.reports[] | [.label, .metrics]' "$NPU/t.json"; return 1; }
}
check "npu: NPUW compile trace: MODEL/subgraph[i] labels, END seconds as npuw_compile_s" npu_trace

# ---------------------------------------------------------------- record --collect
npu_collect() {
    local w=$NPU/cwd np fix
    mkdir -p "$w" "$NPU/outside"
    cp "$FIX/constructed-strategy.json" "$w/strategy_dump_0ld.json"
    touch -d '2001-01-01' "$w/strategy_dump_0ld.json" # an earlier compile's
    cp "$FIX/constructed-strategy.json" "$NPU/outside/s.json"
    np=$(cd "$(dirname "$NPUSCOPE")" && pwd)/$(basename "$NPUSCOPE")
    fix=$(cd "$FIX" && pwd)
    ( cd "$w" && "$np" record -o ../col --collect compileTimeScheduleTrace.json \
        --collect 'strategy_dump_*.json' -- \
        sh -c 'cp "$0"/constructed-schedule-trace-2025.json compileTimeScheduleTrace.json &&
               cp "$0"/constructed-strategy-2026.json strategy_dump_6f1c.json &&
               cp "$0"/constructed-strategy.json strategy_dump_a07e.json &&
               ln -sf ../outside/s.json strategy_dump_link.json' "$fix" ) 2>"$NPU/col.err" || return 1
    local d; d=$(ls -d "$NPU"/col/run-*)
    [ -f "$d/strategy_dump_6f1c.json" ] && [ -f "$d/strategy_dump_a07e.json" ] || { ls "$d"; return 1; }
    [ ! -e "$d/strategy_dump_0ld.json" ] || { echo "a dump of an earlier compile was collected"; return 1; }
    [ ! -e "$d/strategy_dump_link.json" ] || { echo "a link out of the working directory was followed"; return 1; }
    grep -q 'strategy_dump_link.json: a link that leads outside' "$NPU/col.err" || { cat "$NPU/col.err"; return 1; }
    # 2025+ trace: 3 DMA, 2 DPU, 2 Shave; 2026 strategy: 6+4+10+4+3 = 27 tiles in 5 ops, plus the
    # 2024 one's 10 in 2
    jqt '.metrics | .tasks == 7 and .tasks_sw == 2 and .task_us_sw == 5.125 and .tasks_dma == 3 and
           .tiles == 37 and .tiled_ops == 7 and .strategy_dumps == 2' "$d/run.json" ||
        { jq -c .metrics "$d/run.json"; return 1; }
}
check "npu: record --collect: Shave tasks, tiles of {G,N,C,H,W} {B,H,OC} {H,W} {N}, strategy_dump_*.json" npu_collect

npu_collect_refused() {
    local out
    out=$("$NPUSCOPE" record -q -o "$NPU/none" --collect 'dir*/x.json' -- true 2>&1) && return 1
    grep -q "wildcards" <<<"$out" || { echo "$out"; return 1; }
}
check "npu: record --collect refuses a wildcard in the folder part" npu_collect_refused

if [ -n "${NPU_ALONE:-}" ]; then finish; fi
