/* scan.c -- the log scanner: lines in, reports out.
 *
 * Real logs are not clean reports.  The NPU compiler prints its tree on
 * stdout between hundreds of INFO lines; the OpenVINO plugin colours its
 * lines with ANSI codes; Windows tools end lines with CRLF; some pipelines
 * put a log prefix ("[INFO] 12:00:01.123 [vpux-compiler] ") in front of
 * every line; and llvm::errs() is unbuffered, so a concurrent writer can drop
 * a foreign line into the middle of a report.  The scanner deals with all of
 * that in one place so that the format parsers see clean rows:
 *
 *   - a line is cut at '\n', a trailing '\r' dropped, ANSI escapes removed;
 *   - a report starts at a "===---===" banner (MLIR and LLVM text) or at a
 *     "[" line followed by an MLIR JSON entry; whatever precedes the banner
 *     on its line is that report's prefix, and is stripped from each of its
 *     lines (a logger prefix by its shape "[LEVEL] time [name] ", anything
 *     else by its length and character classes, so changing timestamps
 *     still match);
 *   - inside a report, a line that is not a row is skipped and counted;
 *     NS_FOREIGN_RUN_MAX of them in a row, a new banner, or the end of
 *     input mean the report was cut short: it is kept, marked incomplete,
 *     and a warning names where;
 *   - a file whose first byte is '{' (or '[' then '{') and that mentions
 *     "traceEvents" / "ph" is a Chrome trace and goes to trace.c.
 *
 * What a log says besides its reports is not the scanner's business: a
 * hook (scan.h) the caller installs sees the lines between reports and may
 * add facts and labels to the reports, or hold one back a while -- that is
 * how the NPU layer (npu/hook.c) feeds on the compiler's INFO lines -- and
 * this file knows no producer's messages.
 *
 * Deliberately left out: reassembling rows that a concurrent writer split in
 * two (we skip the halves and say so), and interleaved rows of two reports
 * printed at the same time by two processes.

 *
 * The scanner is broken out into files of one job (scan_int.h lists
 * them); this one is the state machine: what a clean line means between
 * reports, in a report's header and among its rows, and how a finished
 * report is numbered, labelled and handed on.
 */
#include "parse/scan_int.h"

#include "base/regex_guard.h"

#include <stdlib.h>
#include <string.h>

/* ====== Log prefixes ====== */

/* Length of a logger prefix "[WORD] TIME [NAME] " at s, or 0.  Matches the
 * NPU compiler's vpux::Logger and the OpenVINO NPU plugin's logger. */
static size_t ns__logger_prefix(const char *s, size_t n) {
    size_t i = 0;
    if (i >= n || s[i] != '[') return 0;
    i++;
    size_t w = i;
    while (i < n && s[i] >= 'A' && s[i] <= 'Z') i++;
    if (i == w || i + 1 >= n || s[i] != ']' || s[i + 1] != ' ') return 0;
    i += 2;
    size_t t = i;
    while (i < n && s[i] != ' ' && s[i] != '[') i++;
    if (i == t || i + 1 >= n || s[i] != ' ' || s[i + 1] != '[') return 0;
    i += 2;
    while (i < n && s[i] != ']') i++;
    if (i + 1 >= n || s[i + 1] != ' ') return 0;
    return i + 2;
}

static void ns__prefix_set(ns__prefix *p, const char *s, size_t n) {
    free(p->shape);
    free(p->raw);
    memset(p, 0, sizeof *p);
    if (n == 0) return;
    p->raw = ns_strndup(s, n);
    size_t m = ns__logger_prefix(s, n);
    if (m) {
        size_t k = m;
        while (k < n && s[k] == ' ') k++;
        if (k == n) {
            p->kind = NS__PFX_LOGGER;
            p->indent = n - m;
            return;
        }
    }
    p->kind = NS__PFX_SHAPE;
    p->len = n;
    p->shape = ns_strndup(s, n);
    for (size_t i = 0; i < n; i++)
        if (p->shape[i] >= '0' && p->shape[i] <= '9') p->shape[i] = '9';
}

/* Strip the report's prefix from a line; returns -1 if it does not carry it. */
static int ns__prefix_strip(const ns__prefix *p, const char **s, size_t *n) {
    switch (p->kind) {
    case NS__PFX_NONE:
        return 0;
    case NS__PFX_LOGGER: {
        size_t m = ns__logger_prefix(*s, *n);
        if (!m || *n < m + p->indent) return -1;
        for (size_t i = 0; i < p->indent; i++)
            if ((*s)[m + i] != ' ') return -1;
        *s += m + p->indent;
        *n -= m + p->indent;
        return 0;
    }
    case NS__PFX_SHAPE:
        if (*n < p->len) return -1;
        for (size_t i = 0; i < p->len; i++) {
            char c = (*s)[i];
            if (p->shape[i] == '9' ? !(c >= '0' && c <= '9') : c != p->shape[i])
                return -1;
        }
        *s += p->len;
        *n -= p->len;
        return 0;
    }
    return -1;
}

