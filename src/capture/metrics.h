/* metrics.h -- numbers found in a run's output.
 *
 * Besides the timing report, compiles and benchmarks print single numbers
 * worth keeping: benchmark_app's "Compile model took N ms", the NPU
 * compiler's "Compilation memory usage: Peak N KB" and "Compile net time: N
 * ms", a generator's tokens per second.  Each metric is a POSIX extended
 * regex whose first matching capture group is the number, and a rule for
 * several matches: the last one (a final summary line), their sum (one line
 * per sub-model compile: total time) or their maximum (peak memory).
 * Users add their own with --metric NAME=REGEX (last match wins).
 */
#ifndef NPUSCOPE_METRICS_H
#define NPUSCOPE_METRICS_H

#include "model/runs.h"

#include <regex.h>

typedef enum { NS_AGG_LAST, NS_AGG_SUM, NS_AGG_MAX } ns_agg;

typedef struct {
    char *name;        /* metric name in run.json */
    regex_t re;        /* compiled pattern */
    const char *hint;  /* fixed text every matching line contains, or NULL */
    ns_agg agg;        /* how several matches combine */
    double value;      /* result so far */
    long count;        /* matches so far */
} ns_metric_rule;

typedef struct {
    ns_metric_rule *rules; /* built-ins first, then --metric ones */
    int n;                 /* rules in use */
    int cap;               /* allocated */
} ns_metric_set;

void ns_metrics_init(ns_metric_set *m);   /* with the built-in rules */
/* Add "NAME=REGEX"; returns -1 with a message when it is malformed, the
 * regex does not compile or has no capture group. */
int ns_metrics_add(ns_metric_set *m, const char *spec);
void ns_metrics_reset(ns_metric_set *m);  /* forget values, keep rules */
/* Apply every rule to every line of a file (lines over 64 KiB are not
 * looked at: no metric line is that long). */
void ns_metrics_scan_file(ns_metric_set *m, const char *path);
/* Copy the metrics that matched into run (replacing its list). */
void ns_metrics_to_run(const ns_metric_set *m, ns_run *r);
void ns_metrics_free(ns_metric_set *m);

#endif
