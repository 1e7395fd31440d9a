/* table.c -- the grid of a sweep (see table.h for what each number means).
 *
 * Built in one pass of steps, each over every row: group the runs, find the
 * metric names, compute each counted run's stage shares, summarise every
 * row, sort, pair cold with warm, pair with the baseline.  Sorting is done
 * on an array of small structs that carry the sort keys themselves, so no
 * comparator reads a global: the table can be built twice in one program
 * (report and a unit test) without one build seeing the other's keys.
 *
 * What it must not do: print (the commands warn), write output (render/),
 * or read files (the runs come read, dataset.h).
 */
#include "analyse/table.h"
#include "base/strmap.h"

#include "analyse/stats.h"
#include "npu/npu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== Setup ====== */

void ns_table_init(ns_table *t) {
    memset(t, 0, sizeof *t);
    ns_strmap_init(&t->stages);
    ns_strmap_init(&t->derived);
}

void ns_table_free(ns_table *t) {
    for (int i = 0; i < t->nrows; i++) {
        ns_config_free(&t->rows[i].cfg);
        free(t->rows[i].metrics);
        free(t->rows[i].shares);
    }
    free(t->rows);
    free(t->keys);
    free(t->metrics);
    ns_strmap_free(&t->derived);
    ns_strmap_free(&t->stages);
    free(t->run_share);
    free(t->kept);
    free(t->kept_total);
    memset(t, 0, sizeof *t);
}

const char *ns_table_tag(const ns_table_row *r, const char *key) {
    const char *v = ns_config_tag(&r->cfg, key);
    if (v) return v;
    if (!strcmp(key, "family")) return r->family;
    if (!strcmp(key, "size_b") || !strcmp(key, "params")) return r->size_b;
    return NULL;
}

/* ====== Derived tags ====== */

/* Each row's family and size_b, read off its first run's model tag
 * (dataset.h, ns_run_tag); the strings live in t->derived. */
static void ns__derived(ns_table *t) {
    for (int i = 0; i < t->nrows; i++) {
        ns_table_row *r = &t->rows[i];
        if (!r->cfg.nruns) continue;
        const ns_run *run = &t->runs[r->cfg.runs[0]];
        char buf[256];
        int added;
        size_t at; /* interned first: the keys array may move */
        const char *v = ns_run_tag(run, "family", buf, sizeof buf);
        if (v) at = ns_strmap_intern(&t->derived, v, &added), r->family = t->derived.keys[at];
        v = ns_run_tag(run, "size_b", buf, sizeof buf);
        if (v) at = ns_strmap_intern(&t->derived, v, &added), r->size_b = t->derived.keys[at];
    }
}

const char *ns_table_status(const ns_table_row *x) {
    return x->n == 0 && x->failures > 0 ? "failed" : "ok";
}

int ns_table_any_regime(const ns_table *t) {
    for (int i = 0; i < t->nrows; i++)
        if (t->rows[i].regime >= 0) return 1;
    return 0;
}

/* ====== Metric names ====== */

static int ns__cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Metric names of the counted runs, sorted, once each. */
static void ns__metric_names(ns_table *t) {
    /* one allocation for all of them: growing the list a name at a time
     * is quadratic wherever realloc moves the block (under ASan, always) */
    size_t all = 0;
    for (int i = 0; i < t->nruns; i++)
        if (ns_run_counted(&t->runs[i])) all += (size_t)t->runs[i].nmetrics;
    if (!all) return;
    t->metrics = ns_xrealloc(t->metrics, sizeof *t->metrics * (all + (size_t)t->nmetrics));
    for (int i = 0; i < t->nruns; i++) {
        const ns_run *r = &t->runs[i];
        if (!ns_run_counted(r)) continue;
        for (int m = 0; m < r->nmetrics; m++) t->metrics[t->nmetrics++] = r->metrics[m].name;
    }
    if (t->nmetrics) qsort(t->metrics, (size_t)t->nmetrics, sizeof *t->metrics, ns__cmp_str);
    int k = 0;
    for (int i = 0; i < t->nmetrics; i++)
        if (k == 0 || strcmp(t->metrics[k - 1], t->metrics[i]) != 0)
            t->metrics[k++] = t->metrics[i];
    t->nmetrics = k;
}

