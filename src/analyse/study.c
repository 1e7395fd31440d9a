/* study.c -- the synthesis of a sweep (study.h): cells, regimes, their
 * compact descriptions and the fits the sweep supports.
 *
 * Everything is read off the table engine's rows and summaries of the
 * runs' timing reports (ns_study_sums: made from the trees here, or kept
 * run by run by a command that frees the trees as it reads); nothing is
 * printed.  The one judgement made here is which
 * fits a sweep "supports": an axis (or size_b) with 3 or more distinct
 * values, so that the 95% interval exists, and a workload fact the
 * reports carry for the pass that rules a regime.
 */
#include "analyse/study.h"

#include "model/load.h"
#include "analyse/stats.h"
#include "base/strmap.h"
#include "model/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ====== Cells ====== */

/* The heaviest leaf pass of stage `stage` over the reports of a run (ties
 * by name), from its summary, with its share of the summed report totals. */
static const char *ns__regime_pass(const ns_study_sums *r, const ns_study_keep *k,
                                   const char *stage, double *share) {
    *share = NAN;
    size_t id = ns_strmap_find(&k->names, stage);
    for (int i = 0; id != (size_t)-1 && i < r->ntops; i++)
        if (r->tops[i].stage == id) {
            if (r->total > 0) *share = r->tops[i].wall / r->total;
            return k->names.keys[r->tops[i].pass];
        }
    return NULL;
}

/* Entries for an array that holds n: grown at powers of two. */
static int ns__grows(int n) { return n == 0 || (n & (n - 1)) == 0; }

/* The cells: each configuration's compile row with a regime. */
static void ns__cells(ns_study *s, const ns_table *t, const ns_study_sums *sums,
                      const ns_study_keep *k) {
    /* a configuration has one compile row: cold before none (its group
     * number, ns_config_groups_new, says which rows are one configuration) */
    const ns_config **cf = ns_xcalloc((size_t)t->nrows + 1, sizeof *cf);
    for (int i = 0; i < t->nrows; i++) cf[i] = &t->rows[i].cfg;
    int ng, *g = ns_config_groups_new(cf, t->nrows, &ng);
    char *has = ns_xcalloc((size_t)ng + 1, 1);
    free(cf);
    for (int i = 0; i < t->nrows; i++) {
        const ns_table_row *row = &t->rows[i];
        if (!row->n || row->regime < 0 || !strcmp(row->cfg.mode, "warm")) continue;
        if (has[g[i]]) continue;
        has[g[i]] = 1;
        if (ns__grows(s->ncells))
            s->cells = ns_xrealloc(s->cells, sizeof *s->cells * (size_t)(s->ncells ? 2 * s->ncells : 1));
        ns_study_cell *c = &s->cells[s->ncells++];
        c->row = row;
        c->regime = row->regime;
        c->share = NAN;
        c->pass = NULL;
        if (row->median_run >= 0)
            c->pass = ns__regime_pass(&sums[row->median_run], k, t->stages.keys[row->regime],
                                      &c->share);
    }
    free(has);
    free(g);
}

/* ====== Axes ====== */

/* The distinct values of tag key over the cells, sorted (numbers as numbers). */
static int ns__cmp_text(const void *a, const void *b) {
    return ns_text_cmp(*(const char *const *)a, *(const char *const *)b);
}
static const char **ns__values_new(const ns_study *s, const char *key, int *n) {
    const char **v = ns_xcalloc((size_t)s->ncells + 1, sizeof *v);
    *n = 0;
    ns_strmap seen; /* a scan of the values seen was quadratic */
    ns_strmap_init(&seen);
    for (int i = 0; i < s->ncells; i++) {
        const char *x = ns_table_tag(s->cells[i].row, key);
        if (!x) continue;
        int added;
        ns_strmap_intern(&seen, x, &added);
        if (added) v[(*n)++] = x;
    }
    ns_strmap_free(&seen);
    qsort(v, (size_t)*n, sizeof *v, ns__cmp_text);
    return v;
}
static int ns__numeric(const char *const *v, int n) {
    double d;
    for (int i = 0; i < n; i++)
        if (!ns_text_number(v[i], &d)) return 0;
    return n > 0;
}
static int ns__index(const char *const *v, int n, const char *x) {
    for (int i = 0; x && i < n; i++)
        if (!strcmp(v[i], x)) return i;
    return -1;
}

/* ====== Describing a regime's cells ====== */

/* The marked values of the numeric axis as ranges of neighbours. */
static void ns__ranges(ns_buf *b, const char *const *v, int n, const char *mark) {
    int first = 1;
    for (int i = 0; i < n;) {
        if (!mark[i]) { i++; continue; }
        int j = i;
        while (j + 1 < n && mark[j + 1]) j++;
        ns_buf_printf(b, "%s%s", first ? "" : ", ", v[i]);
        if (j > i) ns_buf_printf(b, "\xe2\x80\x93%s", v[j]);
        first = 0;
        i = j + 1;
    }
}

