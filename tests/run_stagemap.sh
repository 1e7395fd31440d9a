# shellcheck shell=bash
# run_stagemap.sh -- the vpux stage map against the NPU compiler's own pass
# order.  Sourced by tests/run.sh (uses its check/ok/bad, $NPUSCOPE, $TMP,
# $FIX), or run alone: `bash tests/run_stagemap.sh` prints "N passed, N
# failed" (and, alone, the pass counts per list).
#
# tests/stagemap/vpux-*.passes are lists made by tools/vpux-pipeline.py from
# snapshots of the compiler's source (each names its repository and commit);
# tests/stagemap/intent.txt says, per pipeline builder, which stage its
# passes belong to, written down from the source.  For each list:
#   - tests/stagemap/stagemap.awk builds a constructed timing report in the
#     compiler's tree shape (2024: flat under "Compile network"; 2026: under
#     "IE to VPUIP pipeline" and "ELF pipeline"), one report per variant
#     of the list (defaults, SM pipeline, SCF tiling, additive options on);
#     the result must be the checked-in tests/fixtures/constructed-vpux-*.log
#     (STAGEMAP_UPDATE=1 rewrites them);
#   - `npuscope stages --stages vpux` on it must put every pass row where
#     the intent puts it (a 'func.func' Pipeline row: in the range of the
#     row before it or of its first pass);
# and over all lists:
#   - the study's key passes (intent.txt `key` lines) are in some list and
#     land in their stage everywhere;
#   - no `name` or `marker` rule of the map is dead: each matches a row of
#     some list's report, or sits in a block of the map whose comment starts
#     "# kept for" and says which other version or mode it is for;
#   - the built-in map is stages/vpux.stages.
# STAGEMAP_MAP=FILE checks FILE instead of the built-in map (to see the test
# fail on a broken map without rebuilding).

if ! declare -F check >/dev/null 2>&1; then
    # alone: the suite's helpers and set-up (tests/lib.sh)
    # shellcheck source=tests/lib.sh
    . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
    SM_ALONE=1
fi

SM=$TMP/stagemap
mkdir -p "$SM"
SM_DIR=tests/stagemap
SM_LISTS="2024-npu40xx 2026-npu40xx 2026-npu50xx"
SM_MAPFILE=${STAGEMAP_MAP:-stages/vpux.stages}
SM_MAPARG=${STAGEMAP_MAP:-vpux}

# the variants of a list, one name a line
sm_variants() { sed -n 's/^# variant \([a-z]*\):.*/\1/p' "$SM_DIR/vpux-$1.passes"; }

# sm_fixture LIST > FILE: the constructed reports of a list, one per variant
sm_fixture() {
    local list=$1 shape=2025 v src
    case $list in 2024-*) shape=2024 ;; esac
    src=$(sed -n 's/^# source: \([^ ]*\) \([0-9a-f]\{8\}\).*/\1 @ \2/p' "$SM_DIR/vpux-$list.passes")
    echo "# constructed, not compiler output: built by tests/run_stagemap.sh (tests/stagemap/stagemap.awk) from tests/stagemap/vpux-$list.passes ($src), one report per variant; times invented"
    while read -r v; do
        echo "# variant $v: $(sed -n "s/^# variant $v: //p" "$SM_DIR/vpux-$list.passes" | cut -c1-120)"
        awk -v VARIANT="$v" -v SHAPE="$shape" -v LISTNAME="$list" -v EXPECT="$SM/expect-$list-$v" \
            -f "$SM_DIR/stagemap.awk" "$SM_DIR/intent.txt" "$SM_DIR/vpux-$list.passes" </dev/null || return 1
    done < <(sm_variants "$list")
}

