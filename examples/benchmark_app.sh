#!/usr/bin/env bash
# benchmark_app.sh -- run OpenVINO's benchmark_app the way npuscope measures
# compiles: it honours the NPUSCOPE_* variables that `npuscope record` and
# `npuscope sweep` export, then hands every other argument to benchmark_app.
#
#   npuscope record -n 5 --warmup 1 --mode cold -- \
#       examples/benchmark_app.sh -m model.xml -niter 1
#   npuscope sweep -o runs/cnn -n 5 --modes cold,warm -L res=224,512 -- \
#       examples/benchmark_app.sh -m models/resnet50.xml -shape '[1,3,{res},{res}]' -niter 1
#
# benchmark_app prints "[ INFO ] Compile model took N ms", which npuscope's
# built-in metric compile_model_ms picks up.  The NPU compiler's timing report
# comes from native code on stdout at LOG_INFO; npuscope captures it at the
# file-descriptor level.  benchmark_app also runs inference after compiling
# (for a time or an iteration count): pass -niter 1 (or -t 1) when only the
# compile matters.
#
# What each mode adds (through a -load_config JSON file keyed by the device,
# and -cdir):
#   cold  {"NPU": {"NPU_BYPASS_UMD_CACHING": "YES", "LOG_LEVEL": "LOG_INFO"}}
#         and no -cdir, so every run really compiles (the driver's own blob
#         cache is bypassed).  When npuscope gives a cold run a cache folder
#         (NPUSCOPE_CACHE_DIR: a fresh one per cold run), it must be empty or
#         absent; it is then passed as -cdir, so the run compiles and exports
#         into a fresh cache, like a warm primer.  --no-cold-cache leaves -cdir
#         out, to time the compile without the blob export.
#   warm  -cdir "$NPUSCOPE_CACHE_DIR" and LOG_LEVEL LOG_INFO: the first run of
#         a cell compiles and fills the cache, later runs import the blob.
#   none  (or unset) LOG_LEVEL LOG_INFO only.
# NPU_BYPASS_UMD_CACHING is an NPU property, so it is only added when the
# device is NPU.  The JSON file goes to $NPUSCOPE_RUN_DIR (kept with the run)
# or, outside npuscope, to a temporary file removed afterwards.
#
# Options of this wrapper (removed before calling benchmark_app):
#   --ov-config KEY=VALUE   one more property for the device's JSON entry,
#                           e.g. NPU_COMPILATION_MODE_PARAMS=dump-task-stats=true
#                           (repeatable; overrides the mode's entries)
#   --no-cold-cache         cold mode: no -cdir even when NPUSCOPE_CACHE_DIR
#                           is set
# If you pass your own -load_config FILE, it is used unchanged and nothing is
# added to it: put NPU_BYPASS_UMD_CACHING / LOG_LEVEL in it yourself.
#
# Environment: BENCHMARK_APP names the benchmark_app to run (default: the one
# on PATH).  The device defaults to NPU unless -d is given.
set -euo pipefail

prog=benchmark_app.sh
die() { printf '%s: error: %s\n' "$prog" "$*" >&2; exit 2; }
warn() { printf '%s: warning: %s\n' "$prog" "$*" >&2; }

