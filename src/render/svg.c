/* render_svg.c -- figures as SVG text (see render_svg.h for what each one
 * shows and the rules every one follows).
 *
 * Layout is arithmetic on a fixed canvas 720 units wide: margins, a plot
 * area, a legend laid out in columns below it.  Text widths are estimated
 * at NS__CHAR_W per character (12-unit sans-serif), which is enough to
 * keep labels from running into each other; long names are cut with an
 * ellipsis and given whole in the mark's <title>.
 */
#include "render/svg.h"

#include "base/display.h"

#include "base/jsonw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NS__W 720          /* canvas width */
#define NS__CHAR_W 7.0     /* estimated width of one character of 12-unit text */
#define NS__FONT "font-family=\"system-ui,-apple-system,'Segoe UI',Roboto,sans-serif\""
#define NS__MAX_TICKS 12   /* upper bound on ticks per axis */

/* ====== Text ====== */

void ns_xml_textn(ns_buf *b, const char *s, size_t n) {
    const unsigned char *u = (const unsigned char *)s;
    ns_buf_grow(b, n);
    for (size_t i = 0; i < n;) {
        unsigned char c = u[i];
        size_t clen;
        unsigned cp = c == '\t' || c == '\n' ? 0 : ns_display_control(s + i, n - i, &clen);
        if (cp) { /* a control or bidi character, shown as its escape (base/display.h) */
            if (cp == 0x100) cp = 0;
            if (cp < 0x80) ns_buf_printf(b, "\\x%02x", cp);
            else ns_buf_printf(b, "\\u%04X", cp);
            i += clen;
            continue;
        }
        if (c >= 0x80) {
            size_t k = ns_utf8_len(u + i, n - i);
            if (k == 0) {
                ns_buf_puts(b, "\xef\xbf\xbd"); /* U+FFFD */
                i++;
            } else {
                ns_buf_add(b, s + i, k);
                i += k;
            }
            continue;
        }
        switch (c) {
        case '&': ns_buf_puts(b, "&amp;"); break;
        case '<': ns_buf_puts(b, "&lt;"); break;
        case '>': ns_buf_puts(b, "&gt;"); break;
        case '"': ns_buf_puts(b, "&quot;"); break;
        case '\'': ns_buf_puts(b, "&#39;"); break;
        case '\t':
        case '\n': ns_buf_putc(b, (char)c); break;
        default: ns_buf_putc(b, c < 0x20 || c == 0x7f ? ' ' : (char)c);
        }
        i++;
    }
}

void ns_xml_text(ns_buf *b, const char *s) { ns_xml_textn(b, s, strlen(s)); }

/* Characters (not bytes) of a UTF-8 string. */
static size_t ns__chars(const char *s) {
    size_t k = 0;
    for (; *s; s++) k += ((unsigned char)*s & 0xc0) != 0x80;
    return k;
}

/* s cut to at most max characters, "…" marking a cut, escaped. */
static void ns__text_cut(ns_buf *b, const char *s, size_t max) {
    if (ns__chars(s) <= max) {
        ns_xml_text(b, s);
        return;
    }
    size_t k = 0, i = 0;
    for (; s[i]; i++) {
        if (((unsigned char)s[i] & 0xc0) != 0x80 && ++k > max - 1) break;
    }
    ns_xml_textn(b, s, i);
    ns_buf_puts(b, "\xe2\x80\xa6");
}

/* ====== Numbers and colours ====== */

const char *ns_svg_num(char *buf, double v, int sig) {
    if (!isfinite(v)) return strcpy(buf, "-");
    double a = fabs(v);
    if ((a >= 1 && a < 1e7 && v == floor(v)) || (a >= 1000 && a < 1e9))
        snprintf(buf, 32, "%.0f", v); /* whole numbers, and no exponents below 1e9 */
    else
        snprintf(buf, 32, "%.*g", sig, v);
    if (strcmp(buf, "-0") == 0) strcpy(buf, "0");
    return buf;
}

/* Okabe & Ito (2008), "Color Universal Design": orange, sky blue, bluish
 * green, yellow, blue, vermillion, reddish purple; black is left out (it
 * vanishes on a dark page) and grey takes its place for "no stage". */
