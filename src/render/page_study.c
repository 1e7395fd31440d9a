/* page_study.c -- the study's figures of the report page (page_int.h
 * lists the module's files): the hand-off, why-costly, the family
 * fingerprint, precision-size and precision-scaling, drawn from the
 * model's m->study; when a sweep is a study but cannot carry one of them,
 * the figures note names it with the model's reason.  Moved out of
 * page_figures.c as it was (only the shared helpers' names changed).
 *
 * This file must not compute a statistic, and calls only page_fighelp.c.
 */
#include "render/page_int.h"

#include "render/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== The study's figures ====== */

static const char *const ns__study_fig_names[6] = {"regime map", "hand-off", "why-costly",
                                                  "family fingerprint", "precision-size",
                                                  "precision-scaling"};

/* A page_lines figure's points of (panel, series) as ns_svg_pt (caller frees). */
static ns_svg_pt *ns__lines_pts_new(const ns_page_lines *l, int panel, int series, double scale,
                                    int *n) {
    ns_svg_pt *v = ns_xcalloc((size_t)l->npts + 1, sizeof *v);
    *n = 0;
    for (int i = 0; i < l->npts; i++)
        if (l->pts[i].panel == panel && l->pts[i].series == series)
            v[(*n)++] = (ns_svg_pt){l->pts[i].x, l->pts[i].y * scale, NAN, NAN, l->pts[i].n};
    return v;
}

/* The hand-off: every cell's stage shares against its compile time, the
 * family as the marker, a line per stage through the bins' medians. */
