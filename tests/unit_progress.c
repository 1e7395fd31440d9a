/* unit_progress.c -- unit tests of src/analyse/progress.c: positions in a
 * profile and the "slower than the last run" judgement of the live line.
 *
 * The judgement is the part a user acts on (a warning mid-compile that the
 * run is slow), so it is tested here on numbers, not on a timed compile:
 * a run of ordinary pace through a long pass, or through the passes after
 * it that log nothing, must never be called slow; a run that arrives late
 * at a pass, or stays in a compile past the end the profile's run had,
 * must be, by the right factor.
 *
 * Prints one line per failure and ends with "unit_progress: N passed, N failed". */
#include "check.h"

#include "analyse/progress.h"
#include "npu/logline.h"

#include <math.h>

/* The profile of two sub-model compiles of the fake NPU compile a pass
 * time of 1 s gives (tests/helpers/fake-vpux.sh with STEP=1): per compile
 * MultiClusterStrategyAssignment 1 s, TilingStrategyAssignment 1 s,
 * FeasibleAllocation 2 s, ConvertVPUIPToVPUMI 1 s; 5 s a compile. */
static const char *const names[] = {"MultiClusterStrategyAssignment", "TilingStrategyAssignment",
                                    "FeasibleAllocation", "ConvertVPUIPToVPUMI"};
static const double times[] = {1, 1, 2, 1};

static ns_profile_row rows[2][4];
static ns_profile_report reports[2];
static char keys[4][128];

static ns_profile make_profile(void) {
    ns_profile p = {reports, 2, 0};
    for (int k = 0; k < 4; k++) ns_pass_key(names[k], strlen(names[k]), keys[k], sizeof keys[k]);
    for (int i = 0; i < 2; i++) {
        double t = 0;
        for (int k = 0; k < 4; k++) {
            rows[i][k] = (ns_profile_row){keys[k], t, times[k]};
            t += times[k];
        }
        reports[i] = (ns_profile_report){rows[i], 4, t, "compile"};
        p.total_s += t;
    }
    return p;
}

static void key_of(const char *logger, char *key, size_t cap) {
    ns_pass_key(logger, strlen(logger), key, cap);
}

/* ====== Positions ====== */

static void test_positions(void) {
    ns_profile p = make_profile();
    ns_progress pos = {0, -1};
    char key[128];
    CHECK(ns_progress_done_s(&p, &pos) == 0);
    CHECK(ns_progress_end_s(&p, &pos) == 5);
    /* the pass loggers name passes by their arguments */
    key_of("feasible-allocation", key, sizeof key);
    CHECK(ns_progress_pass(&p, &pos, 0, key) == 1);
    CHECK(pos.row == 2);
    CHECK(ns_progress_done_s(&p, &pos) == 2);
    CHECK(ns_progress_end_s(&p, &pos) == 5);
    /* a pass the profile lacks: the position stays */
    key_of("no-such-pass", key, sizeof key);
    CHECK(ns_progress_pass(&p, &pos, 0, key) == 0);
    CHECK(pos.row == 2);
    /* a position only moves forward */
    key_of("tiling-strategy-assignment", key, sizeof key);
    CHECK(ns_progress_pass(&p, &pos, 0, key) == 0);
    CHECK(pos.row == 2);
    /* the second compile: the first one's total is done */
    ns_progress_report_done(&pos);
    CHECK(pos.report == 1 && pos.row == -1);
    CHECK(ns_progress_done_s(&p, &pos) == 5);
    CHECK(ns_progress_end_s(&p, &pos) == 10);
    key_of("convert-vpuip-to-vpumi", key, sizeof key);
    CHECK(ns_progress_pass(&p, &pos, 1, key) == 1);
    CHECK(ns_progress_done_s(&p, &pos) == 9);
    /* past the profile's compiles: its total */
    ns_progress_report_done(&pos);
    CHECK(ns_progress_done_s(&p, &pos) == 10);
    CHECK(ns_progress_end_s(&p, &pos) == 10);
    CHECK(ns_progress_end_s(NULL, &pos) == 0);
}

/* ====== Pace ====== */

static void test_slower(void) {
    /* An ordinary run in FeasibleAllocation of compile 1 (profile: starts
     * at 2 s, ends at 4 s, the compile at 5 s): it got there at 2.1 s and
     * is at 3.9 s, near the end of the pass.  Against the pass's start that
     * is 1.95x; it is not slow. */
    CHECK(ns_progress_slower(3.9, 2.1, 2, 5) == 0);
    /* the same, in passes after it that log nothing, up to 1.5x the
     * compile's end */
    CHECK(ns_progress_slower(7.4, 2.1, 2, 5) == 0);
    /* arrived at the pass three times later than the profile did */
    CHECK(fabs(ns_progress_slower(6.1, 6, 2, 5) - 3) < 1e-12);
    /* arrived in time, but still in the compile at twice its end */
    CHECK(fabs(ns_progress_slower(10, 2.1, 2, 5) - 2) < 1e-12);
    /* the larger of the two is said */
    CHECK(fabs(ns_progress_slower(12, 8, 2, 5) - 4) < 1e-12);
    /* just under and at the threshold */
    CHECK(ns_progress_slower(2.9, 2.99, 2, 5) == 0);
    CHECK(ns_progress_slower(3.0, 3.0, 2, 5) == NS_PROGRESS_SLOWER);
    /* starts within the first second are not compared: a process start is
     * noise there */
    CHECK(ns_progress_slower(0.9, 0.9, 0.5, 5) == 0);
    CHECK(ns_progress_slower(0.9, -1, 0, 0.5) == 0);
    /* no pass of the compile known yet: only the compile's end */
    CHECK(ns_progress_slower(4, -1, 0, 5) == 0);
    CHECK(fabs(ns_progress_slower(15, -1, 0, 5) - 3) < 1e-12);
    /* no profile time at all: nothing to compare */
    CHECK(ns_progress_slower(100, -1, 0, 0) == 0);
}

int main(void) {
    test_positions();
    test_slower();
    return check_summary("unit_progress");
}
