/* render.h -- everything that turns reports into output.
 *
 * Renderers are streaming: begin, one call per report as the scanner finds
 * it, end.  They append to an ns_buf and flush it in large writes, so output
 * of any size needs little memory.  A view (which rows to show, which time
 * column to rank by) is shared by every renderer so that --depth and
 * --min-ms mean the same thing in every format.
 */
#ifndef NPUSCOPE_RENDER_H
#define NPUSCOPE_RENDER_H

#include "model/report.h"

#include <stdio.h>

/* ====== Views ====== */
typedef struct {
    int max_depth; /* deepest depth shown (0 = top-level rows only); -1: all */
    double min_s;  /* rows with |time| below this are elided; 0: none */
    ns_col col;    /* NS_COL_WALL or NS_COL_USER: the time that views use */
} ns_view;

void ns_view_init(ns_view *v);
int ns_view_keep(const ns_view *v, const ns_node *n);
ns_node *ns_view_first(const ns_view *v, const ns_node *n); /* first kept child */
ns_node *ns_view_next(const ns_view *v, const ns_node *n);  /* next kept sibling */
/* Next kept node after n in pre-order below root, or NULL. */
ns_node *ns_view_walk(const ns_view *v, const ns_node *n, const ns_node *root);
/* The view's time of a node, falling back to wall when the column is absent. */
double ns_view_time(const ns_view *v, const ns_node *n);

/* ====== Formats ====== */
typedef enum {
    NS_FMT_TEXT,       /* terminal tree */
    NS_FMT_JSON,       /* npuscope-tree JSON (contract, docs/formats.md) */
    NS_FMT_CSV,        /* one row per node */
    NS_FMT_FOLDED,     /* FlameGraph folded stacks, self time in µs */
    NS_FMT_CHROME,     /* Chrome trace events (synthetic timeline) */
    NS_FMT_SPEEDSCOPE, /* speedscope file format, sampled by self time */
    NS_FMT_ORIGINAL,   /* the report re-printed in its producer's layout */
} ns_format;

/* Parse a format name; returns -1 if unknown. */
int ns_format_parse(const char *s, ns_format *out);

typedef struct ns_exporter ns_exporter;

typedef struct {
    ns_format format; /* what to write */
    ns_view view;     /* rows and column */
    int color;        /* text: ANSI colour */
    int width;        /* text: terminal width */
} ns_export_opts;

ns_exporter *ns_exporter_new(const ns_export_opts *o, FILE *out);
/* Render one report (borrowed).  Returns 0, or -1 on a write error. */
int ns_exporter_add(ns_exporter *e, const ns_report *r);
/* Finish the document, flush, free.  Returns 0, or -1 on a write error. */
int ns_exporter_end(ns_exporter *e);

/* One report as an object of the tree JSON "reports" array (the contract
 * in docs/formats.md); also used inside run.json. */
void ns_json_report(ns_buf *b, const ns_report *r, const ns_view *v);

/* render_text.c: one report as the terminal tree, appended to b.  With
 * `out`, b is written there whenever it passes a megabyte (a 10,000-deep
 * tree is 100 MB of indentation); a write error sets *werr. */
void ns_render_tree_text(ns_buf *b, const ns_report *r, const ns_export_opts *o, FILE *out,
                         int *werr);

#endif
