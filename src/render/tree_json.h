/* tree_json.h -- the npuscope-tree JSON (the contract in docs/formats.md):
 * the document, and one report object in it.
 *
 * Two writers produce this format: `tree --format json` (export.c; also
 * run.json, through ns_json_report) and `tree --merge` (merged.c), whose
 * reports carry more: the runs merged, and every row's spread.  The fields
 * both write are written here, once, so the two documents cannot drift
 * apart; the merged writer adds its fields between the two halves of a
 * report (ns_tree_json_head, then its own, then ns_tree_json_rows) and to
 * each row through a callback.  This file calls nothing of the render
 * layer: the writers above it call it.
 */
#ifndef NPUSCOPE_TREE_JSON_H
#define NPUSCOPE_TREE_JSON_H

#include "model/view.h"

/* The document around the reports: "{"format":"npuscope-tree",... "reports":["
 * (with "merged":true for merged trees), and its end. */
void ns_tree_json_begin(ns_buf *b, int merged);
void ns_tree_json_end(ns_buf *b);
/* The end of a document that also says what the inputs said besides their
 * reports (model/load.h): "failures": [...] and "environment": {...} after
 * "reports" (both always, empty when there was nothing). */
struct ns_load_s;
void ns_tree_json_end_load(ns_buf *b, const struct ns_load_s *L);
/* One failure object: {"pass", "location", "submodel", "message", "line",
 * "file"}, absent fields null (also run.json's "failure"). */
struct ns_failure;
void ns_failure_json(ns_buf *b, const struct ns_failure *f);

/* A report object's first half: "{" and its fields from "index" to
 * "metrics", left open for more fields (each written with its leading
 * comma). */
void ns_tree_json_head(ns_buf *b, const ns_report *r);

/* Fields a caller adds to a row object, after its values: each with its
 * leading comma.  ctx is the caller's. */
typedef void (*ns_tree_json_row_fn)(ns_buf *b, const ns_node *n, const void *ctx);

/* A report object's second half: "total", then the rows the view keeps
 * from the root down, each with what `more` adds (NULL: nothing), and the
 * object's closing brace. */
void ns_tree_json_rows(ns_buf *b, const ns_report *r, const ns_view *v, ns_tree_json_row_fn more,
                       const void *ctx);

/* The same, with the rows below depth `flat` (-1: none) written flat: a
 * row at depth `flat` holds, instead of "children", "rows": every kept row
 * under it in pre-order, each a row object without "children" and with
 * its "depth" (0 for top-level rows, as ns_node.depth).  What run.json
 * writes (NS_TREE_JSON_FLAT), so that no JSON reader meets more nesting
 * than it follows; parse/tree_read.c reads both forms. */
void ns_tree_json_rows_flat(ns_buf *b, const ns_report *r, const ns_view *v, int flat,
                            ns_tree_json_row_fn more, const void *ctx);

/* The depth whose rows run.json writes flat.  A row nests two JSON levels
 * (its object, its "children"), and run.json six above the top-level rows,
 * so a run.json then nests at most 8 + 2 * 64 = 136 levels: inside
 * jansson's 2048, Python's 1000, and jq 1.6's 256, which counts an object
 * as two (13 + 3 * 64 = 205).  No compiler's report seen nests a tenth of
 * that; only those deeper change form. */
#define NS_TREE_JSON_FLAT 64

/* Does the view keep a row deeper than `flat` (so some rows go flat)? */
int ns_tree_json_flattens(const ns_report *r, const ns_view *v, int flat);

/* One whole report object of the "reports" array: head and rows. */
void ns_json_report(ns_buf *b, const ns_report *r, const ns_view *v);
/* ... and with the rows below `flat` flat: what run.json keeps of each
 * report. */
void ns_json_report_flat(ns_buf *b, const ns_report *r, const ns_view *v, int flat);

#endif
