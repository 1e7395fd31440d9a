/* diff.c -- the rows of an A/B comparison (see diff.h for the rule).
 *
 * The statistics are stats.c's: medians, the Hodges-Lehmann shift and its
 * interval, the Mann-Whitney p (exact while cheap).  This file gathers each row's values from the
 * runs, applies the verdict rule, and orders the rows: total first, then
 * the passes by A's median, heaviest first (ties by name), then the passes'
 * memory increases ("mem:NAME") in the same order, then the stages
 * in the order the maps declare them (first seen over the runs, A first),
 * then the metrics by name.  It prints nothing.
 *
 * The rows are made from summaries of the runs' trees (ns_diff_sums: per
 * name a sum), not from the trees: `diff` summarises each run as it is
 * read and frees its trees, so a history of 100,000 runs is never in
 * memory; ns_diff_runs (the report page's A/B) summarises trees it is
 * handed.  The sums are taken row by row in the order the tree walks
 * always took them, so every value is the same double as before.
 */
#include "analyse/diff.h"

#include "analyse/dataset.h"
#include "analyse/stats.h"
#include "base/strmap.h"
#include "model/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== One row ====== */

double ns_diff_ci_level(const ns_diff_opts *o) {
    double level = 1 - 2 * o->alpha;
    return level > 0 ? level : 0.5;
}

const char *ns_diff_verdict(int higher_better, double p, double shift, double lo, double hi,
                            double a_median, const ns_diff_opts *o) {
    if (p < o->alpha && isfinite(shift) && !isnan(a_median) && shift != 0) {
        /* A's median 0: any real shift is infinitely many percent of it */
        double rel = a_median != 0 ? fabs(shift) / fabs(a_median) : INFINITY;
        if (rel * 100 > o->threshold) return (shift > 0) == (higher_better != 0) ? "faster" : "slower";
    }
    /* the equivalence check: the shift's interval inside +-threshold */
    double bound = fabs(a_median) * o->threshold / 100;
    if (!isnan(bound) && lo >= -bound && hi <= bound) return "same";
    return "inconclusive";
}

void ns_diff_verdict_text(ns_buf *b, const ns_diff_row *r) {
    ns_buf_puts(b, r->verdict);
    if ((r->kind == NS_DIFF_METRIC || r->kind == NS_DIFF_MEMORY) &&
        (strcmp(r->verdict, "slower") == 0 || strcmp(r->verdict, "faster") == 0))
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
    row->shift = ns_hodges_lehmann_ci(va, row->a_n, vb, row->b_n, ns_diff_ci_level(o),
                                      &row->ci_lo, &row->ci_hi);
    row->a_median = ns_median(va, row->a_n);
    row->b_median = ns_median(vb, row->b_n);
    row->ratio = row->a_median != 0 ? row->b_median / row->a_median : NAN;
    if (!isfinite(row->ratio)) row->ratio = NAN;
    row->verdict = ns_diff_verdict(row->higher_better, row->p, row->shift, row->ci_lo, row->ci_hi,
                                   row->a_median, o);
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
    int na = isnan(a->a_median) != 0, nb = isnan(b->a_median) != 0; /* 0 or 1 */
    if (na != nb) return na - nb;
    if (!na && a->a_median != b->a_median) return a->a_median > b->a_median ? -1 : 1;
    return strcmp(a->name, b->name);
}

static int ns__cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* ====== Summaries of a run's trees ======
 * One walk over each report gives every number a row needs: the wall sum
 * of each row name (taken node by node in tree order, as ns_run_pass_sums
 * takes it, so each sum is the same double), the kB sum of each memory
 * line's name (in the order the memory rows always summed them), and, with
 * a stage selection, each stage's self time over the main reports
 * (ns_run_value's stage:NAME: all stages of a report's map from one
 * assignment instead of one assignment per name). */

void ns_diff_keep_init(ns_diff_keep *k, ns_stage_sel *sel) {
    memset(k, 0, sizeof *k);
    ns_strmap_init(&k->names);
    ns_strmap_init(&k->stages);
    k->sel = sel;
}

void ns_diff_keep_free(ns_diff_keep *k) {
    ns_strmap_free(&k->names);
    ns_strmap_free(&k->stages);
    free(k->at);
    memset(k, 0, sizeof *k);
}

static void ns__list_free(ns_diff_list *l) {
    free(l->id);
    free(l->v);
    memset(l, 0, sizeof *l);
}

void ns_diff_sums_free(ns_diff_sums *s) {
    ns__list_free(&s->rows);
    ns__list_free(&s->mem);
    ns__list_free(&s->stages);
    free(s->maps);
    memset(s, 0, sizeof *s);
}

