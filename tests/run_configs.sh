# shellcheck shell=bash
# run_configs.sh -- configurations told apart, sorted and shown, and the
# terminal width; sourced by tests/run.sh (full tier; uses its check/ok/bad/
# skip, $NPUSCOPE, $TMP).  Runs alone too:
#   bash -c '. tests/lib.sh; . tests/run_configs.sh; finish'
#
# Real mlir-opt-22 compiles recorded by `npuscope record` and `sweep`
# (about 15 s on two cores):
#   - two folders of two pass pipelines, recorded without tags, are two
#     rows of `table`, two cases of `advise`, two rows of `report` and two
#     groups of `tree --merge`, each with the median of its own runs and a
#     label naming its pipeline -- never one row with the median of both;
#     `diff` warns when one side mixes them;
#   - the same command under --env FOO=1 and --env FOO=2: two rows,
#     labelled FOO=1 and FOO=2;
#   - a sweep over funcs=10,1000,200: table, advise (text and JSON) and
#     tree --merge all list 10, 200, 1000 (numbers as numbers, not as text);
#   - report --a funcs=10 --b funcs=200 on runs without a cache mode: the
#     diff caption ends with the selection, not with a dangling ", mode ";
#   - a 60-column terminal (a real tmux session): table, table --stages and
#     tree fit in 60 columns, with their key numbers.

CF=$TMP/configs
mkdir -p "$CF"
for n in 10 200 1000 3000; do
    awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) {
        printf "func.func @f%d(%%a: i32, %%b: i32) -> i32 {\n", i
        printf "  %%0 = arith.addi %%a, %%b : i32\n  %%1 = arith.muli %%0, %%a : i32\n"
        printf "  %%2 = arith.addi %%1, %%0 : i32\n  return %%2 : i32\n}\n" } }' >"$CF/in-$n.mlir"
done
CF_PA='--pass-pipeline=builtin.module(func.func(canonicalize))'
CF_PB="--pass-pipeline=builtin.module(inline,func.func($(printf 'canonicalize,cse,%.0s' 1 2 3 4 5 6)canonicalize,cse),convert-to-llvm)"

# cf_median DIR: the median wall_s of the run folders in DIR (the mean of
# the middle two of an even count)
# cf_4 X: X with 4 decimals as npuscope's C printf rounds a double (bash's
# printf rounds a long double: 0.15845 gives 0.1584 there, 0.1585 here)
cf_4() { awk -v v="$1" 'BEGIN { printf "%.4f", v }'; }

cf_median() {
    jq -s '[.[].wall_s] | sort | if length % 2 == 1 then .[length / 2 | floor]
           else (.[length / 2 - 1] + .[length / 2]) / 2 end' "$1"/run-*/run.json
}

cf_record() {
    local p
    "$NPUSCOPE" record -q -o "$CF/pA" -n 3 -- mlir-opt-22 --mlir-timing "$CF_PA" "$CF/in-3000.mlir" -o /dev/null || return 1
    "$NPUSCOPE" record -q -o "$CF/pB" -n 3 -- mlir-opt-22 --mlir-timing "$CF_PB" "$CF/in-3000.mlir" -o /dev/null || return 1
    for p in 1 2; do
        "$NPUSCOPE" record -q -o "$CF/env$p" -n 2 --env "FOO=$p" -- \
            mlir-opt-22 --mlir-timing "$CF_PA" "$CF/in-200.mlir" -o /dev/null || return 1
    done
    # no tags: only the command and the environment tell them apart
    jqt -s 'length == 10 and all(.[]; .tags == {} and .ok)' "$CF"/{pA,pB,env1,env2}/run-*/run.json
}
check "configs: real mlir-opt-22 runs of two pipelines and two --env, no tags" cf_record

