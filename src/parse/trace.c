/* trace.c -- a Chrome trace-event JSON document (clang -ftime-trace)
 * turned into one report.
 *
 * Unlike the text reports, a trace is not a tree but a bag of timed events:
 * clang writes each scope when it ends, so children come before their
 * parents, and nothing in an event says who its parent was.  The tree is
 * therefore rebuilt from the times alone, per thread: an interval is a child
 * of the innermost interval that fully contains it.  The thread's intervals
 * are sorted by start (longest first on equal starts, then by name, then by
 * input order, so the result never depends on qsort's whims) and swept with
 * an explicit stack; an interval that only partially overlaps the top of the
 * stack pops it and becomes a sibling.  No recursion anywhere, so a trace
 * thousands of scopes deep costs memory, not C stack.
 *
 * What becomes an interval:
 *   - complete events, "ph":"X" (ts and dur in microseconds, integer or real);
 *   - duration events "B"/"E", paired per (pid, tid) as a stack;
 *   - async events "b"/"e", paired by pid, cat, id and name (clang 22 writes
 *     "Source" this way because file scopes do not nest with the others);
 *     they live in a pseudo-thread per (pid, cat) named "async <cat>".
 * Tracks that ran beside the compile's own are marked (ns_node.beside):
 * every async track, and in a clang trace every thread but its longest.
 * Their time overlaps the compile's, so no stage sums it and no view ranks
 * it as a pass: a trace's stage shares add up to its total once.  (clang's
 * Source spans are header parsing; analyse/top.h sums them by file.)
 * Metadata events ("M") only name threads (thread_name) and tell whether the
 * producer was clang (process_name).  clang's summary events -- "Total X"
 * with ts 0, one per tid, holding the sum over all X scopes -- are aggregates
 * rather than scopes and are skipped.
 *
 * Times are kept as integer nanoseconds, so sorting and containment are exact
 * and a value prints with 6 decimals of seconds (1 us), or up to 9 when the
 * input had fractional microseconds.  Events of the wrong shape (not an
 * object, ts not a number, name not a string, an "E" with no open "B") are
 * skipped and counted, and a single warning (to the caller's sink) says how
 * many; a document that yields no report says why in the caller's failure
 * reason.  Nothing here prints.  This file also answers whether an input is
 * a trace at all (ns_trace_sniff), so the scanner needs no trace knowledge.
 *
 * Left out: instant, counter, flow, sample and object events (they have no
 * duration); the "id2" form of async ids; flow between threads; and the
 * truncated array form that Chrome's viewer tolerates (a missing final "]"
 * is a JSON error here, as the file was cut short).
 */
#include "parse/parse.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Largest |timestamp| and duration accepted, in ns (73 years): keeps every
 * end (start + dur) and every span (end - start) inside int64_t. */
#define NS__T_MAX ((int64_t)1 << 61)

/* ====== String map ======
 * Open addressing, linear probing, at most half full.  Used twice: to intern
 * names and details (keys live in the report's arena and are the interned
 * strings), and to find threads and open async events by a composite key
 * (keys are heap copies owned by the map). */

typedef struct {
    const char *key; /* NUL-terminated key; NULL marks an empty slot */
    size_t len;      /* key length in bytes */
    uint64_t hash;   /* FNV-1a of the key */
    long val;        /* the caller's value (-1 when just created) */
} ns__slot;

typedef struct {
    ns__slot *slot;   /* cap slots */
    size_t cap;       /* a power of two, or 0 before the first insertion */
    size_t n;         /* slots in use */
    ns_report *arena; /* copy keys into this report, or NULL: heap copies */
} ns__map;

static uint64_t ns__hash(const char *s, size_t n) {
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211u;
    }
    return h;
}

static ns__slot *ns__map_find(const ns__map *m, const char *key, size_t len,
                              uint64_t h) {
    if (!m->cap) return NULL;
    for (size_t i = (size_t)h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        ns__slot *s = &m->slot[i];
        if (!s->key) return s;
        if (s->hash == h && s->len == len && memcmp(s->key, key, len) == 0)
            return s;
    }
}

