/* stats.c -- statistics over samples (see stats.h for the conventions: NaN
 * is a missing value and skipped, an impossible statistic is NaN, only
 * ns_median reorders its input).
 *
 * Summaries.  The standard deviation is computed in two passes (mean first,
 * then the squared deviations from it): with samples of a few dozen timings
 * the extra pass costs nothing, and it avoids the cancellation of the
 * one-pass sum-of-squares formula when the spread is tiny next to the mean
 * (warm compiles of 1.82 s +- 0.02 s).  The regression below uses two passes
 * for the same reason.
 *
 * Robust spread.  One slow run (a cold cache) moves the mean and the
 * standard deviation but hardly the median or the median absolute deviation,
 * so outliers are judged against those: the modified z-score of Iglewicz and
 * Hoaglin.  When more than half the runs are equal the MAD is 0 and the score
 * is undefined; nothing is flagged then rather than everything.
 *
 * Two-sample comparison.  With five runs a side, neither a t test (timings
 * are skewed, not normal) nor the normal approximation of the Mann-Whitney
 * test is trustworthy, so the p-value is exact: the rank sum of one sample
 * is compared with its distribution over every way of splitting the pooled
 * runs into two groups of the same sizes.  Timings printed to a millisecond
 * tie often; tied values share their mean rank (mid-rank), and twice a
 * mid-rank is always an integer, so the whole distribution is counted on
 * that doubled integer scale by dynamic programming (see the comment above
 * ns_mann_whitney_p) and the two-sided tail is chosen by comparing integers,
 * never doubles that should have been equal.  The size of the effect comes
 * from the Hodges-Lehmann estimate (median of all pairwise differences), the
 * estimate that goes with this test, and its confidence interval (Moses).
 * The exact count grows as N^4; once it would cost more than a couple of
 * milliseconds (past some 45 runs a side) the normal approximation with the
 * tie and continuity corrections takes over -- at that size it is within
 * 5 % of the exact p where a verdict is decided (p >= 0.01), conservative
 * in the far tail, and it never gives up: a test that answers
 * NaN at 250 runs a side would turn a CI gate off as the history grows.
 * The pairwise differences are never made: each one needed is found by
 * counting (see ns__diff_rank), so 300 runs a side (90,000 differences)
 * cost well under a millisecond a row.
 *
 * Regression.  Ordinary least squares with the usual standard error of the
 * slope; its confidence interval needs quantiles of Student's t, computed
 * here from the regularized incomplete beta function (a continued fraction,
 * evaluated by the modified Lentz method) inverted by Newton's method inside
 * a bisection bracket.  The closed forms for 1 and 2 degrees of freedom are
 * used directly; the unit tests check the general path against them.
 */
#include "analyse/stats.h"

#include "base/common.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ====== Summary statistics ====== */

size_t ns_count(const double *v, size_t n) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i])) k++;
    return k;
}

/* Ascending, NaN after every number, so that the numbers form a prefix.
 * (isnan is only "nonzero": mingw's is -1 for a NaN with its sign set.) */
static int ns__cmp_double(const void *pa, const void *pb) {
    double a = *(const double *)pa, b = *(const double *)pb;
    if (isnan(a) || isnan(b)) return (isnan(a) != 0) - (isnan(b) != 0);
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

/* ====== Robust spread and outliers ====== */

/* The median and the MAD of the numbers of v, from a copy (v stays as it
 * is).  Both NaN when v holds no number. */
static double ns__median_mad(const double *v, size_t n, double *median) {
    size_t k = ns_count(v, n);
    *median = NAN;
    if (k == 0) return NAN;
    double *c = ns_xmalloc(k * sizeof *c);
    size_t j = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i])) c[j++] = v[i];
    double m = ns_median(c, k);
    for (j = 0; j < k; j++) c[j] = fabs(c[j] - m);
    double mad = ns_median(c, k); /* an infinity minus itself is NaN: skipped */
    free(c);
    *median = m;
    return mad;
}

