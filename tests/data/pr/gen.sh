#!/bin/sh
# gen.sh -- make tests/data/pr/runs: an A/B of 5 runs a side whose diff has
# a slower total, a slower pass, a faster pass and rows that stay the same,
# for the golden cases of `diff --format markdown|github`.  The compile is
# a shell script printing an MLIR text report (the numbers vary a little
# per repeat, so the test has spread); B sleeps longer, so its run wall
# time is slower too.  The run folders are committed: their wall times are
# measured, so a new generation changes them (and the golden outputs).
#   sh tests/data/pr/gen.sh [NPUSCOPE]
set -eu
cd "$(dirname "$0")"
ns=${1:-../../../build/npuscope}
rm -rf runs
cat >compile.sh <<'SH'
#!/bin/sh
# side a or b, repeat r: Canonicalizer grows in b, CSE shrinks, Parser stays
r=$(( $$ % 3 )) # a little spread between repeats
side=$1
case $side in a) canon=0.20 cse=0.30 nap=0.10 ;; b) canon=0.40 cse=0.15 nap=0.35 ;; esac
sleep $nap
awk -v c="$canon" -v e="$cse" -v r="$r" -v s="$side" 'BEGIN {
    j = (r % 3) * 0.001 + (s == "b" ? 0.0002 : 0)
    c += j; e += j; p = 0.05 + j; rest = 0.0001; t = c + e + p + rest
    print "===-------------------------------------------------------------------------==="
    print "                         ... Execution time report ..."
    print "===-------------------------------------------------------------------------==="
    printf "  Total Execution Time: %.4f seconds\n\n", t
    print "  ----Wall Time----  ----Name----"
    printf "  %8.4f (%5.1f%%)  Parser\n", p, 100 * p / t
    printf "  %8.4f (%5.1f%%)  Canonicalizer\n", c, 100 * c / t
    printf "  %8.4f (%5.1f%%)  CSE | \"quoted\" <b>\n", e, 100 * e / t
    printf "  %8.4f (%5.1f%%)  Rest\n", rest, 100 * rest / t
    printf "  %8.4f (100.0%%)  Total\n", t }' >&2
SH
chmod +x compile.sh
"$ns" sweep -q -o runs -n 5 -L side=a,b -- sh ./compile.sh '{side}'
rm compile.sh
# what names this machine goes: the run folder's absolute path and the host
for f in runs/*/run.json; do
    sed -i -E 's/,"NPUSCOPE_RUN_DIR":"[^"]*"//; s/"host":\{[^}]*\}/"host":{"name":"constructed","os":"Linux","cpus":2}/' "$f"
done
