/* banner.c -- the banner block that opens MLIR and LLVM text reports.
 *
 * MLIR's text output strategy descends from llvm::TimerGroup, so both start
 * with the same "===---===" banner, a title and a "Total Execution Time"
 * line.  They differ in the column header: MLIR prints "----Wall Time----"
 * and "----Name----", LLVM "---Wall Time---" and "--- Name ---" and adds
 * "(Y wall clock)" to the total.  The column header is what decides: it also
 * tells which columns every row carries and in which order, so a parser never
 * assumes a fixed layout (flang always prints User and Wall, small LLVM runs
 * drop the User column, -track-memory adds Mem).
 *
 * The title decides one thing only, and with the total line and the
 * columns: MLIR's layout of 2020-21, an MLIR tree under LLVM's column header
 * (ns__legacy_check).  Otherwise downstream tools print their own titles
 * ("Flang execution timing report") and nothing keys on them.  A report
 * that lost its banner block is read from its column header
 * (ns_hdr_columns_at).
 */
#include "parse/parse.h"

#include <stdlib.h>
#include <string.h>

/* ====== Banner ====== */

long ns_banner_at(const char *s, size_t n) {
    const char *p = memchr(s, '=', n);
    while (p) {
        size_t off = (size_t)(p - s);
        size_t rest = n - off;
        /* "===" + at least 20 dashes + "===", nothing after but blanks */
        if (rest >= 26 && p[1] == '=' && p[2] == '=' && p[3] == '-') {
            size_t i = 3;
            while (i < rest && p[i] == '-') i++;
            if (i >= 23 && i + 3 <= rest && p[i] == '=' && p[i + 1] == '=' &&
                p[i + 2] == '=') {
                size_t j = i + 3;
                while (j < rest && (p[j] == ' ' || p[j] == '\t')) j++;
                if (j == rest) return (long)off;
            }
        }
        p = memchr(p + 1, '=', n - off - 1);
    }
    return -1;
}

void ns_hdr_begin(ns_hdr *h, long line) {
    memset(h, 0, sizeof *h);
    h->state = NS_HDR_TITLE;
    h->line = line;
    h->total = ns_num_absent();
    h->wall_clock = ns_num_absent();
}

void ns_hdr_free(ns_hdr *h) {
    free(h->title);
    h->title = NULL;
}

static void ns__trim(const char **s, size_t *n) {
    while (*n && (**s == ' ' || **s == '\t')) (*s)++, (*n)--;
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t')) (*n)--;
}

static int ns__starts(const char *s, size_t n, const char *w) {
    size_t k = strlen(w);
    return n >= k && memcmp(s, w, k) == 0;
}

/* "Total Execution Time: X seconds" or "... X seconds (Y wall clock)" */
static int ns__total_line(ns_hdr *h, const char *s, size_t n) {
    const char *key = "Total Execution Time:";
    if (!ns__starts(s, n, key)) return 0;
    const char *p = s + strlen(key), *end = s + n;
    while (p < end && *p == ' ') p++;
    if (ns_num_parse(&p, end, &h->total) != 0) return 0;
    const char *wc = p;
    while (wc < end && *wc != '(') wc++;
    if (wc < end) {
        wc++;
        if (ns_num_parse(&wc, end, &h->wall_clock) == 0 &&
            ns__starts(wc, (size_t)(end - wc), " wall clock"))
            h->llvm = 1;
    }
    return 1;
}

/* Split the column header into dash-framed tokens.  Returns 1 if the line is
 * a column header (has a Wall column and a Name column). */
