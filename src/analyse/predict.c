/* predict.c -- the predictor (predict.h): a sweep's configurations and
 * axes, the model of each part, the prediction at a point, and cliffs.
 * The least squares of a part are predict_lsq.c's.
 */
#include "analyse/predict_int.h"
#include "analyse/fit.h"
#include "analyse/model_name.h"
#include "analyse/stats.h"
#include "model/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ====== Reading runs ====== */

void ns_pred_digest_run(ns_pred_digest *d, const ns_run *r, const ns_field *fy,
                        ns_stage_sel *sel) {
    if (d->n == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 64;
        d->stage_v = ns_xrealloc(d->stage_v, sizeof *d->stage_v * (size_t)d->cap);
        d->nst = ns_xrealloc(d->nst, sizeof *d->nst * (size_t)d->cap);
        d->y = ns_xrealloc(d->y, sizeof *d->y * (size_t)d->cap);
    }
    int i = d->n++;
    d->y[i] = ns_run_value(r, fy);
    d->stage_v[i] = NULL;
    d->nst[i] = 0;
    for (int k = 0; k < r->nreports; k++) {
        const ns_report *rep = r->reports[k];
        if (!rep || !rep->root) continue;
        const ns_stage_map *m = ns_stage_sel_pick(sel, rep);
        if (!m) continue;
        long nrows;
        ns_stage_of *of = ns_stage_assign_new(m, rep, &nrows);
        int ns = ns_stage_count(m);
        ns_stage_sums s = {ns_xcalloc((size_t)ns + 1, sizeof(double)), 0, 0};
        ns_stage_sum(m, rep, of, &s);
        for (int t = 0; t < ns; t++) {
            int added;
            int id = (int)ns_strmap_intern(&d->stages, ns_stage_name(m, t), &added);
            if (id >= d->nst[i]) {
                d->stage_v[i] = ns_xrealloc(d->stage_v[i], sizeof(double) * (size_t)(id + 1));
                for (int z = d->nst[i]; z <= id; z++) d->stage_v[i][z] = 0;
                d->nst[i] = id + 1;
            }
            if (isfinite(s.self[t])) d->stage_v[i][id] += s.self[t];
        }
        free(s.self);
        free(of);
    }
}

void ns_pred_reader_take(ns_run *r, void *ctx) {
    ns_pred_reader *rd = ctx;
    if (rd->n == rd->cap) {
        rd->cap = rd->cap ? 2 * rd->cap : 64;
        rd->runs = ns_xrealloc(rd->runs, sizeof *rd->runs * (size_t)rd->cap);
    }
    ns_pred_digest_run(&rd->dig, r, rd->fy, rd->sel);
    ns_run_free_reports(r);
    rd->runs[rd->n++] = *r;
}

void ns_pred_reader_free(ns_pred_reader *rd) {
    for (int i = 0; i < rd->n; i++) ns_run_free(&rd->runs[i]);
    free(rd->runs);
    ns_pred_digest_free(&rd->dig);
    memset(rd, 0, sizeof *rd);
}

void ns_pred_digest_free(ns_pred_digest *d) {
    for (int i = 0; i < d->n; i++) free(d->stage_v[i]);
    free(d->stage_v);
    free(d->nst);
    free(d->y);
    ns_strmap_free(&d->stages);
    memset(d, 0, sizeof *d);
}

/* ====== Configurations and axes ====== */

static int ns__cmp_str(const void *a, const void *b) {
    return ns_text_cmp(*(char *const *)a, *(char *const *)b);
}

static int ns__median_of(double *v, int n, double *out) {
    double m = ns_median(v, (size_t)n);
    *out = m;
    return isfinite(m) ? 0 : -1;
}

/* Axes and fixed tags from the runs: keys whose value differs between
 * runs are axes. */
