/* needles.c -- one pass for a few fixed texts (see needles.h). */
#include "base/needles.h"

#include <string.h>
/* x86-64 with SSE2 (a build without it, tests/run.sh's portable one, has
 * only the position-at-a-time search), the rest chosen at run time */
#if defined(__x86_64__) && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define NS__NEEDLES_X86 1
#endif

/* ====== Hashing four bytes ====== */

static uint32_t ns__word(const char *p) {
    uint32_t w;
    memcpy(&w, p, 4); /* any alignment; the byte order is the same for all */
    return w;
}

static unsigned ns__hash(uint32_t w) { return (unsigned)((w * 2654435761u) >> 20); }

/* ====== The set ====== */

void ns_needles_init(ns_needles *nd) { memset(nd, 0, sizeof *nd); }

int ns_needles_add(ns_needles *nd, const char *text) {
    size_t k = strlen(text);
    if (k < 4 || nd->n >= NS_NEEDLES_MAX) return -1;
    uint32_t w = ns__word(text);
    unsigned h = ns__hash(w);
    nd->bits[h >> 6] |= (uint64_t)1 << (h & 63);
    nd->head[nd->n] = w;
    nd->text[nd->n] = text;
    nd->len[nd->n] = k;
    nd->n++;
    /* the nibble tables: needles with the same first byte share a bucket
     * (their heads differ little, so sharing adds few false candidates);
     * past 8 first bytes, buckets are shared round the clock */
    int b = 0;
    while (b < nd->nbuckets && nd->first[b] != (unsigned char)text[0]) b++;
    if (b == nd->nbuckets) {
        if (nd->nbuckets < 8) nd->first[nd->nbuckets++] = (unsigned char)text[0];
        else b = (nd->n - 1) % 8;
    }
    for (size_t i = 0; i < k && i < NS_NEEDLES_HEAD; i++) {
        unsigned char c = (unsigned char)text[i];
        nd->lo[i][c & 15] |= (unsigned char)(1u << b);
        nd->hi[i][c >> 4] |= (unsigned char)(1u << b);
    }
    if (!nd->minlen || k < nd->minlen) nd->minlen = k;
    return 0;
}

uint64_t ns_needles_bit(const ns_needles *nd, const char *text) {
    for (int j = 0; j < nd->n; j++)
        if (!strcmp(nd->text[j], text)) return (uint64_t)1 << j;
    return 0;
}

void ns_needles_skip_bytes(const ns_needles *nd, size_t *b1, size_t *b2) {
    if (nd->minlen >= 7) *b1 = 4, *b2 = 6;
    else if (nd->minlen >= 5) *b1 = 1, *b2 = 4;
    else *b1 = 1, *b2 = 2; /* every needle has four bytes */
}

int ns_needles_any(const ns_needles *nd, const char *s, size_t n) {
    if (n < 4) return 0;
    for (size_t i = 0; i + 4 <= n; i++) {
        uint32_t w = ns__word(s + i);
        unsigned h = ns__hash(w);
        if (!(nd->bits[h >> 6] & ((uint64_t)1 << (h & 63)))) continue;
        for (int j = 0; j < nd->n; j++)
            if (nd->head[j] == w && nd->len[j] <= n - i && !memcmp(s + i, nd->text[j], nd->len[j]))
                return 1;
    }
    return 0;
}

/* ====== Candidates, one position at a time ====== */

/* May a needle begin at u (three bytes readable)? */
static int ns__cand(const ns_needles *nd, const unsigned char *u) {
    unsigned m = nd->lo[0][u[0] & 15] & nd->hi[0][u[0] >> 4];
    m &= nd->lo[1][u[1] & 15] & nd->hi[1][u[1] >> 4];
    m &= nd->lo[2][u[2] & 15] & nd->hi[2][u[2] >> 4];
    return m != 0;
}

/* The needles that begin at s[q] (of n bytes), added to *which. */
static void ns__verify(const ns_needles *nd, const char *s, size_t q, size_t n, uint64_t *which) {
    if (q + 4 > n) return;
    uint32_t w = ns__word(s + q);
    unsigned h = ns__hash(w); /* most candidates end here */
    if (!(nd->bits[h >> 6] & ((uint64_t)1 << (h & 63)))) return;
    for (int j = 0; j < nd->n; j++)
        if (nd->head[j] == w && nd->len[j] <= n - q && !memcmp(s + q, nd->text[j], nd->len[j]))
            *which |= (uint64_t)1 << j;
}

/* Does a needle begin at s[q] (of n bytes), or is it an escape the
 * search stops at?  The candidate q, checked. */
static int ns__hit(const ns_needles *nd, const char *s, size_t q, size_t n, int esc) {
    if (esc && s[q] == 0x1b) return 1;
    uint64_t m = 0;
    ns__verify(nd, s, q, n, &m);
    return m != 0;
}

int ns_needles_hit(const ns_needles *nd, const char *s, size_t q, size_t n, int esc) {
    return ns__hit(nd, s, q, n, esc);
}

/* The search from offset `from` on, one position at a time: with which
 * NULL, the first hit (ns__hit); else every candidate verified into
 * *which, and n. */
static size_t ns__next_scalar(const ns_needles *nd, const char *s, size_t from, size_t n,
                              int esc, uint64_t *which) {
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = from; i < n; i++) {
        if ((esc && u[i] == 0x1b) || (i + 4 <= n && ns__cand(nd, u + i))) {
            if (!which) {
                if (ns__hit(nd, s, i, n, esc)) return i;
                continue;
            }
            ns__verify(nd, s, i, n, which);
        }
    }
    return n;
}

