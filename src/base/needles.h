/* needles.h -- does a line hold any of a few fixed texts?  One pass.
 *
 * The NPU layer looks at every line of a log for some twenty texts (its
 * facts, the weights-separation and trace lines, the memory collector's);
 * asked one text at a time, that is twenty passes over every line of a log
 * whose lines almost never hold one.  A set of needles answers in one
 * pass: each position's next four bytes are hashed into a 4096-bit set of
 * the needles' first four bytes, and only a position whose hash is in the
 * set is compared with the needles themselves.  The answer is exact (a
 * hit is a real occurrence), so a caller may use it as a filter in front
 * of its own matchers and lose nothing, provided every text a matcher
 * needs is a needle.
 *
 * The same set is also searched for many bytes at once (ns_needles_next),
 * so that the scanner can pass over whole runs of lines that hold none of
 * the texts without looking at each line (parse/scan_skip.c, "Skipping lines
 * between reports").  Each needle's first three bytes go into nibble
 * tables: needles are put in up to 8 buckets (by their first byte), and
 * for byte k of a head, lo[k][c & 15] and hi[k][c >> 4] have the bits of
 * the buckets with a needle whose byte k is c.  A position may begin a
 * needle only if, for each of its three bytes, the two nibbles' lookups
 * share a bucket bit, and the three share one: a byte shuffle per nibble
 * answers that for 32 positions at once (AVX2) or 16 (SSSE3).  That is a
 * superset of the positions where a needle begins, never fewer, and each
 * such candidate is then checked against the needles themselves (their
 * hash first, as above), so what the search finds is exact.
 *
 * The scanner's one-pass skip (parse/scan_skip.c) uses other head bytes,
 * spread out: 0, 4 and 6 when every needle has seven (minlen), else 0, 1
 * and 4 when every one has five, else 0, 1 and 2 (ns_needles_skip_bytes).
 * Bytes next to each other in text go together ("ge" of "getCompiled..."
 * and of "usage collector"), so bytes apart rule out more: bytes 0, 4, 6
 * gave 30 times fewer candidates than 0, 1, 4 on the bench's NPU log, 2.5
 * times fewer on the test fixtures (real compilers' reports and logs).
 * So the tables are kept for each of a head's first NS_NEEDLES_HEAD bytes.
 *
 * Needles are borrowed (string literals), at least 4 bytes long, at most
 * NS_NEEDLES_MAX of them.
 */
#ifndef NPUSCOPE_NEEDLES_H
#define NPUSCOPE_NEEDLES_H

#include <stddef.h>
#include <stdint.h>

#define NS_NEEDLES_MAX 48
#define NS_NEEDLES_HEAD 7 /* head bytes with nibble tables */

typedef struct {
    uint64_t bits[64];                   /* the 4096-bit set of head hashes */
    uint32_t head[NS_NEEDLES_MAX];       /* each needle's first four bytes */
    const char *text[NS_NEEDLES_MAX];    /* the needles (borrowed) */
    size_t len[NS_NEEDLES_MAX];          /* their lengths */
    int n;                               /* needles added */
    unsigned char lo[NS_NEEDLES_HEAD][16]; /* head byte k's low nibble -> bucket bits */
    unsigned char hi[NS_NEEDLES_HEAD][16]; /* head byte k's high nibble -> bucket bits */
    unsigned char first[8];              /* the first byte each bucket stands for */
    int nbuckets;                        /* buckets in use (distinct first bytes, at most 8) */
    int level;                           /* the vector code ns_needles_which uses (see
                                          * ns_needles_next); 0 after init */
    size_t minlen;                       /* the shortest needle's length (0: none yet) */
} ns_needles;

void ns_needles_init(ns_needles *nd);
/* Add a needle; returns 0, or -1 when it is shorter than 4 bytes or the
 * set is full (a programming error the caller's tests catch). */
int ns_needles_add(ns_needles *nd, const char *text);
/* 1 when [s, s+n) holds one of the needles, else 0 (one position at a
 * time: the reference the vector search is tested against). */
int ns_needles_any(const ns_needles *nd, const char *s, size_t n);
/* The offset of the first position of [s, s+n) where a needle begins
 * (all of it inside the n bytes), or, when esc is set, where a byte 0x1b
 * (an ANSI escape) is, whichever comes first; n when there is none.
 * level is the vector code to use, the NS_SIMD_* of parse/scan.h: 0 one
 * position at a time, 1 16 positions (when the CPU has SSSE3, else 0), 2
 * 32 positions (when it has AVX2, else 1). */
size_t ns_needles_next(const ns_needles *nd, const char *s, size_t n, int esc, int level);
/* Does a needle begin at s[q] (all of it inside the n bytes), or, when esc
 * is set, is s[q] an escape?  A candidate position checked: what a caller
 * that finds the candidates itself (the scanner's one-pass skip,
 * parse/scan_skip.c) asks of each, in position order. */
int ns_needles_hit(const ns_needles *nd, const char *s, size_t q, size_t n, int esc);
/* Which needles [s, s+n) holds: bit i for needle i (in the order added),
 * exact; 0 when none. */
uint64_t ns_needles_which(const ns_needles *nd, const char *s, size_t n);
/* The bit ns_needles_which gives needle `text` (compared as a string), or
 * 0 when it is not in the set. */
uint64_t ns_needles_bit(const ns_needles *nd, const char *text);
/* The two head bytes besides byte 0 that the one-pass skip looks at, in
 * *b1 < *b2 (see above): both below minlen and NS_NEEDLES_HEAD. */
void ns_needles_skip_bytes(const ns_needles *nd, size_t *b1, size_t *b2);

#endif