static void ns__axes(ns_pred *p, const ns_run *const *runs, const int *idx, int n) {
    ns_strmap keys;
    ns_strmap_init(&keys);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < runs[idx[i]]->tags.n; k++) {
            int added;
            ns_strmap_intern(&keys, runs[idx[i]]->tags.items[k].key, &added);
        }
    for (size_t k = 0; k < keys.count; k++) {
        const char *key = keys.keys[k];
        ns_strmap vals;
        ns_strmap_init(&vals);
        for (int i = 0; i < n; i++) {
            const char *v = ns_kv_get(&runs[idx[i]]->tags, key);
            int added;
            ns_strmap_intern(&vals, v ? v : "", &added);
        }
        if (vals.count == 1) {
            ns_kv_set(&p->fixed, key, vals.keys[0]);
            ns_strmap_free(&vals);
            continue;
        }
        p->axes = ns_xrealloc(p->axes, sizeof *p->axes * (size_t)(p->naxes + 1));
        ns_pred_axis *ax = &p->axes[p->naxes++];
        memset(ax, 0, sizeof *ax);
        ax->name = ns_strdup(key);
        ax->nlevels = (int)vals.count;
        ax->levels = ns_xcalloc(vals.count, sizeof *ax->levels);
        for (size_t v = 0; v < vals.count; v++) ax->levels[v] = ns_strdup(vals.keys[v]);
        qsort(ax->levels, vals.count, sizeof *ax->levels, ns__cmp_str);
        ax->xs = ns_xcalloc(vals.count, sizeof *ax->xs);
        ax->numeric = 1;
        for (int v = 0; v < ax->nlevels && ax->numeric; v++)
            ax->numeric = ns_text_number(ax->levels[v], &ax->xs[v]) && ax->xs[v] > 0;
        if (!ax->numeric && strcmp(key, "model") == 0) {
            ax->numeric = ax->derived = 1;
            for (int v = 0; v < ax->nlevels && ax->numeric; v++)
                ax->numeric = ns_model_size_b(ax->levels[v], &ax->xs[v], NULL, NULL) &&
                              ax->xs[v] > 0;
            /* two models of one size: a category, not a number */
            for (int v = 1; v < ax->nlevels && ax->numeric; v++)
                for (int u = 0; u < v; u++)
                    if (ax->xs[u] == ax->xs[v]) ax->numeric = 0;
            if (!ax->numeric) ax->derived = 0;
        }
        if (ax->numeric) { /* levels by value: 0.5b before 7b, 128 before 1024 */
            for (int v = 1; v < ax->nlevels; v++)
                for (int u = v; u > 0 && ax->xs[u - 1] > ax->xs[u]; u--) {
                    double tx = ax->xs[u];
                    ax->xs[u] = ax->xs[u - 1];
                    ax->xs[u - 1] = tx;
                    char *tl = ax->levels[u];
                    ax->levels[u] = ax->levels[u - 1];
                    ax->levels[u - 1] = tl;
                }
            ax->lo = ax->hi = ax->xs[0];
            for (int v = 1; v < ax->nlevels; v++) {
                if (ax->xs[v] < ax->lo) ax->lo = ax->xs[v];
                if (ax->xs[v] > ax->hi) ax->hi = ax->xs[v];
            }
        }
        ns_strmap_free(&vals);
    }
    ns_strmap_free(&keys);
}

static int ns__level_of(const ns_pred_axis *ax, const char *v) {
    for (int l = 0; l < ax->nlevels; l++)
        if (strcmp(ax->levels[l], v ? v : "") == 0) return l;
    return -1;
}

/* ====== Building ====== */

/* The stages' parts and whether each is zero by level: a stage that is
 * positive in some configurations of a combination of categorical levels
 * and not in others cannot be a part. */
static void ns__presence(ns_pred *p, ns_pred_part *pt, int k) {
    pt->absent = ns_xcalloc((size_t)p->ncfgs + 1, 1);
    for (int c = 0; c < p->ncfgs; c++) pt->absent[c] = !(p->cfgs[c].parts[k] > 1e-12);
    for (int c = 0; c < p->ncfgs && !pt->dropped; c++)
        for (int e = 0; e < c && !pt->dropped; e++) {
            int same = 1;
            for (int a = 0; a < p->naxes && same; a++)
                if (!p->axes[a].numeric) same = p->cfgs[c].level[a] == p->cfgs[e].level[a];
            if (same && pt->absent[c] != pt->absent[e]) pt->dropped = 1;
        }
}

