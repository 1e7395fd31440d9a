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
 */
#include "parse/scan.h"
#include "parse/group.h"

#include "base/regex_guard.h"
#include "parse/parse.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

/* ====== Line reader ====== */

typedef struct {
    int fd;              /* input, or -1 for an in-memory buffer */
    char *buf;           /* window of the input */
    size_t cap;          /* bytes allocated in buf */
    size_t start;        /* first unread byte in buf */
    size_t end;          /* end of valid bytes in buf */
    int eof;             /* no more bytes to read */
    int skipping;        /* discarding the rest of an over-long line */
    long lineno;         /* number of the line last returned */
    const char *name;    /* input name for messages */
    const ns_diag *diag; /* where they go (the scanner's sink) */
    int io_error;        /* a read failed */
    int push;            /* bytes are pushed in (ns_scan_stream): a line not yet
                          * complete waits for the next piece, not for read() */
    int part;            /* a part of a regular file (scan.h): read with pread()
                          * at off, up to lim */
    int paused;          /* part: the reads reached lim before the file's end */
    uint64_t off;        /* part: file offset of the next read */
    uint64_t lim;        /* part: reads stop here */
    uint64_t size;       /* part: the file's size (reading up to it is the end) */
    size_t last;         /* offset in buf of the line last returned */
    unsigned marks;      /* NS__HAS_* of the line last returned */
    int mapped;          /* buf is the file itself, mapped (below): cap is its
                          * size, and a "read" moves end, copying nothing */
    size_t given_back;   /* the pages before this offset are unmapped */
} ns__reader;

/* Bytes asked of read() at a time.  Between reports the scan runs near
 * memory speed, so the cost of each read() call shows: with 8 KiB chunks
 * a quarter of the time over a 1 GB log went to them.  256 KiB still
 * stays in the L2 cache of most CPUs. */
#define NS__READ_CHUNK (256u << 10)

/* NPUSCOPE_NO_MMAP=1: every file read with read() (the tests compare the
 * two ways) */
static int ns__no_map(void) {
    const char *v = getenv("NPUSCOPE_NO_MMAP");
    return v && *v && strcmp(v, "0") != 0;
}

/* ====== Mapped files ======
 * A regular file is read through a mapping, not read(): the kernel's copy
 * of every byte into a buffer was a quarter of the time of a log's scan
 * (23% of `top` on an NPU log, `perf record`), and the lines are looked at
 * where they lie.  What the scan sees is what reads would give it: the
 * window grows a MiB at a time to at most NS_LINE_MAX bytes past the
 * first unread byte, so a line is cut where read() cuts it (at
 * NS_LINE_MAX, with the same warning), and the pages already read are
 * unmapped as the window moves on, so the resident set stays at a few
 * MiB, not the file.  A file that
 * shrinks while it is mapped would fault (SIGBUS) past its new end: the
 * scan names the file in ns_scan_mapped_name while it reads one, for a
 * handler that says so and exits (cli/cli.c).  If the mapping cannot be
 * made, the file is read as a pipe is. */
/* How far ahead the vector loops prefetch: a page, since mapped pages
 * start cold and the hardware prefetcher stops at each page's end
 * (measured: 1 and 2 KiB no better, 8 and 16 KiB worse) */
#define NS__PREFETCH 4096
#define NS__MAP_STEP (1u << 20)   /* bytes a "read" adds to the window */
#define NS__GIVE_BACK (4u << 20)  /* bytes read between two munmap() calls */

static const char *volatile ns__mapped_name; /* the file being read mapped, or NULL */

const char *ns_scan_mapped_name(void) { return ns__mapped_name; }

/* Map the regular file fd of `size` bytes for rd; 0, or -1 (then rd is
 * as it was, and the file is read with read()).  The vector loops may load
 * a few bytes past the end (never more than NS__MAP_SLACK): the rest of
 * the file's last page is zeros, but a page past it would fault, so a
 * file that ends within NS__MAP_SLACK bytes of a page's end is read. */
#define NS__MAP_SLACK 128

/* The mapping of regular file fd of `size` bytes, or NULL (read it). */
static char *ns__map_file(int fd, uint64_t size) {
    long pg = sysconf(_SC_PAGESIZE);
    if (pg <= 0 || size == 0 || size > SIZE_MAX / 2 || ns__no_map()) return NULL;
    size_t tail = (size_t)(size % (uint64_t)pg);
    if (tail == 0 || tail > (size_t)pg - NS__MAP_SLACK) return NULL;
    void *at = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (at == MAP_FAILED) return NULL;
    posix_madvise(at, (size_t)size, POSIX_MADV_SEQUENTIAL); /* read ahead far; a hint */
    return at;
}