typedef struct {
    const char *key;  /* the axis */
    const char **v;   /* its sweep values, sorted (owned array) */
    int n;            /* entries in v */
} ns__axis;

/* One value `fv` of the first axis: "qwen2-7b at windows 1024-4096 (all
 * precisions)", or one part per set of other-axis values that share the
 * same numeric values. */
static void ns__describe_one(ns_buf *b, const ns_study *s, const int *cs, int nc,
                             const ns__axis *ax, int nax, int num, const char *fv) {
    ns_buf_puts(b, fv);
    if (num < 0) { /* no numeric axis: the other values */
        for (int a = 1; a < nax; a++) {
            char *mark = ns_xcalloc((size_t)ax[a].n + 1, 1);
            int k = 0;
            for (int i = 0; i < nc; i++) {
                int at = ns__index(ax[a].v, ax[a].n, ns_table_tag(s->cells[cs[i]].row, ax[a].key));
                if (at >= 0 && !mark[at]) mark[at] = 1, k++;
            }
            if (k == ax[a].n) ns_buf_printf(b, " (all %ss)", ax[a].key);
            else {
                ns_buf_printf(b, " %s ", ax[a].key);
                for (int i = 0, f = 1; i < ax[a].n; i++)
                    if (mark[i]) ns_buf_printf(b, "%s%s", f ? "" : ",", ax[a].v[i]), f = 0;
            }
            free(mark);
        }
        return;
    }
    /* the other axes' values of each cell, joined: its "combo" */
    ns_strmap combos;
    ns_strmap_init(&combos);
    char **mark = NULL; /* per combo: which numeric values */
    for (int i = 0; i < nc; i++) {
        ns_buf key = {0};
        for (int a = 1; a < nax; a++) {
            if (a == num) continue;
            const char *x = ns_table_tag(s->cells[cs[i]].row, ax[a].key);
            ns_buf_printf(&key, "%s%s", key.len ? " " : "", x ? x : "-");
        }
        int added;
        size_t at = ns_strmap_intern(&combos, key.data ? key.data : "", &added);
        ns_buf_free(&key);
        if (added) mark = ns_xrealloc(mark, sizeof *mark * (at + 1)), mark[at] = ns_xcalloc((size_t)ax[num].n + 1, 1);
        int vi = ns__index(ax[num].v, ax[num].n, ns_table_tag(s->cells[cs[i]].row, ax[num].key));
        if (vi >= 0) mark[at][vi] = 1;
    }
    /* every combo of the other axes present, with one numeric set? */
    long all = 1;
    for (int a = 1; a < nax; a++)
        if (a != num) all *= ax[a].n;
    int same = 1;
    for (size_t c = 1; c < combos.count && same; c++)
        same = !memcmp(mark[c], mark[0], (size_t)ax[num].n);
    int marked = 0;
    for (int i = 0; i < ax[num].n; i++) marked += mark[0][i] != 0;
    ns_buf_printf(b, " at %s%s ", ax[num].key, marked > 1 || !same ? "s" : "");
    if (same && (long)combos.count == all) {
        ns__ranges(b, ax[num].v, ax[num].n, mark[0]);
        if (nax > 2) {
            ns_buf_puts(b, " (all");
            for (int a = 1; a < nax; a++)
                if (a != num) ns_buf_printf(b, " %ss", ax[a].key);
            ns_buf_putc(b, ')');
        }
    } else {
        /* parts: combos with the same numeric set, in order of first appearance */
        char *done = ns_xcalloc(combos.count + 1, 1);
        for (size_t c = 0, first = 1; c < combos.count; c++) {
            if (done[c]) continue;
            ns_buf_puts(b, first ? "" : ", ");
            first = 0;
            ns__ranges(b, ax[num].v, ax[num].n, mark[c]);
            ns_buf_puts(b, " (");
            for (size_t d = c, f = 1; d < combos.count; d++)
                if (!done[d] && !memcmp(mark[d], mark[c], (size_t)ax[num].n)) {
                    ns_buf_printf(b, "%s%s", f ? "" : ", ", combos.keys[d]);
                    done[d] = 1;
                    f = 0;
                }
            ns_buf_putc(b, ')');
        }
        free(done);
    }
    for (size_t c = 0; c < combos.count; c++) free(mark[c]);
    free(mark);
    ns_strmap_free(&combos);
}

/* The regime's cells by value of the first axis (in cell order), through
 * a hash map of its values: one pass, where a scan per value was
 * quadratic at 20,000 configurations. */
