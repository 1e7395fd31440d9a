/* page_figures.c -- the data behind the report's figures: scaling series
 * with their power laws, the regime map, ratios to a baseline, and the
 * entry that builds them all, the study's figures too (page.h says what
 * each holds; page_int.h lists the module's files; the study's figures
 * are page_study.c's, the tags' values page_tags.c's).
 *
 * Every figure works on the table's rows (configuration x mode), and only
 * on the rows of one mode when there are cold compiles (m->fig_mode): a
 * median of cold and warm compiles is not a time of anything.  Each part
 * decides only whether the data can carry its figure -- three values of a
 * numeric tag for a fit, a stage share for a regime cell, a baseline row
 * for a ratio -- and leaves how much of it to draw (series, bars, rows) to
 * render/page_figures.c.
 *
 * This file must not print, format numbers for people, or call back into
 * page.c (the calls go page.c -> here); it calls page_study.c and
 * page_tags.c, which never call it.
 */
#include "analyse/page_int.h"
#include "base/strmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== Scaling ====== */

/* Rows sharing every tag but `axis` (and the mode, or only rows of `mode`)
 * form one series; the array is the caller's (ns__series_free). */
static ns_page_series *ns__series_new(const ns_page_model *m, const char *axis, const char *mode,
                                      int *nout) {
    ns_page_series *v = NULL;
    int n = 0;
    for (int g = 0; g < m->table.nrows; g++) {
        const ns_table_row *x = &m->table.rows[g];
        if (!ns_table_tag(x, axis) || (mode && strcmp(x->cfg.mode, mode) != 0) || x->n == 0)
            continue;
        char *lab = ns_page_label_new(&m->table, x, axis, NULL, mode == NULL, "all runs");
        int k = 0;
        while (k < n && strcmp(v[k].name, lab) != 0) k++;
        if (k == n) {
            v = ns_xrealloc(v, sizeof *v * (size_t)(n + 1));
            memset(&v[n], 0, sizeof v[n]);
            v[n++].name = lab;
        } else {
            free(lab);
        }
        v[k].rows = ns_xrealloc(v[k].rows, sizeof *v[k].rows * (size_t)(v[k].nrows + 1));
        v[k].rows[v[k].nrows++] = x;
    }
    *nout = n;
    return v;
}

static void ns__series_free(ns_page_series *v, int n) {
    for (int i = 0; i < n; i++) {
        free(v[i].name);
        free(v[i].rows);
        ns_fit_free(&v[i].fit);
    }
    free(v);
}

/* Wall times of a row's counted runs into w (cfg.nruns entries); returns n. */
static int ns__row_walls(const ns_page_model *m, const ns_table_row *g, double *w) {
    int n = 0;
    for (int i = 0; i < g->cfg.nruns; i++)
        if (ns_run_counted(&m->in->set->runs[g->cfg.runs[i]]))
            w[n++] = m->in->set->runs[g->cfg.runs[i]].wall_s;
    return n;
}

/* The series along one numeric tag and their fits; kept when one series
 * has the 3 values of the axis a scaling plot needs. */
static void ns__scaling(ns_page_model *m, const char *axis, int pow2) {
    ns_page_scaling sc = {axis, pow2, NULL, 0, 0, 0};
    sc.series = ns__series_new(m, axis, m->fig_mode, &sc.nseries);
    for (int k = 0; k < sc.nseries; k++) {
        ns_page_series *v = &sc.series[k];
        for (int i = 0; i < v->nrows; i++) {
            double x;
            if (!ns_text_number(ns_table_tag(v->rows[i], axis), &x)) continue;
            double *w = ns_xcalloc((size_t)v->rows[i]->cfg.nruns + 1, sizeof *w);
            int n = ns__row_walls(m, v->rows[i], w);
            ns_fit_add(&v->fit, x, w, (size_t)n);
            free(w);
        }
        if (v->fit.npts < 3) continue;
        ns_fit_power(&v->fit);
        sc.plotted++;
        sc.fitted += v->fit.ok;
    }
    if (!sc.plotted) {
        ns__series_free(sc.series, sc.nseries);
        return;
    }
    m->scaling = ns_xrealloc(m->scaling, sizeof *m->scaling * (size_t)(m->nscaling + 1));
    m->scaling[m->nscaling++] = sc;
}

/* ====== The regime map ====== */

/* Sort the values of tag key (a model tag) by the size their runs derive
 * from them (size_b), ties by name; returns 1 when every value has a size
 * (and v is sorted so), else 0 (v unchanged). */