static void ns__map_grow(ns__map *m) {
    size_t cap = m->cap ? m->cap * 2 : 64;
    ns__slot *old = m->slot;
    size_t ocap = m->cap;
    m->slot = ns_xcalloc(cap, sizeof *m->slot);
    m->cap = cap;
    for (size_t i = 0; i < ocap; i++) {
        if (!old[i].key) continue;
        size_t j = (size_t)old[i].hash & (cap - 1);
        while (m->slot[j].key) j = (j + 1) & (cap - 1);
        m->slot[j] = old[i];
    }
    free(old);
}

/* The slot of key, created (val -1) if absent.  The pointer is valid until
 * the next insertion. */
static ns__slot *ns__map_add(ns__map *m, const char *key, size_t len) {
    uint64_t h = ns__hash(key, len);
    if ((m->n + 1) * 2 > m->cap) ns__map_grow(m);
    ns__slot *s = ns__map_find(m, key, len, h);
    if (!s->key) {
        s->key = m->arena ? ns_report_strdup(m->arena, key, len)
                          : ns_strndup(key, len);
        s->len = len;
        s->hash = h;
        s->val = -1;
        m->n++;
    }
    return s;
}

/* The slot of key, or NULL when absent. */
static ns__slot *ns__map_get(const ns__map *m, const char *key, size_t len) {
    ns__slot *s = ns__map_find(m, key, len, ns__hash(key, len));
    return s && s->key ? s : NULL;
}

static void ns__map_free(ns__map *m) {
    if (!m->arena)
        for (size_t i = 0; i < m->cap; i++) free((char *)m->slot[i].key);
    free(m->slot);
    m->slot = NULL;
    m->cap = m->n = 0;
}

/* ====== Collected events ====== */

typedef struct {
    int async;           /* 1: pseudo-thread of async events of one (pid, cat) */
    long long pid;       /* process id */
    long long tid;       /* thread id (async: tid of its first event) */
    const char *name;    /* thread_name metadata (async: the cat), or NULL */
    long bhead;          /* top of the open "B" stack (index in open), or -1 */
    int64_t first;       /* earliest start of its intervals, ns */
    int64_t last;        /* latest end of its intervals, ns */
    long niv;            /* intervals kept */
    long lo;             /* its first interval in the sorted array */
    long hi;             /* one past its last interval there */
    long order;          /* creation order (final tie-breaker) */
} ns__thread;

typedef struct {
    int64_t start;       /* begin timestamp, ns */
    const char *name;    /* interned name */
    const char *detail;  /* interned args.detail, or NULL */
    long idx;            /* input index of the begin event */
    long prev;           /* next older open event on the same stack, or -1 */
} ns__open;

typedef struct {
    int64_t start;       /* ns */
    int64_t dur;         /* ns, >= 0 */
    const char *name;    /* interned name (in the report's arena) */
    const char *detail;  /* interned args.detail, or NULL */
    long idx;            /* input index of the (begin) event */
    long thread;         /* index in ctx.th */
} ns__ival;

typedef struct {
    ns_report *r;        /* report being built */
    ns__map strs;        /* interned names and details */
    ns__map keys;        /* thread and async keys -> index */
    ns__thread *th;      /* threads and async pseudo-threads */
    long nth;            /* entries used in th */
    long capth;          /* entries allocated in th */
    ns__open *open;      /* begin events ("B", "b"), never removed */
    long nopen;          /* entries used in open */
    long capopen;        /* entries allocated in open */
    long live;           /* begin events still waiting for their end */
    ns__ival *iv;        /* intervals kept */
    long niv;            /* entries used in iv */
    long capiv;          /* entries allocated in iv */
    ns_buf kb;           /* scratch for composite keys */
    long bad;            /* malformed events skipped */
    int clang;           /* a process_name said clang */
} ns__ctx;

static const char *ns__intern(ns__ctx *c, const char *s, size_t n) {
    return ns__map_add(&c->strs, s, n)->key;
}

static const char *ns__intern_json(ns__ctx *c, const json_t *s) {
    return ns__intern(c, json_string_value(s), json_string_length(s));
}