static int ns__build(ns_pred *p, const ns_run *const *runs, const int *idx, int n,
                     const ns_pred_digest *d, int y_total, double level) {
    memset(p, 0, sizeof *p);
    p->level = level;
    ns__axes(p, runs, idx, n);
    for (int a = 0; a < p->naxes; a++)
        for (int e = 0; e < 2; e++) {
            p->axes[a].ext_err[e] = NAN;
            p->axes[a].ext_reach[e] = NAN;
            p->axes[a].ext_skip[e] = NS_PRED_ENDS_FEW;
        }
    /* configurations: the runs with the same levels */
    int na = p->naxes, nst = (int)d->stages.count;
    int *cfg_of = ns_xcalloc((size_t)n + 1, sizeof *cfg_of);
    int *lv = ns_xcalloc((size_t)(n * (na ? na : 1)) + 1, sizeof *lv);
    for (int i = 0; i < n; i++) {
        for (int a = 0; a < na; a++)
            lv[i * na + a] = ns__level_of(&p->axes[a], ns_kv_get(&runs[idx[i]]->tags, p->axes[a].name));
        cfg_of[i] = -1;
        for (int c = 0; c < p->ncfgs && cfg_of[i] < 0; c++)
            if (!memcmp(p->cfgs[c].level, lv + i * na, sizeof(int) * (size_t)na)) cfg_of[i] = c;
        if (cfg_of[i] < 0) {
            p->cfgs = ns_xrealloc(p->cfgs, sizeof *p->cfgs * (size_t)(p->ncfgs + 1));
            ns_pred_config *c = &p->cfgs[p->ncfgs];
            memset(c, 0, sizeof *c);
            c->level = ns_xcalloc((size_t)na + 1, sizeof *c->level);
            memcpy(c->level, lv + i * na, sizeof(int) * (size_t)na);
            cfg_of[i] = p->ncfgs++;
        }
        p->cfgs[cfg_of[i]].nruns++;
    }
    free(lv);
    /* medians of y and of each stage */
    double *v = ns_xcalloc((size_t)n + 1, sizeof *v);
    for (int c = 0; c < p->ncfgs; c++) {
        ns_pred_config *cf = &p->cfgs[c];
        int k = 0;
        for (int i = 0; i < n; i++)
            if (cfg_of[i] == c) v[k++] = d->y[idx[i]];
        ns__median_of(v, k, &cf->y);
        cf->parts = ns_xcalloc((size_t)nst + 2, sizeof *cf->parts);
        for (int s = 0; s < nst; s++) {
            k = 0;
            for (int i = 0; i < n; i++)
                if (cfg_of[i] == c)
                    v[k++] = s < d->nst[idx[i]] ? d->stage_v[idx[i]][s] : d->nst[idx[i]] ? 0 : NAN;
            ns__median_of(v, k, &cf->parts[s]);
        }
    }
    free(v);
    free(cfg_of);
    int rc = -1, usable = 0;
    for (int c = 0; c < p->ncfgs; c++) usable += isfinite(p->cfgs[c].y) && p->cfgs[c].y > 0;
    if (usable < 3) {
        snprintf(p->why, sizeof p->why,
                 "%d configuration%s with a positive value of y: too few to predict anything "
                 "(at least 3, and more than the model's parameters plus one)",
                 usable, usable == 1 ? "" : "s");
        return -1;
    }
    for (int a = 0; a < na; a++) {
        if (!p->axes[a].numeric) continue;
        double s = 0;
        for (int c = 0; c < p->ncfgs; c++) s += log(p->axes[a].xs[p->cfgs[c].level[a]]);
        p->axes[a].center = s / p->ncfgs;
    }
    double *lx = ns_xcalloc((size_t)(p->ncfgs * (na ? na : 1)) + 1, sizeof *lx);
    int *lvl = ns_xcalloc((size_t)(p->ncfgs * (na ? na : 1)) + 1, sizeof *lvl);
    for (int c = 0; c < p->ncfgs; c++)
        for (int a = 0; a < na; a++) {
            lvl[c * na + a] = p->cfgs[c].level[a];
            lx[c * na + a] = p->axes[a].numeric
                                 ? log(p->axes[a].xs[p->cfgs[c].level[a]]) - p->axes[a].center
                                 : NAN;
        }
    /* the parts: every stage with time (for the regime; for y the sum),
     * then the ratio of y to the sum, or y itself */
    p->parts = ns_xcalloc((size_t)nst + 2, sizeof *p->parts);
    double *lnv = ns_xcalloc((size_t)p->ncfgs + 1, sizeof *lnv);
    double *loo = ns_xcalloc((size_t)(p->ncfgs * (nst + 2)) + 1, sizeof *loo);
    double *sum = ns_xcalloc((size_t)p->ncfgs + 1, sizeof *sum);
    for (int s = 0; s < nst; s++) {
        int any = 0;
        for (int c = 0; c < p->ncfgs; c++)
            any |= p->cfgs[c].parts[s] > 0.005 * p->cfgs[c].y;
        if (!any) continue; /* a stage that never takes time is no part */
        ns_pred_part *pt = &p->parts[p->nparts];
        memset(pt, 0, sizeof *pt);
        pt->name = ns_strdup(d->stages.keys[s]);
        pt->is_stage = 1;
        pt->form = -1;
        ns__presence(p, pt, s);
        for (int c = 0; c < p->ncfgs; c++)
            lnv[c] = pt->absent[c] || !isfinite(p->cfgs[c].y) ? NAN : log(p->cfgs[c].parts[s]);
        if (pt->dropped || ns_pred_fit_part(p, pt, lnv, lx, lvl, loo + p->nparts * p->ncfgs) < 0)
            pt->dropped = 1;
        /* the part's slot holds stage s's values from now on */
        for (int c = 0; c < p->ncfgs; c++) p->cfgs[c].parts[p->nparts] = p->cfgs[c].parts[s];
        p->nparts++;
    }
    p->nstages = p->nparts;
    int fitted = 0;
    for (int j = 0; j < p->nstages; j++) fitted += !p->parts[j].dropped;
    p->summed = y_total && fitted > 0;
    ns_pred_part *last = &p->parts[p->nparts];
    memset(last, 0, sizeof *last);
    last->name = ns_strdup(p->summed ? "ratio" : "y");
    last->form = -1;
    last->absent = ns_xcalloc((size_t)p->ncfgs + 1, 1);
    for (int c = 0; c < p->ncfgs; c++) {
        double y = p->cfgs[c].y, s = 0;
        for (int j = 0; j < p->nstages; j++)
            if (!p->parts[j].dropped && !p->parts[j].absent[c]) s += p->cfgs[c].parts[j];
        sum[c] = s;
        double val = p->summed ? y / s : y;
        lnv[c] = isfinite(y) && y > 0 && val > 0 && isfinite(val) ? log(val) : NAN;
        p->cfgs[c].parts[p->nparts] = val;
    }
    double *lloo = loo + p->nparts * p->ncfgs;
    if (ns_pred_fit_part(p, last, lnv, lx, lvl, lloo) < 0) goto out;
    p->nparts++;
    /* the check: each configuration predicted without it */
    p->loo_pred = ns_xcalloc((size_t)p->ncfgs + 1, sizeof *p->loo_pred);
    double *rel = ns_xcalloc((size_t)p->ncfgs + 1, sizeof *rel);
    for (int c = 0; c < p->ncfgs; c++) {
        p->loo_pred[c] = NAN;
        if (isnan(lnv[c]) || isnan(lloo[c])) continue;
        double yhat = exp(lloo[c]);
        if (p->summed) {
            double s = 0;
            for (int j = 0; j < p->nstages; j++) {
                const ns_pred_part *pt = &p->parts[j];
                if (pt->dropped || pt->absent[c]) continue;
                double l = loo[j * p->ncfgs + c];
                if (isnan(l)) s = NAN;
                else s += exp(l);
            }
            yhat *= s;
        }
        if (!isfinite(yhat)) continue;
        p->loo_pred[c] = yhat;
        rel[p->loo_n++] = fabs(yhat - p->cfgs[c].y) / p->cfgs[c].y;
    }
    p->loo_max = ns_max(rel, (size_t)p->loo_n);
    p->loo_median = ns_median(rel, (size_t)p->loo_n);
    free(rel);
    rc = p->loo_n > 0 ? 0 : -1;
    if (rc) snprintf(p->why, sizeof p->why, "no configuration could be predicted without it");
out:
    free(lnv);
    free(loo);
    free(sum);
    free(lx);
    free(lvl);
    return rc;
}

