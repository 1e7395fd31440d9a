/* svg_int.h -- private to the files that draw the figures (render/svg*.c).
 *
 * Drawing the figures (svg.h) is one module broken out into separate
 * source files for easier editing; this header is what they share and
 * nothing outside them may include it.  Which file owns what:
 *
 *   svg.c       what every figure is drawn with: text escaped and cut,
 *               numbers, the palette, the canvas, the legend, marker
 *               shapes, axes with their ticks and frame
 *   svg_plot.c  line plots (points, spreads, lines, fitted power laws,
 *               ratios) and small multiples of them
 *   svg_bars.c  horizontal bars, stacked shares, the regime map
 *
 * Calls go one way, svg_plot.c -> svg.c and svg_bars.c -> svg.c, never
 * back (tools/layers.sh refuses a loop between files of a layer).
 */
#ifndef NPUSCOPE_RENDER_SVG_INT_H
#define NPUSCOPE_RENDER_SVG_INT_H

#include "render/svg.h"

#define NS__W 720          /* canvas width */
/* A character of 12-unit text where nothing more is known of it (numbers,
 * a name's length in characters), erring wide: DejaVu Sans, which Debian's
 * Chromium draws sans-serif with, is 7.6 a digit, 7.25 a character of
 * "wall time / precision=int8 (ratio, log scale)"; and a line's height.
 * A known text is measured by ns__svg_text_w. */
#define NS__TEXT_W 7.7     /* width of a character of 12-unit text, erring wide */
#define NS__TEXT_H 14.0    /* height of a line of 12-unit text */
#define NS__MAX_TICKS 12   /* upper bound on ticks per axis */

/* ====== Text ====== */

/* Characters (not bytes) of a UTF-8 string. */
size_t ns__svg_chars(const char *s);
/* s cut to at most max characters, "…" marking a cut, escaped. */
void ns__svg_text_cut(ns_buf *b, const char *s, size_t max);

/* The estimated width of s in 12-unit text, px: per character, from the
 * widest of the fonts a browser picks for sans-serif, erring wide. */
double ns__svg_text_w(const char *s);
/* s in at most room px (by ns__svg_text_w): cut with "…", and the whole of
 * s in a <title> (inside the caller's <text>) when it is longer. */
void ns__svg_text_fit(ns_buf *b, const char *s, double room);
/* ====== Colours ====== */

/* Text colour that reads on palette colour i (and on the grey). */
const char *ns__svg_on_color(int i);

/* ====== Canvas ====== */

/* Open the <svg> of a figure w x h with its title (shown and as <title>). */
void ns__svg_open_w(ns_buf *b, const char *id, const char *title, int w, int h);
/* The same, NS__W wide. */
void ns__svg_open(ns_buf *b, const char *id, const char *title, int h);
void ns__svg_close(ns_buf *b);
/* A <title> child: the text of a mark. */
void ns__svg_title(ns_buf *b, const char *s);

/* ====== Markers ====== */

/* Open a marker's element centred at (cx, cy), its <title> and closing tag
 * left to the caller: a <circle> for shape 0, a <path> for the others. */
void ns__svg_marker_open(ns_buf *b, const char *cls, int shape, double cx, double cy,
                         double r, const char *fill);
/* The element name of marker `shape` ("circle" or "path"). */
const char *ns__svg_marker_tag(int shape);

/* ====== Legend ====== */

/* The legend: swatches and names in columns from (x0, y0), within width w;
 * a marker shape per entry (shapes NULL, or an entry's shape < 0: a
 * square swatch).  Returns the height used. */
int ns__svg_legend_shaped(ns_buf *b, const char **names, const int *colors, const int *shapes,
                          int n, double x0, double y0, double w, const char *kind);
/* The same with square swatches only. */
int ns__svg_legend(ns_buf *b, const char **names, const int *colors, int n, double x0,
                   double y0, double w, const char *kind);

/* ====== Axes ====== */

typedef struct {
    double d0;  /* data range start (log10 of it on a log axis) */
    double d1;  /* data range end */
    double p0;  /* pixel of d0 */
    double p1;  /* pixel of d1 */
    int log;    /* log axis */
    double ticks[NS__MAX_TICKS * 4]; /* tick values (data units, not log) */
    int nticks; /* entries in ticks */
    double room; /* px the axis's label may take, centred under it (0: p1 - p0) */
} ns__svg_ax;

/* The pixel of data value v on axis a. */
double ns__svg_map(const ns__svg_ax *a, double v);
/* Range and ticks of a linear axis over [lo, hi] (widened to nice ends). */
void ns__svg_ax_linear(ns__svg_ax *a, double lo, double hi);
/* Range and ticks of a log axis over [lo, hi] (both > 0): powers of 2 when
 * pow2, else powers of 10 with 2 and 5 (or every digit) between decades. */
void ns__svg_ax_log(ns__svg_ax *a, double lo, double hi, int pow2);
/* Grid, axis lines, ticks and their labels of a plot area (xcats: the
 * names of a categorical x axis, or NULL); the y label centred at x ylx. */
void ns__svg_frame(ns_buf *b, const ns__svg_ax *x, const ns__svg_ax *y, const char **xcats,
                   const char *xlabel, const char *ylabel, double ylx);

#endif