static int ns__map(ns__reader *rd, int fd, size_t size) {
    char *at = ns__map_file(fd, size);
    if (!at) return -1;
    rd->buf = at;
    rd->cap = size; /* the whole file is the buffer */
    rd->mapped = 1;
    return 0;
}

static void ns__unmap(ns__reader *rd) {
    munmap(rd->buf + rd->given_back, rd->cap - rd->given_back);
    rd->buf = NULL;
    rd->mapped = 0;
}

const char *ns_scan_map(int fd, uint64_t size, const char *name) {
    char *at = ns__map_file(fd, size);
    if (at) ns__mapped_name = name;
    return at;
}

void ns_scan_unmap(const char *map, uint64_t size, uint64_t from, uint64_t to) {
    long pg = sysconf(_SC_PAGESIZE);
    if (!map || pg <= 0) return;
    uint64_t a = (from + (uint64_t)pg - 1) / (uint64_t)pg * (uint64_t)pg;
    uint64_t b = to >= size ? size : to / (uint64_t)pg * (uint64_t)pg;
    if (b > a) munmap((char *)(uintptr_t)map + a, (size_t)(b - a));
    if (from == 0 && to >= size) ns__mapped_name = NULL;
}

/* The mapped file's next "read": the window NS__MAP_STEP further, but not
 * past NS_LINE_MAX bytes from rd->start (where a read() fill stops, so a
 * long line is cut at the same byte), nor past the end; eof when there is
 * no more.  Then the pages well before the last line returned are
 * unmapped: a read() fill moves everything before rd->start away, so
 * nothing points there after one (a margin of NS__MAP_STEP all the same). */
static int ns__fill_mapped(ns__reader *rd) {
    /* a part (scan.h) of a mapped file reads up to its lim, as pread() */
    size_t size = rd->part ? (size_t)rd->lim : rd->cap;
    if (rd->end >= size) {
        if (rd->part && rd->lim < rd->size) rd->paused = 1;
        else rd->eof = 1;
        return 0;
    }
    size_t to = size - rd->end > NS__MAP_STEP ? rd->end + NS__MAP_STEP : size;
    if (to - rd->start > NS_LINE_MAX && rd->end - rd->start < NS_LINE_MAX)
        to = rd->start + NS_LINE_MAX; /* else a reader of all of it: a trace */
    rd->end = to;
    rd->off = to; /* buf is the file from its start: a part's offsets hold */
    if (rd->part) return 0; /* the mapping is shared: its owner unmaps */
    size_t keep = rd->last < rd->start ? rd->last : rd->start;
    if (keep - rd->given_back >= NS__GIVE_BACK + NS__MAP_STEP) {
        long pg = sysconf(_SC_PAGESIZE);
        size_t upto = (keep - NS__MAP_STEP) / (size_t)pg * (size_t)pg;
        if (munmap(rd->buf + rd->given_back, upto - rd->given_back) == 0) rd->given_back = upto;
    }
    return 0;
}

static int ns__fill(ns__reader *rd) {
    if (rd->mapped) return ns__fill_mapped(rd);
    if (rd->fd < 0) {
        rd->eof = 1;
        return 0;
    }
    if (rd->start > 0) {
        memmove(rd->buf, rd->buf + rd->start, rd->end - rd->start);
        rd->end -= rd->start;
        rd->start = 0;
    }
    if (rd->end == rd->cap) {
        rd->cap *= 2;
        rd->buf = ns_xrealloc(rd->buf, rd->cap);
    }
    size_t want = rd->cap - rd->end;
    if (rd->part) {
        /* a part reads its window as read() would, but stops at lim: the
         * same buffer sizes, so an over-long line is cut where it is in a
         * whole-file scan (at NS_LINE_MAX bytes) */
        if (rd->off >= rd->lim) {
            if (rd->lim >= rd->size) rd->eof = 1;
            else rd->paused = 1;
            return 0;
        }
        if (want > rd->lim - rd->off) want = (size_t)(rd->lim - rd->off);
    }
    for (;;) {
        ssize_t n = rd->part ? pread(rd->fd, rd->buf + rd->end, want, (off_t)rd->off)
                             : read(rd->fd, rd->buf + rd->end, want);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            ns_diag_say(rd->diag, NS_DIAG_ERROR, rd->name, 0, "read error: %s",
                        strerror(errno));
            rd->io_error = 1;
            rd->eof = 1;
            return -1;
        }
        if (n == 0) rd->eof = 1;
        rd->end += (size_t)n;
        rd->off += (uint64_t)n;
        return 0;
    }
}

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
enum {
    NS__HAS_ESC = 1, /* a 0x1b byte */
    NS__HAS_NUL = 2, /* a 0 byte */
};

