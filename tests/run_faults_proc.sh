# shellcheck shell=bash
# run_faults_proc.sh -- the fault tier, process and stream side (issue 30):
# streams that stay streams (`yes | watch -` for a minute: bounded disk and
# memory, then SIGINT; a FIFO that ends with its writer; rotation and
# copy-and-truncate followed; a log waited for before it exists), the
# signal check (SIGINT and SIGTERM to every long-running mode, each ends
# within 2 s with its exit status; SIGHUP says what happened), job control
# (npuscope stopped and continued around a compile), a detached grandchild,
# a command writing npuscope's file names into its run folder, progress
# text with stderr closed, and `report -o` onto its own input.
# Sourced by tests/run.sh in the full tier (uses its check/ok/bad,
# $NPUSCOPE, $TMP); alone:
#   bash -c '. tests/lib.sh; . tests/run_faults_proc.sh; finish'
# FP_YES_S (default 60) is how long `yes | watch -` runs.
#
# Every wait here is for a condition (a process gone, a file read to its
# end, a message said), with a generous deadline; the only times asserted
# are the 2 s a stopped mode has to end in, which the issue asks for.

FP=$TMP/faults-proc
mkdir -p "$FP"
FPA=tests/fixtures/mlir22-tree-st.txt   # one report
FPB=tests/fixtures/constructed-npu-2024.log # another
STOP_S=$((2 * HANG_SCALE))             # a stopped mode ends within this
# A background job of a script starts with SIGINT ignored (bash, without
# job control); a command that keeps the default action (tree, report)
# gets it back as from a terminal
FP_DFL="env --default-signal=INT,TERM,HUP"

# fp_until DEADLINE_S CMD...: true once CMD succeeds, polled ten times a
# second; false (saying so) when DEADLINE_S seconds pass first
fp_until() {
    local limit=$1 t=0; shift
    limit=$((limit * HANG_SCALE * 10))
    until "$@"; do
        t=$((t + 1))
        [ "$t" -ge "$limit" ] && { echo "waited in vain for: $*"; return 1; }
        sleep 0.1
    done
}

# fp_has_read PID FILE: PID holds FILE open and has read it to its end
fp_has_read() {
    local pid=$1 file fd size pos
    file=$(readlink -f "$2")
    size=$(stat -c %s "$file") || return 1
    for fd in /proc/"$pid"/fd/*; do
        [ "$(readlink "$fd" 2>/dev/null)" = "$file" ] || continue
        pos=$(awk '/^pos:/ { print $2 }' /proc/"$pid"/fdinfo/"${fd##*/}" 2>/dev/null)
        [ "${pos:-x}" = "$size" ] && return 0
    done
    return 1
}

# fp_guard PID: kill PID if it still runs after a generous deadline (a
# hang fails the check instead of stopping the suite); sets FP_GUARD
fp_guard() {
    ( exec 7>&-; sleep $((60 * HANG_SCALE)); kill -KILL "$1" 2>/dev/null ) &
    FP_GUARD=$!
}
# fp_wait PID: its exit status, after which the guard is called off
fp_wait() {
    local rc=0
    wait "$1" || rc=$?
    kill "$FP_GUARD" 2>/dev/null
    wait "$FP_GUARD" 2>/dev/null
    return $rc
}

# fp_read_bytes PID: bytes PID has read so far (rchar)
fp_read_bytes() { awk '/^rchar:/ { print $2 }' /proc/"$1"/io 2>/dev/null || echo 0; }
fp_read_over() { [ "$(fp_read_bytes "$1")" -gt "$2" ]; }

# fp_stop PID SIG WANT: send SIG to PID (a background job of this shell),
# wait for it; it must end within STOP_S seconds with status WANT
fp_stop() {
    local pid=$1 sig=$2 want=$3 t0 t1 rc=0
    ( sleep $((30 * HANG_SCALE)); kill -KILL "$pid" 2>/dev/null ) &
    local guard=$!
    t0=$(date +%s%N)
    kill -"$sig" "$pid"
    wait "$pid" || rc=$?
    t1=$(date +%s%N)
    kill "$guard" 2>/dev/null
    wait "$guard" 2>/dev/null
    local ms=$(((t1 - t0) / 1000000))
    [ "$rc" = "$want" ] || { echo "SIG$sig: exit $rc, not $want (after $ms ms)"; return 1; }
    [ "$ms" -le $((STOP_S * 1000)) ] || { echo "SIG$sig: took $ms ms, more than $STOP_S s"; return 1; }
}

