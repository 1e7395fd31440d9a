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
