#!/usr/bin/env bash
# npu-sweep.sh -- an NPU compile-time study with npuscope, as a script to
# read, adapt and run on a machine with an Intel NPU and OpenVINO.
#
# Two sweeps and a table:
#
#   1. scaling   model families x prompt windows x weight precisions, each
#                compiled cold (a real compile every run) and warm (OpenVINO's
#                blob cache: the first run fills it, the others hit it).
#                Shows how compile time grows with model size and window, how
#                int4 / int8 / fp16 compare, and what the cache buys.
#   2. decode    the decode A/B: NPUW_FUNCALL_FOR_ALL=YES vs NO for the
#                generate (decode) model of one LLM, set through
#                --generate-config so prefill and LM head keep their defaults.
#                Shows the compile side of that trade-off (one decode compile
#                per variant; FUNCALL_FOR_ALL=NO compiles a bigger graph).
#   3. table     npuscope table over both output folders.
#
# usage (from the repository root):
#   examples/npu-sweep.sh [scaling|decode|table|all]      (default: all)
#   DRY_RUN=1 examples/npu-sweep.sh       # list the runs, run nothing
#   SHARD=2/4 examples/npu-sweep.sh       # this machine's quarter of the runs
#
# Sourcing this file only defines its functions; nothing runs.
#
# Models.  One folder per family and precision, "$MODELS/<family>-<precision>",
# each a stateful OpenVINO LLM export (openvino_model.xml + .bin), e.g. made
# with optimum-intel:
#   optimum-cli export openvino -m Qwen/Qwen2.5-7B-Instruct \
#       --weight-format int4 models/qwen2.5-7b-int4
# (--weight-format int8 / fp16 for the other precisions; see OpenVINO's NPU
# GenAI guide for the export options it recommends for the NPU).
#
# Knobs (environment; defaults in brackets):
#   MODELS      folder holding the model folders                [models]
#   FAMILIES    comma-separated family names      [qwen2.5-1.5b,qwen2.5-7b]
#   PRECISIONS  comma-separated precisions                 [int4,int8,fp16]
#   WINDOWS     -P range of NPUW_LLM_MAX_PROMPT_LEN         [128:2048:*2]
#               (128, 256, 512, 1024, 2048)
#   DECODE_MODEL  model folder for the decode A/B  [$MODELS/gemma-3-1b-int4]
#   OUT         output folder of the scaling sweep             [runs/npu]
#               (the decode A/B goes to "$OUT-decode")
#   RUNS, WARMUP  counted runs and warm-up runs per cell          [5, 1]
#   TIMEOUT     seconds before a run is stopped                   [3600]
#   SHARD       K/N: run only shard K of N (see docs/recording.md)
#   DRY_RUN     1: pass --dry-run (show the runs without running them)
#   NPUSCOPE    the npuscope binary  [npuscope on PATH, else ./npuscope]
#
# Re-running the same command resumes: runs already finished are skipped.
# Run ids come from the axis values, --tag labels and the command line: a
# changed option makes new ids, but a new OpenVINO or driver behind the same
# command does not -- use a new OUT or a --tag for it, or the new sweep skips
# the old ids as finished.
#
# Size: 2 families x 5 windows x 3 precisions = 30 cells, x 2 modes = 60
# cell-modes, each 1 warm-up + 5 runs.  Cold 7B compiles take minutes each;
# expect many hours for the whole scaling sweep on one machine, or shard it.
set -euo pipefail

# ====== Settings ======
MODELS=${MODELS:-models}
FAMILIES=${FAMILIES:-qwen2.5-1.5b,qwen2.5-7b}
PRECISIONS=${PRECISIONS:-int4,int8,fp16}
WINDOWS=${WINDOWS:-128:2048:*2}
DECODE_MODEL=${DECODE_MODEL:-$MODELS/gemma-3-1b-int4}
OUT=${OUT:-runs/npu}
RUNS=${RUNS:-5}
WARMUP=${WARMUP:-1}
TIMEOUT=${TIMEOUT:-3600}
SHARD=${SHARD:-}
DRY_RUN=${DRY_RUN:-}

die() { printf 'npu-sweep.sh: error: %s\n' "$*" >&2; exit 2; }