double ns_mad(const double *v, size_t n) {
    double median;
    return ns__median_mad(v, n, &median);
}

size_t ns_outliers(const double *v, size_t n, unsigned char *flags) {
    if (flags)
        for (size_t i = 0; i < n; i++) flags[i] = 0;
    double median, mad = ns__median_mad(v, n, &median);
    /* MAD = 0 (more than half the values equal) leaves the score undefined;
     * "!(mad > 0)" also covers NaN. */
    if (!(mad > 0)) return 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(v[i])) continue;
        double dev = fabs(v[i] - median);
        if (0.6745 * dev / mad > 3.5 && dev >= NS_OUTLIER_MIN_REL * fabs(median)) {
            if (flags) flags[i] = 1;
            k++;
        }
    }
    return k;
}

/* ====== Two-sample comparison ====== */

/* A pooled value and the sample it came from. */
typedef struct {
    double v;
    int from_a;
} ns__tagged;

static int ns__cmp_tagged(const void *pa, const void *pb) {
    double a = ((const ns__tagged *)pa)->v, b = ((const ns__tagged *)pb)->v;
    return (a > b) - (a < b);
}

/* Past this many cell updates the exact count would take more than about a
 * second (the table outgrows the caches and each update costs about 1 ns):
 * the p-value is NaN instead.  The work grows as N^4 for balanced samples,
 * about N^4 / 32 with ties and N^4 / 64 without (g = 2 halves it): 8e8 for
 * 200 vs 200 with ties (0.6 s, 86 MB), so the limit admits about 210 vs 210
 * with ties, 250 vs 250 without, and lopsided sizes far beyond (10 vs 2500
 * is 3e8).  Timing comparisons have a few dozen runs a side. */
#define NS__MW_MAX_WORK 1e9

/* Below this many cell updates (about 2 ms) ns_mann_whitney_p counts
 * exactly; beyond, it uses the normal approximation (ns_mann_whitney_p_normal).
 * The crossover sits near 45 vs 45 runs with ties (53 vs 53 without),
 * where the approximation with the tie and continuity corrections is
 * within 5 % of the exact p for p >= 0.01 and conservative (larger, up to
 * 4x) in the far tail (tests/unit_stats.c checks it there), and a 500-row
 * diff stays well under a second. */
#define NS__MW_EXACT_WORK 2e6

/* The exact null distribution of the rank sum.
 *
 * Pool the N = na + nb numbers, sort them and give each its doubled
 * mid-rank R (a tie group at positions i+1..j, 1-based, shares the mid-rank
 * (i+1+j)/2, so R = i+1+j, an integer).  Under the null hypothesis every
 * choice of which m of the N values form the smaller sample is equally
 * likely, so the distribution of its doubled rank sum T is
 *     count[T] / C(N, m),  count[T] = number of m-subsets of the R's summing to T,
 * counted like a 0/1 knapsack: a table cnt[k][T] over subset sizes
 * k = 0..m, and for each value in turn cnt[k][T + R] += cnt[k-1][T] for k
 * from high to low (so that each value is used at most once, in place).
 * Counting the smaller sample is enough: the larger one's sum is the total
 * minus it, exactly as far from its own mean.
 *
 * The sums are stored relative to their least possible value: any k
 * mid-ranks sum to at least 1+2+...+k and at most (N-k+1)+...+N (averaging
 * within tie groups only pulls the extremes in), so D = (T - k(k+1)) / g
 * lies in [0, 2k(N-k)/g] and row k needs that many cells.  g is 2 when every
 * R is even (no tie group of even size, in particular no ties at all), which
 * halves the table.  The reachable part of each row is tracked (lo, hi) so
 * that early values touch only what they can reach, and rows that can no
 * longer grow to m with the values left are skipped.  Counts are doubles:
 * C(400, 200) is 1e119, far past any integer type, and sums of positive
 * terms lose only a few ulps.
 *
 * The mean of T is m(N+1) whatever the ties (mid-ranks keep the rank total),
 * and the two-sided p counts the splits with |T - m(N+1)| >= |T_obs -
 * m(N+1)|, both sides integers.  Everything is exact but the final sums of
 * doubles. */
