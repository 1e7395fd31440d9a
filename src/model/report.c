/* report.c -- reports, their arena, tree building and traversal.
 *
 * The arena is a list of chunks that grows geometrically up to 1 MiB per
 * chunk; a report of a few hundred rows lives in one or two mallocs, and
 * freeing a report is a walk over its chunks.  Traversals are iterative
 * (parent pointers), so depth is bounded by memory, not by the C stack.
 */
#include "model/report.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ====== Arena ====== */

struct ns_arena_chunk {
    ns_arena_chunk *prev; /* chunk allocated before this one */
    size_t used;          /* bytes handed out from data */
    size_t cap;           /* bytes in data */
    _Alignas(16) char data[]; /* the memory */
};

/* Spare chunks.  A report-dense log makes and frees a report every few
 * dozen lines, in two chunks of 4 and 8 KiB: too big for malloc's
 * per-thread cache, so each went through its bins, and a malloc and a
 * free of them cost about 500 instructions (3% of all on the dense log of
 * tests/bench/dense.sh).  So a thread keeps up to NS__SPARE_MAX freed
 * chunks of at most NS__SPARE_CAP bytes for its next reports, newest
 * first.  A thread that ends frees its own (ns_report_spares_free).
 *
 * When threads scan one file (parse/split.c), the workers make the
 * reports and the calling thread frees them: its list fills and theirs
 * stay empty, and every chunk went back to malloc on one thread and came
 * out of it fresh (page faults) on another.  So what overflows a thread's
 * list goes to one shared pool of up to NS__POOL_MAX bytes, under a lock,
 * and a thread whose list is empty takes from there first.  One thread
 * alone never overflows (it frees what it took) and never takes the lock
 * after its first reports. */
#define NS__SPARE_MAX 4
#define NS__SPARE_CAP (64u << 10)
#define NS__POOL_MAX (16u << 20) /* bytes: more than the reports a split scan holds */
static _Thread_local ns_arena_chunk *ns__spare; /* kept chunks, linked by prev */
static _Thread_local int ns__nspare;            /* how many */
static pthread_mutex_t ns__pool_mu = PTHREAD_MUTEX_INITIALIZER; /* guards the pool */
static ns_arena_chunk *ns__pool;                /* the shared chunks, linked by prev */
static atomic_size_t ns__npool;                 /* bytes in it (read unlocked: a peek) */

void ns_report_spares_free(void) {
    while (ns__spare) {
        ns_arena_chunk *c = ns__spare;
        ns__spare = c->prev;
        free(c);
    }
    ns__nspare = 0;
}

void ns_report_pool_free(void) {
    pthread_mutex_lock(&ns__pool_mu);
    while (ns__pool) {
        ns_arena_chunk *c = ns__pool;
        ns__pool = c->prev;
        free(c);
    }
    atomic_store(&ns__npool, 0);
    pthread_mutex_unlock(&ns__pool_mu);
}

/* A pooled chunk of at least n bytes, or NULL (the pool's newest only:
 * reports take chunks of a few sizes, and a search would hold the lock) */
static ns_arena_chunk *ns__pool_take(size_t n) {
    if (!atomic_load_explicit(&ns__npool, memory_order_relaxed))
        return NULL; /* a peek: a miss only costs a malloc */
    pthread_mutex_lock(&ns__pool_mu);
    ns_arena_chunk *c = ns__pool;
    if (c && c->cap >= n) {
        ns__pool = c->prev;
        atomic_fetch_sub(&ns__npool, c->cap);
    } else {
        c = NULL;
    }
    pthread_mutex_unlock(&ns__pool_mu);
    return c;
}

/* Keep the chunks of list c (linked by prev) in the pool while there is
 * room, and free the rest: one lock for a report's chunks. */
