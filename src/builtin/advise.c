/* advise.c -- `npuscope advise`: the regime of each compile and what to
 * change, with the numbers that say why.
 *
 * The advice follows the published NPU compile-time study: a compile is
 * dominated by one stage (its "regime"), and each regime has its fixes.  The
 * rules live in one table below (ns__rules), each with the condition it
 * tests and the evidence it prints, so a reader can check every sentence
 * against the data.  What npuscope cannot measure (it never guesses) it says
 * how to measure: no warm runs -> how to get the cache factor.
 *
 * Input: logs (every report of a file is one compile, summed: an NPUW LLM
 * compile is several reports) or run folders (one compile per counted run;
 * medians over the runs of a configuration: the rows `table` prints,
 * analyse/table.h).  What is advice stays here: the heaviest pass, the
 * rules and the trade-off; the numbers they weigh are the engine's.
 * Run folders are read run by run: what the table, the cases and the study
 * need of a run's trees is kept as it is read and the trees are freed
 * ("Run folders, run by run").
 */
#include "builtin/builtin.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "analyse/dataset.h"
#include "base/jsonw.h"
#include "parse/run_read.h"
#include "model/stages.h"
#include "analyse/stats.h"
#include "analyse/table.h"
#include "analyse/study.h"
#include "model/load.h"
#include "render/matrix.h"
#include "base/strmap.h"
#include "render/grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ====== One configuration's evidence ====== */

#define NS__MAX_STAGES 32

typedef struct {
    char *name;                     /* configuration (tags) or file name */
    const ns_stage_map *map;        /* the map its reports use */
    int compiles;                   /* compiles (runs, or 1 for a log) */
    int submodels;                  /* reports per compile (median) */
    double total_s;                 /* compile time: median over compiles */
    double share[NS__MAX_STAGES];   /* stage shares of the total (median) */
    char *top_pass;                 /* heaviest pass by summed wall */
    double top_pass_share;          /* its share of the total */
    double top_pass_s;              /* its own wall seconds, as printed (summed
                                     * over its compile's reports) */
    double top_pass_of_s;           /* the reported total its share is of */
    double cold_s, warm_s;          /* medians by mode (NaN when absent) */
    double tasks, tiles;            /* NPU schedule/strategy metrics (NaN) */
    double tokens_per_s;            /* runtime metric (NaN) */
    const ns_kvlist *tags;          /* tags of the configuration (runs) */
} ns__case;

static int ns__stage(const ns_stage_map *m, const char *name) { return ns_stage_find(m, name); }

static double ns__share(const ns__case *c, const char *stage) {
    if (!c->map) return NAN; /* runs that kept no report */
    int i = ns__stage(c->map, stage);
    return i >= 0 && i < NS__MAX_STAGES ? c->share[i] : NAN;
}

static int ns__dominant(const ns__case *c) {
    int best = -1;
    for (int i = 0; i < ns_stage_count(c->map) && i < NS__MAX_STAGES; i++)
        if (isfinite(c->share[i]) && (best < 0 || c->share[i] > c->share[best])) best = i;
    return best;
}

/* ====== The rules ====== */

typedef struct {
    const char *id;                                   /* rule name in JSON */
    double (*weight)(const ns__case *c);              /* share of the compile it addresses; NaN: does not apply */
    void (*say)(ns_buf *b, const ns__case *c);        /* the advice with its numbers */
    const char *stage;                                /* the regime it fixes, or NULL */
    const char *cause;                                /* that regime's root cause, for the study */
} ns__rule;

/* The blob cache is OpenVINO's: advise it for NPU compiles, or wherever
 * cold and warm runs were measured -- never as a guess for other tools. */
static double ns__w_cache(const ns__case *c) {
    int npu = c->map && !strcmp(ns_stage_map_label(c->map), "vpux");
    int measured = isfinite(c->cold_s) && isfinite(c->warm_s);
    return npu || measured ? 1.0 : NAN;
}
static void ns__s_cache(ns_buf *b, const ns__case *c) {
    if (isfinite(c->cold_s) && isfinite(c->warm_s) && c->warm_s > 0)
        ns_buf_printf(b, "Serve compiles from a warm blob cache (OpenVINO CACHE_DIR, or ship the "
                         "precompiled blob): measured cold %.2f s vs warm %.2f s, x%.1f.",
                      c->cold_s, c->warm_s, c->cold_s / c->warm_s);
    else
        ns_buf_printf(b, "Serve compiles from a warm blob cache (OpenVINO CACHE_DIR, or ship the "
                         "precompiled blob); this compile takes %.2f s cold. Measure the factor with "
                         "`npuscope sweep --modes cold,warm ...` (the study saw x20 to x125).",
                      c->total_s);
}

static double ns__w_tiling(const ns__case *c) {
    double s = ns__share(c, "tiling-search");
    return isfinite(s) && s >= 0.25 ? s : NAN;
}
static void ns__s_tiling(ns_buf *b, const ns__case *c) {
    ns_buf_printf(b, "Tiling search (MultiClusterStrategyAssignment and the tiling passes) takes "
                     "%.0f%% of %.2f s: write the strategy once (NPU_COMPILATION_MODE_PARAMS="
                     "write-strategy-to-json=true) and reuse it across shapes, or lower the search "
                     "effort; small and short compiles are dominated by it.",
                  100 * ns__share(c, "tiling-search"), c->total_s);
}

