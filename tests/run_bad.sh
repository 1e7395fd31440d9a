# shellcheck shell=bash
# run_bad.sh -- the bad-input corpus, tests/bad/cases (layout and how to add
# a case: tests/bad/README.md); sourced by tests/run.sh, section 6 (uses its
# check/ok/bad, $NPUSCOPE, $TMP).
#
# Every case runs npuscope once under `timeout 60` and a 1 GiB address-space
# cap, and must give its exit code (NAME.rc) and messages (NAME.err): each
# pattern matches a line of stderr, and each line of stderr matches a
# pattern.  No case may crash (exit >= 128), hang or run out of memory.
# When the exit code is 0 or 1, the json, chrome and speedscope exports of
# the input must be valid JSON as well.
#
# `bash tests/run_bad.sh` runs the corpus alone (about 20 s), also against
# another build: NPUSCOPE=build-asan/npuscope bash tests/run_bad.sh

if ! declare -F check >/dev/null; then # run alone, not sourced by run.sh
    set -u
    cd "$(dirname "$0")/.." || exit 2
    NPUSCOPE=${NPUSCOPE:-./build/npuscope}
    FIX=tests/fixtures
    TMP=$(mktemp -d)
    trap 'rm -rf "$TMP"' EXIT
    pass=0 fail=0 bad_alone=1
    ok()   { pass=$((pass + 1)); [ -n "${VERBOSE:-}" ] && echo "ok   $*"; return 0; }
    bad()  { fail=$((fail + 1)); echo "FAIL $*"; }
    check() { local name=$1; shift; if "$@" >"$TMP/out" 2>&1; then ok "$name"; else bad "$name"; sed 's/^/     /' "$TMP/out" | head -20; fi; }
fi

BAD=tests/bad/cases
BADGEN=$TMP/bad-gen # the large inputs, written by tests/bad/gen.sh
BAD_VMEM_KB=${BAD_VMEM_KB:-1048576}
sh tests/bad/gen.sh "$BADGEN" || bad "tests/bad/gen.sh $BADGEN failed"
# ASan reserves terabytes of address space and refuses to start under
# `ulimit -v`: an ASan build (NPUSCOPE=build-asan/npuscope) runs uncapped.
{ (ulimit -v "$BAD_VMEM_KB" && "$NPUSCOPE" --version) >/dev/null 2>&1; } 2>/dev/null || BAD_VMEM_KB=unlimited

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
JSONCHECK=${JSONCHECK:-${BUILD:-build}/jsoncheck}
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
for c in "$BAD"/*.rc; do
    c=$(basename "$c" .rc)
    check "bad: $c — $(head -n 1 "$BAD/$c.desc")" bad_case "$c"
done
bad_layout() { # no half-written case goes unnoticed (or unrun)
    local f n x
    for f in "$BAD"/*; do
        n=${f%.*}
        case $f in *.in | *.gen | *.rc | *.err | *.args | *.desc) ;; *) echo "$f: not part of a case"; return 1 ;; esac
        for x in rc err desc; do [ -f "$n.$x" ] || { echo "$n.$x missing"; return 1; }; done
        [ ! -f "$n.in" ] || [ ! -f "$n.gen" ] || { echo "$n has both .in and .gen"; return 1; }
    done
}
check "bad: every case has its .rc, .err and .desc" bad_layout

# Checks beyond an exit code and messages, on corpus inputs.
bad_utf8() { # invalid UTF-8 becomes U+FFFD in JSON, one per bad byte
    "$NPUSCOPE" tree -q --format json "$BAD/invalid-utf8-name.in" | grep -q 'caf\\ufffd\\ufffd'
}
check "bad: invalid UTF-8 is replaced, not dropped" bad_utf8
hundred_k() {
    [ "$(timeout 120 "$NPUSCOPE" top -q --format json "$BADGEN/reports-100000.in" | jq .reports)" -eq 100000 ]
}
check "bad: 100,000 reports in one file, counted exactly" hundred_k
long_two() { [ "$("$NPUSCOPE" tree -q --format json "$BADGEN/long-line.in" | jq '.reports | length')" = 2 ]; }
check "bad: 1 MB line between two reports, both read" long_two
# (jq stops at depth 256, so count by text: every row once, fully closed)
deep_json() {
    "$NPUSCOPE" tree -q --format json "$BADGEN/deep-10000.in" >"$TMP/deep.json" || return 1
    [ "$(grep -o '"name":"P[0-9]*"' "$TMP/deep.json" | sort -u | wc -l)" -eq 10000 ] &&
    [ "$(grep -o ']}' "$TMP/deep.json" | wc -l)" -eq 10002 ] # nodes, root, document
}
check "bad: 10000-deep exports keep every level" deep_json
npuw_layout_whole() {
    "$NPUSCOPE" tree --npuw=a:1,bad --format csv "$BAD/review-scan-2.in" >"$TMP/o" 2>"$TMP/e"
    [ $? -eq 2 ] && grep -q "a layout is STAGE:COUNT" "$TMP/e"
}
check "bad: an NPUW layout malformed after its first part is refused" npuw_layout_whole
metric_stacked() {
    timeout 5 "$NPUSCOPE" record -q -o "$TMP/mx" --metric "$(cat "$BAD/fuzz-fuzz_metric-1.in")" -- true 2>"$TMP/e"
    [ $? -eq 2 ] && grep -q "repeats repetitions too deeply" "$TMP/e" || return 1
    # stacked groups are nested quantifiers too, refused as such first
    timeout 5 "$NPUSCOPE" record -q -o "$TMP/mx" --metric 'x=(((((((((((((((((((n)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+' -- true 2>"$TMP/e"
    [ $? -eq 2 ] && grep -Eq "repeats repetitions too deeply|nested quantifier" "$TMP/e" || return 1
    timeout 5 "$NPUSCOPE" tree --label-regex '((n{1000}){1000}){1000}' "$FIX/mlir22-tree-st.txt" >/dev/null 2>"$TMP/e"
    [ $? -eq 2 ] && grep -Eq "repeats repetitions too deeply|nested quantifier" "$TMP/e" || return 1
    # ordinary patterns, many repetitions in a row, are fine
    "$NPUSCOPE" tree -q --label-regex 'a+b+c+d+e+f+g+h+i+j+k+l+m+n+o+p+q+r+s+t+u+v+w+x+y+z+([0-9]+)' "$FIX/mlir22-tree-st.txt" >/dev/null
}
check "bad: --metric and --label-regex patterns that would explode in regcomp are refused" metric_stacked

if [ -n "${bad_alone:-}" ]; then
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
fi
