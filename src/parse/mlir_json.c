/* mlir_json.c -- MLIR's JSON timing output (--mlir-output-format=json,
 * MLIR 19 and later), read line by line and leniently.
 *
 * The output looks like JSON but is not: names are written without escaping
 * (a '"' in a pass name breaks any strict parser), numbers keep their printf
 * padding, and every "passes" array ends with an empty {} entry so that no
 * trailing comma is needed.  Each entry sits on its own line:
 *
 *   [
 *   {"user": {...}, "wall": {"duration":   0.2800, "percentage":   6.5}, "name": "Parser", "passes": [
 *   {}]},
 *   ...
 *   {"wall": {...}, "name": "Rest"},
 *   {"wall": {...}, "name": "Total"}
 *   ]
 *
 * so we parse per line: the name runs from `"name": "` to the line's known
 * ending (`", "passes": [`, `"},` or `"}`), quotes inside it included.  Nesting
 * follows the brackets, not the indentation.
 */
#include "parse/parse.h"

#include <string.h>

static int ns__lit(const char **pp, const char *end, const char *lit) {
    size_t n = strlen(lit);
    if ((size_t)(end - *pp) < n || memcmp(*pp, lit, n) != 0) return -1;
    *pp += n;
    return 0;
}

static int ns__ends(const char *s, const char *end, const char *lit) {
    size_t n = strlen(lit);
    return (size_t)(end - s) >= n && memcmp(end - n, lit, n) == 0;
}

/* {"duration":   0.2800, "percentage":   6.5} */
static int ns__dur(const char **pp, const char *end, ns_num *val, ns_num *pct) {
    const char *p = *pp;
    if (ns__lit(&p, end, "{\"duration\":") != 0) return -1;
    while (p < end && *p == ' ') p++;
    if (ns_num_parse(&p, end, val) != 0) return -1;
    if (ns__lit(&p, end, ", \"percentage\":") != 0) return -1;
    while (p < end && *p == ' ') p++;
    if (ns_num_parse(&p, end, pct) != 0) return -1;
    if (ns__lit(&p, end, "}, ") != 0) return -1;
    *pp = p;
    return 0;
}

int ns_mlir_json_entry_line(const char *s, size_t n) {
    const char *p = s, *end = s + n;
    while (p < end && *p == ' ') p++;
    /* ns__lit leaves p alone when it does not match */
    return ns__lit(&p, end, "{\"user\": {\"duration\":") == 0 ||
           ns__lit(&p, end, "{\"wall\": {\"duration\":") == 0;
}

ns_feed ns_mlir_json_feed(ns_pstate *st, const char *s, size_t n, long line) {
    const char *p = s, *end = s + n;
    while (p < end && *p == ' ') p++;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t')) end--;
    ns_report *r = st->r;

    /* closing line of a "passes" array */
    if (end - p >= 4 && memcmp(p, "{}]}", 4) == 0 &&
        (end - p == 4 || (end - p == 5 && p[4] == ','))) {
        if (st->sp == 0) return NS_FEED_FOREIGN;
        st->sp--;
        return NS_FEED_ROW;
    }

    ns_num uval = ns_num_absent(), upct = ns_num_absent(), wval, wpct;
    if (ns__lit(&p, end, "{") != 0) return NS_FEED_FOREIGN;
    if (ns__lit(&p, end, "\"user\": ") == 0 &&
        ns__dur(&p, end, &uval, &upct) != 0)
        return NS_FEED_FOREIGN;
    if (ns__lit(&p, end, "\"wall\": ") != 0 || ns__dur(&p, end, &wval, &wpct) != 0)
        return NS_FEED_FOREIGN;
    if (ns__lit(&p, end, "\"name\": \"") != 0) return NS_FEED_FOREIGN;
    int opens = 0;
    const char *name_end;
    if (ns__ends(p, end, "\", \"passes\": [")) {
        opens = 1;
        name_end = end - 14;
    } else if (ns__ends(p, end, "\"},")) {
        name_end = end - 3;
    } else if (ns__ends(p, end, "\"}")) {
        name_end = end - 2;
    } else {
        return NS_FEED_FOREIGN;
    }
    if (name_end < p) return NS_FEED_FOREIGN;
    size_t nlen = (size_t)(name_end - p);

    if (ns_num_present(uval)) r->cols |= NS_COLBIT(NS_COL_USER);
    r->cols |= NS_COLBIT(NS_COL_WALL);

    if (st->sp == 0 && !opens && nlen == 5 && memcmp(p, "Total", 5) == 0) {
        ns_node *t = r->root;
        t->val[NS_COL_WALL] = wval;
        t->pct[NS_COL_WALL] = wpct;
        t->val[NS_COL_USER] = uval;
        t->pct[NS_COL_USER] = upct;
        t->line = line;
        r->complete = 1;
        return NS_FEED_DONE;
    }
    /* list display: the hidden root timer, wherever the sort put it (a
     * tree's entries all open "passes") */
    if (st->sp == 0 && !opens && nlen == 4 && memcmp(p, "root", 4) == 0)
        r->list_mode = 1;

    ns_node *node = ns_report_node(r);
    node->name = ns_report_strdup(r, p, nlen);
    node->line = line;
    node->val[NS_COL_WALL] = wval;
    node->pct[NS_COL_WALL] = wpct;
    node->val[NS_COL_USER] = uval;
    node->pct[NS_COL_USER] = upct;
    ns_builder_add(&st->b, node, st->sp);
    node->kind = ns_kind_of_name(node->name, st->sp);
    st->rows++;
    if (opens) {
        if (st->sp >= st->cap) {
            st->cap = st->cap ? st->cap * 2 : 32;
            st->stack = ns_xrealloc(st->stack, sizeof *st->stack * (size_t)st->cap);
        }
        st->stack[st->sp++] = node;
    }
    return NS_FEED_ROW;
}