static void ns__pool_put(ns_arena_chunk *c) {
    pthread_mutex_lock(&ns__pool_mu);
    while (c && atomic_load(&ns__npool) + c->cap <= NS__POOL_MAX) {
        ns_arena_chunk *prev = c->prev;
        c->prev = ns__pool;
        ns__pool = c;
        atomic_fetch_add(&ns__npool, c->cap);
        c = prev;
    }
    pthread_mutex_unlock(&ns__pool_mu);
    while (c) {
        ns_arena_chunk *prev = c->prev;
        free(c);
        c = prev;
    }
}

/* A new chunk with room for n bytes (n a multiple of 16). */
static ns_arena_chunk *ns__arena_grow(ns_report *r, size_t n) {
    ns_arena_chunk *c = r->arena, *nc;
    if (ns__spare && ns__spare->cap >= n) {
        nc = ns__spare;
        ns__spare = nc->prev;
        ns__nspare--;
    } else if (!ns__spare && n <= NS__SPARE_CAP && (nc = ns__pool_take(n))) {
        /* from the shared pool */
    } else {
        size_t cap = c ? c->cap * 2 : 4096;
        if (cap > (1u << 20)) cap = 1u << 20;
        if (cap < n) cap = n;
        nc = ns_xmalloc(sizeof *nc + cap);
        nc->cap = cap;
    }
    nc->prev = c;
    nc->used = 0;
    r->arena = nc;
    return nc;
}

/* Inline: every row takes a node and its name from here. */
static inline void *ns__arena_alloc(ns_report *r, size_t n) {
    n = (n + 15) & ~(size_t)15;
    ns_arena_chunk *c = r->arena;
    if (!c || c->used + n > c->cap) c = ns__arena_grow(r, n);
    void *p = c->data + c->used;
    c->used += n;
    return p;
}

