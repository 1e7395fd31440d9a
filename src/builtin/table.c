/* cmd_table.c -- `npuscope table`: one row per configuration and mode of a
 * sweep, with the statistics of its runs, as text, CSV, JSON or Markdown.
 *
 * A sweep leaves a folder of runs; what a person wants from it is the grid:
 * for each configuration (model, window, precision, ...) and cache mode, how
 * long a compile takes, how much that varies, whether it was parallel, how
 * much memory it took, and how much a warm cache saves.  This file groups
 * the runs into that grid and prints it.
 *
 *   - A configuration is the full set of a run's tags (key and value, byte
 *     for byte); two runs with the same tags and mode are one row.
 *   - Only "counted" runs enter the statistics: those that succeeded and
 *     are neither warmups nor primers (the warm run that fills the cache is
 *     a cold compile in disguise).  The others are counted in their own
 *     columns, never dropped silently.
 *   - Rows sort by tag value, key by key in the order the keys first appear
 *     (or as --tag-columns lists them); values that are numbers compare as
 *     numbers, so window 128 comes before 1024.  Then cold, warm, none.
 *   - cache_x is median cold / median warm of the same configuration, on
 *     both of its rows.
 *   - With --stages, every run's timing reports (kept in run.json) are read
 *     with a stage map (stages.h): a run's share of a stage is the stage's
 *     time summed over its reports divided by their summed totals.  A row
 *     gets the median share of each stage over its counted runs (runs
 *     without a report, or whose maps lack the stage, do not count) and its
 *     regime: the stage with the largest median share (ties: the one
 *     declared first).  Stage columns follow the maps' declaration order;
 *     with the automatic choice, runs of different compilers bring the
 *     stages of both maps (a name both declare, "other", is one column).
 *
 * Text and Markdown are for people: fixed decimals (seconds %.4f, MiB %.1f,
 * ratios %.2f), "-" for a missing value, and columns that would be all zero
 * or all missing left out.  CSV and JSON are for programs: every column
 * always, numbers with 15 significant digits, missing values empty / null.
 * The JSON shape is a contract (DESIGN.md, docs/formats.md).
 */
#include "builtin/builtin.h"
#include "cli/cli.h"
#include "analyse/dataset.h"
#include "base/jsonw.h"
#include "parse/run_read.h"
#include "npu/npu.h"
#include "model/stages.h"
#include "analyse/stats.h"
#include "base/strmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* --format: an index into ns__tab_formats */
enum { NS__TAB_TEXT, NS__TAB_CSV, NS__TAB_JSON, NS__TAB_MD };
static const char *const ns__tab_formats[] = {"text", "csv", "json", "markdown", NULL};

/* ====== Rows ====== */

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
    double cache_x;        /* median cold / median warm of the configuration */
    double base_ratio;     /* --baseline: median / the baseline row's median */
    int outliers;          /* counted runs flagged by MAD (kept in every statistic) */
    double *metrics;       /* median per metric (table order), NaN if none */
    double *shares;        /* --stages: median share per stage (table order), NaN if none */
    int regime;            /* --stages: stage with the largest share, -1 if none */
} ns__row;

typedef struct {
    ns_run *runs;      /* every run read */
    int nruns;         /* entries in runs */
    ns__row *rows;     /* rows, sorted once built */
    int nrows;         /* entries in rows */
    const char **keys; /* tag keys: --tag-columns first, then first appearance */
    int nkeys;         /* entries in keys */
    int ncols;         /* keys shown as columns: the first ncols */
    const char **metrics; /* metric names, sorted (borrowed from runs) */
    int nmetrics;      /* entries in metrics */
    int stages;        /* --stages given: stage shares and regime */
    ns_strmap snames;  /* stage names, in the maps' order of declaration */
    double *run_share; /* share of stage k in run i: [i * snames.count + k], NaN if unknown */
    const char *base_key;   /* --baseline K=V: the axis ... */
    const char *base_value; /* ... and its baseline value */
    const char *base_by;    /* --by AXIS: group the ratios' medians */
} ns__table;

static int ns__cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const char *ns__row_tag(const ns__row *x, const char *key) {
    return ns_config_tag(&x->cfg, key);
}

/* Put every run in its row: one per configuration and mode. */
static void ns__group(ns__table *t) {
    ns_config *cf;
    t->nrows = ns_configs_new(t->runs, t->nruns, &cf, &t->keys, &t->nkeys);
    t->rows = ns_xcalloc((size_t)t->nrows + 1, sizeof *t->rows);
    for (int i = 0; i < t->nrows; i++) t->rows[i].cfg = cf[i];
    free(cf);
}

