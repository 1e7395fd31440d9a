/* stages.c -- stage maps: parsing the rules file, giving every row of a
 * report its stage, and summing self times per stage (see stages.h; the
 * file format is docs/stages.md).
 *
 * How a map is kept: stages in declaration order; name rules split into
 * exact names (a hash map, so the common case is one lookup) and globs
 * (tried in file order after the exact names); marker rules in blocks, one
 * per group of `scope` lines, each block an ordered list.  A report is
 * walked once, in pre-order, without recursion: a node's parent is always
 * the last node seen one level up, so per-level arrays (stage of the last
 * node at each level, the marker scan its children belong to) carry
 * everything the rules need.
 *
 * Marker scans, exactly: the children of a row that a scope names are read
 * in order, with pipeline rows ('func.func' Pipeline, Pipeline Collection)
 * looked through as if their children were siblings (MLIR groups
 * consecutive function passes into such a row; which passes end up inside
 * one differs between compiler versions).  The scan remembers the position
 * of the last marker that fired; a row fires the first marker *after* that
 * position that matches its name, so a scan only moves forward and a name
 * that appears again later (EfficientIROrder, Canonicalizer) cannot send it
 * back.  A row that a scope names starts a scan of its own instead of being
 * looked through.
 *
 * Deliberately left out: regular expressions (globs are enough for pass
 * names and cannot go wrong in surprising ways), rules on anything but the
 * name (kind, depth, producer), and include files.
 */
#include "model/stages.h"

#include "model/stages_int.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ====== The map ====== */

void ns_stages__rules_free(ns__rule *r, int n) {
    for (int i = 0; i < n; i++) free(r[i].pattern);
    free(r);
}

void ns_stage_map_free(ns_stage_map *m) {
    if (!m) return;
    for (int i = 0; i < m->nstages; i++) {
        free(m->stages[i].name);
        free(m->stages[i].desc);
    }
    free(m->stages);
    ns_stages__rules_free(m->names, m->nnames);
    ns_strmap_free(&m->exact);
    free(m->exact_rule);
    for (int i = 0; i < m->nblocks; i++) {
        ns_stages__rules_free(m->blocks[i].scopes, m->blocks[i].nscopes);
        ns_stages__rules_free(m->blocks[i].markers, m->blocks[i].nmarkers);
    }
    free(m->blocks);
    ns_stages__rules_free(m->any.markers, m->any.nmarkers);
    free(m->label);
    free(m->text);
    for (size_t i = 0; i < m->loggers.count; i++) free(m->logger_pass[i]);
    free(m->logger_pass);
    free(m->logger_line);
    ns_strmap_free(&m->loggers);
    if (m->memo) {
        ns_strmap_free(&m->memo->names);
        free(m->memo->rule);
        free(m->memo->block);
        free(m->memo->marks);
        free(m->memo);
    }
    free(m);
}

const char *ns_stage_map_label(const ns_stage_map *m) { return m->label; }

const char *ns_stage_logger_pass(const ns_stage_map *m, const char *logger) {
    size_t k = ns_strmap_find(&m->loggers, logger);
    return k == (size_t)-1 ? NULL : m->logger_pass[k];
}
const char *ns_stage_map_text(const ns_stage_map *m) { return m->text; }
int ns_stage_count(const ns_stage_map *m) { return m->nstages; }
const char *ns_stage_name(const ns_stage_map *m, int i) { return m->stages[i].name; }
const char *ns_stage_desc(const ns_stage_map *m, int i) { return m->stages[i].desc; }
int ns_stage_default(const ns_stage_map *m) { return m->dflt; }

int ns_stage_find(const ns_stage_map *m, const char *name) {
    for (int i = 0; i < m->nstages; i++)
        if (strcmp(m->stages[i].name, name) == 0) return i;
    return -1;
}