static double ns__w_memory(const ns__case *c) {
    double s = ns__share(c, "memory-scheduling");
    return isfinite(s) && s >= 0.25 ? s : NAN;
}
static void ns__s_memory(ns_buf *b, const ns__case *c) {
    ns_buf_printf(b, "Memory scheduling (FeasibleAllocation and friends) takes %.0f%% of %.2f s",
                  100 * ns__share(c, "memory-scheduling"), c->total_s);
    if (isfinite(c->tasks)) ns_buf_printf(b, " for %.0f scheduled tasks", c->tasks);
    ns_buf_puts(b, ": fewer, larger tiles cut the task count it has to place (it grows about as "
                   "tasks^0.7 in the study); bound the prompt window; ship a precompiled blob.");
}

static double ns__w_serial(const ns__case *c) {
    double s = ns__share(c, "serialization");
    return isfinite(s) && s >= 0.25 ? s : NAN;
}
static void ns__s_serial(ns_buf *b, const ns__case *c) {
    ns_buf_printf(b, "Serialization (the ELF pipeline) takes %.0f%% of %.2f s: typical of extreme "
                     "prompt windows; ship the precompiled blob instead of compiling on the target.",
                  100 * ns__share(c, "serialization"), c->total_s);
}

static double ns__w_vf(const ns__case *c) {
    double s = ns__share(c, "vertical-fusion");
    return isfinite(s) && s >= 0.20 ? s : NAN;
}
static void ns__s_vf(ns_buf *b, const ns__case *c) {
    ns_buf_printf(b, "Vertical fusion (MergeVfSubgraphs ...) takes %.0f%% of %.2f s: for conv nets "
                     "it replaces tiling as the cost at high input resolution; compare a lower "
                     "resolution or a build with vertical fusion limited.",
                  100 * ns__share(c, "vertical-fusion"), c->total_s);
}

static double ns__w_pass(const ns__case *c) {
    return c->top_pass && c->top_pass_share >= 0.30 ? c->top_pass_share * 0.9 : NAN;
}
/* The pass's own seconds, as its reports printed them, and what its share
 * is of: the reports' total, which is not the process's wall time (the
 * compile's time above) -- scaling one by the other would quote a time no
 * report printed. */
static void ns__s_pass(ns_buf *b, const ns__case *c) {
    ns_buf_printf(b, "One pass, %s, takes %.4f s, %.0f%% of the %.4f s its timing reports "
                     "total: look at it first "
                     "(`npuscope top`, and `npuscope fit` against the size of its input).",
                  c->top_pass, c->top_pass_s, 100 * c->top_pass_share, c->top_pass_of_s);
}

static const ns__rule ns__rules[] = {
    {"warm-cache", ns__w_cache, ns__s_cache, NULL, NULL},
    {"reuse-strategy", ns__w_tiling, ns__s_tiling, "tiling-search",
     "the strategy search is redone per shape"},
    {"fewer-tasks", ns__w_memory, ns__s_memory, "memory-scheduling",
     "placing many scheduled tasks"},
    {"ship-blob", ns__w_serial, ns__s_serial, "serialization",
     "ELF serialization of a large window"},
    {"vertical-fusion", ns__w_vf, ns__s_vf, "vertical-fusion",
     "fusing subgraphs at high resolution"},
    {"heaviest-pass", ns__w_pass, ns__s_pass, NULL, NULL},
};

/* The study's fix of a regime: the rule that addresses its stage. */
static const char *ns__fix_of(const char *stage, const char **cause) {
    for (size_t k = 0; k < sizeof ns__rules / sizeof ns__rules[0]; k++)
        if (ns__rules[k].stage && !strcmp(ns__rules[k].stage, stage)) {
            *cause = ns__rules[k].cause;
            return ns__rules[k].id;
        }
    return NULL;
}

/* ====== Gathering ====== */

/* What a case reads of one run's trees (kept as the run is read). */
typedef struct {
    int has_reports;           /* the run kept a report (after --report N) */
    const ns_stage_map *map;   /* the map of its first report (borrowed from the selection) */
    int submodels;             /* sub-model compiles among its reports */
    double total;              /* its reports' summed totals (ns__total) */
    char *top;                 /* its heaviest pass (ns__top_pass_new), or NULL (owned) */
    double top_share;          /* that pass's share of total */
    double top_s;              /* its summed wall */
} ns__run_sums;

typedef struct {
    ns_stage_sel sel;    /* stage maps */
    ns__case *cases;     /* one per configuration or log */
    int ncases;          /* entries in cases */
    ns_table table;      /* the rows of the run folders (empty without runs) */
    ns_study study;      /* the sweep's synthesis (valid when studied) */
    int studied;         /* a study was made: NS_STUDY_MIN_CONFIGS cells or more */
    int per_config;      /* --per-config: the cases after the study */
    ns__run_sums *sums;  /* per run read, what its cases need of its trees (owned) */
    ns_study_sums *study_sums; /* per run read, what the study needs (owned) */
    int cap;             /* allocated entries of both */
    ns_study_keep keep;  /* the study summaries' names (the cells' passes point into it) */
    long want;           /* --report N (0: every report) */
} ns__advice;