/* The ends check (predict.h): for each end of each numeric axis with three
 * values or more, the model built without that end's runs predicts that
 * end's configurations. */
static void ns__ends_check(ns_pred *p, const ns_run *const *runs, const int *idx, int n,
                           const ns_pred_digest *d, int y_total) {
    int *sub = ns_xcalloc((size_t)n + 1, sizeof *sub);
    for (int a = 0; a < p->naxes; a++) {
        ns_pred_axis *ax = &p->axes[a];
        if (!ax->numeric || ax->nlevels < 3) continue;
        for (int e = 0; e < 2; e++) {
            int end = e ? ax->nlevels - 1 : 0, next = e ? end - 1 : 1;
            int far = e ? 0 : ax->nlevels - 1, m = 0, at_end = 0;
            for (int c = 0; c < p->ncfgs; c++) at_end += p->cfgs[c].level[a] == end;
            if (3 * at_end > p->ncfgs) {
                ax->ext_skip[e] = NS_PRED_ENDS_HEAVY;
                continue;
            }
            ax->ext_skip[e] = NS_PRED_ENDS_NO_MODEL;
            for (int i = 0; i < n; i++)
                if (ns__level_of(ax, ns_kv_get(&runs[idx[i]]->tags, ax->name)) != end)
                    sub[m++] = idx[i];
            ns_pred without;
            if (ns__build(&without, runs, sub, m, d, y_total, p->level) == 0) {
                double ss = 0;
                int k = 0;
                for (int c = 0; c < p->ncfgs; c++) {
                    const ns_pred_config *cf = &p->cfgs[c];
                    if (cf->level[a] != end || !(cf->y > 0) || !isfinite(cf->y)) continue;
                    ns_kvlist at = {0};
                    for (int b = 0; b < p->naxes; b++)
                        ns_kv_set(&at, p->axes[b].name, p->axes[b].levels[cf->level[b]]);
                    ns_pred_point pt;
                    if (ns_pred_point_at(&without, &at, &pt) == 0) {
                        ns_pred_eval(&without, &pt);
                        if (pt.value > 0 && isfinite(pt.value)) {
                            double l = log(pt.value / cf->y);
                            ss += l * l;
                            k++;
                        }
                    }
                    ns_pred_point_free(&pt);
                    ns_kv_free(&at);
                }
                if (k) {
                    ax->ext_err[e] = sqrt(ss / k);
                    ax->ext_reach[e] = fabs(log(ax->xs[end] / ax->xs[next])) /
                                       fabs(log(ax->xs[next] / ax->xs[far]));
                    ax->ext_n[e] = k;
                    ax->ext_skip[e] = NS_PRED_ENDS_DONE;
                }
            }
            ns_pred_free(&without);
        }
    }
    free(sub);
}

