/* unit_rows.c -- the one-pass reading of MLIR text rows (parse/mlir_text.c)
 * against the reference reader of the same text.
 *
 * mlir_text.c reads a row's "VALUE (PCT%)" groups in the pass that finds
 * them, and looks percentages of one decimal up in a table of k / 10,
 * instead of calling ns_parse_timepct (base/num.c's exact parser).  It
 * must store the very same ns_num -- the same double to the bit, the same
 * count of decimals, the same inexact flag -- for every row, and take the
 * reference path for whatever it does not handle itself.  So reports of
 * many rows are built from numbers of every shape (0 to 18 digits, signs,
 * "-0.0000", exponents, every percentage 0.0..100.0, wide and negative
 * ones), scanned as a log, and each row's values compared with what
 * ns_parse_timepct reads from the row's own text.  The warnings a row of
 * inexact numbers gets must come too: counted against the rows the
 * reference finds inexact.
 *
 * Prints "unit_rows: N passed, M failed". */
#include "check.h"

#include "parse/parse.h"
#include "parse/scan.h"

#include <stdint.h>
#include <string.h>

/* ====== Numbers of every shape ====== */

static uint64_t ns__rng = 16;

static unsigned ns__rand(unsigned n) {
    ns__rng = ns__rng * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(ns__rng >> 33) % n;
}

/* A value as a report (or a hand-edited one) may print it. */
static void ns__value(ns_buf *b) {
    switch (ns__rand(8)) {
    case 0: /* the common "%8.4f" */
        ns_buf_printf(b, "%u.%04u", ns__rand(100), ns__rand(10000));
        return;
    case 1: /* zeros, negative zero */
        ns_buf_puts(b, ns__rand(2) ? "0.0000" : "-0.0000");
        return;
    case 2: /* exponents, words: the reference path */
        ns_buf_puts(b, ns__rand(3) == 0 ? "1e3" : ns__rand(2) ? "2.5E-3" : "nan");
        return;
    case 3: /* a sign the fast path leaves alone */
        ns_buf_printf(b, "+%u.%02u", ns__rand(1000), ns__rand(100));
        return;
    default: { /* any number of digits either side, up to 18 */
        int neg = ns__rand(4) == 0, ip = (int)ns__rand(9), fp = (int)ns__rand(10);
        if (neg) ns_buf_putc(b, '-');
        if (!ip && !fp) ip = 1;
        for (int i = 0; i < ip; i++) ns_buf_putc(b, (char)('0' + ns__rand(10)));
        if (fp || !ip) ns_buf_putc(b, '.');
        for (int i = 0; i < fp; i++) ns_buf_putc(b, (char)('0' + ns__rand(10)));
        return;
    }
    }
}

/* A percentage: every one of "%5.1f" of 0..100 often, others sometimes. */
static void ns__pct(ns_buf *b, unsigned *k) {
    if (ns__rand(4)) {
        unsigned t = (*k)++ % 1001;
        ns_buf_printf(b, "%5.1f", t / 10.0);
        return;
    }
    switch (ns__rand(4)) {
    case 0: ns_buf_printf(b, "-%u.%u", ns__rand(200), ns__rand(10)); return;
    case 1: ns_buf_printf(b, "%u.%u", 100 + ns__rand(9000), ns__rand(10)); return;
    case 2: ns_buf_printf(b, "%u.%02u", ns__rand(100), ns__rand(100)); return;
    default: ns__value(b); return;
    }
}

/* ====== Rows against the reference ====== */

typedef struct {
    ns_num val[2]; /* per row: user, wall as the reference reads them */
    ns_num pct[2]; /* their percentages */
} ns__want;

typedef struct {
    const ns__want *want; /* the rows put in, in order */
    long nwant;           /* how many */
    long rows;            /* rows the report had */
    long same;            /* rows whose four numbers are the reference's */
} ns__got;