/* The summed totals of a compile's reports (those that have one); a
 * breakdown table's time is inside its main report's (model/report.h). */
static double ns__total(ns_report *const *reps, int n) {
    double total = 0;
    for (int k = 0; k < n; k++) {
        if (!ns_report_is_main(reps[k])) continue;
        double t = ns_stage_report_total(reps[k]);
        if (isfinite(t)) total += t;
    }
    return total;
}

/* The heaviest pass of a compile: leaf pass rows summed by name over its
 * reports, the largest wall (ties by name), or NULL; *top_share is its
 * share of total, *top_s its summed wall.  A phase row whose passes a
 * breakdown table lists ("Optimizer", NS_SPLIT_PASSES) is no pass. */
static char *ns__top_pass_new(ns_report *const *reps, int n, double total, double *top_share,
                              double *top_s) {
    ns_strmap names;
    ns_strmap_init(&names);
    double *wall = NULL;
    for (int k = 0; k < n; k++)
        for (const ns_node *nd = reps[k]->root->child; nd; nd = ns_node_next((ns_node *)nd, reps[k]->root)) {
            if (nd->kind != NS_KIND_PASS || nd->child || nd->split == NS_SPLIT_PASSES) continue;
            int added;
            size_t i = ns_strmap_intern(&names, nd->name, &added);
            if (added) wall = ns_xrealloc(wall, sizeof *wall * (i + 1)), wall[i] = 0;
            if (isfinite(nd->val[NS_COL_WALL].v)) wall[i] += nd->val[NS_COL_WALL].v;
        }
    char *top = NULL;
    *top_share = *top_s = NAN;
    size_t best = (size_t)-1;
    for (size_t i = 0; i < names.count; i++)
        if (best == (size_t)-1 || wall[i] > wall[best] ||
            (wall[i] == wall[best] && strcmp(names.keys[i], names.keys[best]) < 0))
            best = i;
    if (best != (size_t)-1) {
        top = ns_strdup(names.keys[best]);
        *top_share = total > 0 ? wall[best] / total : NAN;
        *top_s = wall[best];
    }
    free(wall);
    ns_strmap_free(&names);
    return top;
}

/* Stage shares and heaviest pass of a set of reports (one compile). */
static void ns__compile(ns__advice *ad, ns_report **reps, int n, double *share, int *nstages,
                        const ns_stage_map **map, char **top, double *top_share, double *top_s,
                        double *total) {
    *total = ns__total(reps, n);
    double self[NS__MAX_STAGES] = {0};
    *map = NULL;
    for (int k = 0; k < n; k++) {
        if (!ns_report_is_main(reps[k])) continue; /* inside a main report */
        const ns_stage_map *m = ns_stage_sel_pick(&ad->sel, reps[k]);
        if (!*map) *map = m;
        long cnt;
        ns_stage_of *of = ns_stage_assign_new(m, reps[k], &cnt);
        ns_stage_sums s;
        double buf[NS__MAX_STAGES + 1];
        s.self = buf;
        ns_stage_sum(m, reps[k], of, &s);
        for (int i = 0; i < ns_stage_count(m) && i < NS__MAX_STAGES; i++) self[i] += buf[i];
        free(of);
    }
    *nstages = *map ? ns_stage_count(*map) : 0;
    for (int i = 0; i < *nstages && i < NS__MAX_STAGES; i++) share[i] = *total > 0 ? self[i] / *total : NAN;
    *top = ns__top_pass_new(reps, n, *total, top_share, top_s);
}

/* The reports of a log file (--report N: the N-th only, taken alone). */
typedef struct {
    ns_report **r; /* kept reports */
    int n;         /* entries in r */
    long want;     /* --report N, 0 for all */
    long seen;     /* reports seen */
} ns__logf;

static int ns__sink(ns_report *r, void *ctx) {
    ns__logf *f = ctx;
    if (f->want && ++f->seen != f->want) {
        ns_report_free(r);
        return 0;
    }
    if (f->want) r->group = r->parent = -1; /* one table alone is its own whole */
    f->r = ns_xrealloc(f->r, sizeof *f->r * (size_t)(f->n + 1));
    f->r[f->n++] = r;
    return 0;
}

static ns__case *ns__new_case(ns__advice *ad, const char *name) {
    ad->cases = ns_xrealloc(ad->cases, sizeof *ad->cases * (size_t)(ad->ncases + 1));
    ns__case *c = &ad->cases[ad->ncases++];
    memset(c, 0, sizeof *c);
    c->name = ns_strdup(name);
    c->cold_s = c->warm_s = c->tasks = c->tiles = c->tokens_per_s = NAN;
    for (int i = 0; i < NS__MAX_STAGES; i++) c->share[i] = NAN;
    return c;
}