void ns_stage_map_summary(ns_buf *b, const ns_stage_map *m) {
    int nscopes = 0, nmarkers = m->any.nmarkers;
    for (int i = 0; i < m->nblocks; i++) {
        nscopes += m->blocks[i].nscopes;
        nmarkers += m->blocks[i].nmarkers;
    }
    ns_buf_printf(b, "%d stage%s, %d name rule%s (%d glob%s), %d scope block%s (%d scope%s) "
                     "with %d marker%s, default '%s'",
                  m->nstages, m->nstages == 1 ? "" : "s", m->nnames, m->nnames == 1 ? "" : "s",
                  m->nglobs, m->nglobs == 1 ? "" : "s", m->nblocks, m->nblocks == 1 ? "" : "s",
                  nscopes, nscopes == 1 ? "" : "s", nmarkers, nmarkers == 1 ? "" : "s",
                  m->stages[m->dflt].name);
}

/* ====== Patterns ====== */

int ns_stage_glob(const char *p, const char *s) {
    const char *star_p = NULL, *star_s = NULL; /* where to resume after the last '*' */
    while (*s) {
        if (*p == '*') {
            star_p = ++p;
            star_s = s;
            continue;
        }
        if (*p == '?') {
            p++;
            s++;
            continue;
        }
        const char *lit = p, *after = p + 1;
        if (*p == '\\' && p[1]) lit = p + 1, after = p + 2;
        if (*p && *lit == *s) {
            p = after;
            s++;
            continue;
        }
        if (!star_p) return 0;
        p = star_p; /* let the last '*' take one more byte */
        s = ++star_s;
    }
    while (*p == '*') p++;
    return *p == 0;
}

static int ns__is_glob(const char *p) {
    for (; *p; p++) {
        if (*p == '\\' && p[1]) p++;
        else if (*p == '*' || *p == '?') return 1;
    }
    return 0;
}

/* An exact name as written, with its escapes resolved. */
static char *ns__unescape_dup(const char *p) {
    char *out = ns_xmalloc(strlen(p) + 1), *o = out;
    for (; *p; p++) {
        if (*p == '\\' && p[1]) p++;
        *o++ = *p;
    }
    *o = 0;
    return out;
}

void ns_stages__rule_set(ns__rule *r, const char *pattern, int stage, int line) {
    r->glob = ns__is_glob(pattern);
    r->pattern = r->glob ? ns_strdup(pattern) : ns__unescape_dup(pattern);
    r->stage = stage;
    r->line = line;
}

static int ns__rule_match(const ns__rule *r, const char *name) {
    return r->glob ? ns_stage_glob(r->pattern, name) : strcmp(r->pattern, name) == 0;
}

/* The name rule for `name`: an exact name first, then the first glob. */
static const ns__rule *ns__name_rule(const ns_stage_map *m, const char *name) {
    size_t k = ns_strmap_find(&m->exact, name);
    if (k != (size_t)-1) return &m->names[m->exact_rule[k]];
    if (m->nglobs)
        for (int i = 0; i < m->nnames; i++)
            if (m->names[i].glob && ns_stage_glob(m->names[i].pattern, name))
                return &m->names[i];
    return NULL;
}

/* The block of the first scope that names `name`, or NULL. */
static const ns__block *ns__scope_block(const ns_stage_map *m, const char *name) {
    for (int i = 0; i < m->nblocks; i++)
        for (int k = 0; k < m->blocks[i].nscopes; k++)
            if (ns__rule_match(&m->blocks[i].scopes[k], name)) return &m->blocks[i];
    return NULL;
}

/* The guess slot of a row: the ids of the three names looked up before
 * it (-1 for none) and its depth, hashed (ns__memo.guess). */
static unsigned ns__guess_slot(const int *ctx, int depth) {
    unsigned h = (unsigned)(ctx[0] + 1) * 0x9e3779b1u ^ (unsigned)(ctx[1] + 1) * 0x85ebca77u ^
                 (unsigned)(ctx[2] + 1) * 0xc2b2ae3du ^ (unsigned)(depth + 2) * 0x27d4eb2fu;
    return h >> (32 - NS__GUESS_BITS);
}