static double ns__mw_exact(const double *a, size_t na, const double *b, size_t nb, double *u,
                           double max_work) {
    if (u) *u = NAN;
    size_t ka = ns_count(a, na), kb = ns_count(b, nb);
    if (ka == 0 || kb == 0) return NAN;
    size_t N = ka + kb;

    ns__tagged *pool = ns_xmalloc(N * sizeof *pool);
    size_t j = 0;
    for (size_t i = 0; i < na; i++)
        if (!isnan(a[i])) pool[j++] = (ns__tagged){a[i], 1};
    for (size_t i = 0; i < nb; i++)
        if (!isnan(b[i])) pool[j++] = (ns__tagged){b[i], 0};
    qsort(pool, N, sizeof *pool, ns__cmp_tagged);

    /* doubled mid-ranks, and the doubled rank sum of a */
    long long *R = ns_xmalloc(N * sizeof *R);
    long long ta = 0;
    int all_even = 1;
    for (size_t i = 0; i < N; i = j) {
        for (j = i + 1; j < N && pool[j].v == pool[i].v; j++) {}
        long long r = (long long)i + 1 + (long long)j;
        all_even &= r % 2 == 0;
        for (size_t k = i; k < j; k++) {
            R[k] = r;
            if (pool[k].from_a) ta += r;
        }
    }
    long long total_r = (long long)N * (long long)(N + 1);
    if (u) *u = (double)ta / 2 - (double)ka * (double)(ka + 1) / 2;

    /* the smaller sample, its observed doubled rank sum and distance from
     * the mean */
    long long m = (long long)(ka < kb ? ka : kb), n = (long long)N;
    long long t_obs = ka <= kb ? ta : total_r - ta;
    long long mean = m * (n + 1), dev = llabs(t_obs - mean);
    free(pool);
    if (dev == 0) { /* every split is at least that far: all ties, or centred */
        free(R);
        return 1;
    }

    long long g = all_even ? 2 : 1;
    /* row k at off[k], width 2k(N-k)/g + 1; and the work it will take */
    long long *off = ns_xmalloc((size_t)(m + 2) * sizeof *off);
    off[0] = 0;
    for (long long k = 0; k <= m; k++) off[k + 1] = off[k] + 2 * k * (n - k) / g + 1;
    /* the work: row k-1 spans about 2(k-1)(i-k+1)/g cells when the i-th
     * value comes, summed over the rows that are updated (j = k-1) */
    double work = 0;
    for (long long i = 1; i <= n; i++) {
        double j0 = (double)(m - (n - i) > 1 ? m - (n - i) : 1) - 1,
               j1 = (double)(i < m ? i : m) - 1, di = (double)i;
        if (j1 < j0) continue;
        double s1 = (j1 * (j1 + 1) - (j0 - 1) * j0) / 2,                            /* sum j */
               s2 = (j1 * (j1 + 1) * (2 * j1 + 1) - (j0 - 1) * j0 * (2 * j0 - 1)) / 6; /* sum j^2 */
        work += 2 * (di * s1 - s2) / (double)g + (j1 - j0 + 1);
    }
    if (work > max_work) {
        free(R);
        free(off);
        return NAN;
    }

    double *cnt = ns_xcalloc((size_t)off[m + 1], sizeof *cnt);
    long long *lo = ns_xmalloc((size_t)(m + 1) * sizeof *lo);
    long long *hi = ns_xmalloc((size_t)(m + 1) * sizeof *hi);
    for (long long k = 0; k <= m; k++) lo[k] = 1, hi[k] = 0; /* empty */
    cnt[0] = 1, lo[0] = hi[0] = 0;
    for (long long i = 1; i <= n; i++) { /* add the i-th value */
        long long kmin = m - (n - i) > 1 ? m - (n - i) : 1, kmax = i < m ? i : m;
        for (long long k = kmax; k >= kmin; k--) {
            if (lo[k - 1] > hi[k - 1]) continue;
            /* T_k = T_{k-1} + R, so D_k = D_{k-1} + (R - 2k) / g */
            long long shift = (R[i - 1] - 2 * k) / g;
            const double *restrict src = cnt + off[k - 1];
            double *restrict dst = cnt + off[k] + shift;
            for (long long d = lo[k - 1]; d <= hi[k - 1]; d++) dst[d] += src[d];
            if (lo[k] > hi[k]) lo[k] = lo[k - 1] + shift, hi[k] = hi[k - 1] + shift;
            else {
                if (lo[k - 1] + shift < lo[k]) lo[k] = lo[k - 1] + shift;
                if (hi[k - 1] + shift > hi[k]) hi[k] = hi[k - 1] + shift;
            }
        }
    }

    double tail = 0, all = 0;
    const double *row = cnt + off[m];
    for (long long d = lo[m]; d <= hi[m]; d++) {
        long long t = g * d + m * (m + 1);
        all += row[d];
        if (llabs(t - mean) >= dev) tail += row[d];
    }
    free(R);
    free(off);
    free(cnt);
    free(lo);
    free(hi);
    return tail / all;
}