/* Returns -1 when the log could not be read (said), else 0. */
static int ns__from_log(ns__advice *ad, const char *path, const ns_read_opts *ro, long want) {
    ns__logf f = {NULL, 0, want, 0};
    char *in[1] = {(char *)path};
    long found = ns_cli_scan(in, 1, ro, ns__sink, &f);
    if (found <= 0 || f.n == 0) {
        for (int i = 0; i < f.n; i++) ns_report_free(f.r[i]);
        free(f.r);
        if (found > 0)
            ns_error("%s: --report %ld: the input has only %ld report%s", path, want, found,
                     found == 1 ? "" : "s");
        return found < 0 ? -1 : 0;
    }
    ns__case *c = ns__new_case(ad, path);
    int nst;
    ns__compile(ad, f.r, f.n, c->share, &nst, &c->map, &c->top_pass, &c->top_pass_share,
                &c->top_pass_s, &c->total_s);
    c->top_pass_of_s = c->total_s;
    c->compiles = 1;
    /* sub-model compiles, not tables: a clang or flang compile prints
     * several (model/report.h, "Report groups") */
    c->submodels = 0;
    for (int i = 0; i < f.n; i++) c->submodels += ns_report_starts_compile(f.r[i]);
    c->cold_s = NAN;
    for (int i = 0; i < f.n; i++) {
        for (int k = 0; k < f.r[i]->nfacts; k++)
            if (!strcmp(f.r[i]->facts[k].name, "vpuip_tasks"))
                c->tasks = (isfinite(c->tasks) ? c->tasks : 0) + f.r[i]->facts[k].value;
        ns_report_free(f.r[i]);
    }
    free(f.r);
    return 0;
}

/* The median of metric `name` in a row of t, or NaN. */
static double ns__row_metric(const ns_table *t, const ns_table_row *x, const char *name) {
    for (int m = 0; m < t->nmetrics; m++)
        if (!strcmp(t->metrics[m], name)) return x->metrics[m];
    return NAN;
}

/* One case per configuration of the run folders, from the rows of the
 * table engine (analyse/table.h): the compile row (cold, or "none" when
 * the runs had no cache mode) gives the time, the stage shares and the
 * metrics, the warm row the cache hit.  Cases come in the table's order
 * (ns_config_cmp: tag values that are numbers by value, 2000 before
 * 16000), configurations without a counted run left out; the heaviest
 * pass is the largest share any compile of the row gave. */
static void ns__from_runs(ns__advice *ad, ns_runset *rs) {
    ns_table_opts o = {&ad->sel, NULL, NULL};
    ns_table_build(&ad->table, rs->runs, rs->nruns, &o); /* its stage sums kept run by run */
    const ns_table t = ad->table;
    int *done = ns_xcalloc((size_t)t.nrows + 1, sizeof *done);
    for (int i = 0; i < t.nrows; i++) {
        if (done[i]) continue;
        const ns_table_row *first = &t.rows[i], *compile = NULL, *warm = NULL;
        for (int r = i; r < t.nrows; r++) { /* the rows of this configuration */
            const ns_table_row *x = &t.rows[r];
            if (!ns_config_same_tags(&x->cfg, &first->cfg)) continue;
            done[r] = 1;
            if (!x->n) continue;
            if (!strcmp(x->cfg.mode, "warm")) warm = x;
            else if (!compile) compile = x;
        }
        if (!compile && !warm) continue; /* no counted run */
        const ns_kvlist *tags = &rs->runs[first->cfg.runs[0]].tags;
        ns_buf name = {0};
        for (int k = 0; k < tags->n; k++)
            ns_buf_printf(&name, "%s%s=%s", k ? " " : "", tags->items[k].key, tags->items[k].value);
        if (ns_config_label(&first->cfg)) /* the command's words that tell it apart */
            ns_buf_printf(&name, "%s%s=%s", name.len ? " " : "", ns_config_label_key(&first->cfg),
                          ns_config_label(&first->cfg));
        ns__case *c = ns__new_case(ad, name.len ? name.data : "(no tags)");
        ns_buf_free(&name);
        c->tags = tags;
        double tshare = 0;
        for (int k = 0; compile && k < compile->cfg.nruns; k++) {
            const ns_run *r = &rs->runs[compile->cfg.runs[k]];
            const ns__run_sums *q = &ad->sums[compile->cfg.runs[k]];
            if (!ns_run_counted(r) || !q->has_reports) continue;
            /* the map and sub-models of the compile row's last run with reports */
            c->map = q->map;
            c->submodels = q->submodels;
            double ps = q->top_share, pss = q->top_s, of = q->total;
            char *top = q->top ? ns_strdup(q->top) : NULL;
            if (top && (!c->top_pass || ps > tshare)) {
                free(c->top_pass);
                c->top_pass = top;
                tshare = ps;
                c->top_pass_s = pss;
                c->top_pass_of_s = of;
            } else {
                free(top);
            }
        }
        /* the time shown is the compile row's median when there is one */
        c->compiles = compile ? compile->n : warm ? warm->n : 0;
        c->cold_s = compile ? compile->median : NAN;
        c->warm_s = warm ? warm->median : NAN;
        c->total_s = isfinite(c->cold_s) ? c->cold_s : c->warm_s;
        for (int k = 0; c->map && k < ns_stage_count(c->map) && k < NS__MAX_STAGES; k++) {
            size_t at = ns_strmap_find(&t.stages, ns_stage_name(c->map, k));
            c->share[k] = at == (size_t)-1 ? NAN : compile->shares[at];
        }
        c->top_pass_share = tshare;
        if (compile) {
            double v = ns__row_metric(&t, compile, "tasks");
            if (isfinite(v)) c->tasks = v;
            v = ns__row_metric(&t, compile, "tokens_per_s");
            if (isfinite(v)) c->tokens_per_s = v;
            /* only NPU modes mark the cache: "none" runs are not cold runs */
            if (!strcmp(compile->cfg.mode, "none")) c->cold_s = NAN;
        }
    }
    free(done);
    ad->studied = ns_study_build_summed(&ad->study, &ad->table, ad->study_sums, &ad->keep,
                                        ns__fix_of) == 0;
}