/* The entry of name id in l (made, 0, on first sight: k->at remembers it
 * while one list of one run is made). */
static int ns__entry(ns_diff_keep *k, ns_diff_list *l, size_t id) {
    k->at = ns_grow_zeroed(k->at, &k->nat, id, sizeof *k->at);
    if (k->at[id]) return (int)(k->at[id] - 1);
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->id = ns_xrealloc(l->id, sizeof *l->id * (size_t)l->cap);
        l->v = ns_xrealloc(l->v, sizeof *l->v * (size_t)l->cap);
    }
    l->id[l->n] = (unsigned)id;
    l->v[l->n] = 0;
    k->at[id] = (size_t)++l->n;
    return l->n - 1;
}

/* Forget the entries of l in k->at (before the next list is made). */
static void ns__entries_done(ns_diff_keep *k, const ns_diff_list *l, unsigned mask) {
    for (int i = 0; i < l->n; i++) k->at[l->id[i] & mask] = 0;
}

/* Trim a finished list to its size: a comparison keeps thousands. */
static void ns__list_trim(ns_diff_list *l) {
    if (l->n == l->cap || l->n == 0) return;
    l->cap = l->n;
    l->id = ns_xrealloc(l->id, sizeof *l->id * (size_t)l->n);
    l->v = ns_xrealloc(l->v, sizeof *l->v * (size_t)l->n);
}

static void ns__keep_rows(ns_diff_keep *k, const ns_run *r, ns_diff_sums *out) {
    for (int i = 0; i < r->nreports; i++) {
        const ns_report *rep = r->reports[i];
        if (!rep || !rep->root) continue;
        for (const ns_node *n = rep->root->child; n; n = ns_node_next((ns_node *)n, rep->root)) {
            int f = ns_report_row_flags(rep, n);
            if ((f & NS_ROW_NOT) || (f & (NS_ROW_PASS | NS_ROW_INSIDE)) == NS_ROW_INSIDE) continue;
            int e = ns__entry(k, &out->rows, ns_strmap_intern(&k->names, n->name, NULL));
            if (f & NS_ROW_PASS) out->rows.id[e] |= NS_DIFF_IS_PASS;
            ns_num w = n->val[NS_COL_WALL];
            if (!(f & NS_ROW_INSIDE) && ns_num_present(w) && isfinite(w.v)) out->rows.v[e] += w.v;
        }
    }
    ns__entries_done(k, &out->rows, ~NS_DIFF_IS_PASS);
}

static void ns__keep_mem(ns_diff_keep *k, const ns_run *r, ns_diff_sums *out) {
    for (int i = 0; i < r->nreports; i++) {
        const ns_report *rep = r->reports[i];
        if (!(rep->cols & NS_COLBIT(NS_COL_MEM_INC))) continue;
        out->has_mem = 1;
        for (ns_node *n = rep->root; n; n = ns_node_next(n, rep->root)) {
            ns_num x = n->val[NS_COL_MEM_INC];
            if (!ns_num_present(x)) continue;
            int e = ns__entry(k, &out->mem, ns_strmap_intern(&k->names, n->name, NULL));
            if (isfinite(x.v)) out->mem.v[e] += x.v;
        }
    }
    ns__entries_done(k, &out->mem, ~0u);
}

static void ns__keep_stages(ns_diff_keep *k, const ns_run *r, ns_diff_sums *out) {
    for (int i = 0; i < r->nreports; i++) {
        const ns_report *rep = r->reports[i];
        const ns_stage_map *m = ns_stage_sel_pick(k->sel, rep);
        int seen = 0;
        for (int j = 0; j < out->nmaps && !seen; j++) seen = out->maps[j] == m;
        if (!seen) {
            out->maps = ns_xrealloc(out->maps, sizeof *out->maps * (size_t)(out->nmaps + 1));
            out->maps[out->nmaps++] = m;
        }
        if (!ns_report_is_main(rep) || !rep->root) continue; /* inside a main report */
        long cnt;
        ns_stage_of *of = ns_stage_assign_new(m, rep, &cnt);
        double *self = ns_xcalloc((size_t)ns_stage_count(m) + 1, sizeof *self);
        ns_stage_sums ss;
        ss.self = self;
        ns_stage_sum(m, rep, of, &ss);
        for (int st = 0; st < ns_stage_count(m); st++) {
            const char *name = ns_stage_name(m, st);
            if (ns_stage_find(m, name) != st) continue; /* a name is its first stage */
            int e = ns__entry(k, &out->stages, ns_strmap_intern(&k->stages, name, NULL));
            out->stages.v[e] += isfinite(self[st]) ? self[st] : 0;
        }
        free(self);
        free(of);
    }
    ns__entries_done(k, &out->stages, ~0u);
}

