/* scan_line.c -- reading lines: where a line ends, cleaning it, and the
 * line loop every input runs.
 *
 * The reader (scan_int.h) holds a window of the input; this file cuts it
 * into lines (a '\n' ends one, found with the same vector loops as the
 * skip; an over-long line is cut at NS_LINE_MAX with a warning), cleans
 * each (a trailing CR, ANSI escapes) and hands it to the state machine
 * (scan.c), after letting the skip (scan_skip.c) jump over the noise
 * between reports.  The loop serves a whole file or buffer (here), a part
 * of a file and a pushed stream (scan_part.c) alike, which is why the
 * split, mapped and streamed scans find the same reports.  The loop, the
 * line reader and the cleaner stay in this one file: they run for every
 * line inside a report, and the build has no link-time inlining.
 */
#include "parse/scan_int.h"

#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

/* ====== Finding a line's end ======
 * Inside a report every line needs three answers: where it ends, whether
 * it holds an escape byte (it must be cleaned) and whether it holds a NUL
 * (it cannot be a row: names are C strings).  Three memchr calls per line
 * were 5% of the time on a report-dense log; one pass gives all three:
 * per block the newline mask and the mask of bytes that are 0x1b or 0,
 * and only a line that has one of those before its newline is looked at
 * again to tell which.  The last block is read overlapping the one before
 * it (nothing past the buffer's valid bytes is read); a buffer shorter
 * than one block goes to memchr.  The level is the noise skip's
 * (ns__simd, below), so that the tests run each. */

/* The marks of s[0..n), the plain way. */
static unsigned ns__marks_of(const char *s, size_t n) {
    return (memchr(s, 0x1b, n) ? NS__HAS_ESC : 0u) | (memchr(s, 0, n) ? NS__HAS_NUL : 0u);
}

/* Offset of the first '\n' in s[0..avail), or avail; *marks: those of
 * the bytes before it. */
static size_t ns__line_end_plain(const char *s, size_t avail, unsigned *marks) {
    const char *nl = memchr(s, '\n', avail);
    size_t n = nl ? (size_t)(nl - s) : avail;
    *marks = ns__marks_of(s, n);
    return n;
}

/* The vector loop of one level: W-byte blocks, HITS(p) the bit mask of
 * the bytes at p that are '\n', 0x1b or 0.  The first hit ends the line
 * when it is a newline; an escape or a NUL before it sends the line the
 * plain way (rare: a coloured log's lines, binary junk). */
#define NS__LINE_END_BODY(W, HITS)                                                          \
    size_t at = 0;                                                                          \
    uint64_t h = 0;                                                                         \
    if (avail < W) return ns__line_end_plain(s, avail, marks);                              \
    for (; at + W <= avail; at += W)                                                        \
        if ((h = HITS(s + at)) != 0) break;                                                 \
    if (!h && at < avail) /* the last block, read overlapping the one before */             \
        h = HITS(s + avail - W) >> (at - (avail - W));                                      \
    if (!h) {                                                                               \
        *marks = 0;                                                                         \
        return avail;                                                                       \
    }                                                                                       \
    at += (size_t)__builtin_ctzll(h);                                                       \
    if (s[at] != '\n') return ns__line_end_plain(s, avail, marks);                          \
    *marks = 0;                                                                             \
    return at;

#if defined(__SSE2__)
static inline uint64_t ns__hits_sse2(const char *p) {
    const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    return (uint64_t)(unsigned)_mm_movemask_epi8(
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                                  _mm_cmpeq_epi8(v, _mm_set1_epi8(0x1b))),
                     _mm_cmpeq_epi8(v, _mm_setzero_si128())));
}

static size_t ns__line_end_sse2(const char *s, size_t avail, unsigned *marks) {
    NS__LINE_END_BODY(16, ns__hits_sse2)
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* The three bytes by their low nibble: a byte is one of them when the
 * table's entry for its low nibble is the byte itself (a byte with its
 * high bit set looks up 0, and 0 is only itself). */
__attribute__((target("avx2"))) static inline uint64_t ns__hits_avx2(const char *p) {
    const __m256i tab = _mm256_setr_epi8(0, -1, -1, -1, -1, -1, -1, -1, -1, -1, '\n', 0x1b, -1, -1,
                                         -1, -1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, '\n', 0x1b,
                                         -1, -1, -1, -1);
    const __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(tab, v), v));
}

