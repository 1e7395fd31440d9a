/* scan_part.c -- the scans that do not read a whole input from its start
 * to its end in one go: parts of a regular file, scanned by threads
 * (parse/split.c), and pushed streams, scanned as a compile's output
 * arrives (capture).
 *
 * Both run the same line loop as a whole file (scan_line.c) over a reader
 * of their own -- a part over a window of the file read with pread() or
 * mapped, a stream over the pieces where they lie -- so that each finds
 * what a whole-file scan finds; what they add is where to start, where to
 * stop and how to hand on what they found (scan.h).
 */
#include "parse/scan_int.h"

#include <stdlib.h>
#include <string.h>

/* ====== Parts of a regular file (scan.h) ====== */

/* Bytes a part reads at a time past its upto (ns_scan_part_run). */
#define NS__PART_STEP (16u << 10)

/* The parts of a file (scan.h): the same reader and line loop as a whole
 * file's scan, over a window read with pread() from a given offset. */
ns_scan_part *ns_scan_part_new(ns_scanner *sc, int fd, const char *name, uint64_t size,
                               int group, ns_sink sink, void *ctx) {
    /* the noise skip's choice is made once, before parts run in threads */
    if (ns__simd < 0) ns_scan_simd(-1);
    ns_scan_part *p = ns_xcalloc(1, sizeof *p);
    ns__scan_init(&p->st, sc, name, sink, ctx);
    if (!group) { /* the caller groups what the parts found, in order */
        p->st.sink = sink;
        p->st.ctx = ctx;
    }
    ns__reader *rd = &p->rd;
    rd->fd = fd;
    rd->cap = NS__READ_CHUNK;
    rd->buf = ns_xmalloc(rd->cap);
    rd->name = name;
    rd->diag = &sc->diag;
    rd->part = 1;
    rd->size = rd->lim = size;
    return p;
}

void ns_scan_part_watch(ns_scan_part *p, ns_scan_turn turn, void *ctx) {
    p->turn = turn;
    p->turn_ctx = ctx;
}

int ns_scan_part_sniff(ns_scan_part *p, uint64_t *start) {
    ns__reader *rd = &p->rd;
    ns_scan_part_at(p, 0, 0);
    while (!rd->eof && rd->end < 4096) ns__fill(rd);
    if (ns__sniff(p->st.sc, rd)) return 1;
    *start = rd->start;
    return 0;
}

void ns_scan_part_map(ns_scan_part *p, const char *map) {
    ns__reader *rd = &p->rd;
    free(rd->buf);
    rd->buf = (char *)(uintptr_t)map; /* read only: nothing writes to buf */
    rd->cap = (size_t)rd->size;
    rd->mapped = 1;
}

void ns_scan_part_at(ns_scan_part *p, uint64_t from, long line) {
    ns__reader *rd = &p->rd;
    rd->start = rd->end = rd->mapped ? (size_t)from : 0;
    rd->off = from;
    rd->lim = rd->size;
    rd->lineno = line;
    rd->eof = rd->paused = rd->skipping = 0;
    p->halt_at = 0;
    p->halted = 0;
}

/* The lines the reader has up to its lim: how the loop stopped. */
static int ns__part_lines(ns_scan_part *p) {
    ns_scanner *sc = p->st.sc;
    ns__reader *rd = &p->rd;
    rd->paused = 0;
    sc->part = p;
    ns__scan_lines(&p->st, rd);
    sc->part = NULL;
    if (sc->stopped) return NS_PART_STOPPED;
    if (p->halted || rd->paused) return NS_PART_IDLE;
    ns__end(&p->st, rd->lineno);
    p->ended = 1;
    return sc->stopped ? NS_PART_STOPPED : NS_PART_ENDED;
}

