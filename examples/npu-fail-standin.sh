#!/bin/sh
# npu-fail-standin.sh -- a STAND-IN for an NPUW LLM load that fails past some
# prompt window, for `make demo` and the tests (no NPU needed).  It prints
# what the NPU stack prints, line formats as in the npu-compiler reference
# (vpux logger "[LEVEL] HH:MM:SS.mmm [name] ", the plugin's ANSI colour) and
# the failure lines users posted (openvino.genai issue 2200: "Failed Pass
# StaticAllocation on Operation loc(...["main", "_part26"])", its "Got
# Diagnostic" line; the "Failed to compile NAME for all devices in [NPU]"
# exception), with the real time of day on every line.
#
#   npu-fail-standin.sh WINDOW [FAIL_AT]
#
# Two sub-model compiles: generate (always compiles) and prefill, which
# fails at StaticAllocation when WINDOW >= FAIL_AT (default 4096), exit 1.
# The reports' times grow with the window; the script sleeps a little per
# compile so that a timeline has spans to show.  DRIVER_L0_MINOR (default
# 9) is the driver's Level Zero API minor version it reports.
w=${1:-1024}
fail_at=${2:-4096}
minor=${DRIVER_L0_MINOR:-9}
now() { date +%H:%M:%S.%3N; }
esc=$(printf '\033')
report() { # total rest
    printf '===-------------------------------------------------------------------------===\n'
    printf '                         ... Execution time report ...\n'
    printf '===-------------------------------------------------------------------------===\n'
    printf '  Total Execution Time: %s seconds\n\n' "$1"
    printf '  ----Wall Time----  ----Name----\n'
    awk -v t="$1" -v r="$2" 'BEGIN {
        c = t - r; f = c * 0.6; s = c - f
        printf "    %.4f (%5.1f%%)  Compile network\n", c, 100 * c / t
        printf "    %.4f (%5.1f%%)    FeasibleAllocation\n", f, 100 * f / t
        printf "    %.4f (%5.1f%%)    MultiClusterStrategyAssignment\n", s, 100 * s / t
        printf "    %.4f (%5.1f%%)  Rest\n", r, 100 * r / t
        printf "    %.4f (100.0%%)  Total\n\n", t }'
}
opens() {
    printf '%s[36m[INFO] %s [DriverCompilerAdapter] getSupportedOpsetVersion Max supported version of opset in CiD: 11%s[0m\n' "$esc" "$(now)" "$esc"
    printf '[INFO] %s [vpux-compiler] config: --config NPU_PLATFORM="4000" LOG_LEVEL="LOG_INFO"\n' "$(now)"
    printf '[INFO] %s [compiler-threading]   Total number of threads available for compilation: 9\n' "$(now)"
}
printf '%s[33m[WARNING] %s [NPUZeroInitStructsHolder] Some features might not be available! Plugin L0 API minor version = 12, Driver L0 API minor version = %s%s[0m\n' "$esc" "$(now)" "$minor" "$esc"
# generate
opens
sleep 0.2
report "$(awk -v w="$w" 'BEGIN { printf "%.4f", 0.1 + w / 100000 }')" 0.0100
printf '[INFO] %s [vpux-compiler] Compile net time: %s ms\n' "$(now)" "$(awk -v w="$w" 'BEGIN { printf "%d", 1000 * (0.1 + w / 100000) + 20 }')"
# prefill
opens
sleep 0.2
if [ "$w" -ge "$fail_at" ]; then
    printf '[ERROR] %s [vpux-compiler] Failed Pass StaticAllocation on Operation loc(fused<{name = "main", type = "Func"}>["main", "_part26"])\n' "$(now)"
    printf '[ERROR] %s [vpux-compiler] Got Diagnostic at loc(fused<{name = "main", type = "Func"}>["main", "_part26"]) : StaticAllocation Pass failed : Failed to statically allocate '"'"'DDR'"'"' memory\n' "$(now)"
    printf 'RuntimeError: Exception from src/inference/src/cpp/core.cpp:109:\nFailed to compile Model0_prefill_REP0041__0 for all devices in [NPU]\n' >&2
    exit 1
fi
report "$(awk -v w="$w" 'BEGIN { printf "%.4f", 0.12 + w / 50000 }')" 0.0200
printf '[INFO] %s [vpux-compiler] Compile net time: %s ms\n' "$(now)" "$(awk -v w="$w" 'BEGIN { printf "%d", 1000 * (0.12 + w / 50000) + 30 }')"
