/* load.c -- the failures and environment facts of a load (see load.h);
 * one failure's free and copy are runs.c's (a run holds one). */
#include "model/load.h"

#include <stdlib.h>
#include <string.h>

ns_failure *ns_load_add_failure(ns_load *L, const char *file, long line) {
    L->fail = ns_xrealloc(L->fail, sizeof *L->fail * (size_t)(L->nfail + 1));
    ns_failure *f = &L->fail[L->nfail++];
    memset(f, 0, sizeof *f);
    f->file = file ? ns_strdup(file) : NULL;
    f->line = line;
    return f;
}

void ns_load_env_set(ns_load *L, const char *key, const char *value) {
    if (!ns_kv_get(&L->env, key)) ns_kv_set(&L->env, key, value);
}

void ns_load_free(ns_load *L) {
    for (int i = 0; i < L->nfail; i++) ns_failure_free(&L->fail[i]);
    free(L->fail);
    ns_kv_free(&L->env);
    memset(L, 0, sizeof *L);
}
