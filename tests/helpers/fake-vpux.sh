#!/bin/sh
# fake-vpux.sh -- a stand-in for an NPU compile, for the live-status tests:
# COMPILES sub-model compiles (default 2), each logging through the pass
# loggers the vpux compiler uses, in the documented prefix
#     [INFO] HH:MM:SS.mmm [pass-argument]   message
# (npu-compiler reference §3: level, local time, logger named after the
# pass argument, two spaces a nesting level), taking STEP seconds a pass
# (default 0.3; SLOW=3 makes every pass three times slower), then printing
# the timing report of that compile with the time each pass took.
# FIXED_TS=1 prints 12:00:00.000 for every time stamp (byte-stable logs).
# Constructed from the documented formats: there is no NPU here.
#
# It keeps a schedule: pass N ends STEP*SLOW*N seconds after the start, so
# the time its own processes take to start (date, awk, sleep: three a
# pass, slow on a loaded machine) does not add up, and a run's pace is the
# one asked for unless a single pass's starts take longer than the pass.
compiles=${COMPILES:-2}
step=${STEP:-0.3}
slow=${SLOW:-1}
start=$(date +%s.%N)
passes=0
ts() { if [ -n "${FIXED_TS:-}" ]; then echo 12:00:00.000; else date +%H:%M:%S.%3N; fi; }
pass() { # logger message
    set -- "$1" "$2" "$(date '+%H:%M:%S.%3N %s.%N')"
    ts=${3% *}
    [ -n "${FIXED_TS:-}" ] && ts=12:00:00.000
    printf '[INFO] %s [%s]   %s\n' "$ts" "$1" "$2"
    passes=$((passes + 1))
    sleep "$(awk -v t0="$start" -v now="${3#* }" -v n="$passes" -v s="$step" -v k="$slow" \
        'BEGIN { d = t0 + n * s * k - now; printf "%.3f", (d > 0 ? d : 0) }')"
}
c=0
while [ "$c" -lt "$compiles" ]; do
    c=$((c + 1))
    printf '[INFO] %s [vpux-compiler] config: --inputs_precisions="x:f32" (compile %d)\n' "$(ts)" "$c"
    pass multi-cluster-strategy-assignment "assigning strategies"
    pass tiling-strategy-assignment "tiling 12 operations"
    pass feasible-allocation "scheduling 1648 tasks"
    pass feasible-allocation "allocating spills"
    pass convert-vpuip-to-vpumi "lowering"
    t=$(awk -v s="$step" -v k="$slow" 'BEGIN { printf "%.4f", s * k }')
    t2=$(awk -v s="$step" -v k="$slow" 'BEGIN { printf "%.4f", 2 * s * k }')
    tot=$(awk -v s="$step" -v k="$slow" 'BEGIN { printf "%.4f", 5 * s * k }')
    cat <<REPORT
===-------------------------------------------------------------------------===
                         ... Execution time report ...
===-------------------------------------------------------------------------===
  Total Execution Time: $tot seconds

  ----Wall Time----  ----Name----
$(printf '  %8s ( 20.0%%)  MultiClusterStrategyAssignment\n' "$t")
$(printf '  %8s ( 20.0%%)  TilingStrategyAssignment\n' "$t")
$(printf '  %8s ( 40.0%%)  FeasibleAllocation\n' "$t2")
$(printf '  %8s ( 20.0%%)  ConvertVPUIPToVPUMI\n' "$t")
    0.0000 (  0.0%)  Rest
$(printf '  %8s (100.0%%)  Total\n' "$tot")
REPORT
done