__attribute__((target("avx2"))) static size_t ns__line_end_avx2(const char *s, size_t avail,
                                                                unsigned *marks) {
    NS__LINE_END_BODY(32, ns__hits_avx2)
}
#endif
#endif
#undef NS__LINE_END_BODY

static size_t ns__line_end(const char *s, size_t avail, unsigned *marks) {
    if (ns__simd < 0) ns_scan_simd(-1);
    switch (ns__simd) {
#if defined(__SSE2__)
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    case NS_SIMD_AVX512: /* as AVX2 but for the sieve */
    case NS_SIMD_AVX2: return ns__line_end_avx2(s, avail, marks);
#endif
    case NS_SIMD_SSE2: return ns__line_end_sse2(s, avail, marks);
#endif
    default: return ns__line_end_plain(s, avail, marks);
    }
}

/* Next line without its '\n'; returns 0 at the end of input. */
int ns__getline(ns__reader *rd, const char **line, size_t *len) {
    for (;;) {
        char *s = rd->buf + rd->start;
        size_t avail = rd->end - rd->start;
        if (rd->skipping) {
            char *nl = avail ? memchr(s, '\n', avail) : NULL;
            if (nl) {
                rd->start = (size_t)(nl + 1 - rd->buf);
                rd->skipping = 0;
                continue;
            }
            /* all of it dropped (a mapping is not rewound) */
            if (rd->mapped) rd->start = rd->end;
            else rd->start = rd->end = 0;
            if (rd->eof || rd->push) return 0;
            ns__fill(rd);
            if (rd->paused) return 0;
            continue;
        }
        unsigned marks = 0;
        size_t to = avail ? ns__line_end(s, avail, &marks) : 0;
        int nl = to < avail;
        if (nl || (rd->eof && avail)) {
            *line = s;
            *len = to;
            rd->marks = marks;
            rd->last = rd->start;
            rd->start += *len + (nl ? 1 : 0);
            rd->lineno++;
            return 1;
        }
        if (rd->eof) return 0;
        if (avail >= NS_LINE_MAX) {
            rd->lineno++;
            ns_diag_say(rd->diag, NS_DIAG_WARNING, rd->name, rd->lineno,
                        "line longer than %u MiB; the rest of it is skipped", NS_LINE_MAX >> 20);
            *line = s;
            *len = avail;
            rd->marks = marks;
            rd->last = rd->start;
            rd->start = rd->end;
            rd->skipping = 1;
            return 1;
        }
        if (rd->push) return 0; /* the rest of the line comes with the next piece */
        ns__fill(rd);
        if (rd->paused) return 0; /* a part waits for its next upto */
    }
}

/* ====== Line cleaning ====== */

/* Drop a trailing '\r' and ANSI escape sequences.  marks are the line's
 * (ns__line_end: an escape byte, a NUL).  Returns the clean line, in
 * `scratch` when something had to be removed; *has_nul: the clean line
 * holds a NUL byte. */
const char *ns__clean(const char *s, size_t *n, unsigned marks, ns_buf *scratch,
                             int *has_nul) {
    if (*n && s[*n - 1] == '\r') (*n)--;
    *has_nul = (marks & NS__HAS_NUL) != 0;
    if (!(marks & NS__HAS_ESC)) return s;
    scratch->len = 0;
    ns_buf_grow(scratch, *n);
    for (size_t i = 0; i < *n; i++) {
        if (s[i] != 0x1b) {
            scratch->data[scratch->len++] = s[i];
            continue;
        }
        if (i + 1 < *n && s[i + 1] == '[') { /* CSI: params, intermediates, final */
            i += 2;
            while (i < *n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] <= 0x3f) i++;
            /* s[i] is the final byte (0x40-0x7e), skipped by the loop */
        } else if (i + 1 < *n) {
            i++; /* two-byte escape */
        }
    }
    scratch->data[scratch->len] = 0;
    *n = scratch->len;
    /* an escape takes the byte after it, a NUL too */
    if (*has_nul) *has_nul = memchr(scratch->data, 0, *n) != NULL;
    return scratch->data;
}

/* Look at the first bytes (all of them, or 4096) to tell a trace document
 * from a log.  A UTF-8 byte order mark (editors on Windows write one) is
 * skipped.  Returns 1 for a trace; for a log, rd->start is past the mark. */