# ====== Checks ======
find_npuscope() {
    if [[ -n ${NPUSCOPE:-} ]]; then
        printf '%s\n' "$NPUSCOPE"
    elif command -v npuscope >/dev/null 2>&1; then
        printf 'npuscope\n'
    elif [[ -x ./npuscope ]]; then
        printf './npuscope\n'
    else
        die "npuscope not found: build it with 'make' or set NPUSCOPE"
    fi
}

check_setup() {
    # The compile command is recorded as written, relative path included, so
    # run ids stay the same on every machine that runs from a checkout.
    [[ -f examples/ov_compile.py ]] ||
        die "run this from the npuscope repository root (examples/ov_compile.py not found)"
    command -v python3 >/dev/null 2>&1 || die "python3 not found"
    if [[ -z $DRY_RUN ]]; then
        python3 -c 'import openvino' 2>/dev/null ||
            die "OpenVINO is not importable by python3: pip install openvino"
    fi
}

# Options both sweeps share.
common_opts() {
    opts=(-n "$RUNS" --warmup "$WARMUP" --preset npu --timeout "$TIMEOUT")
    if [[ -n $SHARD ]]; then opts+=(--shard "$SHARD"); fi
    if [[ -n $DRY_RUN ]]; then opts+=(--dry-run); fi
}

# ====== 1. Scaling: families x windows x precisions, cold and warm ======
# {model}, {precision} and {window} are npuscope placeholders: npuscope puts
# each cell's values into the arguments itself (no shell involved) and also
# exports them as NPUSCOPE_PARAM_<NAME>.  They are quoted here so that the
# shell leaves them -- and the '*' of the window range -- alone.
# --preset npu sets OV_NPU_LOG_LEVEL=LOG_INFO (and IE_NPU_LOG_FILTER for
# developer builds of the compiler); ov_compile.py sets LOG_LEVEL=LOG_INFO
# and the cache settings of each mode itself.
sweep_scaling() {
    local npuscope opts
    npuscope=$(find_npuscope)
    common_opts
    "$npuscope" sweep -o "$OUT" "${opts[@]}" --modes cold,warm \
        -L "model=$FAMILIES" \
        -P "window=$WINDOWS" \
        -L "precision=$PRECISIONS" \
        -- python3 examples/ov_compile.py "$MODELS/{model}-{precision}" \
            --llm --max-prompt-len '{window}' --min-response-len 128
}

# ====== 2. Decode A/B: NPUW_FUNCALL_FOR_ALL for the generate model only ======
# --generate-config goes to ++NPUW_LLM_GENERATE_CONFIG, merged over NPUW's
# own generate defaults, so only this one option differs between the arms.
# Cold only: the question is what the decode compile costs.  The other side
# of the trade-off, decode speed, needs a generation benchmark run under
# `npuscope record` with the same setting; npuscope's built-in metric
# tokens_per_s reads "Throughput: N tokens/s" (OpenVINO GenAI) from its output.
sweep_decode() {
    local npuscope opts
    npuscope=$(find_npuscope)
    common_opts
    "$npuscope" sweep -o "$OUT-decode" "${opts[@]}" --modes cold \
        -L funcall=YES,NO \
        -- python3 examples/ov_compile.py "$DECODE_MODEL" \
            --llm --max-prompt-len 1024 \
            --generate-config 'NPUW_FUNCALL_FOR_ALL={funcall}'
}

# ====== 3. The tables ======
show_tables() {
    local npuscope
    npuscope=$(find_npuscope)
    "$npuscope" table "$OUT"
    if [[ -d $OUT-decode ]]; then "$npuscope" table "$OUT-decode"; fi
}

main() {
    local what=${1:-all}
    case $what in
        scaling) check_setup; sweep_scaling ;;
        decode) check_setup; sweep_decode ;;
        table) show_tables ;;
        all)
            check_setup
            sweep_scaling
            sweep_decode
            if [[ -z $DRY_RUN ]]; then show_tables; fi ;;
        -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' ;;
        *) die "unknown step '$what' (scaling, decode, table or all)" ;;
    esac
}

# Run only when executed, never when sourced.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    main "$@"
fi
