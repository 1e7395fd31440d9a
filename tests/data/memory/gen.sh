#!/bin/sh
# gen.sh -- make tests/data/memory/runs: an A/B of 5 runs a side of an NPU
# compile log with per-pass memory (tests/fixtures/constructed-npu-memory.log),
# recorded with --preset npu, where B's FeasibleAllocation raises the
# compiler's peak by half as much again as A's and every other line and
# time stays as it is: the golden case diff-memory shows `diff` flag that
# pass's memory increase ("mem:FeasibleAllocation ... slower (higher)")
# and nothing else but what the run wall times say.  The stand-in compiler
# prints the fixture with that one line changed (a little spread between
# repeats, so the test has ties to break).  The run folders are committed:
# their wall times are measured, so a new generation changes them (and the
# golden output).
#   sh tests/data/memory/gen.sh [NPUSCOPE]
set -eu
cd "$(dirname "$0")"
ns=${1:-../../../build/npuscope}
rm -rf runs
cat >compile.sh <<'SH'
#!/bin/sh
# side a or b: the kB FeasibleAllocation raises the peak in the first compile
r=$(( $$ % 3 ))
case $1 in a) inc=524288 ;; b) inc=786432 ;; esac
inc=$(( inc + r * 4096 ))
awk -v inc="$inc" '
    /after .FeasibleAllocation. pass: 2948096 kB/ {
        sub(/pass: 2948096 kB, increase 524288 kB/, "pass: " (2423808 + inc) " kB, increase " inc " kB")
    }
    { print }' ../../fixtures/constructed-npu-memory.log
SH
chmod +x compile.sh
"$ns" sweep -q -o runs -n 5 --preset npu -L side=a,b -- sh ./compile.sh '{side}'
rm compile.sh
# what names this machine goes: the run folder's absolute path and the host
for f in runs/*/run.json; do
    sed -i -E 's/,"NPUSCOPE_RUN_DIR":"[^"]*"//; s/"host":\{[^}]*\}/"host":{"name":"constructed","os":"Linux","cpus":2}/' "$f"
done