static int ns__same(ns_num a, ns_num b) {
    return memcmp(&a.v, &b.v, sizeof a.v) == 0 && a.dec == b.dec && a.inexact == b.inexact;
}

static int ns__sink(ns_report *r, void *ctx) {
    ns__got *g = ctx;
    long i = 0;
    for (const ns_node *n = r->root->child; n; n = n->next, i++) {
        if (i >= g->nwant) break;
        const ns__want *w = &g->want[i];
        if (ns__same(n->val[NS_COL_USER], w->val[0]) && ns__same(n->val[NS_COL_WALL], w->val[1]) &&
            ns__same(n->pct[NS_COL_USER], w->pct[0]) && ns__same(n->pct[NS_COL_WALL], w->pct[1]))
            g->same++;
        else if (g->rows - g->same < 5)
            printf("row %ld: %.17g/%d %.17g/%d differ from %.17g/%d %.17g/%d\n", i,
                   n->val[NS_COL_WALL].v, n->val[NS_COL_WALL].dec, n->pct[NS_COL_WALL].v,
                   n->pct[NS_COL_WALL].dec, w->val[1].v, w->val[1].dec, w->pct[1].v,
                   w->pct[1].dec);
        g->rows++;
    }
    ns_report_free(r);
    return 0;
}

int main(void) {
    enum { NROWS = 60000 };
    ns__want *want = malloc(sizeof *want * NROWS);
    ns_buf log = {0}, row = {0};
    ns_buf_puts(&log, "===-------------------------------------------------------------------------===\n"
                      "                         ... Execution time report ...\n"
                      "===-------------------------------------------------------------------------===\n"
                      "  Total Execution Time: 1.0000 seconds\n\n"
                      "  ----User Time----  ----Wall Time----  ----Name----\n");
    long n = 0, inexact_rows = 0;
    unsigned k = 0;
    while (n < NROWS) {
        row.len = 0;
        ns_buf_puts(&row, "");
        for (int c = 0; c < 2; c++) {
            ns_buf_puts(&row, "  ");
            ns__value(&row);
            ns_buf_puts(&row, ns__rand(8) ? " (" : " ( ");
            ns__pct(&row, &k);
            ns_buf_puts(&row, "%)");
        }
        /* the reference reading of the row's text; a row it rejects
         * (a number printed too wide for its group) is not put in */
        const char *p = row.data, *end = row.data + row.len;
        ns__want *w = &want[n];
        int ok = 1;
        for (int c = 0; c < 2 && ok; c++) ok = ns_parse_timepct(&p, end, &w->val[c], &w->pct[c]) == 0;
        if (!ok) continue;
        if (w->val[0].inexact || w->pct[0].inexact || w->val[1].inexact || w->pct[1].inexact)
            inexact_rows++;
        ns_buf_printf(&log, "%s  r%ld\n", row.data, n);
        n++;
    }
    ns_buf_puts(&log, "    1.0000 (100.0%)    1.0000 (100.0%)  Total\n");

    ns__got g = {want, n, 0, 0};
    long counts[2] = {0, 0}; /* ns_diag_count: errors, warnings */
    ns_scanner sc;
    ns_scanner_init(&sc);
    sc.diag.fn = ns_diag_count;
    sc.diag.ctx = counts;
    int found = ns_scan_buffer(&sc, "rows.log", log.data, log.len, ns__sink, &g);
    CHECK(found == 1);
    CHECK(g.rows == n);
    CHECK(g.same == n);
    /* one warning per inexact row; the header's total is the Total row's */
    CHECK(counts[NS_DIAG_WARNING] == inexact_rows);
    CHECK(counts[NS_DIAG_ERROR] == 0);
    CHECK(inexact_rows > 0); /* the generator reaches the reference path */
    CHECK(k > 1001);         /* and every percentage of one decimal */
    ns_scanner_free(&sc);
    ns_buf_free(&log);
    ns_buf_free(&row);
    free(want);
    return check_summary("unit_rows");
}
