# shellcheck shell=bash
# lib.sh -- what the test scripts share: the counters, check(), the summary
# line, and the checks that more than one script runs.  Sourced by
# tests/run.sh and by tests/run_bad.sh when it runs alone; it moves to the
# top of the tree and sets
#
#   NPUSCOPE   the binary under test (default ./build/npuscope)
#   FIX        tests/fixtures
#   TMP        a fresh temporary folder, removed on exit
#   pass fail  the counts that `finish` prints as "N passed, N failed"
#
# A check is a function that returns 0 when what it tests holds, and prints
# why not otherwise; `check "description" FUNCTION ARG...` runs it, counts
# it, and shows the first 20 lines of what a failing one printed.

if [ -n "${NS_LIB:-}" ]; then return 0; fi
NS_LIB=1
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
NPUSCOPE=${NPUSCOPE:-./build/npuscope}
FIX=tests/fixtures
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0

ok()   { pass=$((pass + 1)); [ -n "${VERBOSE:-}" ] && echo "ok   $*"; return 0; }
bad()  { fail=$((fail + 1)); echo "FAIL $*"; }
check() { local name=$1; shift; if "$@" >"$TMP/out" 2>&1; then ok "$name"; else bad "$name"; sed 's/^/     /' "$TMP/out" | head -20; fi; }

# finish: the summary line; true only when nothing failed (a script ends
# with it, so that this is its exit status)
finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}

