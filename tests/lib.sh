# shellcheck shell=bash
# lib.sh -- what the test scripts share: the counters, check(), the summary
# line, and the checks that more than one script runs or that
# tests/selftest.sh proves can fail.  Sourced by tests/run.sh,
# tests/selftest.sh, and tests/run_bad.sh when it runs alone; it moves to
# the top of the tree and sets
#
#   NPUSCOPE   the binary under test (default ./build/npuscope)
#   FIX        tests/fixtures
#   TMP        a fresh temporary folder, removed on exit
#   pass fail  the counts that `finish` prints as "N passed, N failed"
#
# A check is a function that returns 0 when what it tests holds, and prints
# why not otherwise; `check "description" FUNCTION ARG...` runs it in a
# subshell (so a check that exits, or trips `set -u`, fails alone instead
# of ending the run), counts it, and shows the first 20 lines of what a
# failing one printed.  A check function never calls ok or bad itself.
#
# A check must fail on empty or missing output.  Two traps: jq 1.6's -e
# exits 0 when its input is empty, so `npuscope ... | jq -e COND` passes
# when npuscope prints nothing -- use jqt, below; and a `grep -q PATTERN &&
# fail` passes on an empty file -- test that the file has content first.

if [ -n "${NS_LIB:-}" ]; then return 0; fi
NS_LIB=1
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
NPUSCOPE=${NPUSCOPE:-./build/npuscope}
FIX=tests/fixtures
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0 skips=0
# A timeout in a test is there to catch a hang, never to time npuscope.
# The sanitized rerun of the suite (NPUSCOPE_INNER=1, tests/run.sh) runs
# every binary several times slower, and slower still on a loaded machine,
# so its hang limits are HANG_SCALE (3) times the plain run's:
# `timeout "$(hang_s 60)" ...`.
if [ -n "${NPUSCOPE_INNER:-}" ]; then HANG_SCALE=${HANG_SCALE:-3}; else HANG_SCALE=${HANG_SCALE:-1}; fi
hang_s() { echo $(($1 * HANG_SCALE)); }
# wait_for SECONDS CMD...: poll CMD until it is true; false when hang_s
# SECONDS pass first.  A test that races a background process
# waits for the condition it needs with this, never for a fixed time: on a
# busy machine any fixed time is too short.
# It polls every 50 ms for the first second, then every half second: a join that waits
# minutes for a lane started twenty sleep processes a second (5,800 in a
# make check), and on a machine where a process start takes milliseconds
# of every core's time that was not free.
wait_for() {
    local end=$((SECONDS + $1 * HANG_SCALE + 1)) polls=0 nap=0.05
    shift
    until "$@"; do
        [ "$SECONDS" -lt "$end" ] || return 1
        polls=$((polls + 1))
        [ "$polls" -lt 20 ] || nap=0.5
        sleep "$nap"
    done
}
# all_exist FILE...: true when every FILE exists.  A background job that
# must be joined says it is done in a file, and the joiner waits for the
# file (wait_for ... all_exist): `wait PID` on a job that ended minutes ago
# is unsafe -- over a whole make check the process ids wrap (pid_max is
# often 32768), and a new child given the same id makes bash forget the
# old job's status ("wait: pid N is not a child of this shell").
all_exist() { local f; for f; do [ -e "$f" ] || return 1; done; }
# text for people fits $COLUMNS (src/cli/cli.h): a test gets every column
# unless it sets a width itself
unset COLUMNS

ok()   { ns_tick; pass=$((pass + 1)); [ -n "${VERBOSE:-}" ] && echo "ok   $*"; return 0; }
bad()  { ns_tick; fail=$((fail + 1)); echo "FAIL $*"; }
# skip WHAT: a check that did not run, said and not counted as passed
skip() { ns_tick; skips=$((skips + 1)); echo "skipped: $*"; }

