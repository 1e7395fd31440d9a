/* table.h -- the grid of a sweep: one row per configuration and cache mode
 * with the statistics of its counted runs.  The engine of `table`, and the
 * rows `report` shows and `advise` advises on.
 *
 * A sweep leaves a folder of runs; what a person wants from it is the grid:
 * for each configuration (model, window, precision, ...) and cache mode, how
 * long a compile takes, how much that varies, whether it was parallel, how
 * much memory it took, how much a warm cache saves and which stage
 * dominates.  Three commands ask for that grid, so it is computed here once
 * and every one of them reads the same numbers:
 *
 *   - A configuration is the full set of a run's tags (key and value, byte
 *     for byte); two runs with the same tags and mode are one row
 *     (dataset.h, ns_configs_new).
 *   - Only counted runs enter the statistics: those that succeeded and are
 *     neither warmups nor primers (the warm run that fills the cache is a
 *     cold compile in disguise).  The others are counted in their own
 *     fields, never dropped silently.
 *   - Rows sort by tag value, key by key in the order of ns_table.keys;
 *     values that are numbers compare as numbers, so window 128 comes
 *     before 1024.  Then cold, warm, none (ns_config_cmp).
 *   - cache_x is median cold / median warm of the same configuration, on
 *     both of its rows.
 *   - base_ratio (a baseline K=V): the row's median over the median of the
 *     row that differs from it only in K, where K has the value V (same
 *     mode).  Rows without such a partner get NaN.
 *   - Stage shares (with a stage selection, stages.h): a counted run's
 *     share of a stage is the stage's self time summed over its reports
 *     divided by their summed totals; a stage that none of the run's maps
 *     declares is unknown (NaN), not 0.  A row gets the median share of
 *     each stage over its counted runs (NaN ones do not count) and its
 *     regime: the stage with the largest median share (ties: declared
 *     first).  Stages keep the maps' declaration order; with the automatic
 *     choice, runs of different compilers bring the stages of both maps (a
 *     name both declare, "other", is one stage).
 *
 * The caller may add keys (ns_key_add on keys/nkeys: `table --tag-columns`)
 * and stage names (ns_strmap_intern on stages: a map named on the command
 * line, or the maps of logs a report shows beside the runs) after
 * ns_table_init; they come first, in that order.
 *
 * This file computes and owns numbers only: it prints nothing (warnings
 * are the commands'), writes nothing (render/table.h writes the grid,
 * render/page.h shows it on the report page) and never changes a run, with
 * one declared exception, ns_table_submodel_metrics.
 *
 * Ownership: an ns_table borrows its runs (they must outlive it) and owns
 * its rows, arrays and stage names; key and metric names are borrowed from
 * the runs (or from the caller, for keys it added).
 */
#ifndef NPUSCOPE_ANALYSE_TABLE_H
#define NPUSCOPE_ANALYSE_TABLE_H

#include "analyse/dataset.h"
#include "base/strmap.h"
#include "model/stages.h"

/* ====== Rows ====== */

/* A cache verdict (docs/formats.md 2.13, "The cache verdict"): what a
 * warm row's counted runs did.  A warm run that printed a compile timing
 * report compiled again: its cache missed. */
typedef enum {
    NS_CACHE_UNKNOWN, /* no warm run, or warm runs that neither compiled nor were faster */
    NS_CACHE_HIT,     /* no warm run compiled, and each was faster than the cold median */
    NS_CACHE_MISS,    /* every warm run compiled again */
    NS_CACHE_MIXED,   /* some warm runs compiled, some did not */
} ns_cache_verdict;

const char *ns_cache_verdict_name(ns_cache_verdict v); /* "hit", "miss", ... */

typedef struct {
    ns_config cfg;         /* its configuration, mode and runs (dataset.h) */
    int n;                 /* counted runs: ok, not warmup, not primer */
    double median;         /* wall seconds over the counted runs ... */
    double mean;           /* ... */
    double stddev;         /* ... sample, n-1 (NaN below 2 runs) */
    double min;            /* ... */
    double max;            /* ... */
    double user_over_wall; /* median of user_s / wall_s */
    double peak_rss_mb;    /* median peak RSS */
    int failures;          /* runs not ok, warmups and primers aside */
    int warmups;           /* --warmup runs */
    int primers;           /* warm runs that filled the cache */
    int outliers;          /* counted runs flagged by MAD (kept in every statistic) */
    double cache_x;        /* median cold / median warm of the configuration */
    int cache;             /* warm rows: ns_cache_verdict; -1 for other modes */
    int warm_compiled;     /* warm rows: counted runs that compiled again */
    double base_ratio;     /* median / the baseline partner's median (NaN: none) */
    double *metrics;       /* median per metric (ns_table.metrics order), NaN if none (owned) */
    double *shares;        /* median share per stage (ns_table.stages order), NaN if none (owned) */
    int regime;            /* stage with the largest median share, -1 if none */
    int median_run;        /* the counted run whose wall time is the median (the lower
                              middle for an even count; ties by reading order), an index
                              into the runs; -1 without counted runs */
    const char *family;    /* derived tag family, from the model tag (in ns_table.derived), or NULL */
    const char *size_b;    /* derived tag size_b (also params), or NULL */
    const struct ns_failure *failure; /* what the first failed run of the row logged
                              of its failed compile (model/load.h; borrowed), or NULL */
} ns_table_row;

