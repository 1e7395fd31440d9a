/* tree_json.c -- the npuscope-tree JSON writer (see tree_json.h).
 *
 * Values are written as printed (ns_num keeps the printed decimals), so the
 * JSON says exactly what the compiler said.  The rows are written by an
 * iterative pre-order walk: a 10,000-deep report must not exhaust the C
 * stack.  Nesting is what the format is, and what a JSON reader cannot
 * follow past its limit (jansson 2048 levels, jq 1.6 256, Python about
 * 1000): so run.json, which npuscope must read back, has its rows below a
 * fixed depth written flat, each with its depth (docs/formats.md 2.3,
 * "Deep reports"); the export keeps the nesting its readers walk.  Which rows are written is the view's (model/view.c) and the
 * column keys are the model's (ns_col_json_key, shared with the reader in
 * parse/tree_read.c); this file calls no other writer.
 */
#include "render/tree_json.h"

#include "base/jsonw.h"
#include "model/load.h"

/* ====== The document ====== */

void ns_tree_json_begin(ns_buf *b, int merged) {
    ns_buf_puts(b, "{\"format\":\"npuscope-tree\",\"version\":1,");
    if (merged) ns_buf_puts(b, "\"merged\":true,");
    ns_buf_puts(b, "\"reports\":[");
}

void ns_tree_json_end(ns_buf *b) { ns_buf_puts(b, "\n]}\n"); }

static void ns__str_or_null(ns_buf *b, const char *s) {
    if (s) ns_json_str(b, s);
    else ns_buf_puts(b, "null");
}

void ns_failure_json(ns_buf *b, const ns_failure *f) {
    ns_buf_puts(b, "{\"pass\":");
    ns__str_or_null(b, f->pass);
    ns_buf_puts(b, ",\"location\":");
    ns__str_or_null(b, f->location);
    ns_buf_puts(b, ",\"submodel\":");
    ns__str_or_null(b, f->submodel);
    ns_buf_puts(b, ",\"message\":");
    ns__str_or_null(b, f->message);
    if (f->line > 0) ns_buf_printf(b, ",\"line\":%ld", f->line);
    else ns_buf_puts(b, ",\"line\":null");
    ns_buf_puts(b, ",\"file\":");
    ns__str_or_null(b, f->file);
    ns_buf_putc(b, '}');
}

void ns_tree_json_end_load(ns_buf *b, const ns_load *L) {
    ns_buf_puts(b, "\n],\n\"failures\":[");
    for (int i = 0; L && i < L->nfail; i++) {
        if (i) ns_buf_putc(b, ',');
        ns_failure_json(b, &L->fail[i]);
    }
    ns_buf_puts(b, "],\n\"environment\":{");
    for (int i = 0; L && i < L->env.n; i++) {
        if (i) ns_buf_putc(b, ',');
        ns_json_str(b, L->env.items[i].key);
        ns_buf_putc(b, ':');
        ns_json_str(b, L->env.items[i].value);
    }
    ns_buf_puts(b, "}}\n");
}

/* ====== A report ====== */

void ns_tree_json_head(ns_buf *b, const ns_report *r) {
    ns_buf_printf(b, "{\"index\":%d,\"label\":", r->index);
    ns_json_str(b, r->label);
    ns_buf_printf(b, ",\"producer\":\"%s\",\"title\":", ns_producer_name(r));
    if (r->title) ns_json_str(b, r->title);
    else ns_buf_puts(b, "null");
    ns_buf_puts(b, ",\"source\":{\"file\":");
    ns_json_str(b, r->file);
    ns_buf_printf(b, ",\"line\":%ld,\"end_line\":%ld}", r->line, r->end_line);
    ns_buf_printf(b, ",\"complete\":%s,\"columns\":[", r->complete ? "true" : "false");
    int first = 1;
    for (int i = 0; i < NS_COL_COUNT; i++) {
        ns_col c = ns_col_print_order[i];
        if (!(r->cols & NS_COLBIT(c))) continue;
        ns_buf_printf(b, "%s\"%s\"", first ? "" : ",", ns_col_name(c));
        first = 0;
    }
    ns_buf_puts(b, "],\"header_total_s\":");
    ns_num_put_json(b, r->header_total);
    if (ns_num_present(r->header_wall)) {
        ns_buf_puts(b, ",\"header_wall_clock_s\":");
        ns_num_put_json(b, r->header_wall);
    }
    if (r->no_banner) ns_buf_puts(b, ",\"banner\":false"); /* read from its column header */
    if (r->prefix) {
        ns_buf_puts(b, ",\"log_prefix\":");
        ns_json_str(b, r->prefix);
    }
    if (!ns_report_is_main(r)) { /* a breakdown table (model/report.h) */
        ns_buf_printf(b, ",\"breakdown\":{\"report\":%d,\"within\":", r->parent);
        if (r->within) ns_json_str(b, r->within);
        else ns_buf_puts(b, "null");
        ns_buf_putc(b, '}');
    }
    if (r->nfacts) {
        ns_buf_puts(b, ",\"metrics\":{");
        for (int i = 0; i < r->nfacts; i++) {
            if (i) ns_buf_putc(b, ',');
            ns_json_str(b, r->facts[i].name);
            ns_buf_putc(b, ':');
            ns_put_json_double(b, r->facts[i].value, 3);
        }
        ns_buf_putc(b, '}');
    }
}