void ns_diff_keep_run(ns_diff_keep *k, const ns_run *r, ns_diff_sums *out) {
    memset(out, 0, sizeof *out);
    out->has_reports = r->nreports > 0;
    ns__keep_rows(k, r, out);
    ns__keep_mem(k, r, out);
    if (k->sel) ns__keep_stages(k, r, out);
    ns__list_trim(&out->rows);
    ns__list_trim(&out->mem);
    ns__list_trim(&out->stages);
}

/* ====== Every row ====== */

/* col[id] = the column of name id among the names in the lists of every
 * run of both sides (first seen first; the memory lists or the pass names
 * of the row lists), -1 for the others; returns how many columns, their
 * ids in *ids. */
static size_t ns__columns(size_t nnames, const ns_diff_sums *const *sa, int na,
                          const ns_diff_sums *const *sb, int nb, int mem, long **col,
                          unsigned **ids) {
    *col = ns_xcalloc(nnames + 1, sizeof **col);
    *ids = ns_xcalloc(nnames + 1, sizeof **ids);
    for (size_t i = 0; i < nnames; i++) (*col)[i] = -1;
    size_t nc = 0;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < (s ? nb : na); i++) {
            const ns_diff_sums *x = (s ? sb : sa)[i];
            const ns_diff_list *l = mem ? &x->mem : &x->rows;
            for (int e = 0; e < l->n; e++) {
                if (!mem && !(l->id[e] & NS_DIFF_IS_PASS)) continue;
                unsigned id = l->id[e] & ~NS_DIFF_IS_PASS;
                if ((*col)[id] >= 0) continue;
                (*col)[id] = (long)nc;
                (*ids)[nc++] = id;
            }
        }
    return nc;
}

/* v[run * nc + c]: the run's value of column c -- its sum, 0 where the
 * run lacks the name, NaN where it has no value at all (no reports; no
 * per-pass memory). */
static double *ns__matrix_new(const ns_diff_sums *const *s, int n, int mem, const long *col,
                              size_t nc) {
    double *v = ns_xcalloc((size_t)n * nc + 1, sizeof *v);
    for (int i = 0; i < n; i++) {
        double *row = v + (size_t)i * nc;
        int has = mem ? s[i]->has_mem : s[i]->has_reports;
        for (size_t c = 0; c < nc; c++) row[c] = has ? 0 : NAN;
        if (!has) continue;
        const ns_diff_list *l = mem ? &s[i]->mem : &s[i]->rows;
        for (int e = 0; e < l->n; e++) {
            long c = col[l->id[e] & ~NS_DIFF_IS_PASS];
            if (c >= 0) row[c] = l->v[e];
        }
    }
    return v;
}

/* The pass rows (mem 0) or the "mem:NAME" rows (1), pushed in A's median
 * order. */
static void ns__diff_names(const ns_diff_keep *k, const ns_diff_sums *const *sa, int na,
                           const ns_diff_sums *const *sb, int nb, int mem,
                           const ns_diff_opts *o, ns_diff *d) {
    long *col;
    unsigned *ids;
    size_t nc = ns__columns(k->names.count, sa, na, sb, nb, mem, &col, &ids);
    double *ma = ns__matrix_new(sa, na, mem, col, nc), *mb = ns__matrix_new(sb, nb, mem, col, nc);
    double *va = ns_xcalloc((size_t)na + 1, sizeof *va);
    double *vb = ns_xcalloc((size_t)nb + 1, sizeof *vb);
    ns_buf name = {0};
    ns_diff_row row;
    int first = d->nrows;
    for (size_t c = 0; c < nc; c++) {
        for (int i = 0; i < na; i++) va[i] = ma[(size_t)i * nc + c];
        for (int i = 0; i < nb; i++) vb[i] = mb[(size_t)i * nc + c];
        const char *key = k->names.keys[ids[c]];
        if (mem) {
            name.len = 0;
            ns_buf_printf(&name, "mem:%s", key);
            ns_diff_row_make(&row, name.data, NS_DIFF_MEMORY, va, (size_t)na, vb, (size_t)nb, o);
        } else {
            ns_diff_row_make(&row, key, NS_DIFF_PASS, va, (size_t)na, vb, (size_t)nb, o);
            int tiny = !(row.a_median >= NS_DIFF_TINY_S) && !(row.b_median >= NS_DIFF_TINY_S);
            if (tiny && !o->all) {
                d->skipped++;
                free(row.name);
                continue;
            }
        }
        ns__push(d, &row);
    }
    if (d->nrows - first > 1)
        qsort(d->rows + first, (size_t)(d->nrows - first), sizeof *d->rows, ns__cmp_pass);
    ns_buf_free(&name);
    free(va);
    free(vb);
    free(ma);
    free(mb);
    free(col);
    free(ids);
}

