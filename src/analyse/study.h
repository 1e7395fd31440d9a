/* study.h -- the synthesis of a sweep: its regimes, which cells each one
 * holds, what dominates there and the power laws the sweep supports.
 *
 * One configuration's advice answers "what should I change here"; a sweep
 * of sixty configurations asks the question of the published study
 * instead: which regimes are there, where does each begin and end, which
 * pass rules each one, and how does compile time grow along each axis.
 * This file builds that model from the rows of the table engine
 * (analyse/table.h), so that `advise` reads the same numbers `table`
 * prints:
 *
 *   - A cell is a configuration's compile row: cold, or mode-less ("none")
 *     when the runs had no cache mode; warm rows are cache hits, not
 *     compiles.  Its regime is the row's (the stage with the largest median
 *     share of the report totals); its dominant pass is the heaviest pass
 *     of that stage in the row's median run, summed over the run's reports,
 *     with its share of their summed report totals -- the compiler's
 *     numbers, never the process wall time.
 *   - Cells are grouped by regime (in the stage map's order).  A regime's
 *     dominant pass is the one most of its cells have (ties by name), its
 *     median share the median over those cells.  The fix is the caller's
 *     (advise's rules table): a function maps a regime to a rule id and a
 *     root cause, or to NULL when no rule addresses it.
 *   - The cells of a regime are described per value of the first varying
 *     tag (the sweep's first axis): the values of the first numeric axis as
 *     ranges of neighbouring sweep values ("1024-4096"), and the other axes
 *     only when the cells do not cover all of their values.
 *   - Fits, found without being asked: the report total of each compile
 *     against every numeric axis (and size_b, derived from the model tag)
 *     with 3 or more distinct values, per value of the first categorical
 *     axis that is not where x comes from (the remaining axes mixed by the
 *     median at each x); and a regime's dominant pass against the workload
 *     fact that drives it (FeasibleAllocation against vpuip_tasks), a point
 *     per report as `fit --per report` makes them (ns_report_point).
 *
 * Deliberately left out: fits of runtime metrics, and a second numeric axis
 * in the cell descriptions (it is listed as values).  Prints nothing.
 *
 * Ownership: an ns_study borrows the table (and through it the runs); it
 * owns its arrays and strings.
 */
#ifndef NPUSCOPE_ANALYSE_STUDY_H
#define NPUSCOPE_ANALYSE_STUDY_H

#include "analyse/fit.h"
#include "analyse/table.h"

/* A study is made from this many configurations or more. */
#define NS_STUDY_MIN_CONFIGS 4

/* ====== The model ====== */

typedef struct {
    const ns_table_row *row; /* its compile row (borrowed from the table) */
    int regime;              /* index into the table's stages */
    const char *pass;        /* heaviest pass of the regime's stage (borrowed from the
                              * summaries' names), or NULL */
    double share;            /* its share of the summed report totals (NaN without a pass) */
} ns_study_cell;

typedef struct {
    const char *stage;       /* the regime (borrowed from the table's stage names) */
    int *cells;              /* indices into ns_study.cells (owned) */
    int ncells;              /* entries in cells */
    char *where;             /* the cells described compactly, lines joined by "; " (owned) */
    const char *pass;        /* the most frequent dominant pass (borrowed), or NULL */
    double median_share;     /* its median share over the cells it dominates */
    const char *fix;         /* the rule id that addresses it, or NULL: no rule */
    const char *cause;       /* the root cause in a few words, or NULL */
} ns_study_regime;

typedef struct {
    char *y;                 /* what is fitted: "total" or "pass:NAME" (owned) */
    char *x;                 /* against: an axis, size_b, or "fact:NAME" (owned) */
    char *group;             /* "model=qwen2-7b", or NULL over every point (owned) */
    char *mixed;             /* the axes mixed at each x, comma separated, or NULL (owned) */
    int per_report;          /* a point per report (else per x: the median of the runs) */
    ns_fit fit;              /* its points and fit (owned) */
} ns_study_fit;

/* Maps a regime (stage name) to the id of the rule that fixes it and its
 * root cause; returns NULL (and leaves *cause) when no rule does. */
typedef const char *(*ns_study_fix_fn)(const char *stage, const char **cause);

