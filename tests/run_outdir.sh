# shellcheck shell=bash
# run_outdir.sh -- record/sweep never lose or orphan work: one recording per
# output folder (a lock), no compile outlives npuscope (kill -9 included),
# temporary folders of a killed npuscope are cleaned on the next run,
# --collect stays inside the working directory and off the run folder's own
# names, and progress reaches a pipe as it happens.  Sourced by tests/run.sh
# (uses its check/ok/bad, $NPUSCOPE, $TMP).

OD=$TMP/outdir
mkdir -p "$OD"
NSABS=$(cd "$(dirname "$NPUSCOPE")" && pwd)/$(basename "$NPUSCOPE")

# Two sweeps into one folder: the second is refused while the first holds
# it (exit 2, a message naming the holder), and every run is recorded once.
# (Its runs end once the test makes $OD/race.go, after the second sweep
# was refused, two minutes at most: with runs of fixed sleeps, until
# 2026-12-07, a second npuscope started slowly enough on a busy machine
# would have found the first sweep ended and the folder free.)
od_lock() {
    local out=$OD/race
    local cmd=(sh -c 'i=0; while [ ! -e "$0" ] && [ $i -lt 2400 ]; do sleep 0.05; i=$((i + 1)); done' "$OD/race.go")
    rm -f "$OD/race.go"
    "$NPUSCOPE" sweep -q -o "$out" -n 2 -L i=1,2,3 -- "${cmd[@]}" &
    local p1=$!
    # the first has taken the folder (its lock is there) and runs
    wait_for 60 test -e "$out/.npuscope.lock" ||
        { : >"$OD/race.go"; wait $p1; echo "the first sweep took no lock"; return 1; }
    "$NPUSCOPE" sweep -q -o "$out" -n 2 -L i=1,2,3 -- "${cmd[@]}" 2>"$OD/race.err"
    local rc2=$?
    : >"$OD/race.go"
    wait $p1 || { echo "the first sweep failed"; return 1; }
    [ "$rc2" -eq 2 ] || { echo "second sweep: exit $rc2"; cat "$OD/race.err"; return 1; }
    grep -q "in use by another npuscope (pid $p1 since " "$OD/race.err" || { cat "$OD/race.err"; return 1; }
    [ "$(find "$out" -mindepth 1 -maxdepth 1 -name 'i-*' | wc -l)" -eq 6 ] || { ls -a "$out"; return 1; }
    # the lock is gone with its holder: the same sweep now resumes (all done)
    "$NPUSCOPE" sweep -o "$out" -n 2 -L i=1,2,3 -- "${cmd[@]}" 2>"$OD/race2.err" || return 1
    grep -q "0 runs recorded .* 6 already there" "$OD/race2.err" || { cat "$OD/race2.err"; return 1; }
}
check "record/sweep: a second recording into a held folder is refused (exit 2), the first is whole" od_lock

# kill -9 of npuscope mid-run: the compile and everything it started die
# too (watchdog + PDEATHSIG); the next run removes the .tmp-* it left.
od_kill9() {
    local out=$OD/k9 cmd=$OD/k9-compile
    # the compile says which process group it runs in, then starts another
    # process and becomes a third
    printf '#!/bin/sh\nps -o pgid= -p $$ | tr -d " " >"$0.pg"\nsleep 30 &\nexec sleep 31\n' >"$cmd"
    chmod +x "$cmd"
    "$NPUSCOPE" record -q -o "$out" -- "$cmd" &
    local p=$! i pg=
    wait_for 60 test -s "$cmd.pg"
    pg=$(cat "$cmd.pg" 2>/dev/null)
    [ -n "$pg" ] && [ "$pg" != "$(ps -o pgid= -p $$ | tr -d ' ')" ] || { echo "no group of its own: '$pg'"; return 1; }
    od_two() { [ "$(pgrep -g "$pg" | wc -l)" -ge 2 ]; }
    wait_for 60 od_two || { echo "the compile did not start"; return 1; }
    kill -9 "$p"
    wait "$p" 2>/dev/null
    od_none() { ! pgrep -g "$pg" >/dev/null; }
    # (the compile sleeps 30 s: gone within 20 s is killed, not ended)
    if ! wait_for 20 od_none; then
        echo "left running in group $pg:"; ps -o pid,pgid,cmd -g "$pg"; pkill -9 -g "$pg"; return 1
    fi
    [ -n "$(find "$out" -mindepth 1 -maxdepth 1 -name '.tmp-*')" ] || { echo "no .tmp-* to clean"; return 1; }
    "$NPUSCOPE" record -o "$out" -- true 2>"$OD/k9.err" || return 1
    grep -q "removed 1 unfinished run folder" "$OD/k9.err" || { cat "$OD/k9.err"; return 1; }
    [ -z "$(find "$out" -mindepth 1 -maxdepth 1 -name '.tmp-*')" ] || { echo ".tmp-* still there"; return 1; }
}
check "record: kill -9 leaves no process of the compile's group; the next run cleans its .tmp-*" od_kill9