static int ns__simd; /* NS_SIMD_* in use, -1 until chosen (defined below) */

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
static int ns__getline(ns__reader *rd, const char **line, size_t *len) {
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

/* ====== Skipping lines between reports ======
 * Most of an NPU log is INFO noise between reports, and a line between
 * reports matters only if a report may start on it: a banner ends in "==="
 * and an MLIR JSON report starts with a line "[" (either possibly behind a
 * log prefix, and possibly followed by blanks, a CR or a colour reset).  So
 * the last significant character decides, and a noise line costs one newline
 * search and a few compares -- no pass over its bytes. */
/* Bytes that, last on a line, make it worth a closer look. */
static const unsigned char ns__end_byte[256] = {
    ['['] = 1, ['='] = 1, ['m'] = 1, [' '] = 1, ['\t'] = 1, ['\r'] = 1};

static int ns__boring(const char *s, size_t n) {
    if (!n || !ns__end_byte[(unsigned char)s[n - 1]]) return 1;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
    if (!n) return 1;
    char last = s[n - 1];
    if (last == '[' || last == '=') return 0;
    /* "...===\033[0m": a colour code at the end hides the real last byte */
    if (last == 'm' && memchr(s, 0x1b, n)) return 0;
    return 1;
}

/* Skipping noise, many lines at a time.  The whole lines from rd->start
 * that ns__boring would drop one by one are skipped by finding newlines 64
 * bytes at a time and looking only at the byte before each: a line needs
 * a closer look when that byte is '[', '=', 'm', a blank, a tab or a CR.
 * The skip stops before the first such line, or where fewer than 64 bytes
 * are buffered.  Three implementations, the best the CPU has chosen at the
 * first call: AVX2 (two 32-byte compares per block; chosen at run time, so
 * the binary still runs on any x86-64), SSE2 (four 16-byte compares), and
 * none (every line takes the ordinary path).  ns_scan_simd picks one by
 * hand, so that the tests run each. */

static int ns__simd = -1; /* NS_SIMD_* in use; -1 until chosen (declared above) */

#if defined(__SSE2__)
/* The lines ending in the block at `at`, from its newline mask: skipped
 * up to the first that needs a look.  Returns 1 when the skip stops. */
__attribute__((always_inline)) static inline int ns__skip_block(const char *buf, size_t at,
                                                                 uint64_t nl, size_t lim,
                                                                 size_t *line_start, long *lines) {
    for (; nl; nl &= nl - 1) {
        size_t end = at + (size_t)__builtin_ctzll(nl);
        /* a '\n' at offset 0 ends an empty line: the buffer starts at a
         * line start */
        if (end >= lim || (end > 0 && ns__end_byte[(unsigned char)buf[end - 1]])) return 1;
        (*lines)++;
        *line_start = end + 1;
    }
    return 0;
}

static size_t ns__skip_sse2(const ns__reader *rd, size_t lim, long *lines) {
    const __m128i nlv = _mm_set1_epi8('\n');
    const char *buf = rd->buf;
    size_t line_start = rd->start, end = rd->end;
    long n = 0;
    for (size_t at = rd->start; at + 64 <= end && at < lim; at += 64) {
        const char *p = buf + at;
        uint64_t nl = 0;
        for (int i = 0; i < 4; i++) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i));
            nl |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, nlv)) << (16 * i);
        }
        if (ns__skip_block(buf, at, nl, lim, &line_start, &n)) break;
    }
    *lines = n;
    return line_start;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NS__HAVE_AVX2 1
#define NS__L256(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
__attribute__((target("avx2"))) static size_t ns__skip_avx2(const ns__reader *rd, size_t lim,
                                                            long *lines) {
    const __m256i nlv = _mm256_set1_epi8('\n');
    const char *buf = rd->buf;
    size_t line_start = rd->start, end = rd->end;
    long n = 0;
    for (size_t at = rd->start; at + 64 <= end && at < lim; at += 64) {
        const char *p = buf + at;
        __builtin_prefetch(p + NS__PREFETCH);
        __m256i lo = NS__L256(p), hi = NS__L256(p + 32);
        uint64_t nl = (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, nlv)) |
                      (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, nlv))
                          << 32;
        if (ns__skip_block(buf, at, nl, lim, &line_start, &n)) break;
    }
    *lines = n;
    return line_start;
}
#endif
#endif

int ns_simd_best(void) {
    int best = NS_SIMD_NONE;
#if defined(__SSE2__)
    best = NS_SIMD_SSE2;
#if defined(NS__HAVE_AVX2)
    if (__builtin_cpu_supports("avx2")) best = NS_SIMD_AVX2;
    if (best == NS_SIMD_AVX2 && __builtin_cpu_supports("avx512bw")) best = NS_SIMD_AVX512;
#endif
#endif
    return best;
}

int ns_scan_simd(int want) {
    int best = ns_simd_best();
    ns__simd = want < 0 || want > best ? best : want;
    return ns__simd;
}

/* The whole lines from rd->start whose newline comes before lim and that
 * ns__boring would drop, skipped.  Returns the lines skipped. */