# table: two rows, each the median of its own folder, labelled by pipeline
cf_table() {
    local a b
    a=$(cf_median "$CF/pA") b=$(cf_median "$CF/pB")
    "$NPUSCOPE" table --format json "$CF/pA" "$CF/pB" >"$CF/t.json" || return 1
    jqt --argjson a "$a" --argjson b "$b" '.rows | length == 2 and
        ([.[].n] == [3, 3]) and (.[0].config | startswith("--pass-pipeline=")) and
        (.[0].config | contains("canonicalize))")) and (.[1].config | contains("convert-to-llvm")) and
        (.[0].median_s - $a | fabs) < 1e-9 and (.[1].median_s - $b | fabs) < 1e-9 and
        .[0].tags == {} and .[1].tags == {}' "$CF/t.json" || { cat "$CF/t.json"; return 1; }
    "$NPUSCOPE" table "$CF/pA" "$CF/pB" >"$CF/t.txt" || return 1
    grep -q '^6 runs, 2 rows;' "$CF/t.txt" || { cat "$CF/t.txt"; return 1; }
    head -n 2 "$CF/t.txt" | tail -n 1 | grep -q '^config  *mode  *n ' || { cat "$CF/t.txt"; return 1; }
    grep -q "^--pass-pipeline=.*canonicalize)) *none  *3  *$(cf_4 "$a") " "$CF/t.txt" &&
        grep -q "convert-to-llvm) *none  *3  *$(cf_4 "$b") " "$CF/t.txt" || { cat "$CF/t.txt"; return 1; }
    # the order of the folders changes nothing
    "$NPUSCOPE" table --format json "$CF/pB" "$CF/pA" | cmp -s - "$CF/t.json" || { echo "pB pA differs from pA pB"; return 1; }
}
check "configs: table of two pipelines' folders without tags: two rows, each its own median" cf_table

cf_table_env() {
    "$NPUSCOPE" table --format json "$CF/env1" "$CF/env2" >"$CF/te.json" || return 1
    jqt '[.rows[] | [.config, .n]] == [["FOO=1", 2], ["FOO=2", 2]]' "$CF/te.json" || { cat "$CF/te.json"; return 1; }
    "$NPUSCOPE" table --format csv "$CF/env1" "$CF/env2" | cut -d, -f1-3 >"$CF/te.csv" || return 1
    printf 'config,mode,n\nFOO=1,none,2\nFOO=2,none,2\n' | diff - "$CF/te.csv"
}
check "configs: the same command under --env FOO=1 and FOO=2: two rows, FOO=1 and FOO=2" cf_table_env

cf_advise() {
    local a b
    a=$(cf_median "$CF/pA") b=$(cf_median "$CF/pB")
    "$NPUSCOPE" advise --format json "$CF/pA" "$CF/pB" >"$CF/a.json" || return 1
    jqt --argjson a "$a" --argjson b "$b" '.cases | length == 2 and
        (.[0].name | startswith("config=--pass-pipeline=")) and (.[1].name | contains("convert-to-llvm")) and
        .[0].compiles == 3 and .[1].compiles == 3 and
        (.[0].total_s - $a | fabs) < 1e-4 and (.[1].total_s - $b | fabs) < 1e-4' "$CF/a.json" ||
        { jq -c '.cases[] | {name, compiles, total_s}' "$CF/a.json"; echo "medians $a $b"; return 1; }
    "$NPUSCOPE" advise "$CF/pA" "$CF/pB" >"$CF/a.txt" || return 1
    [ "$(grep -c '^config=--pass-pipeline=.* per compile, median of 3$' "$CF/a.txt")" -eq 2 ] || { cat "$CF/a.txt"; return 1; }
}
check "configs: advise on the two folders: two cases, each with its own median" cf_advise

cf_report() {
    "$NPUSCOPE" report -q -o "$CF/r.html" "$CF/pA" "$CF/pB" || return 1
    # the configurations table: a config column, two rows of three runs
    sed -n '/<table[^>]*class="[^"]*config/,/<\/table>/p' "$CF/r.html" >"$CF/r.table"
    [ -s "$CF/r.table" ] || sed -n '/<th[^>]*>config<\/th>/,/<\/table>/p' "$CF/r.html" >"$CF/r.table"
    grep -q '>config<' "$CF/r.table" || { echo "no config column"; return 1; }
    local rows; rows=$(grep -o '<td[^>]*>--pass-pipeline=[^<]*</td>' "$CF/r.table" | sort -u | wc -l)
    [ "$rows" -eq 2 ] || { echo "$rows labelled rows"; return 1; }
}
check "configs: report on the two folders: two rows, each labelled by its pipeline" cf_report

cf_merge() {
    "$NPUSCOPE" tree --merge "$CF/pA" "$CF/pB" >"$CF/m.txt" || return 1
    [ "$(grep -c '^report config=--pass-pipeline=.* none ' "$CF/m.txt")" -eq 2 ] || { grep '^report' "$CF/m.txt"; return 1; }
}
check "configs: tree --merge of the two folders: two groups" cf_merge

