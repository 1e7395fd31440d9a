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
 * Needles are borrowed (string literals), at least 4 bytes long, at most
 * NS_NEEDLES_MAX of them.
 */
#ifndef NPUSCOPE_NEEDLES_H
#define NPUSCOPE_NEEDLES_H

#include <stddef.h>
#include <stdint.h>

#define NS_NEEDLES_MAX 48

typedef struct {
    uint64_t bits[64];                   /* the 4096-bit set of head hashes */
    uint32_t head[NS_NEEDLES_MAX];       /* each needle's first four bytes */
    const char *text[NS_NEEDLES_MAX];    /* the needles (borrowed) */
    size_t len[NS_NEEDLES_MAX];          /* their lengths */
    int n;                               /* needles added */
} ns_needles;

void ns_needles_init(ns_needles *nd);
/* Add a needle; returns 0, or -1 when it is shorter than 4 bytes or the
 * set is full (a programming error the caller's tests catch). */
int ns_needles_add(ns_needles *nd, const char *text);
/* 1 when [s, s+n) holds one of the needles, else 0. */
int ns_needles_any(const ns_needles *nd, const char *s, size_t n);

#endif
