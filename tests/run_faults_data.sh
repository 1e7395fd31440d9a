# shellcheck shell=bash
# run_faults_data.sh -- the data side of the fault tier: statistics that
# never switch themselves off, one run one count, linear readers, names as
# data.  Sourced by tests/run.sh (uses its check, $NPUSCOPE, $TMP), or run
# alone: `bash tests/run_faults_data.sh` prints "N passed, N failed".
#
# The inputs are constructed run folders (tests/helpers/gen-runs.py: the
# same arguments write the same bytes) and, in the full tier, runs
# recorded with real processes (`sleep`).  Each check was seen failing on
# the code before the change it guards (the commit message says how).

if ! declare -F check >/dev/null 2>&1; then
    # alone: the suite's helpers and set-up (tests/lib.sh)
    # shellcheck source=tests/lib.sh
    . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
    FD_ALONE=1
fi

FD=$TMP/faults-data
mkdir -p "$FD"
FD_GEN="python3 tests/helpers/gen-runs.py"

# ------------------------------------------------------------ diff at large samples
# 300 runs a side, B 1.5x slower, 40 rows: "slower" with a real p, the gate
# exits 1, in seconds (the exact test gave up past ~230 a side: "same",
# exit 0; and took minutes on every row).
fd_diff_large() {
    $FD_GEN "$FD/big-a" --runs 300 --rows 40 --prefix a --seed 1 &&
    $FD_GEN "$FD/big-b" --runs 300 --rows 40 --prefix b --seed 2 --factor 1.5 || return 2
    local t0 t1 rc
    t0=$(date +%s)
    timeout "$(hang_s 120)" "$NPUSCOPE" diff -q --format json --fail-if-slower 10 \
        "$FD/big-a" "$FD/big-b" >"$FD/big.json" 2>"$FD/big.err"
    rc=$?
    t1=$(date +%s)
    [ "$rc" -eq 1 ] || { echo "gate exit $rc, want 1"; cat "$FD/big.err"; return 1; }
    grep -q 'total is slower' "$FD/big.err" || { cat "$FD/big.err"; return 1; }
    jqt '.rows[0] | .name == "total" and .a_n == 300 and .b_n == 300 and .verdict == "slower"
         and .p < 1e-10 and (.shift_ci | length == 2 and .[0] > 0)' "$FD/big.json" &&
    jqt '[.rows[] | select(.p == null)] == []' "$FD/big.json" || return 1
    [ $((t1 - t0)) -le "$(hang_s 30)" ] || { echo "diff took $((t1 - t0)) s"; return 1; }
}
check "faults: diff 300 vs 300 runs, B 1.5x: slower, a p, gate exit 1, in seconds" fd_diff_large

# A against A at 300 a side: "same" (the equivalence check passes), gate 0.
fd_diff_same() {
    "$NPUSCOPE" diff -q --format json --fail-if-slower 10 "$FD/big-a" "$FD/big-a" >"$FD/aa.json" ||
        { echo "gate exit $?"; return 1; }
    jqt '.rows[0] | .verdict == "same" and .shift_ci[0] <= 0 and .shift_ci[1] >= 0' "$FD/aa.json"
}
check "faults: diff A/A at 300 a side: same (the shift's interval inside +-threshold)" fd_diff_same

