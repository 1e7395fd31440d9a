# shellcheck shell=bash
# run_live.sh -- a compile you can watch: record's status line under a
# pseudo-terminal (script(1)) against the profile of the run before, the
# "well past the last run" warning, run folders unchanged by the live line,
# `npuscope watch` on a log another process is still writing, --follow,
# --format json, and real mlir-opt-22 compiles in a 60-column tmux.
# Sourced by tests/run.sh (uses its check/ok/bad, $NPUSCOPE, $TMP).

LV=$TMP/live
mkdir -p "$LV"
LVNS=$(cd "$(dirname "$NPUSCOPE")" && pwd)/$(basename "$NPUSCOPE")
FAKE=$(pwd)/tests/helpers/fake-vpux.sh

# what a terminal showed: every state of the status line, one a line
lv_screens() { tr '\r' '\n' <"$1" | sed 's/\x1b\[K//g; s/\x1b\[[0-9;]*m//g' | grep -a '^npuscope: '; }

# run CMD... under a pseudo-terminal of COLUMNS columns; the terminal's
# bytes go to $LV/$1.tty
lv_pty() {
    local name=$1; shift
    script -qfec "COLUMNS=${LV_COLS:-120} $*" /dev/null >"$LV/$name.tty" 2>&1
}

# (The run before the ordinary one is twice as slow: the profile holds the
# times the compile printed, and an ordinary run also spends time starting
# the fake compile's processes.  The fake keeps a schedule, so that time
# does not add up, but on a loaded machine one late start put an ordinary
# run 2x behind a profile of equal times at one pass.  Against a run twice
# as slow, the machine must make the ordinary run arrive at a pass three
# times late for a warning; the slow run, three times the ordinary one, is
# warned however loaded the machine.  What is and is not "slower" is
# tested on numbers in tests/unit_progress.c.)
lv_record() {
    local out=$LV/rec
    lv_pty first "SLOW=2 $LVNS record -o $out -- $FAKE" || return 1
    lv_screens "$LV/first.tty" | grep -q ' · feasible-allocation' || { echo "first run: no pass shown"; lv_screens "$LV/first.tty"; return 1; }
    lv_pty second "$LVNS record -o $out -- $FAKE" || return 1
    lv_screens "$LV/second.tty" >"$LV/second.txt"
    # the sub-model compile, the pass, and progress against the first run
    grep -Eq ' · 2/2 · feasible-allocation · [0-9]+% of the last run, ~[0-9.]+s left' "$LV/second.txt" ||
        { echo "second run:"; cat "$LV/second.txt"; return 1; }
    ! grep -q 'x the last run' "$LV/second.txt" || { echo "a warning on an ordinary run"; cat "$LV/second.txt"; return 1; }
    # three times slower: the warning
    lv_pty slow "SLOW=3 $LVNS record -o $out -- $FAKE" || return 1
    lv_screens "$LV/slow.tty" | grep -Eq '[0-9.]+x the last run at this pass' ||
        { echo "slow run:"; lv_screens "$LV/slow.tty"; return 1; }
}
check "record on a terminal: the pass, 2/2 sub-model compiles, progress against the last run; a slow run is warned" lv_record

# the live line never changes what is stored
lv_stored() {
    FIXED_TS=1 STEP=0.1 "$NPUSCOPE" record -o "$LV/plain" -- "$FAKE" 2>/dev/null || return 1
    lv_pty stored "FIXED_TS=1 STEP=0.1 $LVNS record -o $LV/tty -- $FAKE" || return 1
    lv_screens "$LV/stored.tty" | grep -Eq ' · [a-z]+(-[a-z]+)+' || { echo "no live line"; lv_screens "$LV/stored.tty"; return 1; }
    local a b f
    a=$(ls -d "$LV"/plain/run-*) b=$(ls -d "$LV"/tty/run-*)
    for f in stdout.log stderr.log; do cmp "$a/$f" "$b/$f" || return 1; done
    local drop='del(.started_at, .started_clock, .wall_s, .user_s, .sys_s, .peak_rss_mb, .env.NPUSCOPE_RUN_DIR)'
    diff <(jq -S "$drop" "$a/run.json") <(jq -S "$drop" "$b/run.json") || return 1
    [ "$(cd "$a" && find . | sort)" = "$(cd "$b" && find . | sort)" ] || { echo "different files"; return 1; }
}
check "record: run folders are the same with and without the live line" lv_stored

# watch: a log that a background writer appends to
lv_watch() {
    : >"$LV/w.log"
    ( STEP=0.3 "$FAKE" >>"$LV/w.log" ) &
    local w=$!
    lv_pty watch "$LVNS watch $LV/w.log >$LV/w.tree" || return 1
    # it waited for the writer: the writer is gone, and the log is whole
    kill -0 $w 2>/dev/null && { echo "watch ended while the writer still wrote"; kill $w; return 1; }
    wait $w
    lv_screens "$LV/watch.tty" | grep -q ' · feasible-allocation' || { lv_screens "$LV/watch.tty"; return 1; }
    lv_screens "$LV/watch.tty" | grep -q 'report 1: 1.5000 s' || { echo "no report total"; return 1; }
    "$NPUSCOPE" tree "$LV/w.log" >"$LV/w.want" || return 1
    cmp "$LV/w.want" "$LV/w.tree"
}
check "watch: follows a log being written, shows the pass, ends with its writer, its tree = tree's" lv_watch