static const char *const ns__palette[] = {"#E69F00", "#56B4E9", "#009E73", "#F0E442",
                                          "#0072B2", "#D55E00", "#CC79A7"};
/* Text colour that reads on each palette colour (and on the grey). */
static const char *const ns__on_palette[] = {"#000", "#000", "#fff", "#000",
                                             "#fff", "#fff", "#000"};
#define NS__NPAL ((int)(sizeof ns__palette / sizeof ns__palette[0]))

const char *ns_svg_color(int i) { return i < 0 ? "#999999" : ns__palette[i % NS__NPAL]; }

static const char *ns__on_color(int i) { return i < 0 ? "#000" : ns__on_palette[i % NS__NPAL]; }

/* ====== Canvas ====== */

static void ns__svg_open_w(ns_buf *b, const char *id, const char *title, int w, int h) {
    ns_buf_printf(b,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"fig\" viewBox=\"0 0 %d %d\" "
                  "width=\"%d\" height=\"%d\" role=\"img\" aria-labelledby=\"",
                  w, h, w, h);
    ns_xml_text(b, id);
    ns_buf_puts(b, "-t\" " NS__FONT " font-size=\"12\" fill=\"currentColor\">\n<title id=\"");
    ns_xml_text(b, id);
    ns_buf_puts(b, "-t\">");
    ns_xml_text(b, title);
    ns_buf_puts(b, "</title>\n<text x=\"12\" y=\"20\" font-size=\"14\" font-weight=\"600\">");
    ns__text_cut(b, title, 100);
    ns_buf_puts(b, "</text>\n");
}

static void ns__svg_open(ns_buf *b, const char *id, const char *title, int h) {
    ns__svg_open_w(b, id, title, NS__W, h);
}

static void ns__svg_close(ns_buf *b) { ns_buf_puts(b, "</svg>\n"); }

/* A <title> child: the text of a mark. */
static void ns__title(ns_buf *b, const char *s) {
    ns_buf_puts(b, "<title>");
    ns_xml_text(b, s);
    ns_buf_puts(b, "</title>");
}

/* The legend: swatches and names in columns from (x0, y0), within width w.
 * Returns the height used. */
static void ns__marker_open(ns_buf *b, const char *cls, int shape, double cx, double cy, double r,
                            const char *fill);

/* The legend with a marker shape per entry (shapes NULL, or an entry's
 * shape < 0: a square swatch). */
static int ns__legend_shaped(ns_buf *b, const char **names, const int *colors, const int *shapes,
                             int n, double x0, double y0, double w, const char *kind) {
    if (n <= 0) return 0;
    size_t longest = 0;
    for (int i = 0; i < n; i++) {
        size_t k = ns__chars(names[i]);
        if (k > longest) longest = k;
    }
    if (longest > 40) longest = 40;
    double colw = 26 + (double)longest * NS__CHAR_W;
    int cols = (int)(w / colw);
    if (cols < 1) cols = 1;
    if (cols > n) cols = n;
    colw = w / cols;
    size_t cut = (size_t)((colw - 26) / NS__CHAR_W);
    if (cut < 4) cut = 4;
    int rows = (n + cols - 1) / cols;
    ns_buf_printf(b, "<g class=\"legend\" aria-label=\"legend\">\n");
    for (int i = 0; i < n; i++) {
        double x = x0 + (i % cols) * colw, y = y0 + (i / cols) * 18;
        int shaped = shapes && shapes[i] >= 0;
        ns_buf_puts(b, "<g class=\"legend-item\">");
        if (shaped)
            ns__marker_open(b, "key", shapes[i], x + 6, y + 6, 5, ns_svg_color(colors[i]));
        else
            ns_buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" rx=\"2\" fill=\"%s\">",
                          x, y, ns_svg_color(colors[i]));
        ns_buf_puts(b, "<title>");
        ns_xml_text(b, kind);
        ns_buf_puts(b, ": ");
        ns_xml_text(b, names[i]);
        ns_buf_printf(b, "</title></%s><text x=\"%.1f\" y=\"%.1f\">", shaped ? (shapes[i] ? "path" : "circle") : "rect",
                      x + 18, y + 10.5);
        ns__text_cut(b, names[i], cut);
        ns_buf_puts(b, "</text></g>\n");
    }
    ns_buf_puts(b, "</g>\n");
    return rows * 18;
}