/* Thread (pid, tid), or the async pseudo-thread (pid, cat); created on first
 * use. */
static long ns__thread_get(ns__ctx *c, int async, long long pid,
                           long long tid, const char *cat) {
    c->kb.len = 0;
    if (async)
        ns_buf_printf(&c->kb, "A%lld:%s", pid, cat);
    else
        ns_buf_printf(&c->kb, "T%lld:%lld", pid, tid);
    ns__slot *s = ns__map_add(&c->keys, c->kb.data, c->kb.len);
    if (s->val >= 0) return s->val;
    if (c->nth == c->capth) {
        c->capth = c->capth ? c->capth * 2 : 8;
        c->th = ns_xrealloc(c->th, sizeof *c->th * (size_t)c->capth);
    }
    ns__thread *t = &c->th[c->nth];
    memset(t, 0, sizeof *t);
    t->async = async;
    t->pid = pid;
    t->tid = tid;
    t->name = async ? ns__intern(c, cat, strlen(cat)) : NULL;
    t->bhead = -1;
    t->order = c->nth;
    s->val = c->nth;
    return c->nth++;
}

static long ns__open_push(ns__ctx *c, int64_t start, const char *name,
                          const char *detail, long idx, long prev) {
    if (c->nopen == c->capopen) {
        c->capopen = c->capopen ? c->capopen * 2 : 64;
        c->open = ns_xrealloc(c->open, sizeof *c->open * (size_t)c->capopen);
    }
    ns__open *o = &c->open[c->nopen];
    o->start = start;
    o->name = name;
    o->detail = detail;
    o->idx = idx;
    o->prev = prev;
    c->live++;
    return c->nopen++;
}

static void ns__add_iv(ns__ctx *c, long thread, int64_t start, int64_t dur,
                       const char *name, const char *detail, long idx) {
    if (c->niv == c->capiv) {
        c->capiv = c->capiv ? c->capiv * 2 : 256;
        c->iv = ns_xrealloc(c->iv, sizeof *c->iv * (size_t)c->capiv);
    }
    ns__ival *v = &c->iv[c->niv++];
    v->start = start;
    v->dur = dur;
    v->name = name;
    v->detail = detail;
    v->idx = idx;
    v->thread = thread;
    ns__thread *t = &c->th[thread];
    if (!t->niv || start < t->first) t->first = start;
    if (!t->niv || start + dur > t->last) t->last = start + dur;
    t->niv++;
}

/* ====== Reading one event ====== */

/* A JSON number of microseconds as nanoseconds; -1 if not a number or out of
 * range.  Reals are rounded to the nearest ns (a trace never has finer). */
static int ns__usec(const json_t *v, int64_t *out) {
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        if (i > NS__T_MAX / 1000 || i < -(NS__T_MAX / 1000)) return -1;
        *out = (int64_t)i * 1000;
        return 0;
    }
    if (json_is_real(v)) {
        double d = json_real_value(v) * 1000.0;
        if (!(d <= (double)NS__T_MAX && d >= -(double)NS__T_MAX)) return -1;
        *out = d >= 0 ? (int64_t)(d + 0.5) : -(int64_t)(-d + 0.5);
        return 0;
    }
    return -1;
}

/* An optional integer member (pid, tid): 0 when absent, -1 when not an
 * integer. */
static int ns__opt_int(const json_t *v, long long *out) {
    *out = 0;
    if (!v) return 0;
    if (!json_is_integer(v)) return -1;
    *out = (long long)json_integer_value(v);
    return 0;
}

/* args.detail when it is a string, else NULL. */
static const char *ns__detail(ns__ctx *c, const json_t *ev) {
    const json_t *d = json_object_get(json_object_get(ev, "args"), "detail");
    return json_is_string(d) ? ns__intern_json(c, d) : NULL;
}

