/* page_figures.c -- the figures of the report page, each with the caption
 * that says what it shows and how it was made (page.h; page_int.h lists
 * the module's files).
 *
 * The model says which figures the data can carry; this file decides how
 * much of each to draw (NS__TOP_BARS bars, NS__MAX_SERIES series, the
 * first NS__MAX_STACK fingerprint rows) and says in the caption when it
 * drew less than there is.  Colours: the page's stages, in the order the
 * model keeps them, take the palette in turn and "other" (what no named
 * stage holds) is grey, so a stage has one colour in every figure.  Every
 * figure gets an id of its own (its element id and the name of its
 * standalone .svg).
 *
 * This file must not compute a statistic (it copies the model's points
 * into the shape render/svg.h draws), and must not call back into page.c.
 */
#include "render/page_int.h"

#include "render/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NS__TOP_BARS 20   /* bars of the heaviest-passes chart */
#define NS__MAX_SERIES 7 /* series per line plot (the palette's colours) */
#define NS__MAX_STACK 60 /* bars of the fingerprint figure */

/* ====== Colours, ids, labels ====== */

typedef struct {
    ns_page *page;             /* the page the figures go on */
    const ns_page_model *m;    /* what they show */
    int *color;                /* palette index per page stage (owned) */
} ns__figs;

static int ns__stage_color(const ns__figs *f, const char *name) {
    size_t k = ns_strmap_find(&f->m->table.stages, name);
    return k == (size_t)-1 ? NS_SVG_GREY : f->color[k];
}

/* A name usable as an element id and a file name: [A-Za-z0-9_-] kept,
 * anything else '_'. */
static void ns__put_ident(ns_buf *b, const char *s) {
    for (; *s; s++) {
        char c = *s;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '_' || c == '-';
        ns_buf_putc(b, ok ? c : '_');
    }
}

/* An id "PREFIX-NAME[-NAME2]" not yet used on the page (caller frees). */
static char *ns__fig_id_new(const ns_page *p, const char *prefix, const char *a, const char *b) {
    ns_buf id = {0};
    ns_buf_puts(&id, prefix);
    if (a) {
        ns_buf_putc(&id, '-');
        ns__put_ident(&id, a);
    }
    if (b) {
        ns_buf_putc(&id, '-');
        ns__put_ident(&id, b);
    }
    size_t base = id.len;
    for (int k = 2;; k++) {
        int used = 0;
        for (int i = 0; i < p->nfigs && !used; i++) used = strcmp(p->figs[i].id, id.data) == 0;
        if (!used) break;
        id.len = base;
        ns_buf_printf(&id, "-%d", k);
    }
    return id.data;
}

/* The page's stage names, as an array for the drawings (caller frees). */
static const char **ns__stage_names_new(const ns_page_model *m) {
    const ns_strmap *st = &m->table.stages;
    const char **names = ns_xcalloc(st->count + 1, sizeof *names);
    for (size_t k = 0; k < st->count; k++) names[k] = st->keys[k];
    return names;
}

/* ====== Heaviest passes ====== */

