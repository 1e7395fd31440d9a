/* page_predict.c -- the page's predictions (page_predict.h): the model's
 * check as a scatter, the predicted regime map, the --predict table.
 * The scatter is an ns_svg_plot; the map is drawn here, because a cell of
 * it says more than svg_bars.c's map does (measured or predicted, and the value).
 */
#include "render/page_predict.h"
#include "render/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ====== Predicted against measured ====== */

static void ns__loo_figure(ns_page *p, const ns_page_predict *pp) {
    const ns_pred *m = pp->model;
    ns_svg_pt *pts = ns_xcalloc((size_t)m->ncfgs + 1, sizeof *pts), line[2];
    int n = 0;
    double lo = INFINITY, hi = 0;
    for (int c = 0; c < m->ncfgs; c++) {
        if (!isfinite(m->loo_pred[c]) || !(m->cfgs[c].y > 0)) continue;
        pts[n] = (ns_svg_pt){m->cfgs[c].y, m->loo_pred[c], NAN, NAN, 1};
        lo = fmin(lo, fmin(m->cfgs[c].y, m->loo_pred[c]));
        hi = fmax(hi, fmax(m->cfgs[c].y, m->loo_pred[c]));
        n++;
    }
    /* by x, as a series wants them */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && pts[j - 1].x > pts[j].x; j--) {
            ns_svg_pt t = pts[j];
            pts[j] = pts[j - 1];
            pts[j - 1] = t;
        }
    if (n < 2) {
        free(pts);
        return;
    }
    line[0] = (ns_svg_pt){lo, lo, NAN, NAN, 0};
    line[1] = (ns_svg_pt){hi, hi, NAN, NAN, 0};
    ns_svg_series s[2] = {
        {.name = "configurations, each predicted from the others", .color = 0, .pts = pts,
         .npts = n},
        {.name = "predicted = measured", .color = 7, .pts = line, .npts = 2, .line = 1,
         .nomarks = 1},
    };
    ns_buf title = {0}, cap = {0}, svg = {0};
    ns_buf_printf(&title, "Predicted against measured %s, leaving each configuration out",
                  pp->yname);
    ns_svg_plot plot = {.id = "predict-loo", .title = title.data, .xname = "measured",
                        .xlabel = "measured (median of its runs)", .ylabel = "predicted without it",
                        .yunit = "", .xlog = 1, .ylog = 1, .series = s, .nseries = 2,
                        .mark = "pt", .value_word = "predicted"};
    ns_svg_plot_draw(&svg, &plot);
    ns_buf_printf(&cap, "Each configuration of the sweep predicted by the model fitted to all the "
                        "others (leave-one-configuration-out): median error %.1f %%, worst "
                        "%.1f %% over %d configurations.  Points on the line are predicted "
                        "exactly; the predictions hold for the machine and environment the "
                        "sweep ran on.",
                  100 * m->loo_median, 100 * m->loo_max, m->loo_n);
    ns_page_figure(p, "predict-loo", "figures", cap.data, svg.data);
    ns_buf_free(&title);
    ns_buf_free(&cap);
    free(pts);
}

/* ====== The predicted regime map ====== */

/* Text of axis a's value at point q. */
static void ns__axis_value(ns_buf *b, const ns_pred *m, int a, const ns_pred_point *q) {
    const ns_pred_axis *ax = &m->axes[a];
    if (!ax->numeric) {
        ns_buf_puts(b, ax->levels[q->level[a]]);
        return;
    }
    for (int l = 0; l < ax->nlevels; l++)
        if (ax->xs[l] == q->x[a]) {
            ns_buf_puts(b, ax->levels[l]);
            return;
        }
    ns_buf_printf(b, "%.10g", q->x[a]);
}