/* A row's status: "failed" when it has failed runs and no counted one (the
 * configuration does not compile), else "ok". */
const char *ns_table_status(const ns_table_row *x);

/* ====== The table ====== */

typedef struct {
    ns_stage_sel *stages;   /* stage maps per report (borrowed), NULL: no stage shares */
    const char *base_key;   /* baseline K=V: the tag ... (NULL: no base_ratio) */
    const char *base_value; /* ... and its baseline value */
} ns_table_opts;

/* A counted run's self time in one stage, kept when its reports are freed
 * (ns_table_keep_stages). */
typedef struct {
    int run;    /* index of the run in the table's runs */
    int slot;   /* the stage (index into ns_table.stages) */
    double sum; /* self seconds of the stage over the run's reports */
} ns_table_kept;

typedef struct {
    const ns_run *runs;    /* every run (borrowed) */
    int nruns;             /* entries in runs */
    ns_table_row *rows;    /* the rows, sorted */
    int nrows;             /* entries in rows */
    const char **keys;     /* tag keys: the caller's first, then by first appearance (array owned) */
    int nkeys;             /* entries in keys */
    const char **metrics;  /* metric names of the counted runs, sorted, once each (array owned) */
    int nmetrics;          /* entries in metrics */
    ns_strmap stages;      /* stage names: the caller's first, then the maps' declaration order */
    int staged;            /* stage shares were computed (opts.stages was given) */
    double *run_share;     /* [run * stages.count + k]: a counted run's share of stage k,
                              NaN when unknown or not counted (owned; NULL unless staged) */
    const char *base_key;  /* the baseline tag (borrowed from the options), or NULL */
    const char *base_value; /* its baseline value */
    ns_strmap derived;     /* the rows' derived tag values, interned (owned) */
    ns_table_kept *kept;   /* stage sums of the runs kept so far, by run (owned) */
    size_t nkept;          /* entries in kept */
    size_t kept_sums_cap;  /* allocated entries of kept */
    double *kept_total;    /* per kept run: its reports' summed totals (0: not
                              counted, or no report with a map) (owned) */
    size_t kept_cap;       /* allocated entries of kept_total */
    int kept_runs;         /* runs whose stage sums are kept: runs[0..kept_runs) */
} ns_table;

/* ====== Runs read one at a time ======
 * A history of 100,000 runs does not fit in memory with its trees (about
 * 40 KiB a run as ns_report).  What the table needs of a run's reports is
 * its stage sums (and `--submodels` its sub-model totals, which
 * ns_table_submodel_metrics turns into metrics of the run): a command that
 * reads run by run (parse/run_read.h, ns_run_folder_each) calls
 * ns_table_keep_stages on each run as it is read -- in reading order, so
 * that the run is runs[i] of the later ns_table_build, with the stage
 * selection it will build with -- and may then free the run's reports.
 * ns_table_build keeps the sums of the runs not kept so far itself, so a
 * caller that keeps every run in memory need not call it. */
void ns_table_keep_stages(ns_table *t, const ns_run *r, ns_stage_sel *sel);

/* An empty table, ready for the caller's keys and stage names. */
void ns_table_init(ns_table *t);
/* Group runs[0..nruns) into rows and compute everything above.  Call once. */
void ns_table_build(ns_table *t, const ns_run *runs, int nruns, const ns_table_opts *o);
void ns_table_free(ns_table *t);

/* The value of tag `key` in row r, or NULL.  The derived tags family and
 * size_b (params) of dataset.h answer when the runs have no such tag of
 * their own, so they work wherever a tag does: --by family, --tag-columns
 * size_b, the figures. */
const char *ns_table_tag(const ns_table_row *r, const char *key);
/* Has any row a regime (did any counted run keep a timing report)? */
int ns_table_any_regime(const ns_table *t);
/* The median share of each stage over runs[0..nruns) (indices into the
 * table's runs; uncounted ones have no shares) into share[stages.count];
 * returns the dominant stage (ties: declared first) or -1, and in *with
 * the number of those runs that have stage shares. */
int ns_table_median_shares(const ns_table *t, const int *runs, int nruns, double *share,
                           int *with);

/* ====== Baseline summary ======
 * The median base_ratio per value of the baseline tag, --by value and
 * mode, over rows that are not the baseline themselves: "int4 is 0.97x
 * int8 for m1".  Groups in the order of their first row. */
typedef struct {
    const char *value;  /* the baseline tag's value (borrowed) */
    const char *by;     /* the --by tag's value (borrowed), NULL without --by */
    const char *mode;   /* cache mode (borrowed) */
    int n;              /* rows with a ratio */
    double median;      /* their ratios' median ... */
    double min;         /* ... */
    double max;         /* ... */
} ns_table_base_group;

/* The groups, *n of them (caller frees the array); NULL and 0 without a
 * baseline.  by: a tag, or NULL. */
ns_table_base_group *ns_table_base_groups_new(const ns_table *t, const char *by, int *n);

/* ====== Sub-model kinds ======
 * `table --submodels`: every run gets a metric "submodel:KIND" per kind of
 * report it kept (generate, prefill, lm_head for an NPUW LLM compile
 * labelled with --npuw or NPUW_LLM=YES): the summed totals of those
 * reports.  The one function here that changes runs: call it before
 * ns_table_build, so that the metrics show their medians like any other. */
void ns_table_submodel_metrics(ns_run *runs, int nruns);

#endif