static void ns__describe(ns_study *s, ns_study_regime *g, const ns__axis *ax, int nax, int num) {
    ns_buf b = {0};
    if (nax == 0) ns_buf_printf(&b, "%d configurations", g->ncells);
    if (nax) {
        ns_strmap vals;
        ns_strmap_init(&vals);
        for (int i = 0; i < ax[0].n; i++) {
            int added;
            ns_strmap_intern(&vals, ax[0].v[i], &added);
        }
        int *vi = ns_xcalloc((size_t)g->ncells + 1, sizeof *vi);
        int *start = ns_xcalloc((size_t)vals.count + 2, sizeof *start);
        int *fill = ns_xcalloc((size_t)vals.count + 1, sizeof *fill);
        int *cs = ns_xcalloc((size_t)g->ncells + 1, sizeof *cs);
        for (int c = 0; c < g->ncells; c++) {
            const char *x = ns_table_tag(s->cells[g->cells[c]].row, ax[0].key);
            size_t at = x ? ns_strmap_find(&vals, x) : (size_t)-1;
            vi[c] = at == (size_t)-1 ? -1 : (int)at;
            if (vi[c] >= 0) start[vi[c] + 1]++;
        }
        for (size_t v = 0; v < vals.count; v++) start[v + 1] += start[v];
        for (int c = 0; c < g->ncells; c++)
            if (vi[c] >= 0) cs[start[vi[c]] + fill[vi[c]]++] = g->cells[c];
        for (int i = 0; i < ax[0].n; i++) {
            size_t v = ns_strmap_find(&vals, ax[0].v[i]);
            int nc = start[v + 1] - start[v];
            if (!nc || (size_t)i != v) continue; /* no cell; or a repeated value, said once */
            if (b.len) ns_buf_puts(&b, "; ");
            ns__describe_one(&b, s, cs + start[v], nc, ax, nax, num, ax[0].v[i]);
        }
        free(cs);
        free(fill);
        free(start);
        free(vi);
        ns_strmap_free(&vals);
    }
    g->where = b.data ? b.data : ns_strdup("");
}

/* ====== Regimes ====== */

static void ns__regimes(ns_study *s, const ns_table *t, ns_study_fix_fn fix) {
    for (size_t k = 0; k < t->stages.count; k++) {
        int n = 0;
        for (int i = 0; i < s->ncells; i++) n += s->cells[i].regime == (int)k;
        if (!n) continue;
        s->regimes = ns_xrealloc(s->regimes, sizeof *s->regimes * (size_t)(s->nregimes + 1));
        ns_study_regime *g = &s->regimes[s->nregimes++];
        memset(g, 0, sizeof *g);
        g->stage = t->stages.keys[k];
        g->cells = ns_xcalloc((size_t)n, sizeof *g->cells);
        for (int i = 0; i < s->ncells; i++)
            if (s->cells[i].regime == (int)k) g->cells[g->ncells++] = i;
        /* the most frequent dominant pass, ties by name (counted in a hash
         * map: counting by pairs was quadratic) */
        int best = 0;
        ns_strmap passes;
        ns_strmap_init(&passes);
        int *count = ns_xcalloc((size_t)g->ncells + 1, sizeof *count);
        const char **name = ns_xcalloc((size_t)g->ncells + 1, sizeof *name);
        for (int i = 0; i < g->ncells; i++) {
            const char *p = s->cells[g->cells[i]].pass;
            if (!p) continue;
            int added;
            size_t at = ns_strmap_intern(&passes, p, &added);
            count[at]++;
            name[at] = p;
        }
        for (size_t at = 0; at < passes.count; at++) {
            int c = count[at];
            const char *p = name[at];
            if (c > best || (c == best && g->pass && strcmp(p, g->pass) < 0)) best = c, g->pass = p;
        }
        free(count);
        free(name);
        ns_strmap_free(&passes);
        double *v = ns_xcalloc((size_t)g->ncells + 1, sizeof *v);
        int nv = 0;
        for (int i = 0; g->pass && i < g->ncells; i++) {
            const ns_study_cell *c = &s->cells[g->cells[i]];
            if (c->pass && !strcmp(c->pass, g->pass)) v[nv++] = c->share;
        }
        g->median_share = nv ? ns_median(v, (size_t)nv) : NAN;
        free(v);
        g->fix = fix ? fix(g->stage, &g->cause) : NULL;
        if (!g->fix) g->cause = NULL;
    }
}

/* ====== Fits ====== */

/* The workload fact that drives a pass, as the study found it. */
static const struct { const char *pass, *fact; } ns__drivers[] = {
    {"FeasibleAllocation", "vpuip_tasks"},
};