static int ns__legend(ns_buf *b, const char **names, const int *colors, int n, double x0,
                      double y0, double w, const char *kind) {
    return ns__legend_shaped(b, names, colors, NULL, n, x0, y0, w, kind);
}

/* ====== Axes ====== */

typedef struct {
    double d0;  /* data range start (log10 of it on a log axis) */
    double d1;  /* data range end */
    double p0;  /* pixel of d0 */
    double p1;  /* pixel of d1 */
    int log;    /* log axis */
    double ticks[NS__MAX_TICKS * 4]; /* tick values (data units, not log) */
    int nticks; /* entries in ticks */
} ns__ax;

static double ns__map(const ns__ax *a, double v) {
    double t = a->log ? log10(v) : v;
    double span = a->d1 - a->d0;
    return a->p0 + (span > 0 ? (t - a->d0) / span : 0.5) * (a->p1 - a->p0);
}

/* A "nice" step near span / target: 1, 2 or 5 times a power of ten. */
static double ns__nice_step(double span, int target) {
    double raw = span / target;
    if (!(raw > 0)) return 1;
    double mag = pow(10, floor(log10(raw)));
    double norm = raw / mag;
    return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

/* Range and ticks of a linear axis over [lo, hi] (widened to nice ends). */
static void ns__ax_linear(ns__ax *a, double lo, double hi) {
    if (!(hi > lo)) {
        double pad = lo != 0 ? fabs(lo) * 0.5 : 1;
        lo -= pad;
        hi += pad;
    }
    double step = ns__nice_step(hi - lo, 5);
    a->log = 0;
    a->d0 = floor(lo / step) * step;
    a->d1 = ceil(hi / step) * step;
    a->nticks = 0;
    for (int i = 0; a->nticks < NS__MAX_TICKS * 2; i++) {
        double t = a->d0 + i * step;
        if (t > a->d1 + step * 1e-9) break;
        if (fabs(t) < step * 1e-9) t = 0;
        a->ticks[a->nticks++] = t;
    }
}

/* Range and ticks of a log axis over [lo, hi] (both > 0): powers of 2 when
 * pow2, else powers of 10 with 2 and 5 (or every digit) between decades
 * when the range is short. */
static void ns__ax_log(ns__ax *a, double lo, double hi, int pow2) {
    a->log = 1;
    double l0 = log10(lo), l1 = log10(hi);
    if (l1 - l0 < 0.3) { /* less than a factor of two: widen around the middle */
        double mid = (l0 + l1) / 2;
        l0 = mid - 0.15;
        l1 = mid + 0.15;
    }
    double pad = (l1 - l0) * 0.06;
    a->d0 = l0 - pad;
    a->d1 = l1 + pad;
    double vlo = pow(10, a->d0), vhi = pow(10, a->d1);
    a->nticks = 0;
    if (pow2) {
        int k0 = (int)ceil(log2(vlo) - 1e-9), k1 = (int)floor(log2(vhi) + 1e-9);
        int count = k1 - k0 + 1, step = 1;
        while (count / step > 8) step++;
        if (count >= 3) {
            for (int k = k0; k <= k1 && a->nticks < NS__MAX_TICKS * 4; k++)
                if ((k - k0) % step == 0) a->ticks[a->nticks++] = ldexp(1, k);
            return;
        }
    }
    static const int mults[3][10] = {{1, 0}, {1, 2, 5, 0}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 0}};
    int d0 = (int)floor(a->d0), d1 = (int)ceil(a->d1);
    for (int m = 0; m < 3; m++) {
        a->nticks = 0;
        int dstep = 1;
        while (m == 0 && (d1 - d0 + 1) / dstep > 8) dstep++;
        for (int d = d0; d <= d1; d += dstep)
            for (int j = 0; mults[m][j] && a->nticks < NS__MAX_TICKS * 4; j++) {
                double t = mults[m][j] * pow(10, d);
                if (t >= vlo * (1 - 1e-9) && t <= vhi * (1 + 1e-9)) a->ticks[a->nticks++] = t;
            }
        if (a->nticks >= 3) return;
    }
    if (a->nticks < 2) { /* within one digit step: linear ticks on the log axis */
        double step = ns__nice_step(vhi - vlo, 4);
        a->nticks = 0;
        for (double t = ceil(vlo / step) * step; t <= vhi && a->nticks < NS__MAX_TICKS; t += step)
            a->ticks[a->nticks++] = t;
    }
}

