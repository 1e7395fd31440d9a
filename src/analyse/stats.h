/* stats.h -- statistics over samples of numbers: the summaries `table`
 * prints, outlier flags, the exact two-sample test `diff` needs and the
 * least-squares line with its confidence interval.
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

/* ====== Robust spread and outliers ====== */

/* Median absolute deviation from the median (unscaled); NaN when empty. */
double ns_mad(const double *v, size_t n);
/* flags[i] = 1 when v[i] is an outlier by the modified z-score
 * |0.6745 (v[i] - median)| / MAD > 3.5 (Iglewicz and Hoaglin) and lies at
 * least NS_OUTLIER_MIN_REL of the median away from it, else 0 (NaN entries
 * included); with MAD = 0 (more than half the values equal) nothing is
 * flagged.  The floor is for timings: repeats of one compile can agree to
 * a fraction of a percent, and the z-score alone then flags scheduling
 * jitter (a 0.104 s run among 0.101 s ones) as an outlier.  flags has n
 * entries, or is NULL to only count.  Returns the number flagged.
 * Outliers are flagged, never dropped: callers keep and count them. */
#define NS_OUTLIER_MIN_REL 0.05
size_t ns_outliers(const double *v, size_t n, unsigned char *flags);

/* ====== Two-sample comparison ====== */

/* Two-sided p-value of the Mann-Whitney U (Wilcoxon rank-sum) test of
 * samples a (na) and b (nb): exact (ns_mann_whitney_p_exact) while the
 * count is cheap -- about 2 ms, up to some 45 vs 45 values with ties, 53
 * vs 53 without, and lopsided sizes much further -- and the normal
 * approximation with the tie and continuity corrections beyond
 * (ns_mann_whitney_p_normal): there it is within 5 % of the exact value
 * for p >= 0.01, and larger than it (conservative, up to 4x) in the far
 * tail; so it never gives up at any size.  NaN only when either
 * sample is empty.  *u, if not NULL, receives U of a (rank sum of a minus
 * na(na+1)/2, with mid-ranks, so it may end in .5; the number of pairs
 * with a > b plus half the tied pairs), or NaN when either sample is
 * empty. */
double ns_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb, double *u);
/* The exact p, no normal approximation: the permutation distribution of
 * the rank sum of a, with mid-ranks for ties, counted exactly by dynamic
 * programming over doubled ranks.  Two-sided p = the probability, under
 * the null, of a rank sum at least as far from its mean as the observed
 * one (1 when every value is equal).  NaN when either sample is empty, and
 * when the count would take more than about a second (beyond about 210 vs
 * 210 values with ties, 250 vs 250 without; lopsided sizes go further, 10
 * vs 2500); U is given even then. */
double ns_mann_whitney_p_exact(const double *a, size_t na, const double *b, size_t nb,
                               double *u);
/* The normal approximation of the same p: z = (|U - mn/2| - 0.5) / sigma,
 * sigma^2 = mn/12 ((N+1) - sum(t^3 - t) / (N(N-1))) over tie groups of
 * size t; p = erfc(z / sqrt 2), 1 when every value is equal. */
double ns_mann_whitney_p_normal(const double *a, size_t na, const double *b, size_t nb,
                                double *u);
/* Smallest two-sided p an exact test can reach with these sample sizes,
 * 2 / C(na+nb, na) capped at 1 (0.1 for 3 vs 3; reached only without
 * ties): a comparison cannot be significant below it.  NaN when either size
 * is 0. */
double ns_mann_whitney_min_p(size_t na, size_t nb);
/* Hodges-Lehmann estimate of the shift b - a: the median of all pairwise
 * differences b[j] - a[i]. NaN when either is empty (or the na * nb
 * differences would not fit in memory: only with an infinite value).
 * O((na + nb) log) time: the differences are counted, never made. */
double ns_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb);
/* The same estimate, and with lo and hi not NULL and 0 < level < 1 the
 * distribution-free confidence interval of the shift at that level
 * (Moses; Lehmann, Nonparametrics, 1975, sec. 2.6): the K-th smallest and
 * K-th largest of the pairwise differences, K = floor(mn/2 - z sigma +
 * 1/2) with z the normal quantile of (1 + level) / 2 and sigma the
 * tie-corrected standard deviation of U.  K < 1 (samples too small for
 * the level) gives [-inf, inf]; lo and hi are NaN when either sample is
 * empty. */
double ns_hodges_lehmann_ci(const double *a, size_t na, const double *b, size_t nb,
                            double level, double *lo, double *hi);

/* ====== Regression ====== */

typedef struct {
    double slope;      /* b in y = a + b x */
    double intercept;  /* a */
    double r2;         /* coefficient of determination (NaN when all y equal) */
    double slope_se;   /* standard error of the slope (NaN below 3 points) */
    double ci95_lo;    /* 95% confidence interval of the slope, Student t */
    double ci95_hi;    /*   with n-2 degrees of freedom (NaN below 3 points) */
    size_t n;          /* points used (pairs where neither is NaN) */
} ns_linfit;

/* Ordinary least squares of y on x; returns 0, or -1 when fewer than two
 * points or all x equal (then *out holds NaN statistics and n). */
int ns_linear_fit(const double *x, const double *y, size_t n, ns_linfit *out);
/* Quantile of Student's t distribution with df degrees of freedom:
 * ns_t_quantile(0.975, 10) = 2.228139 ... (df may be fractional, >= 1 and
 * finite), to about 1e-12 relative.  -inf at p = 0, +inf at p = 1; NaN for p
 * outside [0, 1] or df outside [1, inf). */
double ns_t_quantile(double p, double df);

#endif
