#!/usr/bin/env bash
# selftest.sh -- the checks, checked.  A check that passes on empty or
# wrong output proves nothing, and several of the suite's once did: jq 1.6's
# -e passes on empty input, `grep -qv ... && fail` passes on an empty file,
# `any | not` holds of zero reports, a runner's exit code went unread.  So
# each check of tests/lib.sh that could be fooled is fed exactly that --
# a fake npuscope that prints nothing or wrong JSON, a TAP runner killed
# mid-way, a unit program that crashes after its summary, a golden case
# without its .desc, a source tree with an upward include -- and must
# FAIL; and fed right output it must pass, since a check that always fails
# proves nothing either.
#
# Run by tests/run.sh in both tiers (its counts join the suite's); alone:
#   bash tests/selftest.sh
# It needs the build (npuscope, jsoncheck) for the right-output halves, cc
# and nm for the layer checker's trees.  Nothing here is timed or random.
# The last line is "N passed, N failed".
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

REAL=$(cd "$(dirname "$NPUSCOPE")" && pwd)/$(basename "$NPUSCOPE")
ST=$TMP/selftest
mkdir -p "$ST"
GOOD=$FIX/mlir22-tree-st.txt # a fixture every check passes on

# probe FUNCTION ARG...: run a check, or a tally, in a subshell with
# counters of its own; sets probe_rc (its status; 99 when it died),
# probe_pass, probe_fail and probe_skips (what it counted)
probe() {
    rm -f "$ST/probe.res"
    (
        pass=0 fail=0 skips=0
        "$@"
        echo "$? $pass $fail $skips" >"$ST/probe.res"
    ) >"$ST/probe.out" 2>&1 </dev/null
    [ -s "$ST/probe.res" ] || echo "99 0 0 0" >"$ST/probe.res"
    read -r probe_rc probe_pass probe_fail probe_skips <"$ST/probe.res"
}
# must_fail WHAT FUNCTION ARG...: it returns non-zero or counts a failure
must_fail() {
    local what=$1; shift
    probe "$@"
    if [ "$probe_rc" -ne 0 ] || [ "$probe_fail" -gt 0 ]; then ok "fails: $what"
    else bad "passes, and must fail: $what"; sed 's/^/     /' "$ST/probe.out" | head -20; fi
}
# must_pass WHAT FUNCTION ARG...: it returns 0 and counts no failure
must_pass() {
    local what=$1; shift
    probe "$@"
    if [ "$probe_rc" -eq 0 ] && [ "$probe_fail" -eq 0 ]; then ok "passes: $what"
    else bad "fails, and must pass: $what"; sed 's/^/     /' "$ST/probe.out" | head -20; fi
}
# counted WHAT PASS SKIPS: the last probe counted exactly PASS passes and SKIPS skips
counted() {
    if [ "$probe_pass" -eq "$2" ] && [ "$probe_skips" -eq "$3" ]; then ok "counts: $1"
    else bad "counts $probe_pass passed and $probe_skips skipped, not $2 and $3: $1"; fi
}

# fake NAME LINE...: an executable shell script $ST/NAME of these lines
fake() {
    local name=$1; shift
    { echo '#!/bin/sh'; printf '%s\n' "$@"; } >"$ST/$name"
    chmod +x "$ST/$name"
}
fake silent 'exit 0'                                    # prints nothing, "succeeds"
fake silent1 'exit 1'                                   # prints nothing, "nothing found"
fake noreports 'echo "{\"format\":\"npuscope-tree\",\"version\":1,\"reports\":[]}"'
fake noreports1 'echo "{\"format\":\"npuscope-tree\",\"version\":1,\"reports\":[]}"; exit 1'
fake dupkeys 'echo "{\"rows\": [], \"rows\": []}"'       # jq takes it, jansson does not
fake nan 'echo "{\"rows\": [{\"share\": NaN}]}"'
# the real binary, but one format prints nothing, or a line too many
fake nofolded 'for a do [ "$a" = folded ] && exit 0; done' "exec \"$REAL\" \"\$@\""
fake badfolded 'for a do [ "$a" = folded ] && { "'"$REAL"'" "$@"; echo "no count here"; exit 0; }; done' \
    "exec \"$REAL\" \"\$@\""