static void ns__handoff(ns_page_figs *f) {
    const ns_page_study *s = &f->m->study;
    const ns_table *t = &f->m->table;
    size_t nst = t->stages.count;
    if (!s->built || !s->nbins) return;
    int nfam = s->nfam ? s->nfam : 1;
    ns_svg_series *ss = ns_xcalloc(nst * (size_t)(nfam + 1) + 1, sizeof *ss);
    ns_svg_pt *pts = ns_xcalloc(nst * (size_t)(s->ncells + s->nbins) + 1, sizeof *pts);
    char **names = ns_xcalloc(nst * (size_t)(nfam + 1) + 1, sizeof *names);
    const char **legend = ns_xcalloc(nst + (size_t)nfam + 1, sizeof *legend);
    int *lcol = ns_xcalloc(nst + (size_t)nfam + 1, sizeof *lcol);
    int *lshape = ns_xcalloc(nst + (size_t)nfam + 1, sizeof *lshape);
    int n = 0, used = 0, nl = 0;
    for (size_t k = 0; k < nst; k++) {
        double top = 0;
        for (int b = 0; b < s->nbins; b++) {
            double v = s->bin_share[(size_t)b * nst + k];
            if (isfinite(v) && v > top) top = v;
        }
        if (top < 0.05) continue; /* a stage that never holds 5% of a bin */
        int col = ns__page_stage_color(f, t->stages.keys[k]);
        legend[nl] = t->stages.keys[k];
        lcol[nl] = col;
        lshape[nl++] = -1;
        for (int fa = 0; fa < nfam; fa++) {
            ns_svg_series *o = &ss[n];
            o->pts = &pts[used];
            for (int i = 0; i < s->ncells; i++) {
                const ns_page_cell *c = &s->cells[i];
                double v = c->row->shares[k];
                if ((s->nfam && c->family != fa) || !isfinite(v) || !(c->time > 0)) continue;
                pts[used + o->npts++] = (ns_svg_pt){c->time, v * 100, NAN, NAN, 0};
            }
            if (!o->npts) continue;
            /* by time, for the titles' order */
            for (int i = 1; i < o->npts; i++)
                for (int j = i; j > 0 && pts[used + j].x < pts[used + j - 1].x; j--) {
                    ns_svg_pt x = pts[used + j];
                    pts[used + j] = pts[used + j - 1];
                    pts[used + j - 1] = x;
                }
            ns_buf nm = {0};
            ns_buf_printf(&nm, "%s, %s%s", t->stages.keys[k], s->nfam ? "family " : "all",
                          s->nfam ? s->families[fa] : "");
            names[n] = nm.data;
            o->name = names[n];
            o->color = col;
            o->shape = fa;
            used += o->npts;
            n++;
        }
        ns_svg_series *o = &ss[n];
        o->pts = &pts[used];
        for (int b = 0; b < s->nbins; b++) {
            double v = s->bin_share[(size_t)b * nst + k];
            if (isfinite(v)) pts[used + o->npts++] = (ns_svg_pt){s->bin_x[b], v * 100, NAN, NAN, 0};
        }
        ns_buf nm = {0};
        ns_buf_printf(&nm, "%s: median share over bins of neighbouring compile times", t->stages.keys[k]);
        names[n] = nm.data;
        o->name = names[n];
        o->color = col;
        o->line = 1;
        o->nomarks = 1;
        used += o->npts;
        n++;
    }
    for (int fa = 0; fa < s->nfam; fa++) {
        legend[nl] = s->families[fa];
        lcol[nl] = NS_SVG_GREY;
        lshape[nl++] = fa;
    }
    char *id = ns__page_fig_id_new(f->page, "handoff", NULL, NULL);
    ns_buf svg = {0}, cap = {0};
    char a[32];
    ns_svg_plot p = {.id = id, .title = "The hand-off: stage shares against compile time",
                     .xname = "compile time", .xlabel = "compile time: summed report totals (s, log scale)",
                     .ylabel = "share of the compile's time (%)", .yunit = "%", .xlog = 1,
                     .series = ss, .nseries = n, .mark = "pt", .value_word = "share",
                     .radius = 3.5, .legend = legend, .legend_colors = lcol,
                     .legend_shapes = lshape, .nlegend = nl, .legend_kind = "stage or family"};
    ns_svg_plot_draw(&svg, &p);
    ns_buf_printf(&cap, "Each configuration's share of each stage (colour) against its %scompile "
                        "time, the summed totals of its timing reports (median over the "
                        "repeats)%s. Lines: each stage's median "
                        "share over %d bins of configurations of neighbouring compile time. "
                        "Stages that never hold 5%% of a bin are left out. Hand-off order: ",
                  f->m->fig_mode ? "cold " : "",
                  s->nfam ? "; the marker is the model's family" : "", s->nbins);
    for (int i = 0; i < s->nlead; i++) {
        ns_buf_printf(&cap, "%s%s", i ? " \xe2\x86\x92 " : "", t->stages.keys[s->lead[i]]);
        if (i + 1 < s->nlead) ns_buf_printf(&cap, " (to \xe2\x89\x88 %s s)", ns_svg_num(a, s->lead_to[i], 3));
    }
    ns_buf_puts(&cap, ".");
    if (s->fam_checked) {
        ns_buf_printf(&cap, " Each family alone (its own bins): the same order in %d of %d "
                            "famil%s (",
                      s->fam_same, s->fam_checked, s->fam_checked == 1 ? "y" : "ies");
        for (int fa = 0, first = 1; fa < s->nfam; fa++) {
            if (!s->fam_nlead[fa]) continue;
            ns_buf_printf(&cap, "%s%s: ", first ? "" : "; ", s->families[fa]);
            for (int i = 0; i < s->fam_nlead[fa]; i++)
                ns_buf_printf(&cap, "%s%s", i ? " \xe2\x86\x92 " : "", t->stages.keys[s->fam_lead[fa * 8 + i]]);
            first = 0;
        }
        ns_buf_puts(&cap, "); a family may skip a stage that never leads it.");
    }
    ns_page_figure(f->page, id, "figures", cap.data, svg.data);
    for (int i = 0; i < n; i++) free(names[i]);
    free(names);
    free(ss);
    free(pts);
    free(legend);
    free(lcol);
    free(lshape);
    free(id);
    ns_buf_free(&cap);
}

/* Why it is costly: the dominant pass against its workload fact, a point
 * per report (sub-model compile), with the fitted power law. */
