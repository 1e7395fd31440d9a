# shellcheck shell=bash
# run_browser.sh -- `npuscope report`: the page's structure with the binary
# alone, then the page itself in a real headless Chromium; sourced by
# tests/run.sh (uses check/ok/bad/tap_tally, $NPUSCOPE, $TMP, $FIX from
# tests/lib.sh).
#
#   1. structure: one self-contained file (a CSP that forbids every request,
#      no URL but the SVG namespace, exactly two scripts), the data block is
#      JSON with no '<', hostile pass names never become markup, the same
#      input gives the same bytes, --svg-dir and -o - work, and every error
#      has its exit code; the same pages under ASan+UBSan
#   2. the browser: tests/browser/*.test.mjs under node's test runner, with
#      Debian's chromium driven by playwright-core (installed with `npm ci`
#      into tests/browser/node_modules when missing); each test counts here,
#      or, with NS_LOAD set (tests/run.sh's full tier), in the load check
#      (tests/run_load.sh: three times beside busy loops) instead.
#      Skipped, with a line that says so, when chromium cannot be
#      installed, and in the fast tier (make test: TIER=fast).

RB=$TMP/report
mkdir -p "$RB"

# ---------------------------------------------------------------- structure
# the data block of a page, on standard output
rb_data() { awk '/<script type="application\/json" id="npuscope-data">/ { on = 1 }
                 on { print } /<\/script>/ && on { exit }' "$1" |
            sed 's/^<script type="application\/json" id="npuscope-data">//; s/<\/script>$//'; }