# diff: a side that mixes the two pipelines says so; a side of one does not
cf_diff() {
    mkdir -p "$CF/mix" && cp -r "$CF"/pA/run-* "$CF"/pB/run-* "$CF/mix/" || return 1
    "$NPUSCOPE" diff "$CF/mix" "$CF/pA" >/dev/null 2>"$CF/d.err" || return 1
    grep -q "^npuscope: warning: A: .*/mix holds runs of 2 commands or environments that no tag tells apart (config --pass-pipeline=" "$CF/d.err" ||
        { cat "$CF/d.err"; return 1; }
    ! grep -q "^npuscope: warning: B: " "$CF/d.err" || { cat "$CF/d.err"; return 1; }
    "$NPUSCOPE" diff "$CF/pB" "$CF/pA" >/dev/null 2>"$CF/d2.err" || return 1
    ! grep -q "commands or environments" "$CF/d2.err" || { cat "$CF/d2.err"; return 1; }
}
check "configs: diff warns when a side mixes two pipelines that no tag tells apart" cf_diff

# ---------------------------------------------------------------- one order
cf_sweep() {
    "$NPUSCOPE" sweep -q -o "$CF/sw" -n 2 -L funcs=10,1000,200 -- \
        mlir-opt-22 --mlir-timing "$CF_PA" "$CF/in-{funcs}.mlir" -o /dev/null
}
check "configs: sweep funcs=10,1000,200 of real mlir-opt-22 compiles" cf_sweep
cf_order() {
    local want='10 200 1000' got
    got=$("$NPUSCOPE" table --format json "$CF/sw" | jq -r '[.rows[].tags.funcs] | join(" ")')
    [ "$got" = "$want" ] || { echo "table: $got"; return 1; }
    got=$("$NPUSCOPE" advise --format json "$CF/sw" | jq -r '[.cases[].name] | join(" ")')
    [ "$got" = "funcs=10 funcs=200 funcs=1000" ] || { echo "advise json: $got"; return 1; }
    got=$("$NPUSCOPE" advise --per-config "$CF/sw" | sed -n 's/^funcs=\([0-9]*\): .*/\1/p' | tr '\n' ' ')
    [ "$got" = "$want " ] || { echo "advise text: $got"; return 1; }
    got=$("$NPUSCOPE" tree --merge "$CF/sw" | sed -n 's/^report funcs=\([0-9]*\) .*/\1/p' | tr '\n' ' ')
    [ "$got" = "$want " ] || { echo "tree --merge: $got"; return 1; }
}
check "configs: table, advise and tree --merge sort funcs 10, 200, 1000 (numbers, not text)" cf_order

cf_caption() {
    "$NPUSCOPE" report -q -o "$CF/ab.html" --a funcs=10 --b funcs=200 "$CF/sw" || return 1
    grep -q 'A (funcs=10) against B (funcs=200)<' "$CF/ab.html" ||
        { grep -o 'A (funcs=10) against B[^<]*<' "$CF/ab.html"; echo "caption not as expected"; return 1; }
    ! grep -q ', mode <' "$CF/ab.html" || { echo "a dangling ', mode '"; return 1; }
}
check "configs: report --a funcs=10 --b funcs=200: the caption ends with the selection" cf_caption

# ---------------------------------------------------------------- the terminal's width
# cf_wide FILE W: the lines of FILE longer than W characters (UTF-8), none
# allowed; an empty FILE fails
cf_wide() {
    [ -s "$1" ] || { echo "$1: empty"; return 1; }
    perl -CSD -ne 'chomp; if (length > '"$2"') { print "line $. has ", length, " characters: $_\n"; $bad = 1 }
                   END { exit($bad ? 1 : 0) }' "$1"
}
# cf_has FILE NUMBER...: every number is in FILE, whole (not cut by an
# ellipsis: digits on both sides of it are not digits)
cf_has() {
    local f=$1 x; shift
    for x; do
        grep -Eq "(^|[^0-9.])$(printf '%s' "$x" | sed 's/\./\\./g')([^0-9]|$)" "$f" || { echo "$x missing from $f"; return 1; }
    done
}

# COLUMNS=60 through a pipe: table --stages of the real sweep fits, with
# the tags, n and medians whole, and a note naming what was left out
cf_columns_table() {
    COLUMNS=60 "$NPUSCOPE" table --stages "$CF/sw" >"$CF/w.txt" || return 1
    cf_wide "$CF/w.txt" 60 || { cat "$CF/w.txt"; return 1; }
    local m
    for m in $("$NPUSCOPE" table --format json "$CF/sw" | jq -r '.rows[].median_s'); do
        cf_has "$CF/w.txt" "$(cf_4 "$m")" || { cat "$CF/w.txt"; return 1; }
    done
    grep -q '^funcs  *mode  *n  *median s' "$CF/w.txt" || { cat "$CF/w.txt"; return 1; }
    grep -q '^(.* columns* left out to fit 60 columns: ' "$CF/w.txt" || { cat "$CF/w.txt"; return 1; }
    # without a width (a pipe), every column, as before
    "$NPUSCOPE" table --stages "$CF/sw" >"$CF/w-full.txt" || return 1
    ! cf_wide "$CF/w-full.txt" 60 >/dev/null || { echo "the full table fits 60 columns: the test shows nothing"; return 1; }
    ! grep -q 'left out' "$CF/w-full.txt" || return 1
    # a COLUMNS that is no width is ignored
    COLUMNS=abc "$NPUSCOPE" table --stages "$CF/sw" | cmp -s - "$CF/w-full.txt" || { echo "COLUMNS=abc changed the output"; return 1; }
}
check "configs: COLUMNS=60 table --stages: no line over 60, the medians whole, a note on what is left out" cf_columns_table