static void ns__why(ns_page_figs *f) {
    const ns_page_study *s = &f->m->study;
    if (!s->built || !s->why) return;
    const ns_fit *fit = &s->why->fit;
    ns_svg_pt *pts = ns_xcalloc((size_t)fit->npts + 1, sizeof *pts);
    for (int i = 0; i < fit->npts; i++)
        pts[i] = (ns_svg_pt){fit->pts[i].x, fit->pts[i].y, NAN, NAN, fit->pts[i].n};
    ns_buf title = {0}, xl = {0}, yl = {0}, nm = {0}, svg = {0}, cap = {0};
    ns_buf_printf(&nm, "%s, a report", s->why_pass);
    ns_svg_series ser = {.name = nm.data, .color = 0, .pts = pts, .npts = fit->npts,
                         .fitted = fit->ok, .exponent = fit->exponent, .prefactor = fit->prefactor,
                         .r2 = fit->r2, .ci_lo = fit->ci95_lo, .ci_hi = fit->ci95_hi};
    char *id = ns__page_fig_id_new(f->page, "why-costly", s->why_pass, NULL);
    ns_buf_printf(&title, "Why it is costly: %s against %s (log-log)", s->why_pass, s->why_fact);
    ns_buf_printf(&xl, "%s (compiler fact of each report, log scale)", s->why_fact);
    ns_buf_printf(&yl, "%s wall time (s)", s->why_pass);
    ns_svg_plot p = {.id = id, .title = title.data, .xname = s->why_fact, .xlabel = xl.data,
                     .ylabel = yl.data, .yunit = " s", .xlog = 1, .ylog = 1, .series = &ser,
                     .nseries = 1, .mark = "pt", .value_word = "time", .radius = 2.5};
    ns_svg_plot_draw(&svg, &p);
    char a[32], b[32], c[32], d[32];
    const char *regime = "its";
    for (int g = 0; g < s->study.nregimes; g++)
        if (s->study.regimes[g].pass && !strcmp(s->study.regimes[g].pass, s->why_pass)) regime = s->study.regimes[g].stage;
    ns_buf_printf(&cap, "Each point is one timing report (one sub-model compile) of every counted "
                        "compile: the time of %s, the pass that dominates the %s regime, against "
                        "the report's %s. Fitted by least squares of ln time on ln %s over %d "
                        "reports: %s \xe2\x88\x9d %s^%s (95%% interval of the exponent %s to %s, "
                        "R\xc2\xb2 %s).",
                  s->why_pass, regime, s->why_fact, s->why_fact, fit->used, s->why_pass,
                  s->why_fact, ns_svg_num(a, fit->exponent, 3), ns_svg_num(b, fit->ci95_lo, 3),
                  ns_svg_num(c, fit->ci95_hi, 3), ns_svg_num(d, fit->r2, 3));
    ns_page_figure(f->page, id, "figures", cap.data, svg.data);
    free(id);
    free(pts);
    ns_buf_free(&title);
    ns_buf_free(&xl);
    ns_buf_free(&yl);
    ns_buf_free(&nm);
    ns_buf_free(&cap);
}

/* The family fingerprint: stage shares at one window, a bar per model. */
static void ns__fp_family(ns_page_figs *f) {
    const ns_page_study *s = &f->m->study;
    const ns_table *t = &f->m->table;
    size_t nst = t->stages.count;
    if (!s->built || s->fp_n < 2) return;
    const char **rows = ns_xcalloc((size_t)s->fp_n + 1, sizeof *rows);
    char **owned = ns_xcalloc((size_t)s->fp_n + 1, sizeof *owned);
    for (int i = 0; i < s->fp_n; i++) {
        const char *mo = s->models[s->fp_model[i]];
        const char *fam = "";
        for (int c = 0; c < s->ncells; c++)
            if (s->cells[c].model == s->fp_model[i] && s->cells[c].family >= 0) fam = s->families[s->cells[c].family];
        ns_buf b = {0};
        ns_buf_printf(&b, "%s \xc2\xb7 %s", fam, mo);
        owned[i] = b.data;
        rows[i] = owned[i];
    }
    const char **names = ns__page_stage_names_new(f->m);
    char *id = ns__page_fig_id_new(f->page, "fingerprint-family", s->wk, s->fp_window);
    ns_buf title = {0}, svg = {0}, cap = {0};
    ns_buf_printf(&title, "Family fingerprint at %s=%s", s->wk, s->fp_window);
    ns_svg_stack st = {id, title.data, "family \xc2\xb7 model", rows, s->fp_n, names, f->color,
                       (int)nst, s->fp_share};
    ns_svg_stack_draw(&svg, &st);
    ns_buf_printf(&cap, "Median share of each stage in the compile's time at %s=%s, one bar per "
                        "model, grouped by family (%d families have a compile there: the window "
                        "most families share, the middle one of a tie)",
                  s->wk, s->fp_window, s->fp_nfam);
    if (s->pk) ns_buf_printf(&cap, ", at %s=%s", s->pk, s->base);
    ns_buf_puts(&cap, "; the other tags pooled.");
    ns_page_figure(f->page, id, "figures", cap.data, svg.data);
    for (int i = 0; i < s->fp_n; i++) free(owned[i]);
    free(owned);
    free(rows);
    free(names);
    free(id);
    ns_buf_free(&title);
    ns_buf_free(&cap);
}

/* Precision against size: time at a window, and the ratio to the
 * baseline (median over windows) with the y = 1 line. */