static ns_study_fit *ns__new_fit(ns_study *s, const char *y, const char *x, const char *group) {
    s->fits = ns_xrealloc(s->fits, sizeof *s->fits * (size_t)(s->nfits + 1));
    ns_study_fit *f = &s->fits[s->nfits++];
    memset(f, 0, sizeof *f);
    f->y = ns_strdup(y);
    f->x = ns_strdup(x);
    f->group = group ? ns_strdup(group) : NULL;
    return f;
}

/* Keep the last fit only when it has 3 or more distinct x and a fit. */
static void ns__keep_if_fitted(ns_study *s) {
    ns_study_fit *f = &s->fits[s->nfits - 1];
    ns_fit_power(&f->fit);
    int distinct = 0;
    for (int i = 0; i < f->fit.npts; i++)
        distinct += f->fit.pts[i].used && (i == 0 || f->fit.pts[i].x != f->fit.pts[i - 1].x);
    if (f->fit.ok && distinct >= 3 && isfinite(f->fit.ci95_lo)) return;
    free(f->y), free(f->x), free(f->group), free(f->mixed);
    ns_fit_free(&f->fit);
    s->nfits--;
}

/* The tag value of a run as a number (derived tags too); NaN when none. */
static double ns__run_x(const ns_run *r, const char *key) {
    char buf[64];
    double d;
    const char *v = ns_run_tag(r, key, buf, sizeof buf);
    return v && ns_text_number(v, &d) ? d : NAN;
}

/* The key a value x is found by in a hash map (-0 as 0, as == has it). */
static const char *ns__x_key(char *buf, size_t len, double x) {
    snprintf(buf, len, "%a", x + 0.0);
    return buf;
}

/* A counted run's point: its x's place (first-seen order) and its y. */
typedef struct {
    int xi;   /* index into the x values */
    double y; /* the run's total */
} ns__xy;

/* Report total against axis x (source: the tag it comes from), one fit
 * per value of the grouping axis gk (or one fit when gk is NULL).  Each
 * fit's points: the x values in the order the cells first show them, and
 * at each every counted compile there, cells in order.  Linear: the cells
 * of each gk value, and the place of each x, are found through hash maps,
 * and the points sorted by place (a counting sort keeps the cell order):
 * 20,000 configurations on one numeric axis were 20,000^2 run visits. */