/* ====== Stage shares ====== */

/* Keep run r's stage sums (its index is the next one, t->kept_runs): the
 * stage names of its reports' maps are interned (every run's, counted or
 * not: the columns are the same whichever runs count), and a counted run's
 * self time per stage and its summed totals are kept, so the reports are
 * not needed again. */
void ns_table_keep_stages(ns_table *t, const ns_run *r, ns_stage_sel *sel) {
    int added, run = t->kept_runs++;
    for (int k = 0; k < r->nreports; k++) {
        const ns_stage_map *m = ns_stage_sel_pick(sel, r->reports[k]);
        for (int s = 0; m && s < ns_stage_count(m); s++)
            ns_strmap_intern(&t->stages, ns_stage_name(m, s), &added);
    }
    if ((size_t)run >= t->kept_cap) {
        t->kept_cap = t->kept_cap ? 2 * t->kept_cap : 64;
        t->kept_total = ns_xrealloc(t->kept_total, sizeof *t->kept_total * t->kept_cap);
    }
    t->kept_total[run] = 0;
    if (!ns_run_counted(r)) return;
    size_t nst = t->stages.count;
    double *sum = ns_xcalloc(nst + 1, sizeof *sum);
    char *known = ns_xcalloc(nst + 1, 1); /* the stage is in a map of the run's reports */
    double total = 0;
    for (int k = 0; k < r->nreports; k++) {
        const ns_stage_map *m = ns_stage_sel_pick(sel, r->reports[k]);
        /* a breakdown table's time is inside its main report's */
        if (!m || !ns_report_is_main(r->reports[k])) continue;
        long n;
        ns_stage_of *of = ns_stage_assign_new(m, r->reports[k], &n);
        double *self = ns_xcalloc((size_t)ns_stage_count(m) + 1, sizeof *self);
        ns_stage_sums ss = {self, 0, 0};
        ns_stage_sum(m, r->reports[k], of, &ss);
        if (isfinite(ss.total)) {
            total += ss.total;
            for (int s = 0; s < ns_stage_count(m); s++) {
                size_t slot = ns_strmap_find(&t->stages, ns_stage_name(m, s));
                sum[slot] += self[s];
                known[slot] = 1;
            }
        }
        free(self);
        free(of);
    }
    t->kept_total[run] = total;
    for (size_t s = 0; s < nst; s++) {
        if (!known[s]) continue;
        if (t->nkept == t->kept_sums_cap) {
            t->kept_sums_cap = t->kept_sums_cap ? 2 * t->kept_sums_cap : 256;
            t->kept = ns_xrealloc(t->kept, sizeof *t->kept * t->kept_sums_cap);
        }
        t->kept[t->nkept++] = (ns_table_kept){run, (int)s, sum[s]};
    }
    free(sum);
    free(known);
}

/* Each counted run's share of each stage: its reports' stage self times
 * over their summed totals (NaN: unknown, or not counted).  From the sums
 * kept run by run; runs whose sums the caller did not keep are kept here
 * first, from their reports. */
static void ns__stage_shares(ns_table *t, ns_stage_sel *sel) {
    for (int i = t->kept_runs; i < t->nruns; i++) ns_table_keep_stages(t, &t->runs[i], sel);
    size_t nst = t->stages.count;
    size_t cells = (size_t)t->nruns * nst;
    t->run_share = ns_xcalloc(cells + 1, sizeof *t->run_share);
    for (size_t c = 0; c < cells; c++) t->run_share[c] = NAN;
    for (size_t k = 0; k < t->nkept; k++) {
        const ns_table_kept *e = &t->kept[k];
        double total = t->kept_total[e->run];
        if (e->run < t->nruns && total > 0)
            t->run_share[(size_t)e->run * nst + (size_t)e->slot] = e->sum / total;
    }
}