static long ns__skip_lines(ns__reader *rd, size_t lim) {
    long lines = 0;
    size_t to = rd->start;
    if (ns__simd < 0) ns_scan_simd(-1);
    switch (ns__simd) {
#if defined(NS__HAVE_AVX2)
    case NS_SIMD_AVX512: /* as AVX2 but for the sieve */
    case NS_SIMD_AVX2: to = ns__skip_avx2(rd, lim, &lines); break;
#endif
#if defined(__SSE2__)
    case NS_SIMD_SSE2: to = ns__skip_sse2(rd, lim, &lines); break;
#endif
    default: (void)lim; break; /* NS_SIMD_NONE: line by line */
    }
    rd->start = to;
    rd->lineno += lines;
    return lines;
}

static long ns__skip_noise(ns__reader *rd) { return ns__skip_lines(rd, rd->end); }

/* Skipping past a hook's texts.  A hook whose line callback looks only for
 * a few fixed texts says which (ns_scan_hook.needles), and a line that
 * holds none of them is nothing to it: such a line is skipped as if there
 * were no hook, when the byte before its newline allows.  The texts are
 * searched for in the buffer, not line by line (ns_needles_next: three
 * head bytes at 32 or 16 positions at once, each candidate then checked),
 * up to the first place one begins; the lines before the line that holds
 * it go as noise, and that line, like every line the skip stops at, takes
 * the ordinary path (the hook sees it cleaned and decides).  A text
 * cannot cross a line's end (no needle holds a newline) nor the buffer's
 * (only whole lines before the place found are skipped; the line it cuts
 * is read the ordinary way).
 * What the hook sees is the line cleaned (parse/scan.c, ns__clean) from
 * its last CR on: a part of the raw line, unless an ANSI escape was taken
 * out of the middle and joined a text -- so an escape byte stops the skip
 * too.  The search goes ahead NS__SIEVE_SPAN bytes at a time, so that a
 * line the skip stops at for its last byte does not make the rest of the
 * buffer searched again.  That is the two-pass way, left for a CPU with
 * SSE2 but no SSSE3; the others do both searches in one pass (below).
 * With NS_SIMD_NONE nothing is skipped (as for noise).  Returns the lines
 * skipped. */
#define NS__SIEVE_SPAN (16u << 10)

/* One pass.  The two searches above read the noise twice: the needle
 * search up to the first text, then the newline skip up to there, each
 * about as costly.  Where the CPU has byte shuffles (AVX2, or SSSE3
 * under the SSE2 code) both come from the same loads: per 64-byte block
 * the newline mask and the needles' head-candidate mask (the nibble
 * tables of base/needles.h for head bytes 0, 1 and 4 -- or 2 when a
 * needle is shorter than five -- the escape byte included).  A block
 * without candidates goes as the noise skip's does; at one with
 * candidates the vector loop returns, and they are checked in position
 * order (ns_needles_hit) outside it, so that the loop itself makes no
 * call (measured: no faster than the call inside, but the loop keeps its
 * constants in registers).  The first real one cuts the block: only the
 * lines whose newline comes before it are skipped (as the two passes
 * did, with lim at the text), and the skip stops in the line that holds
 * it.  A text that crosses a block's end is found, since the shifted
 * loads read up to four bytes past the block and the check reads the
 * buffer up to its end; one that the buffer's end cuts is not, and its
 * line, having no newline yet, is not skipped either.  The blocks stop
 * four bytes earlier than the noise skip's (the shifted loads), and the
 * rest is left to the ordinary path.  (AVX-512BW, one 64-byte vector a
 * block, was tried: no faster.) */
#if defined(__SSE2__)
/* Where a vector loop is: its block, and what it has skipped. */
typedef struct {
    size_t at;         /* the block to look at next (on a return of 1: the one with candidates) */
    size_t line_start; /* the first line not skipped */
    long lines;        /* lines skipped */
    uint64_t nl, cand; /* on a return of 1: that block's newline and candidate masks */
} ns__sieve_at;

/* The vector loop's body for block `at`, its masks nl and cand made: a
 * block with candidates hands them back, one without is skipped as noise
 * (a stop ends the loop). */
#define NS__SIEVE_STEP(st, at, nl, cand, line_start, n)                                    \
    if (cand) {                                                                            \
        st->at = at, st->nl = nl, st->cand = cand;                                         \
        st->line_start = line_start, st->lines = n;                                        \
        return 1;                                                                          \
    }                                                                                      \
    if (ns__skip_block(buf, at, nl, end, &line_start, &n)) break;

/* The loop's epilogue: no block with candidates before the skip stopped
 * or the buffer ran out. */
#define NS__SIEVE_DONE(st, line_start, n)                                                  \
    st->line_start = line_start, st->lines = n;                                            \
    return 0;