/* The name rule and scope block of `name`, through the memo; returns the
 * name's id in the memo, or -1 when the memo is full.  slot is the row's
 * guess slot (ns__guess_slot): the name seen there last time is tried
 * first, without hashing. */
static int ns__name_facts(const ns_stage_map *m, const char *name, unsigned slot,
                          const ns__rule **rule, const ns__block **block) {
    ns__memo *mo = m->memo;
    int guess = mo->guess[slot] - 1;
    size_t k;
    if (guess >= 0 && strcmp(mo->names.keys[guess], name) == 0) {
        k = (size_t)guess;
    } else {
        k = ns_strmap_find(&mo->names, name);
        if (k == (size_t)-1) {
            *rule = ns__name_rule(m, name);
            *block = ns__scope_block(m, name);
            if (mo->names.count >= NS__MEMO_MAX) return -1;
            int added;
            k = ns_strmap_intern(&mo->names, name, &added);
            size_t nb = (size_t)m->nblocks + 1;
            if (k >= mo->cap) {
                mo->cap = mo->cap ? mo->cap * 2 : 256;
                mo->rule = ns_xrealloc(mo->rule, sizeof *mo->rule * mo->cap);
                mo->block = ns_xrealloc(mo->block, sizeof *mo->block * mo->cap);
                mo->marks = ns_xrealloc(mo->marks, sizeof *mo->marks * mo->cap * nb);
            }
            mo->rule[k] = *rule ? (int)(*rule - m->names) : -1;
            mo->block[k] = *block ? (int)(*block - m->blocks) : -1;
            for (size_t bi = 0; bi < nb; bi++) {
                const ns__block *bl = bi < (size_t)m->nblocks ? &m->blocks[bi] : &m->any;
                unsigned long long w = 0;
                for (int j = 0; j < bl->nmarkers && j < NS__MARKS_MAX; j++)
                    if (ns__rule_match(&bl->markers[j], name)) w |= 1ull << j;
                mo->marks[k * nb + bi] = w;
            }
            mo->guess[slot] = (int)k + 1;
            return (int)k;
        }
        mo->guess[slot] = (int)k + 1;
    }
    *rule = mo->rule[k] >= 0 ? &m->names[mo->rule[k]] : NULL;
    *block = mo->block[k] >= 0 ? &m->blocks[mo->block[k]] : NULL;
    return (int)k;
}

/* ====== Assigning stages ====== */

const char *ns_stage_by_name(ns_stage_by by) {
    switch (by) {
    case NS_STAGE_BY_NONE: return "none";
    case NS_STAGE_BY_NAME: return "name";
    case NS_STAGE_BY_MARKER: return "marker";
    case NS_STAGE_BY_PARENT: return "parent";
    case NS_STAGE_BY_DEFAULT: return "default";
    }
    return "?";
}

static int ns__is_rest(const ns_node *n) { return n->kind == NS_KIND_REST && n->depth == 0; }

int ns_stage_counted(const ns_report *r, const ns_node *n) {
    if (n == r->root || ns__is_rest(n) || n->kind == NS_KIND_TOTAL || n->beside) return 0;
    if (r->list_mode) {
        if (ns_node_is_list_root(r, n)) return 0;
        if (n->kind == NS_KIND_PIPELINE) return 0;
    }
    return 1;
}

/* State of one marker scan: the block and how far it got. */
typedef struct {
    const ns__block *block; /* the markers read */
    int bi;                 /* its index among the memo's words (any: nblocks) */
    int pos;                /* index of the last marker fired, -1 before the first */
    int stage;              /* its stage, -1 before the first */
    int line;               /* its line */
} ns__scan;

