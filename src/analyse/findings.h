/* findings.h -- the findings engine: every statement npuscope makes about a
 * dataset (where the compile time goes, and what to change), computed once.
 *
 * `advise` (text and JSON) and the report page render this model and
 * nothing else, so a number quoted by one is the number quoted by the
 * other: the page embeds the very JSON document `advise --format json`
 * prints for the same inputs.  The statistics are defined once, in
 * docs/formats.md ("Findings"):
 *
 *   - summary: stage shares over every counted run and report, summed
 *     (the rows `top --by stage` prints: analyse/top.h), the dominant
 *     stage and the heaviest pass of those sums;
 *   - per case (a log file, or a configuration of run folders): its stage
 *     shares (the median over its counted runs of each run's share: the
 *     row `table --stages` prints), its regime (the largest of them), its
 *     heaviest pass (the pass with the largest median over the counted
 *     runs of its summed time -- a median, never the worst run), its
 *     cache verdict (hit, miss, mixed or unknown, from what its warm runs
 *     printed), and the ranked advice, each piece with its evidence;
 *   - for a sweep, the study (analyse/study.h) and the decode trade-off.
 *
 * Input arrives as it is read: logs one file at a time
 * (ns_findings_add_log), runs one at a time with their trees
 * (ns_findings_keep_run: what the cases need of the trees is kept, so the
 * caller may free them), then ns_findings_finish.  The rules and their
 * sentences are in findings_rules.c; this module prints nothing.
 *
 * Ownership: the model borrows the stage selection and the run set (the
 * runs' tags and modes are read until it is freed); it owns the rest.
 */
#ifndef NPUSCOPE_ANALYSE_FINDINGS_H
#define NPUSCOPE_ANALYSE_FINDINGS_H

#include "analyse/study.h"
#include "analyse/table.h"
#include "analyse/top.h"
#include "base/strmap.h"

#define NS_FINDINGS_MAX_STAGES 32
#define NS_FINDINGS_HEADERS 10 /* costliest headers named */

/* One piece of advice: a rule that fired, with its numbers. */
typedef struct {
    const char *rule; /* stable id ("warm-cache", "cache-miss", ...) (static) */
    double weight;    /* rank: the share of the compile it addresses */
    char *text;       /* what to change, with the numbers (owned) */
    char *evidence;   /* the numbers it rests on (owned) */
} ns_advice;

typedef struct {
    char *name;                 /* file name, or the configuration's tags (owned) */
    const ns_kvlist *tags;      /* tags of the configuration (borrowed; NULL for a log) */
    const ns_stage_map *map;    /* the map its reports use, or NULL */
    int compiles;               /* counted runs (1 for a log) */
    int submodels;              /* reports that start a compile, per compile */
    int npu;                    /* its reports are the NPU compiler's (vpux map) */
    double total_s;             /* compile time: median over compiles */
    double share[NS_FINDINGS_MAX_STAGES]; /* stage shares (median over compiles), NaN none */
    int regime;                 /* stage with the largest share, -1 none */
    char *pass;                 /* heaviest pass (median over compiles), or NULL (owned) */
    double pass_s;              /* its median summed time */
    double pass_share;          /* median of its share of each compile's reported total */
    double pass_of_s;           /* median reported total */
    double pass_worst_s;        /* its largest summed time in one compile */
    double cold_s, warm_s;      /* medians by cache mode (NaN when absent) */
    ns_cache_verdict cache;     /* the cache verdict */
    double cache_x;             /* cold / warm median, NaN */
    int warm_runs;              /* counted warm runs */
    int warm_compiled;          /* of them, those that printed a compile report */
    double tasks, tokens_per_s; /* NPU metrics (NaN) */
    ns_advice *advice;          /* ranked, heaviest first (owned) */
    int nadvice;                /* entries in advice */
    char *found;                /* one sentence: what was found, even with no advice (owned) */
} ns_findings_case;

/* What a case reads of one run's trees (kept as the run is read). */
typedef struct {
    int has_reports;         /* the run kept a report */
    const ns_stage_map *map; /* the map of its first report (borrowed from the selection) */
    int submodels;           /* reports that start a compile */
    double total;            /* its main reports' summed totals */
    size_t *pass;            /* leaf pass names (ids into ns_findings.passes) */
    double *pass_s;          /* their summed wall */
    int npass;               /* entries of both */
} ns_findings_run;

typedef struct {
    ns_stage_sel *sel;        /* stage maps (borrowed) */
    ns_findings_case *cases;  /* one per log file or configuration, in order */
    int ncases;               /* entries in cases */
    ns_top top;               /* every counted report summed: the summary */
    int dominant;             /* summary: index into top.stages, -1 none */
    int heaviest;             /* summary: index into top.rows, -1 none */
    ns_table table;           /* the rows of the run folders (empty without runs) */
    ns_study study;           /* the sweep's synthesis (valid when studied) */
    int studied;              /* a study was made */
    ns_strmap passes;         /* pass names of the runs */
    ns_findings_run *runs;    /* per run kept */
    ns_study_sums *study_sums; /* per run kept: the study's summary */
    int nruns;                /* runs kept */
    int cap;                  /* allocated per-run entries */
    ns_study_keep keep;       /* the study summaries' names */
    char *tradeoffs;          /* the decode trade-off lines, "" none (owned) */
    int side_by_side;         /* a report's tracks ran side by side (a trace of
                               * several threads, not clang's) */
    int listed;               /* a report in MLIR's list display */
    int cut;                  /* a report cut short (no Total read) */
    const char *why;          /* why the summary's shares do not add up to 1
                               * within 1 %, or NULL when they do (static) */
} ns_findings;

void ns_findings_init(ns_findings *f, ns_stage_sel *sel);
/* One case from one log file's reports (borrowed, not freed). */
void ns_findings_add_log(ns_findings *f, const char *name, ns_report *const *reps, int n);
/* Keep what the findings need of run r's trees (r is the next run of the
 * run set given to ns_findings_finish; its trees may be freed after). */
void ns_findings_keep_run(ns_findings *f, const ns_run *r);
/* The cases of the runs, the study, the summary and the advice. */
void ns_findings_finish(ns_findings *f, const ns_runset *rs);
void ns_findings_free(ns_findings *f);

/* The study's fix of a regime (ns_study_fix_fn): the rule of its stage. */
const char *ns_findings_fix_of(const char *stage, const char **cause);
/* The advice and the "found" sentence of case c (findings_rules.c). */
void ns_findings_advise(ns_findings_case *c);

#endif
