/* load.c -- failures and environment facts of a load (see load.h). */
#include "model/load.h"

#include <stdlib.h>
#include <string.h>

static char *ns__dup(const char *s) { return s ? ns_strdup(s) : NULL; }

void ns_failure_free(ns_failure *f) {
    if (!f) return;
    free(f->pass);
    free(f->location);
    free(f->submodel);
    free(f->message);
    free(f->file);
    memset(f, 0, sizeof *f);
}

void ns_failure_copy(ns_failure *dst, const ns_failure *f) {
    dst->pass = ns__dup(f->pass);
    dst->location = ns__dup(f->location);
    dst->submodel = ns__dup(f->submodel);
    dst->message = ns__dup(f->message);
    dst->file = ns__dup(f->file);
    dst->line = f->line;
}

ns_failure *ns_load_add_failure(ns_load *L, const char *file, long line) {
    L->fail = ns_xrealloc(L->fail, sizeof *L->fail * (size_t)(L->nfail + 1));
    ns_failure *f = &L->fail[L->nfail++];
    memset(f, 0, sizeof *f);
    f->file = ns__dup(file);
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