int ns_table_median_shares(const ns_table *t, const int *runs, int nruns, double *share,
                           int *with) {
    size_t nst = t->run_share ? t->stages.count : 0;
    double *v = ns_xcalloc((size_t)nruns + 1, sizeof *v);
    int dom = -1;
    *with = 0;
    for (int i = 0; i < nruns; i++) { /* a run has shares when any is known */
        int any = 0;
        for (size_t k = 0; k < nst && !any; k++)
            any = isfinite(t->run_share[(size_t)runs[i] * nst + k]);
        *with += any;
    }
    for (size_t k = 0; k < nst; k++) {
        for (int i = 0; i < nruns; i++) v[i] = t->run_share[(size_t)runs[i] * nst + k];
        share[k] = ns_median(v, (size_t)nruns);
        if (isfinite(share[k]) && (dom < 0 || share[k] > share[dom])) dom = (int)k;
    }
    free(v);
    return dom;
}

/* ====== Statistics ====== */

static int ns__cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The run whose wall time is the median of the row's counted runs (the
 * lower middle for an even count; ties by reading order), or -1. */
static int ns__median_run(const ns_table *t, const ns_table_row *x) {
    double *w = ns_xcalloc((size_t)x->cfg.nruns + 1, sizeof *w);
    int n = 0;
    for (int i = 0; i < x->cfg.nruns; i++)
        if (ns_run_counted(&t->runs[x->cfg.runs[i]])) w[n++] = t->runs[x->cfg.runs[i]].wall_s;
    int rep = -1;
    if (n) {
        qsort(w, (size_t)n, sizeof *w, ns__cmp_double);
        double want = w[(n - 1) / 2];
        for (int i = 0; i < x->cfg.nruns && rep < 0; i++) {
            const ns_run *r = &t->runs[x->cfg.runs[i]];
            if (ns_run_counted(r) && r->wall_s == want) rep = x->cfg.runs[i];
        }
    }
    free(w);
    return rep;
}

/* One metric value of a row's run: which metric (an index into the
 * table's sorted names) and the value. */
typedef struct {
    int m;    /* index into t->metrics */
    int run;  /* the run's place in the row (keeps the sort stable) */
    double v; /* the run's value of it */
} ns__mval;

static int ns__cmp_mval(const void *pa, const void *pb) {
    const ns__mval *a = pa, *b = pb;
    return a->m != b->m ? (a->m > b->m) - (a->m < b->m) : (a->run > b->run) - (a->run < b->run);
}

/* The median of each metric over the row's counted runs.  Every value of
 * every run is placed by a binary search in the sorted names, then the
 * values are grouped by a sort: linear-logarithmic in the values, where a
 * search of each run's list for each name was quadratic (a run.json of
 * 100,000 metrics took minutes). */
static void ns__metric_medians(const ns_table *t, ns_table_row *x) {
    x->metrics = ns_xcalloc((size_t)t->nmetrics + 1, sizeof *x->metrics);
    size_t nv = 0, cap = 0;
    ns__mval *vals = NULL;
    for (int i = 0; i < x->cfg.nruns; i++) {
        const ns_run *r = &t->runs[x->cfg.runs[i]];
        if (!ns_run_counted(r)) continue;
        if (nv + (size_t)r->nmetrics >= cap) {
            cap = (nv + (size_t)r->nmetrics) * 2 + 16;
            vals = ns_xrealloc(vals, sizeof *vals * cap);
        }
        for (int j = 0; j < r->nmetrics; j++) {
            const char *name = r->metrics[j].name;
            const char **hit = bsearch(&name, t->metrics, (size_t)t->nmetrics,
                                       sizeof *t->metrics, ns__cmp_str);
            if (hit) vals[nv++] = (ns__mval){(int)(hit - t->metrics), i, r->metrics[j].value};
        }
    }
    if (nv) qsort(vals, nv, sizeof *vals, ns__cmp_mval);
    double *v = ns_xcalloc(nv + 1, sizeof *v);
    for (int m = 0; m < t->nmetrics; m++) x->metrics[m] = NAN; /* no run has it */
    for (size_t a = 0, b; a < nv; a = b) {
        size_t k = 0;
        /* a run names a metric once (run.json's object keys are unique;
         * ns_run_set_metric replaces): the first value of a run counts */
        for (b = a; b < nv && vals[b].m == vals[a].m; b++)
            if (b == a || vals[b].run != vals[b - 1].run) v[k++] = vals[b].v;
        x->metrics[vals[a].m] = ns_median(v, k);
    }
    free(v);
    free(vals);
}