/* Grid, axis lines, ticks and their labels of a plot area. */
static void ns__frame(ns_buf *b, const ns__ax *x, const ns__ax *y, const char **xcats,
                      const char *xlabel, const char *ylabel, double ylx) {
    char num[32];
    double left = x->p0, right = x->p1, top = y->p1, bottom = y->p0;
    ns_buf_puts(b, "<g class=\"grid\" stroke=\"currentColor\" stroke-opacity=\"0.13\">\n");
    for (int i = 0; i < y->nticks; i++) {
        double py = ns__map(y, y->ticks[i]);
        ns_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", left, py,
                      right, py);
    }
    for (int i = 0; i < x->nticks; i++) {
        double px = ns__map(x, x->ticks[i]);
        ns_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", px, top, px,
                      bottom);
    }
    ns_buf_puts(b, "</g>\n<g class=\"axes\" stroke=\"currentColor\" stroke-width=\"1\">\n");
    ns_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", left, bottom,
                  right, bottom);
    ns_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", left, top, left,
                  bottom);
    for (int i = 0; i < y->nticks; i++) {
        double py = ns__map(y, y->ticks[i]);
        ns_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", left - 5, py,
                      left, py);
    }
    for (int i = 0; i < x->nticks; i++) {
        double px = ns__map(x, x->ticks[i]);
        ns_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", px, bottom,
                      px, bottom + 5);
    }
    ns_buf_puts(b, "</g>\n<g class=\"ticks\">\n");
    for (int i = 0; i < y->nticks; i++) {
        double py = ns__map(y, y->ticks[i]);
        ns_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", left - 8,
                      py + 4, ns_svg_num(num, y->ticks[i], 4));
    }
    for (int i = 0; i < x->nticks; i++) {
        double px = ns__map(x, x->ticks[i]);
        ns_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", px, bottom + 18);
        if (xcats) ns__text_cut(b, xcats[(int)x->ticks[i]], 14);
        else ns_buf_puts(b, ns_svg_num(num, x->ticks[i], 4));
        ns_buf_puts(b, "</text>\n");
    }
    ns_buf_printf(b, "<text class=\"xlabel\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
                  (left + right) / 2, bottom + 38);
    ns_xml_text(b, xlabel);
    ns_buf_printf(b, "</text>\n<text class=\"ylabel\" transform=\"translate(%.0f %.1f) rotate(-90)\" "
                     "text-anchor=\"middle\">",
                  ylx, (top + bottom) / 2);
    ns_xml_text(b, ylabel);
    ns_buf_puts(b, "</text>\n</g>\n");
}

/* ====== Line plots ====== */

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

/* Marker shapes (ns_svg_series.shape): circle, square, triangle up,
 * diamond, triangle down, then the same again. */
#define NS__NSHAPES 5

/* Open a marker's element centred at (cx, cy), its <title> and closing tag
 * left to the caller: a <circle> for shape 0 (what the tests count as
 * points), a <path> for the others. */