fake nojson 'for a do [ "$a" = json ] && exit 0; done' "exec \"$REAL\" \"\$@\""
# the real binary, but its chrome trace has no events
fake noevents 'for a do [ "$a" = chrome ] && { echo "{\"traceEvents\": []}"; exit 0; }; done' "exec \"$REAL\" \"\$@\""
# the real binary, but its speedscope export is cut short (not JSON)
fake badspeedscope 'for a do [ "$a" = speedscope ] && { "'"$REAL"'" "$@" | head -c 40; exit 0; }; done' "exec \"$REAL\" \"\$@\""
# the real binary, but its tree JSON says a report is incomplete
fake incomplete 'for a do [ "$a" = json ] && { "'"$REAL"'" "$@" | sed "s/\"complete\":true/\"complete\":false/"; exit 0; }; done' \
    "exec \"$REAL\" \"\$@\""
# the real binary with --npu dropped: an --npu that attaches nothing
fake nonpu 'for a do shift; if [ "$a" = --npu ]; then set -- "$@" --no-npu; else set -- "$@" "$a"; fi; done' "exec \"$REAL\" \"\$@\""

# ---------------------------------------------------------------- jqt
st_jq() { printf '%s' "$1" | jqt "$2"; }
must_fail "jqt on empty input (jq -e passes it)" st_jq '' 'true'
must_fail "jqt on false" st_jq '{}' '.x == 1'
must_fail "jqt on a value that is not true" st_jq '1' '.'
must_fail "jqt on a parse error" st_jq 'nope' '.'
must_pass "jqt on true" st_jq '{"x": 1}' '.x == 1'

# ---------------------------------------------------------------- check
# shellcheck disable=SC2154 # unset on purpose
st_unbound() { echo "$st_no_such_variable"; }
must_fail "check: a check that trips set -u fails alone" check "unbound" st_unbound
must_pass "check: a check that holds" check "true" true

# ---------------------------------------------------------------- exports
NPUSCOPE=$ST/nofolded must_fail "exports: folded output empty (grep -qv passed it)" exports "$GOOD"
NPUSCOPE=$ST/badfolded must_fail "exports: a folded line without a count" exports "$GOOD"
NPUSCOPE=$ST/silent must_fail "exports: npuscope prints nothing and exits 0" exports "$GOOD"
NPUSCOPE=$ST/noreports must_fail "exports: a tree JSON without reports" exports "$GOOD"
NPUSCOPE=$ST/incomplete must_fail "exports: a report the tree JSON calls incomplete" exports "$GOOD"
NPUSCOPE=$ST/noevents must_fail "exports: a chrome trace without events (three documents, one jq)" exports "$GOOD"
NPUSCOPE=$ST/badspeedscope must_fail "exports: a speedscope export that is not JSON" exports "$GOOD"
must_pass "exports of a fixture" exports "$GOOD"
st_folded() { printf '%s' "$1" >"$ST/folded"; folded_shape "$ST/folded"; }
must_fail "folded_shape: an empty file" st_folded ''
must_fail "folded_shape: a count alone, without a stack" st_folded $' 12\n'
must_pass "folded_shape: stacks with counts" st_folded $'#1;Parser 37900\n#1;Inliner;(A) CallGraph 1100\n'

# ---------------------------------------------------------------- strict_json
NPUSCOPE=$ST/silent1 must_fail "strict_json: exit 1 and no output (it passed)" strict_json tree -q --format json "$GOOD"
NPUSCOPE=$ST/silent1 must_fail "strict_json -x 1: exit 1 as wanted, but no output" strict_json -x 1 tree -q --format json "$GOOD"
NPUSCOPE=$ST/silent must_fail "strict_json: exit 0 and no output" strict_json tree -q --format json "$GOOD"
NPUSCOPE=$ST/dupkeys must_fail "strict_json: duplicate keys" strict_json top -q --format json "$GOOD"
NPUSCOPE=$ST/nan must_fail "strict_json: NaN" strict_json top -q --format json "$GOOD"
NPUSCOPE=$ST/noreports must_fail "strict_json -x 1: exit 0 where 1 is wanted" strict_json -x 1 tree -q --format json tests/runs
NPUSCOPE=$ST/noreports1 must_pass "strict_json -x 1: exit 1 with a document" strict_json -x 1 tree -q --format json tests/runs
must_pass "strict_json of a fixture's tree JSON" strict_json tree -q --format json "$GOOD"
must_pass "strict_json -x 1 of run folders without reports" strict_json -x 1 tree -q --format json tests/runs