static void ns__fit_axis(ns_study *s, const ns_table *t, const ns_study_sums *sums,
                         const char *x, const char *source, const ns__axis *gk,
                         const ns__axis *ax, int nax) {
    int ng = gk ? gk->n : 1;
    /* the cells of each group value, in cell order */
    int *gstart = ns_xcalloc((size_t)ng + 2, sizeof *gstart);
    int *cells = ns_xcalloc((size_t)s->ncells + 1, sizeof *cells);
    int *cg = ns_xcalloc((size_t)s->ncells + 1, sizeof *cg);
    ns_strmap gv;
    ns_strmap_init(&gv);
    for (int gi = 0; gk && gi < gk->n; gi++) {
        int added;
        ns_strmap_intern(&gv, gk->v[gi], &added); /* index gi (the values are distinct) */
    }
    for (int c = 0; c < s->ncells; c++) {
        if (!gk) { cg[c] = 0; gstart[1]++; continue; }
        const char *v = ns_table_tag(s->cells[c].row, gk->key);
        size_t at = ns_strmap_find(&gv, v ? v : "");
        cg[c] = at == (size_t)-1 ? -1 : (int)at;
        if (cg[c] >= 0) gstart[cg[c] + 1]++;
    }
    ns_strmap_free(&gv);
    for (int gi = 0; gi < ng; gi++) gstart[gi + 1] += gstart[gi];
    int *gfill = ns_xcalloc((size_t)ng + 1, sizeof *gfill);
    for (int c = 0; c < s->ncells; c++)
        if (cg[c] >= 0) cells[gstart[cg[c]] + gfill[cg[c]]++] = c;
    free(gfill);
    free(cg);
    double *xs = ns_xcalloc((size_t)t->nruns + 1, sizeof *xs), *ys = ns_xcalloc((size_t)t->nruns + 1, sizeof *ys);
    ns__xy *pts = ns_xcalloc((size_t)t->nruns + 1, sizeof *pts);
    ns__xy *sorted = ns_xcalloc((size_t)t->nruns + 1, sizeof *sorted);
    int *start = ns_xcalloc((size_t)t->nruns + 2, sizeof *start);
    char kbuf[64];
    for (int gi = 0; gi < ng; gi++) {
        char label[300];
        if (gk) snprintf(label, sizeof label, "%s=%s", gk->key, gk->v[gi]);
        ns_study_fit *f = ns__new_fit(s, "total", x, gk ? label : NULL);
        ns_buf mixed = {0};
        for (int a = 0; a < nax; a++)
            if (strcmp(ax[a].key, source) && (!gk || strcmp(ax[a].key, gk->key)))
                ns_buf_printf(&mixed, "%s%s", mixed.len ? ", " : "", ax[a].key);
        f->mixed = mixed.data;
        const int *gc = cells + gstart[gi];
        int ngc = gstart[gi + 1] - gstart[gi];
        /* the x values, in the order the cells' first runs show them */
        ns_strmap xm;
        ns_strmap_init(&xm);
        int nx = 0;
        for (int q = 0; q < ngc; q++) {
            const ns_table_row *row = s->cells[gc[q]].row;
            if (!row->cfg.nruns) continue;
            double xv = ns__run_x(&t->runs[row->cfg.runs[0]], x);
            if (!isfinite(xv)) continue;
            int added;
            ns_strmap_intern(&xm, ns__x_key(kbuf, sizeof kbuf, xv), &added);
            if (added) xs[nx++] = xv;
        }
        /* every counted run at one of them, then by x's place */
        int np = 0;
        for (int q = 0; q < ngc; q++) {
            const ns_table_row *row = s->cells[gc[q]].row;
            for (int i = 0; i < row->cfg.nruns; i++) {
                const ns_run *r = &t->runs[row->cfg.runs[i]];
                if (!ns_run_counted(r)) continue;
                double xv = ns__run_x(r, x);
                if (isnan(xv)) continue;
                size_t at = ns_strmap_find(&xm, ns__x_key(kbuf, sizeof kbuf, xv));
                double y = sums[row->cfg.runs[i]].total_field; /* the field "total" */
                if (at != (size_t)-1 && isfinite(y)) pts[np++] = (ns__xy){(int)at, y};
            }
        }
        ns_strmap_free(&xm);
        memset(start, 0, sizeof *start * (size_t)(nx + 2));
        for (int k = 0; k < np; k++) start[pts[k].xi + 1]++;
        for (int k = 0; k < nx; k++) start[k + 1] += start[k];
        for (int k = 0; k < np; k++) sorted[start[pts[k].xi]++] = pts[k];
        for (int k = 0, j = 0; k < nx; k++) { /* start[k] is now the end of x k's points */
            int ny = 0;
            while (j < np && sorted[j].xi == k) ys[ny++] = sorted[j++].y;
            if (ny) ns_fit_add(&f->fit, xs[k], ys, (size_t)ny);
        }
        ns__keep_if_fitted(s);
    }
    free(xs);
    free(ys);
    free(pts);
    free(sorted);
    free(start);
    free(cells);
    free(gstart);
}

/* A regime's dominant pass against the fact that drives it (driver d of
 * ns__drivers), a point per report of every counted compile of the sweep. */
static void ns__fit_driver(ns_study *s, const ns_table *t, const ns_study_sums *sums, int d) {
    char fx_spec[200], fy_spec[200];
    snprintf(fx_spec, sizeof fx_spec, "fact:%s", ns__drivers[d].fact);
    snprintf(fy_spec, sizeof fy_spec, "pass:%s", ns__drivers[d].pass);
    ns_study_fit *f = ns__new_fit(s, fy_spec, fx_spec, NULL);
    f->per_report = 1;
    for (int c = 0; c < s->ncells; c++) {
        const ns_table_row *row = s->cells[c].row;
        for (int i = 0; i < row->cfg.nruns; i++) {
            if (!ns_run_counted(&t->runs[row->cfg.runs[i]])) continue;
            const ns_study_sums *r = &sums[row->cfg.runs[i]];
            for (int k = 0; k < r->npoints; k++)
                if (r->points[k].driver == d) ns_fit_add(&f->fit, r->points[k].x, &r->points[k].y, 1);
        }
    }
    ns__keep_if_fitted(s);
}

static void ns__fits(ns_study *s, const ns_table *t, const ns_study_sums *sums,
                     const ns__axis *ax, int nax) {
    /* x candidates: numeric axes, then size_b when the model tag gives it */
    for (int pass = 0; pass < 2; pass++)
        for (int a = 0; a < (pass ? 1 : nax); a++) {
            const char *x = pass ? "size_b" : ax[a].key, *source = pass ? "model" : ax[a].key;
            if (!pass && !ns__numeric(ax[a].v, ax[a].n)) continue;
            if (pass) {
                if (ns__index((const char *const *)s->axes, s->naxes, "model") < 0) continue;
                int isaxis = 0;
                for (int k = 0; k < nax; k++) isaxis |= !strcmp(ax[k].key, "size_b");
                if (isaxis) continue;
            }
            /* group by the first categorical axis that is not x's source */
            const ns__axis *gk = NULL;
            for (int k = 0; k < nax && !gk; k++)
                if (strcmp(ax[k].key, source) && !ns__numeric(ax[k].v, ax[k].n)) gk = &ax[k];
            ns__fit_axis(s, t, sums, x, source, gk, ax, nax);
        }
    for (int g = 0; g < s->nregimes; g++)
        for (size_t d = 0; s->regimes[g].pass && d < sizeof ns__drivers / sizeof ns__drivers[0]; d++)
            if (!strcmp(s->regimes[g].pass, ns__drivers[d].pass)) {
                int done = 0;
                for (int k = 0; k < s->nfits; k++) done |= s->fits[k].per_report && strstr(s->fits[k].y, ns__drivers[d].pass);
                if (!done) ns__fit_driver(s, t, sums, (int)d);
            }
}

