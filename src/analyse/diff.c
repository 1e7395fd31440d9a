/* diff.c -- the rows of an A/B comparison (see diff.h for the rule).
 *
 * The statistics are stats.c's: medians, the Hodges-Lehmann shift, the
 * exact Mann-Whitney p.  This file gathers each row's values from the
 * runs, applies the verdict rule, and orders the rows: total first, then
 * the passes by A's median, heaviest first (ties by name), then the passes'
 * memory increases ("mem:NAME") in the same order, then the stages
 * in the order the maps declare them (first seen over the runs, A first),
 * then the metrics by name.  It prints nothing.
 */
#include "analyse/diff.h"

#include "analyse/dataset.h"
#include "analyse/stats.h"
#include "base/strmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== One row ====== */

const char *ns_diff_verdict(int higher_better, double p, double shift, double a_median,
                            const ns_diff_opts *o) {
    if (!(p < o->alpha) || !isfinite(shift) || isnan(a_median) || shift == 0) return "same";
    double rel = a_median != 0 ? fabs(shift) / fabs(a_median) : INFINITY;
    if (!(rel * 100 > o->threshold)) return "same";
    return (shift > 0) == (higher_better != 0) ? "faster" : "slower";
}

void ns_diff_verdict_text(ns_buf *b, const ns_diff_row *r) {
    ns_buf_puts(b, r->verdict);
    if ((r->kind == NS_DIFF_METRIC || r->kind == NS_DIFF_MEMORY) && strcmp(r->verdict, "same") != 0)
        ns_buf_puts(b, r->shift > 0 ? " (higher)" : " (lower)");
}

/* The non-NaN values of v, in a new array (for ns_median, which sorts). */
static double *ns__values_new(const double *v, size_t n, size_t *k) {
    double *out = ns_xcalloc(n + 1, sizeof *out);
    *k = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i])) out[(*k)++] = v[i];
    return out;
}

void ns_diff_row_make(ns_diff_row *row, const char *name, ns_diff_kind kind, const double *a,
                      size_t na, const double *b, size_t nb, const ns_diff_opts *o) {
    memset(row, 0, sizeof *row);
    row->name = ns_strdup(name);
    row->kind = kind;
    row->higher_better = kind == NS_DIFF_METRIC && strncmp(name, "metric:", 7) == 0 &&
                         ns_metric_higher_is_better(name + 7);
    double *va = ns__values_new(a, na, &row->a_n), *vb = ns__values_new(b, nb, &row->b_n);
    row->p = row->a_n && row->b_n ? ns_mann_whitney_p(va, row->a_n, vb, row->b_n, NULL) : NAN;
    row->shift = row->a_n && row->b_n ? ns_hodges_lehmann(va, row->a_n, vb, row->b_n) : NAN;
    row->a_median = ns_median(va, row->a_n);
    row->b_median = ns_median(vb, row->b_n);
    row->ratio = row->a_median != 0 ? row->b_median / row->a_median : NAN;
    if (!isfinite(row->ratio)) row->ratio = NAN;
    row->verdict = ns_diff_verdict(row->higher_better, row->p, row->shift, row->a_median, o);
    free(va);
    free(vb);
}

/* ====== Every row ====== */

static void ns__push(ns_diff *d, const ns_diff_row *row) {
    d->rows = ns_xrealloc(d->rows, sizeof *d->rows * (size_t)(d->nrows + 1));
    d->rows[d->nrows++] = *row;
}

/* A's median descending (a NaN median last), ties by name. */
static int ns__cmp_pass(const void *pa, const void *pb) {
    const ns_diff_row *a = pa, *b = pb;
    int na = isnan(a->a_median), nb = isnan(b->a_median);
    if (na != nb) return na - nb;
    if (!na && a->a_median != b->a_median) return a->a_median > b->a_median ? -1 : 1;
    return strcmp(a->name, b->name);
}

static int ns__cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every pass of every run: v[run * nnames + k] = wall seconds of pass k
 * in the run, 0 when the run has reports without it, NaN when it has no
 * report at all. */
static double *ns__pass_matrix_new(const ns_run *const *runs, int n, const ns_strmap *names) {
    size_t nn = names->count;
    double *v = ns_xcalloc((size_t)n * nn + 1, sizeof *v);
    int *found = ns_xcalloc(nn + 1, sizeof *found);
    for (int i = 0; i < n; i++) {
        double *row = v + (size_t)i * nn;
        ns_run_pass_sums(runs[i], names, row, found);
        if (runs[i]->nreports == 0)
            for (size_t k = 0; k < nn; k++) row[k] = NAN;
    }
    free(found);
    return v;
}

/* ====== Per-pass memory ====== */

/* Does the run have per-pass memory (a report with the collector's lines)? */
static int ns__run_has_mem(const ns_run *r) {
    for (int k = 0; k < r->nreports; k++)
        if (r->reports[k]->cols & NS_COLBIT(NS_COL_MEM_INC)) return 1;
    return 0;
}

