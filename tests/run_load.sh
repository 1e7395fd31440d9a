# shellcheck shell=bash
# run_load.sh -- the checks that race a clock or another process, on a busy
# machine: the browser tests (tests/browser, when tests/run_browser.sh found
# chromium and playwright-core: RB_READY) and the live/watch checks
# (tests/run_live.sh), three rounds (LOAD_ROUNDS), every one green, beside
# two busy loops per CPU (stress-ng --cpu 2N).  A test that reads the page
# or the terminal at a fixed time, or after the first frame, instead of
# waiting for what it checks, is meant to fail here.
#
# The rounds run at the same time, each in a shell, a temporary folder and
# an output folder of its own, beside one stress-ng: each round has the
# busy loops beside it and the other rounds besides, so the load is at
# least what one round alone beside stress-ng would see, and the busy
# loops burn CPU for one round's time rather than three's (on two cores
# that is about four minutes of make check).  Their counts join ours in
# round order afterwards (tally), and a failure names its round.
#
# Busy loops slow a browser less than one would think, and a fixed wait of
# a few hundred milliseconds put back into the fragment test passed every
# round beside them.  The scheduler runs a page's short bursts of work as
# soon as they wake; and Playwright starts Chromium in a session of its
# own (seen with ps: its processes' SID is not make check's), so with
# autogroup scheduling (Debian's default) the pages share the CPU with
# make check's session as a whole, not with each of its busy loops.  The
# loops do load what runs in make check's session: the live/watch
# checks, the test runners, the npuscope processes the tests start.  So the last round also slows every page's main
# thread LOAD_SLOWDOWN (4) times with Chromium's own CPU throttling
# (NS_CPU_SLOWDOWN, tests/browser/lib.mjs).  Seen failing there:
# tests/load_probe.sh puts a fixed wait back into the fragment test
# (tests/browser/fixed-wait.probe.mjs), which passes on the machine as it
# is and in the rounds with busy loops alone, and fails in the slowed one.
#
# Full tier only, and not in the inner sanitized run: sourced by
# tests/run.sh (uses tally, ns_replay, wait_for, $NPUSCOPE, $TMP from
# tests/lib.sh).  This is where the outer run runs the browser tests and
# run_live.sh: the same checks as unloaded, and more (the inner run runs
# run_live.sh too).
# Alone: bash -c '. tests/lib.sh; . tests/run_browser.sh; . tests/run_load.sh; finish'

LD_ROUNDS=${LOAD_ROUNDS:-3}
LD_LOOPS=$((2 * $(nproc 2>/dev/null || echo 1)))
LD_NS=$(cd "$(dirname "$NPUSCOPE")" && pwd)/$(basename "$NPUSCOPE")
LD_SLOW=${LOAD_SLOWDOWN:-4}
# LOAD_LIVE=0: the browser tests alone (tests/load_probe.sh)
LD_LIVE=${LOAD_LIVE:-1}

# ld_busy PID: stress-ng PID has its LD_LOOPS busy loops running
ld_busy() { [ "$(pgrep -P "$1" | wc -l)" -ge "$LD_LOOPS" ]; }

# ld_round K SLOWDOWN: one round, its output in $TMP/load-K.{out,err,rc} --
# a shell of its own with its own counts: the live checks, then the
# browser tests, every page slowed SLOWDOWN times
ld_round() {
    mkdir -p "$TMP/load-$1/pages" "$TMP/load-$1/shots"
    NPUSCOPE=$LD_NS NS_OUT=$TMP/load-$1/pages NS_SHOTS=$TMP/load-$1/shots LD_BROWSER=${RB_READY:-} \
        NS_CPU_SLOWDOWN=$2 LD_LIVE=$LD_LIVE \
        bash -c '. tests/lib.sh
                 if [ "$LD_LIVE" != 0 ]; then . tests/run_live.sh; fi
                 if [ -n "$LD_BROWSER" ]; then tap_tally browser 1800 sh tests/browser/run.sh
                 else skip "browser tests under load (no chromium or playwright-core)"; fi
                 finish' >"$TMP/load-$1.out" 2>"$TMP/load-$1.err" </dev/null
    echo $? >"$TMP/load-$1.rc"
}

if ! command -v stress-ng >/dev/null 2>&1; then
    bad "load: stress-ng is not installed (tests/deps.sh test installs it)"
else
    stress-ng --cpu "$LD_LOOPS" --timeout 1800 --quiet >/dev/null 2>&1 &
    ld_pid=$!
    ld_started=
    if wait_for 60 ld_busy "$ld_pid"; then
        ld_started=1
        ld_rcs=()
        for ld_k in $(seq 1 "$LD_ROUNDS"); do
            if [ "$ld_k" -eq "$LD_ROUNDS" ]; then ld_round "$ld_k" "$LD_SLOW" &
            else ld_round "$ld_k" 1 & fi
            ld_rcs+=("$TMP/load-$ld_k.rc")
        done
        # (each round's rc file, not `wait PID`: all_exist in tests/lib.sh)
        wait_for 3600 all_exist "${ld_rcs[@]}"
    fi
    # The busy loops end before anything is counted: a group's CPU is what
    # was spent before its results (tests/lib.sh), and stress-ng's, which
    # comes with it when it is waited for, was the next group's until
    # 2026-12-07 (run_analysis.sh's 73 s of CPU showed as 275).
    kill "$ld_pid" 2>/dev/null
    wait "$ld_pid" 2>/dev/null
    if [ -z "$ld_started" ]; then
        bad "load: stress-ng did not start $LD_LOOPS busy loops"
    else
        for ld_k in $(seq 1 "$LD_ROUNDS"); do
            tally "load round $ld_k of $LD_ROUNDS" ns_replay "$TMP/load-$ld_k"
            [ "$prog_fail" -eq 0 ] && [ -z "$prog_why" ] ||
                echo "     (the failures above: load round $ld_k of $LD_ROUNDS, beside $LD_LOOPS busy loops and the other rounds$(
                    [ "$ld_k" -eq "$LD_ROUNDS" ] && echo ", every page slowed ${LD_SLOW}x"))"
        done
    fi
fi
