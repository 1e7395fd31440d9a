/* needles.c -- one pass for a few fixed texts (see needles.h). */
#include "base/needles.h"

#include <string.h>

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
    return 0;
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