static void ns__marker_open(ns_buf *b, const char *cls, int shape, double cx, double cy, double r,
                            const char *fill) {
    shape = shape < 0 ? 0 : shape % NS__NSHAPES;
    if (shape == 0) {
        ns_buf_printf(b, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" "
                         "stroke=\"currentColor\" stroke-width=\"0.5\">",
                      cls, cx, cy, r, fill);
        return;
    }
    ns_buf_printf(b, "<path class=\"%s\" fill=\"%s\" stroke=\"currentColor\" stroke-width=\"0.5\" d=\"",
                  cls, fill);
    double q = r * 0.9, t = r * 1.15;
    switch (shape) {
    case 1: ns_buf_printf(b, "M%.1f %.1fh%.1fv%.1fh%.1fz", cx - q, cy - q, 2 * q, 2 * q, -2 * q); break;
    case 2: ns_buf_printf(b, "M%.1f %.1fL%.1f %.1fL%.1f %.1fz", cx, cy - t, cx + t, cy + q, cx - t, cy + q); break;
    case 3: ns_buf_printf(b, "M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fz", cx, cy - t, cx + t, cy, cx, cy + t, cx - t, cy); break;
    default: ns_buf_printf(b, "M%.1f %.1fL%.1f %.1fL%.1f %.1fz", cx, cy + t, cx + t, cy - q, cx - t, cy - q); break;
    }
    ns_buf_puts(b, "\">");
}

static const char *ns__marker_tag(int shape) { return shape <= 0 || shape % NS__NSHAPES == 0 ? "circle" : "path"; }

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
                          double top, double bottom, ns__ax *xa, ns__ax *ya) {
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
        ns__ax_log(xa, xlo, xhi, p->xpow2);
    } else {
        ns__ax_linear(xa, xlo, xhi);
    }
    if (ylog) ns__ax_log(ya, ylo, yhi, p->ref_one);
    else ns__ax_linear(ya, ylo < 0 ? ylo : 0, yhi);
    xa->p0 = left;
    xa->p1 = right;
    ya->p0 = bottom;
    ya->p1 = top;
}

/* The plot area of p on the axes xa, ya: frame, reference line, series,
 * fitted lines and their exponent labels (at right + 6). */
