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
 * row's own unit) with its distribution-free confidence interval at level
 * 1 - 2 alpha (90 % at alpha 0.05; stats.h, ns_hodges_lehmann_ci), and
 * the two-sided Mann-Whitney U p-value (exact while the count is cheap,
 * some 45 runs a side; the normal approximation with the tie correction
 * beyond, so that it never gives up; see stats.h).  The verdict is one of
 * four:
 *   "slower" / "faster"  p < alpha (the difference is real) and |shift| /
 *                        A median > threshold (big enough to matter; with
 *                        A's median 0 any shift is): B is worse / better;
 *   "same"               otherwise, when the equivalence check passes: the
 *                        shift's interval lies inside +-threshold of A's
 *                        median (two one-sided tests at alpha, TOST);
 *   "inconclusive"       otherwise: p >= alpha alone shows no difference,
 *                        it only fails to show one (3 vs 3 runs can never
 *                        reach p < 0.05, however different they are).
 * For time, worse is higher.  A metric is worse higher
 * too (compile_net_ms, compiler_vmpeak_kb), and so is a pass's memory
 * increase (a pass that raises the peak more is a regression, "slower",
 * by the same p and threshold as a time), unless a metric's name says it is a
 * rate (tokens_per_s: see ns_metric_higher_is_better), so that a
 * regression reads "slower" in every row, and a trade-off as "slower"
 * total against "faster" tokens_per_s.  Each row says which way is better.
 *
 * With few runs no difference can be significant: the smallest two-sided
 * p of an exact test with 3 vs 3 runs is 0.10.  ns_mann_whitney_min_p says
 * what a comparison can reach; the command warns when it is not enough,
 * and its gate refuses to pass such a comparison (exit 2).
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
#include "base/strmap.h"

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
    double ci_lo;        /* its interval at ns_diff_ci_level (-inf: unbounded; NaN: a side empty) */
    double ci_hi;        /* upper end (+inf: unbounded) */
    double p;            /* two-sided Mann-Whitney U p (NaN: a side empty) */
    int higher_better;   /* 1: a higher value is better (a rate metric); 0: lower */
    const char *verdict; /* "slower" (B worse), "faster" (B better), "same", "inconclusive" */
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
/* The verdict rule above; higher_better as in ns_diff_row, [lo, hi] the
 * shift's interval. */
const char *ns_diff_verdict(int higher_better, double p, double shift, double lo, double hi,
                            double a_median, const ns_diff_opts *o);
/* The level of the shift's interval: 1 - 2 alpha (the equivalence test at
 * alpha), 0.5 when alpha is 0.25 or more. */
double ns_diff_ci_level(const ns_diff_opts *o);
/* Every row of A (na runs) against B (nb runs).  A pass missing from a run
 * that has reports took no time there (0 s); a run without reports has no
 * pass values.  Likewise memory: a run whose reports have per-pass memory
 * and no line for a pass had it raise the peak by 0 kB (the collector logs
 * only a growth); a run with no per-pass memory at all has no value.  A
 * metric missing from a run is no value.  The runs keep their trees: this
 * summarises each (below) and compares the summaries. */
void ns_diff_runs(const ns_run *const *a, int na, const ns_run *const *b, int nb,
                  const ns_diff_opts *o, ns_diff *d);

/* ====== Runs read one at a time ======
 * What the rows need of a run's trees is a few numbers per name, so a
 * command that reads a 100,000-run history run by run (parse/run_read.h,
 * ns_run_folder_each) summarises each run as it is read (ns_diff_keep_run),
 * frees its trees, and compares the summaries (ns_diff_summed): the same
 * rows, to the bit, as ns_diff_runs over the trees -- the sums are taken
 * row by row in the same order.  The names are interned once in the
 * ns_diff_keep every summary of a comparison shares. */

/* A run's numbers by name: ids into ns_diff_keep's names (or stages), the
 * value of each. */
typedef struct {
    unsigned *id; /* name ids; for the pass sums NS_DIFF_IS_PASS marks a pass name */
    double *v;    /* the value of each */
    int n;        /* entries */
    int cap;      /* allocated */
} ns_diff_list;

/* In ns_diff_sums.rows: the name is one of the run's pass names. */
#define NS_DIFF_IS_PASS 0x80000000u

typedef struct {
    int has_reports; /* the run has reports: a pass it lacks took 0 s there */
    int has_mem;     /* some report has per-pass memory: a pass it lacks raised 0 kB */
    ns_diff_list rows; /* wall seconds of every row name, summed as ns_run_pass_sums does
                        * (a row inside a same-named one not again), in first appearance */
    ns_diff_list mem;  /* kB of every name with a memory line (finite ones summed) */
    ns_diff_list stages; /* seconds of each stage of the main reports' maps, by ids into
                          * ns_diff_keep.stages (only with a stage selection) */
    const ns_stage_map **maps;   /* the maps its reports are read with, first use
                                       * first (borrowed from the selection) */
    int nmaps;       /* entries in maps */
} ns_diff_sums;

typedef struct {
    ns_strmap names;   /* row names of every summary */
    ns_strmap stages;  /* stage names of every summary */
    ns_stage_sel *sel; /* the command's --stages (borrowed), NULL: no stage rows */
    size_t *at;        /* scratch: per name id, its entry in the run being summarised + 1 */
    size_t nat;        /* entries in at */
} ns_diff_keep;

/* sel: the stage selection the stage rows are read with, or NULL. */
void ns_diff_keep_init(ns_diff_keep *k, ns_stage_sel *sel);
void ns_diff_keep_free(ns_diff_keep *k);
/* The summary of r's trees (r keeps them: free them after). */
void ns_diff_keep_run(ns_diff_keep *k, const ns_run *r, ns_diff_sums *out);
void ns_diff_sums_free(ns_diff_sums *s);
/* ns_diff_runs over summaries: a[i] is summarised by sa[i].  With k->sel,
 * the stage rows too (after the memory rows, before the metrics): one per
 * stage of the maps the selection gives the reports of either side, in the
 * maps' order (first seen, A first); a stage no main report of a run is
 * mapped with is no value. */
void ns_diff_summed(const ns_diff_keep *k, const ns_run *const *a, const ns_diff_sums *const *sa,
                    int na, const ns_run *const *b, const ns_diff_sums *const *sb, int nb,
                    const ns_diff_opts *o, ns_diff *d);
void ns_diff_free(ns_diff *d);
/* The verdict for people: a metric's also says which way its value went
 * ("faster (higher)" for more tokens/s, "slower (higher)" for more memory). */
void ns_diff_verdict_text(ns_buf *b, const ns_diff_row *r);

#endif
