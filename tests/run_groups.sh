# shellcheck shell=bash
# run_groups.sh -- the tables of one compile counted once (model/report.h,
# "Report groups"; parse/group.c).  Sourced by tests/run.sh (uses its
# check/ok/bad, $NPUSCOPE, $TMP, $FIX), or run alone: `bash
# tests/run_groups.sh` prints "N passed, N failed".
#
# clang and flang -ftime-report print a main report and tables that break
# down its rows; opt and llc -time-passes a pass table, its breakdowns and
# "LLVM IR Parsing".  The numbers the checks expect are read from the
# captured fixtures themselves with awk (a second, naive reading of the
# tables), never written into the test: regenerated fixtures change every
# number.
#   - `top`'s total is the compile's own: the main report's Total row (opt,
#     llc: the sum of the pass table's and the parsing table's);
#   - every row of the main report has in `top` the share the compiler
#     printed, within the rounding of the printed numbers;
#   - `top --report N` takes one table alone: its own total and shares;
#   - the tables are one compile in `top` and in `advise` (not "N sub-model
#     compiles"), and `tree` says which table a breakdown is inside.

if ! declare -F check >/dev/null 2>&1; then
    # shellcheck source=tests/lib.sh
    . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
    NS_GROUPS_ALONE=1
fi

# groups_rows FILE TITLE: the rows of the table titled TITLE, one per line
# "wall<TAB>pct<TAB>depth<TAB>name" (wall and pct of the last time column,
# the wall one in both layouts); the Total row is named Total.
groups_rows() {
    awk -v want="$2" '
        /^===-/ { banner++; if (banner % 2 == 1) { getline; t = $0; gsub(/^ +| +$/, "", t); on = (t == want) } next }
        on && /\( *-?[0-9.]+%\)/ {
            line = $0; wall = ""; pct = ""
            while (match(line, /-?[0-9]+\.[0-9]+ +\( *-?[0-9.]+%\)/)) {
                cell = substr(line, RSTART, RLENGTH)
                line = substr(line, RSTART + RLENGTH)
                split(cell, a, /[ (%)]+/); wall = a[1]; pct = a[2]
            }
            sub(/^  /, "", line)
            ind = match(line, /[^ ]/) - 1
            name = substr(line, ind + 1)
            printf "%s\t%s\t%d\t%s\n", wall, pct, ind / 2, name
            if (name == "Total") on = 0
        }' "$1"
}

# groups_total FILE TITLE...: the Total rows' wall of the tables, summed
groups_total() {
    local f=$1 sum=0 t w
    shift
    for t in "$@"; do
        w=$(groups_rows "$f" "$t" | awk -F'\t' '$4 == "Total" { print $1 }')
        [ -n "$w" ] || { echo "no table '$t' in $f"; return 1; }
        sum=$(awk -v a="$sum" -v b="$w" 'BEGIN { printf "%.4f", a + b }')
    done
    echo "$sum"
}

# groups_top_total FILE MAIN_TITLE...: top's total is the main tables'
groups_top_total() {
    local f=$1 want
    shift
    want=$(groups_total "$f" "$@") || return 1
    "$NPUSCOPE" top --format json "$f" >"$TMP/g.json" || return 1
    jqt --arg w "$want" '.total_wall_s == ($w | tonumber)' "$TMP/g.json" || {
        echo "top: $(jq .total_wall_s "$TMP/g.json") s, the compile: $want s"
        return 1
    }
}

