/* page.h -- what the page of `npuscope report` says, as numbers: the
 * analysis half of the report, built from logs and runs already read.
 *
 * `report` answers a fixed list of questions about its input, and this
 * module asks them of the other analyses and keeps the answers in one
 * model, ns_page_model; render/page.h turns the model into words, tables
 * and figures, and render/html.h lays them out.  Nothing here knows HTML,
 * SVG, colours or sentences, and nothing there computes a statistic, so
 * the page can be checked number by number and its wording changed without
 * touching a number.
 *
 *   - Trees.  Every report of a log is shown.  A sweep can hold thousands
 *     of runs with seven reports each, so for run folders the explorer
 *     opens at most three runs per configuration and mode: the median run
 *     (analyse/table.h), and the fastest and the slowest counted runs --
 *     those two only while every row together stays within
 *     NS_PAGE_FULL_NODES (all of them or none, so that every configuration
 *     offers the same choice; a 6,000-run sweep gets its median runs only).
 *     Every other run is summed up in its row (n, median), never embedded.
 *     At most NS_PAGE_MAX_NODES rows are embedded, the median runs first;
 *     reports past that are counted, not dropped silently.
 *   - Heaviest passes: `top`'s sums (top.h) over the reports the explorer
 *     shows, by stage (stages.h: --stages, automatic by default).
 *   - Runs: the rows of `table` (analyse/table.h), with the stage names of
 *     the logs' maps first; the cache factor over the cold rows.
 *   - Figures, each only when the data can carry it: per tag whose values
 *     are numbers (>= 3 of them) the series of rows that share every other
 *     tag, with one power-law fit each (fit.h); a regime map over the first
 *     two tags; ratios to a baseline (--baseline, or precision=int8 when
 *     there is such a tag value); and for a sweep of 4 configurations or
 *     more the study's figures (ns_page_study below).
 *   - Diff: --a/--b select two sides of the runs (diff.h).
 *   - Method: what was run, where, when, by which compiler, with which
 *     stage maps -- distinct values with their counts.
 *
 * Everything is sorted before it is shown (tag values as numbers where
 * they are numbers, ties by name), and nothing reads the clock, so the
 * same input gives the same model.  The build prints nothing: what the
 * options asked for and could not get (a diff side without runs, a
 * baseline value no run has) is left in the model for the command to say.
 *
 * The module is broken out into five files (page_int.h lists what each
 * owns): page.c the model and the sections above the figures,
 * page_figures.c the figures' data, page_study.c the study's figures'
 * data, page_tags.c row labels and tag values, page_method.c the method
 * facts.
 *
 * Ownership: the model borrows what was read (logs, runs, the stage
 * selection, the options) and owns everything it computed; free it with
 * ns_page_model_free.  Strings marked borrowed point into the runs, the
 * reports or the options.
 */
#ifndef NPUSCOPE_ANALYSE_PAGE_H
#define NPUSCOPE_ANALYSE_PAGE_H

#include "analyse/diff.h"
#include "analyse/findings.h"
#include "analyse/fit.h"
#include "analyse/study.h"
#include "analyse/table.h"
#include "analyse/top.h"

#define NS_PAGE_MAX_NODES 250000 /* rows embedded for the explorer, all reports together */
#define NS_PAGE_FULL_NODES 60000 /* the fastest and slowest runs are embedded only while
                                    all rows together stay within this (about 1 MB) */

/* ====== What the command read and asked ====== */

typedef struct {
    const char *stage_spec; /* --stages MAP (NULL: automatic) */
    const char *sel_a;      /* --a K=V[,K=V] as written, or NULL */
    const char *sel_b;      /* --b K=V[,K=V] as written */
    const ns_kvlist *a;     /* --a parsed (NULL without --a) */
    const ns_kvlist *b;     /* --b parsed */
    const char *baseline;   /* --baseline K=V, or NULL */
    const char *fp_window;  /* --fingerprint-window W: the window of the family
                             * fingerprint (and of precision-size's time
                             * panel); NULL: the window most families share */
} ns_page_opts;

