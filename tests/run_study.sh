# shellcheck shell=bash
# run_study.sh -- the study checks: a constructed NPUW-style sweep with known
# ground truth (tests/helpers/gen-study.py, recorded by the real `sweep`
# over a fake compile that prints at once), and what npuscope must find in
# it: each configuration's regime, the exponent of FeasibleAllocation
# against the task count (fit --per report), fits against the derived
# size_b tag; the study's figures on the report page and in --svg-dir, and
# the numbers their captions state; and the published window exponents of
# the seed table.
# Needs python3 and jq, nothing else.  Sourced by tests/run.sh (it uses
# check and jqt from tests/lib.sh), or run alone: bash tests/run_study.sh.
# Owns nothing but its checks and the sweep under $TMP/study.
# EXPECT_* variables let a run prove a check fails (a wrong expectation):
# EXPECT_MAX_LINES=20, EXPECT_WRONG_FIX=serialization and
# EXPECT_WRONG_STUDY_CELL="qwen2-7b 1024" each fail one advise check.

if [ -z "${NS_LIB:-}" ]; then
    # shellcheck source=tests/lib.sh
    . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
    study_alone=1
fi

STUDY=$TMP/study
# (made once per make check and copied: tests/helpers/study.sh)
study_made() {
    [ -s "$STUDY/truth.json" ] && return 0
    NPUSCOPE=$NPUSCOPE sh tests/helpers/study.sh "$STUDY" >/dev/null 2>&1
}

# 60 configurations, each a run of 7 reports with a vpuip_tasks fact
study_runs() {
    study_made || { echo "gen-study.py made no study"; return 1; }
    local n
    n=$(ls "$STUDY/runs" | wc -l)
    [ "$n" -eq "${EXPECT_RUNS:-60}" ] || { echo "runs: $n"; return 1; }
    jqt -s 'all(.[]; (.reports | length) == 7 and all(.reports[]; .metrics.vpuip_tasks > 0))' \
        "$STUDY"/runs/*/run.json
}

# the regime advise gives each configuration is the generator's
study_regimes() {
    study_made || return 1
    "$NPUSCOPE" advise --format json "$STUDY/runs" 2>/dev/null >"$STUDY/advise.json"
    jq -r '.cases[] | [.name, .regime] | @tsv' "$STUDY/advise.json" |
        sed 's/^model=\([^ ]*\) window=\([^ ]*\) precision=\([^ ]*\) [^\t]*/\1 \2 \3/' |
        sort >"$STUDY/got"
    jq -r --arg wrong "${EXPECT_WRONG_CELL:-}" '.cells[] |
        "\(.model) \(.window) \(.precision)\t\(if "\(.model) \(.window)" == $wrong
                                             then "wrong" else .regime end)"' \
        "$STUDY/truth.json" | sort >"$STUDY/want"
    [ -s "$STUDY/want" ] && [ "$(wc -l <"$STUDY/got")" -eq 60 ] || { echo "no cells"; return 1; }
    diff "$STUDY/want" "$STUDY/got"
}

# FeasibleAllocation against the task count, a point per report: the
# generator's exponent lies in the 95% interval
study_fit_tasks() {
    study_made || return 1
    local want=${EXPECT_EXPONENT:-$(jq .fa_exponent "$STUDY/truth.json")}
    "$NPUSCOPE" fit --per report --x fact:vpuip_tasks --y pass:FeasibleAllocation \
        --mode cold --format json "$STUDY/runs" >"$STUDY/fit.json" || return 1
    jqt --argjson e "$want" '.fits | length == 1 and .[0].n == 420 and
        .[0].ci95[0] <= $e and $e <= .[0].ci95[1]' "$STUDY/fit.json"
}

# the derived size_b tag is an axis: total time grows with model size,
# fp16 faster than int8 (exponent ~0.53 + the fp16 crossing ~0.44)
study_fit_size() {
    study_made || return 1
    "$NPUSCOPE" fit --x size_b --y total --by precision --where window=1024 --format json \
        "$STUDY/runs" >"$STUDY/size.json" 2>/dev/null || return 1
    jqt --argjson lo "${EXPECT_FP16_ABOVE:-0.1}" '.fits | length == 3 and
        (map({(.group): .exponent}) | add) as $e |
        $e.fp16 - $e.int8 > $lo and ($e.int4 - $e.int8 | fabs) < 0.05' "$STUDY/size.json"
}

