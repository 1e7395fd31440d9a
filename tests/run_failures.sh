# shellcheck shell=bash
# run_failures.sh -- compiles that fail, the NPU stack's environment, and
# the timeline of a whole load (issue 26).  Sourced by tests/run.sh (uses
# its check, $NPUSCOPE, $TMP, $FIX), or run alone: `bash tests/run_failures.sh`
# prints "N passed, N failed" (TIER=full adds the recorded runs).
#
# Inputs are constructed (tests/fixtures/README.md, "Failures, environment
# and timelines": each line's source is named there); the failure lines are
# the ones users posted.  What is checked:
#   - tree JSON "failures": pass, location, sub-model, message, line of
#     each failure, the lines of one failure merged, the reports compiled
#     before it kept; "environment" read from the log;
#   - timeline: three compiles' spans to the millisecond (the plugin's
#     unpadded milliseconds read as milliseconds), the gaps and the
#     unaccounted time; a compile across midnight; parallel compiles
#     overlapping; the clock going back; a log with no time; the chrome
#     export's events are the phases;
#   - (full tier) record of a failing stand-in: run.json "failure" and
#     "environment", table's status, a diff across two environments, the
#     timeline of a run, a study's compile matrix (advise, the page), the
#     page's timeline figure.

if ! declare -F check >/dev/null 2>&1; then
    # shellcheck source=tests/lib.sh
    . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
    FAIL_ALONE=1
fi
declare -F tier_full >/dev/null || tier_full() { [ "${TIER:-full}" = full ]; }

FL=$TMP/failures
mkdir -p "$FL"
FLOG=$FIX/constructed-npu-failure.log
LOADF=$FIX/load

# ---------------------------------------------------------------- failures
fl_tree_failures() {
    "$NPUSCOPE" tree -q --format json "$FLOG" >"$FL/f.json" || return 1
    jqt '(.reports | length) == 2 and (.failures | length) == 2
        and .failures[0] == {"pass": "StaticAllocation", "location": "main/_part26",
            "submodel": "Model0_prefill_REP0041__0",
            "message": "Failed to statically allocate '"'"'DDR'"'"' memory", "line": 297,
            "file": $f}
        and .failures[1].location == "main/_part142" and .failures[1].message == null
        and .failures[1].submodel == "Model0_prefill_REP0041__0" and .failures[1].line == 298' \
        --arg f "$FLOG" "$FL/f.json"
}
check "failures: tree JSON names the failing pass, location, sub-model, message and line; the 2 reports before it are kept" fl_tree_failures

fl_environment() {
    jqt '.environment == {"plugin_l0_minor": "12", "driver_l0_minor": "9",
        "compiler_opset": "11", "npu_platform": "5010"}' "$FL/f.json"
}
check "environment: L0 API versions, the CiD opset and NPU_PLATFORM read from the log" fl_environment

fl_verifier() {
    local rc
    "$NPUSCOPE" tree --format json "$LOADF/constructed-npu-failure-verifier.log" >"$FL/v.json" 2>"$FL/v.err"
    rc=$?
    [ "$rc" -eq 1 ] || { echo "exit $rc, wanted 1 (no report)"; return 1; }
    grep -q 'line 4: a compile failed: pass StopLocationVerifierPass, sub-model (not named): Found 348 duplicated names' "$FL/v.err" ||
        { cat "$FL/v.err"; return 1; }
    jqt '.failures == [{"pass": "StopLocationVerifierPass", "location": "module", "submodel": null,
        "message": "Found 348 duplicated names after full verification", "line": 4, "file": $f}]
        and .environment.driver_l0_minor == "12"' --arg f "$LOADF/constructed-npu-failure-verifier.log" "$FL/v.json"
}
check "failures: a verifier's three lines are one failure, with no sub-model (null), said on stderr" fl_verifier