/* What the page reads of a run's trees, kept when `report` reads a run
 * folder run by run and frees each run's trees (builtin/report/read.c):
 * the trees of the few runs the explorer embeds are read again
 * (ns_page_input.load), the other runs are these numbers. */
typedef struct {
    double total;           /* ns_run_value "total": its main reports' totals summed, or NaN */
    long nodes;             /* rows of its reports that have a tree */
    int nreports;           /* its reports */
} ns_page_run_sums;

/* Load run `run`'s trees back into the run set for the explorer; 0, or -1
 * when they cannot be had as they were read (the loader warned: the run's
 * trees are left out). */
typedef int (*ns_page_load_fn)(void *ctx, int run);

typedef struct {
    ns_report **logs;       /* reports of the log inputs, in order */
    int nlogs;              /* entries in logs */
    const ns_runset *set;   /* runs of the folder inputs */
    const char **run_dir;   /* per run: the input folder it came from */
    const char *from;       /* what each input gave, for the subtitle (NULL: nothing) */
    char **inputs;          /* inputs as given */
    int ninputs;            /* entries in inputs */
    int argc;               /* the report command line (argv[0] "report") ... */
    char **argv;            /* ... for the method section */
    /* Runs read without their trees (all NULL: every run keeps its trees): */
    const ns_page_run_sums *sums; /* per run: what the page reads of its trees */
    ns_table *kept;         /* the runs' stage sums (ns_table_keep_stages, any stage
                             * order); the model takes them over */
    const ns_study_sums *study_sums; /* per run: ns_study_keep_run's summary ... */
    const ns_study_keep *study_keep; /* ... made with this */
    const ns_diff_sums *diff_sums;   /* per run, with --a/--b: ns_diff_keep_run's ... */
    const ns_diff_keep *diff_keep;   /* ... made with this (no stage selection) */
    const ns_strmap *titles;  /* "producer: title" of the runs' reports, first-seen ... */
    const int *title_n;       /* ... and how many reports had each */
    ns_page_load_fn load;   /* brings back a run's trees to embed them */
    void *load_ctx;         /* its state */
    const ns_findings *findings; /* the findings engine's model of the same inputs
                                  * (analyse/findings.h), or NULL */
} ns_page_input;

/* ====== Sections ====== */

/* Why a run's trees are embedded: the roles it plays in its row. */
#define NS_PAGE_MEDIAN 1  /* the row's median run (analyse/table.h) */
#define NS_PAGE_FASTEST 2 /* its fastest counted run */
#define NS_PAGE_SLOWEST 4 /* its slowest counted run */

typedef struct {
    int row;                /* its configuration and mode (index into the table's rows) */
    int run;                /* the run (index into the runs) */
    int roles;              /* NS_PAGE_MEDIAN | NS_PAGE_FASTEST | NS_PAGE_SLOWEST */
    int first;              /* its first report in ns_page_shown.reps, or -1: none embedded */
    int nreps;              /* its reports embedded (all of them, or none) */
} ns_page_xrun;

typedef struct {
    const ns_report **reps; /* reports embedded for the explorer, in page order (borrowed):
                               the logs', the median runs', then the other runs' */
    char **labels;          /* their labels on the page (owned) */
    int n;                  /* entries */
    int primary;            /* the first `primary` reps are the logs' and the median runs'
                               (the page's sums are over them) */
    int nlogs;              /* the first `nlogs` reps are the logs' */
    ns_page_xrun *runs;     /* runs the explorer can open, by row, median first (owned) */
    int nruns;              /* entries */
    long nodes;             /* rows embedded */
    int omitted;            /* reports left out: over NS_PAGE_MAX_NODES */
    int extras_left;        /* fastest and slowest runs not embedded (NS_PAGE_FULL_NODES) */
} ns_page_shown;