int ns_pred_build(ns_pred *p, const ns_run *const *runs, const int *idx, int n,
                  const ns_pred_digest *d, int y_total, double level, int ends_check) {
    int rc = ns__build(p, runs, idx, n, d, y_total, level);
    if (rc == 0 && ends_check) ns__ends_check(p, runs, idx, n, d, y_total);
    return rc;
}

void ns_pred_free(ns_pred *p) {
    for (int a = 0; a < p->naxes; a++) {
        for (int l = 0; l < p->axes[a].nlevels; l++) free(p->axes[a].levels[l]);
        free(p->axes[a].levels);
        free(p->axes[a].xs);
        free(p->axes[a].name);
    }
    free(p->axes);
    ns_kv_free(&p->fixed);
    for (int c = 0; c < p->ncfgs; c++) {
        free(p->cfgs[c].level);
        free(p->cfgs[c].parts);
    }
    free(p->cfgs);
    /* the slot after the last counted part may hold a part that failed */
    for (int j = 0; p->parts && j <= p->nparts; j++) {
        free(p->parts[j].name);
        free(p->parts[j].beta);
        free(p->parts[j].inv);
        free(p->parts[j].keep);
        free(p->parts[j].absent);
    }
    free(p->parts);
    free(p->loo_pred);
    memset(p, 0, sizeof *p);
}

