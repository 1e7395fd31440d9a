/* svg_bars.c -- the figures of bars and cells (svg.h says what they
 * show): horizontal bars of the heaviest passes, stacked shares (the
 * fingerprints), and the regime map's grid of cells coloured by their
 * dominant stage.  Moved out of svg.c as it was (only the shared helpers'
 * names changed).
 *
 * This file calls only svg.c (svg_int.h), never svg_plot.c.
 */
#include "render/svg_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== Horizontal bars ====== */

/* The width the names of a figure's rows take (ns__svg_text_w): the
 * widest, at least `least` px and at most `most` (a longer one is cut). */
static double ns__names_w(const char *const *names, int n, double least, double most) {
    double w = least;
    for (int i = 0; i < n; i++) {
        double k = ns__svg_text_w(names[i]);
        if (k > w) w = k;
    }
    return w < most ? w : most;
}

void ns_svg_bars_draw(ns_buf *b, const ns_svg_bars *f) {
    double vmax = 0;
    for (int i = 0; i < f->n; i++)
        if (isfinite(f->values[i]) && f->values[i] > vmax) vmax = f->values[i];
    /* the names left of the bars, the bars at least 290 px */
    double namew = ns__names_w(f->names, f->n, 60, NS__W * 0.45);
    double left = 12 + namew + 8, right = NS__W - 110, top = 40;
    double row = 20, bottom = top + row * (f->n > 0 ? f->n : 1);
    ns_buf scratch = {0};
    int legend_h = ns__svg_legend(&scratch, f->legend, f->legend_colors, f->nlegend, 0, 0,
                              NS__W - 24, "stage");
    ns_buf_free(&scratch);
    int h = (int)(bottom + 48 + legend_h + 8);
    ns__svg_ax xa = {0}, ya = {0};
    ns__svg_ax_linear(&xa, 0, vmax > 0 ? vmax : 1);
    xa.p0 = left;
    xa.p1 = right;
    ya.d0 = 0;
    ya.d1 = 1;
    ya.p0 = bottom;
    ya.p1 = top;

    ns__svg_open(b, f->id, f->title, h);
    ns__svg_frame(b, &xa, &ya, NULL, f->xlabel, "", 16);
    ns_buf t = {0};
    char n1[32], n2[32];
    for (int i = 0; i < f->n; i++) {
        double y = top + row * i, v = isfinite(f->values[i]) ? f->values[i] : 0;
        double w = v > 0 ? ns__svg_map(&xa, v) - left : 0;
        t.len = 0;
        ns_buf_printf(&t, "%s: %s s", f->names[i], ns_svg_num(n1, f->values[i], 4));
        if (f->shares && isfinite(f->shares[i]))
            ns_buf_printf(&t, ", %s%% of the total", ns_svg_num(n2, f->shares[i] * 100, 3));
        if (f->groups && f->groups[i]) ns_buf_printf(&t, ", stage %s", f->groups[i]);
        ns_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 6, y + 14);
        ns__svg_text_fit(b, f->names[i], namew);
        ns_buf_printf(b, "</text>\n<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                         "height=\"%.1f\" fill=\"%s\">",
                      left, y + 3, w, row - 6, ns_svg_color(f->colors[i]));
        ns__svg_title(b, t.data);
        ns_buf_printf(b, "</rect>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%s s", left + w + 4,
                      y + 14, ns_svg_num(n1, f->values[i], 4));
        if (f->shares && isfinite(f->shares[i]))
            ns_buf_printf(b, "  %s%%", ns_svg_num(n2, f->shares[i] * 100, 3));
        ns_buf_puts(b, "</text>\n");
    }
    ns__svg_legend(b, f->legend, f->legend_colors, f->nlegend, 12, bottom + 48, NS__W - 24, "stage");
    ns__svg_close(b);
    ns_buf_free(&t);
}

/* ====== Stacked shares ====== */

/* The stages that have a segment somewhere (legend entries). */
static int ns__used_stages(const double *shares, int nrows, int nstages, const char **stages,
                           const int *colors, const char **names, int *cols) {
    int n = 0;
    for (int s = 0; s < nstages; s++) {
        int used = 0;
        for (int r = 0; r < nrows && !used; r++) {
            double v = shares[(size_t)r * (size_t)nstages + (size_t)s];
            used = isfinite(v) && v > 0;
        }
        if (!used) continue;
        names[n] = stages[s];
        cols[n++] = colors[s];
    }
    return n;
}

