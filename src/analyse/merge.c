/* merge.c -- the merged timing tree of repeated runs (rules in merge.h).
 *
 * The merge is one pass over each input report and one over the result:
 *
 *   1. Each report is walked in pre-order (ns_node_next) with an explicit
 *      path from its root, so each row finds its parent's merged row in
 *      O(1).  A row's occurrence among same-named siblings is counted in a
 *      per-report map keyed by (parent's pre-order number, name); its
 *      merged row is then found in a map keyed by (parent's merged row,
 *      occurrence, name), or created and appended to the merged parent --
 *      which is what makes children appear in order of first appearance.
 *      The row's printed values are kept as a sample of that run.
 *   2. Every merged row then gets its medians, n, min, max and outlier
 *      count from its samples (stats.c).
 *
 * Samples are kept as printed (ns_num), rows x columns x runs, so the
 * decimals of the result are those of the inputs.  Map keys are text with
 * the numbers first and the name last, separated by \x1f: a name can hold
 * any byte, but the numbers before it cannot, so keys never collide.  The
 * side table (node -> statistics) is an open-addressing table on the node's
 * address; addresses are only looked up, never iterated, so no output
 * depends on them.
 */
#include "analyse/merge.h"

#include "analyse/dataset.h"
#include "analyse/stats.h"
#include "base/strmap.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ====== The side table ====== */

struct ns__merge_side {
    ns_node **rows;       /* merged nodes by row number (creation order; 0 is the root) */
    ns_merge_stat *stats; /* statistics by row number */
    size_t nrows;         /* entries in rows and stats */
    size_t *slots;        /* node address -> row number + 1; 0 = empty */
    size_t nslots;        /* size of slots, a power of two */
};