static void ns__scan_start(ns__scan *s, const ns_stage_map *m, const ns__block *b) {
    s->block = b;
    s->bi = b == &m->any ? m->nblocks : (int)(b - m->blocks);
    s->pos = s->stage = -1;
    s->line = 0;
}

static void ns__scan_fire(ns__scan *s, int j) {
    s->pos = j;
    s->stage = s->block->markers[j].stage;
    s->line = s->block->markers[j].line;
}

/* A row seen by the scan: fire the first matching marker after pos.  With
 * the name's id in the memo, the markers it matches are one word. */
static void ns__scan_row(ns__scan *s, const ns_stage_map *m, int id, const char *name) {
    if (id >= 0 && s->block->nmarkers <= NS__MARKS_MAX) {
        unsigned long long w = m->memo->marks[(size_t)id * ((size_t)m->nblocks + 1) + (size_t)s->bi];
        if (s->pos >= 0) w &= ~((2ull << s->pos) - 1); /* only markers after pos */
        if (w) ns__scan_fire(s, __builtin_ctzll(w));
        return;
    }
    for (int j = s->pos + 1; j < s->block->nmarkers; j++)
        if (ns__rule_match(&s->block->markers[j], name)) {
            ns__scan_fire(s, j);
            return;
        }
}

/* The per-level arrays of a walk: on the stack for the depths of real
 * reports, in one heap block past them (a report of a dense log is a few
 * dozen rows: a malloc for each of them showed). */
#define NS__LEVELS 32

typedef struct {
    ns__scan *sc;                 /* marker scan started at each level */
    int *stg;                     /* stage of the last node seen at each level */
    int *scan;                    /* the level whose scan its children join, or -1 */
    size_t n;                     /* levels room is made for */
    void *heap;                   /* the block when past NS__LEVELS, else NULL */
    ns__scan sc0[NS__LEVELS];     /* the first NS__LEVELS of sc */
    int stg0[NS__LEVELS];         /* ... of stg */
    int scan0[NS__LEVELS];        /* ... of scan */
} ns__levels;

static void ns__levels_init(ns__levels *l) {
    l->sc = l->sc0;
    l->stg = l->stg0;
    l->scan = l->scan0;
    l->n = NS__LEVELS;
    l->heap = NULL;
}

/* Room for level d (levels below it keep their contents). */
static void ns__levels_need(ns__levels *l, size_t d) {
    if (d < l->n) return;
    size_t n = l->n * 2;
    while (n <= d) n *= 2;
    char *blk = ns_xmalloc((sizeof *l->sc + 2 * sizeof(int)) * n);
    ns__scan *sc = (ns__scan *)(void *)blk;
    int *stg = (int *)(void *)(sc + n), *scan = stg + n;
    memcpy(sc, l->sc, sizeof *sc * l->n);
    memcpy(stg, l->stg, sizeof *stg * l->n);
    memcpy(scan, l->scan, sizeof *scan * l->n);
    free(l->heap);
    l->heap = blk;
    l->sc = sc, l->stg = stg, l->scan = scan, l->n = n;
}