# ---------------------------------------------------------------- per-group times
# `finish` prints how long each group of checks took, one line each, so that
# a slow check is seen when it is added, and the CPU it took, so that the
# suite's budget on two cores is kept where it is spent.  A group is a sourced script
# (tests/run_X.sh: its name, found on the call stack, so a new `. tests/
# run_X.sh` line is timed with nothing more) or, for checks in run.sh
# itself, the section named by the last `group NAME`.  Each counted result
# (ok, bad, skip, tally) adds the time since the one before it to the group
# of the script that produced it: the work before a result is its check's.
# The CPU is bash's `times`: this shell's and its waited-for children's
# (a check's subshell and all it waited for; not a lane run beside, whose
# own lines say its CPU), read through a file (no fork a result).
NS_TLAST=${EPOCHREALTIME/./}
NS_GROUP=
declare -A NS_GTIME=() NS_GCPU=()
NS_GORDER=()
# ns_ms 1m2.345s: its milliseconds, in ns_m
ns_ms() {
    local m=${1%%m*} sec=${1#*m}
    sec=${sec%s}
    ns_m=$((m * 60000 + 10#${sec%.*} * 1000 + 10#${sec#*.}))
}
# ns_cpu_ms: sets ns_cpu to the CPU milliseconds of this shell and its
# waited-for children so far
ns_cpu_ms() {
    local u s cu cs
    ns_cpu=0
    times >"$TMP/.times" || return 0
    { read -r u s; read -r cu cs; } <"$TMP/.times" || return 0
    for u in "$u" "$s" "$cu" "$cs"; do ns_ms "$u"; ns_cpu=$((ns_cpu + ns_m)); done
}
ns_cpu_ms
NS_CLAST=$ns_cpu
ns_tick() {
    local now=${EPOCHREALTIME/./} g= i src
    for ((i = 1; i < ${#BASH_SOURCE[@]}; i++)); do
        src=${BASH_SOURCE[i]}
        case $src in tests/lib.sh | */tests/lib.sh) continue ;; esac
        case $src in tests/run.sh | */tests/run.sh) g=${NS_GROUP:-run.sh} ;; *) g=${src##*/} ;; esac
        break
    done
    g=${g:-${NS_GROUP:-${0##*/}}}
    [ -n "${NS_GTIME[$g]+x}" ] || { NS_GTIME[$g]=0; NS_GCPU[$g]=0; NS_GORDER+=("$g"); }
    NS_GTIME[$g]=$((NS_GTIME[$g] + now - NS_TLAST))
    NS_TLAST=$now
    ns_cpu_ms
    NS_GCPU[$g]=$((NS_GCPU[$g] + ns_cpu - NS_CLAST))
    NS_CLAST=$ns_cpu
}
# group NAME: the checks of run.sh from here on are timed as NAME
# (the time before the first group is the first group's)
group() { [ -z "$NS_GROUP" ] || ns_tick; NS_GROUP=$1; }
# ns_times_join PREFIX FILE: the groups of another run's output (its "time"
# lines) join ours, named PREFIX NAME (a run beside this one: its times
# overlap ours, they do not add to them)
ns_times_join() {
    local sec tenth csec ctenth name
    while read -r sec tenth csec ctenth name; do
        NS_GTIME["$1$name"]=$((sec * 1000000 + tenth * 100000))
        NS_GCPU["$1$name"]=$((csec * 1000 + ctenth * 100))
        NS_GORDER+=("$1$name")
    done < <(sed -n 's/^time *\([0-9]*\)\.\([0-9]\) s  cpu *\([0-9]*\)\.\([0-9]\) s  \(.*\)$/\1 \2 \3 \4 \5/p' "$2")
}
# ns_times: one line per group, "time   12.3 s  cpu    8.1 s  NAME", in
# the order run
ns_times() {
    local g us ms
    for g in "${NS_GORDER[@]}"; do
        us=${NS_GTIME[$g]} ms=${NS_GCPU[$g]:-0}
        printf 'time %7d.%d s  cpu %7d.%d s  %s\n' $((us / 1000000)) $((us / 100000 % 10)) \
            $((ms / 1000)) $((ms / 100 % 10)) "$g"
    done
}
# same_outputs PREFIX WHAT: two runs left PREFIX.out1/.err1/.rc1 and
# PREFIX.out2/.err2/.rc2; they must be the same bytes (WHAT names the runs
# in the message)
same_outputs() {
    local p=$1 what=$2
    cmp -s "$p.out1" "$p.out2" || { echo "stdout differs: $what"; diff "$p.out1" "$p.out2" | head -8; return 1; }
    cmp -s "$p.err1" "$p.err2" || { echo "stderr differs: $what"; diff "$p.err1" "$p.err2" | head -8; return 1; }
    cmp -s "$p.rc1" "$p.rc2" || { echo "exit code differs: $what"; return 1; }
}
# Pairs of runs that must give the same bytes, compared a batch at a time:
# each case appends each side's stdout and stderr to PREFIX.out1/.err1 and
# PREFIX.out2/.err2 and is closed by a line naming it (and, on stdout, its
# exit code); pairs_same compares the four files once and names the first
# case that differs.  (Three cmp processes a case were most of what the
# split and mapped checks cost.)
# pairs_begin PREFIX: an empty batch
pairs_begin() { : >"$1.out1"; : >"$1.err1"; : >"$1.out2"; : >"$1.err2"; }
# pairs_close PREFIX SIDE RC WHAT: the end of a case on side SIDE (1 or 2)
pairs_close() {
    printf '== end of: %s (exit %s)\n' "$4" "$3" >>"$1.out$2"
    printf '== end of: %s\n' "$4" >>"$1.err$2"
}
# pairs_same PREFIX WHAT: both sides the same bytes; otherwise say which
# output of which case differs first, and how
pairs_same() {
    local p=$1 s why line
    for s in out err; do
        why=$(cmp "$p.${s}1" "$p.${s}2" 2>&1) && continue
        echo "std$s differs: $2"
        # cmp says "... differ: byte B, line L" or "EOF on F after byte B, line L"
        line=${why##* line }
        case $line in '' | *[!0-9]*) line=1 ;; esac
        awk -v l="$line" 'FNR >= l && /^== end of: / { print "  in the case: " substr($0, 12); exit }' "$p.${s}1"
        diff "$p.${s}1" "$p.${s}2" | head -8
        return 1
    done
}
check() {
    local name=$1; shift
    if ("$@") >"$TMP/out" 2>&1; then ok "$name"
    else bad "$name"; sed 's/^/     /' "$TMP/out" | head -20; fi
}

# finish: the time of each group, then the summary line, which stays the
# last; true only when nothing failed (a script ends with it, so that this
# is its exit status)
finish() {
    ns_times
    [ "$skips" -eq 0 ] || echo "$skips skipped (each said above; not counted as passed)"
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}

# jqt FILTER [FILE...]: true when jq prints `true` and nothing else (the
# jq options and arguments as for jq).  Empty input, a parse error, false,
# null, or any other value is false, and what jq printed is shown.
jqt() {
    local out
    out=$(jq "$@" 2>&1)
    [ "$out" = true ] && return 0
    echo "jq $1: ${out:-no output}" | head -n 5
    return 1
}

# ---------------------------------------------------------------- test programs
# prog_run NAME CMD...: run a test program whose last line of output is its
# summary, "[PROGRAM: ]N passed, M failed" (tests/unit*.c through
# tests/check.h, tests/selftest.sh, tests/run.sh itself).  Its FAIL lines
# (and the indented lines under them) are shown; prog_pass, prog_fail and
# prog_rc are set.  False, with the reason in prog_why, when the program
# did not end with its summary, ran no check, or exited non-zero although
# it counted no failure (a crash after its summary, a sanitizer report).
prog_run() {
    local name=$1 last re='^\([a-z_.]*: \)\{0,1\}\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$'
    shift
    prog_pass=0 prog_fail=0 prog_why=
    "$@" >"$TMP/prog.out" 2>"$TMP/prog.err" </dev/null
    prog_rc=$?
    awk '/^FAIL/ { on = 1; print; next } on && /^     / { print; next } { on = 0 }' "$TMP/prog.out"
    last=$(tail -n 1 "$TMP/prog.out")
    if [ -z "$(echo "$last" | sed -n "s/$re/x/p")" ]; then
        prog_why="$name did not finish (exit $prog_rc; no summary line)"
    else
        prog_pass=$(echo "$last" | sed -n "s/$re/\2/p")
        prog_fail=$(echo "$last" | sed -n "s/$re/\3/p")
        if [ $((prog_pass + prog_fail)) -eq 0 ]; then prog_why="$name ran no check"
        elif [ "$prog_rc" -ne 0 ] && [ "$prog_fail" -eq 0 ]; then
            prog_why="$name exited $prog_rc after \"$last\""
        else return 0; fi
    fi
    tail -n 5 "$TMP/prog.err" | sed 's/^/     /' >"$TMP/prog.why"
    return 1
}

# tally NAME CMD...: prog_run, and its counts join ours; a program that
# did not finish, ran nothing or exited wrongly is one more failure
tally() {
    prog_run "$@"
    local rc=$?
    ns_tick
    pass=$((pass + prog_pass)); fail=$((fail + prog_fail))
    [ "$rc" -eq 0 ] || { bad "$prog_why"; cat "$TMP/prog.why"; }
}

# units_run BUILD DIR [JOBS]: run every unit program built in BUILD side
# by side, JOBS at a time (default: as many as there are CPUs), each one's
# output and exit code in DIR/NAME.{out,err,rc} for ns_replay.  They are
# independent (each its own mkstemp files).  A program not built is not
# run: the callers say so.
units_run() {
    local src u dir=$2 pids=() running=0 jobs=${3:-$(nproc 2>/dev/null || echo 1)}
    mkdir -p "$dir"
    for src in tests/unit*.c; do
        u=$1/$(basename "$src" .c)
        [ -x "$u" ] || continue
        ( "$u" >"$dir/${u##*/}.out" 2>"$dir/${u##*/}.err" </dev/null; echo $? >"$dir/${u##*/}.rc" ) &
        pids+=($!)
        running=$((running + 1))
        # (waits for these only: run.sh may have other work in the background)
        if [ "$running" -ge "$jobs" ]; then wait -n "${pids[@]}" 2>/dev/null; running=$((running - 1)); fi
    done
    [ ${#pids[@]} -eq 0 ] || wait "${pids[@]}" 2>/dev/null
}
# units_all BUILD: every tests/unit*.c is a program that must have been
# built in BUILD: a missing one is a failure, never a silent skip.  They
# run side by side (units_run); then each is tallied in order from what it
# printed and its exit code.
units_all() {
    local src u dir=$TMP/units
    units_run "$1" "$dir"
    for src in tests/unit*.c; do
        u=$1/$(basename "$src" .c)
        if [ -x "$u" ]; then tally "$u" ns_replay "$dir/${u##*/}"; else bad "$u was not built (make units)"; fi
    done
}
# ns_replay PREFIX: print PREFIX.out, PREFIX.err to stderr, and exit with
# PREFIX.rc (a program run before, given to prog_run as if run now)
ns_replay() { cat "$1.out"; cat "$1.err" >&2; return "$(cat "$1.rc" 2>/dev/null || echo 99)"; }
# units_pass BUILD [JOBS]: the same as one check (another build's unit
# tests), side by side as units_all (under ASan unit_npu_skip alone
# takes a minute, and one after another the programs took 70-90 s of the
# builds lane); prints the first failing program's why.
units_pass() {
    local src u dir=$TMP/units-pass-${1//\//_}
    for src in tests/unit*.c; do
        u=$1/$(basename "$src" .c)
        [ -x "$u" ] || { echo "$u was not built"; return 1; }
    done
    units_run "$1" "$dir" "${2:-}"
    for src in tests/unit*.c; do
        u=$1/$(basename "$src" .c)
        prog_run "$u" ns_replay "$dir/${u##*/}" || { echo "$prog_why"; cat "$TMP/prog.why"; return 1; }
        [ "$prog_fail" -eq 0 ] || { echo "$u: $prog_fail failed"; return 1; }
    done
}

# tap_tally NAME SECONDS CMD...: run a TAP producer (node --test) under
# `timeout SECONDS` and count its top-level results as ours: "ok" passes,
# "not ok" fails (with its diagnostics), and "# SKIP" / "# TODO" results
# are said but not counted.  The run is one more failure when it exits
# non-zero with no failure counted (124: killed by the timeout), when its
# plan "1..N" is missing or disagrees with the results (it stopped mid-way),
# or when no test passed.
tap_tally() {
    local name=$1 secs=$2 rc line n=0 npass=0 nfail=0 plan
    shift 2
    timeout "$secs" "$@" >"$TMP/tap" 2>&1
    rc=$?
    while IFS= read -r line; do
        case $line in
        "ok "*" # "[Ss][Kk][Ii][Pp]* | "ok "*" # "[Tt][Oo][Dd][Oo]* | "not ok "*" # "[Tt][Oo][Dd][Oo]*)
            n=$((n + 1)); skip "$name: ${line#* - }" ;;
        "ok "*) n=$((n + 1)); npass=$((npass + 1)); ok "$name: ${line#ok * - }" ;;
        "not ok "*)
            n=$((n + 1)); nfail=$((nfail + 1)); bad "$name: ${line#not ok * - }"
            awk -v t="$line" '$0 == t { on = 1; next } on && /^(ok|not ok) / { exit } on' "$TMP/tap" |
                head -40 | sed 's/^/     /' ;;
        esac
    done <"$TMP/tap"
    plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$TMP/tap" | tail -n 1)
    if [ "$rc" -eq 124 ]; then bad "$name: the runner was killed by its $secs s timeout after $n tests"
    elif [ "$rc" -ne 0 ] && [ "$nfail" -eq 0 ]; then bad "$name: the runner exited $rc with no test failed"
    elif [ -z "$plan" ]; then bad "$name: the runner printed no plan (1..N) after $n tests"
    elif [ "$plan" -ne "$n" ]; then bad "$name: the runner planned $plan tests and reported $n"
    elif [ "$npass" -eq 0 ] && [ "$nfail" -eq 0 ]; then bad "$name: the runner ran no test"
    else return 0; fi
    tail -n 20 "$TMP/tap" | sed 's/^/     /'
}

# ---------------------------------------------------------------- exactness
# Clean what the scanner cleans (colour, CR, logger prefixes) before the
# naive extraction; the reports themselves are untouched.
clean() { sed 's/\x1b\[[0-9;]*m//g; s/\r$//; s/^\[[A-Z]*\] [^ ]* \[[^]]*\] //' "$1"; }
exact() {
    local f=$1
    clean "$f" | awk -f tests/extract-reports.awk >"$TMP/want"
    [ -s "$TMP/want" ] || { echo "no report extracted from $f"; return 1; }
    "$NPUSCOPE" tree --format original "$f" >"$TMP/got" 2>"$TMP/err" || return 1
    [ ! -s "$TMP/err" ] || { echo "unexpected warnings:"; cat "$TMP/err"; return 1; }
    diff "$TMP/want" "$TMP/got"
}

# ---------------------------------------------------------------- exports
# folded_shape FILE: folded stacks, at least one line, each "FRAME;... N"
folded_shape() {
    [ -s "$1" ] || { echo "no folded line"; return 1; }
    if grep -nv '. [0-9][0-9]*$' "$1" >"$TMP/folded.bad"; then
        echo "bad folded lines:"; head -n 5 "$TMP/folded.bad"; return 1
    fi
}
# exports FILE: json, csv, chrome, speedscope, folded and top of FILE agree
# (each output kept in a file, so that npuscope's exit code is read; the
# files stay, $TMP/exp/NAME.json, .chrome, .speedscope and .top, for
# run.sh's strict JSON check of the same outputs)
exports() {
    local f=$1 n rows reports o
    o=$TMP/exp/${f##*/}
    [ -d "$TMP/exp" ] || mkdir -p "$TMP/exp" || return 1
    "$NPUSCOPE" tree -q --format json "$f" >"$o.json" || return 1
    # one jq for the document: its reports; rows + roots = nodes; every
    # report complete; Total == header total; LLVM's wall == its header
    # (its answer through a file: a command substitution is a process)
    local complete totals walls
    jq -r '[(.reports | length),
        ([.reports[] | [.root | .. | objects | select(has("children"))] | length] | add // 0),
        ([.reports[] | .complete] | all),
        ([.reports[] | select(.header_total_s != null and .producer != "llvm-timer-group")
          | .header_total_s == .root.wall_s] | all),
        ([.reports[] | select(.header_wall_clock_s != null) | .header_wall_clock_s == .root.wall_s] | all)]
        | @tsv' "$o.json" >"$TMP/exp.facts" || return 1
    read -r reports n complete totals walls <"$TMP/exp.facts"
    [ "${reports:-0}" -gt 0 ] || { echo "no report"; return 1; }
    [ "$complete" = true ] || { echo "incomplete report"; return 1; }
    [ "$totals" = true ] || { echo "Total differs from Total Execution Time"; return 1; }
    [ "$walls" = true ] || { echo "LLVM Total wall differs from the wall clock header"; return 1; }
    "$NPUSCOPE" tree -q --format csv "$f" >"$TMP/csv" || return 1
    wc -l <"$TMP/csv" >"$TMP/csv.n" && read -r rows <"$TMP/csv.n" && rows=$((rows - 1)) # less the header
    [ "$rows" -eq $((n - reports)) ] || { echo "csv rows $rows, json nodes $n, reports $reports"; return 1; }
    "$NPUSCOPE" tree -q --format chrome "$f" >"$o.chrome" || return 1
    "$NPUSCOPE" tree -q --format speedscope "$f" >"$o.speedscope" || return 1
    "$NPUSCOPE" top -q -n 0 --format json "$f" >"$o.top" || return 1
    # the three documents in one jq; each of its answers names its check
    jq -n -r --slurpfile c "$o.chrome" --slurpfile s "$o.speedscope" --slurpfile t "$o.top" '
        [if ($c[0].traceEvents | length > 0) then empty else "chrome: no traceEvents" end,
         if ($s[0].profiles | length > 0) and ([$s[0].profiles[] | (.samples | length) == (.weights | length)] | all)
         then empty else "speedscope: no profile, or samples and weights of different lengths" end,
         if ($t[0].rows | length > 0) then empty else "top: no rows" end, "checked"] | .[]' \
        >"$TMP/exp.jq" 2>&1 || { cat "$TMP/exp.jq"; return 1; }
    # (no output, not even "checked": jq read nothing -- a pass of nothing is no pass)
    local said=()
    mapfile -t said <"$TMP/exp.jq"
    [ "${#said[@]}" -eq 1 ] && [ "${said[0]}" = checked ] || { head -n 5 "$TMP/exp.jq"; return 1; }
    "$NPUSCOPE" tree -q --format folded "$f" >"$TMP/folded" || return 1
    folded_shape "$TMP/folded"
}

# Every JSON npuscope writes goes through jansson's strict parser
# (tests/jsoncheck.c: no NaN, valid UTF-8, no raw control bytes, no
# duplicate keys), which refuses more than jq does.
JSONCHECK=${JSONCHECK:-${BUILD:-build}/jsoncheck}
# strict_json [-x RC] ARG...: npuscope ARG... exits RC (default 0) and
# prints one strict JSON document; no output is never a pass.
strict_json() {
    local want=0 rc
    if [ "$1" = -x ]; then want=$2; shift 2; fi
    "$NPUSCOPE" "$@" >"$TMP/sj" 2>"$TMP/sj.err"
    rc=$?
    [ "$rc" -eq "$want" ] || { echo "npuscope $*: exit $rc, wanted $want"; head -n 5 "$TMP/sj.err"; return 1; }
    [ -s "$TMP/sj" ] || { echo "npuscope $*: no output"; return 1; }
    "$JSONCHECK" "$TMP/sj" || { echo "npuscope $*: not strict JSON"; return 1; }
}

# ---------------------------------------------------------------- golden
# golden CASE: CASE.args (one argument a line) gives CASE.out, CASE.err and
# CASE.rc exactly; CASE.desc says in one line what the case shows, and a
# case without it fails
# (Two processes a case, npuscope and a cmp of its output, and diff only
# to show a difference: the case's files are read by bash itself.)
golden() {
    local c=$1 args=() desc=() rc want f
    [ -f "$c.desc" ] || { echo "$c.desc missing: say in one line what the case shows"; return 1; }
    mapfile -t desc <"$c.desc"
    [ "${#desc[@]}" -eq 1 ] && [[ ${desc[0]} == *[![:space:]]* ]] ||
        { echo "$c.desc: not one line of text"; return 1; }
    mapfile -t args <"$c.args" || return 1
    "$NPUSCOPE" "${args[@]}" >"$TMP/golden.out" 2>"$TMP/golden.err" </dev/null
    rc=$?
    read -r want <"$c.rc" || { echo "$c.rc: no exit code"; return 1; }
    for f in out err; do
        cmp -s "$c.$f" "$TMP/golden.$f" || { diff "$c.$f" "$TMP/golden.$f"; return 1; }
    done
    [ "$rc" = "$want" ] || { echo "exit $rc, $c.rc says $want"; return 1; }
}
# golden_layout DIR: every file in DIR belongs to a case that has all five
# parts (an .out left behind by a renamed case would otherwise go unnoticed)
golden_layout() {
    local f n x
    for f in "$1"/*; do
        n=${f%.*}
        case $f in *.args | *.out | *.err | *.rc | *.desc) ;; *) echo "$f: not part of a case"; return 1 ;; esac
        for x in args out err rc desc; do [ -f "$n.$x" ] || { echo "$n.$x missing"; return 1; }; done
    done
}

# ---------------------------------------------------------------- NPU logs
npu_no_leak() {
    # an MLIR log has no facts, even with --npu; an NPU log none with
    # --no-npu (without --npu it is recognised: tests/run_npu.sh), and has
    # them with --npu (without that, "none" would hold of a broken --npu too)
    "$NPUSCOPE" tree --npu --format json "$FIX/noisy-build.log" >"$TMP/npu1" || return 1
    jqt '(.reports | length > 0) and ([.reports[] | has("metrics")] | any | not)' "$TMP/npu1" || return 1
    "$NPUSCOPE" tree --no-npu --format json "$FIX/constructed-npu-2025.log" >"$TMP/npu2" || return 1
    jqt '(.reports | length > 0) and ([.reports[] | has("metrics")] | any | not)' "$TMP/npu2" || return 1
    "$NPUSCOPE" tree --npu --format json "$FIX/constructed-npu-2025.log" >"$TMP/npu3" || return 1
    jqt '(.reports | length > 0) and ([.reports[] | .metrics | length > 0] | all)' "$TMP/npu3"
}

# ---------------------------------------------------------------- bad input
# The corpus in tests/bad/cases (tests/run_bad.sh runs it; layout and how
# to add a case: tests/bad/README.md).
BAD=tests/bad/cases
BADGEN=$TMP/bad-gen # the large inputs, written by tests/bad/gen.sh
BAD_VMEM_KB=${BAD_VMEM_KB:-1048576}

# bad_input NAME: sets bad_in to the path of the case's input, empty when
# it has none
bad_input() {
    bad_in=
    if [ -f "$BAD/$1.in" ]; then bad_in=$BAD/$1.in
    elif [ -f "$BAD/$1.gen" ]; then bad_in=$BADGEN/$1.in; fi
}

# bad_run OUT ERR INPUT ARG...: npuscope ARG... capped, stdin from INPUT;
# prints nothing, returns npuscope's exit code
bad_run() {
    local out=$1 err=$2 in=${3:-/dev/null}
    shift 3
    (ulimit -v "$BAD_VMEM_KB" && exec timeout "$((60 * HANG_SCALE))" "$NPUSCOPE" "$@") <"$in" >"$out" 2>"$err"
}

# bad_json FILE...: strict JSON, by jansson (tests/jsoncheck.c: no NaN, valid
# UTF-8, no raw control bytes, no duplicate keys), all in one jsoncheck;
# when one fails, each on its own (bad_json_one), which names it.
bad_json() {
    "$JSONCHECK" "$@" 2>/dev/null && return 0
    local f
    for f; do bad_json_one "$f" || { echo "$f: invalid JSON"; return 1; }; done
}
# bad_json_one FILE: jansson stops at depth 2048, so a deeper document is
# parsed again by node's JSON.parse (or, without node, by jq's streaming
# parser: no limit, but seconds per deep document), and, as both take what
# jansson would refuse in places, looked at for the non-JSON words nan,
# NaN and Infinity where a value starts.
bad_json_one() {
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

# bad_case NAME: one case of the corpus: its exit code, its messages, and
# (exit 0 or 1) valid JSON exports of its input -- a document even when
# nothing is found ("reports": []), never an empty output
bad_case() {
    local name=$1 c=$BAD/$1 input args=() a rc want pat fmt bad_in
    bad_input "$name"
    input=$bad_in
    [ -z "$input" ] || [ -f "$input" ] || { echo "no input $input"; return 1; }
    if [ -f "$c.args" ]; then mapfile -t args <"$c.args"; else args=(tree INPUT); fi
    for a in "${!args[@]}"; do
        case ${args[$a]} in
            INPUT) args[a]=$input ;;
            INPUT_TEXT) args[a]=$(cat "$input") ;;
            OUTDIR) args[a]=$TMP/bad-out-$name; rm -rf "${args[a]}" ;;
            RUNDIR) # a folder of one run folder, NAME, whose run.json is the input
                args[a]=$TMP/bad-runs-$name; rm -rf "${args[a]}"
                mkdir -p "${args[a]}/$name" && cp "$input" "${args[a]}/$name/run.json" || return 1 ;;
        esac
    done
    bad_run "$TMP/bad.out" "$TMP/bad.err" "$input" "${args[@]}"; rc=$?
    read -r want <"$c.rc"
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
    # the three exports under one cap (a process fewer each), then one
    # jsoncheck of the three
    (ulimit -v "$BAD_VMEM_KB" || exit 1
     for fmt in json chrome speedscope; do
         timeout "$((60 * HANG_SCALE))" "$NPUSCOPE" tree -q --format "$fmt" "$input" >"$TMP/bad.$fmt" 2>"$TMP/bad.$fmt.err"
         echo $? >"$TMP/bad.$fmt.rc"
     done) </dev/null || { echo "ulimit -v $BAD_VMEM_KB failed"; return 1; }
    for fmt in json chrome speedscope; do
        read -r rc <"$TMP/bad.$fmt.rc"
        [ "$rc" -le 1 ] || { echo "--format $fmt: exit $rc"; head -20 "$TMP/bad.$fmt.err"; return 1; }
        [ -s "$TMP/bad.$fmt" ] || { echo "--format $fmt: no output (exit $rc)"; return 1; }
    done
    bad_json "$TMP/bad.json" "$TMP/bad.chrome" "$TMP/bad.speedscope"
}