# groups_top_shares FILE TITLE [TOP ARGS...]: every top-level row of the
# table has the printed share in top (--all: containers too), within the
# rounding of a %5.1f percentage and of the 4-decimal times it is made of
groups_top_shares() {
    local f=$1 title=$2
    shift 2
    "$NPUSCOPE" top --all -n 0 --format json "$@" "$f" >"$TMP/g.json" || return 1
    groups_rows "$f" "$title" >"$TMP/g.rows"
    [ -s "$TMP/g.rows" ] || { echo "no rows of '$title'"; return 1; }
    local total
    total=$(awk -F'\t' '$4 == "Total" { print $1 }' "$TMP/g.rows")
    # every top-level row in one jq (not one a row: a pass table has
    # hundreds): the rows whose share differs are printed, else true
    jqt -Rn --slurpfile top "$TMP/g.json" --arg t "$total" '
        [inputs | split("\t") | select(.[2] == "0" and .[3] != "Total" and .[3] != "Rest")] as $rows
        | [$rows[] | .[1] as $p | .[3] as $n | [$top[0].rows[] | select(.name == $n)] as $m
           | select(($m | length) != 1 or
                    (($m[0].share * 100 - ($p | tonumber)) | fabs) > 0.05 + 2 * 0.005 / ($t | tonumber) + 1e-9)
           | "row \($n): printed \($p)%, top: \([$m[] | .share * 100])"] as $bad
        | if ($rows | length) == 0 then "no top-level rows"
          elif ($bad | length) > 0 then $bad[]
          else true end' <"$TMP/g.rows"
}

# groups_one_compile FILE NTABLES: top and advise see one compile
groups_one_compile() {
    "$NPUSCOPE" top --format json "$1" >"$TMP/g.json" || return 1
    jqt --argjson n "$2" '.reports == $n and .compiles == 1 and .breakdown_tables == $n - 1 or
        (.reports == $n and .compiles == 1)' "$TMP/g.json" || return 1
    "$NPUSCOPE" advise "$1" >"$TMP/g.txt" 2>&1 || return 1
    [ -s "$TMP/g.txt" ] || { echo "advise printed nothing"; return 1; }
    if grep -n 'sub-model compiles' "$TMP/g.txt"; then return 1; fi
    "$NPUSCOPE" advise --format json "$1" >"$TMP/g.json" || return 1
    jqt '[.. | objects | select(has("submodels")) | .submodels] | length > 0 and all(. == 1)' "$TMP/g.json"
}

# groups_report_alone FILE N TITLE: top --report N is that table alone
groups_report_alone() {
    local want
    want=$(groups_total "$1" "$3") || return 1
    "$NPUSCOPE" top --report "$2" --format json "$1" >"$TMP/g.json" || return 1
    jqt --arg w "$want" '.reports == 1 and .breakdown_tables == 0 and
        .total_wall_s == ($w | tonumber)' "$TMP/g.json" || return 1
    groups_top_shares "$1" "$3" --report "$2"
}

# groups_tree_says FILE N PATTERN: tree names what report N is inside
groups_tree_says() {
    "$NPUSCOPE" tree --report "$2" --depth 0 "$1" >"$TMP/g.txt" || return 1
    grep -q -- "$3" "$TMP/g.txt" || { head -3 "$TMP/g.txt"; return 1; }
}

c22=$FIX/clang22-ftime-report.txt f22=$FIX/flang22-ftime-report.txt c14=$FIX/clang14-ftime-report.txt
check "groups: clang-22 -ftime-report, top's total is the Clang time report's" \
    groups_top_total "$c22" "Clang time report"
check "groups: clang-22 -ftime-report, top's shares are the printed ones" \
    groups_top_shares "$c22" "Clang time report"
check "groups: flang-22 -ftime-report, top's total is the Flang report's" \
    groups_top_total "$f22" "Flang execution timing report"
check "groups: flang-22 -ftime-report, top's shares are the printed ones" \
    groups_top_shares "$f22" "Flang execution timing report"
check "groups: clang-14 -ftime-report, top's total is the front-end report's" \
    groups_top_total "$c14" "Clang front-end time report"
check "groups: llc-22 -time-passes, the pass table and IR parsing" \
    groups_top_total "$FIX/llc22-time-passes.txt" "Pass execution timing report" "LLVM IR Parsing"
check "groups: opt-22 -time-passes, the pass table and IR parsing" \
    groups_top_total "$FIX/opt22-time-passes.txt" "Pass execution timing report" "LLVM IR Parsing"