static void ns__meta(ns__ctx *c, long long pid, long long tid,
                     const char *name, const json_t *ev) {
    const json_t *an = json_object_get(json_object_get(ev, "args"), "name");
    if (!name || !json_is_string(an)) return;
    const char *v = json_string_value(an);
    if (strcmp(name, "thread_name") == 0) {
        long t = ns__thread_get(c, 0, pid, tid, NULL);
        c->th[t].name = ns__intern_json(c, an);
    } else if (strcmp(name, "process_name") == 0) {
        if (strcmp(v, "clang") == 0 || strcmp(v, "clang++") == 0 ||
            strncmp(v, "clang-", 6) == 0)
            c->clang = 1;
    }
}

/* The key of an async event's open stack: pid, cat (length-prefixed, so that
 * no cat/id pair can collide with another) and id.  -1 for an id of the
 * wrong type. */
static int ns__async_key(ns__ctx *c, long long pid, const char *cat,
                         const json_t *id) {
    c->kb.len = 0;
    ns_buf_printf(&c->kb, "O%lld:%zu:%s:", pid, strlen(cat), cat);
    if (!id)
        ns_buf_putc(&c->kb, '-');
    else if (json_is_integer(id))
        ns_buf_printf(&c->kb, "i%lld", (long long)json_integer_value(id));
    else if (json_is_string(id))
        ns_buf_printf(&c->kb, "s%s", json_string_value(id));
    else if (json_is_real(id))
        ns_buf_printf(&c->kb, "r%.17g", json_real_value(id));
    else
        return -1;
    return 0;
}

/* "e": close the most recent open "b" with the same key (and name, when the
 * end event has one).  -1 when there is none. */
static int ns__async_end(ns__ctx *c, long long pid, const char *cat,
                         const char *name, int64_t ts) {
    ns__slot *s = ns__map_get(&c->keys, c->kb.data, c->kb.len);
    if (!s) return -1;
    long *link = &s->val;
    while (*link >= 0 && name && strcmp(c->open[*link].name, name) != 0)
        link = &c->open[*link].prev;
    if (*link < 0) return -1;
    ns__open o = c->open[*link];
    *link = o.prev;
    c->live--;
    if (ts < o.start) return -1;
    /* the tid of a pseudo-thread only orders it; it exists already */
    long t = ns__thread_get(c, 1, pid, 0, cat);
    ns__add_iv(c, t, o.start, ts - o.start, o.name, o.detail, o.idx);
    return 0;
}

/* One element of traceEvents; returns -1 when it is malformed. */
static int ns__event(ns__ctx *c, const json_t *ev, long idx) {
    if (!json_is_object(ev)) return -1;
    const json_t *jph = json_object_get(ev, "ph");
    if (!json_is_string(jph)) return -1;
    const char *ph = json_string_value(jph);
    if (!ph[0] || ph[1] || !strchr("XBEbeM", ph[0])) return 0; /* not ours */

    long long pid, tid;
    if (ns__opt_int(json_object_get(ev, "pid"), &pid) != 0 ||
        ns__opt_int(json_object_get(ev, "tid"), &tid) != 0)
        return -1;
    const json_t *jname = json_object_get(ev, "name");
    if (jname && !json_is_string(jname)) return -1;
    const char *name = jname ? json_string_value(jname) : NULL;
    if (ph[0] == 'M') {
        ns__meta(c, pid, tid, name, ev);
        return 0;
    }

    int64_t ts, dur;
    if (ns__usec(json_object_get(ev, "ts"), &ts) != 0) return -1;
    switch (ph[0]) {
    case 'X':
        if (!name || ns__usec(json_object_get(ev, "dur"), &dur) != 0 ||
            dur < 0 || dur > NS__T_MAX)
            return -1;
        if (ts == 0 && strncmp(name, "Total ", 6) == 0) return 0; /* summary */
        ns__add_iv(c, ns__thread_get(c, 0, pid, tid, NULL), ts, dur,
                   ns__intern_json(c, jname), ns__detail(c, ev), idx);
        return 0;
    case 'B': {
        if (!name) return -1;
        long t = ns__thread_get(c, 0, pid, tid, NULL);
        long o = ns__open_push(c, ts, ns__intern_json(c, jname),
                               ns__detail(c, ev), idx, c->th[t].bhead);
        c->th[t].bhead = o;
        return 0;
    }
    case 'E': {
        long t = ns__thread_get(c, 0, pid, tid, NULL);
        if (c->th[t].bhead < 0) return -1;
        ns__open o = c->open[c->th[t].bhead];
        c->th[t].bhead = o.prev;
        c->live--;
        if (ts < o.start) return -1;
        /* Chrome merges the args of both ends; detail may be on either */
        const char *detail = o.detail ? o.detail : ns__detail(c, ev);
        ns__add_iv(c, t, o.start, ts - o.start, o.name, detail, o.idx);
        return 0;
    }
    default: { /* 'b', 'e' */
        const json_t *jcat = json_object_get(ev, "cat");
        if (jcat && !json_is_string(jcat)) return -1;
        const char *cat = jcat ? json_string_value(jcat) : "";
        if (ph[0] == 'e') {
            if (ns__async_key(c, pid, cat, json_object_get(ev, "id")) != 0)
                return -1;
            return ns__async_end(c, pid, cat, name, ts);
        }
        if (!name) return -1;
        /* create the pseudo-thread first: it is ordered by its first tid */
        ns__thread_get(c, 1, pid, tid, cat);
        const char *iname = ns__intern_json(c, jname);
        const char *detail = ns__detail(c, ev);
        if (ns__async_key(c, pid, cat, json_object_get(ev, "id")) != 0)
            return -1;
        ns__slot *s = ns__map_add(&c->keys, c->kb.data, c->kb.len);
        long prev = s->val; /* s is stale after the next insertion */
        s->val = ns__open_push(c, ts, iname, detail, idx, prev);
        return 0;
    }
    }
}