# the published seed table: window^0.24 at 1.5B, window^0.55 at 7B
study_seed() {
    "$NPUSCOPE" fit --x window --y cold_s --by model --format json \
        tests/data/seed-compile-table.csv >"$TMP/seed.json" 2>/dev/null || return 1
    jqt --argjson a "${EXPECT_SEED_15:-0.24}" --argjson b "${EXPECT_SEED_7:-0.55}" '
        (.fits | map({(.group): .exponent}) | add) as $e |
        ($e.qwen25_1_5b - $a | fabs) < 0.01 and ($e.qwen25_7b - $b | fabs) < 0.01' "$TMP/seed.json"
}

# advise leads with the study: one table row per regime, its fix id the
# generator's, in under 40 lines (the per-configuration blocks need
# --per-config)
study_advise_text() {
    study_made || return 1
    "$NPUSCOPE" advise "$STUDY/runs" 2>/dev/null >"$STUDY/advise.txt" || return 1
    local lines
    lines=$(wc -l <"$STUDY/advise.txt")
    [ "$lines" -lt "${EXPECT_MAX_LINES:-40}" ] || { echo "advise: $lines lines"; return 1; }
    head -1 "$STUDY/advise.txt" | grep -q '^study of 60 configurations' || { echo "no study first"; return 1; }
    sed -n 2p "$STUDY/advise.txt" | grep -q '^| regime *| cells *| dominant pass of the stage (median share) *| root cause *| fix *|$' ||
        { echo "no study table"; return 1; }
    # regime, cells, fix of each table row against truth.json
    awk -F' *[|] *' '/^[|] [a-z]/ && $2 != "regime" {print $2 "\t" $3 "\t" $6}' "$STUDY/advise.txt" |
        sort >"$STUDY/got-table"
    jq -r --arg wrong "${EXPECT_WRONG_FIX:-}" '.fix as $fix | .cells | group_by(.regime)[] |
        "\(.[0].regime)\t\(length)\t\(if .[0].regime == $wrong then "wrong" else $fix[.[0].regime] end)"' \
        "$STUDY/truth.json" | sort >"$STUDY/want-table"
    diff "$STUDY/want-table" "$STUDY/got-table" || return 1
    "$NPUSCOPE" advise --per-config "$STUDY/runs" 2>/dev/null | grep -c ' s per compile' | grep -qx 60
}

# advise --format json: study.regimes has the contract's keys, and its
# cells and fix ids are the generator's
study_advise_json() {
    study_made || return 1
    "$NPUSCOPE" advise --format json "$STUDY/runs" 2>/dev/null >"$STUDY/advise.json" || return 1
    jqt '(.cases | length) == 60 and (.study.regimes | length) > 0 and
        all(.study.regimes[]; has("regime") and has("cells") and has("dominant_pass") and
            has("median_share") and has("fix") and has("evidence") and (.cells | type) == "array"
            and all(.cells[]; type == "object"))' "$STUDY/advise.json" || return 1
    jq -r '.study.regimes[] | .regime as $r | .fix as $f | .cells[] |
        "\(.model) \(.window) \(.precision)\t\($r)\t\($f)"' "$STUDY/advise.json" | sort >"$STUDY/got-study"
    jq -r --arg wrong "${EXPECT_WRONG_STUDY_CELL:-}" '.fix as $fix | .cells[] |
        "\(.model) \(.window) \(.precision)\t\(if "\(.model) \(.window)" == $wrong then "wrong"
                                                else .regime end)\t\($fix[.regime])"' \
        "$STUDY/truth.json" | sort >"$STUDY/want-study"
    diff "$STUDY/want-study" "$STUDY/got-study"
}

# ---------------------------------------------------------------- the page
# `report --svg-dir` over the study: its figures, and the numbers their
# captions state against truth.json.  EXPECT_PREFIXES=nosuch-,
# EXPECT_EXPONENT=0.5, EXPECT_CROSSING=3, EXPECT_HANDOFF=x,
# EXPECT_WRONG_MAP_CELL="qwen2-7b 128", EXPECT_SAME="3 of 4" and
# EXPECT_PANELS=5 each make one check fail.
study_page() {
    study_made || return 1
    [ -s "$STUDY/page.html" ] && return 0
    rm -rf "$STUDY/svg"
    "$NPUSCOPE" report -q -o "$STUDY/page.html" --svg-dir "$STUDY/svg" "$STUDY/runs" 2>/dev/null
}
# the caption of the (first) figure whose id starts with $1, as text
study_caption() {
    awk -v p="$1" 'index($0, "<figure id=\"" p) == 1 { on = 1 }
        on && /<figcaption>/ { sub(/.*<figcaption>/, ""); sub(/<\/figcaption>.*/, ""); print; exit }' \
        "$STUDY/page.html" | sed "s/&#39;/'/g; s/&amp;/\\&/g"
}