# the header lines of a tree name the input: the same reports under any name
fp_unname() { sed -E 's#^(report \#[0-9]+ +[^ ]+ +)[^ ]*:([0-9]+)#\1X:\2#' "$@"; }

# ====== Streams are streams ======

# an endless pipe: a report, then `yes` for FP_YES_S seconds; no file grows,
# memory stays put, SIGINT ends it within 2 s with the report's tree, 130
fp_yes() {
    local d=$FP/yes
    mkdir -p "$d/tmp"
    { cat "$FPA"; yes 'a line that is no report'; } |
        TMPDIR=$d/tmp "$NPUSCOPE" watch - >"$d/out" 2>"$d/err" &
    local p=$!
    fp_until 30 fp_read_over "$p" $((64 << 20)) || return 1
    local rss0 rss1 end=$((SECONDS + ${FP_YES_S:-60}))
    rss0=$(awk '/^VmRSS:/ { print $2 }' /proc/$p/status)
    while [ $SECONDS -lt $end ]; do
        kill -0 $p 2>/dev/null || { echo "watch - ended on its own"; cat "$d/err"; return 1; }
        # no file of any size open for writing: no copy of the input
        local fd big=0
        for fd in /proc/$p/fd/*; do
            [ -f "$fd" ] || continue
            [ "$(stat -L -c %s "$fd" 2>/dev/null || echo 0)" -gt $((1 << 20)) ] && big=1
        done
        [ "$big" = 0 ] || { echo "watch - keeps a file of over 1 MiB:"; ls -l /proc/$p/fd/; kill -9 $p; return 1; }
        [ -z "$(ls -A "$d/tmp")" ] || { echo "files in TMPDIR"; kill -9 $p; return 1; }
        sleep 1
    done
    rss1=$(awk '/^VmRSS:/ { print $2 }' /proc/$p/status)
    local read_mb=$(($(fp_read_bytes $p) >> 20))
    [ $((rss1 - rss0)) -lt 16384 ] || { echo "RSS grew from $rss0 to $rss1 KiB over $read_mb MiB read"; kill -9 $p; return 1; }
    fp_stop $p INT 130 || return 1
    fp_unname "$d/out" >"$d/got"
    "$NPUSCOPE" tree "$FPA" | fp_unname >"$d/want"
    cmp "$d/want" "$d/got" || { diff "$d/want" "$d/got" | head; return 1; }
    grep -q 'interrupted (SIGINT)' "$d/err" || { echo "no word of the interrupt:"; cat "$d/err"; return 1; }
}
check "watch -: an endless pipe for ${FP_YES_S:-60} s keeps no copy and bounded memory; SIGINT ends it within 2 s with its tree, exit 130" fp_yes

# a FIFO ends when its writer closes it (opened once)
fp_fifo() {
    local d=$FP/fifo
    mkdir -p "$d"
    mkfifo "$d/pipe"
    "$NPUSCOPE" watch "$d/pipe" >"$d/out" 2>"$d/err" &
    local p=$!
    fp_guard $p
    cat "$FPA" >"$d/pipe"
    local rc=0
    fp_wait $p || rc=$?
    [ "$rc" = 0 ] || { echo "exit $rc (137: it hung)"; cat "$d/err"; return 1; }
    cmp <("$NPUSCOPE" tree "$FPA" | fp_unname) <(fp_unname "$d/out")
}
check "watch FIFO: ends when the writer closes, with the tree of what it read" fp_fifo

# a log rotated under watch (rename, recreate): both files' reports, in
# text mode; the tree is of what was read, not of the name read again
fp_rotate() {
    local d=$FP/rotate
    mkdir -p "$d"
    : >"$d/log"
    exec 7>>"$d/log"
    "$NPUSCOPE" watch "$d/log" >"$d/out" 2>"$d/err" 7>&- &
    local p=$!
    fp_guard $p
    cat "$FPA" >&7
    fp_until 30 fp_has_read $p "$d/log" || { exec 7>&-; return 1; }
    mv "$d/log" "$d/log.1"
    exec 7>>"$d/log" # the writer reopens its log: the old one is closed
    cat "$FPB" >&7
    exec 7>&-
    local rc=0
    fp_wait $p || rc=$?
    [ "$rc" = 0 ] || { echo "exit $rc"; cat "$d/err"; return 1; }
    cmp <(cat "$FPA" "$FPB" | "$NPUSCOPE" tree - | fp_unname) <(fp_unname "$d/out") ||
        { head -3 "$d/out"; return 1; }
}
check "watch FILE: a rotation (rename and recreate) is followed: the reports of both files" fp_rotate

# copy-and-truncate under watch --format json: what is written after the
# truncation is read from the start
fp_truncate() {
    local d=$FP/trunc
    mkdir -p "$d"
    : >"$d/log"
    exec 7>>"$d/log"
    "$NPUSCOPE" watch --format json "$d/log" >"$d/out" 2>"$d/err" 7>&- &
    local p=$!
    fp_guard $p
    cat "$FPB" >&7
    fp_until 30 fp_has_read $p "$d/log" || { exec 7>&-; return 1; }
    cp "$d/log" "$d/log.1"
    : >"$d/log"
    fp_until 30 fp_has_read $p "$d/log" || { exec 7>&-; return 1; } # back at 0
    cat "$FPA" >&7
    exec 7>&-
    local rc=0
    fp_wait $p || rc=$?
    [ "$rc" = 0 ] || { echo "exit $rc"; cat "$d/err"; return 1; }
    jqt -s '[.[] | select(.event == "report")] | length == 2 and (.[0].total_s == 7.4)' "$d/out" ||
        { cat "$d/out"; return 1; }
    jqt -s '.[-1] == {"event": "end", "reports": 2}' "$d/out"
}
check "watch --format json: copy-and-truncate is followed, the report written after it seen" fp_truncate

# a log that does not exist yet is waited for
fp_not_yet() {
    local d=$FP/notyet
    mkdir -p "$d"
    "$NPUSCOPE" watch "$d/compile.log" >"$d/out" 2>"$d/err" &
    local p=$!
    fp_guard $p
    fp_until 30 grep -q 'waiting for the file to be created' "$d/err" || { cat "$d/err"; return 1; }
    kill -0 $p || { echo "watch ended"; return 1; }
    exec 7>"$d/compile.log"
    cat "$FPA" >&7
    exec 7>&-
    local rc=0
    fp_wait $p || rc=$?
    [ "$rc" = 0 ] || { echo "exit $rc"; cat "$d/err"; return 1; }
    cmp <("$NPUSCOPE" tree "$FPA" | fp_unname) <(fp_unname "$d/out")
}
check "watch FILE before the compile created it: waits, then follows it" fp_not_yet

# ====== The signal check ======
# SIGINT and SIGTERM to every long-running mode mid-run: each ends within
# 2 s with its status (130, 143), finished work kept, no temporary file

# fp_marker DIR: the run the command marked as started (NAME "started" in
# a run folder being written)
fp_started() { compgen -G "$1/.tmp-*/started" >/dev/null; }

fp_sig_watch_stdin() {
    local sig=$1 want=$2 d=$FP/sigw-$1
    mkdir -p "$d"
    yes 'no report' | $FP_DFL "$NPUSCOPE" watch - >"$d/out" 2>"$d/err" &
    local p=$!
    fp_until 30 fp_read_over $p $((1 << 20)) || return 1
    fp_stop $p "$sig" "$want"
}
fp_sig_watch_follow() {
    local sig=$1 want=$2 d=$FP/sigf-$1
    mkdir -p "$d"
    cp "$FPA" "$d/log"
    $FP_DFL "$NPUSCOPE" watch --follow "$d/log" >"$d/out" 2>"$d/err" &
    local p=$!
    fp_until 30 fp_has_read $p "$d/log" || return 1
    fp_stop $p "$sig" "$want" || return 1
    cmp <("$NPUSCOPE" tree "$FPA" | fp_unname) <(fp_unname "$d/out") || { echo "not the tree of what was read"; return 1; }
    [ "$sig" != HUP ] || grep -q 'hangup (SIGHUP)' "$d/err" || { echo "SIGHUP not said:"; cat "$d/err"; return 1; }
}
fp_sig_tree_stdin() {
    local sig=$1 want=$2 d=$FP/sigt-$1
    mkdir -p "$d"
    { cat "$FPA"; yes 'no report'; } | $FP_DFL "$NPUSCOPE" tree - >"$d/out" 2>"$d/err" &
    local p=$!
    fp_until 30 fp_read_over $p $((1 << 20)) || return 1
    fp_stop $p "$sig" "$want"
}
# record (or sweep) mid-run: the interrupted run kept as .interrupted-*
fp_sig_record() {
    local sig=$1 want=$2 kind=$3 d=$FP/sigr-$1-$3
    local -a axes=()
    [ "$kind" = sweep ] && axes=(-L x=1,2)
    $FP_DFL "$NPUSCOPE" "$kind" -o "$d" "${axes[@]}" -- sh -c 'touch "$NPUSCOPE_RUN_DIR/started"; exec sleep 60' \
        >"$d.out" 2>"$d.err" &
    local p=$!
    fp_until 30 fp_started "$d" || return 1
    fp_stop $p "$sig" "$want" || { cat "$d.err"; return 1; }
    compgen -G "$d/.interrupted-*/run.json" >/dev/null || { echo "the interrupted run was not kept"; ls -la "$d"; return 1; }
    ! compgen -G "$d/.tmp-*" >/dev/null || { echo "a temporary folder left"; ls -la "$d"; return 1; }
    [ "$sig" != HUP ] || grep -q 'hangup (SIGHUP)' "$d.err" || { echo "SIGHUP not said:"; cat "$d.err"; return 1; }
}
# report on a big folder (6000 runs), mid-run: the page before it is left
# as it was
fp_big_runs() {
    [ -d "$FP/bigruns" ] && return 0
    "$NPUSCOPE" record -q -o "$FP/bigruns" -- sh -c 'cat "$0"' "$FPA" || return 1
    python3 - "$FP/bigruns" <<'PY'
import glob, json, os, sys
root = sys.argv[1]
doc = json.load(open(glob.glob(root + "/run-*/run.json")[0]))
for i in range(6000):
    doc["id"] = "run-big%05d-none-r01" % i
    os.mkdir(os.path.join(root, doc["id"]))
    with open(os.path.join(root, doc["id"], "run.json"), "w") as f:
        json.dump(doc, f)
PY
}
fp_big_log() {
    [ -s "$FP/big1.log" ] && return 0
    local i
    for i in $(seq 400); do cat "$FPA"; done >"$FP/big1.log"
}
fp_sig_report() {
    local sig=$1 want=$2 d=$FP/sigp-$1
    mkdir -p "$d"
    fp_big_runs || return 1
    echo '<!DOCTYPE html><p>the page before</p>' >"$d/page.html"
    $FP_DFL "$NPUSCOPE" report -o "$d/page.html" "$FP/bigruns" >"$d/out" 2>"$d/err" &
    local p=$!
    fp_until 30 fp_read_over $p $((1 << 20)) || return 1
    kill -0 $p 2>/dev/null || { echo "report finished before the signal: make the folder bigger"; return 1; }
    fp_stop $p "$sig" "$want" || return 1
    grep -q 'the page before' "$d/page.html" || { echo "the page before was lost"; return 1; }
    [ -z "$(find "$d" -name '.page.html.*')" ] || { echo "a temporary file left"; ls -la "$d"; return 1; }
}
for fp_sig in INT:130 TERM:143; do
    s=${fp_sig%:*} c=${fp_sig#*:}
    check "signal check: SIG$s to watch - on an endless pipe: exit $c within 2 s" fp_sig_watch_stdin "$s" "$c"
    check "signal check: SIG$s to watch FILE --follow: exit $c within 2 s, the tree of what was read" fp_sig_watch_follow "$s" "$c"
    check "signal check: SIG$s to tree - on an endless pipe: exit $c within 2 s" fp_sig_tree_stdin "$s" "$c"
    check "signal check: SIG$s to record mid-run: exit $c within 2 s, the run kept as .interrupted-*" fp_sig_record "$s" "$c" record
    check "signal check: SIG$s to sweep mid-run: exit $c within 2 s, the run kept as .interrupted-*" fp_sig_record "$s" "$c" sweep
    check "signal check: SIG$s to report on a folder of 6000 runs: exit $c within 2 s, the old page kept, no temporary file" fp_sig_report "$s" "$c"
done
check "SIGHUP to watch --follow: says so, the tree, exit 129" fp_sig_watch_follow HUP 129
check "SIGHUP to record mid-run: says so, exit 129, the run kept" fp_sig_record HUP 129 record
fp_hup_tree() {
    fp_sig_tree_stdin HUP 129 || return 1
    grep -q 'hangup (SIGHUP)' "$FP/sigt-HUP/err" || { echo "SIGHUP not said:"; cat "$FP/sigt-HUP/err"; return 1; }
}
check "SIGHUP to tree - (no handler of its own): says so, exit 129" fp_hup_tree

# SIGPIPE: a reader that goes away ends npuscope without a word
fp_sigpipe() {
    local d=$FP/pipe
    mkdir -p "$d"
    fp_big_log
    "$NPUSCOPE" tree "$FP/big1.log" 2>"$d/err1" | head -n 1 >/dev/null
    "$NPUSCOPE" watch --format json "$FP/big1.log" 2>"$d/err2" | head -n 1 >/dev/null
    [ ! -s "$d/err1" ] && [ ! -s "$d/err2" ] || { cat "$d/err1" "$d/err2"; return 1; }
}
check "SIGPIPE: tree and watch --format json into head end without a word" fp_sigpipe

# Slurm's scancel (and a terminal's Ctrl-C) signals every process of a job
# at once: the compile may die, and be reaped, in the turn before npuscope
# reads its own stop.  Made certain here: the compile killed first, npuscope
# signalled once it has reaped it (a process beside the compile holds the
# output open, so npuscope is still draining).  The run must be kept as
# .interrupted-*, not published as a finished run that a resumed sweep
# would skip (the Slurm check caught this once: scancel mid-compile left
# n-700-r01 as a finished run).
fp_gone() { ! kill -0 "$1" 2>/dev/null; }
fp_stop_race() {
    local d=$FP/race c p rc
    rm -rf "$d" "$d.pid"
    # shellcheck disable=SC2016
    $FP_DFL "$NPUSCOPE" record -q -o "$d" -- sh -c 'sleep 100 & echo $$ >"$0"; exec sleep 60' "$d.pid" \
        >"$FP/race.out" 2>"$FP/race.err" &
    p=$!
    fp_until 30 test -s "$d.pid" || return 1
    c=$(cat "$d.pid")
    kill -TERM "$c"
    fp_until 30 fp_gone "$c" || return 1
    kill -TERM "$p"
    wait "$p"; rc=$?
    [ "$rc" -eq 143 ] || { echo "exit $rc, not 143"; cat "$FP/race.err"; return 1; }
    [ "$(find "$d" -mindepth 1 -maxdepth 1 -name '.interrupted-*' | wc -l)" -eq 1 ] ||
        { echo "no .interrupted-* run:"; ls -a "$d"; cat "$FP/race.err"; return 1; }
    [ -z "$(find "$d" -mindepth 1 -maxdepth 1 -type d ! -name '.*')" ] ||
        { echo "a finished run was published:"; ls -a "$d"; return 1; }
}
check "a stop that reaches the compile first (scancel signals the whole job): the run is interrupted, not published" fp_stop_race

# ====== Job control ======

# fp_state PID: its state letter (R, S, T, Z...)
fp_state() { awk '{ sub(/.*\) /, ""); print substr($0, 1, 1) }' /proc/"$1"/stat 2>/dev/null; }
fp_stopped() { [ "$(fp_state "$1")" = T ]; }

# Ctrl-Z (SIGTSTP) stops the compile's group with npuscope and SIGCONT
# resumes both: the pause is not in the wall time, nor in --timeout's clock
# (the compile is work, not a sleep: a stopped sleep's timer runs on)
fp_tstp() {
    local d=$FP/tstp
    "$NPUSCOPE" record -o "$d" --timeout 5 -- sh -c 'touch "$NPUSCOPE_RUN_DIR/started"
        exec awk -v mark=npuscope-fp-tstp "BEGIN { for (i = 0; i < 2e7; i++) s += i; print s }"' \
        >"$d.out" 2>"$d.err" &
    local p=$!
    fp_guard $p
    fp_until 30 fp_started "$d" || return 1
    local c
    fp_until 30 eval 'c=$(pgrep -f "mark=npuscope-fp-tstp" | head -n 1); [ -n "$c" ]' || return 1
    kill -TSTP $p
    fp_until 30 fp_stopped $p || return 1
    fp_until 30 fp_stopped "$c" || { echo "the compile was not stopped with npuscope"; kill -CONT $p; return 1; }
    sleep 6 # the pause itself, longer than --timeout: neither may hold it
    kill -CONT $p
    local rc=0
    fp_wait $p || rc=$?
    [ "$rc" = 0 ] || { echo "exit $rc"; cat "$d.err"; return 1; }
    local run
    run=$(ls -d "$d"/run-*)
    jqt '.ok and .timed_out == false and .wall_s < 5 and (.disturbed // false) == false' "$run/run.json" ||
        { jq '{wall_s, user_s, timed_out, disturbed}' "$run/run.json"; return 1; }
}
check "job control: SIGTSTP stops the compile with npuscope, SIGCONT resumes both; the pause is not in wall_s nor in --timeout" fp_tstp

# SIGSTOP cannot be caught: the compile runs on, and the run is marked
# disturbed, said, and not counted
fp_sigstop() {
    local d=$FP/sigstop
    "$NPUSCOPE" record -o "$d" -n 2 -- sh -c 'touch "$NPUSCOPE_RUN_DIR/started"; sleep 0.5; touch "$NPUSCOPE_RUN_DIR/done"' \
        >"$d.out" 2>"$d.err" &
    local p=$!
    fp_guard $p
    fp_until 30 fp_started "$d" || return 1
    kill -STOP $p
    fp_until 30 compgen -G "$d/.tmp-*/done" >/dev/null || { kill -CONT $p; return 1; }
    kill -CONT $p
    local rc=0
    fp_wait $p || rc=$?
    [ "$rc" = 0 ] || { echo "exit $rc"; cat "$d.err"; return 1; }
    local first
    first=$(ls -d "$d"/run-* | head -n 1)
    jqt '.disturbed == true and .ok' "$first/run.json" || return 1
    grep -q 'disturbed: npuscope was stopped' "$d.err" || { echo "not said:"; cat "$d.err"; return 1; }
    # the analyses count the one undisturbed run
    "$NPUSCOPE" table --format json "$d" >"$d.table" || return 1
    jqt '.rows | length == 1 and .[0].n == 1' "$d.table" || { cat "$d.table"; return 1; }
}
check "job control: SIGSTOP of npuscope mid-run marks the run disturbed (run.json), says so, and table leaves it out" fp_sigstop

# ====== A detached grandchild ======
fp_detached() {
    local d=$FP/detached
    # a daemon: a new session, and its starter waits until it is up
    "$NPUSCOPE" record -o "$d" -- sh -c 'setsid sh -c "touch \"\$0\"; exec sleep 301.7" "$NPUSCOPE_RUN_DIR/up" \
        </dev/null >/dev/null 2>&1 & while [ ! -e "$NPUSCOPE_RUN_DIR/up" ]; do :; done' >"$d.out" 2>"$d.err"
    local rc=$?
    local left
    left=$(pgrep -f '^sleep 301.7$')
    [ -z "$left" ] || { echo "the detached sleep outlived the run (pid $left)"; kill $left; return 1; }
    [ "$rc" = 0 ] || { echo "exit $rc"; cat "$d.err"; return 1; }
    grep -q 'left its process group and outlived it' "$d.err" || { echo "not reported:"; cat "$d.err"; return 1; }
    jqt '.detached == 1' "$d"/run-*/run.json
}
check "a detached grandchild (setsid) is reported, counted in run.json and ended with the run" fp_detached

# ====== Nothing overwritten ======
fp_own_names() {
    local d=$FP/names
    "$NPUSCOPE" record -o "$d" -- sh -c 'cat "$0"; echo command-log >"$NPUSCOPE_RUN_DIR/stdout.log"
        echo "{}" >"$NPUSCOPE_RUN_DIR/run.json"; echo last line' "$FPA" >"$d.out" 2>"$d.err"
    local rc=$? run
    [ "$rc" = 0 ] || { echo "exit $rc"; cat "$d.err"; return 1; }
    run=$(ls -d "$d"/run-*) || return 1
    cmp "$run/stdout.log" <(cat "$FPA"; echo last line) || { echo "stdout.log is not what the command printed"; od -c "$run/stdout.log" | head -5; return 1; }
    [ "$(cat "$run/command-stdout.log")" = command-log ] || { echo "the command's stdout.log lost"; ls "$run"; return 1; }
    [ "$(cat "$run/command-run.json")" = '{}' ] || { echo "the command's run.json lost"; return 1; }
    jqt '.format == "npuscope-run" and (.reports | length == 1)' "$run/run.json" || return 1
    grep -q 'kept as command-stdout.log' "$d.err" || { echo "not said:"; cat "$d.err"; return 1; }
    [ ! -e "$run/.npuscope" ] || { echo "the private folder was published"; return 1; }
}
check "a command writing stdout.log and run.json in NPUSCOPE_RUN_DIR: npuscope's kept whole, the command's as command-*" fp_own_names

# with stderr closed, progress text never goes into the lock file
fp_closed_stderr() {
    local d=$FP/closed
    "$NPUSCOPE" record -o "$d" -- sh -c 'cat "$0"' "$FPA" >/dev/null 2>&-
    [ -s "$d/.npuscope.lock" ] || { echo "no lock file"; return 1; }
    ! grep -q 'npuscope:' "$d/.npuscope.lock" || { echo "progress text in the lock:"; cat "$d/.npuscope.lock"; return 1; }
    grep -q '^pid [0-9]* since ' "$d/.npuscope.lock" || { cat "$d/.npuscope.lock"; return 1; }
}
check "record with stderr closed: the lock file holds its note only, no progress text" fp_closed_stderr

# ====== report -o ======
fp_report_o() {
    local d=$FP/reporto
    mkdir -p "$d"
    cp "$FPA" "$d/in.log"
    cp "$d/in.log" "$d/in.copy"
    "$NPUSCOPE" report -o "$d/in.log" "$d/in.log" 2>"$d/err1"
    local rc=$?
    [ "$rc" = 2 ] || { echo "report -o onto its input log: exit $rc"; return 1; }
    cmp "$d/in.log" "$d/in.copy" || { echo "the input log was overwritten"; return 1; }
    grep -q 'is an input' "$d/err1" || { cat "$d/err1"; return 1; }
    "$NPUSCOPE" record -o "$d/runs" -- sh -c 'cat "$0"' "$FPA" 2>/dev/null || return 1
    local rj
    rj=$(ls "$d"/runs/run-*/run.json)
    cp "$rj" "$d/rj.copy"
    "$NPUSCOPE" report -o "$rj" "$d/runs" 2>"$d/err2"
    rc=$?
    [ "$rc" = 2 ] || { echo "report -o onto a run.json of its input: exit $rc"; return 1; }
    cmp "$rj" "$d/rj.copy" || { echo "run.json was overwritten"; return 1; }
    # a page inside the folder is fine
    "$NPUSCOPE" report -o "$d/runs/page.html" "$d/runs" 2>/dev/null || { echo "a page beside the runs refused"; return 1; }
}
check "report -o: refuses its input log and a run.json of its input folder" fp_report_o

# a write that fails leaves the page that was there, and no temporary file
fp_report_full() {
    local d=$FP/reportfull
    mkdir -p "$d"
    "$NPUSCOPE" report -o "$d/page.html" "$FPA" 2>/dev/null || return 1
    cp "$d/page.html" "$d/page.copy"
    local rc=0
    ( ulimit -f 16; exec "$NPUSCOPE" report -o "$d/page.html" "$FPB" ) 2>"$d/err" || rc=$?
    [ "$rc" = 2 ] || { echo "exit $rc"; cat "$d/err"; return 1; }
    cmp "$d/page.html" "$d/page.copy" || { echo "the page was replaced by a broken one"; return 1; }
    [ -z "$(find "$d" -name '.page.html.*')" ] || { echo "a temporary file left"; return 1; }
}
check "report -o: a write that fails (a file size limit) keeps the old page whole, no temporary file" fp_report_full