double ns_mann_whitney_p_exact(const double *a, size_t na, const double *b, size_t nb,
                               double *u) {
    return ns__mw_exact(a, na, b, nb, u, NS__MW_MAX_WORK);
}

/* The normal approximation: U has mean m n / 2 and, with tie groups of
 * sizes t, variance m n / 12 ((N + 1) - sum(t^3 - t) / (N (N - 1)))
 * (Lehmann, Nonparametrics, 1975, eq. 1.52); the continuity correction
 * takes 0.5 off |U - mean|.  Two-sided p = erfc(z / sqrt 2). */
double ns_mann_whitney_p_normal(const double *a, size_t na, const double *b, size_t nb,
                                double *u) {
    if (u) *u = NAN;
    size_t ka = ns_count(a, na), kb = ns_count(b, nb);
    if (ka == 0 || kb == 0) return NAN;
    size_t N = ka + kb, j = 0;
    ns__tagged *pool = ns_xmalloc(N * sizeof *pool);
    for (size_t i = 0; i < na; i++)
        if (!isnan(a[i])) pool[j++] = (ns__tagged){a[i], 1};
    for (size_t i = 0; i < nb; i++)
        if (!isnan(b[i])) pool[j++] = (ns__tagged){b[i], 0};
    qsort(pool, N, sizeof *pool, ns__cmp_tagged);
    double ra2 = 0, ties = 0; /* doubled rank sum of a; sum of t^3 - t */
    for (size_t i = 0; i < N; i = j) {
        for (j = i + 1; j < N && pool[j].v == pool[i].v; j++) {}
        double r = (double)i + 1 + (double)j, t = (double)(j - i);
        ties += t * t * t - t;
        for (size_t k = i; k < j; k++)
            if (pool[k].from_a) ra2 += r;
    }
    free(pool);
    double m = (double)ka, n = (double)kb, Nd = (double)N;
    double U = ra2 / 2 - m * (m + 1) / 2, mu = m * n / 2;
    if (u) *u = U;
    double var = m * n / 12 * ((Nd + 1) - ties / (Nd * (Nd - 1)));
    double dev = fabs(U - mu) - 0.5;
    if (!(var > 0) || dev <= 0) return 1; /* all equal, or centred */
    double p = erfc(dev / sqrt(var) / sqrt(2.0));
    return p < 1 ? p : 1;
}

double ns_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb, double *u) {
    double p = ns__mw_exact(a, na, b, nb, u, NS__MW_EXACT_WORK);
    if (!isnan(p) || ns_count(a, na) == 0 || ns_count(b, nb) == 0) return p;
    return ns_mann_whitney_p_normal(a, na, b, nb, u);
}