# each study figure is on the page and in --svg-dir, under its prefix
study_page_figures() {
    study_page || return 1
    local p
    for p in ${EXPECT_PREFIXES:-regime- handoff why-costly fingerprint-family precision-size precision-scaling}; do
        grep -q "<figure id=\"$p" "$STUDY/page.html" || { echo "page: no $p figure"; return 1; }
        ls "$STUDY/svg" | grep -q "^$p.*\.svg$" || { echo "svg-dir: no $p*.svg"; return 1; }
    done
    # every standalone figure is one SVG document
    for p in "$STUDY"/svg/*.svg; do
        head -1 "$p" | grep -q '^<?xml' && tail -1 "$p" | grep -qx '</svg>' || { echo "$p"; return 1; }
    done
    # nothing left out, so no note says so
    ! grep -q 'Study figures left out' "$STUDY/page.html"
}

# why-costly: the caption's 95% interval holds the generator's exponent
study_page_why() {
    study_page || return 1
    local want=${EXPECT_EXPONENT:-$(jq .fa_exponent "$STUDY/truth.json")} cap lo hi
    cap=$(study_caption why-costly-FeasibleAllocation)
    echo "$cap" | grep -q 'FeasibleAllocation ∝ vpuip_tasks^' || { echo "$cap"; return 1; }
    echo "$cap" | grep -q 'over 420 reports' || { echo "$cap"; return 1; }
    lo=$(echo "$cap" | sed -n 's/.*95% interval of the exponent \([0-9.]*\) to \([0-9.]*\).*/\1/p')
    hi=$(echo "$cap" | sed -n 's/.*95% interval of the exponent \([0-9.]*\) to \([0-9.]*\).*/\2/p')
    [ -n "$lo" ] && [ -n "$hi" ] || { echo "no interval: $cap"; return 1; }
    awk -v l="$lo" -v h="$hi" -v e="$want" 'BEGIN { exit !(l <= e && e <= h) }' ||
        { echo "$want not in [$lo, $hi]"; return 1; }
}

# precision-size: fp16 / int8 from ~0.58x to ~1.88x, crossing 1 near the
# generator's size; int4 at or below 0.99x at every size
study_page_precision() {
    study_page || return 1
    local cap lo hi cross want
    cap=$(study_caption precision-size)
    want=${EXPECT_CROSSING:-$(jq .fp16_over_int8.crossing_size_b "$STUDY/truth.json")}
    lo=$(echo "$cap" | sed -n 's/.*fp16 \/ int8: \([0-9.]*\)× to \([0-9.]*\)×, crossing 1 at ≈ \([0-9.]*\) B.*/\1/p')
    hi=$(echo "$cap" | sed -n 's/.*fp16 \/ int8: \([0-9.]*\)× to \([0-9.]*\)×, crossing 1 at ≈ \([0-9.]*\) B.*/\2/p')
    cross=$(echo "$cap" | sed -n 's/.*fp16 \/ int8: \([0-9.]*\)× to \([0-9.]*\)×, crossing 1 at ≈ \([0-9.]*\) B.*/\3/p')
    [ -n "$cross" ] || { echo "no fp16 crossing: $cap"; return 1; }
    jqt --argjson lo "$lo" --argjson hi "$hi" --argjson c "$cross" --argjson w "$want" '
        (.fp16_over_int8.smallest - $lo | fabs) < 0.05 and (.fp16_over_int8.largest - $hi | fabs) < 0.05 and
        ($c / $w - 1 | fabs) < 0.05' "$STUDY/truth.json" || { echo "fp16: $lo $hi $cross (want $want)"; return 1; }
    hi=$(echo "$cap" | sed -n 's/.*int4 \/ int8: \([0-9.]*\)× to \([0-9.]*\)×, at or below 1 at every size.*/\2/p')
    [ -n "$hi" ] && jqt --argjson h "$hi" '$h <= .int4_over_int8_max' "$STUDY/truth.json" ||
        { echo "int4: $cap"; return 1; }
}

