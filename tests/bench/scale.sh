#!/usr/bin/env bash
# scale.sh -- many configurations, one huge run.json, big A/B samples:
# what must stay linear (issue: "Linear everywhere").
#
# tests/bench.sh calls it (one line); `bash tests/bench/scale.sh` runs it
# alone.  Nothing is asserted on time (a slow machine prints "not met" and
# exits 0); exit 1 only when npuscope fails, 2 when the bench cannot run.
#
#   1. configurations: tests/helpers/gen-runs.py writes N run folders, each
#      its own configuration (tag cfg=0..N-1, one report of 5 rows).
#      `advise -q`, `report -q -o FILE` and `tree --merge --format json`
#      over BENCH_SCALE_CFGS (default "2000 20000"): CPU time (user + sys,
#      GNU time) and peak RSS.  Targets: at the big size each within 10 s of
#      CPU, and linear: the time per configuration at the big size over the
#      time per configuration at the small one, within 2 (20,000
#      configurations were 55-78 s, quadratic).
#   2. one run.json of BENCH_SCALE_REPORTS (default 100000) reports of 3
#      rows (about 42 MB): `table -q`; target within 10 s of CPU and 1.5 GB
#      of peak RSS (it was 38 s and 4.9 GB, then 2.5 s and 937 MiB with the
#      run.json read whole by jansson; its reports are now parsed one at a
#      time, 466 MiB: the text and the reports' arenas).
#   3. diff of 300 runs a side, B 1.5x slower, BENCH_SCALE_ROWS (default
#      500) rows: target within 5 s of CPU (200 a side on 300 rows took
#      232 s), verdict "slower", gate exit 1.
#
# Environment: NPUSCOPE (default ./npuscope), BENCH_SCALE_CFGS,
# BENCH_SCALE_REPORTS, BENCH_SCALE_ROWS, BENCH_DIR (default a new mktemp
# -d, removed after).  A quick look that it works:
#   BENCH_SCALE_CFGS="20 200" BENCH_SCALE_REPORTS=100 BENCH_SCALE_ROWS=10 bash tests/bench/scale.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
export LC_ALL=C
NPUSCOPE=${NPUSCOPE:-./npuscope}
BENCH_SCALE_CFGS=${BENCH_SCALE_CFGS:-2000 20000}
BENCH_SCALE_REPORTS=${BENCH_SCALE_REPORTS:-100000}
BENCH_SCALE_ROWS=${BENCH_SCALE_ROWS:-500}
TIME_BIN=/usr/bin/time
GEN="python3 tests/helpers/gen-runs.py"