/* ====== Run folders, run by run ======
 * Each run is read, cut to its N-th report alone with --report N (a run
 * with fewer keeps none) before anything is counted, and reduced to what
 * is read of its trees later: its stage sums (the table's,
 * ns_table_keep_stages), what its case reads (ns__run_sums) and what the
 * study reads (ns_study_sums); then its trees are freed, so memory grows
 * with the runs' records, not with their trees. */
typedef struct {
    ns__advice *ad; /* where the summaries go */
    ns_runset *rs;  /* where the runs go, trees freed */
} ns__reader;

static void ns__take_run(ns_run *r, void *ctx) {
    ns__reader *rd = ctx;
    ns__advice *ad = rd->ad;
    ns_runset *rs = rd->rs;
    if (ad->want) {
        ns_report *keep = ad->want <= r->nreports ? r->reports[ad->want - 1] : NULL;
        for (int k = 0; k < r->nreports; k++)
            if (r->reports[k] != keep) ns_report_free(r->reports[k]);
        r->nreports = 0;
        if (keep) {
            keep->group = keep->parent = -1;
            r->reports[r->nreports++] = keep;
        }
    }
    if (rs->nruns == ad->cap) {
        ad->cap = ad->cap ? 2 * ad->cap : 64;
        rs->runs = ns_xrealloc(rs->runs, sizeof *rs->runs * (size_t)ad->cap);
        ad->sums = ns_xrealloc(ad->sums, sizeof *ad->sums * (size_t)ad->cap);
        ad->study_sums = ns_xrealloc(ad->study_sums, sizeof *ad->study_sums * (size_t)ad->cap);
    }
    int i = rs->nruns++;
    ns_run *kept = &rs->runs[i];
    *kept = *r;
    ns_table_keep_stages(&ad->table, kept, &ad->sel);
    ns__run_sums *q = &ad->sums[i];
    memset(q, 0, sizeof *q);
    q->top_share = q->top_s = NAN;
    q->has_reports = kept->nreports > 0;
    if (q->has_reports) {
        q->map = ns_stage_sel_pick(&ad->sel, kept->reports[0]);
        for (int k = 0; k < kept->nreports; k++) q->submodels += ns_report_starts_compile(kept->reports[k]);
        q->total = ns__total(kept->reports, kept->nreports);
        q->top = ns__top_pass_new(kept->reports, kept->nreports, q->total, &q->top_share, &q->top_s);
    }
    ns_study_keep_run(&ad->keep, kept, &ad->sel, &ad->study_sums[i]);
    ns_run_free_reports(kept);
}

/* ====== The NPUW decode lesson ======
 * Configurations that differ only in NPUW_FUNCALL_FOR_ALL (or NPUW_FOLD)
 * and carry tokens/s: a trade of compile time against decode speed. */
static void ns__npuw_tradeoff(ns_buf *b, const ns__advice *ad) {
    static const char *const keys[] = {"NPUW_FUNCALL_FOR_ALL", "NPUW_FOLD", "funcall_for_all",
                                       "funcall", "fold"};
    for (int i = 0; i < ad->ncases; i++)
        for (int j = i + 1; j < ad->ncases; j++) {
            const ns__case *x = &ad->cases[i], *y = &ad->cases[j];
            if (!x->tags || !y->tags || x->tags->n != y->tags->n) continue;
            if (!isfinite(x->tokens_per_s) || !isfinite(y->tokens_per_s)) continue;
            const char *diff_key = NULL;
            int other = 0;
            for (int t = 0; t < x->tags->n; t++) {
                const char *k = x->tags->items[t].key, *yv = ns_kv_get(y->tags, k);
                if (yv && !strcmp(yv, x->tags->items[t].value)) continue;
                int known = 0;
                for (size_t q = 0; q < sizeof keys / sizeof keys[0]; q++) known |= !strcmp(k, keys[q]);
                if (known && !diff_key) diff_key = k;
                else other = 1;
            }
            if (!diff_key || other) continue;
            const ns__case *fast = x->tokens_per_s >= y->tokens_per_s ? x : y;
            const ns__case *slow = fast == x ? y : x;
            ns_buf_printf(b, "- decode trade-off (%s): %s=%s decodes at %.2f tokens/s vs %.2f "
                             "(x%.2f) for a compile of %.2f s vs %.2f s (%+.2f s). Use %s=%s for the "
                             "generate (decode) model only, e.g. via NPUW_LLM_GENERATE_CONFIG, "
                             "and keep the other setting for prefill.\n",
                          diff_key, diff_key, ns_kv_get(fast->tags, diff_key), fast->tokens_per_s,
                          slow->tokens_per_s, fast->tokens_per_s / slow->tokens_per_s,
                          fast->total_s, slow->total_s, fast->total_s - slow->total_s, diff_key,
                          ns_kv_get(fast->tags, diff_key));
        }
}