static void ns__passes(ns__figs *f) {
    const ns_top *t = &f->m->passes.top;
    const size_t *ord = f->m->passes.order;
    if (!ord) return;
    int nb = (int)t->names.count < NS__TOP_BARS ? (int)t->names.count : NS__TOP_BARS;
    const char **names = ns_xcalloc((size_t)nb + 1, sizeof *names);
    const char **groups = ns_xcalloc((size_t)nb + 1, sizeof *groups);
    double *vals = ns_xcalloc((size_t)nb + 1, sizeof *vals);
    double *shares = ns_xcalloc((size_t)nb + 1, sizeof *shares);
    int *colors = ns_xcalloc((size_t)nb + 1, sizeof *colors);
    const char **legend = ns_xcalloc(t->stages.count + 2, sizeof *legend);
    int *lcolors = ns_xcalloc(t->stages.count + 2, sizeof *lcolors);
    int nlegend = 0, mixed = 0;
    for (int i = 0; i < nb; i++) {
        const ns_top_row *row = &t->rows[ord[i]];
        names[i] = t->names.keys[ord[i]];
        vals[i] = row->wall;
        shares[i] = t->total_wall > 0 ? row->wall / t->total_wall : NAN;
        if (row->stage >= 0) {
            groups[i] = t->stages.keys[row->stage];
            colors[i] = ns__stage_color(f, groups[i]);
        } else {
            groups[i] = row->stage == NS_TOP_MIXED_STAGE ? "mixed" : NULL;
            colors[i] = NS_SVG_GREY;
            mixed |= row->stage == NS_TOP_MIXED_STAGE;
        }
    }
    for (size_t k = 0; k < t->stages.count; k++) { /* legend: stages with a bar */
        int used = 0;
        for (int i = 0; i < nb && !used; i++) used = groups[i] && strcmp(groups[i], t->stages.keys[k]) == 0;
        if (!used) continue;
        legend[nlegend] = t->stages.keys[k];
        lcolors[nlegend++] = ns__stage_color(f, t->stages.keys[k]);
    }
    if (mixed) {
        legend[nlegend] = "mixed (the pass runs in several stages)";
        lcolors[nlegend++] = NS_SVG_GREY;
    }
    ns_buf title = {0}, svg = {0}, cap = {0};
    ns_buf_printf(&title, "Heaviest passes, summed over %d report%s", t->reports,
                  t->reports == 1 ? "" : "s");
    ns_svg_bars bars = {"heaviest-passes", title.data, "wall time summed over the reports (s)",
                        names, vals, shares, colors, groups, nb, legend, lcolors, nlegend};
    ns_svg_bars_draw(&svg, &bars);
    ns_buf_printf(&cap, "The %d heaviest of %zu passes by wall time, each summed over every "
                        "report shown above (an NPUW compile prints one report per sub-model); "
                        "the share is of the reports' summed totals (%.4f s). Containers "
                        "(pipelines and scopes with children), Total and Rest are not passes. "
                        "Colour: the pass's stage by the stage map",
                  nb, t->names.count, t->total_wall);
    for (size_t k = 0; k < t->maps.count; k++)
        ns_buf_printf(&cap, "%s%s", k ? " or " : " ", t->maps.keys[k]);
    ns_buf_puts(&cap, ".");
    if (nb) ns_page_figure(f->page, "heaviest-passes", "passes", cap.data, svg.data);
    else ns_buf_free(&svg);
    free(names);
    free(groups);
    free(vals);
    free(shares);
    free(colors);
    free(legend);
    free(lcolors);
    ns_buf_free(&title);
    ns_buf_free(&cap);
}

/* ====== Scaling ====== */

static void ns__scaling(ns__figs *f, const ns_page_scaling *sc) {
    const char *axis = sc->axis, *fig_mode = f->m->fig_mode;
    ns_svg_series *ss = ns_xcalloc(NS__MAX_SERIES + 1, sizeof *ss);
    ns_svg_pt **pts = ns_xcalloc(NS__MAX_SERIES + 1, sizeof *pts);
    int nss = 0;
    for (int k = 0; k < sc->nseries && nss < NS__MAX_SERIES; k++) {
        const ns_fit *fit = &sc->series[k].fit;
        if (fit->npts < 3) continue; /* a scaling plot needs 3 values of the axis */
        pts[nss] = ns_xcalloc((size_t)fit->npts + 1, sizeof *pts[nss]);
        for (int i = 0; i < fit->npts; i++) {
            const ns_fit_point *q = &fit->pts[i];
            pts[nss][i] = (ns_svg_pt){q->x, q->y, q->min, q->max, q->n};
        }
        ss[nss] = (ns_svg_series){sc->series[k].name, nss, pts[nss], fit->npts, fit->ok,
                                  fit->exponent, fit->prefactor, fit->r2, fit->ci95_lo,
                                  fit->ci95_hi};
        nss++;
    }
    char *id = ns__fig_id_new(f->page, "scaling", axis, NULL);
    ns_buf title = {0}, xl = {0}, svg = {0}, cap = {0};
    ns_buf_printf(&title, "Wall time against %s (log-log)", axis);
    ns_buf_printf(&xl, "%s (tag value, log scale)", axis);
    ns_svg_plot p = {id, title.data, axis, xl.data, "wall time (s)", " s", 1, 1, sc->pow2, NULL, 0,
                     0, 0, ss, nss, "pt"};
    ns_svg_plot_draw(&svg, &p);
    ns_buf_printf(&cap, "Median wall time of the counted runs at each %s (points), min to max "
                        "over the repeats (bars), and the power law fitted by least squares of "
                        "ln time on ln %s (dashed, labelled with its exponent) per series: the "
                        "runs that share every other tag%s.",
                  axis, axis, fig_mode ? " (cold compiles)" : " and mode");
    if (sc->plotted > nss) ns_buf_printf(&cap, " %d of %d series are shown.", nss, sc->plotted);
    ns_page_figure(f->page, id, "figures", cap.data, svg.data);
    free(id);
    ns_buf_free(&title);
    ns_buf_free(&xl);
    ns_buf_free(&cap);
    for (int k = 0; k < nss; k++) free(pts[k]);
    free(pts);
    free(ss);
}

