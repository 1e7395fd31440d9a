# shellcheck shell=bash
# run_analysis.sh -- fit and diff on real compiles; sourced by tests/run.sh
# (uses its check/ok/bad, $NPUSCOPE, $TMP, $FIX).
#
# Real mlir-opt-22 compiles, about 25 s on two cores:
#   - a sweep over module size (2000 to 16000 small functions, 5 runs
#     each): compile time must grow as a power law with an exponent near 1
#     (0.5 to 1.5: process start-up flattens the small sizes), for the
#     whole compile and for one pass;
#   - A/B: B runs canonicalize,cse ten times where A runs it once, on the
#     same input (8000 functions; B takes about twice as long), runs
#     interleaved: the total must come out "slower" with p < 0.05, and
#     --fail-if-slower 5 must exit 1.  On a machine busy enough to make
#     the two sides overlap the test can miss (5 against 5 leaves no room:
#     one swapped pair gives p = 0.016, three give 0.056), so a fresh A/B
#     decides before the test fails;
#   - A/A: the same command as both sides, runs interleaved: the total must
#     never be a difference -- "same" when the shift's 90% interval lies
#     inside +-20% (--threshold 20), "inconclusive" (gate exit 2, or 0 when
#     the interval's slower end is within the 20 %) when the machine's
#     noise is wider than that (on a loaded two-core machine five
#     mlir-opt runs a side spread by half their median).  An exact test at alpha 0.05 calls a true A/A different at
#     most ~3% of the time (5 against 5: p <= 0.032 in 8 of 252 orders), so
#     a second, fresh A/A decides before the test fails (~0.1% together).
# The golden cases tests/cases/fit-* and diff-* cover the output formats
# and the errors on constructed data.

AN=$TMP/analysis
mkdir -p "$AN"
for n in 2000 4000 8000 16000; do
    awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) {
        printf "func.func @f%d(%%a: i32, %%b: i32) -> i32 {\n", i
        printf "  %%0 = arith.addi %%a, %%b : i32\n  %%1 = arith.muli %%0, %%a : i32\n"
        printf "  %%2 = arith.addi %%1, %%0 : i32\n  return %%2 : i32\n}\n" } }' >"$AN/in-$n.mlir"
done
AN_PIPE_A='builtin.module(inline,func.func(canonicalize,cse),convert-to-llvm)'
AN_PIPE_B="builtin.module(inline,func.func($(printf 'canonicalize,cse,%.0s' 1 2 3 4 5 6 7 8 9)canonicalize,cse),convert-to-llvm)"

# fit: a real sweep over input size
an_sweep() {
    "$NPUSCOPE" sweep -q -o "$AN/sweep" -n 5 -L n=2000,4000,8000,16000 -- \
        mlir-opt-22 --mlir-timing "--pass-pipeline=$AN_PIPE_A" "$AN/in-{n}.mlir" -o /dev/null
}
check "analysis: sweep of 4 sizes x 5 real mlir-opt-22 compiles" an_sweep
an_fit() {
    local y=$1
    "$NPUSCOPE" fit --format json --x n --y "$y" "$AN/sweep" >"$AN/fit.json" || return 1
    jqt '.fits | length == 1' "$AN/fit.json" || { cat "$AN/fit.json"; return 1; }
    jqt '.fits[0] | .group == null and .exponent > 0.5 and .exponent < 1.5 and .r2 > 0.9 and
           .n == 4 and (.points | length) == 4 and all(.points[]; .n == 5 and .in_fit) and
           ([.points[].x] == [2000, 4000, 8000, 16000]) and .ci95[0] < .exponent and
           .exponent < .ci95[1] and (.local_slopes | length) == 3' "$AN/fit.json" ||
        { jq -c '.fits[0] | del(.points)' "$AN/fit.json"; return 1; }
    # text and csv agree with json on the exponent
    local e; e=$(jq -r '.fits[0].exponent' "$AN/fit.json")
    "$NPUSCOPE" fit --x n --y "$y" "$AN/sweep" | grep -q "exponent $(awk -v v="$e" 'BEGIN { printf "%.4f", v }')," ||
        { echo "text exponent differs from $e"; return 1; }
    [ "$("$NPUSCOPE" fit --format csv --x n --y "$y" "$AN/sweep" | awk -F, 'NR > 1 { print $14 }' | sort -u)" = "$e" ]
}
check "analysis: fit --x n --y wall: exponent 0.5-1.5, R2 > 0.9, 4 points of 5 runs" an_fit wall
check "analysis: fit --x n --y pass:Canonicalizer (summed over its rows)" an_fit pass:Canonicalizer
check "analysis: fit --x n --y stage:passes (the generic stage map)" an_fit stage:passes