static void ns__summarize(const ns_table *t, ns_table_row *x) {
    double *wall = ns_xcalloc((size_t)x->cfg.nruns + 1, sizeof *wall);
    double *uow = ns_xcalloc((size_t)x->cfg.nruns + 1, sizeof *uow);
    double *rss = ns_xcalloc((size_t)x->cfg.nruns + 1, sizeof *rss);
    int n = 0;
    for (int i = 0; i < x->cfg.nruns; i++) {
        const ns_run *r = &t->runs[x->cfg.runs[i]];
        if (r->primer) x->primers++; /* the warm primer is also a warmup */
        else if (r->warmup) x->warmups++;
        else if (!ns_run_ok(r)) {
            x->failures++;
            if (!x->failure) x->failure = r->failure;
        }
        if (!ns_run_counted(r)) continue;
        wall[n] = r->wall_s;
        uow[n] = r->wall_s > 0 && isfinite(r->user_s) ? r->user_s / r->wall_s : NAN;
        rss[n] = r->peak_rss_mb;
        n++;
    }
    x->n = n;
    x->mean = ns_mean(wall, (size_t)n);
    x->stddev = ns_stddev(wall, (size_t)n);
    x->min = ns_min(wall, (size_t)n);
    x->max = ns_max(wall, (size_t)n);
    /* outliers by the modified z-score: flagged, still counted */
    x->outliers = (int)ns_outliers(wall, (size_t)n, NULL);
    x->median = ns_median(wall, (size_t)n); /* last: it sorts wall */
    x->user_over_wall = ns_median(uow, (size_t)n);
    x->peak_rss_mb = ns_median(rss, (size_t)n);
    x->cache_x = NAN;
    x->cache = -1;
    x->base_ratio = NAN;
    x->median_run = ns__median_run(t, x);
    ns__metric_medians(t, x);
    x->shares = ns_xcalloc(t->stages.count + 1, sizeof *x->shares);
    int with;
    x->regime = ns_table_median_shares(t, x->cfg.runs, x->cfg.nruns, x->shares, &with);
    free(wall);
    free(uow);
    free(rss);
}

/* ====== Order ====== */

/* A row to sort, carrying what the order needs: no comparator reads a
 * global. */
typedef struct {
    const ns_config *cfg;    /* the row's configuration */
    const char *const *keys; /* the table's keys, in order */
    int nkeys;               /* entries in keys */
    int row;                 /* the row's index before sorting */
    const ns_table_row *row_p; /* the row: its derived tags */
} ns__order;

static int ns__cmp_order(const void *pa, const void *pb) {
    const ns__order *a = pa, *b = pb;
    /* derived tags (a key the configurations do not have) sort too */
    for (int k = 0; k < a->nkeys; k++) {
        int c = ns_text_cmp(ns_table_tag(a->row_p, a->keys[k]), ns_table_tag(b->row_p, a->keys[k]));
        if (c) return c;
    }
    return ns_config_cmp(a->cfg, b->cfg, a->keys, 0);
}

/* Tag by tag in key order, numbers as numbers; then by mode. */
static void ns__sort(ns_table *t) {
    ns__order *o = ns_xcalloc((size_t)t->nrows + 1, sizeof *o);
    for (int i = 0; i < t->nrows; i++) o[i] = (ns__order){&t->rows[i].cfg, t->keys, t->nkeys, i, &t->rows[i]};
    if (t->nrows) qsort(o, (size_t)t->nrows, sizeof *o, ns__cmp_order);
    ns_table_row *sorted = ns_xcalloc((size_t)t->nrows + 1, sizeof *sorted);
    for (int i = 0; i < t->nrows; i++) sorted[i] = t->rows[o[i].row];
    free(t->rows);
    t->rows = sorted;
    free(o);
}

/* ====== Pairs ====== */

const char *ns_cache_verdict_name(ns_cache_verdict v) {
    switch (v) {
    case NS_CACHE_HIT: return "hit";
    case NS_CACHE_MISS: return "miss";
    case NS_CACHE_MIXED: return "mixed";
    default: return "unknown";
    }
}