static void ns__plot_body(ns_buf *b, const ns_svg_plot *p, const ns__ax *xap, const ns__ax *yap,
                          double ylx) {
    ns__ax xa = *xap, ya = *yap;
    int xlog = p->xlog && !p->xcats, ylog = p->ylog;
    double left = xa.p0, right = xa.p1, top = ya.p1, bottom = ya.p0;
    ns__frame(b, &xa, &ya, p->xcats, p->xlabel, p->ylabel, ylx);
    if (p->ref_one) {
        double py = ns__map(&ya, 1);
        ns_buf_printf(b, "<line class=\"ref\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"currentColor\" stroke-dasharray=\"4 4\">",
                      left, py, right, py);
        ns__title(b, p->ref_title ? p->ref_title : "ratio 1: the same as the baseline");
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
                ns_buf_printf(b, "%s%.1f,%.1f", first ? "" : " ", ns__map(&xa, q->x),
                              ns__map(&ya, q->y));
                first = 0;
            }
            ns_buf_puts(b, "\">");
            ns__title(b, s->name);
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
                double px1 = ns__map(&xa, fx1), py1 = ns__map(&ya, fy1);
                ns_buf_printf(b, "<path class=\"fit\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
                                 "stroke-dasharray=\"6 3\" d=\"M%.1f %.1fL%.1f %.1f\">",
                              col, ns__map(&xa, fx0), ns__map(&ya, fy0), px1, py1);
                t.len = 0;
                ns_buf_printf(&t, "%s: fitted %s = %s \xc3\x97 %s^%.3f", s->name, p->ylabel,
                              ns_svg_num(n1, s->prefactor, 4), p->xname, s->exponent);
                if (isfinite(s->ci_lo) && isfinite(s->ci_hi))
                    ns_buf_printf(&t, " (95%% CI of the exponent %s to %s)",
                                  ns_svg_num(n2, s->ci_lo, 3), ns_svg_num(n3, s->ci_hi, 3));
                if (isfinite(s->r2)) ns_buf_printf(&t, ", R\xc2\xb2 %s", ns_svg_num(n4, s->r2, 3));
                ns__title(b, t.data);
                ns_buf_puts(b, "</path>\n");
                label_k[nlabels] = k;
                label_y[nlabels++] = py1 + 4;
            }
        }
        for (int i = 0; i < s->npts; i++) {
            const ns_svg_pt *q = &s->pts[i];
            if (!isfinite(q->y) || !isfinite(q->lo) || !isfinite(q->hi) || !(q->hi > q->lo)) continue;
            if ((ylog && q->lo <= 0) || (xlog && q->x <= 0)) continue;
            double px = ns__map(&xa, q->x);
            ns_buf_printf(b, "<path class=\"spread\" stroke=\"%s\" stroke-width=\"1.5\" "
                             "d=\"M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8\">",
                          col, px, ns__map(&ya, q->lo), ns__map(&ya, q->hi), px - 4,
                          ns__map(&ya, q->lo), px - 4, ns__map(&ya, q->hi));
            ns__pt_title(&t, p, s, q);
            ns_buf_puts(&t, " (bar: min to max over the repeats)");
            ns__title(b, t.data);
            ns_buf_puts(b, "</path>\n");
        }
        for (int i = 0; !s->nomarks && i < s->npts; i++) {
            const ns_svg_pt *q = &s->pts[i];
            if (!isfinite(q->y) || (ylog && q->y <= 0) || (xlog && q->x <= 0)) continue;
            ns__marker_open(b, p->mark, s->shape, ns__map(&xa, q->x), ns__map(&ya, q->y),
                            p->radius > 0 ? p->radius : 4, col);
            ns__pt_title(&t, p, s, q);
            ns__title(b, t.data);
            ns_buf_printf(b, "</%s>\n", ns__marker_tag(s->shape));
        }
        ns_buf_puts(b, "</g>\n");
    }
    /* exponent labels at the right end of each fitted line */
    ns__spread_labels(label_y, nlabels, 14, top + 4, bottom);
    for (int i = 0; i < nlabels; i++) {
        const ns_svg_series *s = &p->series[label_k[i]];
        ns_buf_printf(b, "<text class=\"fit-label\" x=\"%.1f\" y=\"%.1f\" fill=\"%s\" "
                         "font-weight=\"600\">\xe2\x88\x9d ",
                      right + 6, label_y[i], ns_svg_color(s->color));
        ns__text_cut(b, p->xname, 7);
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
    int legend_h = ns__legend_shaped(&scratch, names, colors, shapes, nl, 0, 0, NS__W - 90, kind);
    ns_buf_free(&scratch);
    double left = 78, right = NS__W - 96, top = 40, bottom = 340;
    int h = (int)bottom + 52 + legend_h + 8;
    ns__ax xa, ya;
    ns__plot_axes(p, e, left, right, top, bottom, &xa, &ya);
    ns__svg_open(b, p->id, p->title, h);
    ns__plot_body(b, p, &xa, &ya, 16);
    ns__legend_shaped(b, names, colors, shapes, nl, left, bottom + 52, NS__W - left - 12, kind);
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
    int legend_h = ns__legend_shaped(&scratch, names, colors, shapes, nl, 0, 0, w - 24, kind);
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
        double left = x0 + 66, right = x0 + pw - (f->fit_labels ? 84 : 14);
        double top = y0 + 26, bottom = y0 + ph - 50;
        ns__ax xa, ya;
        ns__plot_axes(p, e, left, right, top, bottom, &xa, &ya);
        ns_buf_printf(b, "<g class=\"panel\" aria-label=\"");
        ns_xml_text(b, p->title);
        ns_buf_printf(b, "\">\n<text class=\"panel-title\" x=\"%.1f\" y=\"%.1f\" font-weight=\"600\">",
                      left, y0 + 14);
        ns__text_cut(b, p->title, (size_t)((pw - 70) / NS__CHAR_W));
        ns_buf_puts(b, "</text>\n");
        ns__plot_body(b, p, &xa, &ya, x0 + 10);
        ns_buf_puts(b, "</g>\n");
    }
    ns__legend_shaped(b, names, colors, shapes, nl, 12, bottom_all + 8, w - 24, kind);
    ns__svg_close(b);
    free(names);
    free(colors);
    free(shapes);
}

/* ====== Horizontal bars ====== */