static int ns__by_size(const ns_page_model *m, const char *key, const char **v, int n) {
    double *size = ns_xcalloc((size_t)n + 1, sizeof *size);
    for (int i = 0; i < n; i++) {
        size[i] = NAN;
        for (int r = 0; r < m->in->set->nruns && !isfinite(size[i]); r++) {
            const ns_run *run = &m->in->set->runs[r];
            const char *x = ns_kv_get(&run->tags, key);
            char buf[64];
            const char *sb = x && !strcmp(x, v[i]) ? ns_run_tag(run, "size_b", buf, sizeof buf) : NULL;
            if (sb) ns_text_number(sb, &size[i]);
        }
        if (!isfinite(size[i]) || strcmp(key, "model")) {
            free(size);
            return 0;
        }
    }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && (size[j] < size[j - 1] || (size[j] == size[j - 1] && ns_text_cmp(v[j], v[j - 1]) < 0)); j--) {
            double d = size[j];
            size[j] = size[j - 1];
            size[j - 1] = d;
            const char *x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    free(size);
    return 1;
}

/* The dominant stage of every cell of the first two tags (the numeric one
 * across, when only one of them is), over the counted runs of the figures'
 * mode; runs that differ in other tags are pooled. */
static void ns__regime(ns_page_model *m) {
    const ns_table *t = &m->table;
    size_t nst = t->stages.count;
    ns_page_regime *rg = &m->regime;
    if (t->nkeys < 1 || !nst) return;
    const char *xk = t->nkeys > 1 ? t->keys[1] : t->keys[0], *yk = t->nkeys > 1 ? t->keys[0] : NULL;
    int p2;
    if (yk && ns__page_numeric_with(m, yk, 1, &p2) && !ns__page_numeric_with(m, xk, 1, &p2)) {
        const char *x = xk;
        xk = yk;
        yk = x;
    }
    rg->xk = xk;
    rg->yk = yk;
    rg->xv = ns__page_tag_values_new(t, xk, &rg->nx);
    rg->ny = 1;
    if (yk) rg->yv = ns__page_tag_values_new(t, yk, &rg->ny);
    if (yk) rg->by_size = ns__by_size(m, yk, rg->yv, rg->ny);
    size_t cells = (size_t)rg->nx * (size_t)rg->ny;
    rg->cell = ns_xcalloc(cells + 1, sizeof *rg->cell);
    rg->share = ns_xcalloc(cells + 1, sizeof *rg->share);
    rg->nruns = ns_xcalloc(cells + 1, sizeof *rg->nruns);
    rg->count = ns_xcalloc(nst + 1, sizeof *rg->count);
    /* the counted runs of each cell, in run order: each run's cell found
     * through hash maps of the two axes' values (one pass; a scan of every
     * run per cell was quadratic at 20,000 configurations) */
    int nr = m->in->set->nruns;
    int *runs = ns_xcalloc((size_t)nr + 1, sizeof *runs), *cellof = ns_xcalloc((size_t)nr + 1, sizeof *cellof);
    size_t *start = ns_xcalloc(cells + 2, sizeof *start), *fill = ns_xcalloc(cells + 1, sizeof *fill);
    ns_strmap xm, ym;
    ns_strmap_init(&xm);
    ns_strmap_init(&ym);
    int added;
    for (int i = 0; i < rg->nx; i++) ns_strmap_intern(&xm, rg->xv[i], &added);
    for (int j = 0; yk && j < rg->ny; j++) ns_strmap_intern(&ym, rg->yv[j], &added);
    for (int r = 0; r < nr; r++) {
        const ns_run *run = &m->in->set->runs[r];
        cellof[r] = -1;
        if (!ns_run_counted(run) || (m->fig_mode && strcmp(run->mode, m->fig_mode) != 0))
            continue;
        const char *a = ns_kv_get(&run->tags, xk), *b = yk ? ns_kv_get(&run->tags, yk) : NULL;
        size_t xi = a ? ns_strmap_find(&xm, a) : (size_t)-1;
        size_t yi = yk ? (b ? ns_strmap_find(&ym, b) : (size_t)-1) : 0;
        if (xi == (size_t)-1 || yi == (size_t)-1) continue;
        cellof[r] = (int)(yi * (size_t)rg->nx + xi);
        start[cellof[r] + 1]++;
    }
    ns_strmap_free(&xm);
    ns_strmap_free(&ym);
    for (size_t c = 0; c < cells; c++) start[c + 1] += start[c];
    for (int r = 0; r < nr; r++)
        if (cellof[r] >= 0) runs[start[cellof[r]] + fill[cellof[r]]++] = r;
    free(fill);
    free(cellof);
    double *sh = ns_xcalloc(nst + 1, sizeof *sh);
    for (int j = 0; j < rg->ny; j++)
        for (int i = 0; i < rg->nx; i++) {
            size_t at = (size_t)j * (size_t)rg->nx + (size_t)i;
            int n = (int)(start[at + 1] - start[at]);
            const int *cr = runs + start[at];
            rg->cell[at] = ns_table_median_shares(t, cr, n, sh, &rg->nruns[at]);
            rg->share[at] = rg->cell[at] >= 0 ? sh[rg->cell[at]] : NAN;
            if (rg->cell[at] >= 0) {
                rg->filled++;
                rg->count[rg->cell[at]]++;
            }
        }
    for (int k = 0; k < t->nkeys; k++)
        rg->pooled += strcmp(t->keys[k], xk) != 0 && (!yk || strcmp(t->keys[k], yk) != 0);
    free(sh);
    free(runs);
    free(start);
}

