# shellcheck shell=bash
# run_consistency.sh -- one answer per question: the same quantity read
# through every output agrees.  Sourced by tests/run.sh (full tier; uses
# its check/ok/bad/skip, $NPUSCOPE, $TMP).  Runs alone too:
#   bash -c '. tests/lib.sh; . tests/run_consistency.sh; finish'
#
# For every fixture, the demo's constructed NPU study, and real
# mlir-opt-22 / clang-22 / flang-22 sweeps recorded here (about 30 s):
#   - `top --by stage` = `advise --format json` .summary.stages (the same
#     six decimals), and the page's embedded findings are byte for byte
#     what advise prints;
#   - stage shares (with Rest) sum to 100 % within rounding; a trace's
#     stages alone sum to 100 +- 1 % (its side tracks counted once);
#   - a configuration's stages in advise = its row of `table --stages`;
#   - the quoted heaviest pass is the median over the runs of its summed
#     time (recomputed here from run.json with jq), never the worst run;
#   - a real cold/warm mlir-opt sweep: cache verdict miss and rule
#     cache-miss, never warm-cache; the constructed NPU cold/warm runs
#     (tests/runs): hit and warm-cache with the factor;
#   - a real clang-22 -ftime-trace with headers: shares sum to 100 +- 1 %,
#     Source is no ranked pass, the costliest headers are named.
# Seen failing on the code before the findings engine (commit message).

CS=$TMP/consistency
mkdir -p "$CS"
FIX=${FIX:-tests/fixtures}

# cs_same INPUT...: top --by stage = advise summary; page = advise JSON
cs_same() {
    "$NPUSCOPE" advise --format json "$@" >"$CS/adv.json" 2>/dev/null || return 1
    if "$NPUSCOPE" top --by stage --format json "$@" >"$CS/top.json" 2>/dev/null; then
        jq -c '[.rows[] | {(.name): .share}] | add // {}' "$CS/top.json" >"$CS/t.s"
    else
        echo '{}' >"$CS/t.s" # no timing report: no stage either
    fi
    jq -c '.summary.stages' "$CS/adv.json" >"$CS/a.s"
    cmp -s "$CS/t.s" "$CS/a.s" || { echo "$*: top $(cat "$CS/t.s")"; echo "advise $(cat "$CS/a.s")"; return 1; }
    # shares (Rest included) add up to 1 within rounding (the printed
    # values are rounded: 1 %), or the summary says why not
    jqt '.summary | (.stages | length) == 0 or
         ((([.stages[]] | add) - 1 | fabs) <= 0.01) == (.why == null)' "$CS/adv.json" || return 1
    "$NPUSCOPE" report -q -o "$CS/p.html" "$@" 2>/dev/null || return 1
    awk '/<script type="application\/json" id="npuscope-findings">/ { on = 1; sub(/.*id="npuscope-findings">/, "") }
         on { if (sub(/<\/script>.*/, "")) { if (length($0)) print; exit } print }' "$CS/p.html" >"$CS/emb.json"
    cmp -s "$CS/emb.json" "$CS/adv.json" || { echo "$*: the page's findings differ from advise's"; diff "$CS/emb.json" "$CS/adv.json" | head -5; return 1; }
    grep -q 'id="what-to-change"' "$CS/p.html" || { echo "$*: no What to change"; return 1; }
}