/* ====== The state machine ====== */

static void ns__label_check(ns__scan *st, const char *s, size_t n) {
    if (!st->sc->has_label_re) return;
    char *line = ns_strndup(s, n);
    regmatch_t m[2];
    if (regexec(&st->sc->label_re, line, 2, m, 0) == 0) {
        int g = m[1].rm_so >= 0 ? 1 : 0;
        free(st->label);
        st->label = ns_strndup(line + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so));
    }
    free(line);
}

/* Hand a report to the sink (or drop it once the sink asked to stop);
 * NULL is nothing to hand on. */
void ns__emit(ns__scan *st, ns_report *r) {
    if (!r) return;
    if (st->sc->stopped) {
        ns_report_free(r);
        return;
    }
    if (st->sink(r, st->ctx) != 0) st->sc->stopped = 1;
}

/* "#N" for a report's label, without a printf (one per report: a dense
 * log has one every few dozen lines); tmp holds at least 24 bytes. */
char *ns__hash_label(char *tmp, int n) {
    char digits[16];
    int k = 0;
    unsigned u = (unsigned)n;
    do digits[k++] = (char)('0' + u % 10), u /= 10;
    while (u);
    char *o = tmp;
    *o++ = '#';
    while (k) *o++ = digits[--k];
    *o = 0;
    return tmp;
}

/* Give a new report its index and its label: the nearest --label-regex
 * match before it, else the hook's (an NPUW sub-model), else "#N". */
static void ns__number(ns__scan *st, ns_report *r) {
    r->index = st->sc->next_index++;
    if (st->label) {
        r->label = ns_strdup(st->label);
    } else if (!st->hook || !st->hook->label_new ||
               !(r->label = st->hook->label_new(st->hook->ctx, r, st->found))) {
        if (st->sc->number_late) return; /* "#N" once its place is known */
        char tmp[32];
        r->label = ns_strdup(ns__hash_label(tmp, r->index + 1));
    }
}

static void ns__begin(ns__scan *st, ns_producer prod) {
    ns_report *r = ns_report_new(prod, st->name, st->start_line);
    /* the hook's facts for r; a report it held can get no more of them */
    if (st->hook && st->hook->begin) ns__emit(st, st->hook->begin(st->hook->ctx, r));
    ns__number(st, r);
    memset(&st->ps.b, 0, sizeof st->ps.b);
    st->ps.r = r;
    st->ps.sp = 0;
    st->ps.rows = 0;
    st->ps.foreign = st->ps.foreign_run = st->ps.foreign_first = 0;
    st->ps.maybe_legacy = st->ps.indented = 0;
    st->ps.collapsed = st->ps.total_foreign = st->ps.seen_root = 0;
    ns_builder_init(&st->ps.b, r);
    st->found++;
}

/* A bannerless report under a three-dash User/Wall header was read as
 * MLIR's 2020-21 layout: it is one if a row was indented, else an LLVM
 * table (flat, every row a pass). */
static void ns__settle_legacy(ns__scan *st, ns_report *r) {
    st->ps.maybe_legacy = 0;
    if (st->ps.indented) {
        r->legacy = 1;
        return;
    }
    r->producer = NS_PROD_LLVM;
    for (ns_node *n = r->root->child; n; n = ns_node_next(n, r->root)) n->kind = NS_KIND_PASS;
}

