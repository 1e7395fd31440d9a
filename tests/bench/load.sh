#!/usr/bin/env bash
# load.sh -- run folders at disk speed: `table`, `diff`, `advise` and
# `report` over 1,200 and 12,000 generated runs, against a bare jansson load
# of the same files.
#
# tests/bench.sh calls it (one line); `bash tests/bench/load.sh` runs it
# alone.  Ratios are against baselines measured here, in the same run, on
# the same files, page cache warm; nothing is asserted on time (a slow
# machine prints "not met" and exits 0).  Exit 1 only when npuscope fails
# or counts the wrong number of runs; 2 when the bench cannot run.
#
#   1. runs: tests/bench/load_gen.py writes N run folders, each with one
#      NPU compile report of about 120 rows (the tree of
#      tests/fixtures/constructed-npu-2025.log, its times scaled per run):
#      120 configurations (5 models x 6 windows x 4 precisions), so 1,200
#      runs are 10 repeats and 12,000 are 100.  About 12.6 KB of run.json a
#      run.
#   2. floors: `cat` of every run.json, and tests/bench/load_baseline.c
#      (built here with cc -O2 -ljansson): each file read and parsed by
#      jansson, then freed, nothing else -- what any reader of run.json
#      must pay.
#   3. `npuscope table -q DIR`, `npuscope diff -q --a CONFIG --b CONFIG DIR`
#      (one configuration against another of the same model and window,
#      int8 against int4: the A/B a CI gate asks of a history folder; every
#      run is read, a hundredth of them compared; the same A/B is also
#      timed over a folder of just those runs, because its statistics --
#      exact Mann-Whitney p and Hodges-Lehmann over n/120 runs a side --
#      grow with the sides, not with the reading), `npuscope advise -q DIR`
#      and `npuscope report -q -o FILE DIR`: best of
#      BENCH_RUNS CPU time (user + sys, GNU time; the wall time is printed
#      too, but on a shared machine it measures the neighbours as well) and
#      peak RSS (/usr/bin/time -f %M).
#   4. the targets: table at 12,000 runs within 1.5x of the jansson load,
#      peak RSS under 64 MiB, time linear in runs: table's time per run at
#      12,000 over its time per run at 1,200, divided by the same ratio of
#      the jansson load (linear by construction, so whatever it grows by is
#      the machine's), within 1.2.  diff and advise have the same three
#      targets; diff's time and linearity are read on its reading part
#      (diff over the folder minus the same A/B over its runs alone).
#      report has the peak RSS target at the big size (it keeps per-run
#      summaries and reads again only the trees its page embeds).
#
# Environment: NPUSCOPE (default ./npuscope), BENCH_RUNS (best of, default
# 3), BENCH_LOAD_N="1200 12000" (the sizes; the targets read the last two),
# BENCH_DIR (where the runs go; default a new mktemp -d, removed after).
set -u
cd "$(dirname "$0")/../.." || exit 2
export LC_ALL=C
NPUSCOPE=${NPUSCOPE:-./npuscope}
BENCH_RUNS=${BENCH_RUNS:-3}
BENCH_LOAD_N=${BENCH_LOAD_N:-1200 12000}
TIME_BIN=/usr/bin/time
RSS_TARGET_MB=64
RATIO_TARGET=1.5
LINEAR_TARGET=1.2