check "groups: clang-22, 5 tables are one compile in top and advise" groups_one_compile "$c22" 5
check "groups: flang-22, 6 tables are one compile in top and advise" groups_one_compile "$f22" 6
check "groups: top --report 5 of clang-22 is the Clang time report alone" \
    groups_report_alone "$c22" 5 "Clang time report"
check "groups: top --report 4 of clang-22 is the pass table alone, its own shares" \
    groups_report_alone "$c22" 4 "Pass execution timing report"
check "groups: tree says the clang-22 pass table is inside Optimizer and Machine code generation" \
    groups_tree_says "$c22" 4 "inside Machine code generation; Optimizer of report #5"
check "groups: tree says flang's ISel table is inside the codegen pass table's ISel row" \
    groups_tree_says "$f22" 5 "inside X86 DAG->DAG Instruction Selection of report #1"
check "groups: tree says clang-14's pass tables are inside Code Generation Time" \
    groups_tree_says "$c14" 1 "inside Code Generation Time of report #2"

# the report page: what was read counts the compile once, and its heaviest
# pass is a pass, not a phase that the pass table breaks down
groups_page() {
    "$NPUSCOPE" report -q -o "$TMP/g.html" "$c22" 2>/dev/null || return 1
    local want f
    want=$(groups_total "$c22" "Clang time report") || return 1
    f=$(grep -o 'The input holds 5 timing reports ([^)]*) totalling [0-9.]* s' "$TMP/g.html")
    [ -n "$f" ] || { echo "no overview finding"; return 1; }
    awk -v f="${f##*totalling }" -v w="$want" 'BEGIN { exit !((f + 0) - w < 0.0005 && w - (f + 0) < 0.0005) }' ||
        { echo "$f, the compile: $want s"; return 1; }
    f=$(grep -o 'The heaviest pass is [^:]*' "$TMP/g.html")
    case $f in
    "The heaviest pass is "*) ;;
    *) echo "no heaviest-pass finding"; return 1 ;;
    esac
    case $f in *"Machine code generation"* | *Optimizer*) echo "$f"; return 1 ;; esac
}
check "groups: the page counts the clang-22 compile once, its heaviest pass is a pass" groups_page

# more adjacent tables than one process prints: cut into runs of 64, every
# report handed on once and in order
groups_many() {
    local i from
    from=$(grep -n '^===-' "$f22" | tail -2 | head -1 | cut -d: -f1) # its last table
    sed -n "$from,\$p" "$f22" >"$TMP/g1.log"
    for i in $(seq 1 130); do cat "$TMP/g1.log"; done >"$TMP/g130.log"
    "$NPUSCOPE" tree --format json "$TMP/g130.log" >"$TMP/g.json" || return 1
    jqt '[.reports[].index] == [range(0; 130)]' "$TMP/g.json" || return 1
    "$NPUSCOPE" top --format json "$TMP/g130.log" >"$TMP/g.json" || return 1
    jqt '.reports == 130 and .breakdown_tables == 0' "$TMP/g.json"
}
check "groups: 130 adjacent tables are handed on once each, in order" groups_many

# two processes' tables back to back: where one compile ends.  clang's
# front-end report is printed last, opt's LLVM IR Parsing too; flang's
# report is followed only by the code generator's tables
# groups_two_compiles FILE1 FILE2 TITLES1 TITLES2 (main tables, '|'-separated)
groups_two_compiles() {
    local out=$TMP/g2.log want a b t1 t2
    cat "$1" "$2" >"$out"
    IFS='|' read -ra t1 <<<"$3"
    IFS='|' read -ra t2 <<<"$4"
    a=$(groups_total "$1" "${t1[@]}") || return 1
    b=$(groups_total "$2" "${t2[@]}") || return 1
    want=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", a + b }')
    "$NPUSCOPE" top --format json "$out" >"$TMP/g.json" || return 1
    jqt --arg w "$want" '.compiles == 2 and .total_wall_s == ($w | tonumber)' "$TMP/g.json" || {
        echo "want 2 compiles, $want s: $(jq -c '[.compiles, .total_wall_s]' "$TMP/g.json")"
        return 1
    }
}
check "groups: two clang-22 compiles back to back are two compiles" \
    groups_two_compiles "$c22" "$c22" "Clang time report" "Clang time report"
