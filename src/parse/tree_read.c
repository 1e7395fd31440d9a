/* tree_read.c -- tree JSON to ns_report (see tree_read.h).
 *
 * The walk is iterative with an explicit stack, like every other walk of a
 * tree in npuscope: a 10,000-deep report must not exhaust the C stack.
 * Rows nest as "children", or, below the depth run.json writes flat, come
 * as one node's "rows" with their depths (render/tree_json.h): a path of
 * the last row at each depth rebuilds the tree from them.
 */
#include "parse/tree_read.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Fewest decimals (0..9) whose printing gives v back.
 *
 * jansson keeps no number's text, so the decimals are recovered from the
 * value.  The question "does printf(\"%.*f\", d, v) read back as v?" is
 * answered without printing: m = v * 10^d rounded is the digit string
 * printf would give, and v is that number's double exactly when m / 10^d
 * (one IEEE division of two exact doubles, as ns_num_parse computes a
 * printed number) is v again.  While |m| < 2^53 both sides agree with the
 * printf + strtod trial they replace (tests/unit.c checks them against each
 * other); larger values take the trial. */
static signed char ns__decimals(double v) {
    static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
    if (isfinite(v) && fabs(v) < 1e6) { /* 1e6 * 1e9 < 2^53 */
        for (int d = 0; d <= 9; d++) {
            double m = nearbyint(v * p10[d]);
            if (m / p10[d] == v) return (signed char)d;
        }
        return 9;
    }
    char buf[64];
    for (int d = 0; d <= 9; d++) {
        snprintf(buf, sizeof buf, "%.*f", d, v);
        if (strtod(buf, NULL) == v) return (signed char)d;
    }
    return 9;
}

static ns_num ns__num(const json_t *v) {
    if (!v || json_is_null(v) || !json_is_number(v)) return ns_num_absent();
    ns_num n;
    n.v = json_number_value(v);
    n.dec = json_is_integer(v) ? 0 : ns__decimals(n.v);
    return n;
}

static ns_kind ns__kind(const char *s, const char *name, int depth) {
    static const struct { const char *s; ns_kind k; } t[] = {
        {"scope", NS_KIND_SCOPE},       {"pass", NS_KIND_PASS},
        {"pipeline", NS_KIND_PIPELINE}, {"analysis", NS_KIND_ANALYSIS},
        {"rest", NS_KIND_REST},         {"total", NS_KIND_TOTAL}};
    if (s)
        for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
            if (!strcmp(s, t[i].s)) return t[i].k;
    return ns_kind_of_name(name, depth);
}

/* ====== Members of the wrong type ====== */

/* Why the last node was refused (the reader's *why points here: a
 * report's reasons are sentences about one member). */
static _Thread_local char ns__why_buf[160];

static const char *ns__type_word(const json_t *v) {
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_TRUE:
    case JSON_FALSE: return "true/false";
    default: return "a number";
    }
}

/* The time values and "children" of node o have the types the tree JSON
 * gives them (a value: a number or null; children: an array, or null for
 * none).  A
 * hand-edited "wall_s": "abc" would otherwise read as an absent column:
 * a silently missing number.  NULL, or the reason. */
static const char *ns__node_types(const json_t *o) {
    /* one walk over the members, looking closer only at a value that is
     * neither a number nor null (names, kinds, children): cheaper than a
     * lookup per column on every node of every report */
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)o, key, v) {
        if (json_is_number(v) || json_is_null(v)) continue; /* null children: none */
        if (!strcmp(key, "children") || !strcmp(key, "rows")) {
            if (json_is_array(v)) continue;
            snprintf(ns__why_buf, sizeof ns__why_buf, "a node's \"%s\" must be an array, not %s",
                     key, ns__type_word(v));
            return ns__why_buf;
        }
        for (int c = 0; c < NS_COL_COUNT; c++)
            if (!strcmp(key, ns_col_json_key((ns_col)c))) {
                snprintf(ns__why_buf, sizeof ns__why_buf,
                         "a node's \"%s\" must be a number or null, not %s", key, ns__type_word(v));
                return ns__why_buf;
            }
    }
    return NULL;
}

/* ====== Nodes ====== */