# JSON string literal of $1 (backslash, quote and control characters escaped).
json_str() {
    local s=$1
    s=${s//\\/\\\\}
    s=${s//\"/\\\"}
    s=${s//$'\t'/\\t}
    s=${s//$'\n'/\\n}
    s=${s//$'\r'/\\r}
    printf '"%s"' "$s"
}

ba=${BENCHMARK_APP:-benchmark_app}
if ! command -v "$ba" >/dev/null 2>&1; then
    printf '%s: error: %s not found. Install OpenVINO (the C++ benchmark_app is\n' "$prog" "$ba" >&2
    printf '  built with the samples of the OpenVINO archive; some pip releases of\n' >&2
    printf '  openvino ship a Python benchmark_app) or set BENCHMARK_APP=/path/to/it\n' >&2
    exit 127
fi

# ====== Arguments: pull out ours, note -d and -load_config ======
args=()
keys=()
vals=()
device=
user_config=
cold_cache=1
while (($#)); do
    case $1 in
        --ov-config)
            (($# >= 2)) || die "--ov-config needs KEY=VALUE"
            [[ $2 == ?*=* ]] || die "--ov-config: expected KEY=VALUE, got '$2'"
            keys+=("${2%%=*}"); vals+=("${2#*=}")
            shift 2; continue ;;
        --ov-config=*)
            kv=${1#--ov-config=}
            [[ $kv == ?*=* ]] || die "--ov-config: expected KEY=VALUE, got '$kv'"
            keys+=("${kv%%=*}"); vals+=("${kv#*=}")
            shift; continue ;;
        --no-cold-cache)
            cold_cache=; shift; continue ;;
        -d | --d)
            (($# >= 2)) || die "$1 needs a device"
            device=$2 ;;
        -d=* | --d=*)
            device=${1#*=} ;;
        -load_config | --load_config)
            (($# >= 2)) || die "$1 needs a file"
            user_config=$2 ;;
        -load_config=* | --load_config=*)
            user_config=${1#*=} ;;
    esac
    args+=("$1")
    shift
done

extra=()
if [[ -z $device ]]; then
    device=NPU
    extra+=(-d "$device")
fi

# ====== Mode ======
mode=${NPUSCOPE_MODE:-none}
cache=${NPUSCOPE_CACHE_DIR:-}
props_k=(LOG_LEVEL)
props_v=(LOG_INFO)
case $mode in
    cold)
        if [[ ${device^^} == NPU* ]]; then
            props_k+=(NPU_BYPASS_UMD_CACHING); props_v+=(YES)
        fi
        if [[ -n $cache && -n $cold_cache ]]; then
            if [[ -d $cache ]] && [[ -n $(ls -A -- "$cache") ]]; then
                die "cold mode: cache folder $cache is not empty; a cold run needs a fresh, empty folder (or none)"
            fi
            mkdir -p -- "$cache"
            extra+=(-cdir "$cache")
        fi ;;
    warm)
        [[ -n $cache ]] || die "warm mode needs NPUSCOPE_CACHE_DIR"
        mkdir -p -- "$cache"
        extra+=(-cdir "$cache") ;;
    none) ;;
    *) die "NPUSCOPE_MODE must be cold, warm or none, not '$mode'" ;;
esac

# --ov-config entries override the mode's entries of the same key.
for i in "${!keys[@]}"; do
    found=
    for j in "${!props_k[@]}"; do
        if [[ ${props_k[j]} == "${keys[i]}" ]]; then
            props_v[j]=${vals[i]}; found=1
        fi
    done
    [[ -n $found ]] || { props_k+=("${keys[i]}"); props_v+=("${vals[i]}"); }
done

# ====== The -load_config file ======
tmp=
if [[ -n $user_config ]]; then
    ((${#keys[@]} == 0)) || die "--ov-config cannot be combined with your own -load_config"
    warn "using your -load_config $user_config unchanged (mode $mode adds nothing to it)"
else
    run_dir=${NPUSCOPE_RUN_DIR:-}
    if [[ -n $run_dir && -d $run_dir ]]; then
        cfg=$run_dir/benchmark_app_config.json
    else
        tmp=$(mktemp "${TMPDIR:-/tmp}/benchmark_app_config.XXXXXX")
        trap 'rm -f -- "$tmp"' EXIT
        cfg=$tmp
    fi
    {
        printf '{\n  %s: {' "$(json_str "$device")"
        sep=
        for i in "${!props_k[@]}"; do
            printf '%s\n    %s: %s' "$sep" "$(json_str "${props_k[i]}")" "$(json_str "${props_v[i]}")"
            sep=,
        done
        printf '\n  }\n}\n'
    } >"$cfg"
    extra+=(-load_config "$cfg")
fi

cmd=("$ba" "${extra[@]}" "${args[@]}")
printf '%s: mode %s, device %s, running %s\n' "$prog" "$mode" "$device" "${cmd[*]}" >&2

# ====== Run ======
if [[ -z $tmp ]]; then
    # Under npuscope: become benchmark_app, so its exit status, signals and
    # timing are the run's own.
    exec "${cmd[@]}"
fi
trap 'exit 130' INT
trap 'exit 143' TERM
status=0
"${cmd[@]}" || status=$?
exit "$status"