# what the command leaves running in its group ends with npuscope
od_strays() {
    local mark=npuscope-stray-$$-$RANDOM
    printf '#!/bin/sh\nsleep 300\n' >"$OD/$mark"
    chmod +x "$OD/$mark"
    "$NPUSCOPE" record -q -o "$OD/strays" -- sh -c "\"$OD/$mark\" >/dev/null 2>&1 & true" || return 1
    # killed with npuscope's end: gone well before its 300 s are up
    od_gone() { ! pgrep -f "$mark" >/dev/null; }
    wait_for 20 od_gone || { pkill -f "$mark"; echo "a stray outlived npuscope"; return 1; }
}
check "record: a background process the command started does not outlive npuscope" od_strays

# --collect: refused when the options are read (exit 2, before any run)
od_collect_refused() {
    local c
    for c in '' . sub/run.json stdout.log stderr.log ../../secret.txt /etc/passwd dir/ .hidden; do
        "$NPUSCOPE" record -q -o "$OD/col-refused" --collect "$c" -- true 2>"$OD/col.err"
        [ $? -eq 2 ] || { echo "--collect '$c' was accepted"; return 1; }
        grep -q "^npuscope record: --collect: " "$OD/col.err" || { cat "$OD/col.err"; return 1; }
    done
    [ ! -e "$OD/col-refused" ] || { echo "a run was recorded"; return 1; }
}
check "record --collect: '', '.', reserved names, '..', outside paths, folders, hidden names are refused" od_collect_refused

# --collect: a link that leads out is not followed; a missing file is said
od_collect_links() {
    local w=$OD/col-cwd
    mkdir -p "$w"
    echo secret >"$OD/outside.txt"
    ( cd "$w" && "$NSABS" record -o ../col-links --collect leak.txt --collect misspelled.json -- \
        sh -c 'ln -sf ../outside.txt leak.txt' ) 2>"$OD/links.err" || { cat "$OD/links.err"; return 1; }
    local d; d=$(ls -d "$OD"/col-links/run-*)
    [ ! -e "$d/leak.txt" ] || { echo "a file outside the working directory was collected"; return 1; }
    grep -q "collect leak.txt: a link that leads outside the working directory: not followed" "$OD/links.err" &&
    grep -q "collect misspelled.json: no such file after the run; not collected" "$OD/links.err" ||
        { cat "$OD/links.err"; return 1; }
}
check "record --collect: a link out is not followed, a file that is not there is named" od_collect_links

# progress through a pipe: a line per finished run as it finishes, not all
# at the end (the first line is read while the sweep still runs: its
# second and third runs wait for the file the reader makes once it has
# read it -- a minute at most -- where runs of fixed sleeps, until
# 2026-12-07, left a slow reader 0.8 s)
od_pipe() {
    local fifo=$OD/progress
    mkfifo "$fifo"
    rm -f "$OD/pipe.go"
    "$NPUSCOPE" sweep -o "$OD/pipe" -L i=1,2,3 -- \
        sh -c '[ "$1" = 1 ] && exit; i=0; while [ ! -e "$0" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done' \
        "$OD/pipe.go" '{i}' 2>"$fifo" &
    local p=$! line n=0 early=0
    while IFS= read -r line; do
        case $line in *"] "[0-9]"/3 "*)
            n=$((n + 1))
            [ $n -eq 1 ] && kill -0 $p 2>/dev/null && early=1
            : >"$OD/pipe.go" ;;
        esac
    done <"$fifo"
    wait $p || return 1
    [ $n -eq 3 ] || { echo "$n progress lines"; return 1; }
    [ $early -eq 1 ] || { echo "the first line came only after the sweep ended"; return 1; }
}
check "sweep: progress reaches a pipe a line per run, as the runs finish" od_pipe
