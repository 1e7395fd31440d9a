/* strmap.c -- open addressing with linear probing over an insertion-ordered
 * key array; word-at-a-time hashing.  Small, predictable, no deletions
 * needed. */
#include "base/strmap.h"

#include "base/common.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Eight bytes a step: FNV-1a took one, and its multiply per byte was a
 * chain of dependent multiplies as long as the key -- on a report-dense
 * log the stage memo (model/stages.c) hashes a row name on each miss.
 * strlen first (vectorised by libc), then whole words, the last one read
 * overlapping the one before; keys under eight bytes byte by byte.  Each
 * step mixes the word in with a multiply and a shift (the constants are
 * MurmurHash3's finaliser's), and the end is its finaliser. */
static uint64_t ns__mix(uint64_t h, uint64_t w) {
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    return h ^ (h >> 32);
}

static uint64_t ns__hash(const char *s) {
    size_t n = strlen(s);
    uint64_t h = 0x9e3779b97f4a7c15ull ^ n, w;
    if (n >= 8) {
        size_t i = 0;
        for (; i + 8 < n; i += 8) {
            memcpy(&w, s + i, 8);
            h = ns__mix(h, w);
        }
        memcpy(&w, s + n - 8, 8);
        h = ns__mix(h, w);
    } else {
        w = 0;
        for (size_t i = 0; i < n; i++) w = w << 8 | (unsigned char)s[i];
        h = ns__mix(h, w);
    }
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

void ns_strmap_init(ns_strmap *m) { memset(m, 0, sizeof *m); }

void ns_strmap_free(ns_strmap *m) {
    for (size_t i = 0; i < m->count; i++) free(m->keys[i]);
    free(m->keys);
    free(m->slots);
    free(m->hashes);
    memset(m, 0, sizeof *m);
}

static void ns__rehash(ns_strmap *m, size_t nslots) {
    free(m->slots);
    free(m->hashes);
    m->slots = ns_xcalloc(nslots, sizeof *m->slots);
    m->hashes = ns_xcalloc(nslots, sizeof *m->hashes);
    m->nslots = nslots;
    for (size_t i = 0; i < m->count; i++) {
        uint64_t h = ns__hash(m->keys[i]);
        size_t j = (size_t)h & (nslots - 1);
        while (m->slots[j]) j = (j + 1) & (nslots - 1);
        m->slots[j] = i + 1;
        m->hashes[j] = (unsigned)h;
    }
}

size_t ns_strmap_find(const ns_strmap *m, const char *key) {
    if (!m->nslots) return (size_t)-1;
    uint64_t h = ns__hash(key);
    size_t j = (size_t)h & (m->nslots - 1);
    while (m->slots[j]) {
        if (m->hashes[j] == (unsigned)h && strcmp(m->keys[m->slots[j] - 1], key) == 0)
            return m->slots[j] - 1;
        j = (j + 1) & (m->nslots - 1);
    }
    return (size_t)-1;
}

size_t ns_strmap_intern(ns_strmap *m, const char *key, int *added) {
    size_t i = ns_strmap_find(m, key);
    if (added) *added = 0;
    if (i != (size_t)-1) return i;
    if ((m->count + 1) * 2 > m->nslots) {
        size_t keys_cap = m->nslots ? m->nslots * 2 : 64;
        m->keys = ns_xrealloc(m->keys, sizeof *m->keys * keys_cap / 2);
        ns__rehash(m, keys_cap);
    }
    m->keys[m->count] = ns_strdup(key);
    uint64_t h = ns__hash(key);
    size_t j = (size_t)h & (m->nslots - 1);
    while (m->slots[j]) j = (j + 1) & (m->nslots - 1);
    m->slots[j] = m->count + 1;
    m->hashes[j] = (unsigned)h;
    if (added) *added = 1;
    return m->count++;
}