# ---------------------------------------------------------------- npu_no_leak
NPUSCOPE=$ST/noreports must_fail "npu_no_leak: zero reports (any | not held)" npu_no_leak
NPUSCOPE=$ST/silent must_fail "npu_no_leak: no output" npu_no_leak
NPUSCOPE=$ST/nonpu must_fail "npu_no_leak: an --npu that attaches nothing" npu_no_leak
must_pass "npu_no_leak" npu_no_leak

# ---------------------------------------------------------------- tap_tally
# the browser tests' tally, fed runners that stop early or skip
st_tap() { # st_tap SECONDS EXIT LINE...: a runner that prints LINEs, then exits EXIT (or sleeps)
    local secs=$1 rc=$2; shift 2
    printf '%s\n' "$@" >"$ST/tap.in"
    if [ "$rc" = sleep ]; then tap_tally tap "$secs" sh -c 'cat "$1"; sleep 30' sh "$ST/tap.in"
    else tap_tally tap "$secs" sh -c 'cat "$1"; exit "$2"' sh "$ST/tap.in" "$rc"; fi
}
must_fail "tap_tally: the runner killed by its timeout after two ok (passed before)" \
    st_tap 2 sleep 'TAP version 13' 'ok 1 - a' 'ok 2 - b'
counted "tap_tally: the two that finished still pass" 2 0
must_fail "tap_tally: the runner exits 1 after two ok" st_tap 10 1 'ok 1 - a' 'ok 2 - b'
must_fail "tap_tally: a plan of 3 and 2 results" st_tap 10 0 'ok 1 - a' 'ok 2 - b' '1..3'
must_fail "tap_tally: no plan" st_tap 10 0 'ok 1 - a'
must_fail "tap_tally: no output at all" st_tap 10 0
must_fail "tap_tally: not ok" st_tap 10 1 'not ok 1 - a' '1..1'
must_fail "tap_tally: every test skipped" st_tap 10 0 'ok 1 - a # SKIP no chromium' '1..1'
counted "tap_tally: a skip is not a pass" 0 1
must_pass "tap_tally: one ok, one skipped, subtests ignored" \
    st_tap 10 0 '    ok 1 - sub' '    1..1' 'ok 1 - a' 'ok 2 - b # SKIP not here' 'not ok 3 - c # TODO later' '1..3'
counted "tap_tally: one pass, two skips (SKIP, TODO)" 1 2

# ---------------------------------------------------------------- unit programs
mkdir -p "$ST/nobuild"
must_fail "units_all: no unit program built (every one is a failure)" units_all "$ST/nobuild"
[ "$probe_fail" -eq "$(find tests -maxdepth 1 -name 'unit*.c' | wc -l)" ] &&
    ok "counts: units_all: one failure per unbuilt tests/unit*.c" ||
    bad "units_all counted $probe_fail failures for $(find tests -maxdepth 1 -name 'unit*.c' | wc -l) unbuilt programs"
must_fail "units_pass (ASan, no-SSE2 builds): no unit program built" units_pass "$ST/nobuild"
fake unit_silent 'exit 0'
fake unit_crash 'echo "unit_x: 3 passed, 0 failed"' 'exit 134'
fake unit_none 'echo "unit_x: 0 passed, 0 failed"'
fake unit_failed 'echo "FAIL tests/unit_x.c:1: 1 == 2"' 'echo "unit_x: 2 passed, 1 failed"' 'exit 1'
fake unit_good 'echo "unit_x: 3 passed, 0 failed"'
must_fail "tally: a program that prints nothing and exits 0" tally unit_silent "$ST/unit_silent"
must_fail "tally: a crash after the summary line (its exit code was never read)" tally unit_crash "$ST/unit_crash"
must_fail "tally: a program that ran no check" tally unit_none "$ST/unit_none"
must_fail "tally: a program that counts a failure" tally unit_failed "$ST/unit_failed"
must_pass "tally: a program whose checks hold" tally unit_good "$ST/unit_good"
counted "tally: its 3 checks join ours" 3 0
# the same for a whole suite's summary (the sanitized inner run, this file)
must_fail "tally: a suite that ran nothing" tally suite sh -c 'echo "0 passed, 0 failed"'
must_fail "tally: a suite that exits 1 after 0 failed" tally suite sh -c 'echo "5 passed, 0 failed"; exit 1'
must_pass "tally: a suite's summary" tally suite sh -c 'echo "skipped: x"; echo "5 passed, 0 failed"'