/* ====== Sorting ====== */

/* Per thread: start ascending, longest first, then name, then input order. */
static int ns__iv_cmp(const void *a, const void *b) {
    const ns__ival *x = a, *y = b;
    if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    if (x->dur != y->dur) return x->dur > y->dur ? -1 : 1;
    /* Identical intervals: clang writes a scope when it ends, so the inner
     * one comes first in the file; the later one is the outer. */
    return (x->idx < y->idx) - (x->idx > y->idx);
}

/* Threads: earliest event first, then real threads before async ones, then
 * by tid, pid and order of appearance. */
static int ns__th_cmp(const void *a, const void *b) {
    const ns__thread *x = *(ns__thread *const *)a, *y = *(ns__thread *const *)b;
    if (x->first != y->first) return x->first < y->first ? -1 : 1;
    if (x->async != y->async) return x->async - y->async;
    if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
    if (x->pid != y->pid) return x->pid < y->pid ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

/* ====== Building the tree ====== */

/* Seconds from ns, with 6 decimals, or up to 9 when the value needs them. */
static ns_num ns__secs(int64_t ns) {
    ns_num n;
    n.v = (double)ns / 1e9;
    n.dec = ns % 1000 == 0 ? 6 : ns % 100 == 0 ? 7 : ns % 10 == 0 ? 8 : 9;
    return n;
}

typedef struct {
    ns_node *node; /* an open interval's node */
    int64_t end;   /* its end, ns */
} ns__frame;

/* Hang the sorted intervals iv[lo, hi) of one thread under `top`, whose
 * children are at depth `depth`. */
static void ns__build_thread(ns__ctx *c, ns_node *top, int depth, long lo,
                             long hi, int beside, ns__frame **stack, long *cap) {
    long sp = 0;
    for (long k = lo; k < hi; k++) {
        const ns__ival *v = &c->iv[k];
        int64_t end = v->start + v->dur;
        /* sorted by start, so only the end decides containment */
        while (sp > 0 && end > (*stack)[sp - 1].end) sp--;
        ns_node *n = ns_report_node(c->r);
        n->name = v->name;
        n->detail = v->detail;
        n->val[NS_COL_WALL] = ns__secs(v->dur);
        n->kind = NS_KIND_PASS;
        n->depth = depth + (int)sp;
        n->beside = (unsigned char)beside;
        ns_node_append(sp ? (*stack)[sp - 1].node : top, n);
        if (sp == *cap) {
            *cap = *cap ? *cap * 2 : 64;
            *stack = ns_xrealloc(*stack, sizeof **stack * (size_t)*cap);
        }
        (*stack)[sp].node = n;
        (*stack)[sp].end = end;
        sp++;
    }
}

static void ns__build(ns__ctx *c) {
    ns_report *r = c->r;
    qsort(c->iv, (size_t)c->niv, sizeof *c->iv, ns__iv_cmp);
    for (long k = 0; k < c->niv;) {
        long j = k;
        while (j < c->niv && c->iv[j].thread == c->iv[k].thread) j++;
        c->th[c->iv[k].thread].lo = k;
        c->th[c->iv[k].thread].hi = j;
        k = j;
    }

    ns__thread **order = ns_xmalloc(sizeof *order * (size_t)c->nth);
    long n = 0;
    int64_t first = 0, last = 0;
    for (long t = 0; t < c->nth; t++) {
        if (!c->th[t].niv) continue;
        if (!n || c->th[t].first < first) first = c->th[t].first;
        if (!n || c->th[t].last > last) last = c->th[t].last;
        order[n++] = &c->th[t];
    }
    qsort(order, (size_t)n, sizeof *order, ns__th_cmp);
    r->root->val[NS_COL_WALL] = ns__secs(last - first);

    /* the compile's own track: in a clang trace its longest thread (clang
     * works on one), elsewhere every thread; async tracks lie beside it */
    const ns__thread *own = NULL;
    for (long i = 0; c->clang && i < n; i++)
        if (!order[i]->async && (!own || order[i]->last - order[i]->first > own->last - own->first))
            own = order[i];
    ns__frame *stack = NULL;
    long cap = 0;
    for (long i = 0; i < n; i++) {
        const ns__thread *t = order[i];
        int beside = n > 1 && (t->async || (own && t != own));
        ns_node *top = r->root;
        if (n > 1) {
            c->kb.len = 0;
            if (t->async && t->name[0])
                ns_buf_printf(&c->kb, "async %s", t->name);
            else if (t->async)
                ns_buf_puts(&c->kb, "async");
            else if (t->name)
                ns_buf_printf(&c->kb, "thread %s", t->name);
            else
                ns_buf_printf(&c->kb, "thread %lld", t->tid);
            top = ns_report_node(r);
            top->name = ns_report_strdup(r, c->kb.data, c->kb.len);
            top->val[NS_COL_WALL] = ns__secs(t->last - t->first);
            top->kind = NS_KIND_SCOPE;
            top->depth = 0;
            top->beside = (unsigned char)beside;
            ns_node_append(r->root, top);
            r->tracks = 1;
        }
        ns__build_thread(c, top, n > 1 ? 1 : 0, t->lo, t->hi, beside, &stack, &cap);
    }
    free(stack);
    free(order);
}

/* ====== Telling a trace from a log ====== */

static const char *ns__memmem(const char *h, size_t hn, const char *nd, size_t nn) {
    if (nn == 0) return h;
    for (size_t i = 0; i + nn <= hn; i++)
        if (h[i] == nd[0] && memcmp(h + i, nd, nn) == 0) return h + i;
    return NULL;
}

int ns_trace_sniff(const char *s, size_t n) {
    size_t i = 0;
    if (n >= 3 && (unsigned char)s[0] == 0xef && (unsigned char)s[1] == 0xbb &&
        (unsigned char)s[2] == 0xbf)
        i = 3; /* UTF-8 byte order mark */
    while (i < n && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) i++;
    if (i >= n) return 0;
    size_t look = n - i < 4096 ? n - i : 4096;
    if (s[i] == '{') return ns__memmem(s + i, look, "\"traceEvents\"", 13) != NULL;
    if (s[i] == '[') {
        size_t j = i + 1;
        while (j < n && (s[j] == ' ' || s[j] == '\n' || s[j] == '\r' || s[j] == '\t')) j++;
        if (j >= n || s[j] != '{' || j - i >= look) return 0; /* blanks only in the window */
        size_t rest = look - (j - i);
        return ns__memmem(s + j, rest, "\"ph\"", 4) && !ns_mlir_json_entry_line(s + j, rest);
    }
    return 0;
}

/* ====== Containers ======
 * A text report names its containers (a scope, a pipeline); a trace does
 * not: ExecuteCompiler, Frontend, Backend and OptModule are events like
 * any pass.  So the rule is the one that makes a container a container:
 * a scope whose children cover more than half of its time is a scope
 * (NS_KIND_SCOPE), its time being mostly theirs; anything else stays a
 * pass, its time mostly its own.  `top` leaves scopes out (their time is
 * their children's) and the page's heaviest pass is a pass, so neither
 * ranks ExecuteCompiler (100%) first. */
static void ns__containers(ns_report *r) {
    for (ns_node *n = r->root->child; n; n = ns_node_next(n, r->root)) {
        if (!n->child || n->kind != NS_KIND_PASS || !ns_num_present(n->val[NS_COL_WALL])) continue;
        double kids = 0; /* children are nested intervals: they never overlap */
        for (const ns_node *c = n->child; c; c = c->next)
            if (ns_num_present(c->val[NS_COL_WALL])) kids += c->val[NS_COL_WALL].v;
        if (kids > 0.5 * n->val[NS_COL_WALL].v) n->kind = NS_KIND_SCOPE;
    }
}

/* ====== Entry point ====== */

static long ns__count_lines(const char *s, size_t n) {
    long lines = 0;
    const char *p = s, *end = s + n;
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        lines++;
        p++;
    }
    return n && s[n - 1] != '\n' ? lines + 1 : lines;
}