static int ns__columns(ns_hdr *h, const char *s, size_t n) {
    const char *p = s, *end = s + n;
    int wall = 0, name = 0, mlir_name = 0;
    h->ncols = 0;
    while (p < end) {
        while (p < end && *p == ' ') p++;
        if (p >= end) break;
        if (*p != '-') return 0;
        /* a token is dashes, a label (may hold single spaces), dashes */
        const char *t = p;
        while (p < end && *p == '-') p++;
        const char *lab = p;
        while (p < end && *p != '-') p++;
        const char *labend = p;
        long ndash = lab - t;
        while (p < end && *p == '-') p++;
        size_t ln = (size_t)(labend - lab);
        ns__trim(&lab, &ln);
        if (ln == 0) return 0;
        ns_col c;
        if (ln == 9 && memcmp(lab, "User Time", 9) == 0) c = NS_COL_USER;
        else if (ln == 11 && memcmp(lab, "System Time", 11) == 0) c = NS_COL_SYS;
        else if (ln == 11 && memcmp(lab, "User+System", 11) == 0) c = NS_COL_USERSYS;
        else if (ln == 9 && memcmp(lab, "Wall Time", 9) == 0) c = NS_COL_WALL;
        else if (ln == 3 && memcmp(lab, "Mem", 3) == 0) c = NS_COL_MEM;
        else if (ln == 5 && memcmp(lab, "Instr", 5) == 0) c = NS_COL_INSTR;
        else if (ln == 4 && memcmp(lab, "Name", 4) == 0) {
            name = 1;
            mlir_name = ndash == 4; /* "----Name----" vs "--- Name ---" */
            break;
        } else
            return 0;
        if (h->ncols >= NS_COL_COUNT) return 0;
        if (c == NS_COL_WALL) wall = 1;
        h->cols[h->ncols++] = c;
    }
    if (!wall || !name) return 0;
    if (!mlir_name) h->llvm = 1;
    return 1;
}

/* MLIR's pass timing before mid-2021 (mlir/lib/Pass/PassTiming.cpp, LLVM
 * 10 to 12) printed LLVM's three-dash column header ("---Wall Time---  ---
 * Name ---") over an MLIR tree.  It is told from an LLVM TimerGroup table
 * by what LLVM never prints: its title "... Pass execution timing report
 * ..." with a "Total Execution Time" line that has no "(Y wall clock)"
 * (LLVM prints one in every group that has the line), and no column but
 * User and Wall (LLVM prints User+System whenever a user time is there).
 * Then its rows are read as MLIR's: indentation is nesting. */
int ns_hdr_columns_legacy_ok(const ns_hdr *h) {
    for (int i = 0; i < h->ncols; i++)
        if (h->cols[i] != NS_COL_USER && h->cols[i] != NS_COL_WALL) return 0;
    return h->ncols > 0;
}

static void ns__legacy_check(ns_hdr *h) {
    if (!h->llvm || !h->title || !strstr(h->title, "Pass execution timing report") ||
        !ns_num_present(h->total) || ns_num_present(h->wall_clock) ||
        !ns_hdr_columns_legacy_ok(h))
        return;
    h->llvm = 0;
    h->legacy = 1;
}

ns_hdr_state ns_hdr_feed(ns_hdr *h, const char *s, size_t n) {
    const char *t = s;
    size_t tn = n;
    ns__trim(&t, &tn);
    switch (h->state) {
    case NS_HDR_TITLE:
        if (tn == 0 || ns_banner_at(s, n) >= 0) {
            h->state = NS_HDR_FAILED;
            break;
        }
        h->title = ns_strndup(t, tn);
        h->state = NS_HDR_BANNER2;
        break;
    case NS_HDR_BANNER2:
        h->state = ns_banner_at(s, n) >= 0 ? NS_HDR_BODY : NS_HDR_FAILED;
        break;
    case NS_HDR_BODY:
        if (tn == 0) break;
        if (ns__total_line(h, t, tn)) break;
        if (ns__columns(h, t, tn)) {
            h->state = NS_HDR_DONE;
            ns__legacy_check(h);
            break;
        }
        /* a foreign line: tolerate a few (concurrent writers) */
        if (++h->skipped > 8) h->state = NS_HDR_FAILED;
        break;
    case NS_HDR_DONE:
    case NS_HDR_FAILED:
        break;
    }
    return h->state;
}

