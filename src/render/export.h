/* export.h -- every output of `npuscope tree`, one report at a time.
 *
 * The exporter is the top of the render layer's tree writers: it streams
 * (begin, one call per report as the scanner finds it, end), appends to one
 * buffer and flushes it in large writes, so output of any size needs little
 * memory.  For the text and JSON formats it calls the writers below it
 * (text.h, tree_json.h); the other formats are its own (export.c).  A view
 * (model/view.h) is shared by all of them, so --depth and --min-ms mean the
 * same thing in every format.  Nothing below the exporter calls it.
 */
#ifndef NPUSCOPE_EXPORT_H
#define NPUSCOPE_EXPORT_H

#include "model/view.h"

#include <stdio.h>

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
    int width;        /* text: fit to this many columns (render/text.h), 0: no limit */
    ns_diag diag;     /* where "this report has no such layout" goes (a trace
                       * has no original one); fn NULL: nowhere */
    const struct ns_load_s *load; /* json: the inputs' failures and environment,
                                   * written at the end (model/load.h), or NULL */
} ns_export_opts;

ns_exporter *ns_exporter_new(const ns_export_opts *o, FILE *out);
/* Render one report (borrowed).  Returns 0, or -1 on a write error. */
int ns_exporter_add(ns_exporter *e, const ns_report *r);
/* Finish the document, flush, free.  Returns 0, or -1 on a write error. */
int ns_exporter_end(ns_exporter *e);

#endif