int ns_scan_part_run(ns_scan_part *p, uint64_t upto) {
    ns__reader *rd = &p->rd;
    if (p->ended) return NS_PART_ENDED;
    rd->lim = upto < rd->size ? upto : rd->size;
    p->halt_at = 0;
    p->halted = 0;
    int rc = ns__part_lines(p);
    p->upto_line = rd->lineno;
    if (rc != NS_PART_IDLE || (p->st.state == NS__IDLE && !rd->skipping)) return rc;
    /* inside a report at upto: on to its end, reading a little at a time
     * (a report's tail is short; the next part reads what follows) */
    p->halt_at = upto;
    for (;;) {
        rd->lim = rd->size - rd->lim > NS__PART_STEP ? rd->lim + NS__PART_STEP : rd->size;
        rc = ns__part_lines(p);
        if (rc != NS_PART_IDLE || p->halted) return rc;
    }
}

uint64_t ns_scan_part_pos(const ns_scan_part *p) { return ns__part_pos(&p->rd); }
long ns_scan_part_line(const ns_scan_part *p) { return p->rd.lineno; }
long ns_scan_part_upto_line(const ns_scan_part *p) { return p->upto_line; }
uint64_t ns_scan_part_line_at(const ns_scan_part *p) {
    return p->rd.off - (p->rd.end - p->rd.last);
}

void ns_scan_part_hand_on(ns_scan_part *p, ns_report *r) {
    ns_scanner *sc = p->st.sc;
    r->index = sc->next_index++;
    if (!r->label && !sc->number_late) {
        char tmp[32];
        r->label = ns_strdup(ns__hash_label(tmp, r->index + 1));
    }
    p->st.found++;
    ns__emit(&p->st, r);
}

void ns_scan_part_last_line(ns_scan_part *p, uint64_t from, long line) {
    ns__reader *rd = &p->rd;
    const char *s;
    size_t n;
    ns_scan_part_at(p, from, line - 1);
    if (!ns__getline(rd, &s, &n)) return;
    size_t cn = n;
    int has_nul;
    const char *c = ns__clean(s, &cn, rd->marks, &p->st.scratch, &has_nul);
    p->st.here = p->st.window = NULL; /* a line alone: nothing before it to count */
    ns__line(&p->st, c, cn, rd->lineno, has_nul);
}

int ns_scan_part_free(ns_scan_part *p) {
    if (!p) return 0;
    if (!p->ended) ns__end(&p->st, p->rd.lineno);
    if (p->st.sink == ns_group_sink && ns_group_end(&p->st.grp)) p->st.sc->stopped = 1;
    int found = p->rd.io_error ? -1 : p->st.found;
    if (!p->rd.mapped) free(p->rd.buf);
    free(p);
    return found;
}

/* ====== Pushed streams ======
 * A compile's output arrives in pieces while it runs (capture.c's drain),
 * and is scanned as it arrives, so nothing is read again after the compile
 * ends.  The same line loop runs over each piece where it lies; only the
 * line a piece cuts is copied, into the stream's own buffer, and finished
 * there by the next piece.  Until 4096 bytes (or the end) have come, they
 * are kept to tell a trace document from a log; a trace is one JSON
 * document and is kept whole, as ns_scan_path does. */

typedef enum {
    NS__SNIFFING, /* the first bytes, not yet told apart */
    NS__LOG,      /* lines: scanned as they come */
    NS__TRACE,    /* a trace document: kept until the end */
} ns__stream_kind;

struct ns_scan_stream {
    ns__scan st;          /* the scan of this input */
    ns__reader rd;        /* its own buffer: the first bytes, a trace, or the cut line */
    ns__stream_kind kind; /* what the input turned out to be */
    char *name;           /* the input's name (st and rd point here) */
};

/* Append bytes to the stream's own buffer (moving what is unread to its
 * start first). */
static void ns__own_add(ns__reader *rd, const char *p, size_t n) {
    if (rd->start > 0) {
        memmove(rd->buf, rd->buf + rd->start, rd->end - rd->start);
        rd->end -= rd->start;
        rd->start = 0;
    }
    if (rd->cap - rd->end < n + 1) {
        while (rd->cap - rd->end < n + 1) rd->cap = rd->cap ? rd->cap * 2 : 4096;
        rd->buf = ns_xrealloc(rd->buf, rd->cap);
    }
    memcpy(rd->buf + rd->end, p, n);
    rd->end += n;
}