fl_no_failure() {
    "$NPUSCOPE" tree -q --format json "$FIX/constructed-npuw-7.log" >"$FL/ok.json" || return 1
    jqt '.failures == [] and (.reports | length) == 7' "$FL/ok.json"
}
check "failures: a log that compiled has \"failures\": []" fl_no_failure

fl_advise_log() {
    "$NPUSCOPE" advise -q "$FLOG" >"$FL/adv.txt" || return 1
    grep -qx "a compile failed: $FLOG line 297: pass StaticAllocation, sub-model Model0_prefill_REP0041__0, at main/_part26: Failed to statically allocate 'DDR' memory" "$FL/adv.txt" ||
        { tail -3 "$FL/adv.txt"; return 1; }
}
check "advise on a log names its failed compile: pass, sub-model, location, message, line" fl_advise_log

# ---------------------------------------------------------------- timeline
# tl_json FILE: the timeline of FILE as JSON into $FL/tl.json (exit 0 wanted)
tl_json() { "$NPUSCOPE" timeline -q --format json "$1" >"$FL/tl.json"; }

fl_tl_three() {
    tl_json "$LOADF/constructed-timeline-3.log" || return 1
    jqt '.format == "npuscope-timeline" and .version == 1 and (.timelines | length) == 1
        and (.timelines[0] | .span_s == 21.895 and .start_clock == "09:41:00.005"
            and ([.phases[] | [.kind, .start_s, .end_s, .label, .report_total_s]] ==
                [["before", 0, 1.002, null, null],
                 ["compile", 1.002, 4.251, "#1", 3],
                 ["gap", 4.251, 6.02, null, null],
                 ["compile", 6.02, 16.395, "#2", 10],
                 ["gap", 16.395, 16.995, null, null],
                 ["compile", 16.995, 19.095, "#3", 2],
                 ["after", 19.095, 21.895, null, null]])
            and .unaccounted_s == 6.895 and .overlap_s == 0 and .untimed_lines > 0)' "$FL/tl.json"
}
check "timeline: three compiles' spans to the ms (unpadded plugin ms), gaps, before/after, unaccounted" fl_tl_three

fl_tl_midnight() {
    "$NPUSCOPE" timeline --format json "$LOADF/constructed-timeline-midnight.log" >"$FL/tl.json" 2>"$FL/tl.err" || return 1
    grep -q 'the clock passed midnight 1 time' "$FL/tl.err" || { cat "$FL/tl.err"; return 1; }
    jqt '.timelines[0] | .span_s == 4.75 and .midnights == 1
        and [.phases[] | [.kind, .start_s, .end_s, .report_total_s]] == [["compile", 0, 4.75, 4.5]]' "$FL/tl.json"
}
check "timeline: a compile across midnight (23:59:58.500 to 00:00:03.250) is 4.750 s" fl_tl_midnight

fl_tl_parallel() {
    tl_json "$LOADF/constructed-timeline-parallel.log" || return 1
    jqt '.timelines[0] | .span_s == 4 and .overlap_s == 2.6 and .unaccounted_s == -2.4
        and [.phases[] | [.kind, .start_s, .end_s, .lane]] == [["compile", 0, 3, 0], ["compile", 0.4, 4, 1]]' "$FL/tl.json"
}
check "timeline: parallel compiles overlap (2.600 s), the second in its own lane; reports sum past the wall time" fl_tl_parallel

fl_tl_back() {
    "$NPUSCOPE" timeline --format json "$LOADF/constructed-timeline-backwards.log" >"$FL/tl.json" 2>"$FL/tl.err" || return 1
    grep -q 'constructed-timeline-backwards.log:5: warning: the clock goes back (1 time, at most 2.000 s)' "$FL/tl.err" ||
        { cat "$FL/tl.err"; return 1; }
    jqt '.timelines[0] | .clock_back_steps == 1 and .span_s == 5
        and [.phases[] | [.kind, .start_s, .end_s]] == [["compile", 0, 5]]' "$FL/tl.json"
}
check "timeline: the clock going back 2 s is held at the time before (the report ends at 5 s, not 3 s) and said" fl_tl_back