# fit --stages: stage:NAME under a map of the test's own, whose stage
# "canon" holds the Canonicalizer rows and nothing else: the fit is that of
# pass:Canonicalizer, and without the map no run has such a stage
printf 'stage canon\nstage rest\ndefault rest\nname Canonicalizer -> canon\n' >"$AN/canon.stages"
an_fit_stages() {
    local e1 e2 rc
    e1=$("$NPUSCOPE" fit --format json --x n --y pass:Canonicalizer "$AN/sweep" | jq -r '.fits[0].exponent')
    e2=$("$NPUSCOPE" fit --format json --stages "$AN/canon.stages" --x n --y stage:canon "$AN/sweep" |
        jq -r '.fits[0].exponent')
    awk -v a="$e1" -v b="$e2" 'BEGIN { exit !(a != "" && a != "null" && (a - b) ^ 2 < 1e-18) }' ||
        { echo "stage:canon exponent '$e2', pass:Canonicalizer '$e1'"; return 1; }
    "$NPUSCOPE" fit -q --x n --y stage:canon "$AN/sweep" >/dev/null 2>&1; rc=$?
    [ "$rc" -eq 1 ] || { echo "stage:canon without --stages: exit $rc, not 1 (nothing to fit)"; return 1; }
}
check "analysis: fit --stages FILE --y stage:canon is the fit of pass:Canonicalizer" an_fit_stages

# diff: B really is slower
an_ab_once() {
    local out=$1 _ rc
    for _ in 1 2 3 4 5; do # interleaved, so a drift of the machine hits both sides
        "$NPUSCOPE" record -q -o "$out" --tag side=a -- \
            mlir-opt-22 --mlir-timing "--pass-pipeline=$AN_PIPE_A" "$AN/in-8000.mlir" -o /dev/null || return 2
        "$NPUSCOPE" record -q -o "$out" --tag side=b -- \
            mlir-opt-22 --mlir-timing "--pass-pipeline=$AN_PIPE_B" "$AN/in-8000.mlir" -o /dev/null || return 2
    done
    "$NPUSCOPE" diff --format json --a side=a --b side=b "$out" >"$out.json" 2>"$out.err" || return 2
    [ ! -s "$out.err" ] || { echo "unexpected messages:"; cat "$out.err"; return 2; }
    jqt '.rows[0] | .name == "total" and .a_n == 5 and .b_n == 5' "$out.json" || return 2
    jqt '.rows[0] | .p < 0.05 and .verdict == "slower" and .ratio > 1.05 and .shift > 0' \
        "$out.json" || { jq -c '.rows[0]' "$out.json"; return 1; }
    # where it went: Canonicalizer (ten rows in B, summed) is slower too
    jqt '[.rows[] | select(.name == "Canonicalizer")][0] | .verdict == "slower" and .ratio > 2' \
        "$out.json" || { jq -c '.rows[]' "$out.json"; return 1; }
    "$NPUSCOPE" diff --a side=a --b side=b "$out" | grep -q '^total .* slower$' || return 2
    "$NPUSCOPE" diff -q --fail-if-slower 5 --a side=a --b side=b "$out" >/dev/null 2>"$out.gate"; rc=$?
    [ "$rc" -eq 1 ] || { echo "--fail-if-slower 5: exit $rc"; return 2; }
    grep -q "total is slower" "$out.gate" || { cat "$out.gate"; return 2; }
    # the other way round B is faster, and the gate stays open
    "$NPUSCOPE" diff -q --format csv --fail-if-slower 5 --a side=b --b side=a "$out" >"$out.csv" ||
        { echo "B -> A tripped the gate"; return 2; }
    grep -q '^total,total,5,5,.*,faster,lower,[^,]*,[^,]*$' "$out.csv" || { cat "$out.csv"; return 2; }
}
an_ab() {
    an_ab_once "$AN/ab1" && return 0
    [ $? -eq 2 ] && return 1
    echo "(the first A/B missed the difference; a fresh A/B decides)"
    an_ab_once "$AN/ab2"
}
check "analysis: diff A/B (B runs canonicalize,cse 10x): total slower, p < 0.05, gate exits 1" an_ab