ns_stage_of *ns_stage_assign_new(const ns_stage_map *m, const ns_report *r, long *np) {
    const ns_node *root = r->root;
    /* level L = depth + 1 (the root is level 0); for the last node seen at
     * each level: its stage, and the level whose scan its children join.
     * One walk: `of` is made for the report's node count and grows if a
     * reader counted fewer (nothing is walked to count them first) */
    ns__levels lv;
    ns__levels_init(&lv);
    size_t cap = r->nnodes > 0 ? (size_t)r->nnodes + 1 : 64;
    ns_stage_of *of = ns_xmalloc(cap * sizeof *of);
    const ns__block *any = m->any.nmarkers ? &m->any : NULL;

    const ns__rule *rule;
    const ns__block *b;
    int ctx[3] = {-1, -1, -1}; /* the ids of the last three names looked up, newest first */
    int id = ns__name_facts(m, root->name, ns__guess_slot(ctx, root->depth), &rule, &b);
    ctx[0] = id;
    of[0] = (ns_stage_of){-1, 0, NS_STAGE_BY_NONE, id};
    lv.stg[0] = -1;
    if (!b) b = any;
    lv.scan[0] = b ? 0 : -1;
    if (b) ns__scan_start(&lv.sc[0], m, b);

    long i = 0;
    for (const ns_node *x = root->child; x; x = ns_node_next((ns_node *)x, root)) {
        i++;
        if ((size_t)i + 1 >= cap) {
            cap *= 2;
            of = ns_xrealloc(of, cap * sizeof *of);
        }
        int d = x->depth + 1;
        if (d < 1) d = 1;
        ns__levels_need(&lv, (size_t)d);
        int *stg = lv.stg, *scan = lv.scan;
        ns__scan *sc = lv.sc;
        if (ns__is_rest(x)) {
            of[i] = (ns_stage_of){-1, 0, NS_STAGE_BY_NONE, -1};
            stg[d] = -1;
            scan[d] = -1;
            continue;
        }
        int s = scan[d - 1];
        id = ns__name_facts(m, x->name, ns__guess_slot(ctx, x->depth), &rule, &b);
        ctx[2] = ctx[1], ctx[1] = ctx[0], ctx[0] = id;
        if (s >= 0) ns__scan_row(&sc[s], m, id, x->name);
        if (rule) of[i] = (ns_stage_of){rule->stage, rule->line, NS_STAGE_BY_NAME, id};
        else if (s >= 0 && sc[s].stage >= 0)
            of[i] = (ns_stage_of){sc[s].stage, sc[s].line, NS_STAGE_BY_MARKER, id};
        else if (d >= 2 && stg[d - 1] >= 0)
            of[i] = (ns_stage_of){stg[d - 1], 0, NS_STAGE_BY_PARENT, id};
        else of[i] = (ns_stage_of){m->dflt, m->dflt_line, NS_STAGE_BY_DEFAULT, id};
        stg[d] = of[i].stage;
        /* the scan x's children join: its own (a scope names it), the one x
         * sits in (a pipeline row is looked through), or the unscoped one */
        if (b) {
            scan[d] = d;
            ns__scan_start(&sc[d], m, b);
        } else if (x->kind == NS_KIND_PIPELINE && s >= 0) {
            scan[d] = s;
        } else if (any) {
            scan[d] = d;
            ns__scan_start(&sc[d], m, any);
        } else {
            scan[d] = -1;
        }
    }
    free(lv.heap);
    memset(&of[i + 1], 0, sizeof *of); /* the entry past the last, as it always was */
    *np = i + 1;
    return of;
}

/* ====== Sums ====== */

double ns_stage_report_total(const ns_report *r) {
    ns_num t = r->root->val[NS_COL_WALL];
    if (ns_num_present(t) && isfinite(t.v)) return t.v;
    if (ns_num_present(r->header_total) && isfinite(r->header_total.v)) return r->header_total.v;
    return NAN;
}

void ns_stage_sum(const ns_stage_map *m, const ns_report *r, const ns_stage_of *of,
                  ns_stage_sums *s) {
    for (int k = 0; k < m->nstages; k++) s->self[k] = 0;
    s->rest = 0;
    s->total = ns_stage_report_total(r);
    long i = 0;
    for (const ns_node *x = r->root; x; x = ns_node_next((ns_node *)x, r->root), i++) {
        if (ns__is_rest(x)) {
            ns_num w = x->val[NS_COL_WALL];
            if (ns_num_present(w) && isfinite(w.v)) s->rest += w.v;
            continue;
        }
        if (!ns_stage_counted(r, x) || of[i].stage < 0) continue;
        double self = ns_node_self(x, NS_COL_WALL);
        if (isfinite(self)) s->self[of[i].stage] += self;
    }
}