/* ====== Ratios to a baseline ====== */

/* Every row's median over its baseline partner's (the table's base_ratio),
 * per configuration of the other tags; x is the first numeric tag with two
 * values or more, else the configurations as categories. */
static void ns__ratios(ns_page_model *m) {
    ns_page_ratios *rt = &m->ratios;
    const ns_table *t = &m->table;
    if (!rt->key) return;
    const char *key = rt->key, *base = rt->base;
    for (int k = 0; k < t->nkeys && !rt->xk; k++) {
        if (strcmp(t->keys[k], key) == 0) continue;
        int p2;
        if (ns__page_numeric_with(m, t->keys[k], 2, &p2)) rt->xk = t->keys[k], rt->pow2 = p2;
    }
    const char *xk = rt->xk;
    for (int g = 0; g < t->nrows; g++) {
        const ns_table_row *x = &t->rows[g];
        const char *v = ns_table_tag(x, key);
        if (!v || x->n == 0 || (m->fig_mode && strcmp(x->cfg.mode, m->fig_mode) != 0)) continue;
        if (strcmp(v, base) == 0) {
            rt->found_base = 1;
            continue;
        }
        if (xk && !ns_table_tag(x, xk)) continue; /* no place on the x axis (another sweep) */
        if (!isfinite(x->base_ratio)) continue;   /* no baseline row with runs */
        rt->r = ns_xrealloc(rt->r, sizeof *rt->r * (size_t)(rt->n + 1));
        ns_page_ratio *r = &rt->r[rt->n++];
        /* numeric x: a series per value and the other tags; categorical x:
         * a series per value (and mode), the other tags along x */
        char *rest = xk ? ns_page_label_new(t, x, key, xk, m->fig_mode == NULL, "")
                        : ns_page_label_new(t, x, key, "", 0, "");
        ns_buf sb = {0};
        ns_buf_printf(&sb, "%s=%s", key, v);
        if (xk && *rest) ns_buf_printf(&sb, ", %s", rest);
        if (!xk && !m->fig_mode && strcmp(x->cfg.mode, "none") != 0)
            ns_buf_printf(&sb, ", %s", x->cfg.mode);
        r->series = sb.data;
        free(rest);
        r->cat = ns_page_label_new(t, x, key, NULL, 0, "all");
        r->x = NAN;
        if (xk) ns_text_number(ns_table_tag(x, xk), &r->x);
        r->ratio = x->base_ratio;
        r->val = v;
        r->row = x;
    }
    /* categories in first-seen order (the rows are sorted) */
    for (int i = 0; !xk && i < rt->n; i++) {
        int k = 0;
        while (k < rt->ncats && strcmp(rt->cats[k], rt->r[i].cat) != 0) k++;
        if (k == rt->ncats) {
            rt->cats = ns_xrealloc(rt->cats, sizeof *rt->cats * (size_t)(rt->ncats + 1));
            rt->cats[rt->ncats++] = rt->r[i].cat;
        }
        rt->r[i].x = k;
    }
}

/* ====== The figures ====== */

void ns__page_figures(ns_page_model *m) {
    if (!m->table.nrows) return;
    for (int k = 0; k < m->table.nkeys; k++) {
        int pow2;
        if (ns__page_numeric_with(m, m->table.keys[k], 3, &pow2)) ns__scaling(m, m->table.keys[k], pow2);
    }
    ns__regime(m);
    ns__ratios(m);
    ns__page_study_figures(m);
}

void ns__page_figures_free(ns_page_model *m) {
    for (int i = 0; i < m->nscaling; i++) ns__series_free(m->scaling[i].series, m->scaling[i].nseries);
    free(m->scaling);
    ns_page_regime *rg = &m->regime;
    free(rg->xv);
    free(rg->yv);
    free(rg->cell);
    free(rg->share);
    free(rg->nruns);
    free(rg->count);
    ns_page_ratios *rt = &m->ratios;
    for (int i = 0; i < rt->n; i++) {
        free(rt->r[i].series);
        free(rt->r[i].cat);
    }
    free(rt->r);
    free(rt->cats);
    free(rt->key);
    ns__page_study_figures_free(&m->study);
}