# diff --stages: a row per stage of the map; "canon" (the Canonicalizer
# rows) holds what the pass row holds, about ten times as much in B; no
# stage rows without --stages
an_ab_stages() {
    local out=$AN/ab1
    [ -d "$AN/ab2" ] && out=$AN/ab2
    "$NPUSCOPE" diff -q --format json --stages "$AN/canon.stages" --a side=a --b side=b "$out" \
        >"$out.stages.json" || return 1
    jq -e '[.rows[] | select(.kind == "stage") | .name] == ["stage:canon", "stage:rest"]' \
        "$out.stages.json" >/dev/null || { jq -c '[.rows[] | .name]' "$out.stages.json"; return 1; }
    jq -e '([.rows[] | select(.name == "stage:canon")][0]) as $s |
           ([.rows[] | select(.name == "Canonicalizer")][0]) as $p |
           $s.a_n == 5 and $s.b_n == 5 and $s.ratio > 2 and
           (($s.a_median - $p.a_median) | fabs) < 1e-9 and (($s.b_median - $p.b_median) | fabs) < 1e-9' \
        "$out.stages.json" >/dev/null || { jq -c '.rows[] | select(.kind != "pass")' "$out.stages.json"; return 1; }
    "$NPUSCOPE" diff -q --format json --a side=a --b side=b "$out" |
        jq -e '[.rows[] | select(.kind == "stage")] == []' >/dev/null
}
check "analysis: diff --stages FILE: stage:canon is the Canonicalizer rows, x2 or more in B" an_ab_stages

# diff: A against A
an_aa_once() {
    local out=$1 _
    for _ in 1 2 3 4 5; do
        for side in a b; do
            "$NPUSCOPE" record -q -o "$out" --tag side=$side -- \
                mlir-opt-22 --mlir-timing "--pass-pipeline=$AN_PIPE_A" "$AN/in-2000.mlir" -o /dev/null || return 2
        done
    done
    # never a difference: "same" when five runs show it, "inconclusive"
    # when the machine's noise is too wide for that (the gate then exits
    # 2, cannot decide) -- but never slower or faster, never gate exit 1
    "$NPUSCOPE" diff -q --format json --threshold 20 --fail-if-slower 20 --a side=a --b side=b "$out" >"$out.json"
    local rc=$?
    jqt '.rows[0] | .name == "total" and .a_n == 5 and .b_n == 5 and
         (.verdict == "same" or .verdict == "inconclusive")' \
        "$out.json" || { jq -c '.rows[0]' "$out.json"; return 1; }
    # the gate: 0 on "same"; on "inconclusive", 0 when the whole interval
    # of the shift is within the 20 % (shown not slower by more: a wide
    # interval on the faster side only), else 2 (src/builtin/diff.c)
    jqt --argjson rc "$rc" '.rows[0] | (.verdict == "same" and $rc == 0) or
        (.verdict == "inconclusive" and
         ((.shift_ci[1] <= (.a_median | fabs) * 0.2 and $rc == 0) or (.shift_ci[1] > (.a_median | fabs) * 0.2 and $rc == 2)))' \
        "$out.json" || { echo "gate exit $rc"; jq -c '.rows[0]' "$out.json"; return 1; }
}
an_aa() {
    an_aa_once "$AN/aa1" && return 0
    [ $? -eq 2 ] && return 1
    echo "(first A/A called a difference; a fresh A/A decides)"
    an_aa_once "$AN/aa2"
}
check "analysis: diff A/A (same command, interleaved): total same or inconclusive, never a difference" an_aa