/* A row object's fields, from "{" to its last value, left open. */
static void ns__row_fields(ns_buf *b, const ns_report *r, const ns_node *n,
                           ns_tree_json_row_fn more, const void *ctx) {
    ns_buf_puts(b, "{\"name\":");
    ns_json_str(b, n->name);
    ns_buf_printf(b, ",\"kind\":\"%s\"", ns_kind_name(n->kind));
    if (n->detail) {
        ns_buf_puts(b, ",\"detail\":");
        ns_json_str(b, n->detail);
    }
    if (n->beside) ns_buf_puts(b, ",\"beside\":true"); /* a trace's side track */
    /* wall_s and user_s always (user null when absent: the contract) */
    ns_buf_puts(b, ",\"wall_s\":");
    ns_num_put_json(b, n->val[NS_COL_WALL]);
    ns_buf_puts(b, ",\"user_s\":");
    ns_num_put_json(b, n->val[NS_COL_USER]);
    for (int c = NS_COL_SYS; c < NS_COL_COUNT; c++) {
        if (!(r->cols & NS_COLBIT(c))) continue;
        ns_buf_printf(b, ",\"%s\":", ns_col_json_key((ns_col)c));
        ns_num_put_json(b, n->val[c]);
    }
    if (more) more(b, n, ctx);
    if (n->line) ns_buf_printf(b, ",\"line\":%ld", n->line);
}

/* A row object up to its "children" array, left open.  A row at depth
 * `flat` (-1: none) with kept rows below it opens "rows" instead and
 * writes them all, flat, in pre-order, each with its "depth": the array is
 * left open as "children" would be, and the caller does not descend. */
static void ns__row_open(ns_buf *b, const ns_report *r, const ns_view *v, const ns_node *n,
                         int flat, ns_tree_json_row_fn more, const void *ctx) {
    ns__row_fields(b, r, n, more, ctx);
    const ns_node *d = flat >= 0 && n->depth == flat ? ns_view_first(v, n) : NULL;
    if (!d) {
        ns_buf_puts(b, ",\"children\":[");
        return;
    }
    ns_buf_puts(b, ",\"rows\":[");
    for (int first = 1; d; d = ns_view_walk(v, d, n), first = 0) {
        if (!first) ns_buf_putc(b, ',');
        ns__row_fields(b, r, d, more, ctx);
        ns_buf_printf(b, ",\"depth\":%d}", d->depth);
    }
}

int ns_tree_json_flattens(const ns_report *r, const ns_view *v, int flat) {
    if (flat < 0) return 0;
    for (const ns_node *n = ns_view_first(v, r->root); n; n = ns_view_walk(v, n, r->root))
        if (n->depth > flat) return 1;
    return 0;
}

void ns_tree_json_rows_flat(ns_buf *b, const ns_report *r, const ns_view *v, int flat,
                            ns_tree_json_row_fn more, const void *ctx) {
    ns_buf_puts(b, ",\"total\":{\"wall_s\":");
    ns_num_put_json(b, r->root->val[NS_COL_WALL]);
    ns_buf_puts(b, ",\"user_s\":");
    ns_num_put_json(b, r->root->val[NS_COL_USER]);
    ns_buf_puts(b, "},\"root\":");

    /* iterative pre-order walk; "]}" closes a row (and a flat row's "rows") */
    const ns_node *root = r->root, *n = root;
    ns__row_open(b, r, v, n, flat, more, ctx);
    for (;;) {
        const ns_node *c = flat >= 0 && n->depth == flat ? NULL : ns_view_first(v, n);
        if (c) {
            ns__row_open(b, r, v, c, flat, more, ctx);
            n = c;
            continue;
        }
        ns_buf_puts(b, "]}");
        while (n != root && !ns_view_next(v, n)) {
            n = n->parent;
            ns_buf_puts(b, "]}");
        }
        if (n == root) break;
        n = ns_view_next(v, n);
        ns_buf_putc(b, ',');
        ns__row_open(b, r, v, n, flat, more, ctx);
    }
    ns_buf_putc(b, '}');
}

void ns_tree_json_rows(ns_buf *b, const ns_report *r, const ns_view *v, ns_tree_json_row_fn more,
                       const void *ctx) {
    ns_tree_json_rows_flat(b, r, v, -1, more, ctx);
}

void ns_json_report(ns_buf *b, const ns_report *r, const ns_view *v) {
    ns_tree_json_head(b, r);
    ns_tree_json_rows(b, r, v, NULL, NULL);
}

void ns_json_report_flat(ns_buf *b, const ns_report *r, const ns_view *v, int flat) {
    ns_tree_json_head(b, r);
    ns_tree_json_rows_flat(b, r, v, flat, NULL, NULL);
}