void ns_svg_stack_draw(ns_buf *b, const ns_svg_stack *f) {
    double namew = ns__names_w(f->rows, f->nrows, 60, NS__W * 0.42);
    const char **lnames = ns_xcalloc((size_t)f->nstages + 1, sizeof *lnames);
    int *lcols = ns_xcalloc((size_t)f->nstages + 1, sizeof *lcols);
    int nl = ns__used_stages(f->shares, f->nrows, f->nstages, f->stages, f->colors, lnames, lcols);
    ns_buf scratch = {0};
    int legend_h = ns__svg_legend(&scratch, lnames, lcols, nl, 0, 0, NS__W - 24, "stage");
    ns_buf_free(&scratch);
    double left = 12 + namew + 8, right = NS__W - 24, top = 52, row = 22;
    double bottom = top + row * (f->nrows > 0 ? f->nrows : 1);
    int h = (int)(bottom + 48 + legend_h + 8);
    ns__svg_ax xa = {0}, ya = {0};
    ns__svg_ax_linear(&xa, 0, 100);
    xa.p0 = left;
    xa.p1 = right;
    ya.d0 = 0;
    ya.d1 = 1;
    ya.p0 = bottom;
    ya.p1 = top;

    ns__svg_open(b, f->id, f->title, h);
    ns__svg_frame(b, &xa, &ya, NULL, "share of the compile's total time (%)", "", 16);
    if (f->rowname) {
        ns_buf_printf(b, "<text x=\"12\" y=\"%.1f\" font-weight=\"600\">", top - 6);
        ns__svg_text_fit(b, f->rowname, NS__W - 24);
        ns_buf_puts(b, "</text>\n");
    }
    ns_buf t = {0};
    char n1[32];
    for (int r = 0; r < f->nrows; r++) {
        double y = top + row * r, x = 0;
        ns_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 6, y + 15);
        ns__svg_text_fit(b, f->rows[r], namew);
        ns_buf_puts(b, "</text>\n<g class=\"stack\">");
        int any = 0;
        for (int s = 0; s < f->nstages; s++) {
            double v = f->shares[(size_t)r * (size_t)f->nstages + (size_t)s];
            if (!isfinite(v) || v <= 0) continue;
            double w = v * 100;
            if (x + w > 100) w = 100 - x; /* never past the end (shares may add to more) */
            if (w <= 0) continue;
            any = 1;
            t.len = 0;
            ns_buf_printf(&t, "%s: %s %s%%", f->rows[r], f->stages[s], ns_svg_num(n1, v * 100, 3));
            ns_buf_printf(b, "<rect class=\"seg\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                             "height=\"%.1f\" fill=\"%s\">",
                          ns__svg_map(&xa, x), y + 3, ns__svg_map(&xa, x + w) - ns__svg_map(&xa, x), row - 6,
                          ns_svg_color(f->colors[s]));
            ns__svg_title(b, t.data);
            ns_buf_puts(b, "</rect>");
            x += w;
        }
        if (!any) {
            ns_buf_printf(b, "<rect class=\"seg-none\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                             "height=\"%.1f\" fill=\"none\" stroke=\"currentColor\" "
                             "stroke-dasharray=\"3 3\">",
                          left, y + 3, right - left, row - 6);
            t.len = 0;
            ns_buf_printf(&t, "%s: no stage data (no counted run kept a timing report)", f->rows[r]);
            ns__svg_title(b, t.data);
            ns_buf_puts(b, "</rect>");
        }
        ns_buf_puts(b, "</g>\n");
    }
    ns__svg_legend(b, lnames, lcols, nl, 12, bottom + 48, NS__W - 24, "stage");
    ns__svg_close(b);
    ns_buf_free(&t);
    free(lnames);
    free(lcols);
}

/* ====== Regime map ====== */