static void ns__map_figure(ns_page *p, const ns_page_predict *pp) {
    const ns_pred *m = pp->model;
    if (pp->ngrid < 2 || m->naxes < 1 || !m->nstages) return;
    /* columns: the last plain numeric axis (window), else the last axis;
     * rows: the other axes' combinations, the first slowest */
    int col = m->naxes - 1;
    for (int a = 0; a < m->naxes; a++)
        if (m->axes[a].numeric && !m->axes[a].derived) col = a;
    int ncol = m->axes[col].nlevels, nrow = pp->ngrid / ncol;
    if (nrow * ncol != pp->ngrid) return;
    /* each cell's place: row and column of grid point i */
    int *place = ns_xcalloc((size_t)pp->ngrid + 1, sizeof *place);
    for (int i = 0; i < pp->ngrid; i++) {
        const ns_pred_point *q = &pp->grid[i];
        int r = 0, c = 0;
        for (int a = 0; a < m->naxes; a++) {
            int l = 0;
            if (m->axes[a].numeric)
                while (l < m->axes[a].nlevels - 1 && m->axes[a].xs[l] != q->x[a]) l++;
            else l = q->level[a];
            if (a == col) c = l;
            else r = r * m->axes[a].nlevels + l;
        }
        place[r * ncol + c] = i;
    }
    int cw = ncol > 8 ? 60 : 90, ch = 28, left = 190, top = 56;
    int w = left + cw * ncol + 20, h = top + ch * nrow + 60;
    ns_buf svg = {0}, t = {0};
    const char *title = "Regime map: the stage predicted to rule each cell (measured cells outlined)";
    ns_buf_printf(&svg,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"fig\" viewBox=\"0 0 %d %d\" "
                  "width=\"%d\" height=\"%d\" role=\"img\" aria-labelledby=\"predict-regime-map-t\" "
                  "font-family=\"system-ui, sans-serif\" font-size=\"12\" fill=\"currentColor\">\n"
                  "<title id=\"predict-regime-map-t\">",
                  w, h, w, h);
    ns_xml_text(&svg, title);
    ns_buf_puts(&svg, "</title>\n<text x=\"12\" y=\"20\" font-size=\"14\" font-weight=\"600\">");
    ns_xml_text(&svg, title);
    ns_buf_puts(&svg, "</text>\n");
    for (int i = 0; i < ncol; i++) {
        ns_buf_printf(&svg, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", left + cw * i + cw / 2,
                      top - 8);
        ns_xml_text(&svg, m->axes[col].levels[i]);
        ns_buf_puts(&svg, "</text>\n");
    }
    ns_buf_printf(&svg, "<text x=\"%d\" y=\"%d\">", left, top - 26);
    ns_xml_text(&svg, m->axes[col].name);
    ns_buf_puts(&svg, " \xe2\x86\x92</text>\n");
    for (int r = 0; r < nrow; r++) {
        const ns_pred_point *q0 = &pp->grid[place[r * ncol]];
        t.len = 0;
        for (int a = 0; a < m->naxes; a++) {
            if (a == col) continue;
            if (t.len) ns_buf_puts(&t, ", ");
            ns__axis_value(&t, m, a, q0);
        }
        ns_buf_printf(&svg, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", left - 8,
                      top + ch * r + ch / 2 + 4);
        ns_xml_text(&svg, t.len ? t.data : m->axes[col].name);
        ns_buf_puts(&svg, "</text>\n");
        for (int i = 0; i < ncol; i++) {
            const ns_pred_point *q = &pp->grid[place[r * ncol + i]];
            int s = -1;
            for (int j = 0; j < m->nstages && q->regime; j++)
                if (!strcmp(m->parts[j].name, q->regime)) s = j;
            double x = left + cw * i, y = top + ch * r;
            t.len = 0;
            for (int a = 0; a < m->naxes; a++) {
                ns_buf_printf(&t, "%s%s=", a ? ", " : "", m->axes[a].name);
                ns__axis_value(&t, m, a, q);
            }
            char n1[32], n2[32], n3[32];
            ns_buf_printf(&t, ": %s predicted %s (%s .. %s)%s%s", q->regime ? q->regime : "no stage",
                          ns_svg_num(n1, q->value, 4), ns_svg_num(n2, q->lo, 3),
                          ns_svg_num(n3, q->hi, 3), q->measured ? ", measured " : "",
                          q->measured ? ns_svg_num(n1, q->measured_y, 4) : "");
            ns_buf_printf(&svg, "<rect class=\"cell%s\" x=\"%.1f\" y=\"%.1f\" width=\"%d\" "
                                "height=\"%d\" fill=\"%s\"%s><title>",
                          q->measured ? " measured" : " predicted", x + 1, y + 1, cw - 2, ch - 2,
                          ns_svg_color(s), q->measured ? " stroke=\"currentColor\" stroke-width=\"2\""
                                                       : " fill-opacity=\"0.55\"");
            ns_xml_text(&svg, t.data);
            ns_buf_puts(&svg, "</title></rect>\n");
            if (q->measured)
                ns_buf_printf(&svg, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#000\" "
                                    "pointer-events=\"none\"/>\n", x + 8, y + 8);
        }
    }
    /* legend: the stages */
    int lx = 12, ly = top + ch * nrow + 24;
    for (int j = 0; j < m->nstages; j++) {
        if (m->parts[j].dropped) continue;
        ns_buf_printf(&svg, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                            "<text x=\"%d\" y=\"%d\">", lx, ly, ns_svg_color(j), lx + 16, ly + 10);
        ns_xml_text(&svg, m->parts[j].name);
        ns_buf_puts(&svg, "</text>\n");
        lx += 30 + 7 * (int)strlen(m->parts[j].name);
        if (lx > w - 120) {
            lx = 12;
            ly += 18;
        }
    }
    ns_buf_printf(&svg, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"#000\"/><text x=\"%d\" "
                        "y=\"%d\">measured</text>\n</svg>\n", lx + 6, ly + 6, lx + 14, ly + 10);
    int meas = 0;
    for (int i = 0; i < pp->ngrid; i++) meas += pp->grid[i].measured;
    ns_buf cap = {0};
    ns_buf_printf(&cap, "Every cell of the grid the sweep's axes span, coloured by the stage the "
                        "model predicts to take the most time; the %d measured cells of %d are "
                        "outlined and dotted, the others predicted (paler).",
                  meas, pp->ngrid);
    ns_page_figure(p, "predict-regime-map", "figures", cap.data, svg.data);
    ns_buf_free(&cap);
    ns_buf_free(&t);
    free(place);
}