/* Fill node n from object o (values, name, kind); 0 or -1. */
static int ns__fill(ns_report *r, ns_node *n, const json_t *o, int depth) {
    const json_t *name = json_object_get(o, "name");
    if (!json_is_string(name)) return -1;
    n->name = ns_report_strdup(r, json_string_value(name), strlen(json_string_value(name)));
    for (int c = 0; c < NS_COL_COUNT; c++)
        n->val[c] = ns__num(json_object_get(o, ns_col_json_key((ns_col)c)));
    const json_t *detail = json_object_get(o, "detail");
    if (json_is_string(detail))
        n->detail = ns_report_strdup(r, json_string_value(detail), strlen(json_string_value(detail)));
    n->beside = json_is_true(json_object_get(o, "beside"));
    const json_t *line = json_object_get(o, "line");
    if (json_is_integer(line)) n->line = (long)json_integer_value(line);
    const json_t *kind = json_object_get(o, "kind");
    n->kind = ns__kind(json_is_string(kind) ? json_string_value(kind) : NULL, n->name, depth);
    return 0;
}

/* The rows of node n written flat (o's "rows": run.json's deep subtrees,
 * render/tree_json.h): each a row object with its "depth", in pre-order,
 * the first one level below n and each at most one below the one before.
 * NULL, or the reason (n then keeps the rows read so far; the caller frees
 * the report). */
static const char *ns__flat_rows(ns_report *r, ns_node *n, const json_t *o) {
    const json_t *rows = json_object_get(o, "rows");
    if (!json_is_array(rows) || json_array_size(rows) == 0) return NULL;
    const json_t *kids = json_object_get(o, "children");
    if (json_is_array(kids) && json_array_size(kids))
        return "a node has both \"children\" and \"rows\"";
    /* path[k]: the last row read at depth n->depth + k (path[0] is n) */
    size_t cap = 64, top = 0;
    ns_node **path = ns_xmalloc(sizeof *path * cap);
    path[0] = n;
    const char *why = NULL;
    size_t i;
    json_t *e;
    json_array_foreach(rows, i, e) {
        const json_t *dj = json_object_get(e, "depth");
        json_int_t d = json_is_integer(dj) ? json_integer_value(dj) - n->depth : 0;
        if (!json_is_object(e) || !json_is_integer(dj)) {
            why = "a flat row needs an object with a whole-number \"depth\"";
        } else if (d < 1 || (size_t)d > top + 1) {
            snprintf(ns__why_buf, sizeof ns__why_buf,
                     "flat row %zu is at depth %lld, not from %d to %lld", i + 1,
                     (long long)json_integer_value(dj), n->depth + 1,
                     (long long)n->depth + (long long)top + 1);
            why = ns__why_buf;
        } else if (json_object_get(e, "children") || json_object_get(e, "rows")) {
            why = "a flat row has \"children\" or \"rows\" of its own";
        }
        if (why) break;
        ns_node *c = ns_report_node(r);
        if (ns__fill(r, c, e, n->depth + (int)d) != 0) {
            why = "a node needs an object with a string \"name\"";
            break;
        }
        if ((why = ns__node_types(e))) break;
        c->depth = n->depth + (int)d;
        ns_node_append(path[d - 1], c);
        top = (size_t)d;
        if (top == cap) {
            cap *= 2;
            path = ns_xrealloc(path, sizeof *path * cap);
        }
        path[top] = c;
    }
    free(path);
    return why;
}