/* The verdict of warm row w, its cold partner's median `cold` (NaN: none). */
static void ns__cache_verdict(const ns_table *t, ns_table_row *w, double cold) {
    int n = 0, hits = 0;
    w->warm_compiled = 0;
    for (int k = 0; k < w->cfg.nruns; k++) {
        const ns_run *r = &t->runs[w->cfg.runs[k]];
        if (!ns_run_counted(r)) continue;
        n++;
        if (r->compiles > 0) w->warm_compiled++;
        else if (isfinite(cold) && r->wall_s < cold) hits++;
    }
    w->cache = !n                      ? NS_CACHE_UNKNOWN
               : w->warm_compiled == n ? NS_CACHE_MISS
               : w->warm_compiled      ? NS_CACHE_MIXED
               : hits == n             ? NS_CACHE_HIT
                                       : NS_CACHE_UNKNOWN;
}

/* The configurations of the rows, for ns_config_groups_new. */
static const ns_config **ns__cfgs_new(const ns_table *t) {
    const ns_config **c = ns_xcalloc((size_t)t->nrows + 1, sizeof *c);
    for (int i = 0; i < t->nrows; i++) c[i] = &t->rows[i].cfg;
    return c;
}

/* cache_x on the cold and warm rows of each configuration that has both
 * (the last of each mode in row order decides, as a pairwise scan did),
 * and every warm row's cache verdict; the rows of a configuration found by
 * its group number. */
static void ns__cache_ratios(ns_table *t) {
    const ns_config **cf = ns__cfgs_new(t);
    int ng, *g = ns_config_groups_new(cf, t->nrows, &ng);
    int *cold = ns_xcalloc((size_t)ng + 1, sizeof *cold), *warm = ns_xcalloc((size_t)ng + 1, sizeof *warm);
    for (int i = 0; i < t->nrows; i++) { /* 1 + the last row of each mode */
        if (!strcmp(t->rows[i].cfg.mode, "cold")) cold[g[i]] = i + 1;
        if (!strcmp(t->rows[i].cfg.mode, "warm")) warm[g[i]] = i + 1;
    }
    for (int i = 0; i < t->nrows; i++) {
        ns_table_row *r = &t->rows[i];
        int cold_row = !strcmp(r->cfg.mode, "cold"), warm_row = !strcmp(r->cfg.mode, "warm");
        if (!(cold_row && warm[g[i]]) && !(warm_row && cold[g[i]])) continue;
        const ns_table_row *c = cold_row ? r : &t->rows[cold[g[i]] - 1];
        const ns_table_row *w = warm_row ? r : &t->rows[warm[g[i]] - 1];
        double x = w->median > 0 ? c->median / w->median : NAN;
        r->cache_x = isfinite(x) ? x : NAN;
    }
    /* every warm row's cache verdict, against its cold partner's median */
    for (int i = 0; i < t->nrows; i++) {
        ns_table_row *w = &t->rows[i];
        if (strcmp(w->cfg.mode, "warm") != 0) continue;
        const ns_table_row *c = cold[g[i]] ? &t->rows[cold[g[i]] - 1] : NULL;
        ns__cache_verdict(t, w, c && c->n ? c->median : NAN);
    }
    free(cold);
    free(warm);
    free(g);
    free(cf);
}

/* Every row's median over its baseline partner's (ns_config_partner; the
 * last partner in row order decides), found through a hash map of the
 * partners' mode and tags but the baseline key. */
static void ns__baseline(ns_table *t) {
    if (!t->base_key) return;
    ns_strmap m;
    ns_strmap_init(&m);
    int *row = ns_xcalloc((size_t)t->nrows + 1, sizeof *row);
    ns_buf kb = {0};
    for (int j = 0; j < t->nrows; j++) {
        const char *v = ns_config_tag(&t->rows[j].cfg, t->base_key);
        if (!v || strcmp(v, t->base_value) != 0) continue;
        kb.len = 0;
        ns_buf_puts(&kb, "");
        ns_config_put_key(&kb, &t->rows[j].cfg, 1, t->base_key);
        int added;
        row[ns_strmap_intern(&m, kb.data, &added)] = j;
    }
    for (int i = 0; i < t->nrows; i++) {
        ns_table_row *x = &t->rows[i];
        if (!ns_config_tag(&x->cfg, t->base_key)) continue;
        kb.len = 0;
        ns_buf_puts(&kb, "");
        ns_config_put_key(&kb, &x->cfg, 1, t->base_key);
        size_t at = ns_strmap_find(&m, kb.data);
        if (at == (size_t)-1) continue;
        const ns_table_row *p = &t->rows[row[at]];
        double r = p->median > 0 ? x->median / p->median : NAN;
        x->base_ratio = isfinite(r) ? r : NAN;
    }
    ns_buf_free(&kb);
    free(row);
    ns_strmap_free(&m);
}

