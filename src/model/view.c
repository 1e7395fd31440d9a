/* view.c -- rows a view keeps, and their time (see view.h).
 *
 * Four small questions about a node, answered the same for every writer;
 * the walks use the report's own links (parent, child, next), so a view
 * costs no memory and no copy of the tree.  It knows no output format and
 * must not learn one: anything about how a row is written is its writer's.
 */
#include "model/view.h"

#include <math.h>

void ns_view_init(ns_view *v) {
    v->max_depth = -1;
    v->min_s = 0;
    v->col = NS_COL_WALL;
}

double ns_view_time(const ns_view *v, const ns_node *n) {
    if (ns_num_present(n->val[v->col])) return n->val[v->col].v;
    return n->val[NS_COL_WALL].v;
}

int ns_view_keep(const ns_view *v, const ns_node *n) {
    if (v->max_depth >= 0 && n->depth > v->max_depth) return 0;
    if (v->min_s > 0) {
        double t = ns_view_time(v, n);
        if (isfinite(t) && fabs(t) < v->min_s) return 0;
    }
    return 1;
}

ns_node *ns_view_next(const ns_view *v, const ns_node *n) {
    for (n = n->next; n; n = n->next)
        if (ns_view_keep(v, n)) return (ns_node *)n;
    return NULL;
}

ns_node *ns_view_first(const ns_view *v, const ns_node *n) {
    ns_node *c = n->child;
    if (!c || ns_view_keep(v, c)) return c;
    return ns_view_next(v, c);
}

ns_node *ns_view_walk(const ns_view *v, const ns_node *n, const ns_node *root) {
    const ns_node *c = ns_view_first(v, n);
    if (c) return (ns_node *)c;
    while (n != root && !ns_view_next(v, n)) n = n->parent;
    return n == root ? NULL : ns_view_next(v, n);
}
