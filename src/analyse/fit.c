/* fit.c -- power-law fits in log-log space (see fit.h for what and why).
 *
 * The least squares and the Student t quantile are stats.c's
 * (ns_linear_fit); this file takes logarithms, decides which points can
 * take part (a power law has no logarithm at x <= 0 or y <= 0), maps the
 * line back to a prefactor and exponent, and adds what a single line
 * hides: residuals and local slopes.
 *
 * Local slopes join neighbouring distinct x values.  When several points
 * share an x (rows of a CSV table), the slope uses the median of their y,
 * so a repeated measurement never makes an infinite slope.
 */
#include "analyse/fit.h"

#include "base/common.h"
#include "analyse/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== Points ====== */

int ns_fit_add(ns_fit *f, double x, const double *v, size_t n) {
    double *vals = ns_xcalloc(n + 1, sizeof *vals);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i])) vals[k++] = v[i];
    if (k == 0 || isnan(x)) {
        free(vals);
        return -1;
    }
    f->pts = ns_xrealloc(f->pts, sizeof *f->pts * (size_t)(f->npts + 1));
    ns_fit_point *p = &f->pts[f->npts++];
    memset(p, 0, sizeof *p);
    p->x = x;
    p->n = (int)k;
    p->min = ns_min(vals, k);
    p->max = ns_max(vals, k);
    unsigned char *flags = ns_xcalloc(k, 1);
    p->outliers = (int)ns_outliers(vals, k, flags);
    free(flags);
    p->y = ns_median(vals, k); /* last: it sorts vals */
    p->fitted = p->residual = NAN;
    free(vals);
    return 0;
}

/* By x, then y: a deterministic order for points that share an x. */
static int ns__cmp_point(const void *pa, const void *pb) {
    const ns_fit_point *a = pa, *b = pb;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    return (a->y > b->y) - (a->y < b->y);
}

/* ====== Local slopes ====== */

/* Median y of the used points pts[i..j) (they share one x). */
static double ns__median_y(const ns_fit_point *pts, int i, int j) {
    double *y = ns_xcalloc((size_t)(j - i) + 1, sizeof *y);
    size_t k = 0;
    for (int t = i; t < j; t++)
        if (pts[t].used) y[k++] = pts[t].y;
    double m = ns_median(y, k);
    free(y);
    return m;
}

static void ns__local_slopes(ns_fit *f) {
    double px = NAN, py = NAN;
    for (int i = 0; i < f->npts;) {
        int j = i;
        while (j < f->npts && f->pts[j].x == f->pts[i].x) j++;
        double y = ns__median_y(f->pts, i, j);
        double x = f->pts[i].x;
        i = j;
        if (isnan(y)) continue; /* no used point at this x */
        /* a slope over a step the noise can own says nothing (per-report
         * points stand at every x): slopes run between x at least
         * NS_FIT_MIN_STEP apart, the points between them left out */
        if (!isnan(px) && f->min_step > 1 && x / px < f->min_step) continue;
        if (!isnan(px)) {
            f->slopes = ns_xrealloc(f->slopes, sizeof *f->slopes * (size_t)(f->nslopes + 1));
            ns_fit_slope *s = &f->slopes[f->nslopes++];
            s->x0 = px;
            s->x1 = x;
            s->slope = log(y / py) / log(x / px);
            s->cliff = f->ok && s->slope > f->exponent + NS_FIT_CLIFF;
            f->cliffs += s->cliff;
        }
        px = x;
        py = y;
    }
}

/* ====== The fit ====== */

int ns_fit_power(ns_fit *f) {
    f->ok = 0;
    f->used = 0;
    f->cliffs = 0;
    f->exponent = f->prefactor = f->r2 = f->ci95_lo = f->ci95_hi = NAN;
    free(f->slopes);
    f->slopes = NULL;
    f->nslopes = 0;
    if (f->npts > 1) qsort(f->pts, (size_t)f->npts, sizeof *f->pts, ns__cmp_point);
    double *lx = ns_xcalloc((size_t)f->npts + 1, sizeof *lx);
    double *ly = ns_xcalloc((size_t)f->npts + 1, sizeof *ly);
    for (int i = 0; i < f->npts; i++) {
        ns_fit_point *p = &f->pts[i];
        p->used = p->x > 0 && p->y > 0 && isfinite(p->x) && isfinite(p->y);
        p->fitted = p->residual = NAN;
        if (!p->used) continue;
        lx[f->used] = log(p->x);
        ly[f->used] = log(p->y);
        f->used++;
    }
    ns_linfit lf;
    if (f->used >= 2 && ns_linear_fit(lx, ly, (size_t)f->used, &lf) == 0) {
        f->ok = 1;
        f->exponent = lf.slope;
        f->prefactor = exp(lf.intercept);
        f->r2 = lf.r2;
        f->ci95_lo = lf.ci95_lo;
        f->ci95_hi = lf.ci95_hi;
        for (int i = 0; i < f->npts; i++) {
            ns_fit_point *p = &f->pts[i];
            if (!(p->x > 0) || !isfinite(p->x)) continue;
            double lf_y = lf.intercept + lf.slope * log(p->x);
            p->fitted = exp(lf_y);
            if (p->used) p->residual = log(p->y) - lf_y;
        }
    }
    free(lx);
    free(ly);
    ns__local_slopes(f);
    return f->ok ? 0 : -1;
}

void ns_fit_free(ns_fit *f) {
    free(f->pts);
    free(f->slopes);
    memset(f, 0, sizeof *f);
}