void ns_svg_bars_draw(ns_buf *b, const ns_svg_bars *f) {
    size_t longest = 8;
    double vmax = 0;
    for (int i = 0; i < f->n; i++) {
        size_t k = ns__chars(f->names[i]);
        if (k > longest) longest = k;
        if (isfinite(f->values[i]) && f->values[i] > vmax) vmax = f->values[i];
    }
    if (longest > 44) longest = 44;
    double left = 12 + (double)longest * NS__CHAR_W + 8, right = NS__W - 110, top = 40;
    double row = 20, bottom = top + row * (f->n > 0 ? f->n : 1);
    ns_buf scratch = {0};
    int legend_h = ns__legend(&scratch, f->legend, f->legend_colors, f->nlegend, 0, 0,
                              NS__W - 24, "stage");
    ns_buf_free(&scratch);
    int h = (int)(bottom + 48 + legend_h + 8);
    ns__ax xa = {0}, ya = {0};
    ns__ax_linear(&xa, 0, vmax > 0 ? vmax : 1);
    xa.p0 = left;
    xa.p1 = right;
    ya.d0 = 0;
    ya.d1 = 1;
    ya.p0 = bottom;
    ya.p1 = top;

    ns__svg_open(b, f->id, f->title, h);
    ns__frame(b, &xa, &ya, NULL, f->xlabel, "", 16);
    ns_buf t = {0};
    char n1[32], n2[32];
    for (int i = 0; i < f->n; i++) {
        double y = top + row * i, v = isfinite(f->values[i]) ? f->values[i] : 0;
        double w = v > 0 ? ns__map(&xa, v) - left : 0;
        t.len = 0;
        ns_buf_printf(&t, "%s: %s s", f->names[i], ns_svg_num(n1, f->values[i], 4));
        if (f->shares && isfinite(f->shares[i]))
            ns_buf_printf(&t, ", %s%% of the total", ns_svg_num(n2, f->shares[i] * 100, 3));
        if (f->groups && f->groups[i]) ns_buf_printf(&t, ", stage %s", f->groups[i]);
        ns_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 6, y + 14);
        ns__text_cut(b, f->names[i], longest);
        ns_buf_printf(b, "</text>\n<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                         "height=\"%.1f\" fill=\"%s\">",
                      left, y + 3, w, row - 6, ns_svg_color(f->colors[i]));
        ns__title(b, t.data);
        ns_buf_printf(b, "</rect>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%s s", left + w + 4,
                      y + 14, ns_svg_num(n1, f->values[i], 4));
        if (f->shares && isfinite(f->shares[i]))
            ns_buf_printf(b, "  %s%%", ns_svg_num(n2, f->shares[i] * 100, 3));
        ns_buf_puts(b, "</text>\n");
    }
    ns__legend(b, f->legend, f->legend_colors, f->nlegend, 12, bottom + 48, NS__W - 24, "stage");
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
    size_t longest = 8;
    for (int i = 0; i < f->nrows; i++) {
        size_t k = ns__chars(f->rows[i]);
        if (k > longest) longest = k;
    }
    if (longest > 40) longest = 40;
    const char **lnames = ns_xcalloc((size_t)f->nstages + 1, sizeof *lnames);
    int *lcols = ns_xcalloc((size_t)f->nstages + 1, sizeof *lcols);
    int nl = ns__used_stages(f->shares, f->nrows, f->nstages, f->stages, f->colors, lnames, lcols);
    ns_buf scratch = {0};
    int legend_h = ns__legend(&scratch, lnames, lcols, nl, 0, 0, NS__W - 24, "stage");
    ns_buf_free(&scratch);
    double left = 12 + (double)longest * NS__CHAR_W + 8, right = NS__W - 24, top = 52, row = 22;
    double bottom = top + row * (f->nrows > 0 ? f->nrows : 1);
    int h = (int)(bottom + 48 + legend_h + 8);
    ns__ax xa = {0}, ya = {0};
    ns__ax_linear(&xa, 0, 100);
    xa.p0 = left;
    xa.p1 = right;
    ya.d0 = 0;
    ya.d1 = 1;
    ya.p0 = bottom;
    ya.p1 = top;

    ns__svg_open(b, f->id, f->title, h);
    ns__frame(b, &xa, &ya, NULL, "share of the compile's total time (%)", "", 16);
    if (f->rowname) {
        ns_buf_printf(b, "<text x=\"12\" y=\"%.1f\" font-weight=\"600\">", top - 6);
        ns__text_cut(b, f->rowname, 96);
        ns_buf_puts(b, "</text>\n");
    }
    ns_buf t = {0};
    char n1[32];
    for (int r = 0; r < f->nrows; r++) {
        double y = top + row * r, x = 0;
        ns_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 6, y + 15);
        ns__text_cut(b, f->rows[r], longest);
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
                          ns__map(&xa, x), y + 3, ns__map(&xa, x + w) - ns__map(&xa, x), row - 6,
                          ns_svg_color(f->colors[s]));
            ns__title(b, t.data);
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
            ns__title(b, t.data);
            ns_buf_puts(b, "</rect>");
        }
        ns_buf_puts(b, "</g>\n");
    }
    ns__legend(b, lnames, lcols, nl, 12, bottom + 48, NS__W - 24, "stage");
    ns__svg_close(b);
    ns_buf_free(&t);
    free(lnames);
    free(lcols);
}