double ns_mann_whitney_min_p(size_t na, size_t nb) {
    if (na == 0 || nb == 0) return NAN;
    /* C(na+nb, k) with k the smaller size, as a running product: each
     * partial product is itself a binomial coefficient, so it stays exact
     * while it fits in 53 bits and overflows to infinity (p = 0) far out. */
    size_t k = na < nb ? na : nb, n = na + nb;
    double c = 1;
    for (size_t i = 1; i <= k; i++) c = c * (double)(n - k + i) / (double)i;
    double p = 2 / c;
    return p < 1 ? p : 1;
}

/* ------ The k-th smallest pairwise difference, without the differences ------
 * With a and b sorted, the computed difference b[j] - a[i] falls as i
 * grows and rises as j grows (rounding is monotone), so the number of
 * differences <= t is counted in one sweep of two pointers, O(m + n).
 * The k-th smallest difference is the least double t whose count reaches
 * k + 1: found by bisection over the doubles' order (their bits, mapped
 * to ordered integers), at most 64 counts.  It is exactly one of the
 * computed differences, so the result is the same double a sort of all
 * m n differences would give -- in O((m + n) 64) time and O(m + n)
 * memory instead of O(m n): 300 runs a side are 90,000 differences a row,
 * and a diff has hundreds of rows. */

static uint64_t ns__key(double x) { /* doubles' order as unsigned integers */
    uint64_t k;
    memcpy(&k, &x, sizeof k);
    return k >> 63 ? ~k : k | (UINT64_C(1) << 63);
}

static double ns__unkey(uint64_t k) {
    k = k >> 63 ? k & ~(UINT64_C(1) << 63) : ~k;
    double x;
    memcpy(&x, &k, sizeof x);
    return x;
}

static size_t ns__count_le(const double *a, size_t m, const double *b, size_t n, double t) {
    size_t c = 0, p = 0;
    for (size_t j = 0; j < n; j++) {
        while (p < m && b[j] - a[p] > t) p++;
        c += m - p;
    }
    return c;
}

/* The k-th smallest (0-based) of the m n differences b[j] - a[i]; a and b
 * sorted ascending, finite. */
static double ns__diff_rank(const double *a, size_t m, const double *b, size_t n, size_t k) {
    uint64_t lo = ns__key(b[0] - a[m - 1]), hi = ns__key(b[n - 1] - a[0]);
    while (lo < hi) { /* the least key whose value counts more than k */
        uint64_t mid = lo + (hi - lo) / 2;
        if (ns__count_le(a, m, b, n, ns__unkey(mid)) > k) hi = mid;
        else lo = mid + 1;
    }
    return ns__unkey(lo) + 0.0; /* -0 as +0, as b - a gives it */
}

/* The non-NaN values of v, sorted, in a new array; *finite 0 when one is
 * infinite. */
static double *ns__sorted_new(const double *v, size_t n, size_t *k, int *finite) {
    double *out = ns_xmalloc((n ? n : 1) * sizeof *out);
    *k = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i])) {
            if (isinf(v[i])) *finite = 0;
            out[(*k)++] = v[i];
        }
    qsort(out, *k, sizeof *out, ns__cmp_double);
    return out;
}

/* The k-th smallest of all differences, the slow way (only for samples
 * holding an infinity, where inf - inf is NaN and skipped): every
 * difference, sorted. */
static double *ns__differences_new(const double *a, size_t ka, const double *b, size_t kb,
                                   size_t *k) {
    *k = 0;
    if (kb > (size_t)-1 / sizeof(double) / ka) return NULL; /* not in memory */
    double *d = ns_xmalloc(ka * kb * sizeof *d);
    for (size_t i = 0; i < ka; i++)
        for (size_t j = 0; j < kb; j++) {
            double x = b[j] - a[i];
            if (!isnan(x)) d[(*k)++] = x;
        }
    qsort(d, *k, sizeof *d, ns__cmp_double);
    return d;
}

double ns_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb) {
    return ns_hodges_lehmann_ci(a, na, b, nb, 0, NULL, NULL);
}