/* Hand the current report to the sink. */
static void ns__finish(ns__scan *st, long last_line) {
    ns_report *r = st->ps.r;
    st->ps.r = NULL;
    r->end_line = last_line;
    /* a report numbered late has no label yet: its number in this input */
    char late[32];
    const char *label = r->label;
    if (!label && (st->ps.foreign || !r->complete || st->ps.collapsed)) label = ns__hash_label(late, r->index + 1);
    if (st->ps.foreign)
        ns_diag_say(st->ps.diag, NS_DIAG_WARNING, r->file, st->ps.foreign_first,
                    "report %s: skipped %ld %s of it", label, st->ps.foreign,
                    st->ps.foreign == 1 ? "line that is not a row" : "lines that are not rows");
    if (!r->complete && st->ps.total_foreign)
        /* a Total row is printed, it just does not fit the report's
         * columns: saying "no Total row" would point at the wrong cause */
        ns_diag_say(st->ps.diag, NS_DIAG_WARNING, r->file, r->line,
                    "report %s is incomplete (its Total row, line %ld, does not fit the "
                    "columns of its header; %d row%s read)",
                    label, st->ps.total_foreign, st->ps.rows, st->ps.rows == 1 ? "" : "s");
    else if (!r->complete)
        ns_diag_say(st->ps.diag, NS_DIAG_WARNING, r->file, r->line,
                    "report %s is incomplete (no Total row; %d row%s read up to "
                    "line %ld%s)",
                    label, st->ps.rows, st->ps.rows == 1 ? "" : "s", last_line,
                    st->ps.foreign_run ? ", then lines that are not rows" : "");
    if (st->ps.maybe_legacy) ns__settle_legacy(st, r);
    st->idle_from = last_line + 1;
    ns_builder_free(&st->ps.b);
    ns_hdr_free(&st->ps.hdr);
    st->state = NS__IDLE;
    if (st->ps.collapsed && !r->list_mode && !st->sc->flat) {
        /* the blanks were collapsed: the numbers are there, the nesting is
         * not, and a tree read flat would rank pipelines with their passes */
        ns_diag_say(st->ps.diag, NS_DIAG_WARNING, r->file, st->ps.collapsed,
                    "report %s: the indentation is gone: nesting cannot be known; "
                    "--flat reads the rows without nesting",
                    label);
        /* not a report: its number goes to the next one */
        if (r->index == st->sc->next_index - 1) st->sc->next_index--;
        ns_report_free(r);
        st->found--;
        return;
    }
    /* a hook may keep r for what the lines after it say */
    ns__emit(st, st->hook && st->hook->finish ? st->hook->finish(st->hook->ctx, r) : r);
}

static void ns__idle(ns__scan *st, const char *s, size_t n, long line);

/* The header block (st->ps.hdr) is read: the rows of a text report follow. */
static void ns__begin_text(ns__scan *st) {
    ns_hdr h = st->ps.hdr;
    ns__begin(st, h.llvm ? NS_PROD_LLVM : NS_PROD_MLIR_TEXT);
    ns_report *r = st->ps.r;
    r->title = h.title ? ns_strdup(h.title) : NULL;
    r->legacy = h.legacy;
    if (h.llvm) {
        r->header_total = h.total;
        r->header_wall = h.wall_clock;
    } else {
        r->header_total = h.total;
    }
    for (int i = 0; i < h.ncols; i++) r->cols |= NS_COLBIT(h.cols[i]);
    if (st->pfx.raw) r->prefix = ns_strdup(st->pfx.raw);
    st->state = NS__TEXT;
}

/* A column header between reports, with no banner block before it: the
 * report is read from here (banner.c, ns_hdr_columns_at), marked. */
static int ns__bannerless(ns__scan *st, const char *s, size_t n, long line) {
    if (!ns_hdr_columns_at(&st->ps.hdr, s, n, line)) return 0;
    ns__prefix_set(&st->pfx, s, 0);
    st->start_line = line;
    ns_hdr *h = &st->ps.hdr;
    int maybe = h->llvm && ns_hdr_columns_legacy_ok(h);
    if (maybe) h->llvm = 0; /* MLIR's rows until the rows say otherwise */
    ns__begin_text(st);
    st->ps.maybe_legacy = maybe;
    st->ps.r->no_banner = 1;
    return 1;
}

/* A Total row between reports: the rows before it, as far back as the
 * reader still holds them (st->here, st->window), are counted and the
 * user told -- they are not guessed into a report without their header. */
static void ns__rows_only(ns__scan *st, const char *s, size_t n, long line) {
    /* no line before it (the line a report ended on, fed again when the
     * threads' merge stops there: parse/split.c): nothing to say */
    if (!st->here || !ns_row_shape(s, n)) return;
    long rows = 1;
    const char *at = st->here;
    while (at && st->window && at > st->window && line - rows >= st->idle_from) {
        const char *end = at - 1; /* the '\n' of the line before */
        const char *b = end;
        while (b > st->window && b[-1] != '\n') b--;
        if (b == st->window && st->window_cut) break; /* that line may be cut */
        if (!ns_row_shape(b, (size_t)(end - b))) break;
        rows++;
        at = b;
    }
    ns_diag_say(st->ps.diag, NS_DIAG_WARNING, st->name, 0,
                "%ld %s like rows of a timing report without its header (line %ld)", rows,
                rows == 1 ? "line looks" : "lines look", line - rows + 1);
}

