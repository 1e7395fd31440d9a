# shellcheck shell=bash
# run_split.sh -- a big regular file read by two threads gives the bytes one
# thread gives (parse/split.h).  Sourced by tests/run.sh (uses its check,
# $NPUSCOPE, $TMP, $FIX), or run alone: `bash tests/run_split.sh`.
#
# NPUSCOPE_SPLIT_CHUNK (bytes a thread takes at a time) splits any regular
# file, so that the fixtures are cut in many places -- between reports,
# inside banners, rows and the lines after a report -- and each case is run
# with --threads 1 and --threads 2 (3, 4, 5 for some): stdout, stderr (the warnings, their
# order and line numbers) and the exit code must be the same.  Inputs:
# every fixture, every bad-input case, all fixtures in one file, a
# report-dense log like the bench's, logs with warnings in many chunks, an
# over-long line; `--report N` stops early; what is read by one thread
# anyway (--label-regex, an NPU log, a trace, standard input) too.

if ! declare -F check >/dev/null 2>&1; then
    # shellcheck source=tests/lib.sh
    . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
    NS_SPLIT_ALONE=1
fi

# split_same CHUNK ARGS...: the same output with one and two threads
# (SPLIT_T threads, when set).  SPLIT_REF, when set, is the binary of the
# one-thread side (tests/run.sh's ThreadSanitizer pass: one thread cannot
# race, so the plain build gives that side, and only the threaded runs
# are the sanitized build's)
split_same() {
    pairs_begin "$TMP/split"
    split_add "$@"
    shift
    pairs_same "$TMP/split" "$*"
}
# split_add CHUNK ARGS...: the case, both sides, added to the batch of
# $TMP/split (tests/lib.sh's pairs_*)
split_add() {
    local chunk=$1 i t bin
    shift
    for i in 1 2; do
        t=$((i == 1 ? 1 : ${SPLIT_T:-2}))
        bin=$NPUSCOPE; [ "$i" -eq 2 ] || bin=${SPLIT_REF:-$NPUSCOPE}
        NPUSCOPE_SPLIT_CHUNK=$chunk "$bin" "$@" --threads "$t" >>"$TMP/split.out$i" 2>>"$TMP/split.err$i"
        pairs_close "$TMP/split" "$i" "$?" "$*"
    done
}

# split_stdin CHUNK FILE ARGS...: the same, reading FILE on standard input
split_stdin() {
    local chunk=$1 file=$2 t
    shift 2
    for t in 1 2; do
        NPUSCOPE_SPLIT_CHUNK=$chunk "$NPUSCOPE" "$@" --threads "$t" <"$file" >"$TMP/split.out$t" 2>"$TMP/split.err$t"
    done
    cmp -s "$TMP/split.out1" "$TMP/split.out2" && cmp -s "$TMP/split.err1" "$TMP/split.err2" &&
        [ -s "$TMP/split.out1" ] || { echo "stdin: the outputs differ or are empty"; return 1; }
}

# split_all CHUNK FILE...: top, tree (text and JSON) and stages of each,
# compared in one batch
split_all() {
    local chunk=$1 f c
    shift
    pairs_begin "$TMP/split"
    for f in "$@"; do
        for c in "top" "top --format json --all" "tree" "tree --format json" "stages"; do
            # shellcheck disable=SC2086
            split_add "$chunk" $c "$f"
        done
    done
    pairs_same "$TMP/split" "cut every $chunk bytes"
}