/* ====== Summaries of a run's trees ======
 * Each number is summed node by node in the order the study's walks over
 * the trees always took, so the study from summaries is the same to the
 * bit. */

struct ns_study_own {
    ns_study_keep keep;  /* the names the cells' passes point into */
    ns_study_sums *sums; /* a summary per run of the table */
    int n;               /* entries in sums */
};

void ns_study_keep_init(ns_study_keep *k) {
    memset(k, 0, sizeof *k);
    ns_strmap_init(&k->names);
}

void ns_study_keep_free(ns_study_keep *k) {
    ns_strmap_free(&k->names);
    free(k->at);
    memset(k, 0, sizeof *k);
}

void ns_study_sums_free(ns_study_sums *s) {
    free(s->tops);
    free(s->points);
    memset(s, 0, sizeof *s);
}

/* Per stage name, its leaf passes' summed walls over the run's reports
 * (each report under its own map), then the heaviest of each (ties by
 * name): what ns__regime_pass reads for any stage.  The (stage, pass)
 * sums are found by pass id (k->at) and a chain over the stages the pass
 * was seen in (almost always one). */
typedef struct {
    unsigned stage; /* stage name id */
    unsigned pass;  /* pass name id */
    double wall;    /* summed wall of the pass's rows in that stage */
    int next;       /* the next sum of the same pass (another stage) + 1, 0: none */
} ns__pair;

static void ns__keep_tops(ns_study_keep *k, const ns_run *r, ns_stage_sel *sel,
                          ns_study_sums *out) {
    ns__pair *pairs = NULL;
    int npairs = 0, cap = 0;
    for (int q = 0; q < r->nreports; q++) {
        ns_report *rep = r->reports[q];
        const ns_stage_map *m = ns_stage_sel_pick(sel, rep);
        long cnt;
        ns_stage_of *of = ns_stage_assign_new(m, rep, &cnt);
        long at = 0;
        for (ns_node *nd = rep->root; nd && at < cnt; nd = ns_node_next(nd, rep->root), at++) {
            if (nd->kind != NS_KIND_PASS || nd->child || of[at].stage < 0) continue;
            unsigned stage = (unsigned)ns_strmap_intern(&k->names, ns_stage_name(m, of[at].stage), NULL);
            size_t pass = ns_strmap_intern(&k->names, nd->name, NULL);
            k->at = ns_grow_zeroed(k->at, &k->nat, pass, sizeof *k->at);
            int i = k->at[pass] - 1, last = -1;
            while (i >= 0 && pairs[i].stage != stage) last = i, i = pairs[i].next - 1;
            if (i < 0) {
                if (npairs == cap) {
                    cap = cap ? 2 * cap : 64;
                    pairs = ns_xrealloc(pairs, sizeof *pairs * (size_t)cap);
                }
                i = npairs++;
                pairs[i] = (ns__pair){stage, (unsigned)pass, 0, 0};
                if (last < 0) k->at[pass] = i + 1;
                else pairs[last].next = i + 1;
            }
            if (isfinite(nd->val[NS_COL_WALL].v)) pairs[i].wall += nd->val[NS_COL_WALL].v;
        }
        free(of);
    }
    for (int i = 0; i < npairs; i++) {
        k->at[pairs[i].pass] = 0; /* ready for the next run */
        int t = 0;
        while (t < out->ntops && out->tops[t].stage != pairs[i].stage) t++;
        if (t == out->ntops) {
            out->tops = ns_xrealloc(out->tops, sizeof *out->tops * (size_t)(out->ntops + 1));
            out->tops[out->ntops++] = (ns_study_top){pairs[i].stage, pairs[i].pass, pairs[i].wall};
            continue;
        }
        ns_study_top *b = &out->tops[t];
        if (pairs[i].wall > b->wall ||
            (pairs[i].wall == b->wall &&
             strcmp(k->names.keys[pairs[i].pass], k->names.keys[b->pass]) < 0))
            b->pass = pairs[i].pass, b->wall = pairs[i].wall;
    }
    free(pairs);
}