/* Metric names of the counted runs, sorted, once each. */
static void ns__metric_names(ns__table *t) {
    for (int i = 0; i < t->nruns; i++) {
        const ns_run *r = &t->runs[i];
        if (!ns_run_counted(r)) continue;
        for (int m = 0; m < r->nmetrics; m++) {
            t->metrics =
                ns_xrealloc(t->metrics, sizeof *t->metrics * (size_t)(t->nmetrics + 1));
            t->metrics[t->nmetrics++] = r->metrics[m].name;
        }
    }
    if (t->nmetrics) qsort(t->metrics, (size_t)t->nmetrics, sizeof *t->metrics, ns__cmp_str);
    int k = 0;
    for (int i = 0; i < t->nmetrics; i++)
        if (k == 0 || strcmp(t->metrics[k - 1], t->metrics[i]) != 0)
            t->metrics[k++] = t->metrics[i];
    t->nmetrics = k;
}

/* ====== Statistics ====== */

static void ns__summarize(ns__table *t, ns__row *x) {
    double *wall = ns_xcalloc((size_t)x->cfg.nruns + 1, sizeof *wall);
    double *uow = ns_xcalloc((size_t)x->cfg.nruns + 1, sizeof *uow);
    double *rss = ns_xcalloc((size_t)x->cfg.nruns + 1, sizeof *rss);
    int n = 0;
    for (int i = 0; i < x->cfg.nruns; i++) {
        const ns_run *r = &t->runs[x->cfg.runs[i]];
        if (r->primer) x->primers++; /* the warm primer is also a warmup */
        else if (r->warmup) x->warmups++;
        else if (!ns_run_ok(r)) x->failures++;
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
    x->metrics = ns_xcalloc((size_t)t->nmetrics + 1, sizeof *x->metrics);
    for (int m = 0; m < t->nmetrics; m++) {
        int k = 0;
        for (int i = 0; i < x->cfg.nruns; i++) {
            const ns_run *r = &t->runs[x->cfg.runs[i]];
            if (!ns_run_counted(r)) continue;
            for (int j = 0; j < r->nmetrics; j++)
                if (strcmp(r->metrics[j].name, t->metrics[m]) == 0) {
                    wall[k++] = r->metrics[j].value;
                    break;
                }
        }
        x->metrics[m] = ns_median(wall, (size_t)k);
    }
    int nst = (int)t->snames.count;
    x->shares = ns_xcalloc((size_t)nst + 1, sizeof *x->shares);
    x->regime = -1;
    for (int s = 0; s < nst; s++) {
        int k = 0;
        for (int i = 0; i < x->cfg.nruns; i++)
            if (ns_run_counted(&t->runs[x->cfg.runs[i]]))
                wall[k++] = t->run_share[(size_t)x->cfg.runs[i] * (size_t)nst + (size_t)s];
        x->shares[s] = ns_median(wall, (size_t)k);
        if (isfinite(x->shares[s]) && (x->regime < 0 || x->shares[s] > x->shares[x->regime]))
            x->regime = s;
    }
    free(wall);
    free(uow);
    free(rss);
}

/* cache_x on the cold and warm rows of each configuration that has both. */
static void ns__cache_ratios(ns__table *t) {
    for (int i = 0; i < t->nrows; i++) {
        ns__row *c = &t->rows[i];
        if (strcmp(c->cfg.mode, "cold") != 0) continue;
        for (int j = 0; j < t->nrows; j++) {
            ns__row *w = &t->rows[j];
            if (strcmp(w->cfg.mode, "warm") != 0 || !ns_config_same_tags(&w->cfg, &c->cfg))
                continue;
            double x = w->median > 0 ? c->median / w->median : NAN;
            c->cache_x = w->cache_x = isfinite(x) ? x : NAN;
        }
    }
}

/* ====== Sub-model kinds ======
 * --submodels: every run gets a metric "submodel:KIND" per kind of report
 * it kept (generate, prefill, lm_head for an NPUW LLM compile labelled
 * with --npuw or NPUW_LLM=YES): the summed totals of those reports.  The
 * metric columns then show their medians like any other metric. */
static void ns__submodel_metrics(ns__table *t) {
    for (int i = 0; i < t->nruns; i++) {
        ns_run *r = &t->runs[i];
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

/* ====== Baseline ratios ======
 * --baseline precision=int8: every row's median over the median of the row
 * that differs from it only in that tag, where the tag has the baseline
 * value (same mode).  Rows without such a partner get no ratio. */
static void ns__put_g(ns_buf *b, double v, const char *missing);

static void ns__baseline(ns__table *t) {
    for (int i = 0; i < t->nrows; i++) {
        ns__row *x = &t->rows[i];
        x->base_ratio = NAN;
        if (!t->base_key) continue;
        for (int j = 0; j < t->nrows; j++)
            if (ns_config_partner(&x->cfg, &t->rows[j].cfg, t->base_key, t->base_value)) {
                double r = t->rows[j].median > 0 ? x->median / t->rows[j].median : NAN;
                x->base_ratio = isfinite(r) ? r : NAN;
            }
    }
}

/* The median ratio per (value of the tag, --by value, mode) over rows
 * that are not the baseline themselves: "int4 is 0.97x int8 for m1". */
static void ns__baseline_summary(ns_buf *b, const ns__table *t, int json) {
    if (!t->base_key) return;
    int n = 0;
    if (json) ns_buf_puts(b, ",\"baseline\":{\"tag\":");
    if (json) {
        ns_json_str(b, t->base_key);
        ns_buf_puts(b, ",\"value\":");
        ns_json_str(b, t->base_value);
        ns_buf_puts(b, ",\"by\":");
        if (t->base_by) ns_json_str(b, t->base_by);
        else ns_buf_puts(b, "null");
        ns_buf_puts(b, ",\"groups\":[");
    } else {
        ns_buf_printf(b, "\nmedian ratio to %s=%s%s%s:\n", t->base_key, t->base_value,
                      t->base_by ? " by " : "", t->base_by ? t->base_by : "");
    }
    int *done = ns_xcalloc((size_t)t->nrows + 1, sizeof *done);
    double *v = ns_xcalloc((size_t)t->nrows + 1, sizeof *v);
    for (int i = 0; i < t->nrows; i++) {
        const ns__row *x = &t->rows[i];
        const char *xv = ns__row_tag(x, t->base_key);
        const char *xb = t->base_by ? ns__row_tag(x, t->base_by) : "";
        if (done[i] || !isfinite(x->base_ratio) || !xv || !xb || !strcmp(xv, t->base_value)) continue;
        int k = 0;
        for (int j = i; j < t->nrows; j++) {
            const ns__row *y = &t->rows[j];
            const char *yv = ns__row_tag(y, t->base_key);
            const char *yb = t->base_by ? ns__row_tag(y, t->base_by) : "";
            if (done[j] || !isfinite(y->base_ratio) || !yv || !yb || strcmp(yv, xv) ||
                strcmp(yb, xb) || strcmp(y->cfg.mode, x->cfg.mode))
                continue;
            done[j] = 1;
            v[k++] = y->base_ratio;
        }
        double med = ns_median(v, (size_t)k), lo = ns_min(v, (size_t)k), hi = ns_max(v, (size_t)k);
        if (json) {
            ns_buf_puts(b, n++ ? ",{\"value\":" : "{\"value\":");
            ns_json_str(b, xv);
            ns_buf_puts(b, ",\"by\":");
            if (t->base_by) ns_json_str(b, xb);
            else ns_buf_puts(b, "null");
            ns_buf_puts(b, ",\"mode\":");
            ns_json_str(b, x->cfg.mode);
            ns_buf_printf(b, ",\"n\":%d,\"median_ratio\":", k);
            ns__put_g(b, med, "null");
            ns_buf_puts(b, ",\"min_ratio\":");
            ns__put_g(b, lo, "null");
            ns_buf_puts(b, ",\"max_ratio\":");
            ns__put_g(b, hi, "null");
            ns_buf_putc(b, '}');
        } else {
            n++;
            ns_buf_printf(b, "  %s=%s%s%s %s: x%.3f (%d configuration%s, x%.3f to x%.3f)\n",
                          t->base_key, xv, t->base_by ? ", " : "", t->base_by ? xb : "",
                          x->cfg.mode, med, k, k == 1 ? "" : "s", lo, hi);
        }
    }
    if (json) ns_buf_puts(b, "]}");
    else if (!n) ns_buf_puts(b, "  (no configuration has a baseline partner)\n");
    free(done);
    free(v);
}

/* ====== Stage shares ====== */

/* The stage names of every report's map, then each run's share of each
 * stage: its reports' stage times over their summed totals. */
static int ns__stage_shares(ns__table *t, const char *spec) {
    ns_stage_sel sel;
    if (ns_stage_sel_init(&sel, spec) < 0) return -1;
    int added;
    for (int i = 0; i < t->nruns; i++)
        for (int k = 0; k < t->runs[i].nreports; k++) {
            const ns_stage_map *m = ns_stage_sel_pick(&sel, t->runs[i].reports[k]);
            for (int s = 0; m && s < ns_stage_count(m); s++)
                ns_strmap_intern(&t->snames, ns_stage_name(m, s), &added);
        }
    if (sel.fixed) /* a map named on the command line has its columns even without reports */
        for (int s = 0; s < ns_stage_count(sel.fixed); s++)
            ns_strmap_intern(&t->snames, ns_stage_name(sel.fixed, s), &added);
    size_t nst = t->snames.count;
    t->run_share = ns_xcalloc((size_t)t->nruns * nst + 1, sizeof *t->run_share);
    double *sum = ns_xcalloc(nst + 1, sizeof *sum);
    char *known = ns_xcalloc(nst + 1, 1); /* the stage is in a map of the run's reports */
    for (int i = 0; i < t->nruns; i++) {
        const ns_run *r = &t->runs[i];
        double total = 0;
        for (size_t s = 0; s < nst; s++) sum[s] = 0, known[s] = 0;
        for (int k = 0; k < r->nreports; k++) {
            const ns_stage_map *m = ns_stage_sel_pick(&sel, r->reports[k]);
            if (!m) continue;
            long n;
            ns_stage_of *of = ns_stage_assign_new(m, r->reports[k], &n);
            double *self = ns_xcalloc((size_t)ns_stage_count(m) + 1, sizeof *self);
            ns_stage_sums ss = {self, 0, 0};
            ns_stage_sum(m, r->reports[k], of, &ss);
            if (isfinite(ss.total)) {
                total += ss.total;
                for (int s = 0; s < ns_stage_count(m); s++) {
                    size_t slot = ns_strmap_find(&t->snames, ns_stage_name(m, s));
                    sum[slot] += self[s];
                    known[slot] = 1;
                }
            }
            free(self);
            free(of);
        }
        for (size_t s = 0; s < nst; s++)
            t->run_share[(size_t)i * nst + s] = total > 0 && known[s] ? sum[s] / total : NAN;
    }
    free(sum);
    free(known);
    ns_stage_sel_free(&sel);
    return 0;
}

/* ====== Order ====== */

/* Tag by tag (--tag-columns first), numbers as numbers; then by mode. */
static const ns__table *ns__sort_table; /* context of ns__cmp_row */

static int ns__cmp_row(const void *pa, const void *pb) {
    const ns__row *a = pa, *b = pb;
    return ns_config_cmp(&a->cfg, &b->cfg, ns__sort_table->keys, ns__sort_table->nkeys);
}

/* ====== Cells ======
 * Columns after the tags, in output order.  Text names are short; CSV and
 * JSON names are the contract. */
enum {
    NS__C_MODE, NS__C_N, NS__C_MEDIAN, NS__C_MEAN, NS__C_STDDEV, NS__C_MIN, NS__C_MAX,
    NS__C_UOW, NS__C_RSS, NS__C_FAIL, NS__C_WARMUP, NS__C_PRIMER, NS__C_OUTLIER, NS__C_CACHE, NS__C_BASE, NS__C_COUNT
};

static const struct {
    const char *key;  /* CSV header and JSON key */
    const char *head; /* text and Markdown header */
    const char *fmt;  /* text format of the value; NULL for counts */
} ns__cols[NS__C_COUNT] = {
    {"mode", "mode", NULL},
    {"n", "n", NULL},
    {"median_s", "median s", "%.4f"},
    {"mean_s", "mean s", "%.4f"},
    {"stddev_s", "stddev s", "%.4f"},
    {"min_s", "min s", "%.4f"},
    {"max_s", "max s", "%.4f"},
    {"user_over_wall", "user/wall", "%.2f"},
    {"peak_rss_mb", "peak MB", "%.1f"},
    {"failures", "failed", NULL},
    {"warmups", "warmups", NULL},
    {"primers", "primers", NULL},
    {"outliers", "outliers", NULL},
    {"cache_x", "cache x", "%.2f"},
    {"baseline_ratio", "x base", "%.3f"},
};

static double ns__col_value(const ns__row *x, int c) {
    switch (c) {
    case NS__C_N: return x->n;
    case NS__C_MEDIAN: return x->median;
    case NS__C_MEAN: return x->mean;
    case NS__C_STDDEV: return x->stddev;
    case NS__C_MIN: return x->min;
    case NS__C_MAX: return x->max;
    case NS__C_UOW: return x->user_over_wall;
    case NS__C_RSS: return x->peak_rss_mb;
    case NS__C_FAIL: return x->failures;
    case NS__C_WARMUP: return x->warmups;
    case NS__C_PRIMER: return x->primers;
    case NS__C_OUTLIER: return x->outliers;
    case NS__C_CACHE: return x->cache_x;
    case NS__C_BASE: return x->base_ratio;
    default: return NAN;
    }
}

/* A computed number for CSV and JSON: 15 significant digits, no "-0";
 * `missing` when it is not finite. */
static void ns__put_g(ns_buf *b, double v, const char *missing) {
    if (!isfinite(v)) {
        ns_buf_puts(b, missing);
        return;
    }
    if (v == 0) v = 0; /* -0 -> 0 */
    ns_buf_printf(b, "%.15g", v);
}

/* A metric for people: up to 4 decimals, trailing zeros dropped; tiny and
 * huge values in %g. */
static void ns__put_metric_text(ns_buf *b, double v) {
    double a = fabs(v);
    if ((a < 0.01 && a > 0) || a >= 1e12) {
        ns_buf_printf(b, "%.4g", v);
        return;
    }
    size_t at = b->len;
    ns_buf_printf(b, "%.4f", v == 0 ? 0.0 : v);
    while (b->len > at && b->data[b->len - 1] == '0') b->len--;
    if (b->len > at && b->data[b->len - 1] == '.') b->len--;
    b->data[b->len] = 0;
}

/* ====== Text and Markdown ====== */

typedef struct {
    const char *head; /* header cell */
    int kind;         /* 0 tag, 1 fixed column, 2 metric, 3 regime, 4 stage share */
    int idx;          /* which tag key, fixed column, metric or stage */
    int right;        /* right-aligned (numbers) */
    size_t width;     /* widest cell, in characters */
} ns__tcol;

/* Characters in a UTF-8 string (continuation bytes do not count). */
static size_t ns__width(const char *s) {
    size_t w = 0;
    for (; *s; s++) w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

/* Text from the runs in a cell: control characters become blanks (a tag
 * value with a line break must not break the table), and '|' is escaped in
 * Markdown.  Always leaves b->data allocated. */
static void ns__put_text(ns_buf *b, const char *s, int md) {
    ns_buf_puts(b, "");
    for (; *s; s++) {
        if ((unsigned char)*s < 0x20 || *s == 0x7f) ns_buf_putc(b, ' ');
        else if (md && *s == '|') ns_buf_puts(b, "\\|");
        else ns_buf_putc(b, *s);
    }
}

/* The cell of row x in column c, as a new string. */
static char *ns__cell_new(const ns__table *t, const ns__row *x, const ns__tcol *c, int md) {
    ns_buf b = {0};
    if (c->kind == 0 || (c->kind == 1 && c->idx == NS__C_MODE)) {
        const char *s = c->kind == 0 ? ns__row_tag(x, t->keys[c->idx]) : x->cfg.mode;
        ns__put_text(&b, s ? s : "-", md);
    } else if (c->kind == 1) {
        double v = ns__col_value(x, c->idx);
        if (!isfinite(v)) ns_buf_putc(&b, '-');
        else if (ns__cols[c->idx].fmt) ns_buf_printf(&b, ns__cols[c->idx].fmt, v);
        else ns_buf_printf(&b, "%d", (int)v);
    } else if (c->kind == 2) {
        double v = x->metrics[c->idx];
        if (!isfinite(v)) ns_buf_putc(&b, '-');
        else ns__put_metric_text(&b, v);
    } else if (c->kind == 3) {
        ns__put_text(&b, x->regime >= 0 ? t->snames.keys[x->regime] : "-", md);
    } else {
        double v = x->shares[c->idx];
        if (!isfinite(v)) ns_buf_putc(&b, '-');
        else ns_buf_printf(&b, "%.1f%%", v == 0 ? 0.0 : v * 100);
    }
    return b.data;
}

/* Is fixed column c worth showing to a person?  Counts of failures,
 * warmups and primers only when one is not zero; user/wall, peak MB and
 * cache x only when one is known. */
static int ns__col_shown(const ns__table *t, int c) {
    int count = c == NS__C_FAIL || c == NS__C_WARMUP || c == NS__C_PRIMER || c == NS__C_OUTLIER;
    if (!count && c != NS__C_UOW && c != NS__C_RSS && c != NS__C_CACHE && c != NS__C_BASE)
        return 1;
    for (int i = 0; i < t->nrows; i++) {
        double v = ns__col_value(&t->rows[i], c);
        if (count ? v != 0 : isfinite(v)) return 1;
    }
    return 0;
}

/* Has any row a regime (then the stage columns are worth showing)? */
static int ns__any_regime(const ns__table *t) {
    for (int i = 0; i < t->nrows; i++)
        if (t->rows[i].regime >= 0) return 1;
    return 0;
}

static void ns__render_grid(ns_buf *b, const ns__table *t, int md) {
    int nst = (int)t->snames.count;
    ns__tcol *cols =
        ns_xcalloc((size_t)(t->ncols + NS__C_COUNT + t->nmetrics + 1 + nst), sizeof *cols);
    int nc = 0;
    for (int k = 0; k < t->ncols; k++) cols[nc++] = (ns__tcol){t->keys[k], 0, k, 0, 0};
    for (int c = 0; c < NS__C_COUNT; c++)
        if (ns__col_shown(t, c))
            cols[nc++] = (ns__tcol){ns__cols[c].head, 1, c, c != NS__C_MODE, 0};
    for (int m = 0; m < t->nmetrics; m++) cols[nc++] = (ns__tcol){t->metrics[m], 2, m, 1, 0};
    if (t->stages && ns__any_regime(t)) {
        cols[nc++] = (ns__tcol){"regime", 3, 0, 0, 0};
        for (int s = 0; s < nst; s++) cols[nc++] = (ns__tcol){t->snames.keys[s], 4, s, 1, 0};
    }
    /* every cell first, then widths, then the lines */
    char **cell = ns_xcalloc((size_t)(t->nrows + 1) * (size_t)nc, sizeof *cell);
    for (int c = 0; c < nc; c++) {
        ns_buf h = {0};
        ns__put_text(&h, cols[c].head, md);
        cell[c] = h.data;
        for (int i = 0; i < t->nrows; i++)
            cell[(size_t)(i + 1) * (size_t)nc + (size_t)c] =
                ns__cell_new(t, &t->rows[i], &cols[c], md);
        for (int i = 0; i <= t->nrows; i++) {
            size_t w = ns__width(cell[(size_t)i * (size_t)nc + (size_t)c]);
            if (w > cols[c].width) cols[c].width = w;
        }
        if (md && cols[c].width < 3) cols[c].width = 3; /* room for "--:" */
    }
    for (int i = 0; i <= t->nrows; i++) {
        for (int c = 0; c < nc; c++) {
            const char *s = cell[(size_t)i * (size_t)nc + (size_t)c];
            size_t pad = cols[c].width - ns__width(s);
            int last = c == nc - 1;
            ns_buf_puts(b, md ? (c ? " | " : "| ") : (c ? "  " : ""));
            if (cols[c].right) ns_buf_pad(b, ' ', pad);
            ns_buf_puts(b, s);
            if (!cols[c].right && (md || !last)) ns_buf_pad(b, ' ', pad);
        }
        ns_buf_puts(b, md ? " |\n" : "\n");
        if (md && i == 0) {
            for (int c = 0; c < nc; c++) {
                ns_buf_puts(b, c ? " | " : "| ");
                ns_buf_pad(b, '-', cols[c].width - (cols[c].right ? 1 : 0));
                if (cols[c].right) ns_buf_putc(b, ':');
            }
            ns_buf_puts(b, " |\n");
        }
    }
    for (size_t i = 0; i < (size_t)(t->nrows + 1) * (size_t)nc; i++) free(cell[i]);
    free(cell);
    free(cols);
}

/* ====== CSV and JSON ====== */

/* "PREFIX:NAME" ("metric:compile_net_ms", "stage:other") as a CSV field
 * or a JSON string. */
static void ns__prefixed(ns_buf *b, const char *prefix, const char *name, int json) {
    size_t n = strlen(prefix);
    char *field = ns_xmalloc(n + strlen(name) + 1);
    memcpy(field, prefix, n);
    strcpy(field + n, name);
    if (json) ns_json_str(b, field);
    else ns_csv_field(b, field);
    free(field);
}

static void ns__csv_prefixed(ns_buf *b, const char *prefix, const char *name) {
    ns__prefixed(b, prefix, name, 0);
}

static void ns__json_prefixed(ns_buf *b, const char *prefix, const char *name) {
    ns__prefixed(b, prefix, name, 1);
}

static void ns__render_csv(ns_buf *b, const ns__table *t) {
    for (int k = 0; k < t->ncols; k++) {
        ns_csv_field(b, t->keys[k]);
        ns_buf_putc(b, ',');
    }
    for (int c = 0; c < NS__C_COUNT; c++) ns_buf_printf(b, c ? ",%s" : "%s", ns__cols[c].key);
    for (int m = 0; m < t->nmetrics; m++) {
        ns_buf_putc(b, ',');
        ns__csv_prefixed(b, "metric:", t->metrics[m]);
    }
    if (t->stages) {
        ns_buf_puts(b, ",regime");
        for (size_t s = 0; s < t->snames.count; s++) {
            ns_buf_putc(b, ',');
            ns__csv_prefixed(b, "stage:", t->snames.keys[s]);
        }
    }
    ns_buf_putc(b, '\n');
    for (int i = 0; i < t->nrows; i++) {
        const ns__row *x = &t->rows[i];
        for (int k = 0; k < t->ncols; k++) {
            const char *v = ns__row_tag(x, t->keys[k]);
            if (v) ns_csv_field(b, v);
            ns_buf_putc(b, ',');
        }
        ns_csv_field(b, x->cfg.mode);
        for (int c = NS__C_N; c < NS__C_COUNT; c++) {
            ns_buf_putc(b, ',');
            ns__put_g(b, ns__col_value(x, c), "");
        }
        for (int m = 0; m < t->nmetrics; m++) {
            ns_buf_putc(b, ',');
            ns__put_g(b, x->metrics[m], "");
        }
        if (t->stages) {
            ns_buf_putc(b, ',');
            if (x->regime >= 0) ns_csv_field(b, t->snames.keys[x->regime]);
            for (size_t s = 0; s < t->snames.count; s++) {
                ns_buf_putc(b, ',');
                ns__put_g(b, x->shares[s], "");
            }
        }
        ns_buf_putc(b, '\n');
    }
}

static void ns__render_json(ns_buf *b, const ns__table *t) {
    ns_buf_printf(b, "{\"format\":\"npuscope-table\",\"version\":1,\"runs\":%d,\"rows\":[",
                  t->nruns);
    for (int i = 0; i < t->nrows; i++) {
        const ns__row *x = &t->rows[i];
        ns_buf_puts(b, i ? ",\n{\"tags\":{" : "\n{\"tags\":{");
        /* the row's tags, keys in table order */
        int first = 1;
        for (int k = 0; k < t->nkeys; k++) {
            const char *v = ns__row_tag(x, t->keys[k]);
            if (!v) continue;
            if (!first) ns_buf_putc(b, ',');
            first = 0;
            ns_json_str(b, t->keys[k]);
            ns_buf_putc(b, ':');
            ns_json_str(b, v);
        }
        ns_buf_puts(b, "},\"mode\":");
        ns_json_str(b, x->cfg.mode);
        for (int c = NS__C_N; c < NS__C_COUNT; c++) {
            ns_buf_printf(b, ",\"%s\":", ns__cols[c].key);
            ns__put_g(b, ns__col_value(x, c), "null");
        }
        ns_buf_puts(b, ",\"metrics\":{");
        for (int m = 0; m < t->nmetrics; m++) {
            if (m) ns_buf_putc(b, ',');
            ns_json_str(b, t->metrics[m]);
            ns_buf_putc(b, ':');
            ns__put_g(b, x->metrics[m], "null");
        }
        ns_buf_putc(b, '}');
        if (t->stages) {
            ns_buf_puts(b, ",\"regime\":");
            if (x->regime >= 0) ns_json_str(b, t->snames.keys[x->regime]);
            else ns_buf_puts(b, "null");
            for (size_t s = 0; s < t->snames.count; s++) {
                ns_buf_putc(b, ',');
                ns__json_prefixed(b, "stage:", t->snames.keys[s]);
                ns_buf_putc(b, ':');
                ns__put_g(b, x->shares[s], "null");
            }
        }
        ns_buf_putc(b, '}');
    }
    ns_buf_puts(b, "\n]");
    ns__baseline_summary(b, t, 1);
    ns_buf_puts(b, "}\n");
}

/* ====== The command ====== */

/* Split "A,B" into t->keys (owned by `list`, a copy of the argument);
 * returns -1 on an empty name. */
static int ns__tag_columns(ns__table *t, char *list) {
    for (char *s = list;;) {
        char *comma = strchr(s, ',');
        if (comma) *comma = 0;
        if (!*s) return -1;
        ns_key_add(&t->keys, &t->nkeys, s);
        if (!comma) break;
        s = comma + 1;
    }
    return 0;
}

int ns_cmd_table(int argc, char **argv) {
    ns_args a;
    ns_args_init(&a, argc, argv);
    int fmt = NS__TAB_TEXT;
    ns__table t = {0};
    const char *stage_spec = NULL; /* --stages=MAP */
    ns_strmap_init(&t.snames);
    char *tagcols = NULL; /* copy of --tag-columns, owner of its key names */
    char *base_key = NULL; /* --baseline's tag name (owned) */
    int submodels = 0;     /* --submodels */
    char **dirs = ns_xcalloc((size_t)argc, sizeof *dirs);
    int ndirs = 0, rc = NS_EXIT_OK, quiet = 0, unreadable = 0;
    const char *v;
    ns_buf b = {0};
    while (a.i < argc) {
        const char *arg = argv[a.i];
        int m;
        if ((m = ns_args_format(&a, ns__tab_formats, &fmt))) {
            if (m < 0) { rc = NS_EXIT_USAGE; goto out; }
        } else if ((m = ns_args_value(&a, "--baseline", &v))) {
            if (m < 0) { rc = NS_EXIT_USAGE; goto out; }
            const char *eq = strchr(v, '=');
            if (!eq || eq == v || !eq[1]) {
                rc = ns_args_usage(&a, "--baseline: TAG=VALUE, e.g. precision=int8, not '%s'", v);
                goto out;
            }
            free(base_key);
            base_key = ns_strndup(v, (size_t)(eq - v));
            t.base_key = base_key;
            t.base_value = eq + 1;
        } else if (ns_args_flag(&a, "--submodels")) {
            submodels = 1;
        } else if ((m = ns_args_value(&a, "--by", &v))) {
            if (m < 0) { rc = NS_EXIT_USAGE; goto out; }
            t.base_by = v;
        } else if ((m = ns_args_value(&a, "--tag-columns", &v))) {
            if (m < 0) { rc = NS_EXIT_USAGE; goto out; }
            free(tagcols);
            tagcols = ns_strdup(v);
            t.nkeys = 0;
            if (ns__tag_columns(&t, tagcols) < 0) {
                rc = ns_args_usage(&a, "--tag-columns: a comma-separated list of tag names, "
                                       "not '%s'", v);
                goto out;
            }
        } else if (ns_args_flag(&a, "--stages")) {
            t.stages = 1; /* a bare flag: the map is chosen per report */
            stage_spec = NULL;
        } else if (!a.only_inputs && strncmp(arg, "--stages=", 9) == 0) {
            t.stages = 1;
            stage_spec = arg + 9;
            a.i++;
        } else if ((m = ns_args_rest(&a, &quiet, dirs, &ndirs)) != NS_ARGS_TAKEN) {
            rc = m == NS_ARGS_HELP ? NS_EXIT_OK : NS_EXIT_USAGE;
            goto out;
        }
    }
    if (ndirs == 0) {
        rc = ns_args_usage(&a, "no DIR given (a run folder or a folder of run folders)");
        goto out;
    }
    ns_diag_quiet(quiet);
    int listed = t.nkeys; /* keys named by --tag-columns */
    for (int i = 0; i < ndirs; i++)
        if (ns_runs_read(dirs[i], &t.runs, &t.nruns) < 0) unreadable = 1;
    if (t.nruns > 0) {
        ns__group(&t);
        t.ncols = listed ? listed : t.nkeys;
        for (int k = 0; k < listed; k++) {
            int seen = 0;
            for (int i = 0; i < t.nrows && !seen; i++)
                seen = ns__row_tag(&t.rows[i], t.keys[k]) != NULL;
            if (!seen) ns_warn_at(NULL, 0, "--tag-columns: no run has the tag '%s'", t.keys[k]);
        }
        if (submodels) ns__submodel_metrics(&t);
        ns__metric_names(&t);
        if (t.stages && ns__stage_shares(&t, stage_spec) < 0) {
            rc = NS_EXIT_USAGE;
            goto out;
        }
        for (int i = 0; i < t.nrows; i++) ns__summarize(&t, &t.rows[i]);
        if (t.stages && !ns__any_regime(&t))
            ns_warn_at(NULL, 0, "--stages: no counted run kept a timing report, so there are "
                                "no stage shares (record keeps the reports the command printed)");
        ns__sort_table = &t;
        qsort(t.rows, (size_t)t.nrows, sizeof *t.rows, ns__cmp_row);
        ns__cache_ratios(&t);
        if (t.base_by && !t.base_key) ns_warn_at(NULL, 0, "--by groups --baseline ratios; without --baseline it does nothing");
        ns__baseline(&t);
        if (fmt == NS__TAB_TEXT) {
            int counted = 0;
            for (int i = 0; i < t.nrows; i++) counted += t.rows[i].n;
            ns_buf_printf(&b, "%d run%s, %d row%s; statistics over the %d counted run%s "
                              "(ok, neither warmups nor primers)\n",
                          t.nruns, t.nruns == 1 ? "" : "s", t.nrows, t.nrows == 1 ? "" : "s",
                          counted, counted == 1 ? "" : "s");
            ns__render_grid(&b, &t, 0);
            ns__baseline_summary(&b, &t, 0);
        } else if (fmt == NS__TAB_MD) {
            ns__render_grid(&b, &t, 1);
        } else if (fmt == NS__TAB_CSV) {
            ns__render_csv(&b, &t);
        } else {
            ns__render_json(&b, &t);
        }
        if (ns_buf_flush(&b, stdout) || fflush(stdout)) {
            ns_error("error writing the output");
            rc = NS_EXIT_USAGE;
        }
    } else if (!unreadable) {
        ns_buf_puts(&b, dirs[0]);
        for (int i = 1; i < ndirs; i++) {
            ns_buf_puts(&b, ", ");
            ns_buf_puts(&b, dirs[i]);
        }
        ns_error("no runs found in %s", b.data);
        rc = NS_EXIT_NOTHING;
    }
    if (unreadable) rc = NS_EXIT_USAGE;
    ns_diag_summary();
out:
    for (int i = 0; i < t.nrows; i++) {
        ns_config_free(&t.rows[i].cfg);
        free(t.rows[i].metrics);
        free(t.rows[i].shares);
    }
    ns_strmap_free(&t.snames);
    free(t.run_share);
    free(t.rows);
    for (int i = 0; i < t.nruns; i++) ns_run_free(&t.runs[i]);
    free(t.runs);
    free(t.keys);
    free(t.metrics);
    free(tagcols);
    free(base_key);
    free(dirs);
    ns_buf_free(&b);
    return rc;
}