# the inputs: every fixture and bad-input case, and all of them in one file
split_inputs() {
    local f
    for f in "$FIX"/*.txt "$FIX"/*.log "$FIX"/*.json tests/bad/cases/*.in; do
        [ -f "$f" ] && [ "$(wc -c <"$f")" -lt 2000000 ] && echo "$f"
    done
}
split_inputs >"$TMP/split.list"
# shellcheck disable=SC2046
cat $(grep -v '\.json$' "$TMP/split.list") >"$TMP/split-all.log"

# a report-dense CI log like tests/bench/dense.sh's (seeded; about 2 MB)
awk 'BEGIN { srand(7) }
FNR == 1 { nf++ }
{ text[nf] = text[nf] $0 "\n" }
END {
    while (bytes < 2000000) {
        for (i = 20 + int(rand() * 181); i > 0; i--) {
            l = sprintf("[%3d%%] Building CXX object lib/D%d/Op%d.cpp.o", int(rand() * 100), int(rand() * 40), int(rand() * 900))
            print l; bytes += length(l) + 1
        }
        k = 1 + int(rand() * nf); printf "%s", text[k]; bytes += length(text[k])
    }
}' "$FIX/mlir22-tree-mt.txt" "$FIX/mlir22-tree-st.txt" "$FIX/mlir14-tree-mt.txt" "$FIX/mlir22-inliner-st.txt" \
    "$FIX/mlir22-json-tree.txt" "$FIX/opt22-time-passes.txt" >"$TMP/split-dense.log"

# warnings in many chunks: reports cut short, foreign lines inside reports,
# a banner block that never ends, odd indentation, line numbers far down
awk 'BEGIN { srand(3) }
FNR == 1 { nf++ }
{ line[nf, FNR] = $0; n[nf] = FNR }
END {
    for (r = 0; r < 400; r++) {
        k = 1 + int(rand() * nf); cut = int(rand() * 3)
        for (i = 1; i <= n[k]; i++) {
            if (cut == 1 && i > n[k] / 2) break
            print line[k, i]
            if (cut == 2 && i == int(n[k] / 2)) print "a foreign line inside the report " r
        }
        if (rand() < 0.1) { print "===-------------------------------------------------------------------------==="; print "  a banner and then nothing" }
        if (rand() < 0.1) print "   3.0000 ( 50.0%)     odd indentation row"
        for (i = int(rand() * 30); i > 0; i--) print "noise " r " " i
    }
}' "$FIX/mlir22-tree-mt.txt" "$FIX/mlir14-tree-st.txt" "$FIX/opt14-time-passes.txt" "$FIX/clang22-ftime-report.txt" \
    "$FIX/mlir22-json-tree-st.txt" >"$TMP/split-warn.log"

split_fixtures() {
    local files
    mapfile -t files <"$TMP/split.list"
    split_all 4096 "${files[@]}"
}
split_fixtures_tiny() {
    local f
    pairs_begin "$TMP/split"
    while read -r f; do split_add 61 tree --format json "$f"; done <"$TMP/split.list"
    pairs_same "$TMP/split" "cut every 61 bytes"
}
split_cat() { split_all 4096 "$TMP/split-all.log" && split_all 333 "$TMP/split-all.log"; }
split_dense() { split_all 4096 "$TMP/split-dense.log" && split_all 65536 "$TMP/split-dense.log"; }
split_warn() {
    [ "$(NPUSCOPE_SPLIT_CHUNK=4096 "$NPUSCOPE" top "$TMP/split-warn.log" 2>&1 >/dev/null | grep -c 'incomplete')" -gt 10 ] ||
        { echo "the log with warnings says too few"; return 1; }
    split_all 4096 "$TMP/split-warn.log" && split_all 1000 "$TMP/split-warn.log"
}
# --report N: the sink stops the scan; the workers are cancelled
split_report_n() {
    local n lines
    # reports each cut short by the next one's banner: stopped on one, the
    # scan says the next is cut inside its header
    lines=$(wc -l <"$FIX/mlir22-tree-st.txt")
    for n in $(seq 1 60); do head -n $((lines - 3)) "$FIX/mlir22-tree-st.txt"; done >"$TMP/split-cut.log"
    for n in 1 5 33; do
        split_same 1000 tree --report "$n" "$TMP/split-cut.log" || return 1
        grep -q 'ends inside its header' "$TMP/split.err2" || { echo "--report $n: no word of the cut header"; return 1; }
    done
    for n in 1 2 7 50 199 5000; do
        split_same 4096 tree --report "$n" "$TMP/split-dense.log" || return 1
        split_same 1000 tree --report "$n" "$TMP/split-warn.log" || return 1
        split_same 333 top --report "$n" "$TMP/split-all.log" || return 1
    done
}
# read by one thread in any case, and still the same
split_fallback() {
    split_same 4096 tree --label-regex 'Building CXX object (lib/D[0-9]+)' "$TMP/split-dense.log" &&
        split_same 4096 top "$FIX/constructed-npu-2025.log" &&
        split_same 4096 tree --npu "$TMP/split-dense.log" &&
        split_same 4096 tree "$FIX/clang22-ftime-trace.json" &&
        split_stdin 4096 "$TMP/split-dense.log" tree - &&
        split_same 4096 tree "$TMP/no-such-file.log"
}
# a line over NS_LINE_MAX (16 MiB) is cut where one thread cuts it
split_long_line() {
    { cat "$FIX/mlir22-tree-st.txt"; head -c 17000000 /dev/zero | tr '\0' '='; echo; cat "$FIX/mlir22-tree-mt.txt"; } >"$TMP/split-long.log"
    split_same 1000000 tree --format json "$TMP/split-long.log" &&
        grep -q 'longer than' "$TMP/split.err2" || { echo "no warning about the long line"; return 1; }
}
# the default: without NPUSCOPE_SPLIT_CHUNK a small file is not split, and
# the output of --threads 2 is still the one of --threads 1
split_default() {
    "$NPUSCOPE" tree --threads 2 "$TMP/split-dense.log" >"$TMP/split.d2" 2>&1 &&
        "$NPUSCOPE" tree --threads 1 "$TMP/split-dense.log" >"$TMP/split.d1" 2>&1 &&
        cmp "$TMP/split.d1" "$TMP/split.d2"
}

# (Under ThreadSanitizer, SPLIT_RACES_ONLY: each way the threads run,
# once.  Every fixture and bad input one file at a time -- 760 of the 880
# sanitized runs, each about 0.15 s of CPU there -- adds no way to race
# that all of them in one file, cut every 4 KiB and every 333 bytes
# (split_cat), has not: the same chunks, hand-offs and arena pool, more of
# them.  The per-file cases check the bytes, which the plain and ASan
# runs do.)
# (The fast tier, make test, leaves the per-file cases to make check,
# which runs them twice, plain and sanitized: all fixtures in one file,
# cut every 4 KiB and every 333 bytes, are here, and the per-file cases
# were half of make test's split lane.)
if [ "${TIER:-full}" = fast ]; then
    skip "split: every fixture and bad input one file at a time (make check; all of them in one file here)"
elif [ -z "${SPLIT_RACES_ONLY:-}" ]; then
    check "split: every fixture and bad input, cut every 4 KiB" split_fixtures
    check "split: every fixture and bad input, cut every 61 bytes (tree --format json)" split_fixtures_tiny
fi
check "split: all fixtures in one file" split_cat
check "split: a report-dense CI log" split_dense
check "split: warnings in many chunks, in order and with their line numbers" split_warn
check "split: --report N stops as one thread does" split_report_n
# (what is read by one thread anyway has no thread to race: not in the
# ThreadSanitizer pass, SPLIT_RACES_ONLY)
if [ -z "${SPLIT_RACES_ONLY:-}" ]; then
    check "split: --label-regex, an NPU log, a trace, stdin, a missing file" split_fallback
fi
check "split: a line over 16 MiB" split_long_line
if [ -z "${SPLIT_RACES_ONLY:-}" ]; then
    check "split: the default threshold" split_default
fi
# more threads than two: workers and the calling thread all take chunks
split_many() { SPLIT_T=3 split_dense && SPLIT_T=5 split_warn && SPLIT_T=4 split_report_n; }
check "split: three, four and five threads" split_many
# the parts read the file mapped (scan.c, "Mapped files"), or with pread()
# when it is not: both, the same bytes
split_pread() { NPUSCOPE_NO_MMAP=1 split_dense && NPUSCOPE_NO_MMAP=1 split_warn && NPUSCOPE_NO_MMAP=1 split_long_line; }
check "split: the parts read with pread() (NPUSCOPE_NO_MMAP=1)" split_pread

if [ -n "${NS_SPLIT_ALONE:-}" ]; then finish; fi