/* ====== Candidates, many positions at once ======
 * One block: the candidate bits of the W positions at p (bytes p..p+W+1
 * read).  Then the loop over whole blocks, and one last block that
 * overlaps the one before it (its bits before `i` dropped), so that a
 * short span (a line) costs no scalar tail but two bytes.  The same
 * contract as ns__next_scalar. */

#if defined(NS__NEEDLES_X86)
#define NS__NEXT_BODY(W, VEC, LOAD, SET1, AND, SRLI, SHUF, CMPEQ, MOVEMASK, ZERO, TABLE)     \
    const VEC nib = SET1(0x0f), escv = SET1(0x1b), zero = ZERO();                          \
    const VEC lo0 = TABLE(nd->lo[0]), hi0 = TABLE(nd->hi[0]);                              \
    const VEC lo1 = TABLE(nd->lo[1]), hi1 = TABLE(nd->hi[1]);                              \
    const VEC lo2 = TABLE(nd->lo[2]), hi2 = TABLE(nd->hi[2]);                              \
    const uint32_t escmask = esc ? 0xffffffffu : 0;                                        \
    size_t i = 0;                                                                          \
    for (;;) {                                                                             \
        size_t at = i;                                                                     \
        uint32_t drop = 0;                                                                 \
        if (i + W + 2 > n) { /* the last, overlapping block, or the scalar tail */         \
            if (i >= n || n < W + 2 || i + W + 2 - n >= W)                                 \
                return ns__next_scalar(nd, s, i, n, esc, which);                           \
            at = n - (W + 2);                                                              \
            drop = (uint32_t)(i - at);                                                     \
        }                                                                                  \
        const char *p = s + at;                                                            \
        VEC v0 = LOAD(p), v1 = LOAD(p + 1), v2 = LOAD(p + 2);                              \
        VEC m = AND(SHUF(lo0, AND(v0, nib)), SHUF(hi0, AND(SRLI(v0, 4), nib)));            \
        m = AND(m, AND(SHUF(lo1, AND(v1, nib)), SHUF(hi1, AND(SRLI(v1, 4), nib))));        \
        m = AND(m, AND(SHUF(lo2, AND(v2, nib)), SHUF(hi2, AND(SRLI(v2, 4), nib))));        \
        uint32_t bits = ~(uint32_t)MOVEMASK(CMPEQ(m, zero));                               \
        if (W == 16) bits &= 0xffffu;                                                      \
        bits |= (uint32_t)MOVEMASK(CMPEQ(v0, escv)) & escmask;                             \
        bits &= ~0u << drop;                                                               \
        for (; bits; bits &= bits - 1) {                                                   \
            size_t q = at + (size_t)__builtin_ctz(bits);                                   \
            if (!which) {                                                                  \
                if (ns__hit(nd, s, q, n, esc)) return q;                                   \
                continue;                                                                  \
            }                                                                              \
            ns__verify(nd, s, q, n, which);                                                \
        }                                                                                  \
        if (at != i) /* the overlapping block was the last: two bytes remain */            \
            return ns__next_scalar(nd, s, at + W, n, esc, which);                          \
        i += W;                                                                            \
    }

#define NS__T256(t)                                                                        \
    _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(t)))
#define NS__L256(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define NS__T128(t) _mm_loadu_si128((const __m128i *)(const void *)(t))
#define NS__L128(p) _mm_loadu_si128((const __m128i *)(const void *)(p))

__attribute__((target("avx2"))) static size_t ns__next_avx2(const ns_needles *nd, const char *s,
                                                            size_t n, int esc, uint64_t *which) {
    NS__NEXT_BODY(32, __m256i, NS__L256, _mm256_set1_epi8, _mm256_and_si256, _mm256_srli_epi16,
                  _mm256_shuffle_epi8, _mm256_cmpeq_epi8, _mm256_movemask_epi8,
                  _mm256_setzero_si256, NS__T256)
}

__attribute__((target("ssse3"))) static size_t ns__next_ssse3(const ns_needles *nd, const char *s,
                                                              size_t n, int esc, uint64_t *which) {
    NS__NEXT_BODY(16, __m128i, NS__L128, _mm_set1_epi8, _mm_and_si128, _mm_srli_epi16,
                  _mm_shuffle_epi8, _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_setzero_si128,
                  NS__T128)
}
#endif

/* The search at `level`, as the CPU allows (see ns__next_scalar). */
static size_t ns__search(const ns_needles *nd, const char *s, size_t n, int esc, int level,
                         uint64_t *which) {
#if defined(NS__NEEDLES_X86)
    if (level >= 2 && __builtin_cpu_supports("avx2")) return ns__next_avx2(nd, s, n, esc, which);
    if (level >= 1 && __builtin_cpu_supports("ssse3"))
        return ns__next_ssse3(nd, s, n, esc, which);
#else
    (void)level;
#endif
    return ns__next_scalar(nd, s, 0, n, esc, which);
}

size_t ns_needles_next(const ns_needles *nd, const char *s, size_t n, int esc, int level) {
    return ns__search(nd, s, n, esc, level, NULL);
}

/* ====== Which needles a line holds ====== */

uint64_t ns_needles_which(const ns_needles *nd, const char *s, size_t n) {
    uint64_t m = 0;
    ns__search(nd, s, n, 0, nd->level, &m);
    return m;
}