void ns_study_keep_run(ns_study_keep *k, const ns_run *r, ns_stage_sel *sel, ns_study_sums *out) {
    memset(out, 0, sizeof *out);
    int any = 0;
    for (int q = 0; q < r->nreports; q++) {
        double t = ns_stage_report_total(r->reports[q]);
        if (!ns_report_is_main(r->reports[q]) || !isfinite(t)) continue;
        out->total += t; /* breakdowns are inside */
        any = 1;
    }
    out->total_field = any && isfinite(out->total) ? out->total : NAN;
    ns__keep_tops(k, r, sel, out);
    for (size_t d = 0; d < sizeof ns__drivers / sizeof ns__drivers[0]; d++) {
        char fx_spec[200], fy_spec[200];
        snprintf(fx_spec, sizeof fx_spec, "fact:%s", ns__drivers[d].fact);
        snprintf(fy_spec, sizeof fy_spec, "pass:%s", ns__drivers[d].pass);
        ns_field fx, fy;
        const char *why;
        if (ns_field_parse(fx_spec, 1, &fx, &why) < 0 || ns_field_parse(fy_spec, 0, &fy, &why) < 0)
            continue;
        for (int q = 0; q < r->nreports; q++) {
            double x, y;
            if (ns_report_point(r->reports[q], &fx, &fy, &x, &y) != 0) continue;
            out->points = ns_xrealloc(out->points, sizeof *out->points * (size_t)(out->npoints + 1));
            out->points[out->npoints++] = (ns_study_point){x, y, (int)d};
        }
    }
}

/* ====== Failed configurations ====== */

const char *ns_study_submodel_kind(const char *name) {
    if (!name) return NULL;
    if (strstr(name, "_prefill")) return "prefill";
    if (strstr(name, "lm_head")) return "lm_head";
    if (strstr(name, "_kv")) return "generate";
    return name;
}

static int ns__same_or_null(const char *a, const char *b) {
    return a == b || (a && b && !strcmp(a, b));
}

/* The failed configurations of t, grouped, each group described over the
 * values of every configuration (the ones that compiled and the failed
 * ones: a window that only fails is still a value of the sweep). */
static void ns__failures(ns_study *s, const ns_table *t) {
    ns_study all = {0}; /* s's cells, then the failed rows' */
    all.cells = ns_xcalloc((size_t)(s->ncells + t->nrows) + 1, sizeof *all.cells);
    for (int i = 0; i < s->ncells; i++) all.cells[all.ncells++] = s->cells[i];
    int first_failed = all.ncells;
    for (int i = 0; i < t->nrows; i++) {
        const ns_table_row *row = &t->rows[i];
        if (strcmp(ns_table_status(row), "failed") != 0 || !strcmp(row->cfg.mode, "warm")) continue;
        int dup = 0;
        for (int c = first_failed; c < all.ncells && !dup; c++)
            dup = ns_config_same_tags(&all.cells[c].row->cfg, &row->cfg);
        if (dup) continue;
        all.cells[all.ncells++] = (ns_study_cell){row, -1, NULL, NAN};
    }
    s->nfailed = all.ncells - first_failed;
    ns__axis *ax = ns_xcalloc((size_t)t->nkeys + 1, sizeof *ax);
    int nax = 0, num = -1;
    for (int k = 0; s->nfailed && k < t->nkeys; k++) {
        int n;
        const char **v = ns__values_new(&all, t->keys[k], &n);
        if (n > 1) ax[nax++] = (ns__axis){t->keys[k], v, n};
        else free(v);
    }
    for (int a = 1; a < nax && num < 0; a++)
        if (ns__numeric(ax[a].v, ax[a].n)) num = a;
    char *grouped = ns_xcalloc((size_t)all.ncells + 1, 1);
    for (int i = first_failed; i < all.ncells; i++) {
        if (grouped[i]) continue;
        const ns_failure *f = all.cells[i].row->failure;
        const char *pass = f ? f->pass : NULL, *kind = f ? ns_study_submodel_kind(f->submodel) : NULL;
        ns_study_regime g = {0};
        g.cells = ns_xcalloc((size_t)all.ncells + 1, sizeof *g.cells);
        for (int j = i; j < all.ncells; j++) {
            const ns_failure *h = all.cells[j].row->failure;
            if (grouped[j] || !ns__same_or_null(h ? h->pass : NULL, pass) ||
                !ns__same_or_null(h ? ns_study_submodel_kind(h->submodel) : NULL, kind))
                continue;
            grouped[j] = 1;
            g.cells[g.ncells++] = j;
        }
        if (nax == 1 && ns__numeric(ax[0].v, ax[0].n)) { /* one numeric axis: its ranges */
            char *mark = ns_xcalloc((size_t)ax[0].n + 1, 1);
            for (int c = 0; c < g.ncells; c++) {
                int at = ns__index(ax[0].v, ax[0].n, ns_table_tag(all.cells[g.cells[c]].row, ax[0].key));
                if (at >= 0) mark[at] = 1;
            }
            int lo = 0, tail = 1;
            while (lo < ax[0].n && !mark[lo]) lo++;
            for (int k = lo; k < ax[0].n; k++) tail &= mark[k] != 0;
            ns_buf b = {0};
            if (tail && lo > 0 && lo < ax[0].n - 1) /* from a value on: "window >= 4096" */
                ns_buf_printf(&b, "%s \xe2\x89\xa5 %s", ax[0].key, ax[0].v[lo]);
            else {
                ns_buf_printf(&b, "%s ", ax[0].key);
                ns__ranges(&b, ax[0].v, ax[0].n, mark);
            }
            g.where = b.data;
            free(mark);
        } else {
            ns__describe(&all, &g, ax, nax, num);
        }
        s->failures = ns_xrealloc(s->failures, sizeof *s->failures * (size_t)(s->nfailures + 1));
        s->failures[s->nfailures++] = (ns_study_failure){pass, kind, g.ncells, g.where};
        free(g.cells);
    }
    free(grouped);
    for (int a = 0; a < nax; a++) free(ax[a].v);
    free(ax);
    free(all.cells);
}

