/* scan_skip.c -- skipping the noise between reports, many lines at a time.
 *
 * Most of a log is not report: the NPU compiler's INFO lines, a build's
 * output.  Between reports the line loop (scan_line.c) hands the reader to
 * this file, which moves it past every whole line on which no report can
 * start and which no hook needs, 64 bytes at a time with the widest
 * vectors the CPU has (chosen once, at run time; ns_scan_simd picks one by
 * hand so that the tests run each): the noise skip looks only at the byte
 * before each newline, the sieve also for a hook's texts.  Every line it
 * stops at takes the ordinary path, so what the scan finds does not depend
 * on this file -- only how fast.  Left out: AVX-512 for the plain skip
 * (tried: no faster), NEON (no ARM machine to measure on).
 */
#include "parse/scan_int.h"

#if defined(__SSE2__)
#include <immintrin.h>
#endif

/* ====== Skipping lines between reports ======
 * Most of an NPU log is INFO noise between reports, and a line between
 * reports matters only if a report may start on it: a banner ends in "==="
 * and an MLIR JSON report starts with a line "[" (either possibly behind a
 * log prefix, and possibly followed by blanks, a CR or a colour reset); a
 * report that lost its banner starts at its column header ("----" or
 * " ---" last), and a Total row ("%)  Total") between reports is worth a
 * warning.  So
 * the last significant character decides, and a noise line costs one newline
 * search and a few compares -- no pass over its bytes. */

/* Bytes that, last on a line, make it worth a closer look. */
const unsigned char ns__end_byte[256] = {
    ['['] = 1, ['='] = 1, ['m'] = 1, [' '] = 1, ['\t'] = 1, ['\r'] = 1, ['-'] = 1, ['l'] = 1};

/* Skipping noise, many lines at a time.  The whole lines from rd->start
 * that ns__boring would drop one by one are skipped by finding newlines 64
 * bytes at a time and looking only at the byte before each: a line needs
 * a closer look when that byte is '[', '=', 'm', a blank, a tab, a CR,
 * '-' (a column header without its banner) or 'l' (a Total row).
 * The skip stops before the first such line, or where fewer than 64 bytes
 * are buffered.  Three implementations, the best the CPU has chosen at the
 * first call: AVX2 (two 32-byte compares per block; chosen at run time, so
 * the binary still runs on any x86-64), SSE2 (four 16-byte compares), and
 * none (every line takes the ordinary path).  ns_scan_simd picks one by
 * hand, so that the tests run each. */

int ns__simd = -1; /* NS_SIMD_* in use; -1 until chosen (scan_int.h) */

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

long ns__skip_noise(ns__reader *rd) { return ns__skip_lines(rd, rd->end); }

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

long ns__skip_sieve(ns__reader *rd, const ns_scan_hook *hk) {
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