/* Configurations that failed to compile (analyse/table.h: status
 * "failed"), grouped by the failing pass and sub-model kind: they are in
 * no regime and no fit (the study says so), and their cells are described
 * as a regime's are ("window 4096-8192"). */
typedef struct {
    const char *pass;        /* the failing pass (borrowed from a run), or NULL: not logged */
    const char *submodel;    /* "generate", "prefill", "lm_head", the sub-model's name,
                              * or NULL: not logged (borrowed or static) */
    int nconfigs;            /* failed configurations in the group */
    char *where;             /* them, described (owned) */
} ns_study_failure;

typedef struct {
    ns_study_cell *cells;    /* one per configuration with a compile row and a regime (owned) */
    int ncells;              /* entries in cells */
    ns_study_regime *regimes; /* in the stage map's order (owned) */
    int nregimes;            /* entries in regimes */
    ns_study_fit *fits;      /* fits that were made (owned) */
    int nfits;               /* entries in fits */
    const char **axes;       /* tag keys that vary over the cells, table order (array owned) */
    int naxes;               /* entries in axes */
    struct ns_study_own *own; /* ns_study_build's summaries of the trees, or NULL (owned) */
    ns_study_failure *failures; /* failed configurations by pass and sub-model (owned) */
    int nfailures;           /* entries in failures */
    int nfailed;             /* failed configurations: left out of regimes and fits */
} ns_study;

/* The sub-model kind of an NPUW sub-model's name ("Model0_prefill_REP0041__0"
 * -> "prefill", "..._kv1152..." -> "generate", "..._lm_head" -> "lm_head"),
 * or the name itself; NULL for NULL. */
const char *ns_study_submodel_kind(const char *name);

/* ====== What a study reads of a run's trees ======
 * The regimes' passes (the heaviest leaf pass of a stage in a cell's
 * median run), the fits of the report totals and the driver fits (a point
 * per report: a workload fact against a pass) read a few numbers of each
 * run's trees.  A command that reads a history run by run keeps them per
 * run (ns_study_keep_run) and frees the trees; ns_study_build_summed makes
 * the study from them, the same study to the bit as from the trees. */

typedef struct {
    unsigned stage; /* a stage name of the run's maps (id in ns_study_keep.names) */
    unsigned pass;  /* its heaviest leaf pass over the run's reports (ties by name) */
    double wall;    /* that pass's summed wall seconds */
} ns_study_top;

typedef struct {
    double x;   /* the report's workload fact */
    double y;   /* the report's time of the driver pass */
    int driver; /* which driver fit (study.c's list) */
} ns_study_point;

typedef struct {
    double total;          /* the main reports' finite totals summed (0: none) */
    double total_field;    /* the same as the field "total" gives it: NaN when none */
    ns_study_top *tops;    /* per stage name (owned) */
    int ntops;             /* entries in tops */
    ns_study_point *points; /* the driver fits' points, report by report (owned) */
    int npoints;           /* entries in points */
} ns_study_sums;

typedef struct {
    ns_strmap names; /* stage and pass names of every summary; a cell's pass is one */
    int *at;         /* scratch: per pass name id, its first (stage, pass) sum in the
                      * run being summarised + 1, 0 for none */
    size_t nat;      /* entries in at */
} ns_study_keep;

void ns_study_keep_init(ns_study_keep *k);
void ns_study_keep_free(ns_study_keep *k);
/* The summary of r's trees, its reports read with the maps sel gives them. */
void ns_study_keep_run(ns_study_keep *k, const ns_run *r, ns_stage_sel *sel, ns_study_sums *out);
void ns_study_sums_free(ns_study_sums *s);

/* Build the study of table t (built with stage shares) and its runs.
 * Returns 0, or -1 when t has fewer than NS_STUDY_MIN_CONFIGS cells (s is
 * then empty but valid to free).  The runs' trees are summarised here; the
 * cells' passes point into s->own. */
int ns_study_build(ns_study *s, const ns_table *t, ns_stage_sel *sel, ns_study_fix_fn fix);
/* The same from summaries: sums[i] of t->runs[i], made with k (which must
 * outlive s: the cells' passes point into it). */
int ns_study_build_summed(ns_study *s, const ns_table *t, const ns_study_sums *sums,
                          const ns_study_keep *k, ns_study_fix_fn fix);
void ns_study_free(ns_study *s);

#endif
