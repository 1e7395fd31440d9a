/* stats.h -- statistics over samples of numbers: the summaries `table`
 * prints, and (later) the tests `diff` needs.
 *
 * Timings of a compile are a handful of samples, often with one slow
 * outlier (a cold file cache, a busy machine), so the median is the headline
 * number everywhere and the mean and standard deviation come beside it.
 *
 * Conventions shared by every function here:
 *   - A sample is an array of doubles and its length.  NaN marks a missing
 *     value and is ignored (not counted in n); callers should pass finite
 *     values otherwise -- an infinity is kept and poisons what it touches.
 *   - A statistic that the sample cannot give (the median of nothing, the
 *     standard deviation of one value) is NaN, which every writer prints as
 *     null, an empty CSV field or "-".
 *   - Only ns_median touches its input: it sorts it in place (NaN last).
 *     Pass a copy when the order matters.
 * Deliberately left out: weighted statistics and streaming (one-pass)
 * estimators; samples here are small and kept whole.
 */
#ifndef NPUSCOPE_STATS_H
#define NPUSCOPE_STATS_H

#include <stddef.h>

/* ====== Summary statistics ====== */

/* Values that are not NaN. */
size_t ns_count(const double *v, size_t n);
/* Median; sorts v in place (ascending, NaN last).  For an even count, the
 * mean of the two middle values. */
double ns_median(double *v, size_t n);
double ns_mean(const double *v, size_t n);
/* Sample standard deviation (divides by n-1); NaN below two values. */
double ns_stddev(const double *v, size_t n);
double ns_min(const double *v, size_t n);
double ns_max(const double *v, size_t n);

/* ====== Robust spread and outliers ======
 * (implemented in stats.c; declared here first so fit/diff can use them) */

/* Median absolute deviation from the median (unscaled); NaN when empty. */
double ns_mad(const double *v, size_t n);
/* flags[i] = 1 when v[i] is an outlier by the modified z-score
 * |0.6745 (v[i] - median)| / MAD > 3.5 (Iglewicz and Hoaglin); with MAD = 0
 * nothing is flagged.  Returns the number flagged.  Outliers are flagged,
 * never dropped: callers keep and count them. */
size_t ns_outliers(const double *v, size_t n, unsigned char *flags);

/* ====== Two-sample comparison ====== */

/* Exact two-sided p-value of the Mann-Whitney U (Wilcoxon rank-sum) test of
 * samples a (na) and b (nb), no normal approximation: the permutation
 * distribution of the rank sum of a, with mid-ranks for ties, counted
 * exactly by dynamic programming over doubled ranks.  Two-sided p = the
 * probability, under the null, of a rank sum at least as far from its mean
 * as the observed one.  NaN when either sample is empty.  *u, if not NULL,
 * receives U of a (rank sum of a minus na(na+1)/2). */
double ns_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb, double *u);
/* Smallest two-sided p an exact test can reach with these sample sizes
 * (0.1 for 3 vs 3): a comparison cannot be significant below it. */
double ns_mann_whitney_min_p(size_t na, size_t nb);
/* Hodges-Lehmann estimate of the shift b - a: the median of all pairwise
 * differences b[j] - a[i]. NaN when either is empty. */
double ns_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb);

/* ====== Regression ====== */

typedef struct {
    double slope;      /* b in y = a + b x */
    double intercept;  /* a */
    double r2;         /* coefficient of determination */
    double slope_se;   /* standard error of the slope (NaN below 3 points) */
    double ci95_lo;    /* 95% confidence interval of the slope, Student t */
    double ci95_hi;    /*   with n-2 degrees of freedom (NaN below 3 points) */
    size_t n;          /* points used (pairs where both are finite) */
} ns_linfit;

/* Ordinary least squares of y on x; returns 0, or -1 when fewer than two
 * points or all x equal. */
int ns_linear_fit(const double *x, const double *y, size_t n, ns_linfit *out);
/* Quantile of Student's t distribution with df degrees of freedom:
 * ns_t_quantile(0.975, 10) = 2.228139 ... (df may be fractional, >= 1). */
double ns_t_quantile(double p, double df);

#endif
