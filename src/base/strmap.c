/* strmap.c -- open addressing with linear probing over an insertion-ordered
 * key array; FNV-1a hashing.  Small, predictable, no deletions needed. */
#include "base/strmap.h"

#include "base/common.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t ns__hash(const char *s) {
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
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