check "groups: opt-22 then flang-22 back to back are two compiles" \
    groups_two_compiles "$FIX/opt22-time-passes.txt" "$f22" "Pass execution timing report|LLVM IR Parsing" \
    "Flang execution timing report"
check "groups: flang-22 then clang-14 back to back are two compiles" \
    groups_two_compiles "$f22" "$c14" "Flang execution timing report" "Clang front-end time report"

# advise on a real mlir-opt-22 run: the heaviest pass is quoted with its own
# printed time and the reported total its share is of (not its share times
# the process's wall time, which no report printed)
groups_advise_pass() {
    local d=$TMP/gadv
    mkdir -p "$d"
    awk 'BEGIN { for (i = 0; i < 6000; i++) {
        printf "func.func @f%d(%%a: i32, %%b: i32) -> i32 {\n", i
        printf "  %%0 = arith.addi %%a, %%b : i32\n  %%1 = arith.muli %%0, %%a : i32\n"
        printf "  %%2 = arith.addi %%1, %%0 : i32\n  return %%2 : i32\n}\n" } }' >"$d/big.mlir"
    "$NPUSCOPE" record -q -o "$d/runs" -n 1 --preset mlir -- mlir-opt-22 --mlir-timing \
        "--pass-pipeline=builtin.module(convert-to-llvm)" "$d/big.mlir" \
        -o /dev/null || return 1
    "$NPUSCOPE" advise "$d/runs" >"$d/advice" || return 1
    local line pass total wall
    line=$(grep -o 'One pass, ConvertToLLVMPass, takes [0-9.]* s, [0-9]*% of the [0-9.]* s' "$d/advice") || {
        echo "no heaviest-pass advice on ConvertToLLVMPass:"; cat "$d/advice"; return 1; }
    pass=$(jq -r '[.reports[0].root.children[] | select(.name == "ConvertToLLVMPass") | .wall_s] | add' "$d"/runs/*/run.json)
    total=$(jq -r '.reports[0].total.wall_s' "$d"/runs/*/run.json)
    wall=$(jq -r '.wall_s' "$d"/runs/*/run.json)
    [ "$line" = "$(printf 'One pass, ConvertToLLVMPass, takes %.4f s, %s%% of the %.4f s' "$pass" \
        "$(awk -v p="$pass" -v t="$total" 'BEGIN { printf "%.0f", 100 * p / t }')" "$total")" ] || {
        echo "advise: '$line'; the report: $pass s of $total s (process wall $wall s)"; return 1; }
}
# a recorded clang-22 -ftime-report compile: run.json keeps the tables, and
# reading them back links them again (parse/run_read.c), so top and advise
# on the run folder count the compile once too
groups_record_clang() {
    local d=$TMP/gclang want
    mkdir -p "$d"
    printf 'int f(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * i; return s; }\n' >"$d/a.c"
    "$NPUSCOPE" record -q -o "$d/runs" -n 1 --preset none -- \
        clang-22 -O2 -ftime-report -c "$d/a.c" -o "$d/a.o" || return 1
    want=$(groups_total "$d"/runs/*/stderr.log "Clang time report") || return 1
    "$NPUSCOPE" top --format json "$d/runs" >"$TMP/g.json" || return 1
    jqt --arg w "$want" '.compiles == 1 and .breakdown_tables > 0 and
        .total_wall_s == ($w | tonumber)' "$TMP/g.json" || return 1
    "$NPUSCOPE" advise --format json "$d/runs" >"$TMP/g.json" || return 1
    jqt '.cases[0].submodels == 1' "$TMP/g.json" || return 1
    # table's stage shares: Front end is the mlir map's frontend stage, at
    # the share clang printed
    local fe
    fe=$(groups_rows "$d"/runs/*/stderr.log "Clang time report" | awk -F'\t' '$4 == "Front end" { print $2 }')
    [ -n "$fe" ] || { echo "no Front end row"; return 1; }
    "$NPUSCOPE" table --stages --format json "$d/runs" >"$TMP/g.json" || return 1
    # within the rounding of a %5.1f percentage and of its 4-decimal times
    jqt --arg p "$fe" --arg t "$want" '((.rows[0]["stage:frontend"] * 100) - ($p | tonumber) | fabs) <=
        0.05 + 2 * 0.005 / ($t | tonumber) + 1e-9' "$TMP/g.json" ||
        { echo "Front end printed $fe%"; return 1; }
}
if command -v clang-22 >/dev/null 2>&1; then
    check "groups: a recorded clang-22 -ftime-report run is one compile read back" groups_record_clang
else
    skip "a recorded clang-22 -ftime-report run (clang-22 is not installed)"
fi
if command -v mlir-opt-22 >/dev/null 2>&1; then
    check "groups: advise quotes the heaviest pass of a real mlir-opt-22 run with its own time" \
        groups_advise_pass
else
    skip "advise's heaviest pass on a real mlir-opt-22 run (mlir-opt-22 is not installed)"
fi

# clang -ftime-trace: a trace names no container, so a row whose children
# cover more than half its time is one (parse/trace.c); top and the page's
# key finding rank passes, not ExecuteCompiler (100%) or Backend (the rule
# holds per occurrence: clang's second, tiny Frontend scope is mostly its
# own time, so it stays a pass)
t22=$FIX/clang22-ftime-trace.json
groups_trace_top() {
    "$NPUSCOPE" top -n 0 --format json "$t22" >"$TMP/g.json" || return 1
    jqt '(.rows | length) > 20 and
        ([.rows[] | select(.name == "ExecuteCompiler" or .name == "Backend"
            or .name == "Optimizer" or .name == "OptModule" or .name == "CodeGenPasses")] | length) == 0 and
        all(.rows[]; .self_s >= 0.5 * .wall_s - 1e-9)' "$TMP/g.json" || return 1
    "$NPUSCOPE" top --all -n 0 --format json "$t22" >"$TMP/g.json" || return 1
    jqt '[.rows[] | select(.name == "ExecuteCompiler")] | length == 1' "$TMP/g.json"
}
groups_trace_page() {
    "$NPUSCOPE" report -q -o "$TMP/g.html" "$t22" 2>/dev/null || return 1
    local f
    f=$(grep -o 'The heaviest pass is [^:]*' "$TMP/g.html" | head -1)
    [ -n "$f" ] || { echo "no heaviest-pass finding"; return 1; }
    case $f in *ExecuteCompiler* | *Backend* | *Frontend*) echo "$f"; return 1 ;; esac
}
# tree --format chrome of a trace: the async Source track on its own tid,
# beside the main thread, so the export spans what the trace took
groups_trace_chrome() {
    "$NPUSCOPE" tree --format chrome "$t22" >"$TMP/g.chrome" || return 1
    "$NPUSCOPE" tree --format json "$t22" >"$TMP/g.json" || return 1
    local total
    total=$(jq '.reports[0].root.wall_s' "$TMP/g.json")
    jqt --argjson t "$total" '[.traceEvents[] | select(.ph == "X")] as $x |
        (($x | map(.ts + .dur) | max) - $t * 1e6 | fabs) < 1 and
        ([$x[] | select(.name == "Source") | .tid] | unique) as $src |
        ([$x[] | select(.name == "ExecuteCompiler") | .tid] | unique) as $main |
        ($src | length) == 1 and ($main | length) == 1 and $src != $main' "$TMP/g.chrome"
}
check "groups: clang-22 -ftime-trace, top ranks passes, not ExecuteCompiler or Backend" groups_trace_top
check "groups: clang-22 -ftime-trace, the page's heaviest pass is no container" groups_trace_page
check "groups: clang-22 -ftime-trace, chrome keeps the Source track on its own tid" groups_trace_chrome

if [ -n "${NS_GROUPS_ALONE:-}" ]; then finish; fi
