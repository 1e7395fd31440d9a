/* load.h -- what a load of a model says besides its timing reports: the
 * compiles that failed, and the environment the NPU stack reports about
 * itself.
 *
 * A failed NPU compile prints no report (or a partial one), but its log
 * says which pass failed, on which operation, for which NPUW sub-model and
 * why (npu/failure.c reads those lines).  The plugin and the driver also log
 * what they are: Level Zero API versions, the opset the compiler supports,
 * the NPU platform.  Both belong to the input, not to one report, so they
 * are kept here beside the reports: the tree JSON writes them at the top
 * level ("failures", "environment"), run.json as "failure" (the first) and
 * "environment", and the readers give them back.
 *
 * Values are what the log printed, as strings: an environment fact is
 * compared like a tag, never computed with.  Absent fields are NULL (JSON
 * null), never an empty or invented string.
 */
#ifndef NPUSCOPE_LOAD_H
#define NPUSCOPE_LOAD_H

#include "model/runs.h"

typedef struct ns_failure {
    char *pass;     /* the failing pass ("StaticAllocation"), or NULL */
    char *location; /* the operation's location, its names joined by '/'
                     * ("main/_part26"), or NULL */
    char *submodel; /* the NPUW sub-model that failed to compile, or NULL */
    char *message;  /* the diagnostic's reason ("Failed to statically
                     * allocate 'DDR' memory"), or NULL */
    char *file;     /* input the first line of it came from */
    long line;      /* that line (1-based), or 0 */
} ns_failure;

typedef struct ns_load_s {
    ns_failure *fail; /* failures, in the order their first lines came */
    int nfail;        /* entries in fail */
    int open;         /* fail[open..] have no sub-model yet: the next
                       * "Failed to compile NAME" line names them */
    ns_kvlist env;    /* environment facts (docs/formats.md), first seen wins */
} ns_load;

void ns_failure_free(ns_failure *f);
/* A deep copy of f into *dst. */
void ns_failure_copy(ns_failure *dst, const ns_failure *f);
/* A new, empty failure at the end of L's list. */
ns_failure *ns_load_add_failure(ns_load *L, const char *file, long line);
/* Set an environment fact unless it is set already. */
void ns_load_env_set(ns_load *L, const char *key, const char *value);
void ns_load_free(ns_load *L);

#endif
