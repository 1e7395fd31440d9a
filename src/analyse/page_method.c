/* page_method.c -- method & reproducibility: what the page was made from,
 * so that a reader can run it again (page.h; page_int.h lists the
 * module's files).
 *
 * Every fact is a tally: the distinct values in first-seen order with how
 * often each occurs (the commands the runs ran, the values of each variable
 * npuscope set, the hosts, the compilers and titles of the reports), or a
 * range (the dates, the compiler facts a log holds).  A run's host comes
 * read with the run (ns_run.host); this file touches no file.
 *
 * This file must not print, or decide how many values a fact shows
 * (render/page.c cuts the long lists).
 */
#include "analyse/page_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== Tallies ====== */

static void ns__tally_init(ns_page_tally *t) {
    ns_strmap_init(&t->m);
    t->count = NULL;
}

static void ns__tally_add(ns_page_tally *t, const char *s) {
    int added;
    size_t k = ns_strmap_intern(&t->m, s, &added);
    if (added) {
        t->count = ns_xrealloc(t->count, sizeof *t->count * (t->m.count + 1));
        t->count[k] = 0;
    }
    t->count[k]++;
}

static void ns__tally_free(ns_page_tally *t) {
    ns_strmap_free(&t->m);
    free(t->count);
    t->count = NULL;
}

/* ====== Commands ====== */

/* argv as one shell-quoted line (caller frees). */
static char *ns__shell_line_new(char **argv) {
    ns_buf b = {0};
    ns_buf_puts(&b, "");
    for (int i = 0; argv && argv[i]; i++) {
        const char *a = argv[i];
        int plain = *a != 0;
        for (const char *p = a; *p && plain; p++)
            plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                           "_./:=@%+,-{}", *p) != NULL;
        if (i) ns_buf_putc(&b, ' ');
        if (plain) {
            ns_buf_puts(&b, a);
            continue;
        }
        ns_buf_putc(&b, '\'');
        for (const char *p = a; *p; p++) {
            if (*p == '\'') ns_buf_puts(&b, "'\\''");
            else ns_buf_putc(&b, *p);
        }
        ns_buf_putc(&b, '\'');
    }
    return b.data;
}

static void ns__commands(ns_page_method *mt, const ns_page_input *in) {
    char **line = ns_xcalloc((size_t)in->argc + 2, sizeof *line);
    line[0] = "npuscope";
    for (int i = 0; i < in->argc; i++) line[i + 1] = in->argv[i];
    mt->command = ns__shell_line_new(line);
    free(line);
    for (int i = 0; i < in->set->nruns; i++) {
        char *c = ns__shell_line_new(in->set->runs[i].argv);
        ns__tally_add(&mt->commands, c);
        free(c);
    }
}

/* ====== Environment ====== */

/* Per variable npuscope set, its values.  The run and cache folders differ
 * in every run by design; their values are not tallied. */
static void ns__env(ns_page_method *mt, const ns_runset *set) {
    int added;
    for (int i = 0; i < set->nruns; i++)
        for (int k = 0; k < set->runs[i].env.n; k++)
            ns_strmap_intern(&mt->env, set->runs[i].env.items[k].key, &added);
    mt->env_values = ns_xcalloc(mt->env.count + 1, sizeof *mt->env_values);
    for (size_t v = 0; v < mt->env.count; v++) {
        const char *key = mt->env.keys[v];
        ns__tally_init(&mt->env_values[v]);
        if (strcmp(key, "NPUSCOPE_RUN_DIR") == 0 || strcmp(key, "NPUSCOPE_CACHE_DIR") == 0)
            continue;
        for (int i = 0; i < set->nruns; i++) {
            const char *val = ns_kv_get(&set->runs[i].env, key);
            if (val) ns__tally_add(&mt->env_values[v], val);
        }
    }
}

/* ====== Hosts ====== */

/* The host of each run, as run.json recorded it (read with the run:
 * parse/run_read.c, so no run.json is parsed a second time). */