typedef struct {
    double log_sum;         /* the log reports' totals, summed (those that have one) */
    int log_big;            /* the largest log report (index into logs), or -1 */
    ns_strmap producers;    /* producers of the log reports, first-seen order */
    ns_strmap kinds;        /* sub-model kinds of the log reports (ns_submodel_kind_new) */
    double *kind_total;     /* per kind: its reports' totals, summed (owned) */
    int counted;            /* counted runs */
    int configs;            /* configurations of the runs (tags; modes aside) */
    double run_median;      /* wall seconds of the counted runs: median ... */
    double run_min;         /* ... */
    double run_max;         /* ... */
} ns_page_overview;

typedef struct {
    ns_top top;             /* sums over the shown reports (by stage) */
    size_t *order;          /* top's rows, heaviest first, ties by name (owned; NULL: no report) */
    int best;               /* stage with the most self time, or -1 */
    int second;             /* the next one, or -1 */
} ns_page_passes;

typedef struct {
    int n;                  /* cold rows with a cache factor */
    int row;                /* the last of them (index into the table's rows) */
    double median;          /* their factors: median ... */
    double min;             /* ... */
    double max;             /* ... */
} ns_page_cache;

typedef struct {
    int asked;              /* --a and --b were given */
    const char *mode;       /* the mode both sides are compared in, or NULL */
    int a_n;                /* counted runs of side A in that mode */
    int b_n;                /* ... of side B */
    ns_diff_opts opts;      /* alpha, threshold */
    ns_diff diff;           /* the rows, when both sides have runs */
    double min_p;           /* the smallest p these sizes can reach */
} ns_page_diff;

/* ====== Figures ====== */

typedef struct {
    char *name;                 /* series label (owned) */
    const ns_table_row **rows;  /* its rows, in table order (borrowed; array owned) */
    int nrows;                  /* entries */
    ns_fit fit;                 /* its points; fitted when it has >= 3 */
} ns_page_series;

typedef struct {
    const char *axis;           /* the tag along x (borrowed) */
    int pow2;                   /* its values are all powers of 2 */
    ns_page_series *series;     /* the series: rows sharing every other tag (owned) */
    int nseries;                /* entries */
    int plotted;                /* series with >= 3 points (the figure's) */
    int fitted;                 /* of those, series whose fit succeeded */
} ns_page_scaling;

typedef struct {
    const char *xk;             /* tag across (borrowed), NULL: no regime map */
    const char *yk;             /* tag down, NULL: one row */
    const char **xv;            /* column values, sorted (borrowed; array owned) */
    int nx;                     /* entries */
    const char **yv;            /* row values, sorted (borrowed; array owned), NULL: one row */
    int ny;                     /* entries (1 without yk) */
    int *cell;                  /* ny x nx: dominant stage, or -1 (owned) */
    double *share;              /* ny x nx: its median share (owned) */
    int *nruns;                 /* ny x nx: runs with stage shares (owned) */
    int *count;                 /* per stage: cells it dominates (owned) */
    int filled;                 /* cells with a dominant stage */
    int pooled;                 /* other tags, pooled in the cells */
    int by_size;                /* the rows are models in order of size (size_b) */
} ns_page_regime;

typedef struct {
    char *series;               /* "precision=fp16, model=7b" (owned) */
    char *cat;                  /* categorical x: the other tags (owned) */
    double x;                   /* x: the tag's value, or the category's index */
    double ratio;               /* median / the baseline's median */
    const char *val;            /* the baseline tag's value here (borrowed) */
    const ns_table_row *row;    /* the row (borrowed): its tags name the small multiples */
} ns_page_ratio;

typedef struct {
    char *key;                  /* the baseline tag (owned), NULL: no ratios */
    const char *base;           /* its baseline value (borrowed) */
    int found_base;             /* some row has the baseline value */
    const char *xk;             /* numeric x: a tag with >= 2 values (borrowed), or NULL */
    int pow2;                   /* its values are all powers of 2 */
    ns_page_ratio *r;           /* ratios, in table order (owned) */
    int n;                      /* entries */
    const char **cats;          /* categorical x: the categories, first-seen (borrowed) */
    int ncats;                  /* entries */
} ns_page_ratios;