/* ====== Predicting ====== */

static void ns__point_alloc(const ns_pred *p, ns_pred_point *pt) {
    memset(pt, 0, sizeof *pt);
    int na = p->naxes ? p->naxes : 1;
    pt->factor = ns_xcalloc((size_t)na, sizeof *pt->factor);
    pt->x = ns_xcalloc((size_t)na, sizeof *pt->x);
    pt->level = ns_xcalloc((size_t)na, sizeof *pt->level);
}

int ns_pred_point_at(const ns_pred *p, const ns_kvlist *at, ns_pred_point *pt) {
    ns_pred_point *q = pt;
    char *why = ((ns_pred *)p)->why;
    size_t wl = sizeof p->why;
    ns__point_alloc(p, q);
    for (int a = 0; a < p->naxes; a++) {
        q->x[a] = NAN;
        q->level[a] = -1;
    }
    for (int k = 0; k < at->n; k++) {
        const char *key = at->items[k].key, *v = at->items[k].value;
        int a = 0;
        while (a < p->naxes && strcmp(p->axes[a].name, key) != 0) a++;
        if (a == p->naxes && strcmp(key, "size_b") == 0)
            for (a = 0; a < p->naxes && !p->axes[a].derived; a++) {}
        if (a == p->naxes) {
            const char *f = ns_kv_get(&p->fixed, key);
            if (f && strcmp(f, v) == 0) continue;
            if (f) snprintf(why, wl, "the sweep measured %s only at %s: it cannot say what "
                                     "another value of it costs", key, f);
            else snprintf(why, wl, "the sweep has no tag '%s'", key);
            return -1;
        }
        const ns_pred_axis *ax = &p->axes[a];
        if (ax->numeric) {
            double x;
            int ok = ns_text_number(v, &x) ||
                     (ax->derived && ns_model_size_b(v, &x, NULL, NULL));
            if (!ok || !(x > 0) || !isfinite(x)) {
                snprintf(why, wl, "%s=%s: a number above 0 is needed%s", key, v,
                         ax->derived ? " (or a model name with its size, e.g. qwen2-14b)" : "");
                return -1;
            }
            q->x[a] = x;
        } else {
            q->level[a] = ns__level_of(ax, v);
            if (q->level[a] < 0) {
                snprintf(why, wl, "%s=%s was never measured, and a category cannot be "
                                  "predicted (measured: ", key, v);
                for (int l = 0; l < ax->nlevels; l++) {
                    size_t u = strlen(why);
                    snprintf(why + u, wl - u, "%s%s", l ? ", " : "", ax->levels[l]);
                }
                size_t u = strlen(why);
                snprintf(why + u, wl - u, ")");
                return -1;
            }
        }
    }
    for (int a = 0; a < p->naxes; a++)
        if (p->axes[a].numeric ? isnan(q->x[a]) : q->level[a] < 0) {
            snprintf(why, wl, "give a value of every axis the sweep varies (missing: %s)",
                     p->axes[a].name);
            return -1;
        }
    return 0;
}

