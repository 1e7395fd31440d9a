/* progress.h -- how far a running compile is, against the profile of an
 * earlier compile of the same configuration.
 *
 * A compile does not say how far it is; its passes only say which one is
 * running.  But npuscope has the timing tree of the last compile of the
 * same configuration, and in that tree the rows stand in the order they
 * ran, each with its time.  So "the pass running now is FeasibleAllocation
 * in the 3rd sub-model compile" becomes "the last run had done 61% of its
 * time when it got here": a share, an expected finish, and a warning when
 * this run is far slower than the last at the same place.
 *
 * The profile is a list per report (sub-model compile) of its rows in
 * pre-order with the profile seconds at which each started (the sum of the
 * times of everything before it: earlier siblings of it and of its
 * ancestors).  For a serial pipeline that is when the row started; for the
 * threaded parts of an MLIR pipeline it is an estimate, which a progress
 * line can live with.  Rows are matched by pass key (npu/logline.h), and a
 * position only moves forward, so a pass that runs many times
 * (Canonicalizer) is found at its next occurrence.
 */
#ifndef NPUSCOPE_PROGRESS_H
#define NPUSCOPE_PROGRESS_H

#include "model/report.h"

typedef struct {
    char *key;      /* the row's pass key */
    double start_s; /* profile seconds into its report when it started */
    double wall_s;  /* its time */
} ns_profile_row;

typedef struct {
    ns_profile_row *rows; /* pre-order, Rest and Total left out */
    int nrows;            /* entries */
    double total_s;       /* the report's Total */
    char *label;          /* the report's label */
} ns_profile_report;

typedef struct {
    ns_profile_report *reports; /* in the order the compiles ran */
    int nreports;               /* entries */
    double total_s;             /* the sum of the reports' totals */
} ns_profile;

/* A profile from reports (borrowed; nothing of them is kept).  The caller
 * frees it with ns_profile_free. */
ns_profile *ns_profile_new(ns_report *const *reports, int n);
void ns_profile_free(ns_profile *p);

/* Where a running compile is. */
typedef struct {
    int report; /* the compile (0-based) the run is in */
    int row;    /* the row of the pass seen last in it; -1: none yet */
} ns_progress;

/* The compile `report` logged pass `key`: move pos to that row (its next
 * occurrence at or after pos).  Returns 1 when the profile has it, 0 when
 * not (pos keeps its row, or moves to the start of a new report). */
int ns_progress_pass(const ns_profile *p, ns_progress *pos, int report, const char *key);
/* A compile finished: pos moves to the start of the next one. */
void ns_progress_report_done(ns_progress *pos);
/* Profile seconds done at pos (earlier reports' totals plus the row's
 * start); the row's own time is not counted as done. */
double ns_progress_done_s(const ns_profile *p, const ns_progress *pos);
/* Profile seconds at which the compile pos is in had ended: the totals of
 * the reports up to and including pos's (the profile's total past its
 * last report). */
double ns_progress_end_s(const ns_profile *p, const ns_progress *pos);

/* How many times slower this run is than the profile's, or 0 when it is
 * not clearly so (NS_PROGRESS_SLOWER).  elapsed: this run's seconds so far;
 * entered: its seconds when it logged the pass it is in (< 0: none of the
 * profile's passes in this compile yet); start_s: when the profile's run
 * had started that pass; end_s: ns_progress_end_s.  Two comparisons that
 * are never wrong, the larger said: this run arrived at the pass later
 * than the profile's did, or it is still in the compile past the time the
 * profile's had finished all of it.  Never elapsed against the pass's
 * start or end: in the middle of a long pass, or in the passes after it
 * that log nothing at INFO, that would call an ordinary run slow.  Starts
 * within the first second are not compared (process starts are noise
 * there). */
#define NS_PROGRESS_SLOWER 1.5
double ns_progress_slower(double elapsed, double entered, double start_s, double end_s);

#endif
