/* render_svg.h -- the figures of `npuscope report`, drawn as SVG text.
 *
 * npuscope draws its own figures rather than shipping a plotting library
 * to the browser: the page must work from file:// with no network, print
 * the same as it shows, and every figure must also stand alone as an .svg
 * file that a paper can include.  So each figure is plain SVG text built
 * here from plain numbers: no DOM, no layout engine, no fonts to measure
 * (label widths are estimated per character, erring wide).
 *
 * What every figure has: a <title> (the figure's) and a <title> on every
 * mark (point, bar, cell, segment, line) so that hovering says what it is;
 * axes with ticks, labels and units; the Okabe-Ito colour-blind-safe
 * palette (its black replaced by a grey that reads on light and dark
 * backgrounds); text and axes in currentColor, so an inline figure follows
 * the page's light or dark scheme.  Marks carry a class saying what they
 * are (pt, spread, fit, cell, seg, bar, ratio, line, panel), which the
 * browser tests count.  Points of one series may take a marker shape of
 * their own (a family, say), so that colour can say something else.
 *
 * Every string that reaches the SVG goes through ns_xml_text: names come
 * from logs nobody controls.  Output is deterministic: coordinates are
 * printed with fixed decimals, and nothing depends on time or locale
 * (numbers are printed by printf in the C locale the program runs in).
 *
 * This file is drawing only, in files by figure family (svg_int.h lists
 * them: svg.c the axes, legend and text, svg_plot.c the line plots and
 * small multiples, svg_bars.c the bars, stacks and regime map).  Which
 * figures exist and what goes in them is decided by the page model
 * (analyse/page.h) and render/page_figures.c; where they go on the page,
 * by render/html.c.
 * Deliberately left out: interactivity (zoom, pan), and any layout that
 * needs real text metrics.
 */
#ifndef NPUSCOPE_RENDER_SVG_H
#define NPUSCOPE_RENDER_SVG_H

#include "base/common.h"

/* ====== Text and colours ====== */

/* s as XML/HTML text: & < > " ' escaped, invalid UTF-8 replaced by U+FFFD,
 * control characters (but tab and line feed) by blanks. */
void ns_xml_text(ns_buf *b, const char *s);
/* The same for the first n bytes of s. */
void ns_xml_textn(ns_buf *b, const char *s, size_t n);

#define NS_SVG_GREY (-1) /* colour index of "other", Rest, mixed, unknown */

/* Colour i of the palette ("#E69F00" ...), cycling; NS_SVG_GREY (or any
 * negative index) gives the grey. */
const char *ns_svg_color(int i);

/* ====== Line plots: scaling and ratios ====== */

typedef struct {
    double x;  /* x value (an axis value) */
    double y;  /* median */
    double lo; /* smallest value behind y (NaN: no spread bar) */
    double hi; /* largest */
    int n;     /* values behind y */
} ns_svg_pt;

typedef struct {
    const char *name;     /* legend text, e.g. "model=7b, cold" */
    int color;            /* palette index */
    const ns_svg_pt *pts; /* points, by x ascending */
    int npts;             /* entries in pts */
    int fitted;           /* draw the power law y = prefactor * x^exponent */
    double exponent;      /* ... */
    double prefactor;     /* ... */
    double r2;            /* shown in the fit's title */
    double ci_lo;         /* 95% interval of the exponent (NaN: unknown) */
    double ci_hi;         /* ... */
    int shape;            /* marker: 0 circle, 1 square, 2 triangle, 3 diamond, 4 triangle down */
    int line;             /* join the points with a line (class "line") */
    int nomarks;          /* draw no marker at the points (a trend line alone) */
} ns_svg_series;

typedef struct {
    const char *id;        /* unique on the page (ids of titles) */
    const char *title;     /* the figure's title */
    const char *xname;     /* axis name, e.g. "window" */
    const char *xlabel;    /* x axis label, e.g. "window (tag value)" */
    const char *ylabel;    /* y axis label with unit, e.g. "wall time (s)" */
    const char *yunit;     /* unit in marks' titles ("s", "x"), "" for none */
    int xlog;              /* log x axis */
    int ylog;              /* log y axis */
    int xpow2;             /* x values are powers of 2: ticks at powers of 2 */
    const char **xcats;    /* categorical x (NULL: numeric); x = 0..nxcats-1 */
    int nxcats;            /* entries in xcats */
    int connect;           /* join each series' points with a line (ratios) */
    int ref_one;           /* a dashed reference line at y = 1 (ratios) */
    const ns_svg_series *series; /* the series */
    int nseries;           /* entries in series */
    const char *mark;      /* class of the points: "pt" or "ratio" */
    const char *value_word; /* what y is in the marks' titles (NULL: "median", "ratio") */
    const char *ref_title; /* the title of the y = 1 line (NULL: the baseline's) */
    double radius;         /* of the markers (0: 4) */
    const char **legend;   /* legend entries of their own (NULL: one per series) */
    const int *legend_colors; /* palette index per entry */
    const int *legend_shapes; /* marker shape per entry (NULL or < 0: a swatch) */
    int nlegend;           /* entries */
    const char *legend_kind; /* what the entries are, for their titles (NULL: "series") */
} ns_svg_plot;

