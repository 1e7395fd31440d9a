/* stats.c -- summary statistics (see stats.h for the conventions: NaN is a
 * missing value and skipped, an impossible statistic is NaN, only ns_median
 * reorders its input).
 *
 * The standard deviation is computed in two passes (mean first, then the
 * squared deviations from it): with samples of a few dozen timings the extra
 * pass costs nothing, and it avoids the cancellation of the one-pass
 * sum-of-squares formula when the spread is tiny next to the mean (warm
 * compiles of 1.82 s +- 0.02 s).
 */
#include "stats.h"

#include <math.h>
#include <stdlib.h>

/* ====== Summary statistics ====== */

size_t ns_count(const double *v, size_t n) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i])) k++;
    return k;
}

/* Ascending, NaN after every number, so that the numbers form a prefix. */
static int ns__cmp_double(const void *pa, const void *pb) {
    double a = *(const double *)pa, b = *(const double *)pb;
    if (isnan(a) || isnan(b)) return isnan(a) - isnan(b);
    return (a > b) - (a < b);
}

double ns_median(double *v, size_t n) {
    if (n == 0) return NAN;
    qsort(v, n, sizeof *v, ns__cmp_double);
    size_t k = ns_count(v, n);
    if (k == 0) return NAN;
    return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

double ns_mean(const double *v, size_t n) {
    double sum = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i])) sum += v[i], k++;
    return k ? sum / (double)k : NAN;
}

double ns_stddev(const double *v, size_t n) {
    size_t k = ns_count(v, n);
    if (k < 2) return NAN;
    double m = ns_mean(v, n), ss = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i])) ss += (v[i] - m) * (v[i] - m);
    return sqrt(ss / (double)(k - 1));
}

double ns_min(const double *v, size_t n) {
    double m = NAN;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i]) && (isnan(m) || v[i] < m)) m = v[i];
    return m;
}

double ns_max(const double *v, size_t n) {
    double m = NAN;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i]) && (isnan(m) || v[i] > m)) m = v[i];
    return m;
}
