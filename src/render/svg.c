/* svg.c -- what every figure is drawn with (see svg.h for what each one
 * shows and the rules every one follows; svg_int.h lists the files that
 * draw them): text escaped and cut, numbers, the palette, the canvas, the
 * legend, marker shapes, and axes with their ticks and frame.
 *
 * Layout is arithmetic on a fixed canvas 720 units wide: margins, a plot
 * area, a legend laid out in columns below it.  Text widths are estimated
 * per character (ns__svg_text_w: from DejaVu Sans, the widest font a
 * browser is likely to draw the figures' sans-serif with, rounded up), so
 * that a label cut to its room (ns__svg_text_fit) is neither cut off by
 * the canvas nor run into another: tests/browser/shots.test.mjs measures
 * every label in Chromium.  A cut name gets an ellipsis and is given whole
 * in a <title>.
 *
 * This file draws no figure of its own and calls no other file of the
 * drawing: svg_plot.c (line plots, small multiples) and svg_bars.c (bars,
 * stacked shares, the regime map) call it, never the other way.
 */
#include "render/svg_int.h"

#include "base/display.h"

#include "base/jsonw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NS__FONT "font-family=\"system-ui,-apple-system,'Segoe UI',Roboto,sans-serif\""

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
size_t ns__svg_chars(const char *s) {
    size_t k = 0;
    for (; *s; s++) k += ((unsigned char)*s & 0xc0) != 0x80;
    return k;
}

/* s cut to at most max characters, "…" marking a cut, escaped. */
void ns__svg_text_cut(ns_buf *b, const char *s, size_t max) {
    if (ns__svg_chars(s) <= max) {
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

/* The width of one character of 12-unit text, by the byte that starts it,
 * from DejaVu Sans (Debian's Chromium draws the page's sans-serif with it;
 * it is among the widest): narrow, half, lower case and digits, capitals,
 * wide; anything outside ASCII as wide as a CJK character.  Rounded up. */
static double ns__char_w(unsigned char c) {
    if (c >= 0x80) return 12.0;
    if (strchr("ijlI!|'.,:;`", c)) return 3.6;
    if (strchr("ftr()[]{}-/\\\" ", c)) return 4.8;
    if (strchr("mwMW@%", c)) return 12.0;
    if (strchr("=+<>~#^", c)) return 10.1;
    if (c >= 'A' && c <= 'Z') return 9.4;
    return 7.6;
}

double ns__svg_text_w(const char *s) {
    double w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xc0) != 0x80) w += ns__char_w((unsigned char)*s);
    return w;
}

/* s in at most `room` px of 12-unit text (ns__svg_text_w): cut to the
 * characters that fit before a "…" (12 px), the whole of s then in a
 * <title> of its own. */