# the long labels of two pipelines in 40 columns: shortened in the middle,
# still two rows, the medians whole
cf_columns_labels() {
    COLUMNS=40 "$NPUSCOPE" table "$CF/pA" "$CF/pB" >"$CF/w40.txt" || return 1
    cf_wide "$CF/w40.txt" 40 || { cat "$CF/w40.txt"; return 1; }
    cf_has "$CF/w40.txt" "$(cf_4 "$(cf_median "$CF/pA")")" "$(cf_4 "$(cf_median "$CF/pB")")" ||
        { cat "$CF/w40.txt"; return 1; }
    [ "$(grep -c '^--pass-.*….*  none  3 ' "$CF/w40.txt")" -eq 2 ] || { cat "$CF/w40.txt"; return 1; }
}
check "configs: COLUMNS=40 table of the two pipelines: labels shortened, medians whole" cf_columns_labels

# a real 60-column terminal: tmux, no COLUMNS, the width from the terminal
cf_tmux() {
    local sock=$CF/tmux.sock run; run=$(ls -d "$CF"/pB/run-* | head -n 1)
    cat >"$CF/tmux.sh" <<EOT
unset COLUMNS
"$NPUSCOPE" table -q tests/runs
echo ==
"$NPUSCOPE" table --stages "$CF/sw"
echo ==
"$NPUSCOPE" tree "$run/stderr.log"
echo ==
"$NPUSCOPE" tree tests/fixtures/mlir22-tree-st.txt
echo ==
"$NPUSCOPE" tree --merge "$CF/pA" "$CF/pB"
echo done-\$\$-cf
sleep 30
EOT
    tmux -S "$sock" new-session -d -x 60 -y 40 "bash $CF/tmux.sh" || return 1
    cf_done() { tmux -S "$sock" capture-pane -p -S - >"$CF/pane" 2>/dev/null; grep -q "^done-[0-9]*-cf" "$CF/pane"; }
    wait_for 300 cf_done
    tmux -S "$sock" capture-pane -p -J -S - >"$CF/joined" 2>/dev/null # wrapped lines joined
    tmux -S "$sock" kill-server 2>/dev/null
    grep -q "^done-[0-9]*-cf" "$CF/pane" || { echo "did not finish"; cat "$CF/pane"; return 1; }
    # nothing wrapped: every joined line fits the 60 columns
    cf_wide "$CF/joined" 60 || { cat "$CF/joined"; return 1; }
    # the key numbers: table's medians, the sweep's medians, the trees' totals
    cf_has "$CF/joined" 41.2031 182.3091 1.8217 || return 1
    local m
    for m in $("$NPUSCOPE" table --format json "$CF/sw" | jq -r '.rows[].median_s'); do
        cf_has "$CF/joined" "$(cf_4 "$m")" || return 1
    done
    # (as the tree prints it, four decimals: run.json's 1.863 is 1.8630)
    cf_has "$CF/joined" "$(cf_4 "$(jq -r '.reports[0].root.wall_s' "$run/run.json")")" 0.2385 || return 1
    grep -q 'Total$' "$CF/joined" && grep -q 'Canonicalizer$' "$CF/joined" || { echo "no tree rows"; return 1; }
    [ "$(grep -c 'config=--pass-pipeline=' "$CF/joined")" -eq 2 ] || { echo "tree --merge: not two groups"; return 1; }
    grep -q 'left out to fit 60 columns' "$CF/joined" && grep -q 'to fit 60 columns: ' "$CF/joined" ||
        { echo "no note on what the width left out"; return 1; }
}
if command -v tmux >/dev/null; then
    check "configs: a 60-column terminal (tmux): table, table --stages, tree, tree --merge fit, key numbers whole" cf_tmux
else
    skip "configs: a 60-column terminal (tmux is not installed)"
fi