die() { echo "scale bench: $*" >&2; exit 2; }
FAILED=0
fail() { echo "scale bench: FAIL: $*" >&2; FAILED=1; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
met() { if awk "BEGIN { exit !($1) }"; then echo met; else echo "not met"; fi; }
[ -x "$TIME_BIN" ] || die "needs GNU time ($TIME_BIN)"
command -v python3 >/dev/null || die "needs python3"
[ -x "$NPUSCOPE" ] || die "no $NPUSCOPE"
if [ -n "${BENCH_DIR:-}" ]; then W=$BENCH_DIR/scale; mkdir -p "$W" || die "cannot make $W"
else W=$(mktemp -d) || die "mktemp"; trap 'rm -rf "$W"' EXIT; fi

# measure NAME CMD...: CPU seconds (user + sys) into CPU, peak RSS MiB into RSS
measure() {
    local name=$1
    shift
    if ! "$TIME_BIN" -f '%U %S %M' -o "$W/time" "$@" >"$W/out" 2>"$W/err"; then
        fail "$name: $* exited non-zero"; sed 's/^/    /' "$W/err" | head -5; CPU= RSS=; return 1
    fi
    read -r u s k < <(tail -n 1 "$W/time")
    CPU=$(calc "%.2f" "$u + $s")
    RSS=$(calc "%.0f" "$k / 1024")
}

row() { printf '| %-44s | %-10s | %-9s | %-22s | %-7s |\n' "$@"; }
echo "== scale: configurations, a huge run.json, big A/B samples"
row measure "CPU s" "RSS MiB" target met
row "$(printf '%0.s-' {1..44})" "----------" "---------" "----------------------" "-------"

# --- 1. configurations ------------------------------------------------------
set -- $BENCH_SCALE_CFGS
small=$1 big=${2:-$1}
for cmd in advise report tree; do
    declare -A per=()
    for n in "$small" "$big"; do
        d=$W/cfg-$n
        [ -d "$d" ] || $GEN "$d" --runs "$n" --configs "$n" --rows 5 || die "gen-runs failed"
        case $cmd in
        advise) measure "advise $n" "$NPUSCOPE" advise -q "$d" ;;
        report) measure "report $n" "$NPUSCOPE" report -q -o "$W/page.html" "$d" ;;
        tree) measure "tree --merge $n" "$NPUSCOPE" tree -q --merge --format json "$d" ;;
        esac
        [ -n "$CPU" ] || continue
        per[$n]=$(calc "%.9f" "$CPU / $n")
        if [ "$n" = "$big" ]; then
            row "$cmd, $n configurations" "$CPU" "$RSS" "<= 10 s" "$(met "$CPU <= 10")"
        fi
    done
    if [ -n "${per[$small]:-}" ] && [ -n "${per[$big]:-}" ] && [ "$small" != "$big" ]; then
        lin=$(awk -v a="${per[$small]}" -v b="${per[$big]}" 'BEGIN { if (a > 0) printf "%.2f", b / a }')
        if [ -n "$lin" ]; then
            row "$cmd, time per configuration $big vs $small" "x$lin" "-" "<= 2 (linear)" "$(met "$lin <= 2")"
        else
            row "$cmd, time per configuration $big vs $small" "n/a" "-" "<= 2 (linear)" "-"
        fi
    fi
    unset per
done

# --- 2. one run.json of many reports -----------------------------------------
d=$W/reports
[ -d "$d" ] || $GEN "$d" --runs 1 --reports "$BENCH_SCALE_REPORTS" --rows 3 || die "gen-runs failed"
bytes=$(wc -c <"$d"/run-000000/run.json)
if measure "table, one run.json" "$NPUSCOPE" table -q "$d"; then
    row "table, one run.json of $BENCH_SCALE_REPORTS reports ($(calc "%.0f" "$bytes / 1e6") MB)" "$CPU" "$RSS" "<= 10 s, <= 1536 MiB" \
        "$(met "$CPU <= 10 && $RSS <= 1536")"
fi

# --- 3. diff at 300 runs a side ------------------------------------------------
$GEN "$W/ab-a" --runs 300 --rows "$BENCH_SCALE_ROWS" --prefix a --seed 1 &&
    $GEN "$W/ab-b" --runs 300 --rows "$BENCH_SCALE_ROWS" --prefix b --seed 2 --factor 1.5 || die "gen-runs failed"
"$TIME_BIN" -f '%U %S %M' -o "$W/time" "$NPUSCOPE" diff -q --format json --fail-if-slower 10 \
    "$W/ab-a" "$W/ab-b" >"$W/out" 2>"$W/err"
rc=$?
read -r u s k < <(tail -n 1 "$W/time") # GNU time says a non-zero exit on a line before
CPU=$(calc "%.2f" "$u + $s") RSS=$(calc "%.0f" "$k / 1024")
[ "$rc" -eq 1 ] || fail "diff 300 vs 300, B 1.5x: gate exit $rc, want 1"
grep -q '"name":"total".*"verdict":"slower"' "$W/out" || fail "diff 300 vs 300, B 1.5x: total not slower"
row "diff 300 vs 300 runs x $BENCH_SCALE_ROWS rows, B 1.5x" "$CPU" "$RSS" "<= 5 s, slower, exit 1" "$(met "$CPU <= 5 && $rc == 1")"
echo "(CPU = user + sys seconds; RSS in MiB; timings are informative, never asserted)"
exit "$FAILED"