/* ====== The study's figures ======
 * A sweep of NS_STUDY_MIN_CONFIGS configurations or more is read as a
 * study (analyse/study.h).  Its figures work on the study's cells (one
 * compile row per configuration) and on the compiler's own time: a cell's
 * time is the median over its counted runs of the summed report totals
 * (the wall time of the process when no run kept a report), because an
 * NPU compile is timed by its reports.  The axes are found by name: the
 * window is the tag named window (or seq_len, context, prompt, ctx,
 * resolution), else the first numeric tag that is not a size; the size is
 * the derived size_b (dataset.h); the precision is the baseline tag
 * (--baseline, or precision with int8).  A figure the sweep cannot carry
 * is left out with its reason in `absent`. */

typedef struct {
    const ns_table_row *row;    /* its compile row (borrowed from the table) */
    double time;                /* median summed report totals of its counted runs (s) */
    double size_b;              /* the model's size (NaN: none) */
    int family;                 /* index into the study's families, -1: none */
    int model;                  /* index into models (by size, then name), -1: no model tag */
    const char *window;         /* its window value (borrowed), NULL: none */
    const char *prec;           /* its precision value (borrowed), NULL: none */
} ns_page_cell;

/* One point of a study line figure: panel, series, x, y. */
typedef struct {
    int panel;                  /* index into the figure's panels (0 without panels) */
    int series;                 /* index into its series */
    double x;                   /* ... */
    double y;                   /* ... */
    int n;                      /* values behind y */
    int shape;                  /* marker shape (the family), or 0 */
} ns_page_fpt;

typedef struct {
    const char **panels;        /* panel names (borrowed), NULL: one panel */
    int npanels;                /* entries (1 without panels) */
    const char **series;        /* series names (borrowed) */
    int nseries;                /* entries */
    ns_page_fpt *pts;           /* points, by panel, series, x (owned) */
    int npts;                   /* entries */
} ns_page_lines;

typedef struct {
    int built;                  /* a study was made (>= NS_STUDY_MIN_CONFIGS cells) */
    ns_page_cell *cells;        /* the cells, table order (owned) */
    int ncells;                 /* entries */
    const char *wk;             /* the window tag (borrowed), NULL: none */
    const char *pk;             /* the precision tag (borrowed), NULL: none */
    const char *base;           /* its baseline value (borrowed) */
    char **families;            /* family names, sorted (owned) */
    int nfam;                   /* entries */
    const char **models;        /* model tag values by size then name (borrowed; array owned) */
    int nmodels;                /* entries */
    const char **precs;         /* precision values, the baseline first (borrowed; array owned) */
    int nprecs;                 /* entries */
    const char *absent[6];      /* why each study figure is left out ("needs ...", static), NULL: drawn;
                                   regime, handoff, why-costly, fingerprint-family,
                                   precision-size, precision-scaling */
    /* the regime map: size order of the model rows */
    int regime_by_size;         /* the map's rows are models and every one has a size */
    /* the hand-off: every cell's stage shares against its time, and per
       stage the medians over bins of cells of neighbouring time */
    int nbins;                  /* bins (>= 3) */
    double *bin_x;              /* per bin: median time of its cells (owned) */
    double *bin_lo;             /* per bin: its first and last time (owned) */
    double *bin_hi;             /* ... */
    double *bin_share;          /* nbins x stages: median share (owned) */
    int *lead;                  /* the hand-off: stages leading in turn as time grows (owned) */
    double *lead_to;            /* per leader but the last: the time where the next takes over */
    int nlead;                  /* entries */
    int *fam_lead;              /* per family (8 each): its own leaders in turn (owned) */
    int *fam_nlead;             /* per family: entries (0: under 6 cells, not judged) */
    int fam_checked;            /* families judged */
    int fam_same;               /* of them, those whose leaders come in the sweep's order */
    /* why it is costly: the study's fits a point per report (borrowed) */
    const ns_study_fit *why;    /* dominant pass against its workload fact, or NULL */
    const char *why_pass;       /* the pass (borrowed) */
    const char *why_fact;       /* the fact (borrowed) */
    /* the family fingerprint at one window */
    const char *fp_window;      /* the window (borrowed) */
    int fp_nfam;                /* families there */
    int *fp_model;              /* per bar: its model index (owned) */
    double *fp_share;           /* per bar x stages: median share over its runs (owned) */
    int fp_n;                   /* bars */
    /* precision against size */
    ns_page_lines ps_time;      /* time at fp_window against size, a series per precision */
    ns_page_lines ps_ratio;     /* median over windows of time / baseline's, against size */
    double *cross;              /* per precision: the size where the ratio crosses 1 (NaN: none) */
    double *ratio_lo;           /* per precision: smallest and largest ratio (owned) */
    double *ratio_hi;           /* ... */
    /* memory-scheduling share against window, a series per precision,
       a panel per model */
    int ms_stage;               /* the stage (index), -1: none */
    ns_page_lines ms;           /* ... */
    ns_study study;             /* the study behind it (owned; analyse/study.h) */
} ns_page_study;

