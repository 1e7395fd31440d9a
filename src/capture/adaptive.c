/* adaptive.c -- the order of an adaptive sweep (adaptive.h): read what the
 * folder holds, model it, and pick the next configuration of the grid.
 * The folder is read again before every configuration: a sweep is tens of
 * configurations, and reading back is what makes a stopped sweep resume
 * exactly where the choices left it.
 */
#include "capture/adaptive.h"
#include "analyse/dataset.h"
#include "analyse/predict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ====== Reading the folder ====== */

/* The folder is read by analyse/predict.h's ns_pred_reader. */

/* The grid's configuration of a run's tags, or -1 (not of this grid). */
static long ns__config_of(const ns_axes *a, const ns_run *r) {
    long c = 0;
    for (int i = 0; i < a->naxes; i++) {
        const char *v = ns_kv_get(&r->tags, a->axes[i].name);
        int at = -1;
        for (int j = 0; v && j < a->axes[i].nvalues && at < 0; j++)
            if (!strcmp(a->axes[i].values[j], v)) at = j;
        if (at < 0) return -1;
        c = c * a->axes[i].nvalues + at;
    }
    return c;
}

/* ====== Choosing ====== */

static void ns__label(ns_buf *b, const ns_axes *a, size_t c, int *idx) {
    ns_axes_config(a, c, idx);
    for (int i = 0; i < a->naxes; i++)
        ns_buf_printf(b, "%s%s=%s", i ? "," : "", a->axes[i].name, a->axes[i].values[idx[i]]);
}