cs_fixtures() {
    local f n=0
    for f in "$FIX"/*.txt "$FIX"/*.log "$FIX"/*.json; do
        "$NPUSCOPE" top -q "$f" >/dev/null 2>&1 || continue # no timing report in it
        cs_same "$f" || return 1
        n=$((n + 1))
    done
    [ "$n" -ge 20 ] || { echo "only $n fixtures read"; return 1; }
    # several logs and a run folder at once: one case per log, then the runs
    cs_same "$FIX/clang22-ftime-report.txt" "$FIX/flang22-ftime-report.txt" \
        "$FIX/constructed-npuw-7.log" tests/runs || return 1
    jqt '[.cases[].name][0:3] == ["'"$FIX"'/clang22-ftime-report.txt", "'"$FIX"'/flang22-ftime-report.txt",
         "'"$FIX"'/constructed-npuw-7.log"] and (.cases | length) == 7' "$CS/adv.json"
}
check "consistency: every fixture: top --by stage = advise summary = the page's embedded findings" cs_fixtures

cs_npu_runs() {
    cs_same tests/runs || return 1
    jqt '[.cases[] | .cache.verdict == "hit" and .cache.factor > 2 and .cache.warm_compiled == 0
          and ([.advice[].rule] | index("warm-cache") != null)
          and (.advice[] | select(.rule == "warm-cache") | .evidence | test("factor x[0-9]"))]
         | length == 4 and all' "$CS/adv.json"
}
check "consistency: constructed NPU cold/warm runs (cache hits): verdict hit, warm-cache with the factor" cs_npu_runs

# the demo's constructed NPU study (tests/helpers/gen-study.py, 60 configurations)
cs_study() {
    [ -d "$CS/study/runs" ] || NPUSCOPE=$NPUSCOPE sh tests/helpers/study.sh "$CS/study" >/dev/null 2>&1 || return 1
    cs_same "$CS/study/runs" || return 1
    jqt '.study.configurations == 60 and (.cases | length) == 60' "$CS/adv.json" || return 1
    grep -q 'id="fix-table"' "$CS/p.html" || { echo "no fix table on the study page"; return 1; }
    # a configuration's stages = its table --stages row
    "$NPUSCOPE" table --stages --format json "$CS/study/runs" >"$CS/tab.json" 2>/dev/null || return 1
    jq -c '[.rows[] | select(.n > 0) | with_entries(select(.key | startswith("stage:")) |
            .key |= .[6:] | .value |= (. * 10000 | round))]' "$CS/tab.json" >"$CS/t1"
    jq -c '[.cases[] | .stages | with_entries(.value |= (. * 10000 | round))]' "$CS/adv.json" >"$CS/t2"
    jq -S -c . "$CS/t1" >"$CS/t1s"; jq -S -c '.' "$CS/t2" >"$CS/t2s"
    cmp -s "$CS/t1s" "$CS/t2s" || { echo "table --stages and advise stages differ"; head -c 300 "$CS/t1"; echo; head -c 300 "$CS/t2"; return 1; }
}
check "consistency: the demo's NPU study: summary, page, fix table, table --stages = advise stages" cs_study

# ---------------------------------------------------------------- real compiles
CS_MLIR=$CS/in.mlir
awk 'BEGIN { for (i = 0; i < 600; i++) {
    printf "func.func @f%d(%%a: i32, %%b: i32) -> i32 {\n", i
    printf "  %%0 = arith.addi %%a, %%b : i32\n  %%1 = arith.muli %%0, %%a : i32\n  return %%1 : i32\n}\n" } }' >"$CS_MLIR"
CS_PIPE='--pass-pipeline=builtin.module(inline,func.func(canonicalize,cse),convert-to-llvm)'

cs_mlir() {
    "$NPUSCOPE" sweep -q -o "$CS/mlir" -n 5 --modes cold,warm -L size=600 -- \
        mlir-opt-22 --mlir-timing "$CS_PIPE" "$CS_MLIR" -o /dev/null || return 1
    cs_same "$CS/mlir" || return 1
    jqt '.cases | length == 1 and (.[0].cache.verdict == "miss") and .[0].cache.warm_runs == 5
         and .[0].cache.warm_compiled == 5 and ([.[0].advice[].rule] | index("cache-miss") != null)
         and ([.[0].advice[].rule] | index("warm-cache") == null)' "$CS/adv.json" || return 1
    # run.json and table carry the verdict too
    jqt -s '[.[] | select(.mode == "warm" and (.primer | not) and (.warmup | not)) | .cache]
            | length == 5 and all(. == "miss")' "$CS"/mlir/*/run.json || return 1
    "$NPUSCOPE" table --format json "$CS/mlir" 2>/dev/null |
        jqt '[.rows[] | .cache] == [null, "miss"]' || return 1
    # the quoted heaviest pass is the median over the cold runs of its summed time
    local p want
    p=$(jq -r '.cases[0].heaviest_pass.name' "$CS/adv.json")
    want=$(jq -s --arg p "$p" '[.[] | select(.mode == "cold" and .ok and (.warmup | not)) |
        [.reports[].root | .. | objects | select(.name? == $p and .kind == "pass" and
         ((.children // []) | length) == 0) | .wall_s] | add // 0] | sort |
        .[length / 2 | floor]' "$CS"/mlir/*/run.json)
    jqt --argjson w "$want" '.cases[0].heaviest_pass.median_s - $w | fabs < 1e-9' "$CS/adv.json" || return 1
    # the page's stage finding quotes top's share
    local s
    # (printed with one decimal, as the page does: 51.0, not jq's 51)
    s=$(jq -r '.summary.dominant_stage as $d | .summary.stages[$d] * 1000 | round / 10 |
               if . == floor then "\(.).0" else "\(.)" end' "$CS/adv.json")
    grep -q "takes the most time: [0-9.]* s of self time, $s% of the total" "$CS/p.html" ||
        { echo "the page does not quote $s%"; grep -o 'takes the most time[^.]*' "$CS/p.html"; return 1; }
}
check "consistency: real mlir-opt-22 cold/warm sweep: cache miss, never warm-cache; median heaviest pass; page = top" cs_mlir

cs_clang() {
    printf '#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <math.h>\nint main(void) { double x = 0; for (int i = 0; i < 9; i++) x += sin(i); printf("%%f\\n", x); return 0; }\n' >"$CS/h.c"
    (cd "$CS" && clang-22 -O1 -c -ftime-trace -ftime-trace-granularity=0 h.c -o h.o) || return 1
    cs_same "$CS/h.json" || return 1
    jqt '[.summary.stages | to_entries[] | .value] | add - 1 | fabs <= 0.01' "$CS/adv.json" || return 1
    "$NPUSCOPE" top -n 0 --format json "$CS/h.json" >"$CS/ht.json" || return 1
    jqt '([.rows[].name] | index("Source") == null) and (.headers | length > 3) and
         ([.headers[].file] | any(test("stdio.h")))' "$CS/ht.json" || return 1
    jqt '(.summary.headers | length > 3) and .cases[0].heaviest_pass.name != "Source"' "$CS/adv.json" || return 1
    "$NPUSCOPE" top "$CS/h.json" | grep -q '^costliest headers' || { echo "top names no header"; return 1; }
}
if command -v clang-22 >/dev/null; then
    check "consistency: real clang-22 -ftime-trace: shares sum to 100 +- 1 %, Source no pass, headers named" cs_clang
else
    skip "clang-22 -ftime-trace consistency (no clang-22)"
fi

cs_flang() {
    printf 'program p\n  integer :: i\n  real :: s = 0\n  do i = 1, 100\n    s = s + sqrt(real(i))\n  end do\n  print *, s\nend program p\n' >"$CS/p.f90"
    "$NPUSCOPE" sweep -q -o "$CS/flang" -n 3 -L opt=0,2 -- sh -c 'cd "$1" && flang-22 -O"$2" -ftime-report -c p.f90 -o p.o' sh "$CS" '{opt}' || return 1
    cs_same "$CS/flang"
}
if command -v flang-22 >/dev/null; then
    check "consistency: real flang-22 -ftime-report sweep: top = advise summary = page" cs_flang
else
    skip "flang-22 consistency (no flang-22)"
fi

# The README's blocks on fixtures are what the binary prints: every
# ```-block that opens with "$ npuscope ..." naming tests/fixtures is run,
# and its lines (up to a "..." line, which cuts the rest) must be the
# output's first lines, byte for byte.
cs_readme() {
    NPUSCOPE=$NPUSCOPE python3 - README.md <<'PY'
import os, shlex, subprocess, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
bad = n = 0
i = 0
while i < len(lines):
    if lines[i].startswith("```") and i + 1 < len(lines) and lines[i + 1].startswith("$ npuscope ") \
            and "tests/fixtures/" in lines[i + 1]:
        cmd = shlex.split(lines[i + 1][2:])
        j, want = i + 2, []
        while j < len(lines) and not lines[j].startswith("```"):
            want.append(lines[j])
            j += 1
        if want and want[-1] == "...":
            want = want[:-1]
        elif "..." in want:
            want = want[:want.index("...")]
        env = dict(os.environ, COLUMNS="200", NO_COLOR="1")
        got = subprocess.run([os.environ["NPUSCOPE"]] + cmd[1:], capture_output=True, text=True,
                             env=env).stdout.split("\n")
        n += 1
        if got[:len(want)] != want:
            bad += 1
            print("README block '%s' differs:" % lines[i + 1])
            for w, g in zip(want, got):
                if w != g:
                    print("  README: %s\n  binary: %s" % (w, g))
                    break
        i = j
    i += 1
if n < 2:
    print("only %d README blocks found" % n)
    sys.exit(1)
sys.exit(1 if bad else 0)
PY
}
check "consistency: the README's blocks on fixtures are what the binary prints" cs_readme
