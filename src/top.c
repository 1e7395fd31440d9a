/* top.c -- summing rows by name across reports (see top.h). */
#include "top.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ns_top_init(ns_top *t, int all) {
    memset(t, 0, sizeof *t);
    ns_strmap_init(&t->names);
    t->all = all;
}

void ns_top_free(ns_top *t) {
    ns_strmap_free(&t->names);
    free(t->rows);
    memset(t, 0, sizeof *t);
}

static int ns__is_container(const ns_node *n) {
    return n->child && (n->kind == NS_KIND_SCOPE || n->kind == NS_KIND_PIPELINE);
}

void ns_top_add(ns_top *t, const ns_report *r) {
    t->reports++;
    double tw = r->root->val[NS_COL_WALL].v;
    if (!ns_num_present(r->root->val[NS_COL_WALL]) && ns_num_present(r->header_total))
        tw = r->header_total.v;
    if (isfinite(tw)) t->total_wall += tw;
    for (const ns_node *n = r->root->child; n; n = ns_node_next((ns_node *)n, r->root)) {
        if (n->kind == NS_KIND_REST || n->kind == NS_KIND_TOTAL) continue;
        if (r->list_mode && n->depth == 0 && n == r->root->child &&
            strcmp(n->name, "root") == 0)
            continue; /* list display's hidden root timer is the total again */
        if (!t->all && ns__is_container(n)) continue;
        /* list display repeats each pipeline's passes in a flat row of its
         * own: summing both would count that time twice */
        if (!t->all && r->list_mode && n->kind == NS_KIND_PIPELINE) continue;
        int added;
        size_t i = ns_strmap_intern(&t->names, n->name, &added);
        if (i >= t->cap) {
            t->cap = t->cap ? t->cap * 2 : 256;
            t->rows = ns_xrealloc(t->rows, sizeof *t->rows * t->cap);
        }
        ns_top_row *row = &t->rows[i];
        if (added) {
            memset(row, 0, sizeof *row);
            row->kind = n->kind;
        }
        row->count++;
        ns_num w = n->val[NS_COL_WALL], u = n->val[NS_COL_USER];
        if (ns_num_present(w) && isfinite(w.v)) row->wall += w.v;
        if (ns_num_present(u) && isfinite(u.v)) {
            row->user += u.v;
            row->user_count++;
        }
        double s = ns_node_self(n, NS_COL_WALL);
        if (isfinite(s)) row->self += s;
        if (w.dec > row->dec) row->dec = w.dec;
    }
}

static const ns_top *ns__sort_top;

static int ns__cmp(const void *a, const void *b) {
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    const ns_top_row *x = &ns__sort_top->rows[i], *y = &ns__sort_top->rows[j];
    if (x->wall != y->wall) return x->wall > y->wall ? -1 : 1;
    return strcmp(ns__sort_top->names.keys[i], ns__sort_top->names.keys[j]);
}

size_t *ns_top_order_new(const ns_top *t) {
    size_t *ord = ns_xmalloc(sizeof *ord * (t->names.count + 1));
    for (size_t i = 0; i < t->names.count; i++) ord[i] = i;
    ns__sort_top = t;
    qsort(ord, t->names.count, sizeof *ord, ns__cmp);
    ns__sort_top = NULL;
    return ord;
}