/* ====== The study of a sweep ======
 * Many configurations: the regimes first (analyse/study.h builds them),
 * one line each, then the fits the sweep supports. */

/* "report total ~ window^0.52 (95% 0.41 to 0.63) for model=m1, ..." */
static void ns__fit_sentence(ns_buf *b, const ns_study_fit *f) {
    const ns_fit *x = &f->fit;
    const char *y = !strncmp(f->y, "pass:", 5) ? f->y + 5 : !strcmp(f->y, "total") ? "report total" : f->y;
    const char *xn = !strncmp(f->x, "fact:", 5) ? f->x + 5 : f->x;
    ns_buf_printf(b, "%s ~ %s^%.3f (95%% interval %.3f to %.3f, R^2 %.2f", y, xn, x->exponent,
                  x->ci95_lo, x->ci95_hi, x->r2);
    if (f->per_report) ns_buf_printf(b, ", a point per report: %d reports)", x->used);
    else ns_buf_printf(b, ", %d values of %s)", x->used, f->x);
    if (f->group) ns_buf_printf(b, " for %s", f->group);
    if (f->mixed) ns_buf_printf(b, ", median over %s", f->mixed);
}

static void ns__evidence(ns_buf *b, const ns_study *st, const ns_study_regime *g) {
    int with = 0;
    for (int i = 0; g->pass && i < g->ncells; i++) {
        const char *p = st->cells[g->cells[i]].pass;
        with += p && !strcmp(p, g->pass);
    }
    ns_buf_printf(b, "%d of %d configurations are %s-bound", g->ncells, st->ncells, g->stage);
    if (g->pass)
        ns_buf_printf(b, "; %s is the heaviest %s pass in %d of them, a median %.0f%% of the "
                         "summed report totals", g->pass, g->stage, with, 100 * g->median_share);
    if (!g->fix) ns_buf_puts(b, "; no rule of advise addresses this regime");
}

static void ns__study_text(ns_buf *b, const ns__advice *ad) {
    const ns_study *st = &ad->study;
    ns_buf_printf(b, "study of %d configurations (the compile row of each; shares of the "
                     "report totals):\n", st->ncells);
    ns_grid g = {NULL, 0, 5, "lrlll", NULL, 1}; /* a Markdown table: "regime | cells | ..." */
    static const char *const head[] = {"regime", "cells", "dominant pass (median share)",
                                       "root cause", "fix"};
    for (int k = 0; k < 5; k++) ns_grid_add(&g, head[k]);
    for (int i = 0; i < st->nregimes; i++) {
        const ns_study_regime *r = &st->regimes[i];
        char n[32], pass[300];
        snprintf(n, sizeof n, "%d", r->ncells);
        if (r->pass) snprintf(pass, sizeof pass, "%s (%.0f%%)", r->pass, 100 * r->median_share);
        else snprintf(pass, sizeof pass, "-");
        ns_grid_add(&g, r->stage);
        ns_grid_add(&g, n);
        ns_grid_add(&g, pass);
        ns_grid_add(&g, r->cause ? r->cause : "-");
        ns_grid_add(&g, r->fix ? r->fix : "(no rule)");
    }
    ns_grid_write(b, &g);
    for (int i = 0; i < st->nregimes; i++) {
        const ns_study_regime *r = &st->regimes[i];
        ns_buf_printf(b, "%s:\n", r->stage);
        const char *p = r->where;
        while (*p) {
            const char *e = strstr(p, "; ");
            size_t len = e ? (size_t)(e - p) : strlen(p);
            ns_buf_printf(b, "  %.*s\n", (int)len, p);
            p += len + (e ? 2 : 0);
        }
    }
    if (st->nfits) ns_buf_puts(b, "fits the sweep supports:\n");
    for (int i = 0; i < st->nfits; i++) {
        ns_buf_puts(b, "- ");
        ns__fit_sentence(b, &st->fits[i]);
        ns_buf_puts(b, ".\n");
    }
    if (!ad->per_config) ns_buf_puts(b, "(the advice of each configuration: --per-config)\n");
    else ns_buf_putc(b, '\n');
}

