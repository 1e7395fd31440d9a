/* fit.h -- power laws through measured points: how compile time grows with
 * model size, prompt window or input size.
 *
 * y = prefactor * x^exponent, fitted by ordinary least squares of ln y on
 * ln x.  Log-log space is where a power law is a straight line, and where
 * relative errors (a 5% noisy compile is 5% noisy at every size) weigh the
 * same at every x.  What comes out: the exponent with its 95% confidence
 * interval (Student t, n-2 degrees of freedom; unknown below 3 points), the
 * prefactor, R² in log space, each point's residual in log space, and the
 * local slope between neighbouring x values.
 *
 * The local slopes are there because one exponent can lie: a compile that
 * grows gently and then falls off a cliff (a public report shows one matmul
 * going 10 -> 23 -> 114 minutes as n grows by 18%) has a modest global
 * exponent and one enormous local slope.  A local slope more than
 * NS_FIT_CLIFF above the global exponent is flagged as a cliff.
 *
 * This file is arithmetic only: points in, numbers out.  Where the points
 * come from (runs, CSV rows) and how they are printed is builtin/fit.c's job.
 * Deliberately left out: weighted fits, fits with an additive constant
 * (y = a + b x^k, which a startup cost would want: read it from the
 * residuals instead), and automatic breakpoint detection.
 */
#ifndef NPUSCOPE_FIT_H
#define NPUSCOPE_FIT_H

#include <stddef.h>

/* A local slope this much above the global exponent is a cliff. */
#define NS_FIT_CLIFF 1.0
/* A per-report fit's min_step: its points (report sizes) stand at every
 * x, and the slope of 1888 -> 1889 tasks is noise; a sweep's axis values
 * are chosen steps, each slope between them meant (a cliff at 1.09x). */
#define NS_FIT_MIN_STEP 1.25

typedef struct {
    double x;        /* the x value */
    double y;        /* median of the values at x (a CSV row: its value) */
    int n;           /* values behind y */
    double min;      /* smallest of them */
    double max;      /* largest of them */
    int outliers;    /* of them, flagged by ns_outliers (kept in the median) */
    int used;        /* in the fit: x > 0 and y > 0 */
    double fitted;   /* prefactor * x^exponent (NaN without a fit or x <= 0) */
    double residual; /* ln y - ln fitted (NaN when not in the fit) */
} ns_fit_point;

typedef struct {
    double x0;    /* from this x ... */
    double x1;    /* ... to the next larger one */
    double slope; /* ln(y1 / y0) / ln(x1 / x0) */
    int cliff;    /* slope > exponent + NS_FIT_CLIFF */
} ns_fit_slope;

typedef struct {
    ns_fit_point *pts;    /* points, sorted by x once fitted (owned) */
    int npts;             /* entries in pts */
    ns_fit_slope *slopes; /* between neighbouring x values (owned) */
    int nslopes;          /* entries in slopes */
    int used;             /* points in the fit */
    int ok;               /* a fit was made (2 used points, 2 distinct x) */
    double exponent;      /* slope in log-log space */
    double prefactor;     /* exp(intercept) */
    double r2;            /* R² of the log-log fit */
    double ci95_lo;       /* 95% confidence interval of the exponent */
    double ci95_hi;       /*   (NaN below 3 points) */
    int cliffs;           /* local slopes flagged as cliffs */
    double min_step;      /* local slopes only between x this factor apart; <= 1:
                             every x (a sweep's own axis values) */
} ns_fit;

/* Add the point at x made of the values v[0..n) (NaN ignored): y is their
 * median, with min, max and outliers.  v is not changed.  A point with no
 * value is not added; returns 0 when added, -1 when not. */
int ns_fit_add(ns_fit *f, double x, const double *v, size_t n);
/* Sort the points, fit, and compute residuals and local slopes.  Returns 0
 * when a fit was made, -1 when too few usable points (f->ok = 0; the
 * points are still sorted and their slopes computed). */
int ns_fit_power(ns_fit *f);
void ns_fit_free(ns_fit *f);

#endif