void ns__svg_text_fit(ns_buf *b, const char *s, double room) {
    if (ns__svg_text_w(s) <= room) {
        ns_xml_text(b, s);
        return;
    }
    ns__svg_title(b, s);
    double w = 12.0;
    size_t i = 0, keep = 0;
    int chars = 0;
    for (; s[i]; i++) {
        if (((unsigned char)s[i] & 0xc0) == 0x80) continue;
        if (chars >= 1 && w + ns__char_w((unsigned char)s[i]) > room) break;
        w += ns__char_w((unsigned char)s[i]);
        chars++;
        keep = i + 1;
        while (s[keep] && ((unsigned char)s[keep] & 0xc0) == 0x80) keep++;
    }
    ns_xml_textn(b, s, keep);
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

const char *ns__svg_on_color(int i) { return i < 0 ? "#000" : ns__on_palette[i % NS__NPAL]; }

/* ====== Canvas ====== */

void ns__svg_open_w(ns_buf *b, const char *id, const char *title, int w, int h) {
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
    /* (14-unit bold text: about 1.3 times as wide as NS__TEXT_W) */
    ns__svg_text_cut(b, title, (size_t)((w - 24) / (NS__TEXT_W * 1.3)));
    ns_buf_puts(b, "</text>\n");
}

void ns__svg_open(ns_buf *b, const char *id, const char *title, int h) {
    ns__svg_open_w(b, id, title, NS__W, h);
}

void ns__svg_close(ns_buf *b) { ns_buf_puts(b, "</svg>\n"); }

/* A <title> child: the text of a mark. */
void ns__svg_title(ns_buf *b, const char *s) {
    ns_buf_puts(b, "<title>");
    ns_xml_text(b, s);
    ns_buf_puts(b, "</title>");
}

/* ====== Markers ====== */

/* Marker shapes (ns_svg_series.shape): circle, square, triangle up,
 * diamond, triangle down, then the same again. */
#define NS__NSHAPES 5

/* Open a marker's element centred at (cx, cy), its <title> and closing tag
 * left to the caller: a <circle> for shape 0 (what the tests count as
 * points), a <path> for the others. */
void ns__svg_marker_open(ns_buf *b, const char *cls, int shape, double cx, double cy,
                         double r, const char *fill) {
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

const char *ns__svg_marker_tag(int shape) { return shape <= 0 || shape % NS__NSHAPES == 0 ? "circle" : "path"; }

/* ====== Legend ====== */

/* The legend: swatches and names in columns from (x0, y0), within width w.
 * Returns the height used.  With a marker shape per entry (shapes NULL, or
 * an entry's shape < 0: a square swatch). */
int ns__svg_legend_shaped(ns_buf *b, const char **names, const int *colors, const int *shapes,
                          int n, double x0, double y0, double w, const char *kind) {
    if (n <= 0) return 0;
    /* columns as wide as the widest name (up to 40 characters' worth), a
     * name cut to its column with 8 px to spare */
    double longest = 0;
    for (int i = 0; i < n; i++) {
        double k = ns__svg_text_w(names[i]);
        if (k > longest) longest = k;
    }
    if (longest > 40 * NS__TEXT_W) longest = 40 * NS__TEXT_W;
    double colw = 26 + longest + 8;
    int cols = (int)(w / colw);
    if (cols < 1) cols = 1;
    if (cols > n) cols = n;
    colw = w / cols;
    double room = colw - 26 - 8 > 40 ? colw - 26 - 8 : 40;
    int rows = (n + cols - 1) / cols;
    ns_buf_printf(b, "<g class=\"legend\" aria-label=\"legend\">\n");
    for (int i = 0; i < n; i++) {
        double x = x0 + (i % cols) * colw, y = y0 + (i / cols) * 18;
        int shaped = shapes && shapes[i] >= 0;
        ns_buf_puts(b, "<g class=\"legend-item\">");
        if (shaped)
            ns__svg_marker_open(b, "key", shapes[i], x + 6, y + 6, 5, ns_svg_color(colors[i]));
        else
            ns_buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" rx=\"2\" fill=\"%s\">",
                          x, y, ns_svg_color(colors[i]));
        ns_buf_puts(b, "<title>");
        ns_xml_text(b, kind);
        ns_buf_puts(b, ": ");
        ns_xml_text(b, names[i]);
        ns_buf_printf(b, "</title></%s><text x=\"%.1f\" y=\"%.1f\">", shaped ? (shapes[i] ? "path" : "circle") : "rect",
                      x + 18, y + 10.5);
        ns__svg_text_fit(b, names[i], room);
        ns_buf_puts(b, "</text></g>\n");
    }
    ns_buf_puts(b, "</g>\n");
    return rows * 18;
}

int ns__svg_legend(ns_buf *b, const char **names, const int *colors, int n, double x0,
                   double y0, double w, const char *kind) {
    return ns__svg_legend_shaped(b, names, colors, NULL, n, x0, y0, w, kind);
}

/* ====== Axes ====== */

double ns__svg_map(const ns__svg_ax *a, double v) {
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
void ns__svg_ax_linear(ns__svg_ax *a, double lo, double hi) {
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
void ns__svg_ax_log(ns__svg_ax *a, double lo, double hi, int pow2) {
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

/* Which tick labels of axis a to draw (keep[i] = 1): a label that would run
 * into one already kept is left out, its tick and grid line kept.  size[i]
 * is label i's extent along the axis, in px; labels keep `gap` px apart.
 * On a log axis the powers of ten are placed first, so a short range ticked
 * at every digit (0.9, 1, 2 ...) keeps its decades' labels. */
static void ns__tick_labels(const ns__svg_ax *a, const double *size, double gap, unsigned char *keep) {
    double pos[NS__MAX_TICKS * 4];
    for (int i = 0; i < a->nticks; i++) {
        pos[i] = ns__svg_map(a, a->ticks[i]);
        keep[i] = 0;
    }
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < a->nticks; i++) {
            double l = a->log && a->ticks[i] > 0 ? log10(a->ticks[i]) : 0.5;
            if (keep[i] || (pass == 0 && !(a->log && fabs(l - floor(l + 0.5)) < 1e-9))) continue;
            int clear = 1;
            for (int j = 0; j < a->nticks && clear; j++)
                if (keep[j] && fabs(pos[i] - pos[j]) < (size[i] + size[j]) / 2 + gap) clear = 0;
            keep[i] = (unsigned char)clear;
        }
}

/* Grid, axis lines, ticks and their labels of a plot area.  Tick labels
 * that would collide are thinned (ns__tick_labels), a category name is cut
 * to the room between its neighbours, and an axis label to its axis's
 * length (the whole name in the label's <title>). */
void ns__svg_frame(ns_buf *b, const ns__svg_ax *x, const ns__svg_ax *y, const char **xcats,
                   const char *xlabel, const char *ylabel, double ylx) {
    char num[32];
    double left = x->p0, right = x->p1, top = y->p1, bottom = y->p0;
    ns_buf_puts(b, "<g class=\"grid\" stroke=\"currentColor\" stroke-opacity=\"0.13\">\n");
    for (int i = 0; i < y->nticks; i++) {
        double py = ns__svg_map(y, y->ticks[i]);
        ns_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", left, py,
                      right, py);
    }
    for (int i = 0; i < x->nticks; i++) {
        double px = ns__svg_map(x, x->ticks[i]);
        ns_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", px, top, px,
                      bottom);
    }
    ns_buf_puts(b, "</g>\n<g class=\"axes\" stroke=\"currentColor\" stroke-width=\"1\">\n");
    ns_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", left, bottom,
                  right, bottom);
    ns_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", left, top, left,
                  bottom);
    for (int i = 0; i < y->nticks; i++) {
        double py = ns__svg_map(y, y->ticks[i]);
        ns_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", left - 5, py,
                      left, py);
    }
    for (int i = 0; i < x->nticks; i++) {
        double px = ns__svg_map(x, x->ticks[i]);
        ns_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", px, bottom,
                      px, bottom + 5);
    }
    ns_buf_puts(b, "</g>\n<g class=\"ticks\">\n");
    double size[NS__MAX_TICKS * 4] = {0};
    unsigned char keep[NS__MAX_TICKS * 4] = {0};
    for (int i = 0; i < y->nticks; i++) size[i] = NS__TEXT_H;
    ns__tick_labels(y, size, 2, keep);
    for (int i = 0; i < y->nticks; i++) {
        if (!keep[i]) continue;
        double py = ns__svg_map(y, y->ticks[i]);
        ns_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", left - 8,
                      py + 4, ns_svg_num(num, y->ticks[i], 4));
    }
    /* a category's name: about 14 characters at most, and no wider than
     * the room between its neighbours' centres */
    double catroom = 14 * NS__TEXT_W;
    if (xcats && x->nticks > 1) {
        double room = fabs(ns__svg_map(x, 1) - ns__svg_map(x, 0)) - 6;
        if (room < catroom) catroom = room > 24 ? room : 24;
    }
    for (int i = 0; i < x->nticks; i++) {
        if (xcats) {
            double w = ns__svg_text_w(xcats[(int)x->ticks[i]]);
            size[i] = w < catroom ? w : catroom;
        } else {
            size[i] = (double)strlen(ns_svg_num(num, x->ticks[i], 4)) * NS__TEXT_W;
        }
    }
    ns__tick_labels(x, size, 6, keep);
    for (int i = 0; i < x->nticks; i++) {
        if (!keep[i]) continue;
        double px = ns__svg_map(x, x->ticks[i]);
        ns_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", px, bottom + 18);
        if (xcats) ns__svg_text_fit(b, xcats[(int)x->ticks[i]], catroom);
        else ns_buf_puts(b, ns_svg_num(num, x->ticks[i], 4));
        ns_buf_puts(b, "</text>\n");
    }
    ns_buf_printf(b, "<text class=\"xlabel\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
                  (left + right) / 2, bottom + 38);
    ns__svg_text_fit(b, xlabel, x->room > 0 ? x->room : right - left);
    ns_buf_printf(b, "</text>\n<text class=\"ylabel\" transform=\"translate(%.0f %.1f) rotate(-90)\" "
                     "text-anchor=\"middle\">",
                  ylx, (top + bottom) / 2);
    ns__svg_text_fit(b, ylabel, bottom - top);
    ns_buf_puts(b, "</text>\n</g>\n");
}

