/* page_figures.c -- the figures of the report page, each with the caption
 * that says what it shows and how it was made (page.h; page_int.h lists
 * the module's files).
 *
 * The model says which figures the data can carry; this file decides how
 * much of each to draw (NS__TOP_BARS bars, the first NS__MAX_STACK
 * fingerprint rows) and says in the caption when it drew less than there
 * is.  Series are never cut: a line plot with more than NS__MAX_SERIES
 * (the palette's colours) becomes small multiples, one panel per value of
 * the tag that leaves at most that many series in each panel in the
 * fewest panels, or one panel per series when no tag does (ns__lines_draw),
 * and its caption says so.  The study's figures are page_study.c's (called
 * here, in page order).  Colours: the page's stages, in the order the
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
#define NS__MAX_SERIES 7 /* series per plot or panel (the palette's colours) */
#define NS__MAX_STACK 60 /* bars of the fingerprint figure */

/* ====== Heaviest passes ====== */

static void ns__passes(ns_page_figs *f) {
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
            colors[i] = ns__page_stage_color(f, groups[i]);
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
        lcolors[nlegend++] = ns__page_stage_color(f, t->stages.keys[k]);
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

/* ====== Series, whole: one plot or small multiples ====== */

typedef struct {
    ns_svg_series s;          /* the series as drawn on one plot (name: its full label) */
    const ns_table_row *row;  /* one of its rows: its tags */
} ns__line;

/* The tag to split n series into panels by: the one that leaves at most
 * NS__MAX_SERIES series in each panel and as many colours over all of
 * them, in the fewest panels (ties: table order); NULL when none does (a
 * panel per series). */
static const char *ns__split_key(const ns_table *t, const ns__line *v, int n, const char *axis,
                                 int with_mode) {
    const char *best = NULL;
    int best_panels = 0;
    const char **vals = ns_xcalloc((size_t)n + 1, sizeof *vals);
    int *count = ns_xcalloc((size_t)n + 1, sizeof *count);
    for (int k = 0; k < t->nkeys; k++) {
        const char *key = t->keys[k];
        if (axis && !strcmp(key, axis)) continue;
        int nv = 0, most = 0;
        for (int i = 0; i < n; i++) {
            const char *x = ns_table_tag(v[i].row, key);
            x = x ? x : "";
            int j = 0;
            while (j < nv && strcmp(vals[j], x)) j++;
            if (j == nv) vals[nv] = x, count[nv++] = 0;
            if (++count[j] > most) most = count[j];
        }
        if (nv < 2 || most > NS__MAX_SERIES) continue;
        /* the colours name what is left of a label, the same in every
           panel: at most NS__MAX_SERIES of those over all the panels */
        int nrest = 0;
        char **rest = ns_xcalloc((size_t)n + 1, sizeof *rest);
        for (int i = 0; i < n && nrest <= NS__MAX_SERIES; i++) {
            char *r = ns_page_label_new(t, v[i].row, axis, key, with_mode, "");
            int j = 0;
            while (j < nrest && strcmp(rest[j], r)) j++;
            if (j == nrest) rest[nrest++] = r;
            else free(r);
        }
        for (int i = 0; i < nrest; i++) free(rest[i]);
        free(rest);
        if (nrest > NS__MAX_SERIES) continue;
        if (!best || nv < best_panels) best = key, best_panels = nv;
    }
    free(vals);
    free(count);
    return best;
}

/* Draw the series v[0..n) on the plot tmpl: as given when they fit the
 * palette, else as small multiples -- one panel per value of a tag (the
 * colours then name what is left of each label, the same in every panel)
 * or, when no tag does, one panel per series.  A sentence saying so goes
 * to note. */
static void ns__lines_draw(ns_page_figs *f, const ns_svg_plot *tmpl, ns__line *v, int n,
                           const char *axis, ns_buf *svg, ns_buf *note) {
    const ns_table *t = &f->m->table;
    if (n <= NS__MAX_SERIES) {
        ns_svg_series *ss = ns_xcalloc((size_t)n + 1, sizeof *ss);
        for (int i = 0; i < n; i++) ss[i] = v[i].s, ss[i].color = i;
        ns_svg_plot p = *tmpl;
        p.series = ss;
        p.nseries = n;
        ns_svg_plot_draw(svg, &p);
        free(ss);
        return;
    }
    int with_mode = f->m->fig_mode == NULL;
    const char *key = ns__split_key(t, v, n, axis, with_mode);
    const char **pv = ns_xcalloc((size_t)n + 1, sizeof *pv);  /* panel values */
    char **rest = ns_xcalloc((size_t)n + 1, sizeof *rest);     /* each series' label in its panel */
    const char **colours = ns_xcalloc((size_t)n + 1, sizeof *colours);
    int np = 0, nc = 0;
    int *panel = ns_xcalloc((size_t)n + 1, sizeof *panel), *colour = ns_xcalloc((size_t)n + 1, sizeof *colour);
    for (int i = 0; i < n; i++) {
        const char *x = key ? ns_table_tag(v[i].row, key) : v[i].s.name;
        x = x ? x : "-";
        int j = 0;
        while (j < np && strcmp(pv[j], x)) j++;
        if (j == np) pv[np++] = x;
        panel[i] = j;
        rest[i] = key ? ns_page_label_new(t, v[i].row, axis, key, with_mode, "all runs") : ns_strdup(v[i].s.name);
        int c = 0;
        while (c < nc && strcmp(colours[c], rest[i])) c++;
        if (c == nc) colours[nc++] = rest[i];
        colour[i] = key ? c : 0;
    }
    ns_svg_plot *panels = ns_xcalloc((size_t)np + 1, sizeof *panels);
    ns_svg_series *ss = ns_xcalloc((size_t)n + 1, sizeof *ss);
    char **ptitle = ns_xcalloc((size_t)np + 1, sizeof *ptitle);
    int at = 0;
    for (int j = 0; j < np; j++) {
        panels[j] = *tmpl;
        panels[j].series = &ss[at];
        panels[j].nseries = 0;
        ns_buf pt = {0};
        if (key) ns_buf_printf(&pt, "%s=%s", key, pv[j]);
        else ns_buf_puts(&pt, pv[j]);
        ptitle[j] = pt.data;
        panels[j].title = ptitle[j];
        for (int i = 0; i < n; i++)
            if (panel[i] == j) {
                ss[at] = v[i].s;
                ss[at].name = rest[i];
                ss[at].color = colour[i];
                at++;
                panels[j].nseries++;
            }
    }
    /* the legend: every colour once, when a tag split them */
    int *lc = ns_xcalloc((size_t)nc + 1, sizeof *lc);
    for (int c = 0; c < nc; c++) lc[c] = c;
    int fit_labels = 0;
    for (int i = 0; i < n; i++) fit_labels |= v[i].s.fitted;
    ns_svg_multi mp = {.id = tmpl->id, .title = tmpl->title, .panels = panels, .npanels = np,
                       .share_y = 1, .fit_labels = fit_labels,
                       .legend = colours, /* none when each panel is one series: its title names it */
                       .legend_colors = lc, .nlegend = key ? nc : 0};
    ns_svg_multi_draw(svg, &mp);
    if (key)
        ns_buf_printf(note, " All %d series are drawn, as %d panels, one per value of %s (more "
                            "series than the palette's %d colours); the panels share their axes.",
                      n, np, key, NS__MAX_SERIES);
    else
        ns_buf_printf(note, " All %d series are drawn, one panel each (more series than the "
                            "palette's %d colours, and no tag splits them into fewer).",
                      n, NS__MAX_SERIES);
    for (int i = 0; i < n; i++) free(rest[i]);
    for (int j = 0; j < np; j++) free(ptitle[j]);
    free(ptitle);
    free(rest);
    free(pv);
    free(colours);
    free(panel);
    free(colour);
    free(panels);
    free(ss);
    free(lc);
}

/* ====== Scaling ====== */

static void ns__scaling(ns_page_figs *f, const ns_page_scaling *sc) {
    const char *axis = sc->axis, *fig_mode = f->m->fig_mode;
    ns__line *v = ns_xcalloc((size_t)sc->nseries + 1, sizeof *v);
    ns_svg_pt **pts = ns_xcalloc((size_t)sc->nseries + 1, sizeof *pts);
    int n = 0;
    for (int k = 0; k < sc->nseries; k++) {
        const ns_fit *fit = &sc->series[k].fit;
        if (fit->npts < 3) continue; /* a scaling plot needs 3 values of the axis */
        pts[n] = ns_xcalloc((size_t)fit->npts + 1, sizeof *pts[n]);
        for (int i = 0; i < fit->npts; i++) {
            const ns_fit_point *q = &fit->pts[i];
            pts[n][i] = (ns_svg_pt){q->x, q->y, q->min, q->max, q->n};
        }
        v[n].s = (ns_svg_series){.name = sc->series[k].name, .pts = pts[n], .npts = fit->npts,
                                 .fitted = fit->ok, .exponent = fit->exponent,
                                 .prefactor = fit->prefactor, .r2 = fit->r2,
                                 .ci_lo = fit->ci95_lo, .ci_hi = fit->ci95_hi};
        v[n++].row = sc->series[k].rows[0];
    }
    char *id = ns__page_fig_id_new(f->page, "scaling", axis, NULL);
    ns_buf title = {0}, xl = {0}, svg = {0}, cap = {0};
    ns_buf_printf(&title, "Wall time against %s (log-log)", axis);
    ns_buf_printf(&xl, "%s (tag value, log scale)", axis);
    ns_svg_plot p = {.id = id, .title = title.data, .xname = axis, .xlabel = xl.data,
                     .ylabel = "wall time (s)", .yunit = " s", .xlog = 1, .ylog = 1,
                     .xpow2 = sc->pow2, .mark = "pt"};
    ns_buf_printf(&cap, "Median wall time of the counted runs at each %s (points), min to max "
                        "over the repeats (bars), and the power law fitted by least squares of "
                        "ln time on ln %s (dashed, labelled with its exponent) per series: the "
                        "runs that share every other tag%s.",
                  axis, axis, fig_mode ? " (cold compiles)" : " and mode");
    ns__lines_draw(f, &p, v, n, axis, &svg, &cap);
    ns_page_figure(f->page, id, "figures", cap.data, svg.data);
    free(id);
    ns_buf_free(&title);
    ns_buf_free(&xl);
    ns_buf_free(&cap);
    for (int k = 0; k < n; k++) free(pts[k]);
    free(pts);
    free(v);
}

/* ====== Regime map ====== */

static void ns__regime(ns_page_figs *f) {
    const ns_page_regime *rg = &f->m->regime;
    if (!rg->filled) return;
    static const char *const one[] = {"all"};
    const char *xk = rg->xk, *yk = rg->yk;
    const char **names = ns__page_stage_names_new(f->m);
    char *id = ns__page_fig_id_new(f->page, "regime", yk, xk);
    ns_buf title = {0}, svg = {0}, cap = {0};
    if (yk) ns_buf_printf(&title, "Dominant stage by %s%s and %s", yk, rg->by_size ? " (by size)" : "", xk);
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
    if (rg->by_size)
        ns_buf_printf(&cap, " Rows in order of model size (size_b, read off the %s names).", yk);
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
static void ns__fingerprint(ns_page_figs *f) {
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
    const char **names = ns__page_stage_names_new(f->m);
    char *id = ns__page_fig_id_new(f->page, "fingerprint", NULL, NULL);
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

static void ns__ratios(ns_page_figs *f) {
    const ns_page_ratios *rt = &f->m->ratios;
    if (!rt->n) return;
    const char *key = rt->key, *base = rt->base, *xk = rt->xk;
    int nr = rt->n;
    /* series in first-seen order (the rows are sorted), each one's points by x */
    ns__line *v = ns_xcalloc((size_t)nr + 1, sizeof *v);
    ns_svg_pt *pts = ns_xcalloc((size_t)nr + 1, sizeof *pts);
    int nss = 0, used = 0;
    for (int i = 0; i < nr; i++) {
        int k = 0;
        while (k < nss && strcmp(v[k].s.name, rt->r[i].series) != 0) k++;
        if (k < nss) continue;
        ns_svg_series *o = &v[nss].s;
        v[nss].row = rt->r[i].row;
        o->name = rt->r[i].series;
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
    char *id = ns__page_fig_id_new(f->page, "ratio", key, NULL);
    ns_buf title = {0}, xl = {0}, yl = {0}, svg = {0}, cap = {0};
    ns_buf_printf(&title, "Wall time relative to %s=%s", key, base);
    if (xk) ns_buf_printf(&xl, "%s (tag value, log scale)", xk);
    else ns_buf_puts(&xl, "configuration");
    ns_buf_printf(&yl, "wall time / %s=%s (ratio, log scale)", key, base);
    ns_svg_plot p = {.id = id, .title = title.data, .xname = xk ? xk : "configuration",
                     .xlabel = xl.data, .ylabel = yl.data, .yunit = "\xc3\x97", .xlog = 1,
                     .ylog = 1, .xpow2 = rt->pow2, .xcats = xk ? NULL : rt->cats,
                     .nxcats = rt->ncats, .connect = 1, .ref_one = 1, .mark = "ratio"};
    ns_buf_printf(&cap, "Median wall time of each configuration divided by the median of the "
                        "same configuration with %s=%s%s; 1 (dashed) is the baseline's time, "
                        "below it is faster.",
                  key, base, f->m->fig_mode ? " (cold compiles)" : " and the same mode");
    ns__lines_draw(f, &p, v, nss, xk, &svg, &cap);
    ns_page_figure(f->page, id, "figures", cap.data, svg.data);
    free(id);
    ns_buf_free(&title);
    ns_buf_free(&xl);
    ns_buf_free(&yl);
    ns_buf_free(&cap);
    free(v);
    free(pts);
}

/* ====== In page order ====== */

void ns__render_page_figures(ns_page *p, const ns_page_model *m) {
    ns_page_figs f = {p, m, NULL};
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
        ns__render_page_study(&f);
        if (p->nfigs == before)
            p->figs_note = ns_strdup(
                "No figure: scaling plots need a tag with at least three numeric values, the "
                "regime map and fingerprints need runs that kept a timing report, and ratios "
                "need a baseline (--baseline K=V, or a precision tag with int8).");
        ns__render_page_study_note(p, &m->study);
    }
    free(f.color);
}
