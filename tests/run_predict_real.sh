# shellcheck shell=bash
# run_predict_real.sh -- `npuscope predict` on real compiles: mlir-opt-22
# over module sizes of 1k..8k functions and two pipelines (the tag pipe: a
# canonicalizes, b lowers to the LLVM dialect) predicts 16k and 32k, which
# the same sweep measures and then moves aside: within 20 % of the measured
# medians, each measurement inside its 90 % interval, extrapolation
# flagged (16k: 2x the largest measured size, 32k: 4x).
#
# What is timed, and when.  y is the compile's own report total (predict's
# default, --y total): the pass manager's parse, passes and output.  The
# process's user CPU time, tried first, carries mlir-opt's start (loading
# and registering MLIR: about 0.08 s of a 0.1 s 1k compile, and the part
# that varies most), which bent the log-log line and missed 32k by 35-67 %
# in four sweeps of five.  The report total is linear in the size to a few
# per cent up to 8k (25-28 us a function; past it a little more, below),
# with two exceptions that the design below takes out:
#   - the first compile of each configuration is 20-50 % slower than the
#     rest (seen in every configuration of a 7-run sweep, nowhere else):
#     one warm-up run each (--warmup 1, kept and marked, which predict
#     leaves out);
#   - a busy machine makes the large compiles dearer than the small ones
#     (their IR outgrows the caches others share): under two busy loops a
#     CPU, two loops of process starts and a build, even at real-time
#     priority, a sweep missed by up to 30 % and outside the interval, one
#     in three; on a quiet machine, 3 runs a configuration, 16k and 32k
#     came within 8 % in every sweep (errors -5..+8 %).
# So this runs first in make check (tests/run.sh's section 0), before any
# lane or background build starts and while the machine is quiet, one
# compile at a time: about 30 s of one core.  Not in the inner sanitized
# run (it measures mlir-opt, not npuscope) and not in the fast tier.
#
# The machine's own noise.  This is a virtual machine, and its host is not
# always quiet: an idle guest has run the same 32k compile at 0.80 to 1.11 s
# five times in a row, and whole minutes come when every run of every size
# scatters by 30-40 % (seen 2026-12-07 for half an hour and more, in two
# fresh-clone make checks of three).  A 20 % claim cannot be tested on
# such a measurement, so the sweep is judged only when its runs agree: the
# median over its configurations of the spread of their counted runs
# ((max - min) / median) at most 8 % (quiet sweeps: 3-8 % in twelve; the
# noisy ones 30-42 %).  Between them, a sweep at 10 % as the host calmed
# passed the 15 % first allowed and failed: 32k of pipeline b 19 % above
# its prediction and outside the interval.  A noisy sweep is measured
# again, once; two noisy ones skip the check, saying so, rather than pass
# it or fail it.
# Five runs a configuration (not three): a median that one stray run
# cannot move.
#
# The model's own error past the data is in the interval (the ends check,
# src/analyse/predict.h): quiet sweeps here put 32k 5-11 % above the
# prediction, outside the plain interval (+-8 %) in two sweeps of four;
# with the ends check inside in every sweep.
#
# Sourced by tests/run.sh (uses check, skip, bad, jq, $NPUSCOPE, $TMP from
# tests/lib.sh); owns $TMP/predict-real-*.  EXPECT_REAL_WITHIN=0.0001 makes
# the check fail on purpose; PRED_REAL_STEADY=0 makes every sweep noisy.

PR_RUNS=${PRED_REAL_RUNS:-5}

# pr_sweep DIR: the sweep into DIR/train, the 16k and 32k runs then moved
# to DIR/test
pr_sweep() {
    local d=$1 n
    rm -rf "$d"
    mkdir -p "$d/test"
    for n in 1000 2000 4000 8000 16000 32000; do
        awk -v n=$n 'BEGIN { for (i = 0; i < n; i++)
            printf "func.func @f%d(%%a: i32) -> i32 {\n  return %%a : i32\n}\n", i }' >"$d/in$n.mlir"
    done
    cat >"$d/compile.sh" <<'SH'
#!/bin/sh
# compile.sh FUNCS PIPE: a canonicalizes, b lowers to the LLVM dialect
case $2 in
a) p='builtin.module(func.func(canonicalize))' ;;
*) p='builtin.module(convert-to-llvm)' ;;
esac
exec mlir-opt-22 --mlir-disable-threading --mlir-timing --pass-pipeline="$p" \
    "$(dirname "$0")/in$1.mlir" -o /dev/null