# the rows `npuscope stages` lists, one per line: STAGE<TAB>RULE<TAB>NAME (per report)
sm_rows() {
    "$NPUSCOPE" stages -q --stages "$SM_MAPARG" "$1" | awk '
        /^report #/ { r++; next }
        /^  stage +rule +name$/ { next }
        /^  - +- +Rest$/ || /^$/ { next }
        { line = substr($0, 3); st = line; sub(/ .*/, "", st)
          rest = substr(line, length(st) + 1); sub(/^ +/, "", rest)
          rule = rest; sub(/ .*/, "", rule)
          name = substr(rest, length(rule) + 1); sub(/^ +/, "", name)
          printf "%d\t%s\t%s\t%s\n", r, st, rule, name }'
}

sm_fixture_check() {
    local list=$1 fx=$FIX/constructed-vpux-$1.log
    sm_fixture "$list" >"$SM/$list.log" || return 1
    if [ -n "${STAGEMAP_UPDATE:-}" ]; then cp "$SM/$list.log" "$fx"; fi
    cmp -s "$SM/$list.log" "$fx" || { echo "$fx differs from what $SM_DIR/vpux-$list.passes gives (STAGEMAP_UPDATE=1 rewrites it):"; diff "$fx" "$SM/$list.log" | head -10; return 1; }
}

# sm_intent LIST: every row where the intent puts it
sm_intent() {
    local list=$1 v r=0
    [ -s "$SM/$list.log" ] || sm_fixture "$list" >"$SM/$list.log" || return 1
    sm_rows "$SM/$list.log" >"$SM/rows-$list" || { echo "npuscope stages failed"; return 1; }
    : >"$SM/want-$list"
    while read -r v; do
        r=$((r + 1))
        awk -v r=$r -v v="$v" '{ printf "%d\t%s\t%s\n", r, v, $0 }' "$SM/expect-$list-$v" >>"$SM/want-$list"
    done < <(sm_variants "$list")
    # join line by line: report, variant, expected, name, seq, builder | report, stage, rule, name
    paste "$SM/want-$list" "$SM/rows-$list" | awk -F'\t' -v list="$list" '
        NF != 10 || $1 != $7 || $4 != $10 { printf "%s: row %d out of step: want \"%s\" (report %s), got \"%s\" (report %s)\n", list, NR, $4, $1, $10, $7; bad++; exit 1 }
        $3 == "-" { next }
        {   n = split($3, alt, "|"); hit = 0
            for (k = 1; k <= n; k++) if (alt[k] == $8) hit = 1
            if (alt[1] ~ /^\?/) { printf "%s: %s (seq %s): no intent for builder %s\n", list, $4, $5, $6; bad++; next }
            if (!hit) { printf "%s [%s]: %s (seq %s, %s) wants %s, is %s by %s\n", list, $2, $4, $5, $6, $3, $8, $9; bad++ }
            rows++ }
        END { if (bad) { printf "%s: %d of %d rows misplaced\n", list, bad, rows; exit 1 } }'
}

# the counts of a list: pass rows of the default report, decided by a name
# rule or by a marker range (and distinct names)
sm_counts() {
    local list=$1
    paste "$SM/want-$list" "$SM/rows-$list" | awk -F'\t' -v list="$list" '
        $2 != "default" || $5 == "" { next }
        { n++; d[$4] = 1; if ($9 ~ /^name:/) { byname++; nd[$4] = 1 } else { byrange++; rd[$4] = 1 } }
        END { for (k in d) dn++; for (k in nd) dnn++; for (k in rd) drn++
              printf "stagemap: %s: %d passes in the default compile, %d by a name rule, %d by a marker range; %d distinct names (%d named, %d by range)\n", list, n, byname, byrange, dn, dnn, drn }'
}