ns_report *ns_report_from_json_new(const json_t *o, const char *file,
                                   const char **why) {
    *why = NULL;
    const json_t *root = json_object_get(o, "root");
    if (!json_is_object(o) || !json_is_object(root)) {
        *why = "a report needs an object \"root\"";
        return NULL;
    }
    const json_t *prod = json_object_get(o, "producer");
    ns_producer p = NS_PROD_MLIR_TEXT;
    int list = 0, legacy = 0;
    if (json_is_string(prod)) {
        const char *s = json_string_value(prod);
        if (!strncmp(s, "mlir-json", 9)) p = NS_PROD_MLIR_JSON;
        else if (!strcmp(s, "llvm-timer-group")) p = NS_PROD_LLVM;
        else if (!strcmp(s, "chrome-trace")) p = NS_PROD_TRACE;
        list = strstr(s, "-list") != NULL;
        legacy = !strncmp(s, "mlir-text-", 10) && strstr(s, "-2020") != NULL;
    }
    const json_t *src = json_object_get(o, "source");
    const json_t *line = json_object_get(src, "line");
    ns_report *r = ns_report_new(p, file, json_is_integer(line) ? (long)json_integer_value(line) : 0);
    r->list_mode = list;
    r->legacy = legacy;
    r->no_banner = json_is_false(json_object_get(o, "banner"));
    const json_t *v;
    if (json_is_integer(v = json_object_get(src, "end_line"))) r->end_line = (long)json_integer_value(v);
    if (json_is_integer(v = json_object_get(o, "index"))) r->index = (int)json_integer_value(v);
    if (json_is_string(v = json_object_get(o, "label"))) r->label = ns_strdup(json_string_value(v));
    else r->label = ns_strdup("#?");
    if (json_is_string(v = json_object_get(o, "title"))) r->title = ns_strdup(json_string_value(v));
    r->complete = json_is_true(json_object_get(o, "complete"));
    r->header_total = ns__num(json_object_get(o, "header_total_s"));
    r->header_wall = ns__num(json_object_get(o, "header_wall_clock_s"));
    const json_t *facts = json_object_get(o, "metrics");
    const char *fk;
    json_t *fv;
    json_object_foreach((json_t *)facts, fk, fv)
        if (json_is_number(fv)) ns_report_set_fact(r, fk, json_number_value(fv));
    const json_t *cols = json_object_get(o, "columns");
    size_t i;
    json_t *c;
    json_array_foreach(cols, i, c) {
        if (!json_is_string(c)) continue;
        for (int k = 0; k < NS_COL_COUNT; k++)
            if (!strcmp(json_string_value(c), ns_col_name((ns_col)k))) r->cols |= NS_COLBIT(k);
    }
    if (ns__fill(r, r->root, root, -1) != 0 || (*why = ns__node_types(root))) {
        if (!*why) *why = "the root has no \"name\"";
        ns_report_free(r);
        return NULL;
    }
    r->root->kind = NS_KIND_TOTAL;
    r->root->depth = -1;
    if ((*why = ns__flat_rows(r, r->root, root))) {
        ns_report_free(r);
        return NULL;
    }

    /* explicit stack of (json children array, next index, parent node) */
    typedef struct { const json_t *arr; size_t next; ns_node *parent; } frame;
    size_t cap = 64, sp = 0;
    frame *st = ns_xmalloc(sizeof *st * cap);
    st[sp++] = (frame){json_object_get(root, "children"), 0, r->root};
    while (sp) {
        frame *f = &st[sp - 1];
        if (!json_is_array(f->arr) || f->next >= json_array_size(f->arr)) {
            sp--;
            continue;
        }
        const json_t *child = json_array_get(f->arr, f->next++);
        ns_node *n = ns_report_node(r);
        int depth = f->parent->depth + 1;
        if (!json_is_object(child) || ns__fill(r, n, child, depth) != 0 ||
            (*why = ns__node_types(child))) {
            if (!*why) *why = "a node needs an object with a string \"name\"";
            free(st);
            ns_report_free(r);
            return NULL;
        }
        n->depth = depth;
        ns_node_append(f->parent, n);
        if ((*why = ns__flat_rows(r, n, child))) {
            free(st);
            ns_report_free(r);
            return NULL;
        }
        if (sp == cap) {
            cap *= 2;
            st = ns_xrealloc(st, sizeof *st * cap);
        }
        st[sp++] = (frame){json_object_get(child, "children"), 0, n};
    }
    free(st);
    /* JSON drops trailing zeros (0.0160 reads as 0.016); a report prints
     * every value of a column with the same decimals, so the most any value
     * needs is what all of them had */
    for (int col = 0; col < NS_COL_COUNT; col++) {
        signed char dec = 0;
        for (ns_node *n = r->root; n; n = ns_node_next(n, r->root))
            if (n->val[col].dec > dec) dec = n->val[col].dec;
        for (ns_node *n = r->root; n; n = ns_node_next(n, r->root))
            if (n->val[col].dec >= 0) n->val[col].dec = dec;
    }
    return r;
}
