/* mlir_text.c -- rows of MLIR's text timing report (mlir/lib/Support/Timing.cpp).
 *
 * A row is one "  %8.4f (%5.1f%%)" group per column named in the header,
 * then two spaces, then 2*depth spaces of indentation, then the name:
 *
 *       0.3022 (  4.6%)    0.1517 (  3.2%)    'func.func' Pipeline
 *
 * Numbers are read token by token, never by fixed columns: "%8.4f" widens at
 * 1000 s and a negative Rest is wider too.  The name is everything after the
 * indentation, verbatim -- pass names hold spaces, quotes, brackets, "::".
 * The report ends at the "Total" row at depth 0.  A page that collapsed
 * the blanks leaves one blank before every name: such rows are read flat
 * (st->collapsed), and the scanner decides what to do with the report.
 * In list display
 * (--mlir-timing-display=list) the first row is the hidden root timer
 * "root", rows are flat and sorted by wall time; we keep them as printed.
 */
#include "parse/parse.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* ====== One pass over a row's numbers ======
 * Rows are most of a report-dense log, and their numbers are nearly always
 * "%8.4f (%5.1f%%)" groups.  ns__group reads such a group in the same pass
 * that finds its bytes: the digits go into a mantissa as they are seen, and
 * the value is mantissa / 10^decimals -- what ns_num_parse computes for a
 * number of at most 15 significant digits without exponent, so the doubles
 * and the decimal counts are the same.  Anything else (a sign other than
 * '-', more digits, an exponent, nan/inf, LLVM's "-----", a missing
 * bracket) is left to ns_parse_timepct from the group's start, which
 * decides as before: the fast path only ever answers where it would have
 * answered the same. */

