/* kv.h -- a key/value list: the variables a run sets for its command.
 *
 * The type alone, down here, so that the platform layer, which hands the
 * variables to the child process, can read it; the functions that build
 * and parse a list are the model's (model/runs.h), where runs are.
 */
#ifndef NPUSCOPE_KV_H
#define NPUSCOPE_KV_H

typedef struct {
    char *key;   /* owned */
    char *value; /* owned */
} ns_kv;

typedef struct {
    ns_kv *items; /* in insertion order */
    int n;        /* used */
    int cap;      /* allocated */
} ns_kvlist;

#endif