static size_t ns__ptr_hash(const void *p) {
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

static void ns__side_index(ns__merge_side *s) {
    s->nslots = 16;
    while (s->nslots < s->nrows * 2) s->nslots *= 2;
    s->slots = ns_xcalloc(s->nslots, sizeof *s->slots);
    for (size_t i = 0; i < s->nrows; i++) {
        size_t h = ns__ptr_hash(s->rows[i]) & (s->nslots - 1);
        while (s->slots[h]) h = (h + 1) & (s->nslots - 1);
        s->slots[h] = i + 1;
    }
}

const ns_merge_stat *ns_merge_stat_of(const ns_merged *m, const ns_node *node) {
    const ns__merge_side *s = m->side;
    if (!s || !node) return NULL;
    for (size_t h = ns__ptr_hash(node) & (s->nslots - 1); s->slots[h];
         h = (h + 1) & (s->nslots - 1))
        if (s->rows[s->slots[h] - 1] == node) return &s->stats[s->slots[h] - 1];
    return NULL;
}

/* ====== Building ====== */

typedef struct {
    ns_merged *m;              /* the result being built */
    int nruns;                 /* input reports */
    int ncols;                 /* columns merged */
    ns_col cols[NS_COL_COUNT]; /* which, wall first */
    size_t cap;                /* rows allocated in side->rows and the arrays below */
    ns_num *vals;              /* rows x ncols x nruns samples as printed; absent: not there */
    unsigned char *have;       /* rows x nruns: the run has the row */
    ns_strmap paths;           /* "parent row\x1foccurrence\x1fname" -> row number - 1 */
    ns_buf key;                /* scratch for map keys */
} ns__mbuild;

/* A new merged row below merged row `prow`, shaped like input node n. */
static size_t ns__add_row(ns__mbuild *b, size_t prow, const ns_node *n) {
    ns__merge_side *s = b->m->side;
    ns_report *r = b->m->report;
    if (s->nrows == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 64;
        s->rows = ns_xrealloc(s->rows, b->cap * sizeof *s->rows);
        b->vals = ns_xrealloc(b->vals, b->cap * (size_t)b->ncols * (size_t)b->nruns *
                                           sizeof *b->vals);
        b->have = ns_xrealloc(b->have, b->cap * (size_t)b->nruns);
    }
    size_t row = s->nrows++;
    size_t per = (size_t)b->ncols * (size_t)b->nruns;
    for (size_t i = 0; i < per; i++) b->vals[row * per + i] = ns_num_absent();
    memset(b->have + row * (size_t)b->nruns, 0, (size_t)b->nruns);
    if (row == 0) {
        s->rows[0] = r->root; /* ns_report_new made it */
        return 0;
    }
    ns_node *node = ns_report_node(r);
    const char *name = n->name ? n->name : "";
    node->name = ns_report_strdup(r, name, strlen(name));
    if (n->detail) node->detail = ns_report_strdup(r, n->detail, strlen(n->detail));
    node->kind = n->kind;
    ns_node *parent = s->rows[prow];
    node->depth = parent->depth + 1;
    ns_node_append(parent, node);
    s->rows[row] = node;
    return row;
}

/* Keep input node n's values as run `run`'s sample of merged row `row`. */
static void ns__sample(ns__mbuild *b, size_t row, int run, const ns_node *n) {
    size_t nr = (size_t)b->nruns;
    b->have[row * nr + (size_t)run] = 1;
    for (int ci = 0; ci < b->ncols; ci++)
        b->vals[(row * (size_t)b->ncols + (size_t)ci) * nr + (size_t)run] = n->val[b->cols[ci]];
}

/* One path step: an input node, its merged row, its pre-order number. */
typedef struct {
    const ns_node *node; /* input node */
    size_t row;          /* merged row it went to */
    long seq;            /* its pre-order number in its report */
} ns__mstep;

/* Step 1 for input report r, run number `run`. */
static void ns__merge_one(ns__mbuild *b, const ns_report *r, int run) {
    ns_strmap occ; /* "parent's pre-order number\x1fname" -> counter index */
    ns_strmap_init(&occ);
    int *count = NULL;
    size_t ccap = 0;
    size_t depth = 0, cap = 64;
    ns__mstep *path = ns_xmalloc(cap * sizeof *path);
    path[depth++] = (ns__mstep){r->root, 0, 0};
    ns__sample(b, 0, run, r->root);
    long seq = 0;
    for (ns_node *n = ns_node_next(r->root, r->root); n; n = ns_node_next(n, r->root)) {
        seq++;
        while (depth > 1 && path[depth - 1].node != n->parent) depth--;
        const ns__mstep *up = &path[depth - 1];
        const char *name = n->name ? n->name : "";
        int added;
        b->key.len = 0;
        ns_buf_printf(&b->key, "%ld\x1f%s", up->seq, name);
        size_t ci = ns_strmap_intern(&occ, b->key.data, &added);
        if (ci >= ccap) {
            ccap = ccap ? ccap * 2 : 64;
            count = ns_xrealloc(count, ccap * sizeof *count);
        }
        if (added) count[ci] = 0;
        int k = count[ci]++;
        b->key.len = 0;
        ns_buf_printf(&b->key, "%zu\x1f%d\x1f%s", up->row, k, name);
        size_t pi = ns_strmap_intern(&b->paths, b->key.data, &added);
        size_t row = added ? ns__add_row(b, up->row, n) : pi + 1;
        ns__sample(b, row, run, n);
        if (depth == cap) {
            cap *= 2;
            path = ns_xrealloc(path, cap * sizeof *path);
        }
        path[depth++] = (ns__mstep){n, row, seq};
    }
    free(path);
    free(count);
    ns_strmap_free(&occ);
}

/* The median of a column's samples, with the most decimals any of them had;
 * absent when there are none. */
static ns_num ns__median_num(const ns_num *x, int n, double *tmp) {
    int dec = NS_DEC_ABSENT, k = 0;
    for (int i = 0; i < n; i++) {
        if (!ns_num_present(x[i])) continue;
        if (x[i].dec > dec || dec == NS_DEC_ABSENT) dec = x[i].dec;
        tmp[k++] = x[i].v;
    }
    if (!k) return ns_num_absent();
    ns_num out = {ns_median(tmp, (size_t)k), (signed char)dec, 0};
    if (out.dec < 0 || isnan(out.v)) out.dec = NS_DEC_WORD;
    return out;
}

/* Step 2 for merged row `row`. */
static void ns__finish_row(ns__mbuild *b, size_t row, double *tmp, ns_num *col) {
    ns__merge_side *s = b->m->side;
    ns_node *node = s->rows[row];
    ns_merge_stat *st = &s->stats[row];
    size_t nr = (size_t)b->nruns;
    const unsigned char *have = b->have + row * nr;
    st->n = 0;
    for (size_t i = 0; i < nr; i++) st->n += have[i];
    st->min = st->max = ns_num_absent();
    st->outliers = 0;
    for (int ci = 0; ci < b->ncols; ci++) {
        ns_col c = b->cols[ci];
        const ns_num *x = b->vals + (row * (size_t)b->ncols + (size_t)ci) * nr;
        int k = 0;
        for (size_t i = 0; i < nr; i++)
            if (have[i] && ns_num_present(x[i])) col[k++] = x[i];
        /* wall: the runs that printed it; other columns: all or nothing */
        if (!k || (c != NS_COL_WALL && k < st->n)) continue;
        node->val[c] = ns__median_num(col, k, tmp);
        if (c != NS_COL_WALL) continue;
        for (int i = 0; i < k; i++) tmp[i] = col[i].v;
        signed char dec = node->val[c].dec;
        st->min = (ns_num){ns_min(tmp, (size_t)k), dec, 0};
        st->max = (ns_num){ns_max(tmp, (size_t)k), dec, 0};
        if (isnan(st->min.v)) st->min.dec = st->max.dec = NS_DEC_WORD;
        st->outliers = (int)ns_outliers(tmp, (size_t)k, NULL);
    }
    if (st->outliers) b->m->outlier_rows++;
}

/* Report-level fields: the first report's identity, merged totals, facts. */
static void ns__merge_header(ns_report *out, const ns_report *const *reps, int n, double *tmp,
                             ns_num *col) {
    const ns_report *r0 = reps[0];
    out->list_mode = r0->list_mode;
    out->legacy = r0->legacy;
    out->title = r0->title ? ns_strdup(r0->title) : NULL;
    out->end_line = r0->end_line;
    out->complete = 1;
    for (int i = 0; i < n; i++) {
        if (!reps[i]->complete) out->complete = 0;
        if (reps[i]->width_hint > out->width_hint) out->width_hint = reps[i]->width_hint;
        col[i] = reps[i]->header_total;
    }
    out->header_total = ns__median_num(col, n, tmp);
    for (int i = 0; i < n; i++) col[i] = reps[i]->header_wall;
    out->header_wall = ns__median_num(col, n, tmp);
    /* facts: the median over the reports that logged each, first-seen order */
    ns_strmap names;
    ns_strmap_init(&names);
    for (int i = 0; i < n; i++)
        for (int f = 0; f < reps[i]->nfacts; f++)
            ns_strmap_intern(&names, reps[i]->facts[f].name, NULL);
    for (size_t k = 0; k < names.count; k++) {
        size_t m = 0;
        for (int i = 0; i < n; i++)
            for (int f = 0; f < reps[i]->nfacts; f++)
                if (strcmp(reps[i]->facts[f].name, names.keys[k]) == 0) {
                    tmp[m++] = reps[i]->facts[f].value;
                    break;
                }
        ns_report_set_fact(out, names.keys[k], ns_median(tmp, m));
    }
    ns_strmap_free(&names);
}

ns_merged *ns_merge_new(const ns_report *const *reps, const char *const *names, int n,
                        const char *label) {
    ns_merged *m = ns_xcalloc(1, sizeof *m);
    m->side = ns_xcalloc(1, sizeof *m->side);
    m->nruns = n;
    m->runs = ns_xcalloc((size_t)n + 1, sizeof *m->runs);
    for (int i = 0; i < n; i++) {
        if (names && names[i]) {
            m->runs[i] = ns_strdup(names[i]);
        } else {
            char tmp[32];
            snprintf(tmp, sizeof tmp, "#%d", i + 1);
            m->runs[i] = ns_strdup(tmp);
        }
    }
    const ns_report *r0 = reps[0];
    ns_report *out = ns_report_new(r0->producer, r0->file, r0->line);
    out->label = ns_strdup(label ? label : "");
    m->report = out;

    ns__mbuild b;
    memset(&b, 0, sizeof b);
    b.m = m;
    b.nruns = n;
    /* wall always; any other column only when every report has it */
    unsigned common = ~0u;
    for (int i = 0; i < n; i++) common &= reps[i]->cols;
    out->cols = NS_COLBIT(NS_COL_WALL);
    b.cols[b.ncols++] = NS_COL_WALL;
    for (int c = 0; c < NS_COL_COUNT; c++)
        if (c != NS_COL_WALL && (common & NS_COLBIT(c))) {
            out->cols |= NS_COLBIT(c);
            b.cols[b.ncols++] = (ns_col)c;
        }
    ns_strmap_init(&b.paths);

    double *tmp = ns_xcalloc((size_t)n + 1, sizeof *tmp);
    ns_num *col = ns_xcalloc((size_t)n + 1, sizeof *col);
    ns__add_row(&b, 0, out->root);
    for (int i = 0; i < n; i++) ns__merge_one(&b, reps[i], i);
    ns__merge_side *s = m->side;
    s->stats = ns_xcalloc(s->nrows + 1, sizeof *s->stats);
    for (size_t row = 0; row < s->nrows; row++) ns__finish_row(&b, row, tmp, col);
    ns__merge_header(out, reps, n, tmp, col);
    ns__side_index(s);

    free(tmp);
    free(col);
    free(b.vals);
    free(b.have);
    ns_buf_free(&b.key);
    ns_strmap_free(&b.paths);
    return m;
}

void ns_merge_free(ns_merged *m) {
    if (!m) return;
    for (int i = 0; i < m->nruns; i++) free(m->runs[i]);
    free(m->runs);
    if (m->side) {
        free(m->side->rows);
        free(m->side->stats);
        free(m->side->slots);
        free(m->side);
    }
    ns_report_free(m->report);
    free(m);
}

/* ====== Groups of runs ====== */

/* A counted run and its reading position (the tie-break of equal ids). */
typedef struct {
    const ns_run *run; /* borrowed */
    int at;            /* position in the runset */
} ns__mrun;

static int ns__cmp_mrun(const void *pa, const void *pb) {
    const ns__mrun *a = pa, *b = pb;
    int c = strcmp(a->run->id ? a->run->id : "", b->run->id ? b->run->id : "");
    return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* A configuration to sort, carrying what the order needs (no global). */
typedef struct {
    const ns_config *cfg;    /* the configuration */
    const char *const *keys; /* tag keys in the order they compare */
    int nkeys;               /* entries in keys */
    int at;                  /* its index before sorting (the last tie-break) */
} ns__mcfg;

static int ns__cmp_mcfg(const void *pa, const void *pb) {
    const ns__mcfg *a = pa, *b = pb;
    int c = ns_config_cmp(a->cfg, b->cfg, a->keys, a->nkeys);
    return c ? c : (a->at > b->at) - (a->at < b->at);
}

int ns_merge_groups(const ns_runset *s, ns_merge_group **out, int *skipped) {
    /* the configurations are table's (analyse/dataset.h), in its order */
    ns_config *cf = NULL;
    const char **keys = NULL;
    int nkeys = 0, skip = 0, ng = 0;
    int nc = ns_configs_new(s->runs, s->nruns, &cf, &keys, &nkeys);
    ns__mcfg *order = ns_xcalloc((size_t)nc + 1, sizeof *order);
    for (int i = 0; i < nc; i++) order[i] = (ns__mcfg){&cf[i], keys, nkeys, i};
    if (nc) qsort(order, (size_t)nc, sizeof *order, ns__cmp_mcfg);
    ns_merge_group *g = ns_xcalloc((size_t)nc + 1, sizeof *g);
    ns__mrun *runs = ns_xcalloc((size_t)s->nruns + 1, sizeof *runs);
    for (int i = 0; i < nc; i++) {
        const ns_config *c = order[i].cfg;
        int n = 0;
        for (int k = 0; k < c->nruns; k++) {
            const ns_run *r = &s->runs[c->runs[k]];
            if (ns_run_counted(r)) runs[n++] = (ns__mrun){r, c->runs[k]};
            else skip++;
        }
        if (!n) continue;
        qsort(runs, (size_t)n, sizeof *runs, ns__cmp_mrun);
        ns_buf name = {0};
        for (int k = 0; k < c->ntags; k++) /* sorted by key, the label among them */
            ns_buf_printf(&name, "%s%s=%s", k ? "," : "", c->tags[k]->key, c->tags[k]->value);
        ns_merge_group *e = &g[ng++];
        e->config = ns_strdup(name.data ? name.data : "");
        e->mode = runs[0].run->mode ? runs[0].run->mode : "none";
        e->runs = ns_xcalloc((size_t)n + 1, sizeof *e->runs);
        for (int k = 0; k < n; k++) e->runs[k] = runs[k].run;
        e->n = n;
        ns_buf_free(&name);
    }
    for (int i = 0; i < nc; i++) ns_config_free(&cf[i]);
    free(cf);
    free(keys);
    free(order);
    free(runs);
    *out = g;
    if (skipped) *skipped = skip;
    return ng;
}

void ns_merge_groups_free(ns_merge_group *g, int n) {
    for (int i = 0; i < n; i++) {
        free(g[i].config);
        free(g[i].runs);
    }
    free(g);
}

int ns_merge_group_reports(const ns_merge_group *g, ns_merged ***out) {
    int maxk = 0;
    for (int i = 0; i < g->n; i++)
        if (g->runs[i]->nreports > maxk) maxk = g->runs[i]->nreports;
    ns_merged **res = ns_xcalloc((size_t)maxk + 1, sizeof *res);
    const ns_report **reps = ns_xcalloc((size_t)g->n + 1, sizeof *reps);
    const char **names = ns_xcalloc((size_t)g->n + 1, sizeof *names);
    int nres = 0;
    for (int k = 0; k < maxk; k++) {
        int n = 0;
        for (int i = 0; i < g->n; i++) {
            const ns_run *r = g->runs[i];
            if (k >= r->nreports || !r->reports[k]) continue;
            reps[n] = r->reports[k];
            names[n++] = r->id;
        }
        if (!n) continue;
        ns_buf label = {0};
        ns_buf_printf(&label, "%s%s%s %s", g->config, *g->config ? " " : "", g->mode,
                      reps[0]->label ? reps[0]->label : "");
        res[nres++] = ns_merge_new(reps, names, n, label.data);
        ns_buf_free(&label);
    }
    free(reps);
    free(names);
    *out = res;
    return nres;
}