/* The candidate bits of W positions from vectors of the bytes at p, p+b1,
 * p+b2 (needles.c's NS__NEXT_BODY with other head bytes: needles.h,
 * ns_needles_skip_bytes; the escape byte included). */
#define NS__CAND(AND, SRLI, SHUF, CMPEQ, MOVEMASK, v0, v1, v2)                              \
    (~(uint32_t)MOVEMASK(CMPEQ(                                                            \
         AND(AND(AND(SHUF(lo0, AND(v0, nib)), SHUF(hi0, AND(SRLI(v0, 4), nib))),           \
                 AND(SHUF(lo1, AND(v1, nib)), SHUF(hi1, AND(SRLI(v1, 4), nib)))),          \
             AND(SHUF(lo2, AND(v2, nib)), SHUF(hi2, AND(SRLI(v2, 4), nib)))),              \
         zero)) |                                                                          \
     (uint32_t)MOVEMASK(CMPEQ(v0, escv)))

__attribute__((target("ssse3"))) static int ns__sieve_ssse3(const ns_needles *nd, const char *buf,
                                                            size_t end, ns__sieve_at *st) {
#define NS__L(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
    const __m128i nlv = _mm_set1_epi8('\n'), nib = _mm_set1_epi8(0x0f);
    const __m128i escv = _mm_set1_epi8(0x1b), zero = _mm_setzero_si128();
    const __m128i lo0 = NS__L(nd->lo[0]), hi0 = NS__L(nd->hi[0]);
    size_t b1, b2;
    ns_needles_skip_bytes(nd, &b1, &b2);
    const __m128i lo1 = NS__L(nd->lo[b1]), hi1 = NS__L(nd->hi[b1]);
    const __m128i lo2 = NS__L(nd->lo[b2]), hi2 = NS__L(nd->hi[b2]);
    size_t line_start = st->line_start;
    long n = st->lines;
    for (size_t at = st->at; at + 64 + b2 <= end; at += 64) {
        const char *p = buf + at;
        uint64_t nl = 0, cand = 0;
        for (int i = 0; i < 4; i++) {
            const char *q = p + 16 * i;
            __m128i v0 = NS__L(q), v1 = NS__L(q + b1), v2 = NS__L(q + b2);
            nl |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v0, nlv)) << (16 * i);
            cand |= (uint64_t)(NS__CAND(_mm_and_si128, _mm_srli_epi16, _mm_shuffle_epi8,
                                        _mm_cmpeq_epi8, _mm_movemask_epi8, v0, v1, v2) &
                               0xffffu)
                    << (16 * i);
        }
        NS__SIEVE_STEP(st, at, nl, cand, line_start, n)
    }
#undef NS__L
    NS__SIEVE_DONE(st, line_start, n)
}

#if defined(NS__HAVE_AVX2)
__attribute__((target("avx2"))) static int ns__sieve_avx2(const ns_needles *nd, const char *buf,
                                                          size_t end, ns__sieve_at *st) {
#define NS__L(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define NS__T(t) _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(t)))
    const __m256i nlv = _mm256_set1_epi8('\n'), nib = _mm256_set1_epi8(0x0f);
    const __m256i escv = _mm256_set1_epi8(0x1b), zero = _mm256_setzero_si256();
    const __m256i lo0 = NS__T(nd->lo[0]), hi0 = NS__T(nd->hi[0]);
    size_t b1, b2;
    ns_needles_skip_bytes(nd, &b1, &b2);
    const __m256i lo1 = NS__T(nd->lo[b1]), hi1 = NS__T(nd->hi[b1]);
    const __m256i lo2 = NS__T(nd->lo[b2]), hi2 = NS__T(nd->hi[b2]);
    size_t line_start = st->line_start;
    long n = st->lines;
    for (size_t at = st->at; at + 64 + b2 <= end; at += 64) {
        const char *p = buf + at;
        __builtin_prefetch(p + NS__PREFETCH);
        __m256i a0 = NS__L(p), a1 = NS__L(p + b1), a2 = NS__L(p + b2);
        __m256i c0 = NS__L(p + 32), c1 = NS__L(p + 32 + b1), c2 = NS__L(p + 32 + b2);
        uint64_t nl = (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a0, nlv)) |
                      (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(c0, nlv))
                          << 32;
        uint64_t cand =
            (uint64_t)NS__CAND(_mm256_and_si256, _mm256_srli_epi16, _mm256_shuffle_epi8,
                               _mm256_cmpeq_epi8, _mm256_movemask_epi8, a0, a1, a2) |
            (uint64_t)NS__CAND(_mm256_and_si256, _mm256_srli_epi16, _mm256_shuffle_epi8,
                               _mm256_cmpeq_epi8, _mm256_movemask_epi8, c0, c1, c2)
                << 32;
        NS__SIEVE_STEP(st, at, nl, cand, line_start, n)
    }