/* ====== Regime map ====== */

static void ns__regime(ns__figs *f) {
    const ns_page_regime *rg = &f->m->regime;
    if (!rg->filled) return;
    static const char *const one[] = {"all"};
    const char *xk = rg->xk, *yk = rg->yk;
    const char **names = ns__stage_names_new(f->m);
    char *id = ns__fig_id_new(f->page, "regime", yk, xk);
    ns_buf title = {0}, svg = {0}, cap = {0};
    if (yk) ns_buf_printf(&title, "Dominant stage by %s and %s", yk, xk);
    else ns_buf_printf(&title, "Dominant stage by %s", xk);
    ns_svg_regime r = {id, title.data, xk, yk, rg->xv, rg->nx, yk ? rg->yv : (const char **)one,
                       rg->ny, rg->cell, rg->share, rg->nruns, names, f->color,
                       (int)f->m->table.stages.count};
    ns_svg_regime_draw(&svg, &r);
    ns_buf_printf(&cap, "Each cell: the stage with the largest median share of the compile's "
                        "time over the cell's counted%s runs (the number in the cell is that "
                        "share), by the stage map; empty cells have no run with a timing "
                        "report.",
                  f->m->fig_mode ? " cold" : "");
    if (rg->pooled)
        ns_buf_printf(&cap, " Runs that differ in the other %d tag%s are pooled.", rg->pooled,
                      rg->pooled == 1 ? "" : "s");
    ns_page_figure(f->page, id, "figures", cap.data, svg.data);
    free(names);
    free(id);
    ns_buf_free(&title);
    ns_buf_free(&cap);
}

/* ====== Fingerprints ====== */

/* A row's tag values in key order, and its mode: "m1 \xc2\xb7 128 \xc2\xb7
 * cold" (short labels for many rows; ns__values_head_new says what they
 * are). */
static char *ns__row_values_new(const ns_table *t, const ns_table_row *g) {
    ns_buf b = {0};
    ns_buf_puts(&b, "");
    for (int k = 0; k < t->nkeys; k++) {
        const char *v = ns_table_tag(g, t->keys[k]);
        ns_buf_printf(&b, "%s%s", k ? " \xc2\xb7 " : "", v ? v : "-");
    }
    ns_buf_printf(&b, "%s%s", t->nkeys ? " \xc2\xb7 " : "", g->cfg.mode);
    return b.data;
}

static char *ns__values_head_new(const ns_table *t) {
    ns_buf b = {0};
    for (int k = 0; k < t->nkeys; k++) ns_buf_printf(&b, "%s \xc2\xb7 ", t->keys[k]);
    ns_buf_puts(&b, "mode");
    return b.data;
}

/* The median stage shares of every row that has them. */
static void ns__fingerprint(ns__figs *f) {
    const ns_table *t = &f->m->table;
    size_t nst = t->stages.count;
    if (!nst || !ns_table_any_regime(t)) return;
    const char **rows = ns_xcalloc((size_t)t->nrows + 1, sizeof *rows);
    char **owned = ns_xcalloc((size_t)t->nrows + 1, sizeof *owned);
    double *shares = ns_xcalloc((size_t)t->nrows * nst + 1, sizeof *shares);
    int total = 0, n = 0;
    for (int g = 0; g < t->nrows; g++) {
        const ns_table_row *x = &t->rows[g];
        if (x->regime < 0) continue; /* warm rows, runs without reports */
        total++;
        if (n >= NS__MAX_STACK) continue;
        owned[n] = ns__row_values_new(t, x);
        rows[n] = owned[n];
        for (size_t k = 0; k < nst; k++) shares[(size_t)n * nst + k] = x->shares[k];
        n++;
    }
    const char **names = ns__stage_names_new(f->m);
    char *id = ns__fig_id_new(f->page, "fingerprint", NULL, NULL);
    char *head = ns__values_head_new(t);
    ns_buf svg = {0}, cap = {0};
    ns_svg_stack st = {id, "Stage fingerprint per configuration", head, rows, n, names, f->color,
                       (int)nst, shares};
    ns_svg_stack_draw(&svg, &st);
    ns_buf_printf(&cap, "Median share of each stage in the compile's time (self times by the "
                        "stage map, over the counted runs of each configuration and mode that "
                        "kept a timing report). What is left to 100%% is Rest (time outside "
                        "every row) or negative self time of parallel rows.");
    if (total > n) ns_buf_printf(&cap, " The first %d of %d configurations are shown.", n, total);
    ns_page_figure(f->page, id, "figures", cap.data, svg.data);
    free(id);
    free(head);
    ns_buf_free(&cap);
    for (int i = 0; i < n; i++) free(owned[i]);
    free(owned);
    free(rows);
    free(shares);
    free(names);
}