/* The names of every row with a memory increase in the run. */
static void ns__mem_names(const ns_run *r, ns_strmap *names) {
    for (int k = 0; k < r->nreports; k++) {
        const ns_report *rep = r->reports[k];
        if (!(rep->cols & NS_COLBIT(NS_COL_MEM_INC))) continue;
        for (ns_node *n = rep->root; n; n = ns_node_next(n, rep->root))
            if (ns_num_present(n->val[NS_COL_MEM_INC])) ns_strmap_intern(names, n->name, NULL);
    }
}

/* v[k] = kB that rows named names[k] raised the peak, summed over the run's
 * reports: 0 without a line, NaN when the run has no per-pass memory. */
static void ns__mem_sums(const ns_run *r, const ns_strmap *names, double *v) {
    int has = ns__run_has_mem(r);
    for (size_t k = 0; k < names->count; k++) v[k] = has ? 0 : NAN;
    if (!has) return;
    for (int k = 0; k < r->nreports; k++) {
        const ns_report *rep = r->reports[k];
        if (!(rep->cols & NS_COLBIT(NS_COL_MEM_INC))) continue;
        for (ns_node *n = rep->root; n; n = ns_node_next(n, rep->root)) {
            ns_num x = n->val[NS_COL_MEM_INC];
            if (!ns_num_present(x) || !isfinite(x.v)) continue;
            size_t i = ns_strmap_find(names, n->name);
            if (i != (size_t)-1) v[i] += x.v;
        }
    }
}

/* The "mem:NAME" rows, pushed in A's median order. */
static void ns__diff_memory(const ns_run *const *a, int na, const ns_run *const *b, int nb,
                            const ns_diff_opts *o, ns_diff *d) {
    ns_strmap names;
    ns_strmap_init(&names);
    for (int i = 0; i < na; i++) ns__mem_names(a[i], &names);
    for (int i = 0; i < nb; i++) ns__mem_names(b[i], &names);
    size_t nn = names.count;
    double *ma = ns_xcalloc((size_t)na * nn + 1, sizeof *ma);
    double *mb = ns_xcalloc((size_t)nb * nn + 1, sizeof *mb);
    for (int i = 0; i < na; i++) ns__mem_sums(a[i], &names, ma + (size_t)i * nn);
    for (int i = 0; i < nb; i++) ns__mem_sums(b[i], &names, mb + (size_t)i * nn);
    double *va = ns_xcalloc((size_t)na + 1, sizeof *va);
    double *vb = ns_xcalloc((size_t)nb + 1, sizeof *vb);
    ns_buf name = {0};
    ns_diff_row row;
    int first = d->nrows;
    for (size_t k = 0; k < nn; k++) {
        for (int i = 0; i < na; i++) va[i] = ma[(size_t)i * nn + k];
        for (int i = 0; i < nb; i++) vb[i] = mb[(size_t)i * nn + k];
        name.len = 0;
        ns_buf_printf(&name, "mem:%s", names.keys[k]);
        ns_diff_row_make(&row, name.data, NS_DIFF_MEMORY, va, (size_t)na, vb, (size_t)nb, o);
        ns__push(d, &row);
    }
    if (d->nrows - first > 1)
        qsort(d->rows + first, (size_t)(d->nrows - first), sizeof *d->rows, ns__cmp_pass);
    ns_buf_free(&name);
    free(va);
    free(vb);
    free(ma);
    free(mb);
    ns_strmap_free(&names);
}

/* ====== Stages, metrics ====== */

/* The values of field f in each run. */
static void ns__field_values(const ns_run *const *runs, int n, const ns_field *f, double *v) {
    for (int i = 0; i < n; i++) v[i] = ns_run_value(runs[i], f);
}