int ns__sniff(ns_scanner *sc, ns__reader *rd) {
    size_t bom = rd->end >= 3 && memcmp(rd->buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    if (ns_trace_sniff(rd->buf + bom, rd->end - bom)) return 1;
    rd->start = bom;
    sc->bytes += bom;
    return 0;
}

/* A whole trace document, in rd from its start. */
void ns__trace_doc(ns__scan *st, ns__reader *rd) {
    size_t bom = rd->end >= 3 && memcmp(rd->buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    st->sc->bytes += rd->end;
    /* a trace that cannot be read as one has said why; like a log
     * without a report it yields nothing (exit 1, docs/formats.md):
     * exit 2 is for inputs that cannot be opened or read at all */
    ns__trace(st, rd->buf + bom, rd->end - bom);
}

/* After each line a part's scan looks at: did it leave or reach idle, and
 * may it halt there? */
static void ns__part_watch(ns_scan_part *p, const ns__scan *st, const ns__reader *rd,
                           ns__state was) {
    int idle = st->state == NS__IDLE;
    if (p->turn && idle != (was == NS__IDLE)) p->turn(p->turn_ctx, rd->lineno, idle);
    if (p->halt_at && idle && !rd->skipping && ns__part_pos(rd) >= p->halt_at) p->halted = 1;
}

/* Every complete line in the reader (and, at its end, the last one): the
 * loop both the file scan and the pushed stream run.  Labels and a hook's
 * lines need every line; otherwise runs of noise are skipped -- with a
 * hook that names the texts it needs, the noise that holds none. */
void ns__scan_lines(ns__scan *st, ns__reader *rd) {
    ns_scanner *sc = st->sc;
    const char *s;
    size_t n;
    int fast = !sc->has_label_re && !(sc->hook && sc->hook->line);
    /* a hook that says which texts its lines need: noise that holds none */
    int sieve = !sc->has_label_re && !fast && sc->hook->needles;
    for (;;) {
        if ((fast || sieve) && st->state == NS__IDLE) {
            size_t before = rd->start;
            sc->lines += fast ? ns__skip_noise(rd) : ns__skip_sieve(rd, sc->hook);
            sc->bytes += rd->start - before;
        }
        if (sc->stopped || (sc->part && sc->part->halted) || !ns__getline(rd, &s, &n)) break;
        sc->bytes += n + 1;
        sc->lines++;
        if (fast && st->state == NS__IDLE && ns__boring(s, n)) continue;
        size_t cn = n;
        int has_nul;
        const char *c = ns__clean(s, &cn, rd->marks, &st->scratch, &has_nul);
        ns__state was = st->state;
        st->here = s;
        st->window = rd->buf + (rd->mapped ? rd->given_back : 0);
        st->window_cut = rd->mapped && rd->given_back > 0;
        ns__line(st, c, cn, rd->lineno, has_nul);
        if (sc->part) ns__part_watch(sc->part, st, rd, was);
    }
}

static int ns__scan_reader(ns_scanner *sc, ns__reader *rd, ns_sink sink, void *ctx) {
    ns__scan st;
    ns__scan_init(&st, sc, rd->name, sink, ctx);
    while (!rd->eof && rd->end < 4096) ns__fill(rd);
    if (ns__sniff(sc, rd)) {
        while (!rd->eof) ns__fill(rd);
        if (rd->io_error) return -1;
        ns__trace_doc(&st, rd);
        if (ns_group_end(&st.grp)) sc->stopped = 1;
        return st.found;
    }
    ns__scan_lines(&st, rd);
    ns__end(&st, rd->lineno);
    if (ns_group_end(&st.grp)) sc->stopped = 1;
    if (rd->io_error) return -1;
    return st.found;
}

int ns_scan_path(ns_scanner *sc, const char *path, ns_sink sink, void *ctx) {
    ns__reader rd;
    if (ns__reader_open(&rd, path, &sc->diag) != 0) return -1;
    int rc = ns__scan_reader(sc, &rd, sink, ctx);
    ns__reader_close(&rd, path);
    return rc;
}

int ns_scan_buffer(ns_scanner *sc, const char *name, const char *data,
                   size_t len, ns_sink sink, void *ctx) {
    ns__reader rd;
    memset(&rd, 0, sizeof rd);
    rd.fd = -1;
    rd.cap = len + 1;
    rd.buf = ns_xmalloc(rd.cap);
    memcpy(rd.buf, data, len);
    rd.end = len;
    rd.eof = 1;
    rd.name = name;
    rd.diag = &sc->diag;
    int rc = ns__scan_reader(sc, &rd, sink, ctx);
    free(rd.buf);
    return rc;
}

