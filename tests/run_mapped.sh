# shellcheck shell=bash
# run_mapped.sh -- a regular file read through a mapping gives what read()
# gives (parse/scan.c, "Mapped files").  Sourced by tests/run.sh (uses its
# check, $NPUSCOPE, $TMP, $FIX), or run alone: `bash tests/run_mapped.sh`.
#
# NPUSCOPE_NO_MMAP=1 reads every file with read(), as a pipe is read; each
# case runs both ways and compares stdout, stderr and the exit code: every
# fixture and bad input (tree --format json, top), lines about NS_LINE_MAX
# (16 MiB) long -- one byte short of it, at it, past it, last in the file
# with and without a newline -- where read() cuts a line, and files that
# end near a page's end (those are read, not mapped: the vector loops may
# load a few bytes past the end).  A file that shrinks while it is mapped
# (tests/shim/shrink.c, an LD_PRELOAD shim that truncates what is mapped)
# must give exit 2 and "the file shrank while it was read", not a signal.

if ! declare -F check >/dev/null 2>&1; then
    # shellcheck source=tests/lib.sh
    . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
    NS_MAPPED_ALONE=1
fi

# mapped_same ARGS...: the same output mapped and read
mapped_same() {
    pairs_begin "$TMP/map"
    mapped_add "$@"
    pairs_same "$TMP/map" "$*"
}
# mapped_add ARGS...: the case, mapped and read, added to the batch of
# $TMP/map (tests/lib.sh's pairs_*)
mapped_add() {
    "$NPUSCOPE" "$@" >>"$TMP/map.out1" 2>>"$TMP/map.err1"
    pairs_close "$TMP/map" 1 "$?" "$*"
    NPUSCOPE_NO_MMAP=1 "$NPUSCOPE" "$@" >>"$TMP/map.out2" 2>>"$TMP/map.err2"
    pairs_close "$TMP/map" 2 "$?" "$*"
}

mapped_fixtures() {
    local f n=0
    pairs_begin "$TMP/map"
    for f in "$FIX"/*.txt "$FIX"/*.log "$FIX"/*.json tests/bad/cases/*.in; do
        [ -f "$f" ] || continue
        mapped_add tree -q --format json "$f"
        mapped_add top --all "$f"
        n=$((n + 1))
    done
    [ "$n" -gt 50 ] || { echo "only $n inputs"; return 1; }
    pairs_same "$TMP/map" "every fixture and bad input"
}

# a report, then a line of LEN bytes of '=' (NL: with a newline), then a
# report, in FILE
long_line_log() {
    local len=$1 nl=$2 file=$3
    { cat "$FIX/mlir22-tree-st.txt"; head -c "$len" /dev/zero | tr '\0' 'x'; [ "$nl" = 1 ] && echo
      [ "$nl" = 1 ] && cat "$FIX/mlir22-tree-mt.txt"; } >"$file"
}
mapped_long_lines() {
    local max=$((16 << 20)) len nl
    for len in $((max - 1)) $max $((max + 1)) $((max + 4096)); do
        for nl in 1 0; do
            long_line_log "$len" "$nl" "$TMP/map-long.log"
            mapped_same tree --format json "$TMP/map-long.log" || { echo "(a line of $len bytes, newline $nl)"; return 1; }
        done
    done
    # the cut is said, both ways
    long_line_log $((max + 1)) 1 "$TMP/map-long.log"
    "$NPUSCOPE" tree "$TMP/map-long.log" 2>&1 >/dev/null | grep -q 'longer than 16 MiB' ||
        { echo "no word of the long line"; return 1; }
}

# files ending at every byte near a page's end: mapped or read, the same
mapped_page_ends() {
    local pg size k
    pg=$(getconf PAGESIZE)
    for k in 1 2 3 4 5 6 7 8; do cat "$FIX/noisy-build.log" "$FIX/mlir22-tree-mt.txt"; done >"$TMP/map-base.log"
    for size in $((pg * 3)) $((pg * 40)); do
        for k in 0 1 2 63 64 127 128 129 200; do
            head -c $((size - k)) "$TMP/map-base.log" >"$TMP/map-end.log"
            [ "$(wc -c <"$TMP/map-end.log")" -eq $((size - k)) ] || { echo "the base log is too short"; return 1; }
            mapped_same tree --format json "$TMP/map-end.log" || { echo "(a file of $((size - k)) bytes)"; return 1; }
        done
    done
}

# a big file that shrinks while it is mapped: exit 2 and the word, and the
# same file read (NPUSCOPE_NO_MMAP) gives what is left of it, no error
mapped_shrink() {
    local cc=${CC:-cc} i rc
    "$cc" -shared -fPIC -O1 -o "$TMP/shrink.so" tests/shim/shrink.c -ldl || return 1
    for i in $(seq 1 600); do cat "$FIX/mlir22-tree-mt.txt" "$FIX/noisy-build.log"; done >"$TMP/map-big.log"
    [ "$(wc -c <"$TMP/map-big.log")" -gt $((8 << 20)) ] || { echo "the big log is too small"; return 1; }
    cp "$TMP/map-big.log" "$TMP/map-big.keep"
    # one thread, and two (parse/split.c: the workers fault, in parts)
    for t in 1 2; do
        cp "$TMP/map-big.keep" "$TMP/map-big.log"
        # a sanitized build's runtime must come first: the shim after it
        LD_PRELOAD="$TMP/shrink.so" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
            NPUSCOPE_SPLIT_CHUNK=65536 "$NPUSCOPE" top --threads $t "$TMP/map-big.log" >"$TMP/map.out" 2>"$TMP/map.err"
        rc=$?
        [ "$rc" -eq 2 ] || { echo "--threads $t: exit $rc, not 2"; head -5 "$TMP/map.err"; return 1; }
        grep -q "^npuscope: $TMP/map-big.log: the file shrank while it was read$" "$TMP/map.err" ||
            { echo "--threads $t: not the message:"; head -5 "$TMP/map.err"; return 1; }
        [ "$(wc -c <"$TMP/map-big.log")" -eq 4096 ] || { echo "the shim did not shrink the file"; return 1; }
    done
}

check "mapped: every fixture and bad input, as read() reads them" mapped_fixtures
check "mapped: lines about 16 MiB long are cut where read() cuts them" mapped_long_lines
check "mapped: files that end near a page's end" mapped_page_ends
check "mapped: a file that shrinks while it is read (one and two threads): exit 2 and a word, not SIGBUS" mapped_shrink

if [ -n "${NS_MAPPED_ALONE:-}" ]; then finish; fi