# the hand-off: the leaders in the generator's order
study_page_handoff() {
    study_page || return 1
    local got want
    got=$(study_caption handoff | sed -n 's/.*Hand-off order: \(.*\)\. Each family alone.*/\1/p' | sed 's/ (to ≈ [0-9.]* s)//g')
    want=${EXPECT_HANDOFF:-$(jq -r '.handoff | join(" → ")' "$STUDY/truth.json")}
    [ "$got" = "$want" ] || { echo "hand-off: '$got', want '$want'"; return 1; }
    # universal: every family's own leaders come in that order (the
    # generator tilts families by size only)
    study_caption handoff | grep -q "the same order in ${EXPECT_SAME:-4 of 4} families" ||
        { study_caption handoff; return 1; }
}

# the regime map: every (model, window) cell whose three precisions share
# a regime in the truth has that regime
study_page_regime() {
    study_page || return 1
    awk '/<figure id="regime-model-window"/ { on = 1 } on && /<\/figure>/ { exit }
         on && /<rect class="cell"/ { print }' "$STUDY/page.html" |
        sed -n 's/.*<title>window=\([0-9]*\), model=\([^:]*\): dominant stage \([^,]*\),.*/\2 \1\t\3/p' |
        sort >"$STUDY/got-map"
    jq -r --arg wrong "${EXPECT_WRONG_MAP_CELL:-}" '.cells | group_by(.model + " " + .window)[] |
        select((map(.regime) | unique | length) == 1) | "\(.[0].model) \(.[0].window)" as $c |
        "\($c)\t\(if $c == $wrong then "wrong" else .[0].regime end)"' "$STUDY/truth.json" | sort >"$STUDY/want-map"
    [ "$(wc -l <"$STUDY/want-map")" -ge 10 ] || { echo "few unanimous cells"; return 1; }
    join -t "$(printf '\t')" "$STUDY/want-map" "$STUDY/got-map" | awk -F'\t' '$2 != $3 { print; bad = 1 } END { exit bad }' &&
    [ "$(join -t "$(printf '\t')" "$STUDY/want-map" "$STUDY/got-map" | wc -l)" -eq "$(wc -l <"$STUDY/want-map")" ]
}

# 15 series (5 models x 3 precisions) against window: all drawn, as small
# multiples, never "N of 15 series are shown"
study_page_multiples() {
    study_page || return 1
    local cap
    cap=$(study_caption scaling-window)
    echo "$cap" | grep -q 'series are shown' && { echo "cut: $cap"; return 1; }
    echo "$cap" | grep -q 'All 15 series are drawn, as 3 panels, one per value of precision' || { echo "$cap"; return 1; }
    [ "$(grep -c '<g class="panel"' "$STUDY/svg/scaling-window.svg")" -eq "${EXPECT_PANELS:-3}" ] || return 1
    # every series has its 4 points: 15 x 4 markers
    [ "$(grep -c '<circle class="pt"' "$STUDY/svg/scaling-window.svg")" -eq 60 ]
}

# the derived tags are tags for `table`: --by family groups the baseline
# ratios by the 4 families (qwen2 holds 0.5b and 7b), --tag-columns size_b
# shows and sorts by the size as a number (0.5 first, 7 last); --where and
# --a select by them (EXPECT_SIZE=8 fails)
study_table_family() {
    study_made || return 1
    "$NPUSCOPE" table --by family --baseline precision=int8 --format json "$STUDY/runs" \
        >"$STUDY/by-family.json" 2>/dev/null || return 1
    jqt --arg want "${EXPECT_FAMILIES:-llama3.2 phi3 qwen2 qwen2.5}" '.baseline.by == "family" and
        ([.baseline.groups[].by] | unique | join(" ")) == $want and
        all(.baseline.groups[]; .n == (if .by == "qwen2" then 8 else 4 end))' "$STUDY/by-family.json" || return 1
    "$NPUSCOPE" table --tag-columns size_b,window --format json "$STUDY/runs" >"$STUDY/by-size.json" 2>"$STUDY/by-size.err" || return 1
    [ ! -s "$STUDY/by-size.err" ] || { cat "$STUDY/by-size.err"; return 1; }
    jqt '[.rows[].tags.size_b] | .[0] == "0.5" and .[-1] == "7" and (unique | length) == 5' "$STUDY/by-size.json" || return 1
    "$NPUSCOPE" table --tag-columns family --format text "$STUDY/runs" 2>/dev/null | sed -n 2,3p | grep -q '^family *mode' &&
    "$NPUSCOPE" table --tag-columns family --format text "$STUDY/runs" 2>/dev/null | sed -n 3p | grep -q '^llama3.2 ' || return 1
    # and select: --where size_b=7 is qwen2-7b's 4 windows, --a family=qwen2 its 24 configurations
    "$NPUSCOPE" fit --x window --y total --where "size_b=${EXPECT_SIZE:-7},precision=int8" --format json \
        "$STUDY/runs" 2>/dev/null | jqt '.fits | length == 1 and .[0].n == 4' || { echo "--where size_b"; return 1; }
    "$NPUSCOPE" diff --a family=qwen2 --b family=phi3 "$STUDY/runs" 2>/dev/null | grep -q '^A .* family=qwen2  mode cold  24 runs$'
}