static void ns__prec_size(ns_page_figs *f) {
    const ns_page_study *s = &f->m->study;
    if (!s->built || !s->ps_ratio.npts) return;
    int np = s->nprecs;
    ns_svg_series *s1 = ns_xcalloc((size_t)np + 1, sizeof *s1), *s2 = ns_xcalloc((size_t)np + 1, sizeof *s2);
    ns_svg_pt **p1 = ns_xcalloc((size_t)np + 1, sizeof *p1), **p2 = ns_xcalloc((size_t)np + 1, sizeof *p2);
    char **n2 = ns_xcalloc((size_t)np + 1, sizeof *n2);
    int *lc = ns_xcalloc((size_t)np + 1, sizeof *lc), ns2 = 0;
    for (int p = 0; p < np; p++) {
        int n;
        lc[p] = p;
        p1[p] = ns__lines_pts_new(&s->ps_time, 0, p, 1, &n);
        s1[p] = (ns_svg_series){.name = s->precs[p], .color = p, .pts = p1[p], .npts = n, .line = 1};
        if (p == 0) continue;
        p2[p] = ns__lines_pts_new(&s->ps_ratio, 0, p, 1, &n);
        ns_buf b = {0};
        ns_buf_printf(&b, "%s / %s", s->precs[p], s->base);
        n2[p] = b.data;
        s2[ns2++] = (ns_svg_series){.name = n2[p], .color = p, .pts = p2[p], .npts = n, .line = 1};
    }
    ns_buf t1 = {0}, yl2 = {0}, svg = {0}, cap = {0};
    if (s->fp_window) ns_buf_printf(&t1, "compile time at %s=%s", s->wk, s->fp_window);
    else ns_buf_puts(&t1, "compile time");
    ns_buf_printf(&yl2, "time / %s=%s", s->pk, s->base);
    ns_buf t2 = {0};
    ns_buf_printf(&t2, "ratio to %s=%s", s->pk, s->base);
    ns_svg_plot panels[2] = {
        {.title = t1.data, .xname = "size_b", .xlabel = "model size (B parameters, log scale)",
         .ylabel = "compile time (s)", .yunit = " s", .xlog = 1, .ylog = 1, .series = s1,
         .nseries = np, .mark = "pt"},
        {.title = t2.data, .xname = "size_b", .xlabel = "model size (B parameters, log scale)",
         .ylabel = yl2.data, .yunit = "\xc3\x97", .xlog = 1, .ylog = 1, .ref_one = 1,
         .ref_title = "ratio 1: as fast as the baseline precision", .series = s2, .nseries = ns2,
         .mark = "ratio", .value_word = "ratio"},
    };
    char *id = ns__page_fig_id_new(f->page, "precision-size", s->pk, NULL);
    ns_buf title = {0};
    ns_buf_printf(&title, "Precision against model size: %s", s->pk);
    ns_svg_multi mp = {.id = id, .title = title.data, .panels = panels, .npanels = 2,
                       .legend = s->precs, .legend_colors = lc, .nlegend = np,
                       .legend_kind = s->pk};
    ns_svg_multi_draw(&svg, &mp);
    ns_buf_printf(&cap, "Left: each precision's compile time (the summed report totals, median "
                        "over the repeats) against the model's size (size_b, from the model "
                        "name)%s. Right: the compile time over the same configuration's at "
                        "%s=%s, median over the %ss and other tags; the dashed line is 1 (as "
                        "fast as %s).",
                  s->fp_window ? " at the window of the family fingerprint" : "", s->pk, s->base,
                  s->wk ? s->wk : "configuration", s->base);
    char a[32], b[32], c[32];
    for (int p = 1; p < np; p++) {
        if (!isfinite(s->ratio_lo[p])) continue;
        ns_buf_printf(&cap, " %s / %s: %s\xc3\x97 to %s\xc3\x97", s->precs[p], s->base,
                      ns_svg_num(a, s->ratio_lo[p], 3), ns_svg_num(b, s->ratio_hi[p], 3));
        if (isfinite(s->cross[p]))
            ns_buf_printf(&cap, ", crossing 1 at \xe2\x89\x88 %s B (log-log between the "
                                "neighbouring sizes)", ns_svg_num(c, s->cross[p], 3));
        else
            ns_buf_printf(&cap, ", %s 1 at every size", s->ratio_hi[p] <= 1 ? "at or below" : "above");
        ns_buf_puts(&cap, ".");
    }
    ns_page_figure(f->page, id, "figures", cap.data, svg.data);
    for (int p = 0; p < np; p++) free(p1[p]), free(p2[p]), free(n2[p]);
    free(p1);
    free(p2);
    free(n2);
    free(s1);
    free(s2);
    free(lc);
    free(id);
    ns_buf_free(&t1);
    ns_buf_free(&t2);
    ns_buf_free(&yl2);
    ns_buf_free(&title);
    ns_buf_free(&cap);
}