static void ns__foreign(ns__scan *st, const char *raw, size_t rawn, long line) {
    if (st->ps.foreign++ == 0) st->ps.foreign_first = line;
    if (!st->ps.total_foreign && ns_total_row_end(raw, rawn)) st->ps.total_foreign = line;
    st->ps.foreign_run++;
    if (ns_banner_at(raw, rawn) >= 0) {
        /* a new report starts: the current one was cut short before the
         * run of non-rows that led up to this banner */
        st->ps.foreign_run--;
        st->ps.foreign -= st->ps.foreign_run + 1;
        ns__finish(st, line - 1 - st->ps.foreign_run);
        ns__idle(st, raw, rawn, line);
        return;
    }
    ns__label_check(st, raw, rawn);
    if (st->ps.foreign_run >= NS_FOREIGN_RUN_MAX) {
        st->ps.foreign -= st->ps.foreign_run;
        ns__finish(st, line - st->ps.foreign_run);
    }
}

static void ns__idle(ns__scan *st, const char *s, size_t n, long line) {
    /* Progress output rewrites its line with CRs ("50%\r100%\r"): a
     * terminal shows what follows the last one, and a report may start
     * there.  (Only between reports: inside one, a CR is the row's.) */
    const char *cr = memchr(s, '\r', n);
    if (cr) {
        for (const char *q = cr; (q = memchr(q + 1, '\r', n - (size_t)(q + 1 - s))) != NULL;) cr = q;
        n -= (size_t)(cr + 1 - s);
        s = cr + 1;
    }
    if (st->hook && st->hook->line) {
        if (st->hook->at) st->hook->at(st->hook->ctx, st->name, line);
        st->hook->line(st->hook->ctx, s, n);
    }
    long off = ns_banner_at(s, n);
    if (off >= 0) {
        ns__prefix_set(&st->pfx, s, (size_t)off);
        ns_hdr_begin(&st->ps.hdr, line);
        st->start_line = line;
        st->state = NS__HEADER;
        return;
    }
    if (n && (s[n - 1] == '-' || s[n - 1] == ' ') && ns__bannerless(st, s, n, line)) return;
    /* (not the tail of a line rewritten with CRs: the lines before it are
     * not what the terminal showed above it) */
    if (!cr && ns_total_row_end(s, n)) ns__rows_only(st, s, n, line);
    /* "[" alone (after an optional prefix): maybe an MLIR JSON report */
    size_t k = n;
    while (k && (s[k - 1] == ' ' || s[k - 1] == '\t')) k--;
    if (k && s[k - 1] == '[') {
        size_t pl = k - 1;
        while (pl && s[pl - 1] == ' ') pl--;
        if (pl == 0 || ns__logger_prefix(s, k - 1)) {
            ns__prefix_set(&st->pfx, s, k - 1);
            st->start_line = line;
            st->state = NS__JSON_OPEN;
            return;
        }
    }
    ns__label_check(st, s, n);
}

/* One clean line; has_nul: it holds a NUL byte (ns__clean), and so is
 * never a row (names are C strings). */
void ns__line(ns__scan *st, const char *raw, size_t rawn, long line, int has_nul) {
    const char *s = raw;
    size_t n = rawn;
    if (st->state == NS__IDLE) { /* most lines of a log: keep this path short */
        ns__idle(st, s, n, line);
        return;
    }
    switch (st->state) {
    case NS__IDLE:
        return;
    case NS__HEADER: {
        if (has_nul || ns__prefix_strip(&st->pfx, &s, &n) != 0) {
            if (++st->ps.hdr.skipped <= 8) return;
            st->ps.hdr.state = NS_HDR_FAILED;
        } else {
            ns_hdr_feed(&st->ps.hdr, s, n);
        }
        if (st->ps.hdr.state == NS_HDR_FAILED) {
            ns_hdr_free(&st->ps.hdr);
            st->state = NS__IDLE;
            ns__idle(st, raw, rawn, line);
        } else if (st->ps.hdr.state == NS_HDR_DONE) {
            ns__begin_text(st);
        }
        return;
    }
    case NS__TEXT:
    case NS__JSON: {
        ns_feed f = NS_FEED_FOREIGN;
        if (!has_nul && ns__prefix_strip(&st->pfx, &s, &n) == 0)
            f = st->state == NS__JSON ? ns_mlir_json_feed(&st->ps, s, n, line)
                : st->ps.hdr.llvm     ? ns_llvm_feed(&st->ps, s, n, line)
                                      : ns_mlir_text_feed(&st->ps, s, n, line);
        if (f == NS_FEED_FOREIGN) {
            ns__foreign(st, raw, rawn, line);
            return;
        }
        st->ps.foreign_run = 0;
        if (f == NS_FEED_DONE) ns__finish(st, line);
        return;
    }
    case NS__JSON_OPEN:
        if (!has_nul && ns__prefix_strip(&st->pfx, &s, &n) == 0 &&
            ns_mlir_json_entry_line(s, n)) {
            ns__begin(st, NS_PROD_MLIR_JSON);
            st->state = NS__JSON;
            /* the first entry counts like any other: one that is not an
             * entry after all is reported with the report, not dropped */
            ns_feed f = ns_mlir_json_feed(&st->ps, s, n, line);
            if (f == NS_FEED_FOREIGN) ns__foreign(st, raw, rawn, line);
            else if (f == NS_FEED_DONE) ns__finish(st, line);
            return;
        }
        st->state = NS__IDLE;
        ns__idle(st, raw, rawn, line);
        return;
    }
}

