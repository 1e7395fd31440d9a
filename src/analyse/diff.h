/* diff.h -- A against B: did the compile get slower, and where?
 *
 * Two sets of runs (two folders, or two tag selections of one sweep) are
 * compared row by row: the whole compile ("total", wall seconds), every
 * pass (summed over the run's reports, as pass:NAME in dataset.h), with a
 * stage selection every stage ("stage:NAME", as in dataset.h, under the
 * maps the selection gives each report), every pass the NPU compiler's
 * memory-usage-collector logged ("mem:NAME": the kB it raised the peak,
 * summed over the run's reports; npu/memory.h), and every metric ("metric:NAME":
 * tokens/s, compile_net_ms, ...).  Compile
 * time and runtime metrics are rows of one table, so a trade-off (decode
 * compile +40 s, decode tokens/s x8) reads as one.
 *
 * Per row: the medians of each side, their ratio B/A, the Hodges-Lehmann
 * shift B - A (the median of all pairwise differences: robust, and in the
 * row's own unit), and the exact two-sided Mann-Whitney U p-value (no
 * normal approximation; ties handled exactly, see stats.h).  A verdict is
 * given only when both hold:
 *   p < alpha                           (the difference is real), and
 *   |shift| / A median > threshold      (and big enough to matter);
 * then the row is "slower" (B is worse) or "faster" (B is better), and
 * otherwise "same".  For time, worse is higher.  A metric is worse higher
 * too (compile_net_ms, compiler_vmpeak_kb), and so is a pass's memory
 * increase (a pass that raises the peak more is a regression, "slower",
 * by the same p and threshold as a time), unless a metric's name says it is a
 * rate (tokens_per_s: see ns_metric_higher_is_better), so that a
 * regression reads "slower" in every row, and a trade-off as "slower"
 * total against "faster" tokens_per_s.  Each row says which way is better.
 *
 * With few runs no difference can be significant: the smallest two-sided
 * p of an exact test with 3 vs 3 runs is 0.10.  ns_mann_whitney_min_p says
 * what a comparison can reach; the command warns when it is not enough.
 *
 * This file computes; builtin/diff.c reads the runs and prints.
 * Deliberately left out: corrections for testing many rows at once (the
 * total row is the one a gate looks at; pass rows are for finding where a
 * change went), and paired designs (runs are independent samples).
 */
#ifndef NPUSCOPE_DIFF_H
#define NPUSCOPE_DIFF_H

#include "model/runs.h"
#include "model/stages.h"

#include <stddef.h>

/* Passes whose median is below this on both sides are left out, unless
 * ns_diff_opts.all. */
#define NS_DIFF_TINY_S 1e-4

typedef enum {
    NS_DIFF_TOTAL,  /* wall seconds of the whole run */
    NS_DIFF_PASS,   /* wall seconds of a pass, summed over reports */
    NS_DIFF_STAGE,  /* wall seconds of a stage (self times), summed over reports */
    NS_DIFF_METRIC, /* a metric, in its own unit */
    NS_DIFF_MEMORY, /* kB a pass raised the compiler's peak, summed over reports */
} ns_diff_kind;

typedef struct {
    double alpha;     /* significance level: p must be below it (0.05) */
    double threshold; /* smallest |shift| / A median that matters, % (2) */
    int all;          /* keep passes below NS_DIFF_TINY_S on both sides */
} ns_diff_opts;

typedef struct {
    char *name;          /* "total", the pass name, "stage:NAME" or "metric:NAME" (owned) */
    ns_diff_kind kind;   /* what the row measures */
    size_t a_n;          /* values on side A */
    size_t b_n;          /* values on side B */
    double a_median;     /* median of A */
    double b_median;     /* median of B */
    double ratio;        /* b_median / a_median (NaN when a_median is 0) */
    double shift;        /* Hodges-Lehmann estimate of B - A */
    double p;            /* exact two-sided Mann-Whitney U p (NaN: a side empty) */
    int higher_better;   /* 1: a higher value is better (a rate metric); 0: lower */
    const char *verdict; /* "slower" (B worse), "faster" (B better) or "same" */
} ns_diff_row;

typedef struct {
    ns_diff_row *rows; /* total, passes (A median descending), memory rows
                        * (likewise), stages (in the maps' order), metrics
                        * (by name) */
    int nrows;         /* entries in rows */
    int skipped;       /* passes left out as tiny on both sides */
} ns_diff;

/* The statistics of one row from the values of each side (NaN ignored);
 * name is copied. */
void ns_diff_row_make(ns_diff_row *row, const char *name, ns_diff_kind kind, const double *a,
                      size_t na, const double *b, size_t nb, const ns_diff_opts *o);
/* The verdict rule above; higher_better as in ns_diff_row. */
const char *ns_diff_verdict(int higher_better, double p, double shift, double a_median,
                            const ns_diff_opts *o);
/* Every row of A (na runs) against B (nb runs).  A pass missing from a run
 * that has reports took no time there (0 s); a run without reports has no
 * pass values.  Likewise memory: a run whose reports have per-pass memory
 * and no line for a pass had it raise the peak by 0 kB (the collector logs
 * only a growth); a run with no per-pass memory at all has no value.  A stage no report of a run is mapped with, and a metric
 * missing from a run, are no value. */
void ns_diff_runs(const ns_run *const *a, int na, const ns_run *const *b, int nb,
                  const ns_diff_opts *o, ns_diff *d);
/* The stage rows of the same runs, added to d after the passes and before
 * the metrics: one per stage of the maps sel (the command's --stages)
 * gives the reports of either side, in the maps' order. */
void ns_diff_stages(const ns_run *const *a, int na, const ns_run *const *b, int nb,
                    const ns_diff_opts *o, ns_stage_sel *sel, ns_diff *d);
void ns_diff_free(ns_diff *d);
/* The verdict for people: a metric's also says which way its value went
 * ("faster (higher)" for more tokens/s, "slower (higher)" for more memory). */
void ns_diff_verdict_text(ns_buf *b, const ns_diff_row *r);

#endif
