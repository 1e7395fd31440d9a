/* strmap.h -- a string-keyed hash map with insertion order.
 *
 * Used to sum passes by name across reports (top) and to number speedscope
 * frames.  Keys are copied in; values are indices the caller interprets, so
 * the map never owns or frees the caller's data.  Iteration is in insertion
 * order, which keeps every output deterministic.
 */
#ifndef NPUSCOPE_STRMAP_H
#define NPUSCOPE_STRMAP_H

#include <stddef.h>

typedef struct {
    char **keys;     /* keys in insertion order (owned) */
    size_t *slots;   /* hash table: index into keys + 1, 0 = empty */
    unsigned *hashes; /* hash of each slot's key (low 32 bits), checked before strcmp */
    size_t count;    /* keys stored */
    size_t nslots;   /* size of slots, a power of two */
} ns_strmap;

void ns_strmap_init(ns_strmap *m);
void ns_strmap_free(ns_strmap *m);
/* Index of key, adding it if absent (*added set to 1 then). */
size_t ns_strmap_intern(ns_strmap *m, const char *key, int *added);
/* Index of key, or (size_t)-1. */
size_t ns_strmap_find(const ns_strmap *m, const char *key);

#endif
