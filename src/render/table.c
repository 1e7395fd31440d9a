/* table.c -- the grid of a sweep written out (see table.h for the formats).
 *
 * The columns after the tags are one list (ns__cols): their CSV header and
 * JSON key (the contract), their text header and their text format, so the
 * four formats cannot disagree on what a column is.  A text cell is made
 * from the same value the CSV field is, only printed for people.
 */
#include "render/table.h"

#include "base/jsonw.h"
#include "model/load.h"
#include "render/grid.h"
#include "render/width.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== Columns ======
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

static double ns__col_value(const ns_table_row *x, int c) {
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

/* ====== Numbers ====== */

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

/* ====== Tag columns ====== */

/* The key the table's configuration labels are shown under (the words of
 * the command that tell apart configurations with the same tags), or
 * NULL when no row has one. */
static const char *ns__label_key(const ns_table *t) {
    for (int i = 0; i < t->nrows; i++)
        if (ns_config_label_key(&t->rows[i].cfg)) return ns_config_label_key(&t->rows[i].cfg);
    return NULL;
}

/* The tag keys shown as columns, as indices into t->keys, into a new
 * array (*n of them): the view's first ncols, and the label's key when
 * they leave it out (--tag-columns): a row must always say which it is. */
static int *ns__tag_cols_new(const ns_table *t, const ns_table_view *v, int *n) {
    int *c = ns_xcalloc((size_t)t->nkeys + 1, sizeof *c);
    const char *lk = ns__label_key(t);
    *n = 0;
    for (int k = 0; k < t->nkeys; k++)
        if (k < v->ncols || (lk && !strcmp(t->keys[k], lk))) c[(*n)++] = k;
    return c;
}

/* ====== Text and Markdown ====== */

typedef struct {
    const char *head; /* header cell */
    int kind;         /* 0 tag, 1 fixed column, 2 metric, 3 regime, 4 stage share,
                       * 5 cache verdict, 6 status */
    int idx;          /* which tag key, fixed column, metric or stage */
    int right;        /* right-aligned (numbers) */
} ns__tcol;

/* The cell of row x in column c, into the empty buffer b. */
static void ns__cell(ns_buf *b, const ns_table *t, const ns_table_row *x, const ns__tcol *c) {
    if (c->kind == 0 || (c->kind == 1 && c->idx == NS__C_MODE)) {
        const char *s = c->kind == 0 ? ns_table_tag(x, t->keys[c->idx]) : x->cfg.mode;
        ns_buf_puts(b, s ? s : "-");
    } else if (c->kind == 1) {
        double v = ns__col_value(x, c->idx);
        if (!isfinite(v)) ns_buf_putc(b, '-');
        else if (ns__cols[c->idx].fmt && fabs(v) >= 1e12) ns_buf_printf(b, "%.4g", v); /* not 310 digits */
        else if (ns__cols[c->idx].fmt) ns_buf_printf(b, ns__cols[c->idx].fmt, v);
        else ns_buf_printf(b, "%d", (int)v);
    } else if (c->kind == 2) {
        double v = x->metrics[c->idx];
        if (!isfinite(v)) ns_buf_putc(b, '-');
        else ns__put_metric_text(b, v);
    } else if (c->kind == 5) {
        ns_buf_puts(b, x->cache >= 0 ? ns_cache_verdict_name((ns_cache_verdict)x->cache) : "-");
    } else if (c->kind == 3) {
        ns_buf_puts(b, x->regime >= 0 ? t->stages.keys[x->regime] : "-");
    } else if (c->kind == 6) {
        ns_buf_puts(b, ns_table_status(x));
        if (x->n == 0 && x->failure && x->failure->pass) ns_buf_printf(b, ": %s", x->failure->pass);
    } else {
        double v = x->shares[c->idx];
        if (!isfinite(v)) ns_buf_putc(b, '-');
        else ns_buf_printf(b, "%.1f%%", v == 0 ? 0.0 : v * 100);
    }
}

/* Is fixed column c worth showing to a person?  Counts of failures,
 * warmups and primers only when one is not zero; user/wall, peak MB and
 * cache x only when one is known. */
static int ns__col_shown(const ns_table *t, int c) {
    int count = c == NS__C_FAIL || c == NS__C_WARMUP || c == NS__C_PRIMER || c == NS__C_OUTLIER;
    if (!count && c != NS__C_UOW && c != NS__C_RSS && c != NS__C_CACHE && c != NS__C_BASE)
        return 1;
    for (int i = 0; i < t->nrows; i++) {
        double v = ns__col_value(&t->rows[i], c);
        if (count ? v != 0 : isfinite(v)) return 1;
    }
    return 0;
}

/* Has a row a cache verdict (a warm row)?  Then the text shows the column. */
static int ns__any_verdict(const ns_table *t) {
    for (int i = 0; i < t->nrows; i++)
        if (t->rows[i].cache >= 0) return 1;
    return 0;
}

/* ====== Fitting a terminal ====== */

/* A column's priority when the text must fit a width (table.h): 0 always
 * shown; higher numbers are left out first. */
static int ns__col_prio(const ns__tcol *c) {
    switch (c->kind) {
    case 0: return 0;               /* the tags: what the row is */
    case 2: return 10 + c->idx;     /* metrics, each on its own */
    case 3: return 1;               /* regime */
    case 5: return 1;               /* cache verdict */
    case 6: return 1;               /* status */
    case 4: return 10000 + c->idx;  /* stage shares, each on its own */
    default: break;
    }
    switch (c->idx) {
    case NS__C_MODE: case NS__C_N: case NS__C_MEDIAN: return 0;
    case NS__C_FAIL: case NS__C_CACHE: case NS__C_BASE: return 1;
    case NS__C_MIN: case NS__C_MAX: return 2;
    case NS__C_MEAN: case NS__C_STDDEV: return 3;
    case NS__C_UOW: case NS__C_RSS: return 4;
    default: return 5; /* warmups, primers, outliers */
    }
}

/* Does a row fail (analyse/table.h, ns_table_status)?  Then the grid has a
 * status column: "failed: PASS" where the log named the pass. */
static int ns__any_failed(const ns_table *t) {
    for (int i = 0; i < t->nrows; i++)
        if (strcmp(ns_table_status(&t->rows[i]), "ok") != 0) return 1;
    return 0;
}

static void ns__render_grid(ns_buf *b, const ns_table *t, const ns_table_view *v, int md) {
    int nst = (int)t->stages.count;
    ns__tcol *cols =
        ns_xcalloc((size_t)(t->nkeys + NS__C_COUNT + t->nmetrics + 3 + nst), sizeof *cols);
    int nc = 0, ntag;
    int *tag = ns__tag_cols_new(t, v, &ntag);
    for (int k = 0; k < ntag; k++) cols[nc++] = (ns__tcol){t->keys[tag[k]], 0, tag[k], 0};
    free(tag);
    for (int c = 0; c < NS__C_COUNT; c++) {
        if (ns__col_shown(t, c)) cols[nc++] = (ns__tcol){ns__cols[c].head, 1, c, c != NS__C_MODE};
        if (c == NS__C_CACHE && ns__any_verdict(t)) cols[nc++] = (ns__tcol){"cache", 5, 0, 0};
    }
    if (ns__any_failed(t)) cols[nc++] = (ns__tcol){"status", 6, 0, 0};
    for (int m = 0; m < t->nmetrics; m++) cols[nc++] = (ns__tcol){t->metrics[m], 2, m, 1};
    if (t->staged && ns_table_any_regime(t)) {
        cols[nc++] = (ns__tcol){"regime", 3, 0, 0};
        for (int s = 0; s < nst; s++) cols[nc++] = (ns__tcol){t->stages.keys[s], 4, s, 1};
    }
    char *align = ns_xcalloc((size_t)nc + 1, 1);
    for (int c = 0; c < nc; c++) align[c] = cols[c].right ? 'r' : 'l';
    int *prio = ns_xcalloc((size_t)nc + 1, sizeof *prio);
    char *shrink = ns_xcalloc((size_t)nc + 1, 1);
    for (int c = 0; c < nc; c++) {
        prio[c] = ns__col_prio(&cols[c]);
        shrink[c] = cols[c].kind == 0;
    }
    ns_grid g = {NULL, 0, nc, align, NULL, md};
    ns_grid_fit fit = {md ? 0 : v->width, prio, shrink};
    for (int c = 0; c < nc; c++) ns_grid_add(&g, cols[c].head);
    ns_buf cell = {0};
    for (int i = 0; i < t->nrows; i++)
        for (int c = 0; c < nc; c++) {
            ns__cell(&cell, t, &t->rows[i], &cols[c]);
            ns_grid_take(&g, &cell);
        }
    ns_grid_write_fit(b, &g, &fit);
    ns_buf_free(&cell);
    free(align);
    free(prio);
    free(shrink);
    free(cols);
}

/* ====== Baseline summary ====== */

static void ns__baseline_summary(ns_buf *b, const ns_table *t, const char *by, int json,
                                 size_t width) {
    if (!t->base_key) return;
    int n;
    ns_table_base_group *g = ns_table_base_groups_new(t, by, &n);
    if (json) {
        ns_buf_puts(b, ",\"baseline\":{\"tag\":");
        ns_json_str(b, t->base_key);
        ns_buf_puts(b, ",\"value\":");
        ns_json_str(b, t->base_value);
        ns_buf_puts(b, ",\"by\":");
        if (by) ns_json_str(b, by);
        else ns_buf_puts(b, "null");
        ns_buf_puts(b, ",\"groups\":[");
    } else {
        ns_buf_printf(b, "\nmedian ratio to %s=%s%s%s:\n", t->base_key, t->base_value,
                      by ? " by " : "", by ? by : "");
    }
    for (int i = 0; i < n; i++) {
        const ns_table_base_group *e = &g[i];
        if (json) {
            ns_buf_puts(b, i ? ",{\"value\":" : "{\"value\":");
            ns_json_str(b, e->value);
            ns_buf_puts(b, ",\"by\":");
            if (e->by) ns_json_str(b, e->by);
            else ns_buf_puts(b, "null");
            ns_buf_puts(b, ",\"mode\":");
            ns_json_str(b, e->mode);
            ns_buf_printf(b, ",\"n\":%d,\"median_ratio\":", e->n);
            ns__put_g(b, e->median, "null");
            ns_buf_puts(b, ",\"min_ratio\":");
            ns__put_g(b, e->min, "null");
            ns_buf_puts(b, ",\"max_ratio\":");
            ns__put_g(b, e->max, "null");
            ns_buf_putc(b, '}');
        } else {
            ns_buf line = {0};
            ns_buf_printf(&line, "  %s=%s%s%s %s: x%.3f (%d configuration%s, x%.3f to x%.3f)",
                          t->base_key, e->value, e->by ? ", " : "", e->by ? e->by : "", e->mode,
                          e->median, e->n, e->n == 1 ? "" : "s", e->min, e->max);
            ns_width_wrap(b, line.data, width, 0, 4);
            ns_buf_free(&line);
        }
    }
    if (json) ns_buf_puts(b, "]}");
    else if (!n) ns_buf_puts(b, "  (no configuration has a baseline partner)\n");
    free(g);
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

/* Is key the name of one of the table's own CSV columns (mode, n, ...,
 * regime, metric:*, stage:*)?  Such a tag's column is "tag:KEY", so no
 * header is written twice. */
static int ns__column_name(const char *key) {
    for (int c = 0; c < NS__C_COUNT; c++)
        if (!strcmp(ns__cols[c].key, key)) return 1;
    return !strcmp(key, "regime") || !strncmp(key, "metric:", 7) || !strncmp(key, "stage:", 6) ||
           !strncmp(key, "tag:", 4);
}

static void ns__render_csv(ns_buf *b, const ns_table *t, const ns_table_view *v) {
    int ntag;
    int *tag = ns__tag_cols_new(t, v, &ntag);
    for (int k = 0; k < ntag; k++) {
        if (ns__column_name(t->keys[tag[k]])) ns__prefixed(b, "tag:", t->keys[tag[k]], 0);
        else ns_csv_field(b, t->keys[tag[k]]);
        ns_buf_putc(b, ',');
    }
    for (int c = 0; c < NS__C_COUNT; c++) ns_buf_printf(b, c ? ",%s" : "%s", ns__cols[c].key);
    ns_buf_puts(b, ",cache");
    for (int m = 0; m < t->nmetrics; m++) {
        ns_buf_putc(b, ',');
        ns__prefixed(b, "metric:", t->metrics[m], 0);
    }
    ns_buf_puts(b, ",status,failed_pass");
    if (t->staged) {
        ns_buf_puts(b, ",regime");
        for (size_t s = 0; s < t->stages.count; s++) {
            ns_buf_putc(b, ',');
            ns__prefixed(b, "stage:", t->stages.keys[s], 0);
        }
    }
    ns_buf_putc(b, '\n');
    for (int i = 0; i < t->nrows; i++) {
        const ns_table_row *x = &t->rows[i];
        for (int k = 0; k < ntag; k++) {
            const char *val = ns_table_tag(x, t->keys[tag[k]]);
            if (val) ns_csv_field(b, val);
            ns_buf_putc(b, ',');
        }
        ns_csv_field(b, x->cfg.mode);
        for (int c = NS__C_N; c < NS__C_COUNT; c++) {
            ns_buf_putc(b, ',');
            ns__put_g(b, ns__col_value(x, c), "");
        }
        ns_buf_putc(b, ',');
        if (x->cache >= 0) ns_buf_puts(b, ns_cache_verdict_name((ns_cache_verdict)x->cache));
        for (int m = 0; m < t->nmetrics; m++) {
            ns_buf_putc(b, ',');
            ns__put_g(b, x->metrics[m], "");
        }
        ns_buf_printf(b, ",%s,", ns_table_status(x));
        if (x->failure && x->failure->pass) ns_csv_field(b, x->failure->pass);
        if (t->staged) {
            ns_buf_putc(b, ',');
            if (x->regime >= 0) ns_csv_field(b, t->stages.keys[x->regime]);
            for (size_t s = 0; s < t->stages.count; s++) {
                ns_buf_putc(b, ',');
                ns__put_g(b, x->shares[s], "");
            }
        }
        ns_buf_putc(b, '\n');
    }
    free(tag);
}

/* A row's status (analyse/table.h) and the pass its failed compile logged:
 * ,"status","failed_pass" -- the CSV's columns, so that the two are one
 * frame (the rest of the failure is advise's compile matrix). */
static void ns__status_json(ns_buf *b, const ns_table_row *x) {
    ns_buf_printf(b, ",\"status\":\"%s\",\"failed_pass\":", ns_table_status(x));
    if (x->failure && x->failure->pass) ns_json_str(b, x->failure->pass);
    else ns_buf_puts(b, "null");
}

static void ns__render_json(ns_buf *b, const ns_table *t, const ns_table_view *v) {
    ns_buf_printf(b, "{\"format\":\"npuscope-table\",\"version\":1,\"runs\":%d,\"rows\":[",
                  t->nruns);
    for (int i = 0; i < t->nrows; i++) {
        const ns_table_row *x = &t->rows[i];
        ns_buf_puts(b, i ? ",\n{\"tags\":{" : "\n{\"tags\":{");
        /* the row's tags, keys in table order; the label is not a tag of
         * the runs (--a K=V cannot select it), so it has a key of its own */
        int first = 1;
        const char *lk = ns_config_label_key(&x->cfg);
        for (int k = 0; k < t->nkeys; k++) {
            const char *val = ns_table_tag(x, t->keys[k]);
            if (!val || (lk && !strcmp(t->keys[k], lk))) continue;
            if (!first) ns_buf_putc(b, ',');
            first = 0;
            ns_json_str(b, t->keys[k]);
            ns_buf_putc(b, ':');
            ns_json_str(b, val);
        }
        ns_buf_puts(b, "},\"config\":");
        if (ns_config_label(&x->cfg)) ns_json_str(b, ns_config_label(&x->cfg));
        else ns_buf_puts(b, "null");
        ns_buf_puts(b, ",\"mode\":");
        ns_json_str(b, x->cfg.mode);
        ns__status_json(b, x);
        for (int c = NS__C_N; c < NS__C_COUNT; c++) {
            ns_buf_printf(b, ",\"%s\":", ns__cols[c].key);
            ns__put_g(b, ns__col_value(x, c), "null");
        }
        ns_buf_puts(b, ",\"cache\":");
        if (x->cache >= 0) ns_buf_printf(b, "\"%s\"", ns_cache_verdict_name((ns_cache_verdict)x->cache));
        else ns_buf_puts(b, "null");
        ns_buf_puts(b, ",\"metrics\":{");
        for (int m = 0; m < t->nmetrics; m++) {
            if (m) ns_buf_putc(b, ',');
            ns_json_str(b, t->metrics[m]);
            ns_buf_putc(b, ':');
            ns__put_g(b, x->metrics[m], "null");
        }
        ns_buf_putc(b, '}');
        if (t->staged) {
            ns_buf_puts(b, ",\"regime\":");
            if (x->regime >= 0) ns_json_str(b, t->stages.keys[x->regime]);
            else ns_buf_puts(b, "null");
            for (size_t s = 0; s < t->stages.count; s++) {
                ns_buf_putc(b, ',');
                ns__prefixed(b, "stage:", t->stages.keys[s], 1);
                ns_buf_putc(b, ':');
                ns__put_g(b, x->shares[s], "null");
            }
        }
        ns_buf_putc(b, '}');
    }
    ns_buf_puts(b, "\n]");
    ns__baseline_summary(b, t, v->by, 1, 0);
    ns_buf_puts(b, "}\n");
}

/* ====== The formats ====== */

void ns_render_table(ns_buf *b, const ns_table *t, const ns_table_view *v) {
    switch (v->format) {
    case NS_TABLE_TEXT: {
        int counted = 0;
        for (int i = 0; i < t->nrows; i++) counted += t->rows[i].n;
        ns_buf line = {0};
        ns_buf_printf(&line, "%d run%s, %d row%s; statistics over the %d counted run%s "
                             "(ok, neither warmups nor primers)",
                      t->nruns, t->nruns == 1 ? "" : "s", t->nrows, t->nrows == 1 ? "" : "s",
                      counted, counted == 1 ? "" : "s");
        ns_width_wrap(b, line.data, (size_t)v->width, 0, 2);
        ns_buf_free(&line);
        ns__render_grid(b, t, v, 0);
        ns__baseline_summary(b, t, v->by, 0, (size_t)v->width);
        break;
    }
    case NS_TABLE_MARKDOWN: ns__render_grid(b, t, v, 1); break;
    case NS_TABLE_CSV: ns__render_csv(b, t, v); break;
    case NS_TABLE_JSON: ns__render_json(b, t, v); break;
    }
}
