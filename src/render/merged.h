/* merged.h -- the text and the JSON of a merged tree (`tree --merge`).
 *
 * analyse/merge.c builds one merged report per configuration, mode and
 * report position (values are medians, and a side table holds each row's
 * n, min, max and outliers); this file writes it, on top of the ordinary
 * writers, so that a merged tree reads like any other:
 *   text  the terminal tree (text.h) with the medians, then the line
 *         "merged N runs; medians shown; M rows with outliers";
 *   JSON  the npuscope-tree contract (tree_json.h, docs/formats.md) with,
 *         in addition, "merged": true at the top, "runs" and
 *         "rows_with_outliers" per report, and "n", "min_s", "max_s",
 *         "outliers" per node.
 * It computes nothing and changes no merged report.
 */
#ifndef NPUSCOPE_MERGED_H
#define NPUSCOPE_MERGED_H

#include "analyse/merge.h"
#include "render/text.h"

/* The text tree of the merged report and its summary line, appended to b. */
void ns_merged_text(ns_buf *b, const ns_merged *m, const ns_text_opts *o);
/* The JSON document: begin, one ns_merged_json per merged report (first
 * is 1 for the first one), end. */
void ns_merged_json_begin(ns_buf *b);
void ns_merged_json(ns_buf *b, const ns_merged *m, const ns_view *v, int first);
void ns_merged_json_end(ns_buf *b);

#endif