ns_report *ns_trace_report_new(const char *text, size_t len, const char *file,
                               const ns_diag *d, ns_why *why) {
    json_error_t err;
    json_t *doc = json_loadb(text, len, 0, &err);
    if (!doc) {
        ns_fail(why, err.line, "not valid trace JSON: %s", err.text);
        return NULL;
    }
    const json_t *events = doc;
    if (json_is_object(doc)) {
        events = json_object_get(doc, "traceEvents");
        if (!events) {
            ns_fail(why, 0, "not a trace: no \"traceEvents\" member");
            json_decref(doc);
            return NULL;
        }
    }
    if (!json_is_array(events)) {
        ns_fail(why, 0, "not a trace: \"traceEvents\" is not an array");
        json_decref(doc);
        return NULL;
    }

    ns__ctx c;
    memset(&c, 0, sizeof c);
    c.r = ns_report_new(NS_PROD_TRACE, file, 1);
    c.strs.arena = c.r;
    size_t nev = json_array_size(events);
    long first_bad = -1;
    for (size_t i = 0; i < nev; i++)
        if (ns__event(&c, json_array_get(events, i), (long)i) != 0 && c.bad++ == 0)
            first_bad = (long)i;
    json_decref(doc);
    long unended = c.live; /* begin events that never ended */
    c.bad += unended;

    ns_report *r = c.r;
    /* a trace is one line: say which event, counted from 0 as in the array */
    if (first_bad >= 0)
        ns_diag_say(d, NS_DIAG_WARNING, file, 0,
                    "skipped %ld malformed trace event%s (the first: traceEvents[%ld])",
                    c.bad - unended, c.bad - unended == 1 ? "" : "s", first_bad);
    if (unended)
        ns_diag_say(d, NS_DIAG_WARNING, file, 0, "skipped %ld begin event%s that never ended",
                    unended, unended == 1 ? "" : "s");
    if (!c.niv) {
        ns_fail(why, 0, "trace has no timed events");
        ns_report_free(r);
        r = NULL;
    } else {
        ns__build(&c);
        ns__containers(r);
        r->cols = NS_COLBIT(NS_COL_WALL);
        r->complete = 1;
        r->title = ns_strdup(c.clang ? "clang -ftime-trace" : "Chrome trace");
        r->end_line = ns__count_lines(text, len);
    }
    ns__map_free(&c.strs);
    ns__map_free(&c.keys);
    ns_buf_free(&c.kb);
    free(c.th);
    free(c.open);
    free(c.iv);
    return r;
}