/* Precision scaling: the memory-scheduling share against the window, a
 * line per precision, a panel per model. */
static void ns__prec_scaling(ns_page_figs *f) {
    const ns_page_study *s = &f->m->study;
    const ns_page_lines *l = &s->ms;
    if (!s->built || !l->npts) return;
    int np = l->npanels, nsr = l->nseries;
    ns_svg_plot *panels = ns_xcalloc((size_t)np + 1, sizeof *panels);
    ns_svg_series *ss = ns_xcalloc((size_t)(np * nsr) + 1, sizeof *ss);
    ns_svg_pt **pts = ns_xcalloc((size_t)(np * nsr) + 1, sizeof *pts);
    char **pt = ns_xcalloc((size_t)np + 1, sizeof *pt);
    int *lc = ns_xcalloc((size_t)nsr + 1, sizeof *lc);
    int pow2 = 1;
    for (int i = 0; i < l->npts; i++) {
        double x = l->pts[i].x;
        pow2 &= x > 0 && ldexp(1, (int)lround(log2(x))) == x;
    }
    ns_buf yl = {0};
    ns_buf_printf(&yl, "%s share (%%)", f->m->table.stages.keys[s->ms_stage]);
    for (int pa = 0; pa < np; pa++) {
        for (int k = 0; k < nsr; k++) {
            int n, at = pa * nsr + k;
            pts[at] = ns__lines_pts_new(l, pa, k, 100, &n);
            ss[at] = (ns_svg_series){.name = l->series[k], .color = k, .pts = pts[at], .npts = n, .line = 1};
            lc[k] = k;
        }
        ns_buf b = {0};
        if (l->panels) ns_buf_printf(&b, "model=%s", l->panels[pa]);
        else ns_buf_puts(&b, "every configuration");
        pt[pa] = b.data;
        panels[pa] = (ns_svg_plot){.title = pt[pa], .xname = s->wk, .xlabel = s->wk, .ylabel = yl.data,
                                   .yunit = "%", .xlog = 1, .xpow2 = pow2, .series = &ss[pa * nsr],
                                   .nseries = nsr, .mark = "pt", .value_word = "share"};
    }
    char *id = ns__page_fig_id_new(f->page, "precision-scaling", s->pk, NULL);
    ns_buf title = {0}, svg = {0}, cap = {0};
    ns_buf_printf(&title, "%s share against %s, per %s", f->m->table.stages.keys[s->ms_stage], s->wk, s->pk);
    ns_svg_multi mp = {.id = id, .title = title.data, .panels = panels, .npanels = np, .share_y = 1,
                       .legend = l->series, .legend_colors = lc, .nlegend = nsr, .legend_kind = s->pk};
    ns_svg_multi_draw(&svg, &mp);
    ns_buf_printf(&cap, "The median share of %s in the compile's time at each %s, one line per "
                        "%s, one panel per model (by size); the panels share their axes.",
                  f->m->table.stages.keys[s->ms_stage], s->wk, s->pk);
    ns_page_figure(f->page, id, "figures", cap.data, svg.data);
    for (int i = 0; i < np * nsr; i++) free(pts[i]);
    for (int i = 0; i < np; i++) free(pt[i]);
    free(pts);
    free(pt);
    free(ss);
    free(panels);
    free(lc);
    free(id);
    ns_buf_free(&yl);
    ns_buf_free(&title);
    ns_buf_free(&cap);
}

/* Why a study figure is absent, in one sentence for the page. */
void ns__render_page_study_note(ns_page *p, const ns_page_study *s) {
    if (!s->built) return;
    ns_buf b = {0};
    if (p->figs_note) ns_buf_printf(&b, "%s ", p->figs_note);
    int any = 0;
    for (int i = 0; i < 6; i++)
        if (s->absent[i]) {
            ns_buf_printf(&b, "%s%s: %s", any ? "; " : "Study figures left out: ",
                          ns__study_fig_names[i], s->absent[i]);
            any = 1;
        }
    if (!any) {
        ns_buf_free(&b);
        return;
    }
    ns_buf_puts(&b, ".");
    free(p->figs_note);
    p->figs_note = b.data;
}

void ns__render_page_study(ns_page_figs *f) {
    ns__handoff(f);
    ns__why(f);
    ns__fp_family(f);
    ns__prec_size(f);
    ns__prec_scaling(f);
}