/* ====== Building ====== */

void ns_table_build(ns_table *t, const ns_run *runs, int nruns, const ns_table_opts *o) {
    t->runs = runs;
    t->nruns = nruns;
    t->base_key = o->base_key;
    t->base_value = o->base_value;
    ns_config *cf;
    t->nrows = ns_configs_new(runs, nruns, &cf, &t->keys, &t->nkeys);
    t->rows = ns_xcalloc((size_t)t->nrows + 1, sizeof *t->rows);
    for (int i = 0; i < t->nrows; i++) t->rows[i].cfg = cf[i];
    free(cf);
    ns__metric_names(t);
    if (o->stages) {
        t->staged = 1;
        ns__stage_shares(t, o->stages);
    }
    for (int i = 0; i < t->nrows; i++) ns__summarize(t, &t->rows[i]);
    ns__derived(t);
    ns__sort(t);
    ns__cache_ratios(t);
    ns__baseline(t);
}

/* ====== Baseline summary ====== */

ns_table_base_group *ns_table_base_groups_new(const ns_table *t, const char *by, int *n) {
    *n = 0;
    if (!t->base_key) return NULL;
    ns_table_base_group *g = NULL;
    int *done = ns_xcalloc((size_t)t->nrows + 1, sizeof *done);
    double *v = ns_xcalloc((size_t)t->nrows + 1, sizeof *v);
    for (int i = 0; i < t->nrows; i++) {
        const ns_table_row *x = &t->rows[i];
        const char *xv = ns_table_tag(x, t->base_key);
        const char *xb = by ? ns_table_tag(x, by) : "";
        if (done[i] || !isfinite(x->base_ratio) || !xv || !xb || !strcmp(xv, t->base_value))
            continue;
        int k = 0;
        for (int j = i; j < t->nrows; j++) {
            const ns_table_row *y = &t->rows[j];
            const char *yv = ns_table_tag(y, t->base_key);
            const char *yb = by ? ns_table_tag(y, by) : "";
            if (done[j] || !isfinite(y->base_ratio) || !yv || !yb || strcmp(yv, xv) ||
                strcmp(yb, xb) || strcmp(y->cfg.mode, x->cfg.mode))
                continue;
            done[j] = 1;
            v[k++] = y->base_ratio;
        }
        g = ns_xrealloc(g, sizeof *g * (size_t)(*n + 1));
        ns_table_base_group *e = &g[(*n)++];
        e->value = xv;
        e->by = by ? xb : NULL;
        e->mode = x->cfg.mode;
        e->n = k;
        e->min = ns_min(v, (size_t)k);
        e->max = ns_max(v, (size_t)k);
        e->median = ns_median(v, (size_t)k);
    }
    free(done);
    free(v);
    return g;
}

/* ====== Sub-model kinds ====== */

void ns_table_submodel_metrics(ns_run *runs, int nruns) {
    for (int i = 0; i < nruns; i++) {
        ns_run *r = &runs[i];
        for (int k = 0; k < r->nreports; k++) {
            char *kind = ns_submodel_kind_new(r->reports[k]->label);
            char name[300];
            snprintf(name, sizeof name, "submodel:%s", kind);
            free(kind);
            double total = ns_stage_report_total(r->reports[k]);
            if (!isfinite(total)) continue;
            int m;
            for (m = 0; m < r->nmetrics; m++)
                if (!strcmp(r->metrics[m].name, name)) break;
            if (m == r->nmetrics) {
                r->metrics = ns_xrealloc(r->metrics, sizeof *r->metrics * (size_t)(r->nmetrics + 1));
                r->metrics[m].name = ns_strdup(name);
                r->metrics[m].value = 0;
                r->metrics[m].count = 0;
                r->nmetrics++;
            }
            r->metrics[m].value += total;
            r->metrics[m].count++;
        }
    }
}
