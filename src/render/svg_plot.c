/* svg_plot.c -- the line plots and small multiples of the report page
 * (svg.h says what they show): points with their spread, lines through
 * them, fitted power laws with their exponents at the right, a dashed
 * line at ratio 1; small multiples as panels of such plots on one x range
 * with one legend.  Moved out of svg.c as it was (only the shared
 * helpers' names changed).
 *
 * This file calls only svg.c (svg_int.h), never svg_bars.c.
 */
#include "render/svg_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== Line plots ====== */

/* A fitted line's label at its right end, "∝ NAME" and the exponent
 * raised in 10-unit text: NAME cut to NS__FIT_NAME characters.  Its width
 * and height (with the raised exponent), for the room right of the plot
 * and the spacing of the labels. */
#define NS__FIT_NAME 7
#define NS__FIT_H 18.0
static double ns__fit_label_w(const char *xname) {
    size_t k = ns__svg_chars(xname);
    if (k > NS__FIT_NAME) k = NS__FIT_NAME;
    /* "∝ " and the name, then "0.69" in 10-unit text */
    return (double)(2 + k) * NS__TEXT_W + 4 * NS__TEXT_W * 10 / 12;
}

/* The width a label centred under the plot area left..right may take
 * inside x0..x1 (the figure, or its panel), 6 px clear of each edge. */
static double ns__centred_room(double left, double right, double x0, double x1) {
    double c = (left + right) / 2, half = c - x0 < x1 - c ? c - x0 : x1 - c;
    return 2 * (half - 6);
}

/* The room right of a plot area for fit labels of x axis xname: 6 px
 * before the widest label, 8 px after it. */
static double ns__fit_room(const char *xname) { return 6 + ns__fit_label_w(xname) + 8; }

/* Whether a series of p is fitted (it has a label at the right). */
static int ns__any_fitted(const ns_svg_plot *p) {
    for (int k = 0; k < p->nseries; k++)
        if (p->series[k].fitted) return 1;
    return 0;
}