static void ns__hosts(ns_page_method *mt, const ns_page_input *in) {
    for (int i = 0; i < in->set->nruns; i++)
        if (in->set->runs[i].host) ns__tally_add(&mt->hosts, in->set->runs[i].host);
}

/* ====== Dates, compilers, facts ====== */

static void ns__dates(ns_page_method *mt, const ns_runset *set) {
    for (int i = 0; i < set->nruns; i++) {
        const char *at = set->runs[i].started_at;
        if (!*at) continue;
        if (!mt->first || strcmp(at, mt->first) < 0) mt->first = at;
        if (!mt->last || strcmp(at, mt->last) > 0) mt->last = at;
    }
}

/* "producer: title" of every report, logs first, then the runs' (kept as
 * they were read, when the runs were read without their trees). */
static void ns__reports(ns_page_method *mt, const ns_page_input *in) {
    ns_buf b = {0};
    int upto = in->titles ? in->nlogs : in->nlogs + in->set->nruns;
    for (int i = 0; i < upto; i++) {
        const ns_run *run = i < in->nlogs ? NULL : &in->set->runs[i - in->nlogs];
        ns_report *const *reps = run ? run->reports : &in->logs[i];
        int nrep = run ? run->nreports : 1;
        for (int k = 0; k < nrep; k++) {
            b.len = 0;
            ns_buf_printf(&b, "%s", ns_producer_name(reps[k]));
            if (reps[k]->title) ns_buf_printf(&b, ": %s", reps[k]->title);
            ns__tally_add(&mt->reports, b.data);
        }
    }
    for (size_t k = 0; in->titles && k < in->titles->count; k++)
        for (int n = 0; n < in->title_n[k]; n++) ns__tally_add(&mt->reports, in->titles->keys[k]);
    ns_buf_free(&b);
}

/* The facts the compiler logged (--npu): per name, its range over the logs. */
static void ns__facts(ns_page_method *mt, const ns_page_input *in) {
    int added;
    for (int i = 0; i < in->nlogs; i++)
        for (int k = 0; k < in->logs[i]->nfacts; k++)
            ns_strmap_intern(&mt->facts, in->logs[i]->facts[k].name, &added);
    size_t nf = mt->facts.count;
    mt->fact_min = ns_xcalloc(nf + 1, sizeof *mt->fact_min);
    mt->fact_max = ns_xcalloc(nf + 1, sizeof *mt->fact_max);
    mt->fact_n = ns_xcalloc(nf + 1, sizeof *mt->fact_n);
    for (size_t n = 0; n < nf; n++) {
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < in->nlogs; i++)
            for (int k = 0; k < in->logs[i]->nfacts; k++)
                if (strcmp(in->logs[i]->facts[k].name, mt->facts.keys[n]) == 0) {
                    double v = in->logs[i]->facts[k].value;
                    mt->fact_n[n]++;
                    if (v < lo) lo = v;
                    if (v > hi) hi = v;
                }
        mt->fact_min[n] = lo;
        mt->fact_max[n] = hi;
    }
}

/* ====== The section ====== */

void ns__page_method(ns_page_model *m) {
    ns_page_method *mt = &m->method;
    ns__tally_init(&mt->commands);
    ns__tally_init(&mt->hosts);
    ns__tally_init(&mt->reports);
    ns_strmap_init(&mt->env);
    ns_strmap_init(&mt->facts);
    ns__commands(mt, m->in);
    ns__env(mt, m->in->set);
    ns__hosts(mt, m->in);
    ns__dates(mt, m->in->set);
    ns__reports(mt, m->in);
    ns__facts(mt, m->in);
}

void ns__page_method_free(ns_page_method *mt) {
    free(mt->command);
    ns__tally_free(&mt->commands);
    for (size_t v = 0; mt->env_values && v < mt->env.count; v++) ns__tally_free(&mt->env_values[v]);
    free(mt->env_values);
    ns_strmap_free(&mt->env);
    ns__tally_free(&mt->hosts);
    ns__tally_free(&mt->reports);
    ns_strmap_free(&mt->facts);
    free(mt->fact_min);
    free(mt->fact_max);
    free(mt->fact_n);
}