char *ns_report_strdup(ns_report *r, const char *s, size_t n) {
    char *d = ns__arena_alloc(r, n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

/* A new node: zeroed, every value absent.  Not one memset of the whole
 * node and then the values: for its 328 bytes the compilers emit a
 * "rep stos" whose start-up alone was most of the time a row of a dense
 * log spent here.  What lies before and after the two value arrays is
 * zeroed by two short memsets (a few vector stores), so a field added to
 * ns_node anywhere but between the arrays is zeroed too; the asserts keep
 * the arrays together. */
_Static_assert(offsetof(ns_node, pct) == offsetof(ns_node, val) + sizeof(((ns_node *)0)->val),
               "ns_report_node: val and pct are adjacent");
#define NS__AFTER_VALUES (offsetof(ns_node, pct) + sizeof(((ns_node *)0)->pct))

ns_node *ns_report_node(ns_report *r) {
    ns_node *n = ns__arena_alloc(r, sizeof *n);
    memset(n, 0, offsetof(ns_node, val));
    const ns_num absent = ns_num_absent();
    for (int c = 0; c < NS_COL_COUNT; c++) {
        n->val[c] = absent;
        n->pct[c] = absent;
    }
    memset((char *)n + NS__AFTER_VALUES, 0, sizeof *n - NS__AFTER_VALUES);
    r->nnodes++;
    return n;
}

/* ====== Reports ====== */

ns_report *ns_report_new(ns_producer producer, const char *file, long line) {
    ns_report *r = ns_xcalloc(1, sizeof *r);
    r->producer = producer;
    r->file = ns_strdup(file ? file : "-");
    r->line = line;
    r->header_total = ns_num_absent();
    r->header_wall = ns_num_absent();
    r->root = ns_report_node(r);
    r->root->name = "Total";
    r->root->kind = NS_KIND_TOTAL;
    r->root->depth = -1;
    r->group = -1;
    r->parent = -1;
    return r;
}

int ns_report_is_main(const ns_report *r) { return r->parent < 0; }

int ns_node_is_list_root(const ns_report *r, const ns_node *n) {
    return r->list_mode && n->depth == 0 && strcmp(n->name, "root") == 0;
}

int ns_report_starts_compile(const ns_report *r) { return r->group < 0 || r->group == r->index; }

double ns_report_fact(const ns_report *r, const char *name) {
    for (int i = 0; i < r->nfacts; i++)
        if (!strcmp(r->facts[i].name, name)) return r->facts[i].value;
    return NAN;
}

void ns_report_group_ws(ns_report **r, int n) {
    double of = NAN;
    int first = -1;
    for (int i = 0; i < n; i++) {
        double g = ns_report_fact(r[i], "ws_compile");
        if (!isfinite(g) || r[i]->group >= 0) continue;
        if (g != of) of = g, first = r[i]->index; /* a new compile's first part */
        r[i]->group = first;
    }
}

void ns_report_free(ns_report *r) {
    if (!r) return;
    ns_arena_chunk *c = r->arena, *over = NULL; /* over: for the pool */
    while (c) {
        ns_arena_chunk *prev = c->prev;
        if (c->cap > NS__SPARE_CAP) {
            free(c);
        } else if (ns__nspare < NS__SPARE_MAX) {
            c->prev = ns__spare;
            ns__spare = c;
            ns__nspare++;
        } else {
            c->prev = over;
            over = c;
        }
        c = prev;
    }
    if (over) ns__pool_put(over);
    for (int i = 0; i < r->nfacts; i++) free(r->facts[i].name);
    free(r->facts);
    free(r->label);
    free(r->title);
    free(r->file);
    free(r->prefix);
    free(r->within);
    free(r);
}

void ns_report_set_fact(ns_report *r, const char *name, double value) {
    for (int i = 0; i < r->nfacts; i++)
        if (strcmp(r->facts[i].name, name) == 0) {
            r->facts[i].value = value;
            return;
        }
    r->facts = ns_xrealloc(r->facts, sizeof *r->facts * (size_t)(r->nfacts + 1));
    r->facts[r->nfacts].name = ns_strdup(name);
    r->facts[r->nfacts].value = value;
    r->nfacts++;
}

void ns_node_append(ns_node *parent, ns_node *child) {
    child->parent = parent;
    child->next = NULL;
    if (parent->last)
        parent->last->next = child;
    else
        parent->child = child;
    parent->last = child;
    parent->nchild++;
}

/* ====== Builder ====== */

void ns_builder_init(ns_builder *b, ns_report *r) {
    b->r = r;
    b->cap = 64;
    b->path = ns_xmalloc(sizeof *b->path * (size_t)b->cap);
    b->depth = -1;
}

int ns_builder_add(ns_builder *b, ns_node *node, int depth) {
    if (depth < 0) depth = 0;
    if (depth > b->depth + 1) depth = b->depth + 1;
    if (depth >= b->cap) {
        b->cap *= 2;
        b->path = ns_xrealloc(b->path, sizeof *b->path * (size_t)b->cap);
    }
    ns_node *parent = depth == 0 ? b->r->root : b->path[depth - 1];
    node->depth = depth;
    ns_node_append(parent, node);
    b->path[depth] = node;
    b->depth = depth;
    return depth;
}

void ns_builder_free(ns_builder *b) {
    free(b->path);
    b->path = NULL;
}

/* ====== Naming ====== */

/* Rows the tools themselves time around the pass manager.  Single words, so
 * the "has a space" rule below would call them passes.  (Their first bytes
 * are in the switch of ns_kind_of_name.) */
static const char *const ns__tool_scopes[] = {"Parser", "Output", "Parse",
                                              NULL};

static int ns__tool_scope(const char *name) {
    for (int i = 0; ns__tool_scopes[i]; i++)
        if (strcmp(name, ns__tool_scopes[i]) == 0) return 1;
    return 0;
}

ns_kind ns_kind_of_name(const char *name, int depth) {
    /* every row of every report comes here: the names below begin with
     * one of five bytes, and each is looked at only after its first
     * bytes matched (no strlen, no call for a name that cannot be one) */
    switch (name[0]) {
    case 'R':
        if (depth == 0 && strcmp(name, "Rest") == 0) return NS_KIND_REST;
        break;
    case '(':
        if (name[1] == 'A' && name[2] == ')' && name[3] == ' ') return NS_KIND_ANALYSIS;
        break;
    case '\'': {
        size_t n = strlen(name);
        if (n > 10 && strcmp(name + n - 10, "' Pipeline") == 0) return NS_KIND_PIPELINE;
        break;
    }
    case 'P':
        if (name[1] == 'i' && strncmp(name, "Pipeline Collection : ", 22) == 0)
            return NS_KIND_PIPELINE;
        if (ns__tool_scope(name)) return NS_KIND_SCOPE;
        break;
    case 'O':
        if (ns__tool_scope(name)) return NS_KIND_SCOPE;
        break;
    default: break;
    }
    /* Pass names are C++ class names; a space outside a "::" qualified name
     * ("(anonymous namespace)::X") means a human-named scope. */
    if (strchr(name, ' ') && !strstr(name, "::")) return NS_KIND_SCOPE;
    return NS_KIND_PASS;
}

const char *ns_kind_name(ns_kind k) {
    switch (k) {
    case NS_KIND_SCOPE: return "scope";
    case NS_KIND_PASS: return "pass";
    case NS_KIND_PIPELINE: return "pipeline";
    case NS_KIND_ANALYSIS: return "analysis";
    case NS_KIND_REST: return "rest";
    case NS_KIND_TOTAL: return "total";
    }
    return "?";
}

const char *ns_producer_name(const ns_report *r) {
    switch (r->producer) {
    case NS_PROD_MLIR_TEXT:
        if (r->legacy) return "mlir-text-tree-2020"; /* its list display has no mark */
        return r->list_mode ? "mlir-text-list" : "mlir-text-tree";
    case NS_PROD_MLIR_JSON: return r->list_mode ? "mlir-json-list" : "mlir-json-tree";
    case NS_PROD_LLVM: return "llvm-timer-group";
    case NS_PROD_TRACE: return "chrome-trace";
    }
    return "?";
}

const char *ns_col_name(ns_col c) {
    static const char *const names[NS_COL_COUNT] = {
        "wall", "user", "sys", "user+sys", "mem", "instr", "mem_peak", "mem_increase"};
    return names[c];
}

const char *ns_col_json_key(ns_col c) {
    static const char *const keys[NS_COL_COUNT] = {
        "wall_s",       "user_s",      "sys_s",          "user_sys_s",
        "mem_bytes",    "instructions", "mem_peak_kb",   "mem_increase_kb"};
    return keys[c];
}

const ns_col ns_col_print_order[NS_COL_COUNT] = {NS_COL_USER,     NS_COL_SYS,    NS_COL_USERSYS,
                                                 NS_COL_WALL,     NS_COL_MEM,    NS_COL_INSTR,
                                                 NS_COL_MEM_PEAK, NS_COL_MEM_INC};

int ns_col_printed(ns_col c) { return c != NS_COL_MEM_PEAK && c != NS_COL_MEM_INC; }

/* ====== Walking ====== */

ns_node *ns_node_skip(ns_node *n, const ns_node *root) {
    while (n && n != root) {
        if (n->next) return n->next;
        n = n->parent;
    }
    return NULL;
}

ns_node *ns_node_next(ns_node *n, const ns_node *root) {
    if (n->child) return n->child;
    return ns_node_skip(n, root);
}

double ns_node_self(const ns_node *n, ns_col c) {
    if (!ns_num_present(n->val[c])) return NAN;
    double s = n->val[c].v;
    for (const ns_node *k = n->child; k; k = k->next)
        if (ns_num_present(k->val[c]) && isfinite(k->val[c].v)) s -= k->val[c].v;
    return s;
}