/* Fit label positions: keep labels at least `gap` apart, in place order. */
static void ns__spread_labels(double *y, int n, double gap, double lo, double hi) {
    int *order = ns_xcalloc((size_t)n + 1, sizeof *order);
    for (int i = 0; i < n; i++) order[i] = i;
    for (int i = 1; i < n; i++) /* insertion sort by y, ties by index */
        for (int j = i; j > 0 && y[order[j]] < y[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (int i = 1; i < n; i++)
        if (y[order[i]] < y[order[i - 1]] + gap) y[order[i]] = y[order[i - 1]] + gap;
    if (n && y[order[n - 1]] > hi) { /* pushed off the bottom: shift all up */
        double shift = y[order[n - 1]] - hi;
        for (int i = 0; i < n; i++) y[i] -= shift;
    }
    for (int i = 0; i < n; i++)
        if (y[i] < lo) y[i] = lo;
    free(order);
}

static void ns__pt_title(ns_buf *t, const ns_svg_plot *p, const ns_svg_series *s,
                         const ns_svg_pt *q) {
    char a[32], c[32], d[32], e[32];
    t->len = 0;
    ns_buf_puts(t, s->name);
    ns_buf_puts(t, ": ");
    if (p->xcats) ns_buf_puts(t, p->xcats[(int)q->x]);
    else ns_buf_printf(t, "%s=%s", p->xname, ns_svg_num(a, q->x, 6));
    ns_buf_printf(t, ": %s %s%s", p->value_word ? p->value_word : p->connect ? "ratio" : "median",
                  ns_svg_num(c, q->y, 4), p->yunit);
    if (q->n > 0) ns_buf_printf(t, ", n=%d", q->n);
    if (isfinite(q->lo) && isfinite(q->hi) && q->n > 1)
        ns_buf_printf(t, ", min %s%s, max %s%s", ns_svg_num(d, q->lo, 4), p->yunit,
                      ns_svg_num(e, q->hi, 4), p->yunit);
}

/* The extents of every drawable point of p, merged into e = {xlo, xhi,
 * ylo, yhi}. */
static void ns__plot_extents(const ns_svg_plot *p, double e[4]) {
    int xlog = p->xlog && !p->xcats, ylog = p->ylog;
    for (int k = 0; k < p->nseries; k++)
        for (int i = 0; i < p->series[k].npts; i++) {
            const ns_svg_pt *q = &p->series[k].pts[i];
            if (!isfinite(q->x) || !isfinite(q->y)) continue;
            if ((xlog && q->x <= 0) || (ylog && q->y <= 0)) continue;
            if (q->x < e[0]) e[0] = q->x;
            if (q->x > e[1]) e[1] = q->x;
            double lo = isfinite(q->lo) && (!ylog || q->lo > 0) ? q->lo : q->y;
            double hi = isfinite(q->hi) ? q->hi : q->y;
            if (lo < e[2]) e[2] = lo;
            if (hi > e[3]) e[3] = hi;
        }
}

/* The axes of p over the extents e, in the area left..right, top..bottom. */
static void ns__plot_axes(const ns_svg_plot *p, const double e0[4], double left, double right,
                          double top, double bottom, ns__svg_ax *xa, ns__svg_ax *ya) {
    double xlo = e0[0], xhi = e0[1], ylo = e0[2], yhi = e0[3];
    int xlog = p->xlog && !p->xcats, ylog = p->ylog;
    if (!isfinite(xlo)) xlo = 1, xhi = 10, ylo = 1, yhi = 10;
    if (p->ref_one) {
        if (ylo > 1) ylo = 1;
        if (yhi < 1) yhi = 1;
    }
    memset(xa, 0, sizeof *xa);
    memset(ya, 0, sizeof *ya);
    if (p->xcats) {
        xa->log = 0;
        xa->d0 = -0.5;
        xa->d1 = p->nxcats - 0.5;
        for (int i = 0; i < p->nxcats && xa->nticks < NS__MAX_TICKS * 4; i++)
            xa->ticks[xa->nticks++] = i;
    } else if (xlog) {
        ns__svg_ax_log(xa, xlo, xhi, p->xpow2);
    } else {
        ns__svg_ax_linear(xa, xlo, xhi);
    }
    if (ylog) ns__svg_ax_log(ya, ylo, yhi, p->ref_one);
    else ns__svg_ax_linear(ya, ylo < 0 ? ylo : 0, yhi);
    xa->p0 = left;
    xa->p1 = right;
    ya->p0 = bottom;
    ya->p1 = top;
}

/* The plot area of p on the axes xa, ya: frame, reference line, series,
 * fitted lines and their exponent labels (at right + 6). */
static void ns__plot_body(ns_buf *b, const ns_svg_plot *p, const ns__svg_ax *xap,
                          const ns__svg_ax *yap, double ylx) {
    ns__svg_ax xa = *xap, ya = *yap;
    int xlog = p->xlog && !p->xcats, ylog = p->ylog;
    double left = xa.p0, right = xa.p1, top = ya.p1, bottom = ya.p0;
    ns__svg_frame(b, &xa, &ya, p->xcats, p->xlabel, p->ylabel, ylx);
    if (p->ref_one) {
        double py = ns__svg_map(&ya, 1);
        ns_buf_printf(b, "<line class=\"ref\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"currentColor\" stroke-dasharray=\"4 4\">",
                      left, py, right, py);
        ns__svg_title(b, p->ref_title ? p->ref_title : "ratio 1: the same as the baseline");
        ns_buf_puts(b, "</line>\n");
    }

    double *label_y = ns_xcalloc((size_t)p->nseries + 1, sizeof *label_y);
    int *label_k = ns_xcalloc((size_t)p->nseries + 1, sizeof *label_k);
    int nlabels = 0;
    ns_buf t = {0};
    char n1[32], n2[32], n3[32], n4[32];
    for (int k = 0; k < p->nseries; k++) {
        const ns_svg_series *s = &p->series[k];
        const char *col = ns_svg_color(s->color);
        ns_buf_puts(b, "<g class=\"series\">\n");
        /* the line through the points, then spreads, then points on top */
        if (p->connect || s->line) {
            int first = 1;
            ns_buf_printf(b, "<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" "
                             "stroke-width=\"2\" points=\"",
                          s->line ? "line" : "ratio-line", col);
            for (int i = 0; i < s->npts; i++) {
                const ns_svg_pt *q = &s->pts[i];
                if (!isfinite(q->y) || (ylog && q->y <= 0) || (xlog && q->x <= 0)) continue;
                ns_buf_printf(b, "%s%.1f,%.1f", first ? "" : " ", ns__svg_map(&xa, q->x),
                              ns__svg_map(&ya, q->y));
                first = 0;
            }
            ns_buf_puts(b, "\">");
            ns__svg_title(b, s->name);
            ns_buf_puts(b, "</polyline>\n");
        }
        if (s->fitted && isfinite(s->exponent) && isfinite(s->prefactor) && xlog && ylog) {
            double fx0 = INFINITY, fx1 = -INFINITY;
            for (int i = 0; i < s->npts; i++)
                if (s->pts[i].x > 0 && s->pts[i].y > 0) {
                    if (s->pts[i].x < fx0) fx0 = s->pts[i].x;
                    if (s->pts[i].x > fx1) fx1 = s->pts[i].x;
                }
            if (fx1 > fx0) {
                double fy0 = s->prefactor * pow(fx0, s->exponent);
                double fy1 = s->prefactor * pow(fx1, s->exponent);
                double px1 = ns__svg_map(&xa, fx1), py1 = ns__svg_map(&ya, fy1);
                ns_buf_printf(b, "<path class=\"fit\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
                                 "stroke-dasharray=\"6 3\" d=\"M%.1f %.1fL%.1f %.1f\">",
                              col, ns__svg_map(&xa, fx0), ns__svg_map(&ya, fy0), px1, py1);
                t.len = 0;
                ns_buf_printf(&t, "%s: fitted %s = %s \xc3\x97 %s^%.3f", s->name, p->ylabel,
                              ns_svg_num(n1, s->prefactor, 4), p->xname, s->exponent);
                if (isfinite(s->ci_lo) && isfinite(s->ci_hi))
                    ns_buf_printf(&t, " (95%% CI of the exponent %s to %s)",
                                  ns_svg_num(n2, s->ci_lo, 3), ns_svg_num(n3, s->ci_hi, 3));
                if (isfinite(s->r2)) ns_buf_printf(&t, ", R\xc2\xb2 %s", ns_svg_num(n4, s->r2, 3));
                ns__svg_title(b, t.data);
                ns_buf_puts(b, "</path>\n");
                label_k[nlabels] = k;
                label_y[nlabels++] = py1 + 4;
            }
        }
        for (int i = 0; i < s->npts; i++) {
            const ns_svg_pt *q = &s->pts[i];
            if (!isfinite(q->y) || !isfinite(q->lo) || !isfinite(q->hi) || !(q->hi > q->lo)) continue;
            if ((ylog && q->lo <= 0) || (xlog && q->x <= 0)) continue;
            double px = ns__svg_map(&xa, q->x);
            ns_buf_printf(b, "<path class=\"spread\" stroke=\"%s\" stroke-width=\"1.5\" "
                             "d=\"M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8\">",
                          col, px, ns__svg_map(&ya, q->lo), ns__svg_map(&ya, q->hi), px - 4,
                          ns__svg_map(&ya, q->lo), px - 4, ns__svg_map(&ya, q->hi));
            ns__pt_title(&t, p, s, q);
            ns_buf_puts(&t, " (bar: min to max over the repeats)");
            ns__svg_title(b, t.data);
            ns_buf_puts(b, "</path>\n");
        }
        for (int i = 0; !s->nomarks && i < s->npts; i++) {
            const ns_svg_pt *q = &s->pts[i];
            if (!isfinite(q->y) || (ylog && q->y <= 0) || (xlog && q->x <= 0)) continue;
            ns__svg_marker_open(b, p->mark, s->shape, ns__svg_map(&xa, q->x), ns__svg_map(&ya, q->y),
                            p->radius > 0 ? p->radius : 4, col);
            ns__pt_title(&t, p, s, q);
            ns__svg_title(b, t.data);
            ns_buf_printf(b, "</%s>\n", ns__svg_marker_tag(s->shape));
        }
        ns_buf_puts(b, "</g>\n");
    }
    /* exponent labels at the right end of each fitted line */
    ns__spread_labels(label_y, nlabels, NS__FIT_H, top + 4, bottom);
    for (int i = 0; i < nlabels; i++) {
        const ns_svg_series *s = &p->series[label_k[i]];
        ns_buf_printf(b, "<text class=\"fit-label\" x=\"%.1f\" y=\"%.1f\" fill=\"%s\" "
                         "font-weight=\"600\">\xe2\x88\x9d ",
                      right + 6, label_y[i], ns_svg_color(s->color));
        ns__svg_text_cut(b, p->xname, 7);
        ns_buf_printf(b, "<tspan dy=\"-5\" font-size=\"10\">%.2f</tspan></text>\n", s->exponent);
    }
    ns_buf_free(&t);
    free(label_y);
    free(label_k);
}

/* The legend entries of p: its own list, or one per series (caller frees
 * names, colors and shapes). */
static int ns__plot_legend(const ns_svg_plot *p, const char ***names, int **colors, int **shapes) {
    int n = p->legend ? p->nlegend : p->nseries;
    *names = ns_xcalloc((size_t)n + 1, sizeof **names);
    *colors = ns_xcalloc((size_t)n + 1, sizeof **colors);
    *shapes = ns_xcalloc((size_t)n + 1, sizeof **shapes);
    for (int k = 0; k < n; k++) {
        (*names)[k] = p->legend ? p->legend[k] : p->series[k].name;
        (*colors)[k] = p->legend ? p->legend_colors[k] : p->series[k].color;
        (*shapes)[k] = p->legend ? (p->legend_shapes ? p->legend_shapes[k] : -1) : -1;
    }
    return n;
}

void ns_svg_plot_draw(ns_buf *b, const ns_svg_plot *p) {
    double e[4] = {INFINITY, -INFINITY, INFINITY, -INFINITY};
    ns__plot_extents(p, e);
    /* legend size first: it sets the canvas height */
    const char **names;
    int *colors, *shapes;
    int nl = ns__plot_legend(p, &names, &colors, &shapes);
    const char *kind = p->legend_kind ? p->legend_kind : "series";
    ns_buf scratch = {0};
    int legend_h = ns__svg_legend_shaped(&scratch, names, colors, shapes, nl, 0, 0, NS__W - 90, kind);
    ns_buf_free(&scratch);
    double room = ns__any_fitted(p) ? ns__fit_room(p->xname) : 0;
    double left = 78, right = NS__W - (room > 96 ? room : 96), top = 40, bottom = 340;
    int h = (int)bottom + 52 + legend_h + 8;
    ns__svg_ax xa, ya;
    ns__plot_axes(p, e, left, right, top, bottom, &xa, &ya);
    xa.room = ns__centred_room(left, right, 0, NS__W);
    ns__svg_open(b, p->id, p->title, h);
    ns__plot_body(b, p, &xa, &ya, 16);
    ns__svg_legend_shaped(b, names, colors, shapes, nl, left, bottom + 52, NS__W - left - 12, kind);
    ns__svg_close(b);
    free(names);
    free(colors);
    free(shapes);
}

/* ====== Small multiples ====== */

void ns_svg_multi_draw(ns_buf *b, const ns_svg_multi *f) {
    int n = f->npanels > 0 ? f->npanels : 1;
    int cols = n == 1 ? 1 : n == 2 || n == 4 ? 2 : 3;
    int w = cols == 3 ? NS__W * 3 / 2 : NS__W, rows = (n + cols - 1) / cols;
    double pw = (double)(w - 12) / cols, ph = 250, top0 = 34;
    /* one x range for every panel, and one y range when asked */
    double all[4] = {INFINITY, -INFINITY, INFINITY, -INFINITY};
    for (int i = 0; i < f->npanels; i++) ns__plot_extents(&f->panels[i], all);
    const ns_svg_plot *p0 = f->npanels ? &f->panels[0] : NULL;
    const char **names = NULL;
    int *colors = NULL, *shapes = NULL, nl = 0;
    if (f->legend) {
        nl = f->nlegend;
        names = ns_xcalloc((size_t)nl + 1, sizeof *names);
        colors = ns_xcalloc((size_t)nl + 1, sizeof *colors);
        shapes = ns_xcalloc((size_t)nl + 1, sizeof *shapes);
        for (int k = 0; k < nl; k++) {
            names[k] = f->legend[k];
            colors[k] = f->legend_colors[k];
            shapes[k] = f->legend_shapes ? f->legend_shapes[k] : -1;
        }
    } else if (p0) {
        nl = ns__plot_legend(p0, &names, &colors, &shapes);
    }
    const char *kind = f->legend_kind ? f->legend_kind : "series";
    ns_buf scratch = {0};
    int legend_h = ns__svg_legend_shaped(&scratch, names, colors, shapes, nl, 0, 0, w - 24, kind);
    ns_buf_free(&scratch);
    double bottom_all = top0 + ph * rows;
    int h = (int)(bottom_all + 8 + legend_h + 8);
    ns__svg_open_w(b, f->id, f->title, w, h);
    for (int i = 0; i < f->npanels; i++) {
        const ns_svg_plot *p = &f->panels[i];
        double x0 = 6 + pw * (i % cols), y0 = top0 + ph * (i / cols);
        double e[4] = {all[0], all[1], INFINITY, -INFINITY};
        if (f->share_y) e[2] = all[2], e[3] = all[3];
        else ns__plot_extents(p, e), e[0] = all[0], e[1] = all[1];
        double room = f->fit_labels ? ns__fit_room(p->xname) : 0; /* the same in every panel */
        double left = x0 + 66, right = x0 + pw - (room > 14 ? room : 14);
        double top = y0 + 26, bottom = y0 + ph - 50;
        ns__svg_ax xa, ya;
        ns__plot_axes(p, e, left, right, top, bottom, &xa, &ya);
        xa.room = ns__centred_room(left, right, x0, x0 + pw);
        ns_buf_printf(b, "<g class=\"panel\" aria-label=\"");
        ns_xml_text(b, p->title);
        ns_buf_printf(b, "\">\n<text class=\"panel-title\" x=\"%.1f\" y=\"%.1f\" font-weight=\"600\">",
                      left, y0 + 14);
        ns__svg_text_fit(b, p->title, pw - 70);
        ns_buf_puts(b, "</text>\n");
        ns__plot_body(b, p, &xa, &ya, x0 + 10);
        ns_buf_puts(b, "</g>\n");
    }
    ns__svg_legend_shaped(b, names, colors, shapes, nl, 12, bottom_all + 8, w - 24, kind);
    ns__svg_close(b);
    free(names);
    free(colors);
    free(shapes);
}