# 3 vs 3, B ten times slower: p = 0.1 can never reach 0.05: "inconclusive"
# in every format, and the gate cannot decide: exit 2, naming the runs a
# side that could (it said "same" and exited 0).
# fd_diff_few DIR [MIN_RATIO]: B at least MIN_RATIO (5) times slower
fd_diff_few() {
    local d=$1 rc
    "$NPUSCOPE" diff -q --format json --a side=a --b side=b "$d" >"$FD/few.json" || return 1
    jqt --argjson min "${2:-5}" '.rows[0] | .name == "total" and .a_n == 3 and .b_n == 3 and .verdict == "inconclusive"
         and .ratio > $min' "$FD/few.json" || { jq -c '.rows[0]' "$FD/few.json"; return 1; }
    "$NPUSCOPE" diff -q --a side=a --b side=b "$d" | grep -Eq '^total .* inconclusive$' || return 1
    "$NPUSCOPE" diff -q --format markdown --a side=a --b side=b "$d" |
        grep -q 'compile time inconclusive' || return 1
    "$NPUSCOPE" diff -q --format github --a side=a --b side=b "$d" |
        grep -q '^::notice title=npuscope inconclusive total::' || return 1
    "$NPUSCOPE" diff -q --fail-if-slower 10 --a side=a --b side=b "$d" >/dev/null 2>"$FD/few.err"
    rc=$?
    [ "$rc" -eq 2 ] || { echo "gate exit $rc, want 2"; cat "$FD/few.err"; return 1; }
    grep -q 'cannot decide.*at least 4 runs a side' "$FD/few.err" || { cat "$FD/few.err"; return 1; }
}
fd_diff_few_constructed() {
    $FD_GEN "$FD/few" --runs 3 --tag side=a --prefix a &&
    $FD_GEN "$FD/few" --runs 3 --tag side=b --prefix b --factor 10 || return 2
    fd_diff_few "$FD/few"
}
check "faults: diff 3 vs 3 (constructed), B 10x: inconclusive everywhere, gate exit 2" fd_diff_few_constructed
if tier_full 2>/dev/null || [ -n "${FD_ALONE:-}" ]; then
    # (B sleeps 100 times A's 0.02 s and must come out at least 2 times
    # slower.  A loaded machine adds to each run what it adds to starting a
    # process: tenths of a second under the inner sanitized run, once over
    # a second (2026-12-07: A's median 1.15 s, B's 1.31 with its 0.5 s
    # sleep, the sides recorded one after the other through a burst of
    # load).  So the sides' runs are interleaved (a sweep over side), and
    # B's 2 s keeps the ratio above 2 while that overhead is under 2 s.)
    fd_diff_few_sleep() {
        "$NPUSCOPE" sweep -q -o "$FD/sleep" -n 3 -L side=a,b -- \
            sh -c 'if [ "$0" = a ]; then sleep 0.02; else sleep 2; fi' '{side}' || return 2
        fd_diff_few "$FD/sleep" 2
    }
    check "faults: diff 3 vs 3 recorded sleeps, B 100x: inconclusive, gate exit 2" fd_diff_few_sleep
fi

# A's median 0 (a pass A never ran): a slower B trips the gate.
fd_diff_zero() {
    local i
    for i in 1 2 3 4 5 6; do
        mkdir -p "$FD/zero/a$i" "$FD/zero/b$i"
        printf '{"id":"a%d","tags":{"side":"a"},"wall_s":0,"exit_code":0,"ok":true,"started_at":"2026-01-01T00:00:0%dZ"}\n' "$i" "$i" >"$FD/zero/a$i/run.json"
        printf '{"id":"b%d","tags":{"side":"b"},"wall_s":0.%d,"exit_code":0,"ok":true,"started_at":"2026-01-01T00:00:0%dZ"}\n' "$i" "$i" "$i" >"$FD/zero/b$i/run.json"
    done
    "$NPUSCOPE" diff -q --fail-if-slower 10 --a side=a --b side=b "$FD/zero" >"$FD/zero.out" 2>"$FD/zero.err"
    local rc=$?
    [ "$rc" -eq 1 ] || { echo "gate exit $rc, want 1"; cat "$FD/zero.out" "$FD/zero.err"; return 1; }
}
check "faults: diff with A's median 0: a slower B trips the gate" fd_diff_zero