/* ====== Ratios ====== */

static void ns__ratios(ns__figs *f) {
    const ns_page_ratios *rt = &f->m->ratios;
    if (!rt->n) return;
    const char *key = rt->key, *base = rt->base, *xk = rt->xk;
    int nr = rt->n;
    /* series in first-seen order (the rows are sorted), each one's points by x */
    ns_svg_series *ss = ns_xcalloc((size_t)nr + 1, sizeof *ss);
    ns_svg_pt *pts = ns_xcalloc((size_t)nr + 1, sizeof *pts);
    const char **seen = ns_xcalloc((size_t)nr + 1, sizeof *seen);
    int nss = 0, used = 0, all = 0;
    for (int i = 0; i < nr; i++) {
        int k = 0;
        while (k < all && strcmp(seen[k], rt->r[i].series) != 0) k++;
        if (k < all) continue;
        seen[all++] = rt->r[i].series;
        if (nss >= NS__MAX_SERIES) continue;
        ns_svg_series *o = &ss[nss];
        o->name = rt->r[i].series;
        o->color = nss;
        o->pts = &pts[used];
        for (int j = i; j < nr; j++) /* insertion by x */
            if (strcmp(rt->r[j].series, rt->r[i].series) == 0) {
                ns_svg_pt q = {rt->r[j].x, rt->r[j].ratio, NAN, NAN, 0};
                int at = o->npts;
                while (at > 0 && pts[used + at - 1].x > q.x) {
                    pts[used + at] = pts[used + at - 1];
                    at--;
                }
                pts[used + at] = q;
                o->npts++;
            }
        used += o->npts;
        nss++;
    }
    char *id = ns__fig_id_new(f->page, "ratio", key, NULL);
    ns_buf title = {0}, xl = {0}, yl = {0}, svg = {0}, cap = {0};
    ns_buf_printf(&title, "Wall time relative to %s=%s", key, base);
    if (xk) ns_buf_printf(&xl, "%s (tag value, log scale)", xk);
    else ns_buf_puts(&xl, "configuration");
    ns_buf_printf(&yl, "wall time / %s=%s (ratio, log scale)", key, base);
    ns_svg_plot p = {id, title.data, xk ? xk : "configuration", xl.data, yl.data, "\xc3\x97",
                     1, 1, rt->pow2, xk ? NULL : rt->cats, rt->ncats, 1, 1, ss, nss, "ratio"};
    ns_svg_plot_draw(&svg, &p);
    ns_buf_printf(&cap, "Median wall time of each configuration divided by the median of the "
                        "same configuration with %s=%s%s; 1 (dashed) is the baseline's time, "
                        "below it is faster.",
                  key, base, f->m->fig_mode ? " (cold compiles)" : " and the same mode");
    if (all > nss) ns_buf_printf(&cap, " %d of %d series are shown.", nss, all);
    ns_page_figure(f->page, id, "figures", cap.data, svg.data);
    free(id);
    ns_buf_free(&title);
    ns_buf_free(&xl);
    ns_buf_free(&yl);
    ns_buf_free(&cap);
    free(seen);
    free(ss);
    free(pts);
}

/* ====== In page order ====== */

void ns__render_page_figures(ns_page *p, const ns_page_model *m) {
    ns__figs f = {p, m, NULL};
    const ns_strmap *st = &m->table.stages;
    f.color = ns_xcalloc(st->count + 1, sizeof *f.color);
    int k = 0;
    for (size_t i = 0; i < st->count; i++)
        f.color[i] = strcmp(st->keys[i], "other") == 0 ? NS_SVG_GREY : k++;
    ns__passes(&f);
    if (m->table.nrows) {
        int before = p->nfigs;
        for (int i = 0; i < m->nscaling; i++) ns__scaling(&f, &m->scaling[i]);
        ns__regime(&f);
        ns__fingerprint(&f);
        ns__ratios(&f);
        if (p->nfigs == before)
            p->figs_note = ns_strdup(
                "No figure: scaling plots need a tag with at least three numeric values, the "
                "regime map and fingerprints need runs that kept a timing report, and ratios "
                "need a baseline (--baseline K=V, or a precision tag with int8).");
    }
    free(f.color);
}