void ns__end(ns__scan *st, long last_line) {
    if (st->state == NS__TEXT || st->state == NS__JSON) {
        long last = last_line - st->ps.foreign_run;
        st->ps.foreign -= st->ps.foreign_run;
        ns__finish(st, last);
    } else if (st->state == NS__HEADER) {
        /* cut inside its header: no rows to show, but say where it was */
        ns_diag_say(st->ps.diag, NS_DIAG_WARNING, st->name, st->start_line,
                    "a report starts here, but the input ends inside its header (line %ld)",
                    last_line);
        ns_hdr_free(&st->ps.hdr);
    }
    if (st->hook && st->hook->end) ns__emit(st, st->hook->end(st->hook->ctx));
    free(st->ps.stack);
    st->ps.stack = NULL;
    free(st->pfx.shape);
    free(st->pfx.raw);
    st->pfx.shape = st->pfx.raw = NULL;
    free(st->label);
    st->label = NULL;
    ns_buf_free(&st->scratch);
}

/* ====== Chrome traces ====== */

int ns__trace(ns__scan *st, const char *data, size_t len) {
    ns_why why = {"", 0};
    ns_report *r = ns_trace_report_new(data, len, st->name, st->ps.diag, &why);
    if (!r) {
        ns_diag_why(st->ps.diag, NS_DIAG_ERROR, st->name, &why, "");
        return -1;
    }
    ns__number(st, r);
    st->found++;
    if (st->sink(r, st->ctx) != 0) st->sc->stopped = 1;
    return 0;
}

/* ====== Public ====== */

void ns_scanner_init(ns_scanner *sc) { memset(sc, 0, sizeof *sc); }

int ns_scanner_set_label_regex(ns_scanner *sc, const char *re) {
    if (sc->has_label_re) regfree(&sc->label_re);
    sc->has_label_re = 0;
    const char *refusal = ns_regex_refusal(re);
    if (refusal) {
        ns_diag_say(&sc->diag, NS_DIAG_ERROR, NULL, 0, "--label-regex '%s': the regex %s", re,
                    refusal);
        return -1;
    }
    int rc = regcomp(&sc->label_re, re, REG_EXTENDED);
    if (rc != 0) {
        char msg[256];
        ns_regex_error(rc, &sc->label_re, msg, sizeof msg);
        ns_diag_say(&sc->diag, NS_DIAG_ERROR, NULL, 0, "--label-regex '%s': %s", re, msg);
        return -1;
    }
    sc->has_label_re = 1;
    return 0;
}

void ns_scanner_free(ns_scanner *sc) {
    if (sc->has_label_re) regfree(&sc->label_re);
    sc->has_label_re = 0;
}

/* Set up the scan of one input. */
void ns__scan_init(ns__scan *st, ns_scanner *sc, const char *name, ns_sink sink,
                          void *ctx) {
    memset(st, 0, sizeof *st);
    st->sc = sc;
    st->name = name;
    ns_group_init(&st->grp, sink, ctx);
    st->sink = ns_group_sink;
    st->ctx = &st->grp;
    st->hook = sc->hook;
    st->ps.diag = &sc->diag;
}

void ns_scan_number_late(ns_report *r, int base) {
    r->index += base;
    /* the report groups (parse/group.h) name reports by index too */
    if (r->group >= 0) r->group += base;
    if (r->parent >= 0) r->parent += base;
    if (!r->label) {
        char tmp[32];
        r->label = ns_strdup(ns__hash_label(tmp, r->index + 1));
    }
}

