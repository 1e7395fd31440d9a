/* runs.c -- key/value lists and the run record (see runs.h). */
#include "model/runs.h"

#include "model/load.h"
#include "model/report.h"

#include <stdlib.h>
#include <string.h>

/* ====== Key/value lists ====== */

void ns_kv_set(ns_kvlist *l, const char *key, const char *value) {
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->items[i].key, key) == 0) {
            free(l->items[i].value);
            l->items[i].value = ns_strdup(value);
            return;
        }
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 8;
        l->items = ns_xrealloc(l->items, sizeof *l->items * (size_t)l->cap);
    }
    l->items[l->n].key = ns_strdup(key);
    l->items[l->n].value = ns_strdup(value);
    l->n++;
}

const char *ns_kv_get(const ns_kvlist *l, const char *key) {
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->items[i].key, key) == 0) return l->items[i].value;
    return NULL;
}

void ns_kv_free(ns_kvlist *l) {
    for (int i = 0; i < l->n; i++) {
        free(l->items[i].key);
        free(l->items[i].value);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}

int ns_kv_parse(ns_kvlist *l, const char *kv) {
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv) return -1;
    char *key = ns_strndup(kv, (size_t)(eq - kv));
    ns_kv_set(l, key, eq + 1);
    free(key);
    return 0;
}

/* ====== A failure (model/load.h) ====== */

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

/* ====== Runs ====== */

int ns_run_ok(const ns_run *r) {
    return !r->error && r->exit_code == 0 && !r->signal && !r->timed_out && !r->interrupted;
}

void ns_run_free(ns_run *r) {
    free(r->id);
    if (r->argv)
        for (char **a = r->argv; *a; a++) free(*a);
    free(r->argv);
    ns_kv_free(&r->env);
    ns_kv_free(&r->tags);
    free(r->mode);
    free(r->error);
    for (int i = 0; i < r->nmetrics; i++) free(r->metrics[i].name);
    free(r->metrics);
    ns_run_free_reports(r);
    free(r->host);
    ns_failure_free(r->failure);
    free(r->failure);
    ns_kv_free(&r->environment);
    memset(r, 0, sizeof *r);
}

void ns_run_free_reports(ns_run *r) {
    for (int i = 0; i < r->nreports; i++)
        if (r->reports[i]) ns_report_free(r->reports[i]);
    free(r->reports);
    r->reports = NULL;
    r->nreports = 0;
}

/* ====== Metrics of a run ====== */

void ns_run_set_metric(ns_run *r, const char *name, double value) {
    for (int i = 0; i < r->nmetrics; i++)
        if (!strcmp(r->metrics[i].name, name)) {
            r->metrics[i].value = value;
            r->metrics[i].count = 1;
            return;
        }
    r->metrics = ns_xrealloc(r->metrics, sizeof *r->metrics * (size_t)(r->nmetrics + 1));
    r->metrics[r->nmetrics].name = ns_strdup(name);
    r->metrics[r->nmetrics].value = value;
    r->metrics[r->nmetrics].count = 1;
    r->nmetrics++;
}

int ns_metric_higher_is_better(const char *name) {
    static const char *const rate_ends[] = {"_per_s", "_per_sec", "_per_second",
                                            "_fps",   "_tps",     "_qps"};
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof rate_ends / sizeof *rate_ends; i++) {
        size_t k = strlen(rate_ends[i]);
        if (n >= k && strcmp(name + n - k, rate_ends[i]) == 0) return 1;
    }
    return strstr(name, "throughput") != NULL;
}