#undef NS__L
#undef NS__T
    NS__SIEVE_DONE(st, line_start, n)
}
#endif
#endif

#if defined(NS__HAVE_AVX2)
/* AVX-512BW: the block is one vector, and the masks come out of the
 * compares as they are (no movemask) -- half the instructions of AVX2 */
__attribute__((target("avx512bw"))) static int ns__sieve_avx512(const ns_needles *nd,
                                                               const char *buf, size_t end,
                                                               ns__sieve_at *st) {
#define NS__L(p) _mm512_loadu_si512((const void *)(p))
#define NS__T(t) _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)(t)))
    const __m512i nlv = _mm512_set1_epi8('\n'), nib = _mm512_set1_epi8(0x0f);
    const __m512i escv = _mm512_set1_epi8(0x1b);
    size_t b1, b2;
    ns_needles_skip_bytes(nd, &b1, &b2);
    const __m512i lo0 = NS__T(nd->lo[0]), hi0 = NS__T(nd->hi[0]);
    const __m512i lo1 = NS__T(nd->lo[b1]), hi1 = NS__T(nd->hi[b1]);
    const __m512i lo2 = NS__T(nd->lo[b2]), hi2 = NS__T(nd->hi[b2]);
    size_t line_start = st->line_start;
    long n = st->lines;
    for (size_t at = st->at; at + 64 + b2 <= end; at += 64) {
        const char *p = buf + at;
        __builtin_prefetch(p + NS__PREFETCH);
        __m512i v0 = NS__L(p), v1 = NS__L(p + b1), v2 = NS__L(p + b2);
        uint64_t nl = _mm512_cmpeq_epi8_mask(v0, nlv);
        __m512i m = _mm512_and_si512(
            _mm512_and_si512(
                _mm512_and_si512(_mm512_shuffle_epi8(lo0, _mm512_and_si512(v0, nib)),
                                 _mm512_shuffle_epi8(hi0, _mm512_and_si512(_mm512_srli_epi16(v0, 4), nib))),
                _mm512_and_si512(_mm512_shuffle_epi8(lo1, _mm512_and_si512(v1, nib)),
                                 _mm512_shuffle_epi8(hi1, _mm512_and_si512(_mm512_srli_epi16(v1, 4), nib)))),
            _mm512_and_si512(_mm512_shuffle_epi8(lo2, _mm512_and_si512(v2, nib)),
                             _mm512_shuffle_epi8(hi2, _mm512_and_si512(_mm512_srli_epi16(v2, 4), nib))));
        uint64_t cand = _mm512_test_epi8_mask(m, m) | _mm512_cmpeq_epi8_mask(v0, escv);
        NS__SIEVE_STEP(st, at, nl, cand, line_start, n)
    }
#undef NS__L
#undef NS__T
    NS__SIEVE_DONE(st, line_start, n)
}
#endif

static int ns__one_pass = 1; /* 0: the two passes (ns_scan_one_pass) */

int ns_scan_one_pass(int on) {
    int was = ns__one_pass;
    ns__one_pass = on != 0;
    return was;
}

/* The one pass at the level in use, when the CPU has it: 1 and the lines
 * skipped in *lines, else 0 (the two passes then). */
static int ns__sieve_one_pass(ns__reader *rd, const ns_needles *nd, long *lines) {
#if defined(__SSE2__)
    if (!ns__one_pass) return 0;
    int (*run)(const ns_needles *, const char *, size_t, ns__sieve_at *);
    switch (ns__simd) {
#if defined(NS__HAVE_AVX2)
    case NS_SIMD_AVX512: run = ns__sieve_avx512; break;
    case NS_SIMD_AVX2: run = ns__sieve_avx2; break;
#endif
    case NS_SIMD_SSE2:
        if (!__builtin_cpu_supports("ssse3")) return 0;
        run = ns__sieve_ssse3;
        break;
    default: return 0;
    }
    ns__sieve_at st = {rd->start, rd->start, 0, 0, 0};
    while (run(nd, rd->buf, rd->end, &st)) {
        /* a block with candidates: the first real one (offset k) stops the
         * skip in its line, after the lines before it */
        unsigned k = 64;
        for (uint64_t c = st.cand; c; c &= c - 1) {
            unsigned q = (unsigned)__builtin_ctzll(c);
            if (ns_needles_hit(nd, rd->buf, st.at + q, rd->end, 1)) {
                k = q;
                break;
            }
        }
        uint64_t nl = k == 64 ? st.nl : k ? st.nl & (~(uint64_t)0 >> (64 - k)) : 0;
        if (ns__skip_block(rd->buf, st.at, nl, rd->end, &st.line_start, &st.lines) || k < 64)
            break;
        st.at += 64;
    }
    rd->start = st.line_start;
    rd->lineno += st.lines;
    *lines = st.lines;
    return 1;
#else
    (void)rd, (void)nd, (void)lines;
    return 0;
#endif
}

