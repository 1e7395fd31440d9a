#!/bin/bash
# slurm-sweep.sh -- one npuscope sweep as a Slurm job array: array task K
# runs shard K of N (npuscope sweep --shard K/N) on a node of its own.
#
#   sbatch examples/slurm-sweep.sh                          # the sweep in SWEEP below
#   sbatch examples/slurm-sweep.sh -n 3 -L n=1,2 -- CMD {n}  # or the sweep given here
#
# Edit before submitting (or set them in sbatch's environment, which Slurm
# passes on: OUT=runs/qwen SHARDS=8 sbatch --array=0-7 examples/slurm-sweep.sh):
#   SHARDS    the number of shards N; keep "#SBATCH --array=0-(N-1)" in step
#   OUT       the results folder: task K writes OUT/shard-K/, a folder per
#             shard, so no two nodes write into one on a shared file system
#   NPUSCOPE  the npuscope binary (on every node's PATH, or a path)
#   SWEEP     record's and sweep's options, the axes, then -- and the command
#             with its {NAME} placeholders; arguments to the script replace it
# Each task runs in the folder sbatch was called from: relative paths in
# SWEEP (scripts, models) and OUT are from there, on every node.
#
# When every task is done, merge (run ids never clash between shards):
#   mkdir -p runs/study/all && cp -r runs/study/shard-*/* runs/study/all/
#   npuscope table runs/study/all
# A task that did not finish (a node lost, scancel, the time limit): submit
# it again with the same arguments, e.g. task 2:
#   sbatch --array=2 examples/slurm-sweep.sh
# It skips the runs its shard already holds and runs the rest. The run that
# was cut off is kept as OUT/shard-K/.interrupted-<run-id>-<pid>/ (or, if
# Slurm's SIGKILL came first, .tmp-<run-id>-...): dotted names, which table
# skips and the cp above does not copy.
#SBATCH --job-name=npuscope-sweep
#SBATCH --array=0-3
#SBATCH --exclusive
#SBATCH --output=slurm-%A_%a.out
set -eu
SHARDS=${SHARDS:-4}
OUT=${OUT:-runs/study}
NPUSCOPE=${NPUSCOPE:-npuscope}
SWEEP=(-n 5 --warmup 1 --modes 'cold,warm' --preset npu
    -L 'model=qwen2.5-1.5b,qwen2.5-7b' -P 'window=128:2048:*2' -L 'precision=int4,int8,fp16'
    -- python3 examples/ov_compile.py 'models/{model}-{precision}' --llm --max-prompt-len '{window}')
[ $# -eq 0 ] || SWEEP=("$@")

K=${SLURM_ARRAY_TASK_ID:?not an array task: submit with sbatch --array=0-$((SHARDS - 1))}
[ "$K" -lt "$SHARDS" ] || { echo "slurm-sweep.sh: array task $K, but SHARDS=$SHARDS" >&2; exit 2; }
exec "$NPUSCOPE" sweep --shard "$K/$SHARDS" -o "$OUT/shard-$K" "${SWEEP[@]}"