/* ====== The --predict table ====== */

static char *ns__num_new(double v) {
    char b[32];
    return ns_strdup(ns_svg_num(b, v, 4));
}

static void ns__table(ns_page *p, const ns_page_predict *pp) {
    if (!pp->nat) return;
    const ns_pred *m = pp->model;
    static const char *const head[] = {"configuration", "predicted", "interval", "regime",
                                       "extrapolation", "measured", NULL};
    static const unsigned char num[] = {0, 1, 0, 0, 0, 1};
    ns_buf cap = {0}, note = {0};
    ns_buf_printf(&cap, "Predictions of %s (report --predict), %.0f%% intervals", pp->yname,
                  100 * m->level);
    ns_html_table *t = ns_page_table(p);
    ns_html_table_init(t, "predict-table", cap.data, head, num);
    for (int i = 0; i < pp->nat; i++) {
        const ns_pred_point *q = &pp->at[i];
        char **c = ns_html_table_row(t, NULL);
        c[0] = ns_strdup(pp->at_label[i]);
        if (pp->at_why && pp->at_why[i]) {
            c[1] = ns_strdup("-");
            c[2] = ns_strdup(pp->at_why[i]);
            continue;
        }
        c[1] = ns__num_new(q->value);
        ns_buf b = {0};
        char n1[32], n2[32];
        ns_buf_printf(&b, "%s .. %s", ns_svg_num(n1, q->lo, 4), ns_svg_num(n2, q->hi, 4));
        c[2] = b.data;
        c[3] = q->regime ? ns_strdup(q->regime) : NULL;
        ns_buf e = {0};
        for (int a = 0; a < m->naxes; a++) {
            if (q->factor[a] == 1) continue;
            ns_buf_printf(&e, "%s%s %.3gx %s", e.len ? ", " : "", m->axes[a].name,
                          q->factor[a] > 1 ? q->factor[a] : 1 / q->factor[a],
                          q->factor[a] > 1 ? "above" : "below");
            double r = ns_pred_ends_error(m, a, q->factor[a]);
            if (isfinite(r)) ns_buf_printf(&e, " (ends check: %.1f %% in the interval)", 100 * r);
            else ns_buf_printf(&e, " (no ends check: %s)",
                               ns_pred_ends_skip_why(m->axes[a].ext_skip[q->factor[a] > 1]));
        }
        if (q->cliff) ns_buf_printf(&e, "%spast a cliff", e.len ? ", " : "");
        c[4] = e.len ? e.data : ns_strdup("no");
        c[5] = q->measured ? ns__num_new(q->measured_y) : NULL;
    }
    ns_buf_printf(&note, "LOO: median error %.1f %%, worst %.1f %% over %d configurations. ",
                  100 * m->loo_median, 100 * m->loo_max, m->loo_n);
    /* the ends check, the evidence of an extrapolation's interval */
    int said = 0;
    for (int a = 0; a < m->naxes; a++)
        for (int e = 1; e >= 0; e--) {
            const ns_pred_axis *ax = &m->axes[a];
            if (!isfinite(ax->ext_err[e])) continue;
            ns_buf_printf(&note, "%s%s=%s predicted without it within %.1f %%",
                          said++ ? "; " : "Ends check (a prediction past an end has it in its "
                                          "interval, scaled to its reach): ",
                          ax->name, ns_pred_end_value(ax, e), 100 * ax->ext_err[e]);
        }
    ns_buf_puts(&note, said ? ". Predictions hold for the machine and environment the sweep ran on."
                            : "Predictions hold for the machine and environment the sweep ran on.");
    t->note = note.data;
    ns_buf_free(&cap);
}

void ns_render_predict(ns_page *p, const ns_page_predict *pp) {
    ns__loo_figure(p, pp);
    ns__map_figure(p, pp);
    ns__table(p, pp);
}