/* Standard normal upper quantile: z with erfc(z / sqrt 2) / 2 = q, by
 * bisection (60 halvings of [0, 40] reach the last bit that matters). */
static double ns__z_upper(double q) {
    double lo = 0, hi = 40;
    for (int i = 0; i < 60; i++) {
        double mid = (lo + hi) / 2;
        if (erfc(mid / sqrt(2.0)) / 2 > q) lo = mid;
        else hi = mid;
    }
    return (lo + hi) / 2;
}

double ns_hodges_lehmann_ci(const double *a, size_t na, const double *b, size_t nb,
                            double level, double *lo, double *hi) {
    if (lo) *lo = NAN;
    if (hi) *hi = NAN;
    size_t m, n, k;
    int finite = 1;
    double *as = ns__sorted_new(a, na, &m, &finite), *bs = ns__sorted_new(b, nb, &n, &finite);
    double *d = NULL, h = NAN;
    if (m == 0 || n == 0) goto out;
    if (finite) k = m * n;
    else if (!(d = ns__differences_new(as, m, bs, n, &k)) || k == 0) goto out;
#define NS__RANK(r) (d ? d[(r)] : ns__diff_rank(as, m, bs, n, (r)))
    h = k % 2 ? NS__RANK(k / 2) : (NS__RANK(k / 2 - 1) + NS__RANK(k / 2)) / 2;
    if (lo && hi && level > 0 && level < 1) {
        /* Moses' interval: the K-th smallest and K-th largest difference,
         * K from the normal approximation of U's null distribution (tie
         * corrected as in ns_mann_whitney_p_normal, with a continuity
         * correction); K < 1 leaves the interval unbounded.  as and bs are
         * sorted, so the pooled tie groups are found by a merge. */
        double M = (double)m, Nn = (double)n, N = M + Nn, ties = 0;
        size_t i = 0, j = 0;
        while (i < m || j < n) {
            double v = j >= n || (i < m && as[i] <= bs[j]) ? as[i] : bs[j], t = 0;
            while (i < m && as[i] == v) i++, t++;
            while (j < n && bs[j] == v) j++, t++;
            ties += t * t * t - t;
        }
        double var = M * Nn / 12 * ((N + 1) - ties / (N * (N - 1)));
        double K = floor(M * Nn / 2 - ns__z_upper((1 - level) / 2) * sqrt(var > 0 ? var : 0) + 0.5);
        if (K >= 1 && K <= (double)k) {
            size_t ik = (size_t)K - 1;
            *lo = NS__RANK(ik);
            *hi = NS__RANK(k - 1 - ik);
        } else {
            *lo = -INFINITY;
            *hi = INFINITY;
        }
    }
#undef NS__RANK
out:
    free(as);
    free(bs);
    free(d);
    return h;
}

/* ====== Regression ====== */

int ns_linear_fit(const double *x, const double *y, size_t n, ns_linfit *out) {
    ns_linfit f = {NAN, NAN, NAN, NAN, NAN, NAN, 0};
    double sx = 0, sy = 0, x0 = NAN;
    int x_varies = 0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(x[i]) || isnan(y[i])) continue;
        if (f.n == 0) x0 = x[i];
        else if (x[i] != x0) x_varies = 1;
        sx += x[i], sy += y[i], f.n++;
    }
    /* "all x equal" is decided on the values, not on sxx == 0: the mean of
     * three 0.1s is not 0.1 in binary, so their sxx is a few ulps, not 0. */
    if (f.n < 2 || !x_varies) {
        *out = f;
        return -1;
    }
    double k = (double)f.n, mx = sx / k, my = sy / k, sxx = 0, sxy = 0, syy = 0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(x[i]) || isnan(y[i])) continue;
        double dx = x[i] - mx, dy = y[i] - my;
        sxx += dx * dx, sxy += dx * dy, syy += dy * dy;
    }
    if (!(sxx > 0)) { /* x differing by less than the square root of the
                       * smallest double, or an infinity */
        *out = f;
        return -1;
    }
    f.slope = sxy / sxx;
    f.intercept = my - f.slope * mx;
    /* residuals from the centred data, not 1 - sxy^2/(sxx syy): exactly 0
     * for an exact line, never negative */
    double rss = 0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(x[i]) || isnan(y[i])) continue;
        double e = (y[i] - my) - f.slope * (x[i] - mx);
        rss += e * e;
    }
    if (syy > 0) {
        f.r2 = 1 - rss / syy;
        if (f.r2 < 0) f.r2 = 0; /* rounding only: OLS never fits worse than the mean */
    }
    if (f.n >= 3) {
        f.slope_se = sqrt(rss / (k - 2) / sxx);
        double t = ns_t_quantile(0.975, k - 2);
        f.ci95_lo = f.slope - t * f.slope_se;
        f.ci95_hi = f.slope + t * f.slope_se;
    }
    *out = f;
    return 0;
}