fl_tl_notime() {
    local rc
    "$NPUSCOPE" timeline --format json "$LOADF/constructed-timeline-notime.log" >"$FL/tl.json" 2>"$FL/tl.err"
    rc=$?
    [ "$rc" -eq 1 ] || { echo "exit $rc, wanted 1"; return 1; }
    grep -q 'no line has a time' "$FL/tl.err" || { cat "$FL/tl.err"; return 1; }
    jqt '.timelines[0] | .span_s == null and .phases == [] and .unaccounted_s == null' "$FL/tl.json"
}
check "timeline: a log with no time at all: no span, no phase, said, exit 1" fl_tl_notime

fl_tl_failed() {
    tl_json "$FLOG" || return 1
    jqt '.timelines[0] | [.phases[] | select(.kind == "failed-compile")] ==
        [{"kind": "failed-compile", "start_s": 27.812, "end_s": 31.553,
          "label": "failed StaticAllocation (Model0_prefill_REP0041__0)", "report_total_s": null, "lane": 0}]
        and ([.phases[] | select(.kind == "compile")] | length) == 2' "$FL/tl.json"
}
check "timeline: the failed third compile is a failed-compile phase named by its pass and sub-model" fl_tl_failed

fl_tl_chrome() {
    "$NPUSCOPE" timeline -q --format chrome "$LOADF/constructed-timeline-parallel.log" "$LOADF/constructed-timeline-3.log" >"$FL/tl.trace" || return 1
    "$JSONCHECK" "$FL/tl.trace" || return 1
    jqt '[.traceEvents[] | select(.ph == "X")] | length == 9
        and ([.[] | select(.cat == "compile")] | length) == 5
        and (map(select(.pid == 1 and .cat == "compile")) | map(.tid) | sort) == [1, 2]
        and (map(select(.pid == 2 and .name == "#2"))[0] | .ts == 6020000 and .dur == 10375000)' "$FL/tl.trace"
}
check "timeline --format chrome: one X event per phase, µs, parallel compiles on two threads" fl_tl_chrome