/* Is the part zero at the point's categorical levels (as in every
 * measured configuration with them)? */
static int ns__absent_at(const ns_pred *p, const ns_pred_part *pt, const ns_pred_point *q) {
    int seen = 0, absent = 1;
    for (int c = 0; c < p->ncfgs; c++) {
        int same = 1;
        for (int a = 0; a < p->naxes && same; a++)
            if (!p->axes[a].numeric) same = p->cfgs[c].level[a] == q->level[a];
        if (!same) continue;
        seen = 1;
        absent &= pt->absent[c] != 0;
    }
    return seen && absent;
}

void ns_pred_eval(const ns_pred *p, ns_pred_point *q) {
    int na = p->naxes;
    double *lx = ns_xcalloc((size_t)na + 1, sizeof *lx);
    q->extrapolation = 0;
    for (int a = 0; a < na; a++) {
        const ns_pred_axis *ax = &p->axes[a];
        q->factor[a] = 1;
        lx[a] = NAN;
        if (!ax->numeric) continue;
        lx[a] = log(q->x[a]) - ax->center;
        if (q->x[a] > ax->hi) q->factor[a] = q->x[a] / ax->hi;
        if (q->x[a] < ax->lo) q->factor[a] = q->x[a] / ax->lo;
        q->extrapolation |= q->factor[a] != 1;
    }
    int maxc = ns_pred_ncols(p, 1);
    double *row = ns_xcalloc((size_t)maxc + 1, sizeof *row);
    double sum = 0, var_sum = 0, best = -1;
    double *val = ns_xcalloc((size_t)p->nparts + 1, sizeof *val);
    double *var = ns_xcalloc((size_t)p->nparts + 1, sizeof *var);
    int df = 1 << 30;
    q->regime = NULL;
    for (int j = 0; j < p->nparts; j++) {
        const ns_pred_part *pt = &p->parts[j];
        val[j] = NAN;
        if (pt->dropped || pt->form < 0) continue;
        if (pt->is_stage && ns__absent_at(p, pt, q)) {
            val[j] = 0;
            continue;
        }
        ns_pred_part_at(p, pt, lx, q->level, row, &val[j], &var[j]);
        if (pt->is_stage && val[j] > best) {
            best = val[j];
            q->regime = pt->name;
        }
        if (!pt->is_stage || p->summed)
            if (pt->df < df) df = pt->df;
    }
    const ns_pred_part *last = &p->parts[p->nparts - 1];
    double vlast = val[p->nparts - 1];
    if (p->summed) {
        for (int j = 0; j < p->nstages; j++)
            if (!p->parts[j].dropped && val[j] > 0) sum += val[j];
        for (int j = 0; j < p->nstages; j++)
            if (!p->parts[j].dropped && val[j] > 0) var_sum += val[j] * val[j] * var[j];
        q->value = vlast * sum;
        var_sum = var_sum / (sum * sum) + var[p->nparts - 1];
    } else {
        q->value = vlast;
        var_sum = var[p->nparts - 1];
    }
    (void)last;
    /* past an end: the ends check's error, scaled to the prediction's reach */
    for (int a = 0; a < na; a++) {
        double r = ns_pred_ends_error(p, a, q->factor[a]);
        if (isfinite(r)) var_sum += r * r;
    }
    double t = ns_t_quantile(0.5 + p->level / 2, df < 1 ? 1 : df);
    double w = t * sqrt(var_sum);
    q->lo = q->value * exp(-w);
    q->hi = q->value * exp(w);
    /* measured? */
    q->measured = 0;
    for (int c = 0; c < p->ncfgs && !q->measured; c++) {
        int same = 1;
        for (int a = 0; a < na && same; a++)
            same = p->axes[a].numeric ? p->axes[a].xs[p->cfgs[c].level[a]] == q->x[a]
                                      : p->cfgs[c].level[a] == q->level[a];
        if (same) {
            q->measured = 1;
            q->measured_y = p->cfgs[c].y;
        }
    }
    free(row);
    free(val);
    free(var);
    free(lx);
}