# table --baseline: every configuration relative to the one that differs
# only in precision (a real sweep of commands with known durations: int4
# a little faster than int8, fp16 faster for m1 and much slower for m2 --
# the pattern of the published study)
an_baseline() {
    local d=$AN/prec m p s
    for m in m1 m2; do
        for p in int8 int4 fp16; do
            case $m/$p in */int8) s=0.20;; */int4) s=0.15;; m1/fp16) s=0.12;; m2/fp16) s=0.38;; esac
            "$NPUSCOPE" sweep -q -o "$d" -n 3 -L model=$m -L precision=$p -- sleep $s || return 1
        done
    done
    "$NPUSCOPE" table --format json --baseline precision=int8 --by model "$d" >"$AN/base.json" || return 1
    jqt '[.rows[] | select(.tags.precision == "int8") | .baseline_ratio] == [1, 1] and
           ([.baseline.groups[] | select(.value == "int4") | .median_ratio < 1] | all) and
           ([.baseline.groups[] | select(.value == "fp16" and .by == "m1") | .median_ratio < 0.8] | all) and
           ([.baseline.groups[] | select(.value == "fp16" and .by == "m2") | .median_ratio > 1.5] | all) and
           (.baseline.groups | length) == 4' "$AN/base.json" >/dev/null || { jq -c .baseline "$AN/base.json"; return 1; }
    "$NPUSCOPE" table --baseline precision=int8 --by model "$d" | grep -q "median ratio to precision=int8 by model"
}
check "analysis: table --baseline precision=int8 --by model (ratios and their medians)" an_baseline

# outliers: one slow run among six is flagged and still counted
an_outlier() {
    local d=$AN/outl
    echo 0.10 >"$AN/dur"
    "$NPUSCOPE" record -q -o "$d" -n 5 --tag c=x -- sh -c 'sleep $(cat "$0")' "$AN/dur" || return 1
    echo 0.60 >"$AN/dur"
    "$NPUSCOPE" record -q -o "$d" -n 1 --tag c=x -- sh -c 'sleep $(cat "$0")' "$AN/dur" || return 1
    # the rule (modified z-score over 3.5, and at least 5% off the median)
    # applied here to the six recorded times: on a loaded machine one of
    # the five short runs can start late enough to be an outlier too, so
    # the count is the rule's, and the slow run must be one of them
    local want
    want=$(jq -r .wall_s "$d"/*/run.json | sort -g | awk '{ v[NR] = $1 }
        function med(a, n,   m) { m = int((n + 1) / 2); return n % 2 ? a[m] : (a[m] + a[m + 1]) / 2 }
        END {
            m = med(v, NR)
            for (i = 1; i <= NR; i++) { d[i] = v[i] > m ? v[i] - m : m - v[i] }
            for (i = 1; i <= NR; i++) {  # insertion sort: mawk has no asort
                x = d[i]; for (j = i - 1; j >= 1 && s[j] > x; j--) s[j + 1] = s[j]; s[j + 1] = x
            }
            mad = med(s, NR)
            if (!(mad > 0)) { print 0; exit }
            k = 0; slow = 0
            for (i = 1; i <= NR; i++) {
                dev = v[i] > m ? v[i] - m : m - v[i]
                if (0.6745 * dev / mad > 3.5 && dev >= 0.05 * m) { k++; if (v[i] > 0.5) slow = 1 }
            }
            print slow ? k : -1
        }')
    [ "${want:--1}" -ge 1 ] || { echo "the slow run is no outlier by the rule: $(jq -r .wall_s "$d"/*/run.json | tr '\n' ' ')"; return 1; }
    "$NPUSCOPE" table --format json "$d" | jqt --argjson k "$want" '.rows[0] | .n == 6 and .outliers == $k and .max_s > 0.5'
}
check "analysis: table flags the outlier run (MAD) and keeps it" an_outlier