int ns_adaptive_next(const ns_adaptive *ad, ns_plan *plan, size_t k) {
    const ns_axes *a = ad->axes;
    size_t nconf = ns_axes_configs(a);
    int na = a->naxes;
    unsigned char *meas = ns_xcalloc(nconf + 1, 1), *left = ns_xcalloc(nconf + 1, 1);
    int *idx = ns_xcalloc((size_t)na + 1, sizeof *idx);
    for (size_t i = k; i < plan->n; i++) left[plan->items[i].config] = 1;
    for (size_t i = 0; i < k; i++) meas[plan->items[i].config] = 1;
    ns_field fy;
    const char *why;
    ns_field_parse("total", 0, &fy, &why);
    ns_stage_sel sel = {0};
    ns_stage_sel_init(&sel, NULL);
    fy.stages = &sel;
    ns_pred_reader rd;
    memset(&rd, 0, sizeof rd);
    rd.fy = &fy;
    rd.sel = &sel;
    struct stat st;
    ns_runs_forget(); /* the folder read afresh: the runs of the last look are not duplicates */
    if (stat(ad->dir, &st) == 0 && S_ISDIR(st.st_mode)) ns_runs_each(ad->dir, ns_pred_reader_take, &rd);
    const ns_run **runs = ns_xcalloc((size_t)rd.n + 1, sizeof *runs);
    int *use = ns_xcalloc((size_t)rd.n + 1, sizeof *use), nuse = 0;
    for (int i = 0; i < rd.n; i++) {
        runs[i] = &rd.runs[i];
        long c = ns__config_of(a, &rd.runs[i]);
        if (c < 0) continue;
        meas[c] = 1;
        if (ns_run_counted(&rd.runs[i]) &&
            (!ad->mode || !strcmp(rd.runs[i].mode ? rd.runs[i].mode : "", ad->mode)))
            use[nuse++] = i;
    }
    int m = 0, chosen = -1, rc = 0;
    for (size_t c = 0; c < nconf; c++) m += meas[c];
    ns_buf msg = {0};
    ns_pred p = {0};
    int model = 0;
    if (m >= ad->budget) {
        ns_buf_printf(&msg, "%d configuration%s measured (--adaptive %d): done", m,
                      m == 1 ? "" : "s", ad->budget);
        goto out;
    }
    model = nuse > 0 && ns_pred_build(&p, runs, use, nuse, &rd.dig, 1, 0.9, 0) == 0;
    if (model && ad->target_pct > 0 && 100 * p.loo_median <= ad->target_pct) {
        ns_buf_printf(&msg, "LOO median error %.1f %% over %d configurations, at most the "
                            "%g %% of --target-error: done",
                      100 * p.loo_median, p.loo_n, ad->target_pct);
        goto out;
    }
    /* the start: the corners, then the centre */
    for (long mask = 0; na <= 16 && mask <= (1L << na) && chosen < 0; mask++) {
        long c = 0;
        for (int i = 0; i < na; i++) {
            int n = a->axes[i].nvalues;
            int at = mask == (1L << na) ? (n - 1) / 2 : (mask >> (na - 1 - i)) & 1 ? n - 1 : 0;
            c = c * n + at;
        }
        if (left[c] && !meas[c]) {
            chosen = (int)c;
            ns_buf_puts(&msg, mask == (1L << na) ? "the centre of the grid" : "a corner of the grid");
        }
    }
    double best = -1;
    int from_start = chosen >= 0;
    for (size_t c = 0; c < nconf && !from_start; c++) {
        if (!left[c] || meas[c]) continue;
        ns_axes_config(a, c, idx);
        double score;
        if (model) {
            ns_kvlist at = {0};
            for (int i = 0; i < na; i++) ns_kv_set(&at, a->axes[i].name, a->axes[i].values[idx[i]]);
            ns_pred_point pt;
            if (ns_pred_point_at(&p, &at, &pt) < 0) {
                score = INFINITY; /* a value no model has seen */
            } else {
                ns_pred_eval(&p, &pt);
                score = pt.hi > 0 && pt.lo > 0 ? log(pt.hi / pt.lo) : INFINITY;
            }
            ns_pred_point_free(&pt);
            ns_kv_free(&at);
        } else { /* farthest from everything measured, in grid steps */
            score = INFINITY;
            int *o = ns_xcalloc((size_t)na + 1, sizeof *o);
            for (size_t e = 0; e < nconf; e++) {
                if (!meas[e]) continue;
                ns_axes_config(a, e, o);
                double d = 0;
                for (int i = 0; i < na; i++) {
                    double s = a->axes[i].nvalues > 1 ? a->axes[i].nvalues - 1 : 1;
                    d += (idx[i] - o[i]) / s * (idx[i] - o[i]) / s;
                }
                if (d < score) score = d;
            }
            free(o);
        }
        if (score > best) {
            best = score;
            chosen = (int)c;
        }
    }
    if (chosen < 0) {
        ns_buf_puts(&msg, "every configuration of the grid is measured: done");
        goto out;
    }
    if (!msg.len)
        ns_buf_printf(&msg, model ? (isinf(best) ? "a value the model has not seen"
                                                 : "the widest interval (x%.2f)")
                                  : "the farthest from what is measured",
                      exp(best));
    /* its items next, in their order; the others after them, in theirs */
    {
        size_t n = plan->n - k, w = 0;
        ns_plan_item *t = ns_xcalloc(n + 1, sizeof *t);
        for (size_t i = k; i < plan->n; i++)
            if (plan->items[i].config == (size_t)chosen) t[w++] = plan->items[i];
        for (size_t i = k; i < plan->n; i++)
            if (plan->items[i].config != (size_t)chosen) t[w++] = plan->items[i];
        memcpy(plan->items + k, t, sizeof *t * n);
        free(t);
    }
    rc = 1;
out:
    if (!ad->quiet) {
        ns_buf line = {0};
        ns_buf_printf(&line, "npuscope: adaptive (%d of at most %d measured", m, ad->budget);
        if (model)
            ns_buf_printf(&line, ", LOO median error %.1f %%", 100 * p.loo_median);
        ns_buf_puts(&line, "): ");
        if (rc) {
            ns__label(&line, a, (size_t)chosen, idx);
            ns_buf_printf(&line, ", %s\n", msg.data);
        } else {
            ns_buf_printf(&line, "%s\n", msg.data);
        }
        fputs(line.data, stderr);
        ns_buf_free(&line);
    }
    ns_buf_free(&msg);
    ns_pred_free(&p);
    ns_pred_reader_free(&rd);
    ns_stage_sel_free(&sel);
    free(runs);
    free(use);
    free(meas);
    free(left);
    free(idx);
    return rc;
}