/* ====== The study ====== */

int ns_study_build_summed(ns_study *s, const ns_table *t, const ns_study_sums *sums,
                          const ns_study_keep *keep, ns_study_fix_fn fix) {
    memset(s, 0, sizeof *s);
    ns__cells(s, t, sums, keep);
    if (s->ncells < NS_STUDY_MIN_CONFIGS) { /* no study: nothing is left to free */
        ns_study_free(s);
        return -1;
    }
    /* the axes: tags that vary over the cells */
    s->axes = ns_xcalloc((size_t)t->nkeys + 1, sizeof *s->axes);
    ns__axis *ax = ns_xcalloc((size_t)t->nkeys + 1, sizeof *ax);
    int nax = 0;
    for (int k = 0; k < t->nkeys; k++) {
        int n;
        const char **v = ns__values_new(s, t->keys[k], &n);
        if (n > 1) {
            s->axes[s->naxes++] = t->keys[k];
            ax[nax++] = (ns__axis){t->keys[k], v, n};
        } else {
            free(v);
        }
    }
    ns__regimes(s, t, fix);
    /* the numeric axis of the descriptions: the first after the first axis */
    int num = -1;
    for (int a = 1; a < nax && num < 0; a++)
        if (ns__numeric(ax[a].v, ax[a].n)) num = a;
    for (int g = 0; g < s->nregimes; g++) ns__describe(s, &s->regimes[g], ax, nax, num);
    ns__fits(s, t, sums, ax, nax);
    for (int a = 0; a < nax; a++) free(ax[a].v);
    free(ax);
    ns__failures(s, t); /* after the fits: the failed configurations are in none */
    return 0;
}

int ns_study_build(ns_study *s, const ns_table *t, ns_stage_sel *sel, ns_study_fix_fn fix) {
    struct ns_study_own *own = ns_xcalloc(1, sizeof *own);
    ns_study_keep_init(&own->keep);
    own->n = t->nruns;
    own->sums = ns_xcalloc((size_t)t->nruns + 1, sizeof *own->sums);
    for (int i = 0; i < t->nruns; i++) ns_study_keep_run(&own->keep, &t->runs[i], sel, &own->sums[i]);
    int rc = ns_study_build_summed(s, t, own->sums, &own->keep, fix);
    s->own = own; /* after: the build starts from an empty study; freed with it */
    if (rc < 0) ns_study_free(s); /* too small: nothing is left allocated */
    return rc;
}

void ns_study_free(ns_study *s) {
    for (int g = 0; g < s->nregimes; g++) {
        free(s->regimes[g].cells);
        free(s->regimes[g].where);
    }
    for (int f = 0; f < s->nfits; f++) {
        free(s->fits[f].y), free(s->fits[f].x), free(s->fits[f].group), free(s->fits[f].mixed);
        ns_fit_free(&s->fits[f].fit);
    }
    for (int f = 0; f < s->nfailures; f++) free(s->failures[f].where);
    free(s->failures);
    free(s->regimes);
    free(s->fits);
    free(s->cells);
    free(s->axes);
    if (s->own) {
        for (int i = 0; i < s->own->n; i++) ns_study_sums_free(&s->own->sums[i]);
        free(s->own->sums);
        ns_study_keep_free(&s->own->keep);
        free(s->own);
    }
    memset(s, 0, sizeof *s);
}