static const double ns__p10[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

/* k / 10 for k = 0..1000: every percentage a row prints ("%5.1f" of
 * 0..100), without a division (the one division left per group).  The
 * compiler folds each to the double nearest k / 10, which is what IEEE
 * division of the exact operands k and 10 gives at run time. */
#define NS__T1(k) ((k) / 10.0)
#define NS__T10(k) NS__T1(k), NS__T1(k + 1), NS__T1(k + 2), NS__T1(k + 3), NS__T1(k + 4), \
                   NS__T1(k + 5), NS__T1(k + 6), NS__T1(k + 7), NS__T1(k + 8), NS__T1(k + 9)
#define NS__T100(k) NS__T10(k), NS__T10(k + 10), NS__T10(k + 20), NS__T10(k + 30), \
                    NS__T10(k + 40), NS__T10(k + 50), NS__T10(k + 60), NS__T10(k + 70), \
                    NS__T10(k + 80), NS__T10(k + 90)
static const double ns__tenths[1001] = {
    NS__T100(0),   NS__T100(100), NS__T100(200), NS__T100(300), NS__T100(400), NS__T100(500),
    NS__T100(600), NS__T100(700), NS__T100(800), NS__T100(900), NS__T1(1000)};

/* [-]DIGITS[.DIGITS] at *pp, at most 15 digits in all and no exponent
 * after it: stored as ns_num_parse would, *pp advanced; else -1. */
static inline int ns__fixed(const char **pp, const char *end, ns_num *out) {
    const char *p = *pp;
    int neg = p < end && *p == '-';
    p += neg;
    uint64_t mant = 0;
    int digits = 0, dec = 0;
    for (; p < end && (unsigned)(*p - '0') <= 9; p++, digits++) mant = mant * 10 + (uint64_t)(*p - '0');
    if (p < end && *p == '.') {
        const char *f = ++p;
        for (; p < end && (unsigned)(*p - '0') <= 9; p++) mant = mant * 10 + (uint64_t)(*p - '0');
        dec = (int)(p - f);
        digits += dec;
    }
    if (!digits || digits > 15 || (p < end && (*p == 'e' || *p == 'E'))) return -1;
    double v = dec == 1 && mant <= 1000 ? ns__tenths[mant] : (double)(int64_t)mant / ns__p10[dec];
    out->v = neg ? -v : v;
    out->dec = (signed char)dec;
    out->inexact = 0;
    *pp = p;
    return 0;
}

/* One "  VALUE (  PCT%)" group at *pp, the fast way or by
 * ns_parse_timepct; *slow is set when the latter read it (it may have
 * found a number a double cannot hold: the row then gets its warning). */
static inline int ns__group(const char **pp, const char *end, ns_num *val, ns_num *pct,
                            int *slow) {
    const char *p = *pp;
    while (p < end && *p == ' ') p++;
    if (ns__fixed(&p, end, val) == 0 && p < end && *p == ' ') {
        while (p < end && *p == ' ') p++;
        if (p < end && *p == '(') {
            p++;
            while (p < end && *p == ' ') p++;
            if (ns__fixed(&p, end, pct) == 0 && end - p >= 2 && p[0] == '%' && p[1] == ')') {
                *pp = p + 2;
                return 0;
            }
        }
    }
    *slow = 1;
    return ns_parse_timepct(pp, end, val, pct);
}

/* Can a time group start with this byte (ns_parse_timepct: blanks, then
 * "-----" or a number: a sign, a digit, '.', nan, inf)? */
static int ns__group_start(char c) {
    return (unsigned)(c - '0') <= 9 || c == '-' || c == '+' || c == '.' || c == ' ' ||
           (c | 0x20) == 'n' || (c | 0x20) == 'i';
}

/* Compare two printed numbers by their text. */
static int ns__same_printed(ns_num a, ns_num b) {
    if (a.dec != b.dec) return 0;
    if (a.dec < 0) return 1;
    /* the same value with as many decimals prints the same (the common
     * case, once a report, and the only one that costs no formatting) */
    if (a.v == b.v && signbit(a.v) == signbit(b.v)) return 1;
    ns_buf x = {0}, y = {0};
    ns_num_put(&x, a, 0);
    ns_num_put(&y, b, 0);
    int same = strcmp(x.data, y.data) == 0;
    ns_buf_free(&x);
    ns_buf_free(&y);
    return same;
}

ns_feed ns_mlir_text_feed(ns_pstate *st, const char *s, size_t n, long line) {
    const char *p = s, *end = s + n;
    ns_num val[NS_COL_COUNT], pct[NS_COL_COUNT];
    const ns_hdr *h = &st->hdr;
    int slow = 0;
    for (int i = 0; i < h->ncols; i++)
        if (ns__group(&p, end, &val[i], &pct[i], &slow) != 0) return NS_FEED_FOREIGN;
    if (end - p < 2 || p[0] != ' ') return NS_FEED_FOREIGN;
    if (p[1] != ' ') {
        /* one blank before the name: a page that collapsed every run of
         * blanks to one (a blog listing, a mirrored commit page).  The
         * numbers still read, the indentation is gone: the rows are read
         * flat and the scanner refuses the report unless --flat (or the
         * list display, which is flat anyway).  Only a report whose rows
         * all are so: one such row among others is not a row of it. */
        if (!st->collapsed && st->rows > 0) return NS_FEED_FOREIGN;
        if (!st->collapsed) st->collapsed = line;
        p += 1;
    } else {
        if (st->collapsed) return NS_FEED_FOREIGN;
        p += 2;
    }
    const char *name = p;
    while (name < end && *name == ' ') name++;
    if (name == end) return NS_FEED_FOREIGN;
    size_t indent = (size_t)(name - p);
    /* more time columns than the header named: the layout changed under
     * us (another report's row spliced in); not a row of this report */
    if (ns__group_start(*name)) {
        const char *q = name;
        ns_num v, pc;
        if (ns_parse_timepct(&q, end, &v, &pc) == 0) return NS_FEED_FOREIGN;
    }

    ns_report *r = st->r;
    if (slow) ns_parse_warn_inexact(st, line, val, pct, h->ncols);
    if (indent == 0 && end - name == 5 && memcmp(name, "Total", 5) == 0) {
        for (int i = 0; i < h->ncols; i++) {
            r->root->val[h->cols[i]] = val[i];
            r->root->pct[h->cols[i]] = pct[i];
        }
        r->root->line = line;
        r->complete = 1;
        if (ns_num_present(r->header_total) &&
            !ns__same_printed(r->header_total, r->root->val[NS_COL_WALL]))
            ns_diag_say(st->diag, NS_DIAG_WARNING, r->file, line,
                        "Total row differs from 'Total Execution Time' of the "
                        "header at line %ld",
                        r->line);
        return NS_FEED_DONE;
    }

    /* list display: flat rows and the hidden root timer among them -- first
     * when its wall time is the largest, which a row summed over threads
     * can beat */
    if (indent == 0 && end - name == 4 && memcmp(name, "root", 4) == 0) st->seen_root = 1;
    r->list_mode = st->seen_root && !st->indented && !indent;
    ns_node *node = ns_report_node(r);
    node->name = ns_report_strdup(r, name, (size_t)(end - name));
    node->line = line;
    for (int i = 0; i < h->ncols; i++) {
        node->val[h->cols[i]] = val[i];
        node->pct[h->cols[i]] = pct[i];
    }
    if (indent % 2)
        ns_diag_say(st->diag, NS_DIAG_WARNING, r->file, line,
                    "odd indentation (%zu spaces); read as depth %zu", indent, indent / 2);
    int want = (int)(indent / 2);
    if (indent) st->indented = 1;
    int got = ns_builder_add(&st->b, node, want);
    if (got != want)
        ns_diag_say(st->diag, NS_DIAG_WARNING, r->file, line,
                    "row indented %d levels below its predecessor; attached "
                    "at depth %d",
                    want - (got - 1), got);
    node->kind = ns_kind_of_name(node->name, got);
    st->rows++;
    return NS_FEED_ROW;
}
