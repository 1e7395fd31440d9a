/* unit_stats.c -- unit tests of src/stats.c against published reference
 * values: R's wilcox.test example, exact small-sample tables of the
 * Mann-Whitney test, Student t tables and closed forms, Anscombe's quartet.
 * The exact p-value is also checked against brute-force enumeration of
 * every split of the pooled sample (random small samples with ties), and
 * large samples against the normal approximation and the symmetries of the
 * test.
 *
 * Prints one line per failure and ends with "unit_stats: N passed, N failed". */
#include "check.h"

#include "analyse/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* |got - want| <= tol, printing both when not */
#define NEAR(got, want, tol)                                                 \
    do {                                                                     \
        double g_ = (got), w_ = (want);                                      \
        if (fabs(g_ - w_) <= (tol)) passed++;                                \
        else {                                                               \
            failed++;                                                        \
            printf("FAIL %s:%d: %s = %.15g, wanted %.15g (+- %g)\n",         \
                   __FILE__, __LINE__, #got, g_, w_, (double)(tol));         \
        }                                                                    \
    } while (0)

#define LEN(a) (sizeof(a) / sizeof *(a))

/* ====== Summaries, MAD, outliers ====== */

static void test_median(void) {
    double even[] = {4, 1, 3, 2};
    CHECK(ns_median(even, 4) == 2.5);
    double two[] = {7, 3};
    CHECK(ns_median(two, 2) == 5);
    double with_nan[] = {NAN, 3, 1, NAN};
    CHECK(ns_median(with_nan, 4) == 2);
    double odd[] = {5, 1, 3};
    CHECK(ns_median(odd, 3) == 3);
    CHECK(isnan(ns_median(NULL, 0)));
}

static void test_mad(void) {
    double v[] = {1, 2, 3, 4, 100};
    CHECK(ns_mad(v, 5) == 1); /* |v - 3| = 2 1 0 1 97 */
    CHECK(v[0] == 1 && v[4] == 100); /* input untouched */
    double even[] = {4, 1, 3, 2}; /* median 2.5, |v - 2.5| = 1.5 1.5 .5 .5 */
    CHECK(ns_mad(even, 4) == 1);
    CHECK(even[0] == 4 && even[1] == 1); /* untouched, not sorted */
    double nan_mixed[] = {NAN, 10, 12, NAN, 11}; /* median 11, MAD 1 */
    CHECK(ns_mad(nan_mixed, 5) == 1);
    double all_nan[] = {NAN, NAN};
    CHECK(isnan(ns_mad(all_nan, 2)));
    CHECK(isnan(ns_mad(NULL, 0)));
    double flat[] = {5, 5, 5};
    CHECK(ns_mad(flat, 3) == 0);
}

static void test_outliers(void) {
    unsigned char f[8];
    /* median 3, MAD 1: 100 scores 0.6745 * 97 = 65.4, 1 scores 1.35 */
    double v[] = {1, 2, 3, 4, 100};
    memset(f, 7, sizeof f);
    CHECK(ns_outliers(v, 5, f) == 1);
    CHECK(f[0] == 0 && f[1] == 0 && f[2] == 0 && f[3] == 0 && f[4] == 1);
    CHECK(ns_outliers(v, 5, NULL) == 1);
    double low[] = {-100, 1, 2, 3, 4};
    CHECK(ns_outliers(low, 5, f) == 1 && f[0] == 1 && f[4] == 0);
    /* zero variance: MAD 0, nothing flagged */
    double flat[] = {2.5, 2.5, 2.5, 2.5};
    memset(f, 7, sizeof f);
    CHECK(ns_outliers(flat, 4, f) == 0);
    CHECK(f[0] == 0 && f[1] == 0 && f[2] == 0 && f[3] == 0);
    /* more than half equal: MAD 0 too, so even 100 is not flagged (the
     * documented limit of the modified z-score) */
    double most_equal[] = {1, 1, 1, 2, 100};
    CHECK(ns_outliers(most_equal, 5, f) == 0 && f[4] == 0);
    /* NaN is never flagged and does not count */
    double nan_mixed[] = {1, NAN, 2, 3, 4, 100};
    CHECK(ns_outliers(nan_mixed, 6, f) == 1 && f[1] == 0 && f[5] == 1);
    /* just inside and outside the cut: median 0, MAD 1 (|v| = 0 1 1 ...),
     * cut at 3.5 / 0.6745 = 5.189 */
    double cut[] = {-1, 0, 1, 0, 5.1, -5.3};
    CHECK(ns_outliers(cut, 6, f) == 1 && f[4] == 0 && f[5] == 1);
    CHECK(ns_outliers(NULL, 0, NULL) == 0);
    /* a tight cluster: 1.02 scores 0.6745 * 0.018 / 0.001 = 12 but lies
     * 1.8% from the median, under the 5% floor; 1.06 (5.8%) is flagged */
    double tight[] = {1.000, 1.001, 1.002, 1.003, 1.02};
    CHECK(ns_outliers(tight, 5, f) == 0);
    double tight2[] = {1.000, 1.001, 1.002, 1.003, 1.06};
    CHECK(ns_outliers(tight2, 5, f) == 1 && f[4] == 1);
}

/* ====== Mann-Whitney ====== */

/* The exact two-sided p by enumerating every split of the pooled numbers
 * (mid-ranks by counting, independent of stats.c's sort), and U of a by
 * counting pairs.  N <= 20. */
static double brute_p(const double *a, size_t na, const double *b, size_t nb, double *u) {
    double v[20];
    int in_a[20];
    size_t n = 0, ka = 0;
    for (size_t i = 0; i < na; i++)
        if (!isnan(a[i])) v[n] = a[i], in_a[n++] = 1, ka++;
    for (size_t i = 0; i < nb; i++)
        if (!isnan(b[i])) v[n] = b[i], in_a[n++] = 0;
    *u = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (in_a[i] && !in_a[j]) *u += v[i] > v[j] ? 1 : v[i] == v[j] ? 0.5 : 0;
    double r[20], s_obs = 0;
    for (size_t i = 0; i < n; i++) {
        int less = 0, equal = 0;
        for (size_t j = 0; j < n; j++) less += v[j] < v[i], equal += v[j] == v[i];
        r[i] = less + (equal + 1) / 2.0; /* equal counts v[i] itself */
        if (in_a[i]) s_obs += r[i];
    }
    double mean = (double)ka * (double)(n + 1) / 2, hits = 0, all = 0;
    for (unsigned long mask = 0; mask < 1ul << n; mask++) {
        size_t bits = 0;
        for (unsigned long m = mask; m; m &= m - 1) bits++;
        if (bits != ka) continue;
        double s = 0;
        for (size_t i = 0; i < n; i++)
            if (mask >> i & 1) s += r[i];
        all++;
        /* sums of halves are exact in binary: no tolerance needed */
        if (fabs(s - mean) >= fabs(s_obs - mean)) hits++;
    }
    return hits / all;
}

static unsigned long long rng = 88172645463325252ull;
static unsigned rnd(unsigned n) { /* xorshift64, 0..n-1 */
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (unsigned)(rng % n);
}

static void test_mann_whitney_reference(void) {
    double u;
    /* R, ?wilcox.test (Hollander & Wolfe 1973, p. 69): "W = 35, p-value =
     * 0.1272" for alternative = "greater"; the null distribution without
     * ties is symmetric, so two-sided p = 2 * 0.1272 = 0.2544 (764/3003). */
    double x[] = {0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46};
    double y[] = {1.15, 0.88, 0.90, 0.74, 1.21};
    double p = ns_mann_whitney_p(x, 10, y, 5, &u);
    CHECK(u == 35);
    NEAR(p, 0.2544, 5e-5);
    NEAR(p, 764.0 / 3003, 1e-15);
    double bu, bp = brute_p(x, 10, y, 5, &bu);
    NEAR(p, bp, 1e-15);
    CHECK(bu == 35);
    /* the other way round: same p, U = 10 * 5 - 35 */
    NEAR(ns_mann_whitney_p(y, 5, x, 10, &u), p, 1e-15);
    CHECK(u == 15);
    /* R, wilcox.test(x, y, conf.int = TRUE): "difference in location
     * 0.305"; ours is b - a */
    NEAR(ns_hodges_lehmann(y, 5, x, 10), 0.305, 1e-12);
    NEAR(ns_hodges_lehmann(x, 10, y, 5), -0.305, 1e-12);

    /* Exact tables (Mann & Whitney 1947; any table of the rank-sum
     * distribution): complete separation is the single most extreme split on
     * each side, so p = 2 / C(2n, n). */
    double a3[] = {1, 2, 3}, b3[] = {4, 5, 6};
    NEAR(ns_mann_whitney_p(a3, 3, b3, 3, &u), 0.1, 1e-15); /* 2/20 */
    CHECK(u == 0);
    NEAR(ns_mann_whitney_p(b3, 3, a3, 3, &u), 0.1, 1e-15);
    CHECK(u == 9);
    double a4[] = {1.1, 1.2, 1.3, 1.4}, b4[] = {2.1, 2.2, 2.3, 2.4};
    NEAR(ns_mann_whitney_p(a4, 4, b4, 4, NULL), 2.0 / 70, 1e-15); /* 0.02857 */
    NEAR(ns_mann_whitney_p(a4, 4, b4, 4, NULL), 0.02857, 5e-6);
    double a5[] = {10, 11, 12, 13, 14}, b5[] = {20, 21, 22, 23, 24};
    NEAR(ns_mann_whitney_p(b5, 5, a5, 5, NULL), 2.0 / 252, 1e-15); /* 0.007937 */
    NEAR(ns_mann_whitney_p(b5, 5, a5, 5, NULL), 0.007937, 5e-7);
    /* unequal sizes, separated: 2 / C(9, 2) */
    double a2[] = {0, 1}, b7[] = {2, 3, 4, 5, 6, 7, 8};
    NEAR(ns_mann_whitney_p(a2, 2, b7, 7, NULL), 2.0 / 36, 1e-15);
    NEAR(ns_mann_whitney_p(b7, 7, a2, 2, NULL), 2.0 / 36, 1e-15);

    /* nothing to tell apart */
    double ones[] = {1, 1, 1};
    CHECK(ns_mann_whitney_p(ones, 3, ones, 3, &u) == 1);
    CHECK(u == 4.5);
    double same[] = {1, 2, 3};
    CHECK(ns_mann_whitney_p(same, 3, same, 3, &u) == 1);
    CHECK(u == 4.5);
    double one_a[] = {1}, one_b[] = {2};
    CHECK(ns_mann_whitney_p(one_a, 1, one_b, 1, &u) == 1);
    CHECK(u == 0);
    /* empty, or nothing but NaN */
    u = 0;
    CHECK(isnan(ns_mann_whitney_p(NULL, 0, same, 3, &u)) && isnan(u));
    CHECK(isnan(ns_mann_whitney_p(same, 3, NULL, 0, NULL)));
    double nans[] = {NAN, NAN};
    CHECK(isnan(ns_mann_whitney_p(nans, 2, same, 3, NULL)));
    /* NaN is skipped: the same as the 3 vs 3 table */
    double a3n[] = {1, NAN, 2, 3}, b3n[] = {NAN, 4, 5, 6};
    NEAR(ns_mann_whitney_p(a3n, 4, b3n, 4, &u), 0.1, 1e-15);
    CHECK(u == 0);

    /* ties: checked against every one of the C(8,4) = 70 splits */
    double ta[] = {1, 2, 2, 3}, tb[] = {2, 3, 3, 4};
    bp = brute_p(ta, 4, tb, 4, &bu);
    NEAR(ns_mann_whitney_p(ta, 4, tb, 4, &u), bp, 1e-15);
    CHECK(u == bu && u == 3); /* the 2s tie one 2 (0.5 each), 3 beats 2 and ties two 3s */

    /* min p */
    NEAR(ns_mann_whitney_min_p(3, 3), 0.1, 1e-15);
    NEAR(ns_mann_whitney_min_p(4, 4), 2.0 / 70, 1e-15);
    NEAR(ns_mann_whitney_min_p(5, 5), 2.0 / 252, 1e-15);
    NEAR(ns_mann_whitney_min_p(2, 7), 2.0 / 36, 1e-15);
    NEAR(ns_mann_whitney_min_p(7, 2), 2.0 / 36, 1e-15);
    CHECK(ns_mann_whitney_min_p(1, 1) == 1);
    NEAR(ns_mann_whitney_min_p(1, 2), 2.0 / 3, 1e-15);
    CHECK(isnan(ns_mann_whitney_min_p(0, 3)) && isnan(ns_mann_whitney_min_p(3, 0)));
}

/* Random small samples, many with ties and some NaN, against enumeration. */
static void test_mann_whitney_brute(void) {
    int bad_p = 0, bad_u = 0, cases = 0;
    for (int t = 0; t < 400; t++) {
        size_t na = 1 + rnd(8), nb = 1 + rnd(8);
        if (na + nb > 16) continue;
        unsigned range = 2 + rnd(t % 3 == 0 ? 30 : 5); /* few values: ties */
        double a[8], b[8];
        for (size_t i = 0; i < na; i++) a[i] = rnd(range) * 0.25;
        for (size_t i = 0; i < nb; i++) b[i] = rnd(range) * 0.25 + (t % 4 == 0);
        if (t % 7 == 0 && na > 1) a[rnd((unsigned)na)] = NAN;
        if (t % 11 == 0 && nb > 1) b[rnd((unsigned)nb)] = NAN;
        double u, bu, bp = brute_p(a, na, b, nb, &bu);
        double p = ns_mann_whitney_p(a, na, b, nb, &u);
        cases++;
        if (!(fabs(p - bp) <= 1e-13 * bp)) {
            if (bad_p++ < 5) printf("  brute: %zu vs %zu: p %.17g, enumerated %.17g\n", na, nb, p, bp);
        }
        if (u != bu) {
            if (bad_u++ < 5) printf("  brute: %zu vs %zu: U %g, counted %g\n", na, nb, u, bu);
        }
    }
    CHECK(cases > 300);
    CHECK(bad_p == 0);
    CHECK(bad_u == 0);
}

/* Samples too large to enumerate: the symmetries of the test, the normal
 * approximation with the tie correction (Lehmann, Nonparametrics, 1975,
 * eq. 1.52), and complete separation. */
static void test_mann_whitney_large(void) {
    enum { N = 120 };
    static double a[N], b[N], na_[N], nb_[N];
    for (int every = 1; every <= 2; every++) { /* p about 0.011 and 0.19 */
        for (int i = 0; i < N; i++) {
            a[i] = i % 20; /* heavy ties */
            b[i] = (i * 7) % 20 + (i % every == 0) * 2;
            na_[i] = -a[i], nb_[i] = -b[i];
        }
        double u, p = ns_mann_whitney_p(a, N, b, N, &u);
        CHECK(p > 0.005 && p < 0.5);
        /* equal sizes: the DP counts a in one call and b in the other */
        NEAR(ns_mann_whitney_p(b, N, a, N, NULL), p, 1e-12 * p);
        /* negated values reverse the ranks and change the tie layout */
        NEAR(ns_mann_whitney_p(na_, N, nb_, N, NULL), p, 1e-12 * p);
        /* normal approximation with the tie and continuity corrections:
         * within a few percent at this size (1.1% and 0.6% here) */
        double all[2 * N];
        memcpy(all, a, sizeof a), memcpy(all + N, b, sizeof b);
        double ties = 0;
        for (int i = 0; i < 2 * N; i++) {
            int t = 0, first = 1;
            for (int j = 0; j < 2 * N; j++) {
                if (all[j] == all[i]) t++;
                if (all[j] == all[i] && j < i) first = 0;
            }
            if (first) ties += (double)t * t * t - t;
        }
        double n = 2 * N, mu = N * N / 2.0;
        double sigma = sqrt(N * (double)N / 12 * ((n + 1) - ties / (n * (n - 1))));
        double z = (fabs(u - mu) - 0.5) / sigma, p_norm = erfc(z / sqrt(2));
        NEAR(p, p_norm, 0.03 * p_norm);
    }

    /* 200 vs 200 separated without ties: 2 / C(400, 200) = 1.9426e-119 */
    static double sa[200], sb[200];
    for (int i = 0; i < 200; i++) sa[i] = i, sb[i] = 200 + i;
    double u, p = ns_mann_whitney_p_exact(sa, 200, sb, 200, &u);
    NEAR(p / ns_mann_whitney_min_p(200, 200), 1, 1e-10);
    NEAR(p / 1.9426434495222363e-119, 1, 1e-10);
    CHECK(u == 0);
    /* lopsided sizes go far: 10 vs 2500 (with ties) */
    static double big[2500];
    for (int i = 0; i < 2500; i++) big[i] = i % 97;
    double small[10] = {5, 50, 96, 0, 33, 33, 70, 12, 88, 41};
    p = ns_mann_whitney_p_exact(small, 10, big, 2500, &u);
    CHECK(p > 0.3 && p <= 1);
    NEAR(ns_mann_whitney_p_exact(big, 2500, small, 10, NULL), p, 1e-12);
    /* beyond the exact count's work limit: NaN, quickly, but U still
     * given; ns_mann_whitney_p never gives up (the normal approximation) */
    static double c[400], d[400];
    for (int i = 0; i < 400; i++) c[i] = i % 13, d[i] = i % 17;
    p = ns_mann_whitney_p_exact(c, 400, d, 400, &u);
    CHECK(isnan(p) && !isnan(u));
    double u2;
    p = ns_mann_whitney_p(c, 400, d, 400, &u2);
    CHECK(p > 0 && p <= 1 && u2 == u);
    NEAR(p, ns_mann_whitney_p_normal(c, 400, d, 400, NULL), 0);
    /* a 1.5x shift at 300 a side: tiny p, not NaN */
    static double s3a[300], s3b[300];
    for (int i = 0; i < 300; i++) s3a[i] = 1 + (i % 17) * 0.01, s3b[i] = 1.5 * s3a[i];
    p = ns_mann_whitney_p(s3a, 300, s3b, 300, NULL);
    CHECK(p < 1e-50);
}

/* At the crossover (exact while cheap, about 45 a side): the exact count
 * and the normal approximation agree within a few percent wherever the p
 * matters, with and without ties, balanced and not; and
 * ns_mann_whitney_p is one or the other. */
static void test_mann_whitney_crossover(void) {
    static const size_t sizes[][2] = {{40, 40}, {44, 46}, {45, 45}, {48, 48}, {53, 53},
                                      {30, 70}, {60, 60}};
    int cases = 0, far = 0, neither = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (int ties = 0; ties <= 1; ties++)
            for (int shift = 0; shift < 6; shift++) {
                size_t na = sizes[s][0], nb = sizes[s][1];
                double a[70], b[70];
                for (size_t i = 0; i < na; i++)
                    a[i] = ties ? (double)rnd(12) : rnd(100000) * 1e-5;
                for (size_t i = 0; i < nb; i++)
                    b[i] = (ties ? (double)rnd(12) : rnd(100000) * 1e-5) +
                           shift * (ties ? 0.6 : 0.05);
                double pe = ns_mann_whitney_p_exact(a, na, b, nb, NULL);
                double pn = ns_mann_whitney_p_normal(a, na, b, nb, NULL);
                double p = ns_mann_whitney_p(a, na, b, nb, NULL);
                cases++;
                if (p != pe && p != pn) neither++;
                /* within 5 % where a verdict is decided (p >= 0.01); in the
                 * far tail the approximation errs only on the large
                 * (conservative) side, and by at most 4x */
                int ok = pe >= 0.01 ? fabs(pn - pe) <= 0.05 * pe : pn >= pe && pn <= 4 * pe;
                if (!ok) {
                    if (far++ < 5)
                        printf("  crossover: %zu vs %zu ties %d: exact %.6g normal %.6g\n", na,
                               nb, ties, pe, pn);
                }
            }
    CHECK(cases == 84);
    CHECK(far == 0);
    CHECK(neither == 0);
    /* the switch: 20 vs 20 is exact, 200 vs 200 approximated */
    static double x[200], y[200];
    for (int i = 0; i < 200; i++) x[i] = i % 7, y[i] = (i % 9) + 0.5;
    CHECK(ns_mann_whitney_p(x, 20, y, 20, NULL) == ns_mann_whitney_p_exact(x, 20, y, 20, NULL));
    CHECK(ns_mann_whitney_p(x, 200, y, 200, NULL) == ns_mann_whitney_p_normal(x, 200, y, 200, NULL));
}

static void test_hodges_lehmann(void) {
    double a[] = {1, 2, 3}, b[] = {4, 5, 6}; /* differences 1..5, median 3 */
    CHECK(ns_hodges_lehmann(a, 3, b, 3) == 3);
    CHECK(ns_hodges_lehmann(b, 3, a, 3) == -3);
    double an[] = {NAN, 1, 2, 3}, bn[] = {4, NAN, 5, 6};
    CHECK(ns_hodges_lehmann(an, 4, bn, 4) == 3);
    double a1[] = {0}, b2[] = {1, 4}; /* differences 1, 4: median 2.5 */
    CHECK(ns_hodges_lehmann(a1, 1, b2, 2) == 2.5);
    CHECK(isnan(ns_hodges_lehmann(NULL, 0, b2, 2)));
    CHECK(isnan(ns_hodges_lehmann(a1, 1, NULL, 0)));
    CHECK(a[0] == 1 && b[0] == 4); /* inputs untouched */
    /* the interval: 5 vs 5 at 90 % is the 5th smallest and largest of the
     * 25 differences (the exact tables' K for one-sided 0.05 and 5, 5) */
    double a5[] = {1, 2, 3, 4, 5}, b5[] = {10, 20, 30, 40, 50}, lo, hi;
    double h = ns_hodges_lehmann_ci(a5, 5, b5, 5, 0.90, &lo, &hi);
    CHECK(h == 27 && lo == 9 && hi == 45);
    /* 3 vs 3 at 90 %: K = 1, the extremes; at 99 % unbounded */
    ns_hodges_lehmann_ci(a, 3, b, 3, 0.90, &lo, &hi);
    CHECK(lo == 1 && hi == 5);
    ns_hodges_lehmann_ci(a, 3, b, 3, 0.99, &lo, &hi);
    CHECK(lo == -INFINITY && hi == INFINITY);
    ns_hodges_lehmann_ci(NULL, 0, b, 3, 0.9, &lo, &hi);
    CHECK(isnan(lo) && isnan(hi));
    /* selection gives the median a sort gives, ties and even counts too */
    int bad = 0;
    for (int t = 0; t < 200; t++) {
        size_t na = 1 + rnd(30), nb = 1 + rnd(30);
        double x[30], y[30], all[900];
        for (size_t i = 0; i < na; i++) x[i] = rnd(t % 2 ? 5 : 1000) * 0.5;
        for (size_t j = 0; j < nb; j++) y[j] = rnd(t % 2 ? 5 : 1000) * 0.5;
        size_t k = 0;
        for (size_t i = 0; i < na; i++)
            for (size_t j = 0; j < nb; j++) all[k++] = y[j] - x[i];
        double hl = ns_hodges_lehmann(x, na, y, nb), md = ns_median(all, k);
        if (hl != md && bad++ < 3) printf("  hl: %zu vs %zu: %.17g sorted %.17g\n", na, nb, hl, md);
    }
    CHECK(bad == 0);
}

/* ====== Student's t ====== */

/* Shaw (2006), "Sampling Student's T distribution -- use of the inverse
 * cumulative distribution function", J. Comput. Finance 9(4): closed form
 * for 4 degrees of freedom. */
static double t4_closed(double p) {
    double al = 4 * p * (1 - p), q = cos(acos(sqrt(al)) / 3) / sqrt(al);
    return (p > 0.5 ? 2 : -2) * sqrt(q - 1);
}

static void test_t_quantile(void) {
    /* standard tables (e.g. Abramowitz & Stegun, Table 26.10; NIST/SEMATECH
     * e-Handbook 1.3.6.7.2), rounded to 6 decimals */
    NEAR(ns_t_quantile(0.975, 1), 12.706205, 1e-6);
    NEAR(ns_t_quantile(0.975, 2), 4.302653, 1e-6);
    NEAR(ns_t_quantile(0.975, 4), 2.776445, 1e-6);
    NEAR(ns_t_quantile(0.975, 5), 2.570582, 1e-6);
    NEAR(ns_t_quantile(0.975, 9), 2.262157, 1e-6);
    NEAR(ns_t_quantile(0.975, 10), 2.228139, 1e-6);
    NEAR(ns_t_quantile(0.975, 30), 2.042272, 1e-6);
    NEAR(ns_t_quantile(0.95, 10), 1.812461, 1e-6);
    NEAR(ns_t_quantile(0.995, 3), 5.840909, 1e-6);
    NEAR(ns_t_quantile(0.9995, 120), 3.373454, 1e-6);
    /* large df tends to the normal: z + (z^3 + z) / (4 df) (Cornish-Fisher,
     * A&S 26.7.5), z = 1.959963985 */
    double z = 1.959963984540054;
    NEAR(ns_t_quantile(0.975, 1e5), z + (z * z * z + z) / 4e5, 1e-9);

    /* the general solver just off df = 1, 2 and 4 against the closed forms
     * (1: Cauchy, tan(pi (p - 1/2)) = cot(pi (1 - p)); 2: (2p - 1) / sqrt(2 p (1 - p)); 4:
     * Shaw), and exactly at 1 and 2 (where the closed forms are used) */
    const double ps[] = {0.001, 0.025, 0.3, 0.55, 0.6, 0.75, 0.9, 0.975, 0.995, 0.9995, 0.999999};
    const double pi = 3.14159265358979323846;
    int bad = 0;
    for (size_t i = 0; i < LEN(ps); i++) {
        double p = ps[i];
        /* cot(pi (1 - p)), not tan(pi (p - 1/2)), which loses digits near 1 */
        double c1 = p > 0.5 ? 1 / tan(pi * (1 - p)) : -1 / tan(pi * p), c2 = (2 * p - 1) / sqrt(2 * p * (1 - p)), c4 = t4_closed(p);
        double g1 = ns_t_quantile(p, 1 + 1e-11), g2 = ns_t_quantile(p, 2 + 1e-11),
               g4 = ns_t_quantile(p, 4);
        if (fabs(g1 - c1) > 1e-8 * fabs(c1) || fabs(g2 - c2) > 1e-8 * fabs(c2) ||
            fabs(g4 - c4) > 1e-11 * fabs(c4) || fabs(ns_t_quantile(p, 1) - c1) > 1e-11 * fabs(c1) ||
            fabs(ns_t_quantile(p, 2) - c2) > 1e-12 * fabs(c2)) {
            if (bad++ < 5)
                printf("  t: p %g: df1 %.15g/%.15g df2 %.15g/%.15g df4 %.15g/%.15g\n", p, g1, c1, g2,
                       c2, g4, c4);
        }
    }
    CHECK(bad == 0);

    /* symmetric, monotone in p and in df, fractional df between its
     * neighbours */
    NEAR(ns_t_quantile(0.025, 10), -ns_t_quantile(0.975, 10), 1e-12);
    CHECK(ns_t_quantile(0.5, 7) == 0);
    double t25 = ns_t_quantile(0.975, 2.5);
    CHECK(t25 < ns_t_quantile(0.975, 2) && t25 > ns_t_quantile(0.975, 3));
    int monotone = 1;
    double prev = -INFINITY;
    for (double p = 0.0005; p < 1; p += 0.001) {
        double t = ns_t_quantile(p, 3.3);
        if (!(t > prev)) monotone = 0;
        prev = t;
    }
    CHECK(monotone);
    for (int df = 1; df < 60; df++)
        if (!(ns_t_quantile(0.975, df + 1) < ns_t_quantile(0.975, df))) monotone = 0;
    CHECK(monotone);
    /* far tails stay finite and ordered */
    double far = ns_t_quantile(1 - 1e-12, 3);
    CHECK(isfinite(far) && far > ns_t_quantile(1 - 1e-9, 3));

    /* domain */
    CHECK(ns_t_quantile(0, 5) == -INFINITY && ns_t_quantile(1, 5) == INFINITY);
    CHECK(isnan(ns_t_quantile(-0.1, 5)) && isnan(ns_t_quantile(1.1, 5)));
    CHECK(isnan(ns_t_quantile(NAN, 5)) && isnan(ns_t_quantile(0.9, NAN)));
    CHECK(isnan(ns_t_quantile(0.9, 0.5)) && isnan(ns_t_quantile(0.9, INFINITY)));
}

/* ====== Regression ====== */

static void test_linear_fit(void) {
    ns_linfit f;
    /* Anscombe (1973), "Graphs in statistical analysis", Am. Stat. 27(1):
     * four sets with the same line y = 3 + 0.5 x and r = 0.82.  Set I to
     * four decimals as R prints summary(lm(y1 ~ x1, anscombe)): slope
     * 0.5001, Std. Error 0.1179, intercept 3.0001, Multiple R-squared
     * 0.6665; confint(): 0.2333 .. 0.7668. */
    double x[] = {10, 8, 13, 9, 11, 14, 6, 4, 12, 7, 5};
    double y1[] = {8.04, 6.95, 7.58, 8.81, 8.33, 9.96, 7.24, 4.26, 10.84, 4.82, 5.68};
    CHECK(ns_linear_fit(x, y1, 11, &f) == 0 && f.n == 11);
    NEAR(f.slope, 0.5001, 5e-5);
    NEAR(f.intercept, 3.0001, 5e-5);
    NEAR(f.r2, 0.6665, 5e-5);
    NEAR(f.slope_se, 0.1179, 5e-5);
    NEAR(f.ci95_lo, 0.2333, 1e-4);
    NEAR(f.ci95_hi, 0.7668, 1e-4);
    NEAR(f.ci95_lo + f.ci95_hi, 2 * f.slope, 1e-12);
    NEAR((f.ci95_hi - f.slope) / f.slope_se, 2.262157, 1e-6); /* t(0.975, 9) */
    double y2[] = {9.14, 8.14, 8.74, 8.77, 9.26, 8.10, 6.13, 3.10, 9.13, 7.26, 4.74};
    double y3[] = {7.46, 6.77, 12.74, 7.11, 7.81, 8.84, 6.08, 5.39, 8.15, 6.42, 5.73};
    double x4[] = {8, 8, 8, 8, 8, 8, 8, 19, 8, 8, 8};
    double y4[] = {6.58, 5.76, 7.71, 8.84, 8.47, 7.04, 5.25, 12.50, 5.56, 7.91, 6.89};
    const double *xs[] = {x, x, x4}, *ys[] = {y2, y3, y4};
    for (int s = 0; s < 3; s++) {
        CHECK(ns_linear_fit(xs[s], ys[s], 11, &f) == 0);
        NEAR(f.slope, 0.5, 5e-4);
        NEAR(f.intercept, 3.0, 3e-3);
        NEAR(f.r2, 0.6665, 5e-4);
        NEAR(f.slope_se, 0.118, 3e-4);
    }

    /* NaN pairs are skipped: set I with three half-missing points added */
    double xn[] = {NAN, 10, 8, 13, 9, 11, 3, 14, 6, 4, 12, 7, 5, NAN};
    double yn[] = {1, 8.04, 6.95, 7.58, 8.81, 8.33, NAN, 9.96, 7.24, 4.26, 10.84, 4.82, 5.68, NAN};
    CHECK(ns_linear_fit(xn, yn, 14, &f) == 0 && f.n == 11);
    NEAR(f.slope, 0.5000909090909091, 1e-13);
    NEAR(f.intercept, 3.0000909090909103, 1e-12);

    /* an exact line: R^2 = 1, no spread, the interval a point */
    double lx[] = {1, 2, 3, 4, 5}, ly[] = {3, 5, 7, 9, 11};
    CHECK(ns_linear_fit(lx, ly, 5, &f) == 0);
    CHECK(f.slope == 2 && f.intercept == 1 && f.r2 == 1);
    CHECK(f.slope_se == 0 && f.ci95_lo == 2 && f.ci95_hi == 2);
    /* two points: the line through them, no standard error or interval */
    double px[] = {1, 3}, py[] = {2, 8};
    CHECK(ns_linear_fit(px, py, 2, &f) == 0 && f.n == 2);
    CHECK(f.slope == 3 && f.intercept == -1 && f.r2 == 1);
    CHECK(isnan(f.slope_se) && isnan(f.ci95_lo) && isnan(f.ci95_hi));
    /* three points: t(0.975, 1) = 12.706 */
    double tx[] = {0, 1, 2}, ty[] = {0, 2, 1}; /* slope 0.5, residuals -.5 1 -.5 */
    CHECK(ns_linear_fit(tx, ty, 3, &f) == 0);
    NEAR(f.slope, 0.5, 1e-15);
    NEAR(f.r2, 0.25, 1e-15);
    NEAR(f.slope_se, sqrt(1.5 / 1 / 2), 1e-15); /* sqrt(rss / (n - 2) / sxx) */
    NEAR(f.ci95_hi, 0.5 + 12.706204736174707 * sqrt(0.75), 1e-12);
    /* horizontal: slope 0, R^2 undefined */
    double hy[] = {4, 4, 4, 4, 4};
    CHECK(ns_linear_fit(lx, hy, 5, &f) == 0 && f.slope == 0 && isnan(f.r2) && f.slope_se == 0);
    /* all x equal (also 0.1s, whose mean is not 0.1 in binary): -1 */
    double ex[] = {2, 2, 2}, ey[] = {1, 2, 3};
    CHECK(ns_linear_fit(ex, ey, 3, &f) == -1 && f.n == 3 && isnan(f.slope) && isnan(f.r2));
    double tenth[] = {0.1, 0.1, 0.1};
    CHECK(ns_linear_fit(tenth, ey, 3, &f) == -1);
    /* too few points */
    CHECK(ns_linear_fit(px, py, 1, &f) == -1 && f.n == 1);
    CHECK(ns_linear_fit(NULL, NULL, 0, &f) == -1 && f.n == 0);
    double nx[] = {1, NAN, 3}, ny[] = {NAN, 2, 3};
    CHECK(ns_linear_fit(nx, ny, 3, &f) == -1 && f.n == 1);
}

int main(void) {
    test_median();
    test_mad();
    test_outliers();
    test_mann_whitney_reference();
    test_mann_whitney_brute();
    test_mann_whitney_large();
    test_mann_whitney_crossover();
    test_hodges_lehmann();
    test_t_quantile();
    test_linear_fit();
    return check_summary("unit_stats");
}