SH
    # (--timeout: a hung compile ends the check, not make check)
    "$NPUSCOPE" sweep -q -o "$d/train" -n "$PR_RUNS" --warmup 1 --timeout 120 --preset mlir \
        -L funcs=1000,2000,4000,8000,16000,32000 -L pipe=a,b \
        -- sh "$d/compile.sh" '{funcs}' '{pipe}' >"$d/sweep.log" 2>&1 || return 1
    for n in "$d"/train/*/run.json; do
        case $(jq -r .tags.funcs "$n") in 16000 | 32000) mv "$(dirname "$n")" "$d/test/" ;; esac
    done
}

# pr_spread DIR: the median over the configurations of DIR's sweep of the
# spread of their counted runs' report totals, (max - min) / median
pr_spread() {
    jq -rs '[.[] | select(.warmup | not)] | group_by(.tags.funcs + " " + .tags.pipe) |
        map([.[] | [.reports[].root.wall_s] | add] | sort | (.[-1] - .[0]) / .[length / 2 | floor]) |
        sort | .[length / 2 | floor]' "$1"/train/*/run.json "$1"/test/*/run.json
}

pred_real() {
    local d=$PR_DIR
    "$NPUSCOPE" predict --format json --at funcs=16000,pipe=a --at funcs=16000,pipe=b \
        --at funcs=32000,pipe=a --at funcs=32000,pipe=b "$d/train" >"$d/pred.json" || return 1
    # the measured median of each held-back configuration's report total,
    # its warm-up run left out as predict leaves it out
    jq -rs '[.[] | select(.warmup | not)] | group_by(.tags.funcs + " " + .tags.pipe)[] |
        ([.[] | [.reports[].root.wall_s] | add] | sort) as $t |
        [.[0].tags.funcs + " " + .[0].tags.pipe,
         (if ($t | length) % 2 == 1 then $t[($t | length - 1) / 2]
          else ($t[($t | length) / 2 - 1] + $t[($t | length) / 2]) / 2 end), ($t | length)] | @tsv' \
        "$d"/test/*/run.json | sort >"$d/measured.tsv"
    jq -r '.predictions[] | [.at.funcs + " " + .at.pipe, .total_s, .interval[0], .interval[1],
        .extrapolation, .extrapolation_by.funcs] | @tsv' "$d/pred.json" | sort >"$d/pred.tsv"
    join -t "$(printf '\t')" "$d/measured.tsv" "$d/pred.tsv" >"$d/joined.tsv"
    echo "median spread of a configuration's runs: $PR_SPREAD"
    echo "funcs pipe, measured median, runs, predicted, interval, extrapolation, by"
    cat "$d/joined.tsv"
    jq -c '.loo | {median_rel_error, max_rel_error, n}' "$d/pred.json"
    awk -F'\t' -v within="${EXPECT_REAL_WITHIN:-0.20}" -v runs="$PR_RUNS" '
        { n++; e = ($4 - $2) / $2; if (e < 0) e = -e
          if ($3 != runs) { print "a median of " $3 " runs, not " runs ": " $0; bad = 1 }
          if (e > within) { print "error " e " > " within ": " $0; bad = 1 }
          if ($2 < $5 || $2 > $6) { print "measured outside the interval: " $0; bad = 1 }
          if ($7 != "true" || $8 < 1.9) { print "extrapolation not flagged: " $0; bad = 1 } }
        END { if (n != 4) { print n " configurations"; exit 1 } exit bad }' "$d/joined.tsv"
}

PR_DIR='' PR_SPREAD='' pr_spreads='' pr_failed=''
for pr_k in 1 2; do
    if ! pr_sweep "$TMP/predict-real-$pr_k"; then
        pr_failed=$TMP/predict-real-$pr_k/sweep.log
        break
    fi
    PR_SPREAD=$(pr_spread "$TMP/predict-real-$pr_k")
    pr_spreads="$pr_spreads${pr_spreads:+, }$(awk -v s="$PR_SPREAD" 'BEGIN { printf "%.0f %%", 100 * s }')"
    if awk -v s="$PR_SPREAD" -v m="${PRED_REAL_STEADY:-0.08}" 'BEGIN { exit !(s <= m) }'; then
        PR_DIR=$TMP/predict-real-$pr_k
        break
    fi
done
if [ -n "$pr_failed" ]; then
    bad "predict: real mlir-opt-22: the sweep failed"
    tail -5 "$pr_failed" | sed 's/^/     /'
elif [ -z "$PR_DIR" ]; then
    skip "predict on real mlir-opt-22 compiles: the machine's own noise too large to test a 20 % claim (median spread of a configuration's runs $pr_spreads in two sweeps; at most 8 % judged)"
else
    check "predict: real mlir-opt-22, sizes 1k..8k, two pipelines: 16k and 32k within 20 % of the measured medians, inside the interval, extrapolation flagged" pred_real
fi
