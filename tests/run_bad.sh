# shellcheck shell=bash
# run_bad.sh -- the bad-input corpus, tests/bad/cases (layout and how to add
# a case: tests/bad/README.md); sourced by tests/run.sh, section 6.  The
# checks themselves (bad_case and its helpers) are in tests/lib.sh.
#
# Every case runs npuscope once under `timeout 60` (three times that in the
# sanitized rerun: hang_s, tests/lib.sh) and a 1 GiB address-space
# cap, and must give its exit code (NAME.rc) and messages (NAME.err): each
# pattern matches a line of stderr, and each line of stderr matches a
# pattern.  No case may crash (exit >= 128), hang or run out of memory.
# When the exit code is 0 or 1, the json, chrome and speedscope exports of
# the input must be valid JSON as well.
#
# `bash tests/run_bad.sh` runs the corpus alone (about 20 s), also against
# another build: NPUSCOPE=build-asan/npuscope bash tests/run_bad.sh

if [ -z "${NS_LIB:-}" ]; then # run alone, not sourced by run.sh
    cd "$(dirname "$0")/.." || exit 2
    # shellcheck source=tests/lib.sh
    . tests/lib.sh
    bad_alone=1
fi

sh tests/bad/gen.sh "$BADGEN" || bad "tests/bad/gen.sh $BADGEN failed"
# ASan reserves terabytes of address space and refuses to start under
# `ulimit -v`: an ASan build (NPUSCOPE=build-asan/npuscope) runs uncapped.
{ (ulimit -v "$BAD_VMEM_KB" && "$NPUSCOPE" --version) >/dev/null 2>&1; } 2>/dev/null || BAD_VMEM_KB=unlimited

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
    [ "$(timeout "$(hang_s 120)" "$NPUSCOPE" top -q --format json "$BADGEN/reports-100000.in" | jq .reports)" -eq 100000 ]
}
check "bad: 100,000 reports in one file, counted exactly" hundred_k
deep_text() { # a tree 100,000 levels deep prints a line a row, not a square of blanks
    "$NPUSCOPE" tree -q "$BADGEN/mlir-json-deep-100000.in" >"$TMP/deep.txt" || return 1
    [ "$(wc -c <"$TMP/deep.txt")" -lt 40000000 ] || { wc -c <"$TMP/deep.txt"; return 1; }
    grep -q '^ .*  P100$' "$TMP/deep.txt" && grep -q '\[level 99999\] P99999$' "$TMP/deep.txt"
}
check "bad: a 100,000-level tree as text: indented to level 100, deeper rows say their level" deep_text
long_two() { [ "$("$NPUSCOPE" tree -q --format json "$BADGEN/long-line.in" | jq '.reports | length')" = 2 ]; }
check "bad: 1 MB line between two reports, both read" long_two
# (jq stops at depth 256, so count by text: every row once, fully closed)
deep_json() {
    "$NPUSCOPE" tree -q --format json "$BADGEN/deep-10000.in" >"$TMP/deep.json" || return 1
    [ "$(grep -o '"name":"P[0-9]*"' "$TMP/deep.json" | sort -u | wc -l)" -eq 10000 ] &&
    [ "$(grep -o ']}' "$TMP/deep.json" | wc -l)" -eq 10001 ] # nodes and root (the document ends in "environment":{})
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

if [ -n "${bad_alone:-}" ]; then finish; fi