# ---------------------------------------------------------------- unit programs
# units_all BUILD: every tests/unit*.c is a program that must have been
# built in BUILD: a missing one is a failure, never a silent skip.  Each
# prints its failures and ends with "NAME: N passed, N failed"; the counts
# join ours.
units_all() {
    local src u out last u_pass u_fail
    for src in tests/unit*.c; do
        u=$1/$(basename "$src" .c)
        [ -x "$u" ] || { bad "$u was not built (make units)"; continue; }
        out=$("$u") || true
        echo "$out" | grep '^FAIL' || true
        last=$(echo "$out" | tail -n 1)
        u_pass=$(echo "$last" | sed -n 's/^[a-z_]*: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
        u_fail=$(echo "$last" | sed -n 's/^[a-z_]*: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
        if [ -z "$u_pass" ]; then bad "$u did not finish"; else
            pass=$((pass + u_pass)); fail=$((fail + u_fail)); fi
    done
}

# ---------------------------------------------------------------- exactness
# Clean what the scanner cleans (colour, CR, logger prefixes) before the
# naive extraction; the reports themselves are untouched.
clean() { sed 's/\x1b\[[0-9;]*m//g; s/\r$//; s/^\[[A-Z]*\] [^ ]* \[[^]]*\] //' "$1"; }
exact() {
    local f=$1
    clean "$f" | awk -f tests/extract-reports.awk >"$TMP/want"
    [ -s "$TMP/want" ] || { echo "no report extracted from $f"; return 1; }
    "$NPUSCOPE" tree --format original "$f" >"$TMP/got" 2>"$TMP/err" || return 1
    [ ! -s "$TMP/err" ] || { echo "unexpected warnings:"; cat "$TMP/err"; return 1; }
    diff "$TMP/want" "$TMP/got"
}

# ---------------------------------------------------------------- exports
exports() {
    local f=$1 n
    "$NPUSCOPE" tree -q --format json "$f" >"$TMP/j" || return 1
    # rows + roots = nodes; every report complete; Total == header total
    n=$(jq '[.reports[] | [.root | .. | objects | select(has("children"))] | length] | add' "$TMP/j") || return 1
    jq -e '[.reports[] | .complete] | all' "$TMP/j" >/dev/null || { echo "incomplete report"; return 1; }
    jq -e '[.reports[] | select(.header_total_s != null and .producer != "llvm-timer-group")
            | .header_total_s == .root.wall_s] | all' "$TMP/j" >/dev/null ||
        { echo "Total differs from Total Execution Time"; return 1; }
    jq -e '[.reports[] | select(.header_wall_clock_s != null) | .header_wall_clock_s == .root.wall_s] | all' \
        "$TMP/j" >/dev/null || { echo "LLVM Total wall differs from the wall clock header"; return 1; }
    local rows; rows=$("$NPUSCOPE" tree -q --format csv "$f" | tail -n +2 | wc -l)
    local reports; reports=$(jq '.reports | length' "$TMP/j")
    [ "$rows" -eq $((n - reports)) ] || { echo "csv rows $rows, json nodes $n, reports $reports"; return 1; }
    "$NPUSCOPE" tree -q --format chrome "$f" | jq -e '.traceEvents | length > 0' >/dev/null || return 1
    "$NPUSCOPE" tree -q --format speedscope "$f" |
        jq -e '[.profiles[] | (.samples | length) == (.weights | length)] | all' >/dev/null || return 1
    "$NPUSCOPE" tree -q --format folded "$f" | grep -qv ' [0-9][0-9]*$' && { echo "bad folded line"; return 1; }
    "$NPUSCOPE" top -q -n 0 --format json "$f" | jq -e '.rows | length > 0' >/dev/null || return 1
    return 0
}

# Every JSON npuscope writes goes through jansson's strict parser
# (tests/jsoncheck.c: no NaN, valid UTF-8, no raw control bytes, no
# duplicate keys), which refuses more than jq does.
JSONCHECK=${JSONCHECK:-${BUILD:-build}/jsoncheck}
strict_json() { # strict_json ARGS...: run npuscope, its stdout must be strict JSON
    "$NPUSCOPE" "$@" >"$TMP/sj" 2>/dev/null
    [ $? -le 1 ] || { echo "npuscope $* failed"; return 1; }
    [ ! -s "$TMP/sj" ] || "$JSONCHECK" "$TMP/sj"
}

# ---------------------------------------------------------------- golden
golden() {
    local c=$1 args=()
    mapfile -t args <"$c.args"
    "$NPUSCOPE" "${args[@]}" >"$TMP/out" 2>"$TMP/err" </dev/null
    echo $? >"$TMP/rc"
    diff "$c.out" "$TMP/out" && diff "$c.err" "$TMP/err" && diff "$c.rc" "$TMP/rc"
}

# ---------------------------------------------------------------- NPU logs
npu_no_leak() {
    # facts only with --npu, and an MLIR log has none
    "$NPUSCOPE" tree --npu --format json "$FIX/noisy-build.log" | jq -e '[.reports[] | has("metrics")] | any | not' >/dev/null &&
    "$NPUSCOPE" tree --format json "$FIX/constructed-npu-2025.log" | jq -e '.reports[0] | has("metrics") | not' >/dev/null
}

# ---------------------------------------------------------------- bad input
# The corpus in tests/bad/cases (tests/run_bad.sh runs it; layout and how
# to add a case: tests/bad/README.md).
BAD=tests/bad/cases
BADGEN=$TMP/bad-gen # the large inputs, written by tests/bad/gen.sh
BAD_VMEM_KB=${BAD_VMEM_KB:-1048576}

# bad_input NAME: the path of the case's input, empty when it has none
bad_input() {
    if [ -f "$BAD/$1.in" ]; then echo "$BAD/$1.in"
    elif [ -f "$BAD/$1.gen" ]; then echo "$BADGEN/$1.in"; fi
}

# bad_run OUT ERR INPUT ARG...: npuscope ARG... capped, stdin from INPUT;
# prints nothing, returns npuscope's exit code
bad_run() {
    local out=$1 err=$2 in=${3:-/dev/null}
    shift 3
    (ulimit -v "$BAD_VMEM_KB" && exec timeout 60 "$NPUSCOPE" "$@") <"$in" >"$out" 2>"$err"
}

# bad_json FILE: strict JSON, by jansson (tests/jsoncheck.c: no NaN, valid
# UTF-8, no raw control bytes, no duplicate keys).  jansson stops at depth
# 2048, so a deeper document is parsed again by node's JSON.parse (or,
# without node, by jq's streaming parser: no limit, but seconds per deep
# document), and, as both take what jansson would refuse in places, looked
# at for the non-JSON words nan, NaN and Infinity where a value starts.
bad_json() {
    "$JSONCHECK" "$1" 2>"$TMP/bad.jq" && return 0
    grep -q 'maximum parsing depth' "$TMP/bad.jq" || { cat "$TMP/bad.jq"; return 1; }
    if command -v node >/dev/null; then
        node -e 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$1" || return 1
    else
        jq --stream empty "$1" || return 1
    fi
    ! grep -Eq '[:,[][[:space:]]*-?(nan|NaN|inf|Infinity)[],}[:space:]]' "$1" ||
        { echo "nan or inf outside a string"; return 1; }
}

# bad_case NAME: one case of the corpus: its exit code, its messages, and
# (exit 0 or 1) valid JSON exports of its input
bad_case() {
    local name=$1 c=$BAD/$1 input args=() a rc want pat fmt
    input=$(bad_input "$name")
    [ -z "$input" ] || [ -f "$input" ] || { echo "no input $input"; return 1; }
    if [ -f "$c.args" ]; then mapfile -t args <"$c.args"; else args=(tree INPUT); fi
    for a in "${!args[@]}"; do
        case ${args[$a]} in
            INPUT) args[a]=$input ;;
            INPUT_TEXT) args[a]=$(cat "$input") ;;
            OUTDIR) args[a]=$TMP/bad-out-$name; rm -rf "${args[a]}" ;;
        esac
    done
    bad_run "$TMP/bad.out" "$TMP/bad.err" "$input" "${args[@]}"; rc=$?
    want=$(cat "$c.rc")
    [ "$rc" -ne 124 ] || { echo "hangs: killed after 60 s"; return 1; }
    [ "$rc" -lt 128 ] || { echo "crashes: exit $rc (signal $((rc - 128)))"; head -20 "$TMP/bad.err"; return 1; }
    [ "$rc" -eq "$want" ] || { echo "exit $rc, wanted $want; stderr:"; head -20 "$TMP/bad.err"; return 1; }
    # (bytes, not characters: a message may quote invalid UTF-8)
    ! grep -q '^$' "$c.err" || { echo "$c.err: an empty line would match anything"; return 1; }
    while IFS= read -r pat; do
        LC_ALL=C grep -Eq -- "$pat" "$TMP/bad.err" ||
            { echo "stderr lacks /$pat/:"; head -20 "$TMP/bad.err"; return 1; }
    done <"$c.err"
    if LC_ALL=C grep -Evf "$c.err" "$TMP/bad.err" >"$TMP/bad.extra"; then
        echo "messages that $c.err does not expect:"; head -20 "$TMP/bad.extra"; return 1
    fi
    [ -n "$input" ] && [ "$rc" -le 1 ] || return 0
    for fmt in json chrome speedscope; do
        bad_run "$TMP/bad.json" "$TMP/bad.err" "" tree -q --format "$fmt" "$input"; rc=$?
        [ "$rc" -le 1 ] || { echo "--format $fmt: exit $rc"; head -20 "$TMP/bad.err"; return 1; }
        [ ! -s "$TMP/bad.json" ] || bad_json "$TMP/bad.json" || { echo "--format $fmt: invalid JSON"; return 1; }
    done
}