# one model of the study (12 configurations): one family and one size, so
# no family fingerprint and no precision-size figure -- each named, with
# its reason, in the figures note; the others are still drawn
# (EXPECT_ONE_MODEL="q*": three models of two families, and it fails)
study_page_absent() {
    study_made || return 1
    rm -rf "$STUDY/one-model"
    mkdir -p "$STUDY/one-model" && cp -R "$STUDY"/runs/model-${EXPECT_ONE_MODEL:-qwen2-7b}_* "$STUDY/one-model/" || return 1
    "$NPUSCOPE" report -q -o "$STUDY/one.html" "$STUDY/one-model" 2>/dev/null || return 1
    local p
    for p in handoff why-costly precision-scaling; do
        grep -q "<figure id=\"$p" "$STUDY/one.html" || { echo "no $p"; return 1; }
    done
    for p in fingerprint-family precision-size; do
        grep -q "<figure id=\"$p" "$STUDY/one.html" && { echo "a $p figure"; return 1; }
    done
    grep -o 'Study figures left out: [^<]*' "$STUDY/one.html" >"$STUDY/one.note" || { echo "no note"; return 1; }
    grep -q 'family fingerprint: needs a window tag and models of two families or more' "$STUDY/one.note" &&
    grep -q 'precision-size: needs .* three model sizes or more' "$STUDY/one.note" ||
        { cat "$STUDY/one.note"; return 1; }
}

# --fingerprint-window picks the fingerprint's window (the default is the
# one most families share, 1024 here); one no family has leaves the
# figure out and says so
study_page_fp_window() {
    study_made || return 1
    rm -rf "$STUDY/fpw"
    "$NPUSCOPE" report -q --fingerprint-window ${EXPECT_FP_WINDOW:-32768} -o "$STUDY/fpw.html" \
        --svg-dir "$STUDY/fpw" "$STUDY/runs" 2>/dev/null || return 1
    ls "$STUDY/fpw" | grep -qx 'fingerprint-family-window-32768.svg' || { ls "$STUDY/fpw"; return 1; }
    grep -q 'at window=32768' "$STUDY/fpw/fingerprint-family-window-32768.svg" || return 1
    "$NPUSCOPE" report -q --fingerprint-window 77 -o "$STUDY/fpw77.html" "$STUDY/runs" 2>/dev/null || return 1
    ! grep -q '<figure id="fingerprint-family' "$STUDY/fpw77.html" &&
    grep -q 'family fingerprint: the --fingerprint-window asked for is not a window of two families or more' "$STUDY/fpw77.html"
}

check "study: gen-study.py records 60 NPUW runs of 7 reports" study_runs
check "study: the regime of every configuration is the generator's" study_regimes
check "study: fit --per report recovers FeasibleAllocation ~ tasks^0.69" study_fit_tasks
check "study: fit --x size_b (a derived tag) --by precision" study_fit_size
check "study: advise leads with the regime table (truth's cells and fixes, < 40 lines)" study_advise_text
check "study: advise --format json has study.regimes (contract keys, truth's cells and fixes)" study_advise_json
check "study: seed table window exponents 0.24 (1.5B) and 0.55 (7B)" study_seed
check "study: table --by family, --tag-columns size_b, --where size_b=7, --a family=qwen2: derived tags as tags" study_table_family
check "study page: the six study figures, on the page and in --svg-dir under their prefixes" study_page_figures
check "study page: why-costly's caption interval holds the generator's exponent (420 reports)" study_page_why
check "study page: precision-size caption: fp16 crossing and ratios, int4 <= 0.99x (truth)" study_page_precision
check "study page: the hand-off order of the caption is the generator's" study_page_handoff
check "study page: the regime map's cells are the generator's (where precisions agree)" study_page_regime
check "study page: a figure one model cannot carry is named with its reason" study_page_absent
check "study page: 15 series drawn whole as 3 small multiples, none cut" study_page_multiples
check "study page: --fingerprint-window picks the fingerprint's window, or says why there is none" study_page_fp_window

if [ -n "${study_alone:-}" ]; then finish; fi