# ---------------------------------------------------------------- recorded runs (full tier)
if tier_full; then
    STAND=examples/npu-fail-standin.sh
    fl_record_failure() {
        local rc
        "$NPUSCOPE" record -q -o "$FL/rec" -- "$STAND" 8192 >/dev/null 2>&1
        rc=$?
        [ "$rc" -eq 1 ] || { echo "record exit $rc, wanted 1 (the run failed)"; return 1; }
        jqt '.ok == false and .exit_code == 1
            and .failure == {"pass": "StaticAllocation", "location": "main/_part26",
                "submodel": "Model0_prefill_REP0041__0",
                "message": "Failed to statically allocate '"'"'DDR'"'"' memory", "line": 21, "file": "stdout.log"}
            and .environment.driver_l0_minor == "9" and .environment.npu_platform == "4000"
            and (.environment.host_os | length) > 0 and (.env | has("driver_l0_minor") | not)
            and (.reports | length) == 1 and (.started_clock | test("^[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}$"))' "$FL"/rec/*/run.json
    }
    check "record: a failing stand-in's run.json has the failure (sub-model from stderr) and the environment" fl_record_failure

    fl_run_timeline() {
        "$NPUSCOPE" timeline -q --format json "$FL"/rec/* >"$FL/rtl.json" || return 1
        jqt --slurpfile run "$FL"/rec/*/run.json '.timelines[0] |
            (.span_s - $run[0].wall_s | fabs) <= 0.003
            and [.phases[] | .kind | select(. == "compile" or . == "failed-compile")] == ["compile", "failed-compile"]
            and .phases[0].start_s == 0 and .phases[-1].end_s == .span_s
            and ([.phases[] | select(.kind == "compile")][0].report_total_s != null)
            and ([.phases[] | select(.kind == "failed-compile")][0].label | test("StaticAllocation"))' "$FL/rtl.json" ||
            { head -c 1500 "$FL/rtl.json"; return 1; }
    }
    check "timeline of a recorded run: its process's span, the compile, the failed compile" fl_run_timeline

    fl_table_status() {
        "$NPUSCOPE" sweep -q -o "$FL/sw" -n 1 -L window=1024,8192 -- "$STAND" '{window}' >/dev/null 2>&1
        "$NPUSCOPE" table --format json "$FL/sw" >"$FL/t.json" || return 1
        jqt '[.rows[] | [.tags.window, .status, .failed_pass]] ==
            [["1024", "ok", null], ["8192", "failed", "StaticAllocation"]]' "$FL/t.json" || return 1
        "$NPUSCOPE" table "$FL/sw" >"$FL/t.txt" || return 1
        grep -Eq '^8192 .*failed: StaticAllocation' "$FL/t.txt" || { cat "$FL/t.txt"; return 1; }
    }
    check "table: rows say status ok / failed and the failing pass (json, text)" fl_table_status

    fl_env_diff() {
        local m
        for m in 9 12; do
            DRIVER_L0_MINOR=$m "$NPUSCOPE" record -q -n 3 -o "$FL/envs" -- "$STAND" 1024 >/dev/null 2>&1 || return 1
        done
        "$NPUSCOPE" diff --format json --a driver_l0_minor=9 --b driver_l0_minor=12 "$FL/envs" >"$FL/d.json" 2>/dev/null || return 1
        jqt '[.rows[] | select(.name == "total")][0] | .a_n == 3 and .b_n == 3' "$FL/d.json"
    }
    check "diff --a driver_l0_minor=9 --b driver_l0_minor=12: environment facts select runs like tags" fl_env_diff

    fl_study_matrix() {
        "$NPUSCOPE" sweep -q -o "$FL/study" -L window=256,512,1024,2048,4096,8192 -- "$STAND" '{window}' >/dev/null 2>&1
        "$NPUSCOPE" advise --format json "$FL/study" >"$FL/a.json" || return 1
        jqt '.compile_matrix | .configurations == 6 and .failed == 2 and .left_out_of_fits
            and .failures == [{"pass": "StaticAllocation", "submodel": "prefill", "configurations": 2,
                "where": "window \u2265 4096", "text": "fails at StaticAllocation in prefill: window \u2265 4096"}]
            and ([.rows[] | select(.status == "failed") | .tags.window] == ["4096", "8192"])' "$FL/a.json" || return 1
        jqt '.study.configurations == 4 and ([.study.fits[] | select(.y == "total" and .x == "window") | .n] == [4])' "$FL/a.json" || return 1
        "$NPUSCOPE" advise "$FL/study" >"$FL/a.txt" || return 1
        grep -q '^  fails at StaticAllocation in prefill: window ≥ 4096$' "$FL/a.txt" || { cat "$FL/a.txt"; return 1; }
        "$NPUSCOPE" report -q -o "$FL/study.html" "$FL/study" || return 1
        grep -q 'id="compile-matrix"' "$FL/study.html" && grep -q 'Fails at StaticAllocation in prefill: window ≥ 4096' "$FL/study.html" ||
            { echo "the page has no compile matrix or no failure finding"; return 1; }
    }
    check "study: the compile matrix says where it fails; failed configurations left out of the regimes and fits (advise, page)" fl_study_matrix

    fl_page_timeline() {
        "$NPUSCOPE" report -q -o "$FL/run.html" "$FL"/rec/* || return 1
        grep -q 'id="timeline-1"' "$FL/run.html" && grep -q 'class="phase failed-compile"' "$FL/run.html" ||
            { echo "the page of a failed run has no timeline figure with its failed compile"; return 1; }
    }
    check "report page: a run with times gets a timeline figure, its failed compile in it" fl_page_timeline
else
    skip "record of a failing stand-in, table status, diff across environments, a run's timeline (tests/run_failures.sh; TIER=full)"
fi

if [ -n "${FAIL_ALONE:-}" ]; then finish; fi
