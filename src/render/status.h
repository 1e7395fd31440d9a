/* status.h -- the one line that says where a running compile is.
 *
 *   npuscope: 2/6 model-7b-cold-r02 · 41.2s · 3/7 prefill/1 · feasible-allocation · 61% of the last run, ~26s left
 *
 * Built from what is known and nothing else: a generic MLIR tool gives
 * only the elapsed time (and, after each report, its total); the NPU
 * compiler's pass loggers give the pass; a profile of an earlier run gives
 * the share, the time left and the warning "2.3x the last run at this
 * pass".  The line is cut to the terminal's width (never wrapped: it is
 * redrawn in place with \r), parts dropped from the right.  Names are
 * shown with visible escapes, as every name npuscope prints (base/display.h).
 */
#ifndef NPUSCOPE_STATUS_H
#define NPUSCOPE_STATUS_H

#include "base/common.h"

typedef struct {
    const char *run;         /* "2/6 run-id", or NULL (watch) */
    double elapsed_s;        /* of this run (or since watch started) */
    int compile;             /* 1-based sub-model compile now; 0: unknown */
    int ncompiles;           /* expected compiles (profile or NPUW layout); 0: unknown */
    const char *label;       /* the compile's label ("prefill/1"), or NULL */
    const char *pass;        /* the pass logger seen last, or NULL */
    double share;            /* share of the profile done, 0..1; < 0: no profile */
    double left_s;           /* expected seconds left; < 0: unknown */
    double slower;           /* this run's time / the profile's at this place, when it
                                is worth a warning (>= 1.5); 0 otherwise */
    const char *last_report; /* "report 1: 0.5234 s", or NULL */
} ns_status;

/* The line, at most width columns (counted as characters, not bytes),
 * without a newline, appended to b. */
void ns_status_format(ns_buf *b, const ns_status *st, int width);

#endif