/* Unset fields (designated initializers) are 0/NULL: a plot of circles
 * with one legend entry per series. */
void ns_svg_plot_draw(ns_buf *b, const ns_svg_plot *p);

/* ====== Small multiples: one panel per value of a tag ======
 * A plot with more series than the palette has colours is not cut: it is
 * drawn as panels side by side, each an ns_svg_plot whose title names its
 * panel ("precision=int8"), all on one x range (and one y range with
 * share_y), with one legend below them: the first panel's series, or the
 * legend given here.  Three columns widen the canvas by half. */
typedef struct {
    const char *id;        /* unique on the page */
    const char *title;     /* the figure's title */
    const ns_svg_plot *panels; /* the panels, in reading order (their id is unused) */
    int npanels;           /* entries */
    int share_y;           /* one y range for every panel */
    int fit_labels;        /* leave room right of each panel for exponent labels */
    const char **legend;   /* legend entries (NULL: the first panel's) */
    const int *legend_colors; /* ... */
    const int *legend_shapes; /* ... */
    int nlegend;           /* ... */
    const char *legend_kind; /* ... */
} ns_svg_multi;

void ns_svg_multi_draw(ns_buf *b, const ns_svg_multi *f);

/* ====== Horizontal bars: the heaviest passes ====== */

typedef struct {
    const char *id;          /* unique on the page */
    const char *title;       /* the figure's title */
    const char *xlabel;      /* e.g. "wall time summed over 7 reports (s)" */
    const char **names;      /* bar labels (passes) */
    const double *values;    /* bar lengths */
    const double *shares;    /* shares of the total, for the titles (NaN: none) */
    const int *colors;       /* palette index per bar */
    const char **groups;     /* stage of each bar for its title (NULL: none) */
    int n;                   /* bars */
    const char **legend;     /* legend entries (stages), NULL for none */
    const int *legend_colors; /* palette index per entry */
    int nlegend;             /* entries */
} ns_svg_bars;

void ns_svg_bars_draw(ns_buf *b, const ns_svg_bars *f);

/* ====== Stacked shares: fingerprints ====== */

typedef struct {
    const char *id;        /* unique on the page */
    const char *title;     /* the figure's title */
    const char *rowname;   /* what the row labels are, shown above them */
    const char **rows;     /* one bar per row (configuration) */
    int nrows;             /* entries in rows */
    const char **stages;   /* segments, in order */
    const int *colors;     /* palette index per stage */
    int nstages;           /* entries in stages */
    const double *shares;  /* nrows x nstages, 0..1 (NaN or <= 0: no segment) */
} ns_svg_stack;

void ns_svg_stack_draw(ns_buf *b, const ns_svg_stack *f);

/* ====== Regime map: a grid of cells coloured by dominant stage ====== */

typedef struct {
    const char *id;        /* unique on the page */
    const char *title;     /* the figure's title */
    const char *xname;     /* tag across (columns) */
    const char *yname;     /* tag down (rows); NULL: one row */
    const char **xvals;    /* column values */
    int nx;                /* entries */
    const char **yvals;    /* row values */
    int ny;                /* entries (1 when yname is NULL) */
    const int *cell;       /* ny x nx: stage index, or -1 for no data */
    const double *share;   /* ny x nx: that stage's share */
    const int *nruns;      /* ny x nx: runs behind the cell */
    const char **stages;   /* stage names (legend) */
    const int *colors;     /* palette index per stage */
    int nstages;           /* entries */
} ns_svg_regime;

void ns_svg_regime_draw(ns_buf *b, const ns_svg_regime *f);

/* ====== Numbers ====== */

/* v with `sig` significant digits, without trailing zeros ("0.55", "128",
 * "1.2e+04" only beyond 1e6); "-" when not finite.  buf >= 32 bytes. */
const char *ns_svg_num(char *buf, double v, int sig);

#endif
