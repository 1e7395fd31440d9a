/* table.h -- writing the grid of a sweep (analyse/table.h) as `npuscope
 * table` prints it: text, Markdown, CSV or JSON.
 *
 * Text and Markdown are for people: fixed decimals (seconds %.4f, MiB %.1f,
 * ratios %.2f), "-" for a missing value, and columns that would be all zero
 * or all missing left out.  Text fits a terminal's width (view.width,
 * render/grid.h): the tag columns, mode, n and the median are always
 * shown, the tags shortened in their middle if need be; the other columns
 * come back while there is room, in this order: failed, cache x, x base,
 * regime; min and max; mean and stddev; user/wall and peak MB; metrics;
 * warmups, primers and outliers; stage shares.  A note names the ones
 * left out, and sentences wrap.  CSV and JSON are for programs: every column
 * always, numbers with 15 significant digits, missing values empty / null.
 * The JSON shape is a contract (DESIGN.md, docs/formats.md); so are the CSV
 * header names.
 *
 * This file formats what the table holds and computes nothing of its own;
 * which format is the command's choice.
 */
#ifndef NPUSCOPE_RENDER_TABLE_H
#define NPUSCOPE_RENDER_TABLE_H

#include "analyse/table.h"

typedef enum {
    NS_TABLE_TEXT,     /* aligned columns and a summary line (render/grid.h) */
    NS_TABLE_CSV,      /* RFC 4180, a header line */
    NS_TABLE_JSON,     /* {"format": "npuscope-table", "rows": [...]} */
    NS_TABLE_MARKDOWN, /* a Markdown table */
} ns_table_format;

typedef struct {
    ns_table_format format; /* what to write */
    int ncols;              /* tag keys shown as columns: the first ncols of the table's */
    const char *by;         /* --by: the tag that groups the baseline summary, or NULL */
    int width;              /* text: fit to this many columns (render/width.h), 0: no limit */
} ns_table_view;

/* Append the table to b in the view's format. */
void ns_render_table(ns_buf *b, const ns_table *t, const ns_table_view *v);

#endif