die() { echo "load bench: $*" >&2; exit 2; }
FAILED=0
fail() { echo "load bench: FAIL: $*" >&2; FAILED=1; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
met() { if awk "BEGIN { exit !($1) }"; then echo met; else echo "not met"; fi; }
stamp() {
    if [ -n "${EPOCHREALTIME:-}" ]; then printf -v "$1" '%s000' "${EPOCHREALTIME/./}"
    else printf -v "$1" '%s' "$(date +%s%N)"; fi
}

echo
echo "== run folders at disk speed (tests/bench/load.sh)"
[ -x "$NPUSCOPE" ] || die "$NPUSCOPE not found: run 'make' first"
command -v python3 >/dev/null 2>&1 || { echo "skipped: python3 not found (tests/bench/load_gen.py)"; exit 0; }
CC=${CC:-cc}
if [ -n "${BENCH_DIR:-}" ]; then
    W=$BENCH_DIR/load
    rm -rf "$W"; mkdir -p "$W" || die "cannot create $W"
else
    W=$(mktemp -d "${TMPDIR:-/tmp}/npuscope-load.XXXXXX") || die "mktemp failed"
fi
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM

"$CC" -O2 -o "$W/load_baseline" tests/bench/load_baseline.c -ljansson 2>"$W/err" ||
    die "building tests/bench/load_baseline.c failed: $(head -c 300 "$W/err")"
"$NPUSCOPE" tree --format json tests/fixtures/constructed-npu-2025.log >"$W/base.json" ||
    die "npuscope tree --format json failed"

# measure CMD...: BENCH_RUNS runs of CMD (stdout to $W/out); the best wall
# time into WALL, the best CPU time (user + sys) into CPU, seconds, and the
# largest peak RSS into RSS, MiB (CPU and RSS empty without GNU time).  The
# targets are read on CPU time when there is one: on a shared machine the
# wall clock also measures the neighbours (a run waiting for a core), CPU
# time only the command.  A non-zero exit fails the bench.
measure() {
    local i t0 t1 d rc w='' c='' m='' line
    for ((i = 0; i < BENCH_RUNS; i++)); do
        if [ -x "$TIME_BIN" ]; then
            stamp t0; "$TIME_BIN" -f '%U %S %M' -o "$W/time" "$@" >"$W/out" 2>"$W/err"; rc=$?; stamp t1
        else
            stamp t0; "$@" >"$W/out" 2>"$W/err"; rc=$?; stamp t1
        fi
        if [ "$rc" != 0 ]; then fail "'$*' exited with $rc: $(head -c 300 "$W/err")"; WALL='' CPU='' RSS=''; return 1; fi
        d=$((t1 - t0))
        if [ -z "$w" ] || [ "$d" -lt "$w" ]; then w=$d; fi
        if [ -x "$TIME_BIN" ]; then
            line=$(tail -1 "$W/time")
            read -r c m < <(awk -v c="$c" -v m="$m" '{ t = $1 + $2; if (c == "" || t < c) c = t; if (m == "" || $3 > m) m = $3
                                                       print c, m }' <<<"$line")
        fi
    done
    WALL=$(calc "%.3f" "$w / 1e9")
    CPU=${c:+$(calc "%.3f" "$c")}
    RSS=${m:+$(calc "%.1f" "$m / 1024")}
}
# the measure the targets read: CPU time, or wall without GNU time
basis() { if [ -n "$CPU" ]; then echo "$CPU"; else echo "$WALL"; fi; }
[ -x "$TIME_BIN" ] && BASIS="CPU time (user+sys)" || BASIS="wall time (no $TIME_BIN)"

declare -A cat_s base_s table_s report_s table_rss report_rss table_w base_w report_w bytes
declare -A diff_s diff_rss diff_w advise_s advise_rss advise_w diffab_s diffread_s
# the A/B of the diff rows: one configuration against its int4 partner
DIFF_A=model=m1,window=128,precision=int8
DIFF_B=model=m1,window=128,precision=int4
for n in $BENCH_LOAD_N; do
    d=$W/runs-$n
    stamp t0
    python3 tests/bench/load_gen.py "$W/base.json" "$n" "$d" || die "load_gen.py $n failed"
    stamp t1
    bytes[$n]=$(cat "$d"/*/run.json | wc -c | tr -d ' ')
    echo "runs    : $n folders, $(calc "%.1f" "${bytes[$n]} / 1e6") MB of run.json (written in $(calc "%.1f" "($t1 - $t0) / 1e9") s)"
    cat "$d"/*/run.json >/dev/null # warm the page cache
    # shellcheck disable=SC2016  # $1 is the inner shell's
    measure sh -c 'cat "$1"/*/run.json' sh "$d" && cat_s[$n]=$WALL # (cat: wall is the point)
    if measure "$W/load_baseline" "$d"; then
        base_s[$n]=$(basis) base_w[$n]=$WALL
        got=$(cut -d' ' -f1 "$W/out")
        [ "$got" = "$n" ] || fail "load_baseline parsed $got files of $n"
    fi
    if measure "$NPUSCOPE" table -q "$d"; then
        table_s[$n]=$(basis) table_w[$n]=$WALL table_rss[$n]=$RSS
        got=$(head -1 "$W/out" | awk '{ print $1 }')
        [ "$got" = "$n" ] || fail "table counted $got runs of $n"
    fi
    if measure "$NPUSCOPE" diff -q --a "$DIFF_A" --b "$DIFF_B" "$d"; then
        diff_s[$n]=$(basis) diff_w[$n]=$WALL diff_rss[$n]=$RSS
        got=$(awk '$1 == "A" { print $(NF - 1); exit }' "$W/out")
        [ "$got" = "$((n / 120))" ] || fail "diff counted $got runs on side A of $n (wanted $((n / 120)))"
    fi
    ab=$W/ab-$n # the A/B's runs alone: the statistics without the reading
    mkdir -p "$ab" && cp -r "$d"/model-m1_window-128_precision-int[48]-cold-r* "$ab"/ &&
        measure "$NPUSCOPE" diff -q --a "$DIFF_A" --b "$DIFF_B" "$ab" && diffab_s[$n]=$(basis) &&
        [ -n "${diff_s[$n]:-}" ] && diffread_s[$n]=$(calc "%.3f" "${diff_s[$n]} - ${diffab_s[$n]}")
    rm -rf "$ab"
    if measure "$NPUSCOPE" advise -q "$d"; then
        advise_s[$n]=$(basis) advise_w[$n]=$WALL advise_rss[$n]=$RSS
        grep -q '^study of 120 configurations' "$W/out" || fail "advise did not study the 120 configurations of $n runs"
    fi
    if measure "$NPUSCOPE" report -q -o "$W/page.html" "$d"; then
        report_s[$n]=$(basis) report_w[$n]=$WALL report_rss[$n]=$RSS
    fi
    ratio() { [ -n "${1:-}" ] && [ -n "${2:-}" ] && calc "%.2f" "$1 / $2" || echo '?'; }
    printf '  %-30s %9s %9s %9s %s\n' "" "$( [ -x "$TIME_BIN" ] && echo "CPU s" || echo "-")" "wall s" "RSS MiB" "ratio to the jansson load"
    printf '  %-30s %9s %9s\n' "cat of every run.json" "" "${cat_s[$n]:-?}"
    printf '  %-30s %9s %9s\n' "jansson load (load_baseline)" "${base_s[$n]:-?}" "${base_w[$n]:-?}"
    printf '  %-30s %9s %9s %9s %s\n' "npuscope table -q" "${table_s[$n]:-?}" "${table_w[$n]:-?}" \
        "${table_rss[$n]:-?}" "$(ratio "${table_s[$n]:-}" "${base_s[$n]:-}")"
    printf '  %-30s %9s %9s %9s %s\n' "npuscope diff -q --a --b" "${diff_s[$n]:-?}" "${diff_w[$n]:-?}" \
        "${diff_rss[$n]:-?}" "$(ratio "${diff_s[$n]:-}" "${base_s[$n]:-}")"
    printf '  %-30s %9s\n' "  the same A/B alone" "${diffab_s[$n]:-?}"
    printf '  %-30s %9s\n' "  diff's reading (difference)" "${diffread_s[$n]:-?}"
    printf '  %-30s %9s %9s %9s %s\n' "npuscope advise -q" "${advise_s[$n]:-?}" "${advise_w[$n]:-?}" \
        "${advise_rss[$n]:-?}" "$(ratio "${advise_s[$n]:-}" "${base_s[$n]:-}")"
    printf '  %-30s %9s %9s %9s %s\n' "npuscope report -q -o FILE" "${report_s[$n]:-?}" "${report_w[$n]:-?}" \
        "${report_rss[$n]:-?}" "$(ratio "${report_s[$n]:-}" "${base_s[$n]:-}")"
    rm -rf "$d" # the next size needs the room
done

# --- summary --------------------------------------------------------------------
read -r small big < <(echo "$BENCH_LOAD_N" | awk '{ print $(NF - 1), $NF }')
echo
echo "== summary: run folders"
row() { printf '| %-44s | %-12s | %-20s | %-6s | %-10s | %-7s |\n' "$@"; }
row measure value baseline ratio target met
row "$(printf '%0.s-' {1..44})" "------------" "--------------------" "------" "----------" "-------"
# targets CMD [TIME]: the three rows of a command that must stream (its
# CPU seconds and RSS in the arrays CMD_s and CMD_rss; TIME: the array the
# time rows read instead, named in them)
targets() {
    local c=$1 r rb rr
    local -n cs=${2:-${c}_s} cr=${c}_rss
    [ -n "${2:-}" ] && c="$c reading"
    if [ -n "${cs[$big]:-}" ] && [ -n "${base_s[$big]:-}" ]; then
        r=$(calc "%.2f" "${cs[$big]} / ${base_s[$big]}")
        row "$c, $big runs" "${cs[$big]} s" "jansson ${base_s[$big]} s" "$r" "<= $RATIO_TARGET" "$(met "$r <= $RATIO_TARGET")"
    fi
    if [ -n "${cr[$big]:-}" ]; then
        row "${1} peak RSS, $big runs" "${cr[$big]} MiB" "-" "-" "< $RSS_TARGET_MB MiB" "$(met "${cr[$big]} < $RSS_TARGET_MB")"
    else
        row "$c peak RSS" "n/a" "-" "-" "< $RSS_TARGET_MB MiB" "-"
    fi
    if [ "$small" != "$big" ] && [ -n "${cs[$small]:-}" ] && [ -n "${cs[$big]:-}" ]; then
        # time per run at the big size over time per run at the small one
        # (and the same for the jansson load: it is linear by construction, so
        # its growth is the machine's -- caches, a busy neighbour -- and the
        # target reads the command's growth over it)
        r=$(calc "%.2f" "(${cs[$big]} / $big) / (${cs[$small]} / $small)")
        rb=$(calc "%.2f" "(${base_s[$big]} / $big) / (${base_s[$small]} / $small)")
        rr=$(calc "%.2f" "$r / $rb")
        row "$c per run, $big vs $small runs" "$(calc "%.0f" "${cs[$big]} / $big * 1e6") us/run" "$(calc "%.0f" "${cs[$small]} / $small * 1e6") us/run" "$r" "-" "-"
        [ "$c" = table ] &&
            row "jansson per run, $big vs $small runs" "$(calc "%.0f" "${base_s[$big]} / $big * 1e6") us/run" "$(calc "%.0f" "${base_s[$small]} / $small * 1e6") us/run" "$rb" "-" "-"
        row "$c linear: its growth / jansson's" "$rr" "-" "$rr" "<= $LINEAR_TARGET" "$(met "$rr <= $LINEAR_TARGET")"
    fi
}
targets table
for n in $small $big; do
    [ -n "${diff_s[$n]:-}" ] && row "diff, $n runs (A/B alone: ${diffab_s[$n]:-?} s)" "${diff_s[$n]} s" "jansson ${base_s[$n]} s" "$(calc "%.2f" "${diff_s[$n]} / ${base_s[$n]}")" "-" "-"
done
targets diff diffread_s
targets advise
for n in $small $big; do
    [ -n "${report_s[$n]:-}" ] &&
        row "report, $n runs" "${report_s[$n]} s" "jansson ${base_s[$n]} s" "$(calc "%.2f" "${report_s[$n]} / ${base_s[$n]}")" "-" "-"
    # the big size's peak RSS has the streaming commands' target (report
    # keeps summaries, and the trees of the runs its page embeds)
    if [ -n "${report_rss[$n]:-}" ] && [ "$n" = "$big" ]; then
        row "report peak RSS, $n runs" "${report_rss[$n]} MiB" "-" "-" "< $RSS_TARGET_MB MiB" "$(met "${report_rss[$n]} < $RSS_TARGET_MB")"
    elif [ -n "${report_rss[$n]:-}" ]; then
        row "report peak RSS, $n runs" "${report_rss[$n]} MiB" "-" "-" "-" "-"
    fi
done
[ -n "${cat_s[$big]:-}" ] && [ -n "${table_w[$big]:-}" ] &&
    row "table vs cat (wall), $big runs" "${table_w[$big]} s" "cat ${cat_s[$big]} s" "$(calc "%.1f" "${table_w[$big]} / ${cat_s[$big]}")" "-" "-"
echo "(seconds are $BASIS, best of $BENCH_RUNS, page cache warm; timings are informative, never asserted)"
exit "$FAILED"