/* A run's stage values by column (NaN: no main report of it is mapped
 * with that stage). */
static void ns__stage_values(const ns_diff_sums *s, const long *col, size_t nc, double *v) {
    for (size_t c = 0; c < nc; c++) v[c] = NAN;
    for (int e = 0; e < s->stages.n; e++) {
        long c = col[s->stages.id[e]];
        if (c >= 0) v[c] = s->stages.v[e];
    }
}

/* The "stage:NAME" rows, in the maps' order (first seen, A first). */
static void ns__diff_stages(const ns_diff_keep *k, const ns_diff_sums *const *sa, int na,
                            const ns_diff_sums *const *sb, int nb, const ns_diff_opts *o,
                            ns_diff *d) {
    ns_strmap order;
    ns_strmap_init(&order);
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < (s ? nb : na); i++) {
            const ns_diff_sums *x = (s ? sb : sa)[i];
            for (int j = 0; j < x->nmaps; j++)
                for (int st = 0; st < ns_stage_count(x->maps[j]); st++)
                    ns_strmap_intern(&order, ns_stage_name(x->maps[j], st), NULL);
        }
    size_t nc = order.count;
    long *col = ns_xcalloc(k->stages.count + 1, sizeof *col);
    for (size_t i = 0; i < k->stages.count; i++) {
        size_t c = ns_strmap_find(&order, k->stages.keys[i]);
        col[i] = c == (size_t)-1 ? -1 : (long)c;
    }
    double *ma = ns_xcalloc((size_t)na * nc + 1, sizeof *ma);
    double *mb = ns_xcalloc((size_t)nb * nc + 1, sizeof *mb);
    for (int i = 0; i < na; i++) ns__stage_values(sa[i], col, nc, ma + (size_t)i * nc);
    for (int i = 0; i < nb; i++) ns__stage_values(sb[i], col, nc, mb + (size_t)i * nc);
    double *va = ns_xcalloc((size_t)na + 1, sizeof *va);
    double *vb = ns_xcalloc((size_t)nb + 1, sizeof *vb);
    ns_buf name = {0};
    ns_diff_row row;
    for (size_t c = 0; c < nc; c++) {
        for (int i = 0; i < na; i++) va[i] = ma[(size_t)i * nc + c];
        for (int i = 0; i < nb; i++) vb[i] = mb[(size_t)i * nc + c];
        name.len = 0;
        ns_buf_printf(&name, "stage:%s", order.keys[c]);
        ns_diff_row_make(&row, name.data, NS_DIFF_STAGE, va, (size_t)na, vb, (size_t)nb, o);
        ns__push(d, &row);
    }
    ns_buf_free(&name);
    free(va);
    free(vb);
    free(ma);
    free(mb);
    free(col);
    ns_strmap_free(&order);
}

/* The values of field f in each run. */
static void ns__field_values(const ns_run *const *runs, int n, const ns_field *f, double *v) {
    for (int i = 0; i < n; i++) v[i] = ns_run_value(runs[i], f);
}

void ns_diff_summed(const ns_diff_keep *k, const ns_run *const *a, const ns_diff_sums *const *sa,
                    int na, const ns_run *const *b, const ns_diff_sums *const *sb, int nb,
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

    /* passes: every name either side printed; their memory increases; stages */
    ns__diff_names(k, sa, na, sb, nb, 0, o, d);
    ns__diff_names(k, sa, na, sb, nb, 1, o, d);
    if (k->sel) ns__diff_stages(k, sa, na, sb, nb, o, d);

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

void ns_diff_runs(const ns_run *const *a, int na, const ns_run *const *b, int nb,
                  const ns_diff_opts *o, ns_diff *d) {
    ns_diff_keep k;
    ns_diff_keep_init(&k, NULL);
    ns_diff_sums *s = ns_xcalloc((size_t)(na + nb) + 1, sizeof *s);
    const ns_diff_sums **p = ns_xcalloc((size_t)(na + nb) + 1, sizeof *p);
    for (int i = 0; i < na + nb; i++) {
        ns_diff_keep_run(&k, i < na ? a[i] : b[i - na], &s[i]);
        p[i] = &s[i];
    }
    ns_diff_summed(&k, a, p, na, b, p + na, nb, o, d);
    for (int i = 0; i < na + nb; i++) ns_diff_sums_free(&s[i]);
    free(s);
    free(p);
    ns_diff_keep_free(&k);
}

void ns_diff_free(ns_diff *d) {
    for (int i = 0; i < d->nrows; i++) free(d->rows[i].name);
    free(d->rows);
    memset(d, 0, sizeof *d);
}