# ---------------------------------------------------------------- golden cases
mkdir -p "$ST/cases"
st_case() { # st_case DESC...: the golden case version, with DESC as its .desc lines (none: no .desc)
    rm -f "$ST"/cases/*
    printf '%s\n' --version >"$ST/cases/v.args"
    "$REAL" --version >"$ST/cases/v.out" 2>"$ST/cases/v.err"; echo $? >"$ST/cases/v.rc"
    [ $# -eq 0 ] || printf '%s\n' "$@" >"$ST/cases/v.desc"
}
st_case; must_fail "golden: a case without .desc" golden "$ST/cases/v"
st_case ''; must_fail "golden: an empty .desc" golden "$ST/cases/v"
st_case 'one line' 'and another'; must_fail "golden: a .desc of two lines" golden "$ST/cases/v"
st_case '--version prints the version'
must_pass "golden: a case with its .desc" golden "$ST/cases/v"
echo 'npuscope 0.0.0' >"$ST/cases/v.out"
must_fail "golden: output that differs" golden "$ST/cases/v"
st_case '--version prints the version'; echo 'a warning' >"$ST/cases/v.err"
must_fail "golden: messages that differ" golden "$ST/cases/v"
st_case '--version prints the version'; echo 2 >"$ST/cases/v.rc"
must_fail "golden: an exit code that differs" golden "$ST/cases/v"
st_case '--version prints the version'
must_pass "golden_layout: a whole case" golden_layout "$ST/cases"
rm "$ST/cases/v.desc"
must_fail "golden_layout: a case without .desc" golden_layout "$ST/cases"
st_case '--version prints the version'; echo x >"$ST/cases/w.out"
must_fail "golden_layout: an .out without its case" golden_layout "$ST/cases"

# ---------------------------------------------------------------- bad input
# a case of the corpus whose input has a report: its exports must be documents
mkdir -p "$ST/bad"
cp "$GOOD" "$ST/bad/x.in"; echo 0 >"$ST/bad/x.rc"; : >"$ST/bad/x.err"; echo 'a good report' >"$ST/bad/x.desc"
BAD=$ST/bad NPUSCOPE=$ST/nojson must_fail "bad_case: exit 0 and an empty --format json (it passed)" bad_case x
BAD=$ST/bad NPUSCOPE=$ST/badspeedscope must_fail "bad_case: a speedscope export that is not JSON (the three are checked at once)" bad_case x
BAD=$ST/bad must_pass "bad_case: a report and its exports" bad_case x

# ---------------------------------------------------------------- layer checker
# tools/layers.sh on small trees of two layers, base below render: clean,
# then with an upward include, an upward call declared by hand, and a loop
# between two files of one layer; and on a copy of the real tree with an
# upward include planted.
st_tree() { # st_tree DIR: base/a.c, render/b.c (which uses base), built
    rm -rf "$1"; mkdir -p "$1/tools" "$1/src/base" "$1/src/render" "$1/build/base" "$1/build/render"
    cp tools/layers.sh "$1/tools/"
    printf 'base\nrender\n' >"$1/src/LAYERS"
    echo 'int ns_a(void);' >"$1/src/base/a.h"
    printf '#include "a.h"\nint ns_a(void) { return 1; }\n' >"$1/src/base/a.c"
    echo 'int ns_b(void);' >"$1/src/render/b.h"
    printf '#include "base/a.h"\n#include "b.h"\nint ns_b(void) { return ns_a(); }\n' >"$1/src/render/b.c"
}
st_build() { # st_build DIR: compile every .c of DIR/src to DIR/build
    local c
    for c in "$1"/src/*/*.c; do
        c=${c#"$1"/src/}
        cc -c -I"$1/src" -o "$1/build/${c%.c}.o" "$1/src/$c" || return 1
    done
}
st_layers() { (cd "$1" && bash tools/layers.sh "${2:-build}") >"$ST/layers.out" 2>&1; }
# st_offence DIR PATTERN: layers.sh exits 1 and names the offence
st_offence() {
    st_layers "$1" "${3:-}"
    local rc=$?
    cat "$ST/layers.out"
    [ "$rc" -eq 1 ] && grep -q -- "$2" "$ST/layers.out" && grep -q '^layers: [1-9][0-9]* offences$' "$ST/layers.out"
}
st_clean() { st_layers "$1" && grep -qx 'layers: ok' "$ST/layers.out"; }
if command -v cc >/dev/null && command -v nm >/dev/null; then
    L=$ST/layers
    st_tree "$L" && st_build "$L"
    must_pass "layers.sh: a tree whose dependencies point down" st_clean "$L"
    st_tree "$L"; printf '#include "render/b.h"\n' >>"$L/src/base/a.c"; st_build "$L"
    must_pass "layers.sh fails on an upward include, naming file:line" \
        st_offence "$L" 'src/base/a.c:3: includes render/b.h: base may not use render'
    st_tree "$L"; printf 'int ns_b(void);\nint ns_a2(void) { return ns_b(); }\n' >>"$L/src/base/a.c"; st_build "$L"
    must_pass "layers.sh fails on an upward call declared by hand" \
        st_offence "$L" 'src/base/a.c: calls ns_b (src/render/b.c): base may not use render'
    st_tree "$L"
    printf '#include "b.h"\nint ns_c(void) { return ns_b(); }\n' >"$L/src/render/c.c"
    printf 'int ns_c(void);\nint ns_b2(void) { return ns_c(); }\n' >>"$L/src/render/b.c"
    st_build "$L"
    must_pass "layers.sh fails on a loop between two files of one layer" st_offence "$L" 'call each other in a loop'
    # a quiet layer that prints, a call that is the platform layer's
    # (tools/layers.sh reads both from one nm of every object)
    st_tree "$L"; printf 'base quiet\nrender\n' >"$L/src/LAYERS"
    printf '#include <stdio.h>\nvoid ns_a3(void) { puts("x"); }\n' >>"$L/src/base/a.c"; st_build "$L"
    must_pass "layers.sh fails on a quiet layer that prints" \
        st_offence "$L" 'src/base/a.c: uses puts: the quiet layer base prints nothing'
    st_tree "$L"; printf '#include <unistd.h>\nint ns_b3(void) { return (int)fork(); }\n' >>"$L/src/render/b.c"; st_build "$L"
    must_pass "layers.sh fails on a process call outside the platform layer" \
        st_offence "$L" 'src/render/b.c: calls fork: what differs between POSIX and Windows'
    st_tree "$L"; printf 'base\nplatform\nrender\n' >"$L/src/LAYERS"; mkdir -p "$L/src/platform" "$L/build/platform"
    printf '#include <unistd.h>\nint ns_p(void) { return (int)fork(); }\n' >"$L/src/platform/p.c"; st_build "$L"
    must_pass "layers.sh: the platform layer may call fork" st_clean "$L"
    # size: a file over 800 lines fails, one the allowlist names passes
    st_tree "$L"; seq 801 | sed 's|.*|/* & */|' >>"$L/src/render/b.c"; st_build "$L"
    must_pass "layers.sh fails on a file over 800 lines" \
        st_offence "$L" 'src/render/b.c:804: 804 lines: more than 800'
    st_tree "$L"; seq 900 | sed 's|.*|/* & */|' >"$L/src/render/svg.c"; st_build "$L"
    must_pass "layers.sh fails on a file over 800 lines the allowlist does not name" \
        st_offence "$L" 'src/render/svg.c:900: 900 lines: more than 800'
    LAYERS_TO_BE_SPLIT="src/render/x.c src/render/svg.c" \
        must_pass "layers.sh lets a file over 800 lines through while it is to be split this round" st_clean "$L"
    # the real tree, copied, with an upward include planted in its lowest layer
    R=$ST/real
    mkdir -p "$R" && cp -r tools src "$R/"
    low=$(grep -v '^[[:space:]]*\(#\|$\)' src/LAYERS | head -n 1 | awk '{ print $1 }')
    high=$(grep -v '^[[:space:]]*\(#\|$\)' src/LAYERS | tail -n 1 | awk '{ print $1 }')
    f=$(find "$R/src/$low" -name '*.c' | sort | head -n 1)
    h=$(cd src && find "$high" -name '*.h' | sort | head -n 1)
    if [ -n "$f" ] && [ -n "$h" ] && [ -d "${BUILD:-build}" ]; then
        echo "#include \"$h\"" >>"$f"
        must_pass "layers.sh on a copy of src/ fails on a planted include of $h in ${f#"$R"/}" \
            st_offence "$R" "${f#"$R"/}:$(wc -l <"$f"): includes $h: $low may not use $high" "$(pwd)/${BUILD:-build}"
    else
        bad "layers.sh on a copy of src/: no .c in src/$low, no header in src/$high, or no ${BUILD:-build}/"
    fi
else
    skip "layers.sh on constructed trees (cc or nm is not installed)"
fi

finish