# ------------------------------------------------------------ one run, one count
# The same folder twice, a folder and a run inside it, a copy of a run
# folder: each run counted once, and a note says so (n went 3 -> 6, or the
# median moved).  Two recordings of one configuration (same folder names,
# other start times) both count.
fd_dedup() {
    local one=tests/runs/model-m1_window-128-b0160d83-cold-r01
    "$NPUSCOPE" table -q --format json tests/runs >"$FD/dd1.json" &&
    "$NPUSCOPE" table -q --format json tests/runs tests/runs >"$FD/dd2.json" &&
    "$NPUSCOPE" table -q --format json tests/runs "$one" >"$FD/dd3.json" || return 1
    cmp "$FD/dd1.json" "$FD/dd2.json" || { echo "table runs runs differs from table runs"; return 1; }
    cmp "$FD/dd1.json" "$FD/dd3.json" || { echo "a folder and a run in it differs"; return 1; }
    "$NPUSCOPE" table tests/runs tests/runs 2>&1 >/dev/null |
        grep -q '^npuscope: tests/runs: 31 runs already read from an earlier input' || return 1
    local mem=tests/data/memory/runs
    rm -rf "$FD/copy" && mkdir -p "$FD/copy" && cp -r "$mem/$(ls "$mem" | head -1)" "$FD/copy/" &&
    "$NPUSCOPE" top -q --format json "$mem" >"$FD/dd4.json" &&
    "$NPUSCOPE" top -q --format json "$mem" "$FD/copy" >"$FD/dd5.json" || return 1
    cmp "$FD/dd4.json" "$FD/dd5.json" || { echo "a copied run counted twice by top"; return 1; }
    # another recording of the same configuration: counted
    $FD_GEN "$FD/rec1" --runs 3 --prefix r &&
    $FD_GEN "$FD/rec2" --runs 3 --prefix r --seed 5 || return 2
    sed -i 's/2026-01-01T00:00:00Z/2026-01-02T00:00:00Z/' "$FD"/rec2/*/run.json
    "$NPUSCOPE" table -q --format json "$FD/rec1" "$FD/rec2" | jqt '.rows[0].n == 6'
}
check "faults: one run, one count (a folder twice, a run inside it, a copy)" fd_dedup

# ------------------------------------------------------------ names are data
# CSV cells a spreadsheet would run (=, +, -, @) get a quote in front, as
# OWASP recommends; plain numbers stay; --csv-raw keeps the raw text.
fd_csv_formula() {
    $FD_GEN "$FD/csv" --runs 2 --rows 1 --tag 'k==1+2' --tag=neg=-3.5 \
        --name-rows '=HYPERLINK("http://x")' --name-rows '@SUM(A1)' \
        --name-rows='+1+1' --name-rows='-cmd|x' --name-rows plain || return 2
    "$NPUSCOPE" top -q --format csv "$FD/csv" >"$FD/top.csv" || return 1
    grep -q '^"'"'"'=HYPERLINK(""http://x"")",' "$FD/top.csv" &&
    grep -q '^"'"'"'@SUM(A1)",' "$FD/top.csv" &&
    grep -q '^"'"'"'+1+1",' "$FD/top.csv" &&
    grep -q '^"'"'"'-cmd|x",' "$FD/top.csv" &&
    grep -q '^plain,' "$FD/top.csv" || { cat "$FD/top.csv"; return 1; }
    # no cell starts a formula: every field of every line
    python3 -c '
import csv, sys
bad = [c for row in csv.reader(open(sys.argv[1])) for c in row
       if c[:1] in ("=", "+", "-", "@") and not c.lstrip("+-").replace(".", "", 1).replace("e", "", 1).replace("-", "").isdigit()]
sys.exit(1 if bad else 0)' "$FD/top.csv" || { echo "a formula cell is left in top's CSV"; return 1; }
    "$NPUSCOPE" table -q --format csv "$FD/csv" >"$FD/table.csv" || return 1
    grep -q '^"'"'"'=1+2",-3.5,' "$FD/table.csv" || { cat "$FD/table.csv"; return 1; }
    # --csv-raw: the raw text
    "$NPUSCOPE" top -q --csv-raw --format csv "$FD/csv" | grep -q '^"=HYPERLINK(""http://x"")",' &&
    "$NPUSCOPE" table -q --csv-raw --format csv "$FD/csv" | grep -q '^=1+2,-3.5,'
}
check "faults: CSV cells starting = + - @ neutralised (OWASP), numbers kept, --csv-raw raw" fd_csv_formula

# A folder name with an escape sequence and a newline: what reaches the
# terminal shows them escaped, and no forged line appears.
fd_term_escape() {
    local evil
    evil="$FD/term/x$(printf '\033[2J\033[31m')red$(printf '\r\nnpuscope: forged')"
    mkdir -p "$evil/run-1" && echo '{"wall_s": "x"}' >"$evil/run-1/run.json" || return 2
    $FD_GEN "$evil" --runs 3 --prefix ok || return 2
    "$NPUSCOPE" table "$evil" >"$FD/term.out" 2>"$FD/term.err"
    "$NPUSCOPE" diff "$evil" "$evil" >>"$FD/term.out" 2>>"$FD/term.err"
    cat "$FD/term.out" "$FD/term.err" >"$FD/term.all"
    [ -s "$FD/term.err" ] || { echo "no warning about the broken run"; return 1; }
    if grep -q "$(printf '\033')" "$FD/term.all"; then echo "a raw ESC reached the terminal"; return 1; fi
    if grep -q "$(printf '\r')" "$FD/term.all"; then echo "a raw CR reached the terminal"; return 1; fi
    if grep -q '^npuscope: forged' "$FD/term.all"; then echo "a forged line"; return 1; fi
    grep -q 'x\\x1b\[2J\\x1b\[31mred\\x0d\\x0anpuscope: forged/run-1/run.json' "$FD/term.err" ||
        { cat "$FD/term.err"; return 1; }
}
check "faults: escape sequences and newlines in names reach the terminal escaped" fd_term_escape

# ------------------------------------------------------------ smaller faults
# A tag that names an axis would overwrite every run's axis value: refused.
fd_tag_axis() {
    "$NPUSCOPE" sweep -q -o "$FD/tagaxis" --tag x=9 -L x=1,2 -- true >/dev/null 2>"$FD/tagaxis.err"
    local rc=$?
    [ "$rc" -eq 2 ] || { echo "exit $rc, want 2"; cat "$FD/tagaxis.err"; return 1; }
    grep -q "'x' is an axis of this sweep" "$FD/tagaxis.err" || { cat "$FD/tagaxis.err"; return 1; }
    [ ! -d "$FD/tagaxis" ] || [ -z "$(ls "$FD/tagaxis")" ] || { echo "runs were recorded"; return 1; }
}
check "faults: sweep --tag x=9 -L x=1,2 refused (exit 2), nothing recorded" fd_tag_axis

# Tags named n and mode: their CSV columns are tag:n and tag:mode, never a
# second "n" or "mode" header.
fd_tag_columns() {
    $FD_GEN "$FD/tagcol" --runs 2 --tag n=5 --tag mode=fast --tag regime=x || return 2
    "$NPUSCOPE" table -q --format csv "$FD/tagcol" >"$FD/tagcol.csv" || return 1
    head -n 1 "$FD/tagcol.csv" | tr ',' '\n' | sort | uniq -d >"$FD/tagcol.dup"
    [ ! -s "$FD/tagcol.dup" ] || { echo "duplicate columns: $(cat "$FD/tagcol.dup")"; head -n 2 "$FD/tagcol.csv"; return 1; }
    head -n 1 "$FD/tagcol.csv" | grep -q '^tag:n,tag:mode,tag:regime,mode,n,' || { head -n 2 "$FD/tagcol.csv"; return 1; }
}
check "faults: tags named n, mode, regime get CSV columns tag:n, tag:mode, tag:regime" fd_tag_columns

# A huge wall time: table prints %.4g, never a 310-digit number.
fd_table_huge() {
    $FD_GEN "$FD/huge" --runs 1 --wall 1e308 || return 2
    "$NPUSCOPE" table -q "$FD/huge" >"$FD/huge.txt" || return 1
    if grep -Eq '[0-9]{20}' "$FD/huge.txt"; then echo "a 20-digit run in the table"; cat "$FD/huge.txt" | cut -c1-200; return 1; fi
    grep -q 'e+30[78]' "$FD/huge.txt" || { cut -c1-200 "$FD/huge.txt"; return 1; }
}
check "faults: table of a 1e308 s run prints 1e+308, not 310 digits" fd_table_huge

# A flat fit: y the same at every x: no "R² nan".
fd_fit_flat() {
    printf 'x,y\n1,2\n2,2\n4,2\n8,2\n' >"$FD/flat.csv"
    "$NPUSCOPE" fit --x x --y y "$FD/flat.csv" >"$FD/flat.txt" 2>&1 || return 1
    if grep -qi 'nan' "$FD/flat.txt"; then cat "$FD/flat.txt"; return 1; fi
    grep -q 'R² - (y is the same at every x)' "$FD/flat.txt" || { cat "$FD/flat.txt"; return 1; }
    "$NPUSCOPE" fit --format json --x x --y y "$FD/flat.csv" | jqt '.fits[0].r2 == null'
}
check "faults: fit of a flat y says R² is undefined, never nan" fd_fit_flat

# run.json that is a FIFO or a folder: said, never opened (a FIFO would
# block); out of file descriptors: exit 2, not "no runs found".
fd_runjson_kinds() {
    rm -rf "$FD/kinds" && mkdir -p "$FD/kinds/fifo" "$FD/kinds/dir/run.json" &&
    mkfifo "$FD/kinds/fifo/run.json" || return 2
    timeout "$(hang_s 20)" "$NPUSCOPE" table "$FD/kinds" >/dev/null 2>"$FD/kinds.err"
    local rc=$?
    [ "$rc" -eq 1 ] || { echo "exit $rc, want 1 (no runs)"; cat "$FD/kinds.err"; return 1; }
    grep -q 'fifo/run.json: warning: is a FIFO, not a file; run skipped' "$FD/kinds.err" &&
    grep -q 'dir/run.json: warning: is a folder, not a file; run skipped' "$FD/kinds.err" ||
        { cat "$FD/kinds.err"; return 1; }
}
check "faults: a run.json that is a FIFO or a folder is named, not opened" fd_runjson_kinds
fd_emfile() {
    $FD_GEN "$FD/fds" --runs 3 || return 2
    # stdin, stdout, stderr and the folder: the first run.json cannot open
    (ulimit -n 4; exec "$NPUSCOPE" table "$FD/fds") >/dev/null 2>"$FD/fds.err" </dev/null
    local rc=$?
    [ "$rc" -eq 2 ] || { echo "exit $rc, want 2"; cat "$FD/fds.err"; return 1; }
    grep -q 'Too many open files' "$FD/fds.err" || { cat "$FD/fds.err"; return 1; }
    if grep -q 'no runs found' "$FD/fds.err"; then cat "$FD/fds.err"; return 1; fi
}
check "faults: out of file descriptors is exit 2 and says so, not 'no runs found'" fd_emfile

# A report nested deeper than a run.json reader follows: the warning says
# how deep, not "not valid JSON".
fd_depth() {
    $FD_GEN "$FD/deep" --runs 1 --depth 1100 || return 2
    "$NPUSCOPE" table "$FD/deep" >/dev/null 2>"$FD/deep.err"
    grep -q 'nested deeper than a reader can follow (2048 JSON levels: a report of about 1021 nested rows)' "$FD/deep.err" ||
        { cat "$FD/deep.err"; return 1; }
    if grep -q 'not valid JSON' "$FD/deep.err"; then cat "$FD/deep.err"; return 1; fi
    $FD_GEN "$FD/deep-ok" --runs 1 --depth 1000 || return 2
    "$NPUSCOPE" table -q --format json "$FD/deep-ok" | jqt '.rows[0].n == 1'
}
check "faults: a run.json nested past the reader's depth is named as such" fd_depth

# A report deeper than any JSON reader nests, recorded: record wrote it as
# nested as it was, and every reader skipped the run.  Now its rows below
# depth 64 are stored flat ("rows", version 2) and read back as the same
# tree; a shallow run stays version 1.
fd_deep_record() {
    awk 'BEGIN { b = "===-------------------------------------------------------------------------==="
        print b; print "  ... Execution time report ..."; print b
        print "  Total Execution Time: 0.3000 seconds"; print ""; print "  ----Wall Time----  ----Name----"
        ind = ""; for (i = 0; i < 3000; i++) { printf "    0.%04d (  1.0%%)  %sP%d\n", 3000 - i, ind, i; ind = ind "  " }
        print "    0.0000 (  0.0%)  Rest"; print "    0.3000 (100.0%)  Total" }' >"$FD/deep3000.log"
    rm -rf "$FD/rec-deep"
    "$NPUSCOPE" record -q -o "$FD/rec-deep" --preset mlir -- cat "$FD/deep3000.log" || return 1
    "$NPUSCOPE" table --format json "$FD/rec-deep" >"$FD/rd-table.json" 2>"$FD/rd.err" || { cat "$FD/rd.err"; return 1; }
    [ ! -s "$FD/rd.err" ] || { cat "$FD/rd.err"; return 1; }
    jqt '.rows[0].n == 1' "$FD/rd-table.json" || return 1
    # the whole tree, row by row, as the log's own (the header names the source)
    "$NPUSCOPE" tree "$FD/rec-deep" | tail -n +2 >"$FD/rd-run.txt" &&
    "$NPUSCOPE" tree "$FD/deep3000.log" | tail -n +2 >"$FD/rd-log.txt" || return 1
    cmp "$FD/rd-run.txt" "$FD/rd-log.txt" || return 1
    "$NPUSCOPE" tree --format csv "$FD/rec-deep" | cut -d, -f3- >"$FD/rd-run.csv" &&
    "$NPUSCOPE" tree --format csv "$FD/deep3000.log" | cut -d, -f3- >"$FD/rd-log.csv" || return 1
    cmp "$FD/rd-run.csv" "$FD/rd-log.csv" || return 1
    [ "$(wc -l <"$FD/rd-run.csv")" -eq 3002 ] || { wc -l "$FD/rd-run.csv"; return 1; }
    "$NPUSCOPE" top -q -n 0 --format json "$FD/rec-deep" | jqt '.rows | length == 3000' || return 1
    "$NPUSCOPE" report -q -o "$FD/rd.html" "$FD/rec-deep" || return 1
    # jq 1.6 (256 levels) reads the run.json: the tree as stored
    jqt '.version == 2 and ([.reports[0] | .. | .name? | strings] | length) == 3002
         and ([.. | .rows? | arrays] | length) == 1' "$FD"/rec-deep/*/run.json || return 1
    rm -rf "$FD/rec-flat"
    "$NPUSCOPE" record -q -o "$FD/rec-flat" --preset mlir -- cat "$FIX/mlir22-tree-st.txt" || return 1
    jqt '.version == 1 and ([.. | .rows? | arrays] | length) == 0' "$FD"/rec-flat/*/run.json
}
check "faults: a recorded report 3,000 levels deep reads back as the same tree" fd_deep_record

if [ -n "${FD_ALONE:-}" ]; then finish; fi
