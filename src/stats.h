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

#endif