void ns_svg_regime_draw(ns_buf *b, const ns_svg_regime *f) {
    double namew = ns__names_w(f->yvals, f->ny, 30, 190);
    double left = 40 + namew + 8, top = 70;
    double cw = (NS__W - 24 - left) / (f->nx > 0 ? f->nx : 1), ch = 30;
    if (cw > 96) cw = 96;
    /* legend: the stages that colour a cell */
    const char **lnames = ns_xcalloc((size_t)f->nstages + 1, sizeof *lnames);
    int *lcols = ns_xcalloc((size_t)f->nstages + 1, sizeof *lcols);
    int nl = 0;
    for (int s = 0; s < f->nstages; s++) {
        int used = 0;
        for (int i = 0; i < f->nx * f->ny && !used; i++) used = f->cell[i] == s;
        if (used) {
            lnames[nl] = f->stages[s];
            lcols[nl++] = f->colors[s];
        }
    }
    ns_buf scratch = {0};
    int legend_h = ns__svg_legend(&scratch, lnames, lcols, nl, 0, 0, NS__W - 24, "dominant stage");
    ns_buf_free(&scratch);
    double bottom = top + ch * f->ny;
    int h = (int)(bottom + 20 + legend_h + 8);

    ns__svg_open(b, f->id, f->title, h);
    /* column header: the x tag and its values */
    ns_buf_printf(b, "<text class=\"xlabel\" x=\"%.1f\" y=\"42\" text-anchor=\"middle\" "
                     "font-weight=\"600\">",
                  left + cw * f->nx / 2);
    ns__svg_text_fit(b, f->xname, NS__W - 24 - left);
    ns_buf_puts(b, "</text>\n");
    for (int i = 0; i < f->nx; i++) {
        ns_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", left + cw * (i + 0.5),
                      top - 8);
        ns__svg_text_fit(b, f->xvals[i], cw - 4 > 24 ? cw - 4 : 24);
        ns_buf_puts(b, "</text>\n");
    }
    if (f->yname) {
        ns_buf_printf(b, "<text class=\"ylabel\" transform=\"translate(18 %.1f) rotate(-90)\" "
                         "text-anchor=\"middle\" font-weight=\"600\">",
                      (top + bottom) / 2);
        ns__svg_text_fit(b, f->yname, bottom - top);
        ns_buf_puts(b, "</text>\n");
    }
    ns_buf t = {0};
    char n1[32];
    for (int j = 0; j < f->ny; j++) {
        double y = top + ch * j;
        ns_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 6, y + ch / 2 + 4);
        ns__svg_text_fit(b, f->yvals[j], namew);
        ns_buf_puts(b, "</text>\n");
        for (int i = 0; i < f->nx; i++) {
            size_t at = (size_t)j * (size_t)f->nx + (size_t)i;
            int s = f->cell[at];
            double x = left + cw * i;
            t.len = 0;
            ns_buf_printf(&t, "%s=%s", f->xname, f->xvals[i]);
            if (f->yname) ns_buf_printf(&t, ", %s=%s", f->yname, f->yvals[j]);
            if (s < 0) {
                ns_buf_puts(&t, ": no stage data");
                ns_buf_printf(b, "<rect class=\"cell cell-empty\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                                 "height=\"%.1f\" fill=\"none\" stroke=\"currentColor\" "
                                 "stroke-opacity=\"0.4\" stroke-dasharray=\"3 3\">",
                              x + 1, y + 1, cw - 2, ch - 2);
                ns__svg_title(b, t.data);
                ns_buf_puts(b, "</rect>\n");
                continue;
            }
            ns_buf_printf(&t, ": dominant stage %s, %s%% of the time (median over %d run%s)",
                          f->stages[s], ns_svg_num(n1, f->share[at] * 100, 3), f->nruns[at],
                          f->nruns[at] == 1 ? "" : "s");
            ns_buf_printf(b, "<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                             "height=\"%.1f\" fill=\"%s\">",
                          x + 1, y + 1, cw - 2, ch - 2, ns_svg_color(f->colors[s]));
            ns__svg_title(b, t.data);
            ns_buf_printf(b, "</rect>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                             "fill=\"%s\" font-size=\"11\" pointer-events=\"none\">%.0f%%</text>\n",
                          x + cw / 2, y + ch / 2 + 4, ns__svg_on_color(f->colors[s]),
                          f->share[at] * 100);
        }
    }
    ns__svg_legend(b, lnames, lcols, nl, 12, bottom + 20, NS__W - 24, "dominant stage");
    ns__svg_close(b);
    ns_buf_free(&t);
    free(lnames);
    free(lcols);
}