double ns_pred_ends_error(const ns_pred *p, int a, double factor) {
    const ns_pred_axis *ax = &p->axes[a];
    int e = factor > 1;
    if (factor == 1 || !ax->numeric) return 0;
    if (!isfinite(ax->ext_err[e]) || !(ax->ext_reach[e] > 0)) return NAN;
    return ax->ext_err[e] * ns_pred_reach(p, a, factor) / ax->ext_reach[e];
}

double ns_pred_reach(const ns_pred *p, int a, double factor) {
    const ns_pred_axis *ax = &p->axes[a];
    return fabs(log(factor)) / log(ax->hi / ax->lo);
}

const char *ns_pred_end_value(const ns_pred_axis *ax, int e) {
    return ax->levels[e ? ax->nlevels - 1 : 0];
}

const char *ns_pred_ends_skip_why(int skip) {
    switch (skip) {
    case NS_PRED_ENDS_DONE: return "checked";
    case NS_PRED_ENDS_FEW: return "fewer than three values measured";
    case NS_PRED_ENDS_HEAVY: return "that end holds more than a third of the configurations";
    default: return "no model could be built without that end";
    }
}

void ns_pred_point_free(ns_pred_point *pt) {
    free(pt->factor);
    free(pt->x);
    free(pt->level);
    memset(pt, 0, sizeof *pt);
}

/* ====== Cliffs ====== */

int ns_pred_cliffs(const ns_pred *p, ns_pred_cliff **out) {
    int n = 0;
    *out = NULL;
    unsigned char *done = ns_xcalloc((size_t)p->ncfgs + 1, 1);
    double *one = ns_xcalloc(1, sizeof *one);
    for (int a = 0; a < p->naxes; a++) {
        if (!p->axes[a].numeric) continue;
        memset(done, 0, (size_t)p->ncfgs);
        for (int c = 0; c < p->ncfgs; c++) {
            if (done[c]) continue;
            ns_fit f = {0};
            for (int e = c; e < p->ncfgs; e++) {
                int same = 1;
                for (int b = 0; b < p->naxes && same; b++)
                    if (b != a) same = p->cfgs[e].level[b] == p->cfgs[c].level[b];
                if (!same) continue;
                done[e] = 1;
                one[0] = p->cfgs[e].y;
                ns_fit_add(&f, p->axes[a].xs[p->cfgs[e].level[a]], one, 1);
            }
            if (f.npts >= 3 && ns_fit_power(&f) == 0)
                for (int s = 0; s < f.nslopes; s++) {
                    if (!f.slopes[s].cliff) continue;
                    *out = ns_xrealloc(*out, sizeof **out * (size_t)(n + 1));
                    ns_pred_cliff *cl = &(*out)[n++];
                    cl->axis = a;
                    cl->x0 = f.slopes[s].x0;
                    cl->x1 = f.slopes[s].x1;
                    cl->slope = f.slopes[s].slope;
                    cl->exponent = f.exponent;
                    cl->cfg = c;
                }
            ns_fit_free(&f);
        }
    }
    free(one);
    free(done);
    return n;
}

int ns_pred_past_cliff(const ns_pred *p, const ns_pred_cliff *c, int nc, const ns_pred_point *pt) {
    for (int i = 0; i < nc; i++) {
        int same = 1;
        for (int a = 0; a < p->naxes && same; a++)
            if (!p->axes[a].numeric) same = p->cfgs[c[i].cfg].level[a] == pt->level[a];
        if (same && pt->x[c[i].axis] > c[i].x0) return 1;
    }
    return 0;
}