void ns_diff_stages(const ns_run *const *a, int na, const ns_run *const *b, int nb,
                    const ns_diff_opts *o, ns_stage_sel *sel, ns_diff *d) {
    ns_strmap names;
    ns_strmap_init(&names);
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < (s ? nb : na); i++) {
            const ns_run *r = (s ? b : a)[i];
            for (int k = 0; k < r->nreports; k++) {
                const ns_stage_map *m = ns_stage_sel_pick(sel, r->reports[k]);
                for (int st = 0; st < ns_stage_count(m); st++)
                    ns_strmap_intern(&names, ns_stage_name(m, st), NULL);
            }
        }
    /* the metric rows come last: the stage rows go before them */
    int at = d->nrows;
    while (at > 0 && d->rows[at - 1].kind == NS_DIFF_METRIC) at--;
    int nmetrics = d->nrows - at;
    ns_diff_row *metrics = ns_xcalloc((size_t)nmetrics + 1, sizeof *metrics);
    memcpy(metrics, d->rows + at, sizeof *metrics * (size_t)nmetrics);
    d->nrows = at;
    double *va = ns_xcalloc((size_t)na + 1, sizeof *va);
    double *vb = ns_xcalloc((size_t)nb + 1, sizeof *vb);
    ns_buf name = {0};
    ns_diff_row row;
    for (size_t k = 0; k < names.count; k++) {
        ns_field f = {NS_FIELD_STAGE, names.keys[k], names.keys[k], sel};
        ns__field_values(a, na, &f, va);
        ns__field_values(b, nb, &f, vb);
        name.len = 0;
        ns_buf_printf(&name, "stage:%s", names.keys[k]);
        ns_diff_row_make(&row, name.data, NS_DIFF_STAGE, va, (size_t)na, vb, (size_t)nb, o);
        ns__push(d, &row);
    }
    for (int i = 0; i < nmetrics; i++) ns__push(d, &metrics[i]);
    free(metrics);
    free(va);
    free(vb);
    ns_buf_free(&name);
    ns_strmap_free(&names);
}

void ns_diff_runs(const ns_run *const *a, int na, const ns_run *const *b, int nb,
                  const ns_diff_opts *o, ns_diff *d) {
    memset(d, 0, sizeof *d);
    double *va = ns_xcalloc((size_t)na + 1, sizeof *va);
    double *vb = ns_xcalloc((size_t)nb + 1, sizeof *vb);
    ns_diff_row row;

    /* total */
    for (int i = 0; i < na; i++) va[i] = a[i]->wall_s;
    for (int i = 0; i < nb; i++) vb[i] = b[i]->wall_s;
    ns_diff_row_make(&row, "total", NS_DIFF_TOTAL, va, (size_t)na, vb, (size_t)nb, o);
    ns__push(d, &row);

    /* passes: every name either side printed */
    ns_strmap names;
    ns_strmap_init(&names);
    for (int i = 0; i < na; i++) ns_run_pass_names(a[i], &names);
    for (int i = 0; i < nb; i++) ns_run_pass_names(b[i], &names);
    double *pa = ns__pass_matrix_new(a, na, &names), *pb = ns__pass_matrix_new(b, nb, &names);
    int first_pass = d->nrows;
    for (size_t k = 0; k < names.count; k++) {
        for (int i = 0; i < na; i++) va[i] = pa[(size_t)i * names.count + k];
        for (int i = 0; i < nb; i++) vb[i] = pb[(size_t)i * names.count + k];
        ns_diff_row_make(&row, names.keys[k], NS_DIFF_PASS, va, (size_t)na, vb, (size_t)nb, o);
        int tiny = !(row.a_median >= NS_DIFF_TINY_S) && !(row.b_median >= NS_DIFF_TINY_S);
        if (tiny && !o->all) {
            d->skipped++;
            free(row.name);
            continue;
        }
        ns__push(d, &row);
    }
    if (d->nrows - first_pass > 1)
        qsort(d->rows + first_pass, (size_t)(d->nrows - first_pass), sizeof *d->rows,
              ns__cmp_pass);
    free(pa);
    free(pb);
    ns_strmap_free(&names);

    /* the passes' memory increases, where the runs have them */
    ns__diff_memory(a, na, b, nb, o, d);

    /* metrics: every name either side has, sorted */
    const char **metrics = NULL;
    int nmetrics = 0;
    for (int s = 0; s < 2; s++) {
        const ns_run *const *runs = s ? b : a;
        for (int i = 0; i < (s ? nb : na); i++)
            for (int m = 0; m < runs[i]->nmetrics; m++) {
                metrics = ns_xrealloc(metrics, sizeof *metrics * (size_t)(nmetrics + 1));
                metrics[nmetrics++] = runs[i]->metrics[m].name;
            }
    }
    if (nmetrics) qsort(metrics, (size_t)nmetrics, sizeof *metrics, ns__cmp_str);
    ns_buf name = {0};
    for (int m = 0; m < nmetrics; m++) {
        if (m && strcmp(metrics[m], metrics[m - 1]) == 0) continue;
        ns_field f = {NS_FIELD_METRIC, metrics[m], metrics[m], NULL};
        ns__field_values(a, na, &f, va);
        ns__field_values(b, nb, &f, vb);
        name.len = 0;
        ns_buf_printf(&name, "metric:%s", metrics[m]);
        ns_diff_row_make(&row, name.data, NS_DIFF_METRIC, va, (size_t)na, vb, (size_t)nb, o);
        ns__push(d, &row);
    }
    ns_buf_free(&name);
    free(metrics);
    free(va);
    free(vb);
}

void ns_diff_free(ns_diff *d) {
    for (int i = 0; i < d->nrows; i++) free(d->rows[i].name);
    free(d->rows);
    memset(d, 0, sizeof *d);
}