/* ====== Student's t ====== */

static const double ns__pi = 3.14159265358979323846;

/* The continued fraction of the incomplete beta function I_x(a, b)
 * (Numerical Recipes' betacf), by the modified Lentz method: it converges
 * fast for x < (a+1)/(a+b+2); the caller swaps a and b beyond. */
static double ns__beta_cf(double a, double b, double x) {
    const double tiny = 1e-300;
    double qab = a + b, qap = a + 1, qam = a - 1;
    double c = 1, d = 1 - qab * x / qap;
    if (fabs(d) < tiny) d = tiny;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= 10000; m++) {
        double m2 = 2.0 * m;
        /* even step */
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1 + aa * d;
        if (fabs(d) < tiny) d = tiny;
        c = 1 + aa / c;
        if (fabs(c) < tiny) c = tiny;
        d = 1 / d;
        h *= d * c;
        /* odd step */
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1 + aa * d;
        if (fabs(d) < tiny) d = tiny;
        c = 1 + aa / c;
        if (fabs(c) < tiny) c = tiny;
        d = 1 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1) < 1e-15) break;
    }
    return h;
}

/* lgamma(a + b) - lgamma(a) for b <= a.  For large a the two lgammas are
 * huge and nearly equal (df = 10000: 4e4 each), so their difference loses
 * digits; Stirling's series is used instead, written so that nothing large
 * cancels: (a-1/2) log1p(b/a) + b log(a+b) - b + S(a+b) - S(a), with
 * S(z) = 1/(12z) - 1/(360z^3) + 1/(1260z^5) - 1/(1680z^7) (its next term is
 * below 1e-11 at z = 10, and cancels in the difference). */
static double ns__lgamma_ratio(double a, double b) {
    if (a < 10) return lgamma(a + b) - lgamma(a);
    double z = a + b;
    double sz = (1 / 12.0 - (1 / 360.0 - (1 / 1260.0 - 1 / (1680.0 * z * z)) / (z * z)) / (z * z)) / z;
    double sa = (1 / 12.0 - (1 / 360.0 - (1 / 1260.0 - 1 / (1680.0 * a * a)) / (a * a)) / (a * a)) / a;
    return (a - 0.5) * log1p(b / a) + b * log(z) - b + (sz - sa);
}

/* log B(a, b) = lgamma(a) + lgamma(b) - lgamma(a + b) */
static double ns__lbeta(double a, double b) {
    return a >= b ? lgamma(b) - ns__lgamma_ratio(a, b) : lgamma(a) - ns__lgamma_ratio(b, a);
}

/* P(T > t) (the tail, t >= 0) and P(|T| < t) (the centre, 1 - twice the
 * tail) through the regularized incomplete beta function: with
 * x = df/(df+t^2) and y = 1 - x = t^2/(df+t^2),
 *     2 P(T > t) = I_x(df/2, 1/2) = 1 - I_y(1/2, df/2) = 1 - P(|T| < t).
 * One side comes from the continued fraction and the other as 1 minus it;
 * the fraction converges on the side where the probability is the smaller
 * (x below the mean of the beta, about), so that side keeps its digits:
 * the tail far out, the centre near 0.  x, y and their logs are formed
 * without subtracting nearly equal numbers (x near 1 is the common case:
 * t small next to sqrt(df)). */