static long ns__skip_sieve(ns__reader *rd, const ns_scan_hook *hk) {
    if (ns__simd < 0) ns_scan_simd(-1);
    if (ns__simd == NS_SIMD_NONE) return 0;
    const ns_needles *nd = hk->needles(hk->ctx);
    if (!nd) return 0;
    long lines = 0;
    if (ns__sieve_one_pass(rd, nd, &lines)) return lines;
    for (;;) {
        size_t from = rd->start, span = rd->end - from;
        if (span > NS__SIEVE_SPAN) span = NS__SIEVE_SPAN;
        size_t at = ns_needles_next(nd, rd->buf + from, span, 1, ns__simd);
        lines += ns__skip_lines(rd, from + at);
        /* on only when the span held no text and the skip went to its
         * end: it stopped in the line the span cuts, not at a line it
         * must look at (one that ends before the span does) */
        if (at < span || rd->start == from ||
            memchr(rd->buf + rd->start, '\n', from + span - rd->start))
            return lines;
    }
}

/* ====== Line cleaning ====== */

/* Drop a trailing '\r' and ANSI escape sequences.  marks are the line's
 * (ns__line_end: an escape byte, a NUL).  Returns the clean line, in
 * `scratch` when something had to be removed; *has_nul: the clean line
 * holds a NUL byte. */
