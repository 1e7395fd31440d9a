/* llvm.c -- rows of an llvm::TimerGroup table (llvm/lib/Support/Timer.cpp).
 *
 * opt/llc -time-passes and clang/flang -ftime-report print one table per
 * timer group, back to back.  A row is, for each time column the header
 * names, "  %7.4f (%5.1f%%)" (or "        -----     " when the group total
 * is below 1e-7), then two spaces, then "%9d  " for the Mem and Instr
 * columns when present, then the timer's name.  Rows are flat and sorted by
 * wall time; the last is "Total", followed by a blank line.
 *
 * A page that collapsed the blanks (one blank between the fields and
 * before the name) reads the same: the "(x.x%)" fields separate the
 * columns.  Every row becomes a child of the root in print order.  Names are kept
 * verbatim ("InstCombinePass #25", "Greedy Register Allocator").
 */
#include "parse/parse.h"

#include <string.h>

/* An integer column ("%9" PRId64 "  ", or one blank on a page that
 * collapsed them). */
static int ns__int_col(const char **pp, const char *end, ns_num *out) {
    const char *p = *pp;
    while (p < end && *p == ' ') p++;
    if (ns_num_parse(&p, end, out) != 0 || out->dec != 0) return -1;
    if (end - p < 2 || p[0] != ' ') return -1;
    *pp = p + 1 + (p[1] == ' ');
    return 0;
}

ns_feed ns_llvm_feed(ns_pstate *st, const char *s, size_t n, long line) {
    const char *p = s, *end = s + n;
    const ns_hdr *h = &st->hdr;
    ns_num val[NS_COL_COUNT], pct[NS_COL_COUNT];
    int i = 0;
    for (; i < h->ncols; i++) {
        ns_col c = h->cols[i];
        if (c == NS_COL_MEM || c == NS_COL_INSTR) break;
        if (ns_parse_timepct(&p, end, &val[i], &pct[i]) != 0)
            return NS_FEED_FOREIGN;
    }
    /* two blanks before the name, or one on a page that collapsed every run
     * of blanks: the "(  x.x%)" fields still tell the columns apart, and an
     * LLVM name never starts with a blank */
    if (end - p < 2 || p[0] != ' ') return NS_FEED_FOREIGN;
    p += 1 + (p[1] == ' ');
    for (; i < h->ncols; i++) {
        pct[i] = ns_num_absent();
        if (ns__int_col(&p, end, &val[i]) != 0) return NS_FEED_FOREIGN;
    }
    if (p >= end) return NS_FEED_FOREIGN;

    ns_report *r = st->r;
    ns_parse_warn_inexact(st, line, val, pct, h->ncols);
    ns_node *node;
    int total = end - p == 5 && memcmp(p, "Total", 5) == 0;
    if (total) {
        node = r->root;
    } else {
        node = ns_report_node(r);
        node->name = ns_report_strdup(r, p, (size_t)(end - p));
        node->kind = NS_KIND_PASS;
        ns_builder_add(&st->b, node, 0);
        st->rows++;
    }
    node->line = line;
    for (i = 0; i < h->ncols; i++) {
        node->val[h->cols[i]] = val[i];
        node->pct[h->cols[i]] = pct[i];
    }
    if (!total) return NS_FEED_ROW;
    r->complete = 1;
    return NS_FEED_DONE;
}