static void ns__t_cdf(double t, double df, double *tail, double *centre) {
    double a = df / 2, b = 0.5;
    double r = t * t / df, l1 = log1p(r), log_y = log(r) - l1;
    double x = 1 / (1 + r), y = r / (1 + r);
    if (y <= 0) { /* t = 0 (or t^2 underflowed) */
        *tail = 0.5, *centre = 0;
        return;
    }
    if (isinf(r)) /* t beyond 1e154, met only for p below 1e-150 */
        l1 = 2 * log(t) - log(df), log_y = 0, y = 1;
    /* x^a y^b / B(a, b), the front factor of both fractions */
    double front = exp(-a * l1 + b * log_y - ns__lbeta(a, b));
    if (x < (a + 1) / (a + b + 2)) {
        double ix = front * ns__beta_cf(a, b, x) / a;
        *tail = ix / 2, *centre = 1 - ix;
    } else {
        double iy = front * ns__beta_cf(b, a, y) / b;
        *centre = iy, *tail = (1 - iy) / 2;
    }
}

static double ns__t_density(double t, double df) {
    return exp(ns__lgamma_ratio(df / 2, 0.5) - 0.5 * log(df * ns__pi) -
               (df + 1) / 2 * log1p(t * t / df));
}

/* The t > 0 with P(T > t) = q, given q < 1/2 and c = 1 - 2q (P(|T| < t)),
 * both exact: near the centre the equation is solved on c, whose digits are
 * all significant there, and out in the tail on q. */
static double ns__t_upper(double q, double c, double df) {
    if (df == 1) /* Cauchy: t = tan(pi c / 2) = cot(pi q) */
        return q < 0.25 ? 1 / tan(ns__pi * q) : tan(ns__pi * c / 2);
    if (df == 2) /* 1/2 - t/(2 sqrt(2+t^2)) = q */
        return c / sqrt(2 * q * (1 - q));
    /* bracket [lo, hi] by doubling (the tail falls as t^-df, so a few dozen
     * steps at most), then Newton, falling back to bisection whenever a
     * step leaves the bracket; every evaluation narrows the bracket. */
    double lo = 0, hi = 1, tail, centre;
    for (;;) {
        ns__t_cdf(hi, df, &tail, &centre);
        if (tail <= q) break;
        lo = hi, hi *= 2;
        if (hi > 1e300) return INFINITY;
    }
    double t = lo + (hi - lo) / 2;
    for (int it = 0; it < 300; it++) {
        ns__t_cdf(t, df, &tail, &centre);
        /* the excess of the tail over q; falls as t grows */
        double f = q < 0.25 ? tail - q : (c - centre) / 2;
        if (f == 0) return t;
        if (f > 0) lo = t;
        else hi = t;
        double next = t + f / ns__t_density(t, df);
        if (!(next > lo && next < hi)) next = lo + (hi - lo) / 2;
        if (fabs(next - t) <= 1e-15 * next || hi - lo <= 1e-15 * hi) return next;
        t = next;
    }
    return t;
}

double ns_t_quantile(double p, double df) {
    if (isnan(p) || isnan(df) || p < 0 || p > 1 || df < 1 || isinf(df)) return NAN;
    if (p == 0) return -INFINITY;
    if (p == 1) return INFINITY;
    if (p == 0.5) return 0;
    /* symmetric about 0.  1 - p is exact for p >= 1/2, and 2p - 1 for
     * p >= 1/4 (below, 1 - 2p is more than 1/2, so its rounding is
     * harmless) */
    return p > 0.5 ? ns__t_upper(1 - p, 2 * p - 1, df) : -ns__t_upper(p, 1 - 2 * p, df);
}
