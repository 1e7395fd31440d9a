/* view.h -- which rows of a report a view shows, and which time it ranks
 * them by: --depth, --min-ms and --time, the same in every output.
 *
 * A view is the one thing every writer of a tree shares: the terminal tree
 * (render/text.c), the tree JSON (render/tree_json.c, also inside run.json),
 * every export (render/export.c) and the HTML page.  It sits below its
 * writers, in the model, so that none of them has to call another to learn
 * which rows to write: each walks the report through the view itself.
 * Nothing here changes a report or allocates; a view only answers
 * questions about nodes.  Walks are iterative (trees may be 10,000 deep).
 */
#ifndef NPUSCOPE_VIEW_H
#define NPUSCOPE_VIEW_H

#include "model/report.h"

typedef struct {
    int max_depth; /* deepest depth shown (0 = top-level rows only); -1: all */
    double min_s;  /* rows with |time| below this are elided; 0: none */
    ns_col col;    /* NS_COL_WALL or NS_COL_USER: the time that views use */
} ns_view;

/* Every row, wall time. */
void ns_view_init(ns_view *v);
/* Does the view show node n? */
int ns_view_keep(const ns_view *v, const ns_node *n);
ns_node *ns_view_first(const ns_view *v, const ns_node *n); /* first kept child */
ns_node *ns_view_next(const ns_view *v, const ns_node *n);  /* next kept sibling */
/* Next kept node after n in pre-order below root, or NULL. */
ns_node *ns_view_walk(const ns_view *v, const ns_node *n, const ns_node *root);
/* The view's time of a node, falling back to wall when the column is absent. */
double ns_view_time(const ns_view *v, const ns_node *n);

#endif