/* ====== Reports without their banner ======
 * A notes file or a paste may keep only the column header and the rows
 * after it.  A line that is a column header and nothing else (blanks
 * around it allowed, no log prefix) starts a report all the same, with no
 * title and no total line.  Its rows cannot be told by the header alone
 * when it is LLVM's three-dash one with User and Wall columns only: an
 * LLVM table that had no process time, or MLIR's layout of 2020-21.  The
 * rows decide (ns_pstate.maybe_legacy: scan.c). */
int ns_hdr_columns_at(ns_hdr *h, const char *s, size_t n, long line) {
    const char *t = s;
    size_t tn = n;
    ns__trim(&t, &tn);
    if (tn < 12 || t[0] != '-' || t[tn - 1] != '-') return 0;
    ns_hdr_begin(h, line);
    if (!ns__columns(h, t, tn)) {
        ns_hdr_begin(h, line);
        return 0;
    }
    h->state = NS_HDR_DONE;
    return 1;
}

int ns_row_shape(const char *s, size_t n) {
    const char *p = s, *end = s + n;
    if (n && s[n - 1] == '\r') end--;
    int groups = 0;
    ns_num v, pc;
    for (;;) {
        const char *q = p;
        while (q < end && *q == ' ') q++;
        /* a name may start like a number: a group needs its "%)" */
        if (q >= end || !memchr(q, ')', (size_t)(end - q)) ||
            ns_parse_timepct(&q, end, &v, &pc) != 0)
            break;
        p = q;
        groups++;
    }
    if (!groups || p >= end || *p != ' ') return 0;
    while (p < end && *p == ' ') p++;
    return p < end;
}

int ns_total_row_end(const char *s, size_t n) {
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
    if (n < 8 || memcmp(s + n - 5, "Total", 5) != 0) return 0;
    n -= 5;
    if (s[n - 1] != ' ') return 0;
    while (n && s[n - 1] == ' ') n--;
    return n >= 2 && s[n - 2] == '%' && s[n - 1] == ')';
}

/* ====== Shared row piece ====== */

int ns_parse_timepct(const char **pp, const char *end, ns_num *val,
                     ns_num *pct) {
    const char *p = *pp;
    while (p < end && *p == ' ') p++;
    if (end - p >= 5 && memcmp(p, "-----", 5) == 0) {
        /* LLVM prints "        -----     " when the group's total is
         * below 1e-7: the placeholder owns five trailing blanks */
        p += 5;
        for (int i = 0; i < 5 && p < end && *p == ' '; i++) p++;
        *val = ns_num_absent();
        *pct = ns_num_absent();
        *pp = p;
        return 0;
    }
    if (ns_num_parse(&p, end, val) != 0) return -1;
    if (p >= end || *p != ' ') return -1;
    while (p < end && *p == ' ') p++;
    if (p >= end || *p != '(') return -1;
    p++;
    while (p < end && *p == ' ') p++;
    if (ns_num_parse(&p, end, pct) != 0) return -1;
    if (end - p < 2 || p[0] != '%' || p[1] != ')') return -1;
    *pp = p + 2;
    return 0;
}

void ns_parse_warn_inexact(const ns_pstate *st, long line, const ns_num *val, const ns_num *pct,
                           int n) {
    for (int i = 0; i < n; i++) {
        const ns_num *x = val[i].inexact ? &val[i] : pct[i].inexact ? &pct[i] : NULL;
        if (!x) continue;
        ns_buf b = {0};
        ns_num_put(&b, *x, 0);
        ns_diag_say(st->diag, NS_DIAG_WARNING, st->r->file, line,
                    "a number with more digits than a double holds (or out of its range) "
                    "is read as %s",
                    b.data);
        ns_buf_free(&b);
        return; /* one message per row */
    }
}