# lv_at_end PID FILE: process PID holds FILE open at its end, asleep
lv_at_end() {
    local fd size
    size=$(stat -c %s "$2") || return 1
    [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = S ] || return 1
    for fd in /proc/"$1"/fd/*; do
        [ "$(readlink "$fd")" = "$(readlink -f "$2")" ] || continue
        [ "$(awk '/^pos:/ { print $2 }' "/proc/$1/fdinfo/${fd##*/}")" = "$size" ] && return 0
    done
    return 1
}
lv_follow() {
    "$FAKE" >"$LV/f.log" 2>/dev/null </dev/null &
    wait $!
    "$NPUSCOPE" watch --follow "$LV/f.log" >"$LV/f.tree" 2>/dev/null &
    local p=$!
    # it has read the whole log (its descriptor's offset is the size) and
    # sleeps, waiting for more: a watch that ends at the end of the file
    # would have gone instead
    wait_for 60 lv_at_end $p "$LV/f.log" || { echo "--follow did not wait at the end of the log"; kill $p 2>/dev/null; return 1; }
    kill -0 $p 2>/dev/null || { echo "--follow did not wait"; return 1; }
    kill -INT $p
    local rc=0
    wait $p || rc=$?
    [ "$rc" = 130 ] || { echo "exit $rc after SIGINT, not 130"; return 1; }
    "$NPUSCOPE" tree "$LV/f.log" | cmp - "$LV/f.tree"
}
check "watch --follow: keeps waiting with no writer until interrupted, then the tree (exit 130)" lv_follow

lv_json() {
    STEP=0.01 "$FAKE" >"$LV/j.log"
    "$NPUSCOPE" watch --format json "$LV/j.log" >"$LV/j.events" || return 1
    jq -s -e '([.[] | select(.event == "pass") | .pass] | index("feasible-allocation") != null) and
              ([.[] | select(.event == "report")] | length == 2) and
              ([.[] | select(.event == "report") | .total_s] == [0.05, 0.05]) and
              (.[-1] == {"event": "end", "reports": 2})' "$LV/j.events" >/dev/null || { cat "$LV/j.events"; return 1; }
}
check "watch --format json: pass, report and end events" lv_json

# real mlir-opt-22 compiles in a 60-column terminal (tmux): the status line
# never wraps, and what stays on the screen is the result and the report
lv_tmux() {
    command -v tmux >/dev/null || { echo "tmux missing"; return 1; }
    awk 'BEGIN { for (i = 0; i < 3000; i++) {
        printf "func.func @f%d(%%a: i32, %%b: i32) -> i32 {\n", i
        printf "  %%0 = arith.addi %%a, %%b : i32\n  %%1 = arith.muli %%0, %%a : i32\n  return %%1 : i32\n}\n" } }' >"$LV/m.mlir"
    local sock=$LV/tmux.sock cmd
    cmd="$LVNS record -o $LV/mrec -- mlir-opt-22 --mlir-timing --pass-pipeline='builtin.module(func.func(canonicalize,cse),convert-to-llvm)' $LV/m.mlir -o /dev/null; $LVNS watch $LV/mrec/*/stderr.log > $LV/m.tree; echo done-$$; sleep 30"
    tmux -S "$sock" new-session -d -x 60 -y 30 "$cmd" || return 1
    lv_done() { tmux -S "$sock" capture-pane -p >"$LV/pane" 2>/dev/null; grep -q "done-$$" "$LV/pane"; }
    wait_for 300 lv_done
    tmux -S "$sock" capture-pane -p -J >"$LV/joined" 2>/dev/null # wrapped lines joined
    tmux -S "$sock" kill-server 2>/dev/null
    grep -q "done-$$" "$LV/pane" || { echo "did not finish"; cat "$LV/pane"; return 1; }
    # the status line was erased; the result line (wrapped, not cut) stays
    grep -Eq '^npuscope: \[#+\] 1/1 run-.*: [0-9.]+ s, ok ' "$LV/joined" || { cat "$LV/joined"; return 1; }
    ! grep -q ' · ' "$LV/joined" || { echo "a status line left on the screen"; cat "$LV/joined"; return 1; }
    # nothing wider than the terminal, no escape bytes left on the screen
    awk 'length($0) > 60 { bad = 1 } END { exit bad }' "$LV/pane" || { echo "a line over 60 columns"; return 1; }
    ! grep -q $'\x1b' "$LV/pane" || return 1
    "$NPUSCOPE" tree "$LV"/mrec/*/stderr.log | cmp - "$LV/m.tree"
}
check "record and watch of real mlir-opt-22 compiles in a 60-column tmux: result line, no wrap, watch's tree = tree's" lv_tmux

# a real mlir-opt-22 compile of about a second: the status line counts the
# elapsed time (a generic MLIR tool says nothing more while it runs): two
# or more status lines, their times never going back, the last above 0.
# No time is expected at any moment: on a loaded machine the first redraw
# after 0.0 s came at 1.1 s (it used to want one within 0.2-0.9 s)
lv_real() {
    awk 'BEGIN { for (i = 0; i < 12000; i++) {
        printf "func.func @f%d(%%a: i32, %%b: i32) -> i32 {\n", i
        printf "  %%0 = arith.addi %%a, %%b : i32\n  %%1 = arith.muli %%0, %%a : i32\n  return %%1 : i32\n}\n" } }' >"$LV/big.mlir"
    lv_pty real "$LVNS record -o $LV/real -- mlir-opt-22 --mlir-timing '--pass-pipeline=builtin.module(inline,func.func(canonicalize,cse),convert-to-llvm)' $LV/big.mlir -o /dev/null" || return 1
    lv_screens "$LV/real.tty" | sed -n 's/^npuscope: 1\/1 run-[0-9a-f]*-none-r01 · \([0-9.]*\)s$/\1/p' |
        awk '$1 < last { back = 1 } { last = $1; n++ } END { exit !(n >= 2 && last > 0 && !back) }' ||
        { lv_screens "$LV/real.tty"; return 1; }
}
check "record of a real mlir-opt-22 compile on a terminal: the elapsed time counts up" lv_real