static void ns__study_json(ns_buf *b, const ns__advice *ad) {
    const ns_study *st = &ad->study;
    ns_buf_printf(b, "\"study\":{\"configurations\":%d,\"regimes\":[", st->ncells);
    for (int i = 0; i < st->nregimes; i++) {
        const ns_study_regime *r = &st->regimes[i];
        ns_buf_puts(b, i ? ",\n{\"regime\":" : "\n{\"regime\":");
        ns_json_str(b, r->stage);
        ns_buf_puts(b, ",\"cells\":[");
        for (int c = 0; c < r->ncells; c++) {
            const ns_config *cfg = &st->cells[r->cells[c]].row->cfg;
            ns_buf_puts(b, c ? ",{" : "{");
            for (int k = 0; k < cfg->ntags; k++) {
                if (k) ns_buf_putc(b, ',');
                ns_json_str(b, cfg->tags[k]->key);
                ns_buf_putc(b, ':');
                ns_json_str(b, cfg->tags[k]->value);
            }
            ns_buf_putc(b, '}');
        }
        ns_buf_puts(b, "],\"where\":");
        ns_json_str(b, r->where);
        ns_buf_puts(b, ",\"dominant_pass\":");
        if (r->pass) ns_json_str(b, r->pass);
        else ns_buf_puts(b, "null");
        ns_buf_puts(b, ",\"median_share\":");
        ns_put_json_double(b, r->median_share, 4);
        ns_buf_puts(b, ",\"fix\":");
        if (r->fix) ns_json_str(b, r->fix);
        else ns_buf_puts(b, "null");
        ns_buf_puts(b, ",\"root_cause\":");
        if (r->cause) ns_json_str(b, r->cause);
        else ns_buf_puts(b, "null");
        ns_buf evidence = {0};
        ns__evidence(&evidence, st, r);
        ns_buf_puts(b, ",\"evidence\":");
        ns_json_str(b, evidence.data);
        ns_buf_free(&evidence);
        ns_buf_putc(b, '}');
    }
    ns_buf_puts(b, "],\"fits\":[");
    for (int i = 0; i < st->nfits; i++) {
        const ns_study_fit *f = &st->fits[i];
        ns_buf_puts(b, i ? ",\n{\"y\":" : "\n{\"y\":");
        ns_json_str(b, f->y);
        ns_buf_puts(b, ",\"x\":");
        ns_json_str(b, f->x);
        ns_buf_puts(b, ",\"group\":");
        if (f->group) ns_json_str(b, f->group);
        else ns_buf_puts(b, "null");
        ns_buf_printf(b, ",\"per\":\"%s\",\"n\":%d,\"exponent\":", f->per_report ? "report" : "x", f->fit.used);
        ns_put_json_double(b, f->fit.exponent, 15);
        ns_buf_puts(b, ",\"ci95\":[");
        ns_put_json_double(b, f->fit.ci95_lo, 15);
        ns_buf_putc(b, ',');
        ns_put_json_double(b, f->fit.ci95_hi, 15);
        ns_buf_puts(b, "],\"r2\":");
        ns_put_json_double(b, f->fit.r2, 15);
        ns_buf text = {0};
        ns__fit_sentence(&text, f);
        ns_buf_puts(b, ",\"text\":");
        ns_json_str(b, text.data);
        ns_buf_free(&text);
        ns_buf_putc(b, '}');
    }
    ns_buf_puts(b, "]},");
}

/* ====== Output ====== */

typedef struct {
    int rule;      /* index into ns__rules */
    double weight; /* rank */
} ns__hit;

static int ns__hit_cmp(const void *a, const void *b) {
    const ns__hit *x = a, *y = b;
    if (x->weight != y->weight) return x->weight > y->weight ? -1 : 1;
    return x->rule - y->rule;
}

static void ns__render(ns_buf *b, const ns__advice *ad, int json) {
    if (json) {
        ns_buf_putc(b, '{');
        if (ad->studied) ns__study_json(b, ad);
        if (ns_matrix_any(&ad->table)) ns_matrix_json(b, &ad->table, ad->studied ? &ad->study : NULL);
        ns_buf_puts(b, "\"cases\":[");
    } else if (ad->studied) {
        ns__study_text(b, ad);
    }
    /* configurations that failed to compile (render/matrix.h) */
    if (!json && ns_matrix_any(&ad->table))
        ns_matrix_text(b, &ad->table, ad->studied ? &ad->study : NULL);
    int blocks = json || !ad->studied || ad->per_config;
    for (int i = 0; blocks && i < ad->ncases; i++) {
        const ns__case *c = &ad->cases[i];
        int dom = c->map ? ns__dominant(c) : -1;
        ns__hit hits[sizeof ns__rules / sizeof ns__rules[0]];
        int nh = 0;
        for (size_t k = 0; k < sizeof ns__rules / sizeof ns__rules[0]; k++) {
            double w = ns__rules[k].weight(c);
            if (isfinite(w)) hits[nh++] = (ns__hit){(int)k, w};
        }
        qsort(hits, (size_t)nh, sizeof *hits, ns__hit_cmp);
        if (json) {
            ns_buf_puts(b, i ? ",\n{\"name\":" : "\n{\"name\":");
            ns_json_str(b, c->name);
            ns_buf_puts(b, ",\"stage_map\":");
            if (c->map) ns_json_str(b, ns_stage_map_label(c->map));
            else ns_buf_puts(b, "null");
            ns_buf_puts(b, ",\"regime\":");
            if (dom >= 0) ns_json_str(b, ns_stage_name(c->map, dom));
            else ns_buf_puts(b, "null");
            ns_buf_printf(b, ",\"compiles\":%d,\"submodels\":%d,\"total_s\":", c->compiles, c->submodels);
            ns_put_json_double(b, c->total_s, 4);
            ns_buf_puts(b, ",\"shares\":{");
            for (int k = 0; c->map && k < ns_stage_count(c->map) && k < NS__MAX_STAGES; k++) {
                if (k) ns_buf_putc(b, ',');
                ns_json_str(b, ns_stage_name(c->map, k));
                ns_buf_putc(b, ':');
                ns_put_json_double(b, c->share[k], 4);
            }
            ns_buf_puts(b, "},\"advice\":[");
            for (int h = 0; h < nh; h++) {
                ns_buf sentence = {0};
                ns__rules[hits[h].rule].say(&sentence, c);
                ns_buf_printf(b, "%s{\"rule\":\"%s\",\"weight\":", h ? "," : "", ns__rules[hits[h].rule].id);
                ns_put_json_double(b, hits[h].weight, 4);
                ns_buf_puts(b, ",\"text\":");
                ns_json_str(b, sentence.data ? sentence.data : "");
                ns_buf_putc(b, '}');
                ns_buf_free(&sentence);
            }
            ns_buf_puts(b, "]}");
            continue;
        }
        ns_buf_printf(b, "%s: %.2f s per compile", c->name, c->total_s);
        if (c->submodels > 1) ns_buf_printf(b, " (%d sub-model compiles)", c->submodels);
        if (c->compiles > 1) ns_buf_printf(b, ", median of %d", c->compiles);
        ns_buf_putc(b, '\n');
        if (dom >= 0)
            ns_buf_printf(b, "  regime: %s (%.0f%% of the compile, stage map %s)\n",
                          ns_stage_name(c->map, dom), 100 * c->share[dom], ns_stage_map_label(c->map));
        for (int h = 0; h < nh; h++) {
            ns_buf_printf(b, "  %d. ", h + 1);
            ns__rules[hits[h].rule].say(b, c);
            ns_buf_putc(b, '\n');
        }
        ns_buf_putc(b, '\n');
    }
    if (json) {
        ns_buf_puts(b, "\n],\"tradeoffs\":");
        ns_buf t = {0};
        ns__npuw_tradeoff(&t, ad);
        ns_json_str(b, t.data ? t.data : "");
        ns_buf_free(&t);
        ns_buf_puts(b, "}\n");
    } else {
        ns__npuw_tradeoff(b, ad);
    }
}

