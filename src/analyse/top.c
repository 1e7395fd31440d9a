/* top.c -- summing rows by name, and by stage, across reports (see top.h).
 *
 * Everything a sum needs is in the ns_top it is given: no state lives in
 * this file between calls, so two summaries can be built side by side (the
 * report page builds several).  It reads reports and stage assignments and
 * prints nothing; the commands render the rows.
 */
#include "analyse/top.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ns_top_init(ns_top *t, int all) {
    memset(t, 0, sizeof *t);
    ns_strmap_init(&t->names);
    ns_strmap_init(&t->stages);
    ns_strmap_init(&t->maps);
    ns_strmap_init(&t->withins);
    ns_strmap_init(&t->headers);
    t->all = all;
}

/* One Source span of a header, summed by file. */
static void ns__header_add(ns_top *t, const ns_node *n) {
    int added;
    size_t i = ns_strmap_intern(&t->headers, n->detail, &added);
    if (added) {
        if (i >= t->header_cap) {
            t->header_cap = t->header_cap ? 2 * t->header_cap : 64;
            t->header_s = ns_xrealloc(t->header_s, sizeof *t->header_s * t->header_cap);
            t->header_n = ns_xrealloc(t->header_n, sizeof *t->header_n * t->header_cap);
        }
        t->header_s[i] = 0;
        t->header_n[i] = 0;
    }
    if (ns_num_present(n->val[NS_COL_WALL]) && isfinite(n->val[NS_COL_WALL].v))
        t->header_s[i] += n->val[NS_COL_WALL].v;
    t->header_n[i]++;
}

typedef struct {
    double s;         /* summed seconds: largest first */
    const char *name; /* ties by name */
    size_t index;     /* the header */
} ns__hdr_key;

static int ns__hdr_cmp(const void *a, const void *b) {
    const ns__hdr_key *x = a, *y = b;
    if (x->s != y->s) return x->s > y->s ? -1 : 1;
    return strcmp(x->name, y->name);
}

size_t *ns_top_headers_order_new(const ns_top *t) {
    size_t n = t->headers.count;
    if (!n) return NULL;
    ns__hdr_key *k = ns_xmalloc(sizeof *k * n);
    for (size_t i = 0; i < n; i++) k[i] = (ns__hdr_key){t->header_s[i], t->headers.keys[i], i};
    qsort(k, n, sizeof *k, ns__hdr_cmp);
    size_t *o = ns_xmalloc(sizeof *o * n);
    for (size_t i = 0; i < n; i++) o[i] = k[i].index;
    free(k);
    return o;
}

void ns_top_free(ns_top *t) {
    ns_strmap_free(&t->names);
    for (int i = 0; i < t->nids; i++) {
        free(t->ids[i].row);
        free(t->ids[i].slot);
    }
    free(t->ids);
    free(t->rows);
    for (size_t i = 0; i < t->stages.count; i++) free(t->stage_desc[i]);
    free(t->stage_desc);
    free(t->srows);
    ns_strmap_free(&t->stages);
    ns_strmap_free(&t->maps);
    ns_strmap_free(&t->withins);
    ns_strmap_free(&t->headers);
    free(t->header_s);
    free(t->header_n);
    memset(t, 0, sizeof *t);
}

/* Make room for m's stages; slot[i] = index of m's stage i in t->stages. */
static void ns__top_stages(ns_top *t, const ns_stage_map *m, int *slot) {
    int added;
    ns_strmap_intern(&t->maps, ns_stage_map_label(m), &added);
    for (int i = 0; i < ns_stage_count(m); i++) {
        size_t k = ns_strmap_intern(&t->stages, ns_stage_name(m, i), &added);
        if (k >= t->scap) {
            t->scap = t->scap ? t->scap * 2 : 16;
            t->srows = ns_xrealloc(t->srows, sizeof *t->srows * t->scap);
            t->stage_desc = ns_xrealloc(t->stage_desc, sizeof *t->stage_desc * t->scap);
        }
        if (added) {
            memset(&t->srows[k], 0, sizeof t->srows[k]);
            t->srows[k].kind = NS_KIND_PASS;
            t->srows[k].stage = (int)k;
            t->stage_desc[k] = ns_strdup(ns_stage_desc(m, i));
        }
        slot[i] = (int)k;
    }
}