sm_keys() {
    local list
    for list in $SM_LISTS; do
        paste "$SM/want-$list" "$SM/rows-$list" | awk -F'\t' -v list="$list" '{ print list "\t" $2 "\t" $4 "\t" $8 }'
    done >"$SM/all-rows"
    awk '$1 == "key" && $3 == "->" { print $2 "\t" $4 }' "$SM_DIR/intent.txt" | while IFS=$'\t' read -r p want; do
        awk -F'\t' -v p="$p" -v want="$want" '
            $3 == p { seen++; if ($4 != want) { printf "%s [%s]: %s is %s, the study puts it in %s\n", $1, $2, p, $4, want; bad++ } }
            END { if (!seen) { printf "key pass %s is in no list\n", p; exit 1 } if (bad) exit 1 }' "$SM/all-rows" || echo FAIL
    done | tee "$SM/keys.out" | grep -v '^FAIL$'
    ! grep -q '^FAIL$' "$SM/keys.out"
}

# every name and marker rule matches a row of some report, or is kept for
# a named other version (a "# kept for ..." comment opens the block, a blank
# line ends it)
sm_dead() {
    { cut -f3 "$SM/all-rows"
      for list in $SM_LISTS; do awk -F'\t' '!/^#/ { print $3 }' "$SM_DIR/vpux-$list.passes"; done
    } | sort -u >"$SM/names"
    awk -v names="$SM/names" '
        function re(p,    out, i, c) {
            out = "^"
            for (i = 1; i <= length(p); i++) {
                c = substr(p, i, 1)
                if (c == "\\") { i++; c = substr(p, i, 1); out = out "[" c "]" }
                else if (c == "*") out = out ".*"
                else if (c == "?") out = out "."
                else if (c ~ /[A-Za-z0-9_ ]/) out = out c
                else out = out "[" c "]"
            }
            return out "$"
        }
        BEGIN { while ((getline l < names) > 0) nm[++n] = l }
        /^[ \t]*$/ { kept = ""; next }
        /^# kept for / { kept = substr($0, 12); next }
        /^(name|marker) / {
            line = $0; kind = $1; sub(/^(name|marker)[ \t]+/, "", line)
            k = 0; for (i = length(line) - 1; i > 0; i--) if (substr(line, i, 2) == "->") { k = i; break }
            pat = substr(line, 1, k - 1); sub(/[ \t]+$/, "", pat)
            r = re(pat); hit = 0
            for (i = 1; i <= n; i++) if (nm[i] ~ r) { hit = 1; break }
            if (hit) live++
            else if (kept != "") keeps[++keep] = sprintf("kept: %s %s (line %d: %s)", kind, pat, NR, kept)
            else { printf "dead: %s %s (line %d): no row of any list matches it\n", kind, pat, NR; dead++ }
        }
        END { printf "%d rules live, %d kept for other versions, %d dead\n", live, keep, dead
              for (i = 1; i <= keep; i++) print keeps[i]
              exit dead > 0 }' "$SM_MAPFILE"
}

sm_builtin() {
    [ -n "${STAGEMAP_MAP:-}" ] && return 0
    "$NPUSCOPE" stages >"$SM/builtin.stages" && cmp "$SM/builtin.stages" stages/vpux.stages
}

sm_source_named() {
    grep -q '^# source: [A-Za-z0-9_.-]*/[A-Za-z0-9_.-]* [0-9a-f]\{40\} ' "$SM_DIR/vpux-$1.passes"
}

for sm_list in $SM_LISTS; do
    check "stagemap: $sm_list: the list names its source repository and commit" sm_source_named "$sm_list"
    check "stagemap: $sm_list: the constructed reports are the checked-in fixture" sm_fixture_check "$sm_list"
    check "stagemap: $sm_list: every pass lands in the stage its builder intends" sm_intent "$sm_list"
done
check "stagemap: the study's key passes land where the study puts them" sm_keys
check "stagemap: no name or marker rule of the map is dead" sm_dead
check "stagemap: the built-in vpux map is stages/vpux.stages" sm_builtin

if [ -n "${SM_ALONE:-}" ]; then
    for sm_list in $SM_LISTS; do sm_counts "$sm_list"; done
    [ -n "${VERBOSE:-}" ] && sm_dead | grep '^kept'
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
fi