/* ====== Regime map ====== */

void ns_svg_regime_draw(ns_buf *b, const ns_svg_regime *f) {
    size_t ylong = 4;
    for (int j = 0; j < f->ny; j++) {
        size_t k = ns__chars(f->yvals[j]);
        if (k > ylong) ylong = k;
    }
    if (ylong > 24) ylong = 24;
    double left = 40 + (double)ylong * NS__CHAR_W + 8, top = 70;
    double cw = (NS__W - 24 - left) / (f->nx > 0 ? f->nx : 1), ch = 30;
    if (cw > 96) cw = 96;
    size_t xcut = (size_t)(cw / NS__CHAR_W);
    if (xcut < 3) xcut = 3;
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
    int legend_h = ns__legend(&scratch, lnames, lcols, nl, 0, 0, NS__W - 24, "dominant stage");
    ns_buf_free(&scratch);
    double bottom = top + ch * f->ny;
    int h = (int)(bottom + 20 + legend_h + 8);

    ns__svg_open(b, f->id, f->title, h);
    /* column header: the x tag and its values */
    ns_buf_printf(b, "<text class=\"xlabel\" x=\"%.1f\" y=\"42\" text-anchor=\"middle\" "
                     "font-weight=\"600\">",
                  left + cw * f->nx / 2);
    ns_xml_text(b, f->xname);
    ns_buf_puts(b, "</text>\n");
    for (int i = 0; i < f->nx; i++) {
        ns_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", left + cw * (i + 0.5),
                      top - 8);
        ns__text_cut(b, f->xvals[i], xcut);
        ns_buf_puts(b, "</text>\n");
    }
    if (f->yname) {
        ns_buf_printf(b, "<text class=\"ylabel\" transform=\"translate(18 %.1f) rotate(-90)\" "
                         "text-anchor=\"middle\" font-weight=\"600\">",
                      (top + bottom) / 2);
        ns_xml_text(b, f->yname);
        ns_buf_puts(b, "</text>\n");
    }
    ns_buf t = {0};
    char n1[32];
    for (int j = 0; j < f->ny; j++) {
        double y = top + ch * j;
        ns_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 6, y + ch / 2 + 4);
        ns__text_cut(b, f->yvals[j], ylong);
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
                ns__title(b, t.data);
                ns_buf_puts(b, "</rect>\n");
                continue;
            }
            ns_buf_printf(&t, ": dominant stage %s, %s%% of the time (median over %d run%s)",
                          f->stages[s], ns_svg_num(n1, f->share[at] * 100, 3), f->nruns[at],
                          f->nruns[at] == 1 ? "" : "s");
            ns_buf_printf(b, "<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                             "height=\"%.1f\" fill=\"%s\">",
                          x + 1, y + 1, cw - 2, ch - 2, ns_svg_color(f->colors[s]));
            ns__title(b, t.data);
            ns_buf_printf(b, "</rect>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                             "fill=\"%s\" font-size=\"11\" pointer-events=\"none\">%.0f%%</text>\n",
                          x + cw / 2, y + ch / 2 + 4, ns__on_color(f->colors[s]),
                          f->share[at] * 100);
        }
    }
    ns__legend(b, lnames, lcols, nl, 12, bottom + 20, NS__W - 24, "dominant stage");
    ns__svg_close(b);
    ns_buf_free(&t);
    free(lnames);
    free(lcols);
}