rb_page() {
    "$NPUSCOPE" report -o "$RB/npuw.html" --npuw "$FIX/constructed-npuw-7.log" 2>"$RB/err" || return 1
    [ "$(cat "$RB/err")" = "npuscope: wrote $RB/npuw.html" ] || { cat "$RB/err"; return 1; }
    head -n 1 "$RB/npuw.html" | grep -qx '<!DOCTYPE html>' || return 1
    grep -qF "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">" "$RB/npuw.html" ||
        { echo "no CSP"; return 1; }
    # the data block, the findings document (advise --format json) and the script
    [ "$(grep -o '<script' "$RB/npuw.html" | wc -l)" -eq 3 ] || { echo "not three scripts"; return 1; }
    # nothing to fetch: no src, no link but in-page anchors, one URL (the SVG namespace)
    grep -Eq '<(img|link|iframe|object|embed)|src=|url\(' "$RB/npuw.html" && { echo "something to fetch"; return 1; }
    [ -z "$(grep -o 'href="[^#"][^"]*"' "$RB/npuw.html")" ] || { echo "a link out"; return 1; }
    [ "$(grep -o 'https\?://[^"]*' "$RB/npuw.html" | sort -u)" = "http://www.w3.org/2000/svg" ] || return 1
    rb_data "$RB/npuw.html" >"$RB/npuw.json"
    jqt '.format == "npuscope-report" and .version == 2 and (.reports.label | length) == 7 and
           ([.reports.label[] | $s[.]] == ["generate/1","generate/2","generate/3","prefill/1","prefill/2","prefill/3","lm_head"])
           and (.shapes | length) <= 7' --argjson s "$(jq -c .strings "$RB/npuw.json")" \
        "$RB/npuw.json" || { echo "data block"; return 1; }
    grep -q 'id="heaviest-passes"' "$RB/npuw.html" || return 1
    # decoded (tests/browser/data.mjs), the trees are the tree JSON of the
    # same input, value for value (less the rows' line numbers)
    command -v node >/dev/null 2>&1 || { echo "(node missing: the decoded trees are not compared)"; return 0; }
    "$NPUSCOPE" tree --npuw --format json "$FIX/constructed-npuw-7.log" | rb_roots >"$RB/want"
    node tests/browser/data.mjs "$RB/npuw.html" | rb_roots | cmp -s - "$RB/want" || { echo "trees differ from tree --format json"; return 1; }
}
# [root of each report] without the rows' line numbers, as jq prints it
rb_roots() { jq -c '[.reports[].root] | walk(if type == "object" then del(.line) else . end)'; }
check "report: one self-contained page, CSP, no URL, the data block decodes to the tree JSON" rb_page

# The data block of a sweep: compact (a string table, shapes shared by
# every report of the same passes, scaled integers), and exact: decoded, each
# embedded run's trees are its run.json's.
rb_sweep_data() {
    # two configurations of five runs, each run one report of the same passes
    "$NPUSCOPE" report -q -o "$RB/runs.html" tests/data/pr/runs 2>/dev/null || return 1
    rb_data "$RB/runs.html" >"$RB/runs.json"
    jqt '(.configs.mode | length) == 2 and .configs.n == [5, 5] and .logs == 0 and .primary == 2
         and .runs.roles == [1, 1, 2, 4, 2, 4] and (.runs.count | add) == 6 and (.shapes | length) == 1' \
        "$RB/runs.json" || { echo "configs"; return 1; }
    command -v node >/dev/null 2>&1 || return 0
    local i id first count
    node tests/browser/data.mjs "$RB/runs.html" >"$RB/runs.dec"
    for i in $(jq '.runs.config | keys[]' "$RB/runs.json"); do
        id=$(jq -r --argjson i "$i" '.strings[.runs.id[$i]]' "$RB/runs.json")
        first=$(jq --argjson i "$i" '.runs.first[$i]' "$RB/runs.json")
        count=$(jq --argjson i "$i" '.runs.count[$i]' "$RB/runs.json")
        [ "$count" -gt 0 ] || continue
        jq -c --argjson f "$first" --argjson n "$count" '{reports: .reports[$f:$f+$n]}' "$RB/runs.dec" | rb_roots >"$RB/got"
        jq -c '{reports: .reports}' "tests/data/pr/runs/$id/run.json" | rb_roots | cmp -s - "$RB/got" ||
            { echo "run $id: the embedded trees differ from its run.json"; return 1; }
        [ -s "$RB/got" ] || return 1
    done
}
check "report: a sweep's data block is compact and exact (decoded trees = run.json)" rb_sweep_data

rb_hostile() {
    sed -e 's/Canonicalizer$/<script>alert(1)<\/script>/' \
        -e 's/  LoopInvariantCodeMotion$/  "><img src=x onerror=alert(2)>/' \
        -e 's/  Inliner$/  <\/script>/' "$FIX/mlir22-tree-st.txt" >"$RB/hostile.log"
    "$NPUSCOPE" report -q -o "$RB/hostile.html" "$RB/hostile.log" 2>/dev/null || return 1
    grep -q '<img\|<script>alert' "$RB/hostile.html" && { echo "markup from the log"; return 1; }
    [ "$(grep -o '</script>' "$RB/hostile.html" | wc -l)" -eq 3 ] || { echo "a fourth </script>"; return 1; }
    rb_data "$RB/hostile.html" | grep -q '<' && { echo "'<' in the data block"; return 1; }
    rb_data "$RB/hostile.html" | jqt '.strings | index("<script>alert(1)</script>") != null' &&
    grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' "$RB/hostile.html"
}
check "report: pass names with <script>, </script>, <img onerror> stay text (escaped, data block without '<')" rb_hostile

# A right-to-left override in the heaviest pass's name reversed the rest of
# the key-findings sentence, numbers included: outside the data block the
# page holds no bidi or control character, only its visible escape.
rb_bidi() {
    sed -e 's/  Canonicalizer$/  Canon\xe2\x80\xaeicalizer\x07/' "$FIX/mlir22-tree-st.txt" >"$RB/bidi.log"
    "$NPUSCOPE" report -q -o "$RB/bidi.html" "$RB/bidi.log" || return 1
    # everything but the data block and the findings document (JSON
    # documents between their tags)
    awk '/<script type="application\/json" id="npuscope-(data|findings)">/ { skip = 1 } !skip { print }
         skip && /<\/script>/ { skip = 0 }' "$RB/bidi.html" >"$RB/bidi.rest"
    [ -s "$RB/bidi.rest" ] || return 1
    if grep -q $'\xe2\x80\xae\|\x07' "$RB/bidi.rest"; then echo "a raw control outside the data block"; return 1; fi
    grep -q 'heaviest pass is Canon\\u202Eicalizer\\x07: ' "$RB/bidi.rest" ||
        { grep -o 'heaviest pass[^<]*' "$RB/bidi.rest"; return 1; }
    # the data block keeps the name exactly (the explorer escapes it for display)
    rb_data "$RB/bidi.html" | jqt '.strings | index("Canon\u202eicalizer\u0007") != null'
}
check "report: a U+202E override or BEL in a name is shown escaped in findings and tables, kept exact in the data" rb_bidi

rb_same() {
    "$NPUSCOPE" report -q -o - tests/runs "$FIX/noisy-build.log" >"$RB/same1" 2>/dev/null &&
    "$NPUSCOPE" report -q -o - tests/runs "$FIX/noisy-build.log" >"$RB/same2" 2>/dev/null &&
    [ -s "$RB/same1" ] && cmp "$RB/same1" "$RB/same2" &&
    grep -q '<table id="runs-table">' "$RB/same1" &&
    [ "$(grep -c '^<tr class="\(cold\|warm\)">' "$RB/same1")" -eq 8 ] &&
    rb_data "$RB/same1" | jqt '(.reports.label | length) == 15 and .logs == 15 and (.configs.mode | length) == 8'
}
check "report: the same input gives the same bytes (-o -: a log and run folders)" rb_same

rb_svg() {
    rm -rf "$RB/svg"
    "$NPUSCOPE" report -q -o "$RB/svg.html" --svg-dir "$RB/svg" "$FIX/noisy-build.log" 2>/dev/null || return 1
    [ "$(ls "$RB/svg")" = "heaviest-passes.svg" ] || { ls "$RB/svg"; return 1; }
    head -c 60 "$RB/svg/heaviest-passes.svg" | grep -q '^<?xml version="1.0" encoding="UTF-8"?>' &&
    tail -n 1 "$RB/svg/heaviest-passes.svg" | grep -qx '</svg>' &&
    # the same drawing as on the page
    tail -n +2 "$RB/svg/heaviest-passes.svg" >"$RB/svg.want" &&
    awk '/<svg /,/<\/svg>/' "$RB/svg.html" | sed 's/^<div class="svg">//' | cmp -s - "$RB/svg.want"
}
check "report --svg-dir: each figure also as a standalone .svg" rb_svg

rb_errors() {
    local rc
    : >"$RB/empty.log"
    "$NPUSCOPE" report -o "$RB/x.html" "$RB/empty.log" 2>"$RB/err"; rc=$?
    [ $rc -eq 1 ] && grep -q 'no timing report or run found' "$RB/err" && [ ! -e "$RB/x.html" ] || { echo "empty: $rc"; return 1; }
    "$NPUSCOPE" report -o "$RB/x.html" --a precision=int8 tests/runs 2>"$RB/err"; rc=$?
    [ $rc -eq 2 ] && grep -q -- '--a and --b go together' "$RB/err" || { echo "--a alone: $rc"; return 1; }
    "$NPUSCOPE" report -o "$RB/x.html" --a precision=int8 --b precision=fp16 "$FIX/mlir22-tree-st.txt" 2>"$RB/err"; rc=$?
    [ $rc -eq 2 ] && grep -q 'select runs' "$RB/err" || { echo "--a on a log: $rc"; return 1; }
    "$NPUSCOPE" report -o "$RB/x.html" --stages "$RB/no-such.stages" "$FIX/mlir22-tree-st.txt" 2>"$RB/err"; rc=$?
    [ $rc -eq 2 ] || { echo "--stages missing file: $rc"; return 1; }
    "$NPUSCOPE" report -o "$RB/no/such/dir/x.html" "$FIX/mlir22-tree-st.txt" 2>"$RB/err"; rc=$?
    [ $rc -eq 2 ] && grep -q 'No such file or directory' "$RB/err" || { echo "unwritable: $rc"; return 1; }
    "$NPUSCOPE" report -o "$RB/x.html" --baseline precision "$FIX/mlir22-tree-st.txt" 2>"$RB/err"; rc=$?
    [ $rc -eq 2 ] || { echo "--baseline without =: $rc"; return 1; }
    "$NPUSCOPE" report -o "$RB/x.html" "$RB/no-such.log" 2>"$RB/err"; rc=$?
    [ $rc -eq 2 ] || { echo "missing input: $rc"; return 1; }
    "$NPUSCOPE" report --help | grep -q '^usage: npuscope report'
}
check "report: exit codes 1 (nothing found) and 2 (usage, unreadable input, unwritable output)" rb_errors

# (the report under the ASan+UBSan build: tests/run_builds.sh, section 7)

# ---------------------------------------------------------------- browser
# What the browser tests need: node and npm (Debian's nodejs, npm) and
# chromium; as root, whatever is missing is installed.  Only a chromium
# that cannot be had skips them.
# (not in the inner run against a sanitized build, section 7 of run.sh;
# not in the fast tier, which installs nothing and runs no browser)
if [ -z "${NPUSCOPE_INNER:-}" ] && [ "${TIER:-full}" != full ]; then
    skip "browser tests in Chromium (tests/browser; make check)"
elif [ -z "${NPUSCOPE_INNER:-}" ]; then
    rb_have_chromium() { [ -x "${CHROMIUM:-/usr/bin/chromium}" ]; }
    rb_install() {
        [ "$(id -u)" -eq 0 ] || return 1
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >"$RB/apt.log" 2>&1 ||
            { apt-get update -qq >/dev/null 2>&1 &&
              DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >"$RB/apt.log" 2>&1; }
    }
    command -v node >/dev/null 2>&1 || rb_install nodejs
    command -v npm >/dev/null 2>&1 || rb_install npm
    rb_have_chromium || rb_install chromium

    if ! rb_have_chromium; then
        skip "browser tests (chromium cannot be installed here: $(tail -n 1 "$RB/apt.log" 2>/dev/null || echo 'not root'))"
    else
        rb_npm() {
            # every devDependency of package.json (playwright-core, speedscope)
            [ -f tests/browser/node_modules/playwright-core/package.json ] &&
                [ -f tests/browser/node_modules/speedscope/package.json ] && return 0
            (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error) >"$RB/npm.log" 2>&1 ||
                { cat "$RB/npm.log"; return 1; }
        }
        check "browser: npm ci (playwright-core, speedscope) into tests/browser/node_modules" rb_npm
        # each top-level TAP result counts (tap_tally, tests/lib.sh); the
        # runner's exit code and plan say whether it ran to the end.  They
        # run in tests/run_load.sh, three times under CPU load, which
        # run.sh sources next (RB_READY says they can)
        if [ -f tests/browser/node_modules/playwright-core/package.json ]; then RB_READY=1; fi
        if [ -z "${NS_LOAD:-}" ] && [ -n "${RB_READY:-}" ]; then
            NPUSCOPE=$(cd "$(dirname "$NPUSCOPE")" && pwd)/$(basename "$NPUSCOPE") NS_OUT="$RB" \
                tap_tally browser 900 sh tests/browser/run.sh
        fi
    fi
fi