ns_scan_stream *ns_scan_stream_new(ns_scanner *sc, const char *name, ns_sink sink, void *ctx) {
    ns_scan_stream *ss = ns_xcalloc(1, sizeof *ss);
    ss->name = ns_strdup(name);
    ns__scan_init(&ss->st, sc, ss->name, sink, ctx);
    ss->rd.fd = -1;
    ss->rd.push = 1;
    ss->rd.name = ss->name;
    ss->rd.diag = &sc->diag;
    ss->kind = NS__SNIFFING;
    return ss;
}

/* The lines in a piece, scanned where they lie (rd borrows the piece);
 * what the last line leaves uncut goes to the own buffer. */
static void ns__scan_piece(ns_scan_stream *ss, const char *buf, size_t n) {
    ns__reader *rd = &ss->rd;
    char *own = rd->buf;
    size_t cap = rd->cap;
    /* read only: the reader never writes to its window */
    memcpy(&rd->buf, &buf, sizeof buf);
    rd->start = 0;
    rd->end = rd->cap = n;
    ns__scan_lines(&ss->st, rd);
    size_t left = rd->end - rd->start, at = rd->start;
    rd->buf = own;
    rd->cap = cap;
    rd->start = rd->end = 0;
    if (left && !ss->st.sc->stopped) ns__own_add(rd, buf + at, left);
}

void ns_scan_stream_feed(ns_scan_stream *ss, const char *buf, size_t n) {
    ns__reader *rd = &ss->rd;
    if (!n || ss->st.sc->stopped) return; /* the sink wants no more */
    if (ss->kind != NS__LOG) {
        ns__own_add(rd, buf, n);
        if (ss->kind == NS__TRACE || rd->end < 4096) return;
        ss->kind = ns__sniff(ss->st.sc, rd) ? NS__TRACE : NS__LOG;
        if (ss->kind == NS__LOG) ns__scan_lines(&ss->st, rd);
        return;
    }
    /* the line the last piece cut: finished here, up to its newline */
    if (rd->skipping || rd->start < rd->end) {
        const char *nl = memchr(buf, '\n', n);
        size_t head = nl ? (size_t)(nl + 1 - buf) : n;
        if (rd->skipping) { /* an over-long line's rest is dropped */
            if (!nl) return;
            rd->skipping = 0;
            rd->start = rd->end = 0;
        } else {
            ns__own_add(rd, buf, head);
            /* no newline yet: nothing to scan until the line is too long */
            if (!nl && rd->end - rd->start < NS_LINE_MAX) return;
            ns__scan_lines(&ss->st, rd);
        }
        buf += head;
        n -= head;
        if (!n || ss->st.sc->stopped) return;
        if (rd->start < rd->end) { /* not all scanned (cannot happen): keep the order */
            ns__own_add(rd, buf, n);
            return;
        }
        rd->start = rd->end = 0;
    }
    ns__scan_piece(ss, buf, n);
}

int ns_scan_stream_end(ns_scan_stream *ss) {
    if (!ss) return 0;
    ns__reader *rd = &ss->rd;
    rd->eof = 1;
    if (ss->kind == NS__SNIFFING) {
        if (!rd->buf) ns__own_add(rd, "", 0); /* an empty input */
        ss->kind = ns__sniff(ss->st.sc, rd) ? NS__TRACE : NS__LOG;
    }
    if (ss->kind == NS__TRACE) {
        ns__trace_doc(&ss->st, rd);
    } else {
        ns__scan_lines(&ss->st, rd);
        ns__end(&ss->st, rd->lineno);
    }
    if (ns_group_end(&ss->st.grp)) ss->st.sc->stopped = 1;
    int found = ss->st.found;
    free(rd->buf);
    free(ss->name);
    free(ss);
    return found;
}
