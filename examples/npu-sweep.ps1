# npu-sweep.ps1 -- examples/npu-sweep.sh for Windows: an NPU compile-time
# study with npuscope.exe, as a PowerShell script to read, adapt and run on
# a Windows machine with an Intel NPU (Core Ultra), its driver and OpenVINO.
#
# Two sweeps and a table, as in npu-sweep.sh (read its header for what each
# shows):
#   1. scaling   model families x prompt windows x weight precisions, cold
#                and warm (OpenVINO's blob cache)
#   2. decode    NPUW_FUNCALL_FOR_ALL=YES vs NO for the generate model
#   3. table     npuscope table over both output folders
#
# usage (from the folder holding examples\ov_compile.py, e.g. the npuscope
# source tree or the unpacked zip with the examples copied next to it):
#   powershell -ExecutionPolicy Bypass -File examples\npu-sweep.ps1 [scaling|decode|table|all]
#   $env:DRY_RUN = "1"; .\examples\npu-sweep.ps1      # list the runs, run nothing
#   $env:SHARD = "2/4"; .\examples\npu-sweep.ps1      # this machine's quarter
#
# Models: one folder per family and precision, "$MODELS\<family>-<precision>",
# each a stateful OpenVINO LLM export (openvino_model.xml + .bin), made with
#   optimum-cli export openvino -m Qwen/Qwen2.5-7B-Instruct --weight-format int4 models\qwen2.5-7b-int4
#
# Knobs (environment; defaults in brackets) -- the same as npu-sweep.sh:
#   MODELS [models]  FAMILIES [qwen2.5-1.5b,qwen2.5-7b]  PRECISIONS [int4,int8,fp16]
#   WINDOWS [128:2048:*2]  DECODE_MODEL [$MODELS\gemma-3-1b-int4]  OUT [runs\npu]
#   RUNS [5]  WARMUP [1]  TIMEOUT [3600]  SHARD  DRY_RUN
#   NPUSCOPE  npuscope.exe [npuscope.exe on PATH, else .\npuscope.exe]
#
# npuscope runs the compile itself (CreateProcess, no shell) and puts each
# cell's values into the {model}, {precision} and {window} placeholders; the
# single quotes keep PowerShell from reading the braces.  Re-running the
# same command resumes: runs already finished are skipped.  Ctrl-C stops a
# sweep cleanly (exit 130): finished runs stay, the same command resumes.
param([string]$What = "all")
$ErrorActionPreference = "Stop"

function Setting([string]$Name, [string]$Default) {
    $v = [Environment]::GetEnvironmentVariable($Name)
    if ($v) { return $v } else { return $Default }
}
$Models = Setting "MODELS" "models"
$Families = Setting "FAMILIES" "qwen2.5-1.5b,qwen2.5-7b"
$Precisions = Setting "PRECISIONS" "int4,int8,fp16"
$Windows = Setting "WINDOWS" "128:2048:*2"
$DecodeModel = Setting "DECODE_MODEL" "$Models\gemma-3-1b-int4"
$Out = Setting "OUT" "runs\npu"
$Runs = Setting "RUNS" "5"
$Warmup = Setting "WARMUP" "1"
$Timeout = Setting "TIMEOUT" "3600"
$Shard = Setting "SHARD" ""
$DryRun = Setting "DRY_RUN" ""

function Die([string]$Msg) { Write-Error "npu-sweep.ps1: error: $Msg"; exit 2 }

function Find-Npuscope {
    if ($env:NPUSCOPE) { return $env:NPUSCOPE }
    if (Get-Command npuscope.exe -ErrorAction SilentlyContinue) { return "npuscope.exe" }
    if (Test-Path .\npuscope.exe) { return ".\npuscope.exe" }
    Die "npuscope.exe not found: unpack npuscope-VERSION-win64.zip, or set NPUSCOPE"
}

function Check-Setup {
    if (-not (Test-Path examples\ov_compile.py)) {
        Die "run this from the folder holding examples\ov_compile.py"
    }
    if (-not (Get-Command python -ErrorAction SilentlyContinue)) { Die "python not found" }
    if (-not $DryRun) {
        python -c "import openvino" 2>$null
        if ($LASTEXITCODE -ne 0) { Die "OpenVINO is not importable by python: pip install openvino" }
    }
}

function Common-Opts {
    $o = @("-n", $Runs, "--warmup", $Warmup, "--preset", "npu", "--timeout", $Timeout)
    if ($Shard) { $o += @("--shard", $Shard) }
    if ($DryRun) { $o += "--dry-run" }
    return $o
}

# --preset npu sets OV_NPU_LOG_LEVEL=LOG_INFO for the compile; ov_compile.py
# sets each mode's cache settings itself.
function Sweep-Scaling {
    $npuscope = Find-Npuscope
    $opts = Common-Opts
    & $npuscope sweep -o $Out @opts --modes cold,warm `
        -L "model=$Families" -P "window=$Windows" -L "precision=$Precisions" `
        -- python examples\ov_compile.py "$Models\{model}-{precision}" `
        --llm --max-prompt-len '{window}' --min-response-len 128
    if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
}

function Sweep-Decode {
    $npuscope = Find-Npuscope
    $opts = Common-Opts
    & $npuscope sweep -o "$Out-decode" @opts --modes cold -L funcall=YES,NO `
        -- python examples\ov_compile.py $DecodeModel --llm --max-prompt-len 1024 `
        --generate-config 'NPUW_FUNCALL_FOR_ALL={funcall}'
    if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
}

function Show-Tables {
    $npuscope = Find-Npuscope
    & $npuscope table $Out
    if (Test-Path "$Out-decode") { & $npuscope table "$Out-decode" }
}

switch ($What) {
    "scaling" { Check-Setup; Sweep-Scaling }
    "decode" { Check-Setup; Sweep-Decode }
    "table" { Show-Tables }
    "all" { Check-Setup; Sweep-Scaling; Sweep-Decode; if (-not $DryRun) { Show-Tables } }
    default { Die "unknown step '$What' (scaling, decode, table or all)" }
}