/* Add one occurrence's wall and user time to row. */
static void ns__top_sum(ns_top_row *row, const ns_node *n) {
    row->count++;
    ns_num w = n->val[NS_COL_WALL], u = n->val[NS_COL_USER];
    if (ns_num_present(w) && isfinite(w.v)) row->wall += w.v;
    if (ns_num_present(u) && isfinite(u.v)) {
        row->user += u.v;
        row->user_count++;
    }
    if (w.dec > row->dec) row->dec = w.dec;
    /* per-pass memory (npu/memory.h): only occurrences that logged it */
    ns_num mi = n->val[NS_COL_MEM_INC], mp = n->val[NS_COL_MEM_PEAK];
    if (ns_num_present(mi) && isfinite(mi.v)) {
        row->mem_count++;
        row->mem_inc += mi.v;
        if (ns_num_present(mp) && mp.v > row->mem_peak) row->mem_peak = mp.v;
    }
}

/* ====== Interning ====== */

/* The name-id table of map m, with its stages' slots (made on its first
 * report: the map's label and stages are interned then, in the order they
 * would be by every report, and stay where they are). */
static ns_top_ids *ns__top_ids(ns_top *t, const ns_stage_map *m) {
    for (int i = 0; i < t->nids; i++)
        if (t->ids[i].map == m) return &t->ids[i];
    int *slot = ns_xcalloc((size_t)ns_stage_count(m) + 1, sizeof *slot);
    ns__top_stages(t, m, slot);
    t->ids = ns_xrealloc(t->ids, sizeof *t->ids * (size_t)(t->nids + 1));
    t->ids[t->nids] = (ns_top_ids){m, NULL, 0, slot};
    return &t->ids[t->nids++];
}

/* The row of n's name: by its id in the map's memo when it has one (no
 * hashing), else interned by name.  *added: the row is new. */
static size_t ns__top_row_of(ns_top *t, ns_top_ids *ids, int id, const ns_node *n, int *added) {
    if (ids && id >= 0 && (size_t)id < ids->n && ids->row[id]) {
        *added = 0;
        return ids->row[id] - 1;
    }
    size_t k = ns_strmap_intern(&t->names, n->name, added);
    if (ids && id >= 0) {
        ids->row = ns_grow_zeroed(ids->row, &ids->n, (size_t)id, sizeof *ids->row);
        ids->row[id] = k + 1;
    }
    return k;
}

static int ns__is_container(const ns_node *n) {
    return n->child && (n->kind == NS_KIND_SCOPE || n->kind == NS_KIND_PIPELINE);
}

void ns_top_add(ns_top *t, const ns_report *r) { ns_top_add_staged(t, r, NULL, NULL); }

