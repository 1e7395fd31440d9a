/* page_tags.c -- the rows' labels and the values of their tags, as the
 * figures' data needs them (page_int.h lists the module's files): a row's
 * label (ns_page_label_new), the distinct values of a tag sorted, and
 * whether a tag is numeric (a scaling axis) with enough values.  Moved out
 * of page_figures.c as it was (only the shared helpers' names changed).
 *
 * This file must not print, and calls no other file of the page model:
 * page_figures.c and page_study.c both call it.
 */
#include "analyse/page_int.h"
#include "base/strmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== Labels ====== */

char *ns_page_label_new(const ns_table *t, const ns_table_row *g, const char *skip1,
                        const char *skip2, int with_mode, const char *empty) {
    ns_buf b = {0};
    ns_buf_puts(&b, "");
    for (int k = 0; k < t->nkeys; k++) {
        const char *key = t->keys[k], *v = ns_table_tag(g, key);
        if (!v || (skip1 && strcmp(key, skip1) == 0) || (skip2 && strcmp(key, skip2) == 0))
            continue;
        ns_buf_printf(&b, "%s%s=%s", b.len ? ", " : "", key, v);
    }
    if (with_mode && strcmp(g->cfg.mode, "none") != 0)
        ns_buf_printf(&b, "%s%s", b.len ? ", " : "", g->cfg.mode);
    if (b.len == 0) {
        ns_buf_free(&b);
        return ns_strdup(empty);
    }
    return b.data;
}

/* ====== Tag values ====== */

static int ns__cmp_value(const void *a, const void *b) {
    return ns_text_cmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sort distinct strings by ns_text_cmp (a tag of a 20,000-configuration
 * sweep has 20,000 values: not an insertion sort). */
void ns__page_sort_values(const char **v, int n) {
    if (n > 1) qsort(v, (size_t)n, sizeof *v, ns__cmp_value);
}

/* Are all values of tag `key` among the counted runs numbers?  Their
 * distinct values (sorted) go to *vals (borrowed; the array is the
 * caller's) / *n; *pow2: all are powers of 2. */
static int ns__numeric_axis(const ns_page_model *m, const char *key, const char ***vals, int *n,
                            int *pow2) {
    *vals = NULL;
    *n = 0;
    *pow2 = 1;
    int numeric = 1;
    ns_strmap seen; /* the distinct values (a scan of those seen was quadratic) */
    ns_strmap_init(&seen);
    for (int i = 0; i < m->in->set->nruns; i++) {
        const ns_run *r = &m->in->set->runs[i];
        if (!ns_run_counted(r)) continue;
        const char *v = ns_kv_get(&r->tags, key);
        if (!v) continue;
        double x;
        if (!ns_text_number(v, &x)) numeric = 0;
        else if (!(x > 0) || ldexp(1, (int)lround(log2(x))) != x) *pow2 = 0;
        int added;
        ns_strmap_intern(&seen, v, &added);
        if (!added) continue;
        if (*n == 0 || (*n & (*n - 1)) == 0)
            *vals = ns_xrealloc(*vals, sizeof **vals * (size_t)(*n ? 2 * *n : 1));
        (*vals)[(*n)++] = v;
    }
    ns_strmap_free(&seen);
    ns__page_sort_values(*vals, *n);
    return numeric && *n > 0;
}

/* Is tag key numeric among the counted runs, with at least `least` values? */
int ns__page_numeric_with(const ns_page_model *m, const char *key, int least, int *pow2) {
    const char **vals;
    int n;
    int numeric = ns__numeric_axis(m, key, &vals, &n, pow2);
    free(vals);
    return numeric && n >= least;
}

/* Distinct values of tag key over the rows (sorted, borrowed; the array is
 * the caller's). */
const char **ns__page_tag_values_new(const ns_table *t, const char *key, int *n) {
    const char **v = NULL;
    *n = 0;
    ns_strmap seen;
    ns_strmap_init(&seen);
    for (int g = 0; g < t->nrows; g++) {
        const char *x = ns_table_tag(&t->rows[g], key);
        if (!x) continue;
        int added;
        ns_strmap_intern(&seen, x, &added);
        if (!added) continue;
        if (*n == 0 || (*n & (*n - 1)) == 0)
            v = ns_xrealloc(v, sizeof *v * (size_t)(*n ? 2 * *n : 1));
        v[(*n)++] = x;
    }
    ns_strmap_free(&seen);
    ns__page_sort_values(v, *n);
    return v;
}