static const char *ns__clean(const char *s, size_t *n, unsigned marks, ns_buf *scratch,
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

/* ====== Log prefixes ====== */

typedef enum {
    NS__PFX_NONE,   /* the report's lines start at column 0 */
    NS__PFX_LOGGER, /* "[LEVEL] time [name] " + indent spaces */
    NS__PFX_SHAPE,  /* same length and character classes as the banner's */
} ns__pfx_kind;

typedef struct {
    ns__pfx_kind kind; /* how to strip */
    char *shape;       /* NS__PFX_SHAPE: the prefix, digits turned to '9' */
    size_t len;        /* NS__PFX_SHAPE: its length */
    size_t indent;     /* NS__PFX_LOGGER: spaces after the logger prefix */
    char *raw;         /* the prefix as first seen, or NULL */
} ns__prefix;

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

typedef enum {
    NS__IDLE,      /* between reports */
    NS__HEADER,    /* inside a banner block */
    NS__TEXT,      /* rows of an MLIR or LLVM text report */
    NS__JSON_OPEN, /* saw "[": an MLIR JSON report may follow */
    NS__JSON,      /* entries of an MLIR JSON report */
} ns__state;

typedef struct {
    ns_scanner *sc;       /* options and counters across inputs */
    const char *name;     /* input name */
    ns_sink sink;         /* receiver of finished reports */
    void *ctx;            /* sink's context */
    ns__state state;      /* where we are */
    ns__prefix pfx;       /* prefix of the current report */
    ns_pstate ps;         /* parser state of the current report */
    long start_line;      /* first line of the current report */
    char *label;          /* label from the nearest --label-regex match */
    ns_buf scratch;       /* cleaned line */
    int found;            /* reports found in this input */
    const ns_scan_hook *hook; /* the caller's hook (scan.h), or NULL */
    ns_group grp;         /* the tables of one compile, linked before the sink
                           * sees them (parse/group.h): sink and ctx are its */
} ns__scan;

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
static void ns__emit(ns__scan *st, ns_report *r) {
    if (!r) return;
    if (st->sc->stopped) {
        ns_report_free(r);
        return;
    }
    if (st->sink(r, st->ctx) != 0) st->sc->stopped = 1;
}

/* "#N" for a report's label, without a printf (one per report: a dense
 * log has one every few dozen lines); tmp holds at least 24 bytes. */
static char *ns__hash_label(char *tmp, int n) {
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
    ns_builder_init(&st->ps.b, r);
    st->found++;
}

/* Hand the current report to the sink. */
static void ns__finish(ns__scan *st, long last_line) {
    ns_report *r = st->ps.r;
    st->ps.r = NULL;
    r->end_line = last_line;
    /* a report numbered late has no label yet: its number in this input */
    char late[32];
    const char *label = r->label;
    if (!label && (st->ps.foreign || !r->complete)) label = ns__hash_label(late, r->index + 1);
    if (st->ps.foreign)
        ns_diag_say(st->ps.diag, NS_DIAG_WARNING, r->file, st->ps.foreign_first,
                    "report %s: skipped %ld %s of it", label, st->ps.foreign,
                    st->ps.foreign == 1 ? "line that is not a row" : "lines that are not rows");
    if (!r->complete)
        ns_diag_say(st->ps.diag, NS_DIAG_WARNING, r->file, r->line,
                    "report %s is incomplete (no Total row; %d row%s read up to "
                    "line %ld%s)",
                    label, st->ps.rows, st->ps.rows == 1 ? "" : "s", last_line,
                    st->ps.foreign_run ? ", then lines that are not rows" : "");
    ns_builder_free(&st->ps.b);
    ns_hdr_free(&st->ps.hdr);
    st->state = NS__IDLE;
    /* a hook may keep r for what the lines after it say */
    ns__emit(st, st->hook && st->hook->finish ? st->hook->finish(st->hook->ctx, r) : r);
}

static void ns__idle(ns__scan *st, const char *s, size_t n, long line);

static void ns__foreign(ns__scan *st, const char *raw, size_t rawn, long line) {
    if (st->ps.foreign++ == 0) st->ps.foreign_first = line;
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
static void ns__line(ns__scan *st, const char *raw, size_t rawn, long line, int has_nul) {
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
            ns_hdr h = st->ps.hdr;
            ns__begin(st, h.llvm ? NS_PROD_LLVM : NS_PROD_MLIR_TEXT);
            ns_report *r = st->ps.r;
            r->title = h.title ? ns_strdup(h.title) : NULL;
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

static void ns__end(ns__scan *st, long last_line) {
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

static int ns__trace(ns__scan *st, const char *data, size_t len) {
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
        regerror(rc, &sc->label_re, msg, sizeof msg);
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
static void ns__scan_init(ns__scan *st, ns_scanner *sc, const char *name, ns_sink sink,
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

/* Look at the first bytes (all of them, or 4096) to tell a trace document
 * from a log.  A UTF-8 byte order mark (editors on Windows write one) is
 * skipped.  Returns 1 for a trace; for a log, rd->start is past the mark. */
static int ns__sniff(ns_scanner *sc, ns__reader *rd) {
    size_t bom = rd->end >= 3 && memcmp(rd->buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    if (ns_trace_sniff(rd->buf + bom, rd->end - bom)) return 1;
    rd->start = bom;
    sc->bytes += bom;
    return 0;
}

/* A whole trace document, in rd from its start. */
static void ns__trace_doc(ns__scan *st, ns__reader *rd) {
    size_t bom = rd->end >= 3 && memcmp(rd->buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    st->sc->bytes += rd->end;
    /* a trace that cannot be read as one has said why; like a log
     * without a report it yields nothing (exit 1, docs/formats.md):
     * exit 2 is for inputs that cannot be opened or read at all */
    ns__trace(st, rd->buf + bom, rd->end - bom);
}

/* ====== Parts of a regular file (scan.h) ====== */

struct ns_scan_part {
    ns__scan st;        /* the scan */
    ns__reader rd;      /* its pread() window */
    ns_scan_turn turn;  /* told when the scan leaves or comes back to idle */
    void *turn_ctx;     /* turn's state */
    uint64_t halt_at;   /* 0, or: stop once idle at a line start from here on */
    int halted;         /* it did */
    int ended;          /* the input ended: ns__end ran */
    long upto_line;     /* lines before the last run's upto */
};

/* Bytes a part reads at a time past its upto (ns_scan_part_run). */
#define NS__PART_STEP (16u << 10)

/* Where the reader of a part stands in the file. */
static uint64_t ns__part_pos(const ns__reader *rd) { return rd->off - (rd->end - rd->start); }

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
static void ns__scan_lines(ns__scan *st, ns__reader *rd) {
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
    int stdin_input = strcmp(path, "-") == 0;
    int fd = stdin_input ? 0 : open(path, O_RDONLY);
    if (fd < 0) {
        ns_diag_say(&sc->diag, NS_DIAG_ERROR, path, 0, "%s", strerror(errno));
        return -1;
    }
    struct stat stt;
    if (fstat(fd, &stt) == 0 && S_ISDIR(stt.st_mode)) {
        ns_diag_say(&sc->diag, NS_DIAG_ERROR, path, 0, "is a directory");
        close(fd);
        return -1;
    }
    ns__reader rd;
    memset(&rd, 0, sizeof rd);
    rd.fd = fd;
    rd.name = stdin_input ? "<stdin>" : path;
    rd.diag = &sc->diag;
    int mapped = 0;
    if (!stdin_input && S_ISREG(stt.st_mode) && stt.st_size > 0 && !ns__no_map() &&
        ns__map(&rd, fd, (size_t)stt.st_size) == 0) {
        mapped = 1;
        ns__mapped_name = path;
    } else {
        rd.cap = NS__READ_CHUNK;
        rd.buf = ns_xmalloc(rd.cap);
    }
    int rc = ns__scan_reader(sc, &rd, sink, ctx);
    if (mapped) {
        ns__mapped_name = NULL;
        ns__unmap(&rd);
    } else {
        free(rd.buf);
    }
    if (!stdin_input) close(fd);
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