int ns_cmd_advise(int argc, char **argv) {
    ns_read_opts ro = {0};
    const char *stages = NULL;
    int format = 0, per_config = 0, rc = NS_EXIT_OK;
    long want = 0; /* --report N */
    static const char *const formats[] = {"text", "json", NULL};
    char **inputs = ns_xcalloc((size_t)argc + 1, sizeof *inputs);
    int ninputs = 0;
    ns__advice ad;
    memset(&ad, 0, sizeof ad);
    ns_study_keep_init(&ad.keep);
    const ns_option own[] = {
        NS_OPT_STAGES(&stages),
        NS_OPT_CHOICE(0, "format", &format, "F", formats),
        NS_OPT_FLAG(0, "per-config", &per_config),
        NS_OPT_INT(0, "report", &want, "N", 1, 1L << 30),
        NS_OPT_READ(&ro),
        NS_OPT_END(),
    };
    const ns_option *const tabs[] = {own, NULL};
    switch (ns_options_parse("advise", argc, argv, tabs, inputs, &ninputs)) {
    case NS_OPTIONS_HELP: goto out;
    case NS_OPTIONS_ERROR: rc = NS_EXIT_USAGE; goto out;
    default: break;
    }
    int json = format == 1;
    ad.per_config = per_config;
    ns_table_init(&ad.table);
    if (!ninputs) { rc = ns_options_usage("advise", "give a log or a run folder"); goto out; }
    ns_diag_quiet(ro.quiet);
    if (ns_stage_sel_init(&ad.sel, stages) != 0) { rc = NS_EXIT_USAGE; goto out; }
    ns_runset rs = {0};
    ns__reader rd = {&ad, &rs};
    ad.want = want;
    ns_load load = {0}; /* a log's failed compiles (render/matrix.h) */
    ro.load = &load;
    for (int i = 0; i < ninputs; i++) {
        struct stat st;
        if (stat(inputs[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            if (ns_runs_each(inputs[i], ns__take_run, &rd) < 0) rc = NS_EXIT_USAGE;
        } else {
            if (ns__from_log(&ad, inputs[i], &ro, want) < 0) rc = NS_EXIT_USAGE;
        }
    }
    if (rs.nruns) ns__from_runs(&ad, &rs);
    if (!ad.ncases) {
        ns_error("no compile found to advise on");
        if (rc == NS_EXIT_OK) rc = NS_EXIT_NOTHING;
    } else {
        ns_buf b = {0};
        ns__render(&b, &ad, json);
        if (ns_buf_flush(&b, stdout) || fflush(stdout)) rc = NS_EXIT_USAGE;
        ns_buf_free(&b);
    }
    if (!json && load.nfail) { /* what failed, even when nothing compiled */
        ns_buf fb = {0};
        ns_matrix_log_failures(&fb, &load);
        if (ns_buf_flush(&fb, stdout) || fflush(stdout)) rc = NS_EXIT_USAGE;
        ns_buf_free(&fb);
    }
    ns_load_free(&load);
    for (int i = 0; i < ad.ncases; i++) {
        free(ad.cases[i].name);
        free(ad.cases[i].top_pass);
    }
    free(ad.cases);
    ns_study_free(&ad.study);
    ns_table_free(&ad.table);
    for (int i = 0; i < rs.nruns; i++) {
        free(ad.sums[i].top);
        ns_study_sums_free(&ad.study_sums[i]);
    }
    free(ad.sums);
    free(ad.study_sums);
    ns_runset_free(&rs);
    ns_stage_sel_free(&ad.sel);
out:
    ns_study_keep_free(&ad.keep);
    free(inputs);
    return rc;
}