void ns_top_add_staged(ns_top *t, const ns_report *r, const ns_stage_map *m,
                       const ns_stage_of *of) {
    const int *slot = NULL;
    ns_top_ids *ids = NULL;
    if (m) {
        ids = ns__top_ids(t, m);
        slot = ids->slot;
    }
    t->reports++;
    if (ns_report_starts_compile(r)) t->compiles++;
    /* a breakdown table's time is inside its compile's main report: it
     * adds nothing to the total, nor to the stages and Rest */
    int main_report = ns_report_is_main(r);
    int within = NS_TOP_MAIN;
    if (!main_report) {
        t->breakdowns++;
        char tmp[32];
        snprintf(tmp, sizeof tmp, "#%d", r->parent + 1);
        int added;
        within = (int)ns_strmap_intern(&t->withins, r->within ? r->within : tmp, &added);
    }
    double tw = r->root->val[NS_COL_WALL].v;
    if (!ns_num_present(r->root->val[NS_COL_WALL]) && ns_num_present(r->header_total))
        tw = r->header_total.v;
    if (main_report && isfinite(tw)) t->total_wall += tw;
    long i = 1; /* pre-order position of n (the root is 0) */
    for (const ns_node *n = r->root->child; n; n = ns_node_next((ns_node *)n, r->root), i++) {
        if (n->kind == NS_KIND_REST && n->depth == 0) {
            if (m && main_report) {
                ns__top_sum(&t->rest, n);
                double s = ns_node_self(n, NS_COL_WALL);
                if (isfinite(s)) t->rest.self += s;
            }
            continue;
        }
        if (n->kind == NS_KIND_REST || n->kind == NS_KIND_TOTAL) continue;
        int st = m && of[i].stage >= 0 ? slot[of[i].stage] : NS_TOP_NO_STAGE;
        /* the row's self time, once (it walks the row's children) */
        double self = ns_node_self(n, NS_COL_WALL);
        /* a stage's time: the self time of every row it holds */
        if (st >= 0 && main_report && ns_stage_counted(r, n) && isfinite(self))
            t->srows[st].self += self;
        if (ns_node_is_list_root(r, n))
            continue; /* list display's hidden root timer is the total again */
        if (n->beside) { /* a side track's row: overlaps the compile's own time */
            if (n->detail && !strcmp(n->name, "Source")) ns__header_add(t, n);
            if (!t->all) continue;
        }
        if (!t->all && ns__is_container(n)) continue;
        /* a phase whose passes a breakdown table of its compile lists
         * ("Optimizer"): a container too, its time is those passes' */
        if (!t->all && n->split == NS_SPLIT_PASSES && r->group >= 0) {
            t->phases_left_out++;
            continue;
        }
        /* list display repeats each pipeline's passes in a flat row of its
         * own: summing both would count that time twice */
        if (!t->all && r->list_mode && n->kind == NS_KIND_PIPELINE) continue;
        int added;
        size_t k = ns__top_row_of(t, ids, m ? of[i].name_id : -1, n, &added);
        if (k >= t->cap) {
            t->cap = t->cap ? t->cap * 2 : 256;
            t->rows = ns_xrealloc(t->rows, sizeof *t->rows * t->cap);
        }
        ns_top_row *row = &t->rows[k];
        if (added) {
            memset(row, 0, sizeof *row);
            row->kind = n->kind;
            row->stage = st;
            row->within = within;
        } else {
            if (row->stage != st) row->stage = NS_TOP_MIXED_STAGE;
            if (row->within != within) row->within = NS_TOP_MIXED_WITHIN;
        }
        ns__top_sum(row, n);
        if (isfinite(self)) row->self += self;
        if (st >= 0 && main_report) ns__top_sum(&t->srows[st], n);
    }
}

/* What the order compares, copied out of the rows, so that the comparator
 * needs no context (qsort passes none, and a global would be state hidden
 * from every caller). */
typedef struct {
    double wall;      /* summed wall seconds (or kB of memory increase): heaviest first */
    const char *name; /* ties by name (borrowed from t->names) */
    size_t index;     /* the row */
} ns__rank;

static int ns__cmp_rank(const void *pa, const void *pb) {
    const ns__rank *x = pa, *y = pb;
    if (x->wall != y->wall) return x->wall > y->wall ? -1 : 1;
    return strcmp(x->name, y->name);
}

size_t *ns_top_order_new(const ns_top *t) {
    size_t n = t->names.count;
    ns__rank *rank = ns_xmalloc(sizeof *rank * (n + 1));
    for (size_t i = 0; i < n; i++) rank[i] = (ns__rank){t->rows[i].wall, t->names.keys[i], i};
    qsort(rank, n, sizeof *rank, ns__cmp_rank);
    size_t *ord = ns_xmalloc(sizeof *ord * (n + 1));
    for (size_t i = 0; i < n; i++) ord[i] = rank[i].index;
    free(rank);
    return ord;
}

/* By summed memory increase, ties by name (the rank's `wall` holds it). */
size_t *ns_top_order_mem_new(const ns_top *t, size_t *n) {
    ns__rank *rank = ns_xmalloc(sizeof *rank * (t->names.count + 1));
    size_t k = 0;
    for (size_t i = 0; i < t->names.count; i++)
        if (t->rows[i].mem_count)
            rank[k++] = (ns__rank){t->rows[i].mem_inc, t->names.keys[i], i};
    qsort(rank, k, sizeof *rank, ns__cmp_rank);
    size_t *ord = ns_xmalloc(sizeof *ord * (k + 1));
    for (size_t i = 0; i < k; i++) ord[i] = rank[i].index;
    free(rank);
    *n = k;
    return ord;
}