/* ====== Method ====== */

typedef struct {
    ns_strmap m;                /* distinct strings, first-seen order */
    int *count;                 /* occurrences per string (owned) */
} ns_page_tally;

typedef struct {
    char *command;              /* this page's command line, shell-quoted (owned) */
    ns_page_tally commands;     /* commands the runs ran, shell-quoted */
    ns_strmap env;              /* variables npuscope set, first-seen */
    ns_page_tally *env_values;  /* per variable: its values (owned) */
    ns_page_tally hosts;        /* hosts of the runs ("name, os, N cpus", run.json) */
    const char *first;          /* earliest started_at (borrowed), NULL: none */
    const char *last;           /* latest started_at */
    ns_page_tally reports;      /* "producer: title" of every report */
    ns_strmap facts;            /* names of the compiler facts the logs hold */
    double *fact_min;           /* per fact: smallest value (owned) */
    double *fact_max;           /* ... largest (owned) */
    int *fact_n;                /* ... reports that have it (owned) */
} ns_page_method;

/* ====== The model ====== */

typedef struct {
    const ns_page_input *in;    /* what was read (borrowed) */
    const ns_page_opts *opts;   /* what was asked (borrowed) */
    ns_stage_sel *sel;          /* stage map per report (borrowed) */
    ns_table table;             /* the runs' rows; its stages are the page's stage names */
    const char *fig_mode;       /* runs the figures use: "cold" when any, else NULL (all) */
    ns_page_shown shown;        /* the explorer */
    ns_page_overview overview;  /* the first findings */
    ns_page_passes passes;      /* heaviest passes */
    ns_page_cache cache;        /* the cache factor */
    ns_page_diff diff;          /* A against B */
    ns_page_scaling *scaling;   /* per numeric tag with >= 3 values, in key order (owned) */
    int nscaling;               /* entries */
    ns_page_regime regime;      /* the regime map */
    ns_page_ratios ratios;      /* ratios to the baseline */
    ns_page_study study;        /* the study's figures */
    ns_page_method method;      /* method & reproducibility */
} ns_page_model;

/* Build the model of the page.  opts->a/b must parse (the command checks);
 * sel is the --stages selection. */
void ns_page_model_build(ns_page_model *m, const ns_page_input *in, const ns_page_opts *opts,
                         ns_stage_sel *sel);
void ns_page_model_free(ns_page_model *m);

/* "model=m1, window=128": a row's tags in key order, plus its mode unless
 * it is "none" (with_mode); the keys skip1 and skip2 are left out.
 * `empty` when nothing is left.  Caller frees. */
char *ns_page_label_new(const ns_table *t, const ns_table_row *g, const char *skip1,
                        const char *skip2, int with_mode, const char *empty);

#endif
