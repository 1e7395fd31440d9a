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

/* Seconds a --metric rule may spend matching one run's output: glibc's
 * matcher is quadratic in the line length for a pattern that starts with
 * a repetition ([a-z]+x tries every start position), so a 50 kB line of
 * the wrong kind can take seconds.  Past the budget the rule stops, its
 * value for the run is dropped (a partial last-match would be wrong), and
 * a warning says so. */
#define NS_METRIC_BUDGET_S 2.0
/* --metric rules look only at lines up to this long: the lines that carry
 * numbers are short, and the quadratic cost of one line stays near 0.1 s,
 * so the budget is kept to within that. */
#define NS_METRIC_USER_LINE_MAX 4096

typedef enum { NS_AGG_LAST, NS_AGG_SUM, NS_AGG_MAX } ns_agg;

typedef struct {
    char *name;        /* metric name in run.json */
    regex_t re;        /* compiled pattern */
    const char *hint;  /* fixed text every matching line contains, or NULL */
    ns_agg agg;        /* how several matches combine */
    double value;      /* result so far */
    long count;        /* matches so far */
    double spent_s;    /* a --metric rule: seconds in regexec on this run's output */
    int gave_up;       /* over the time budget: not searched further, no value */
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

/* Which way a metric improves, read off its name (rules carry no unit):
 * 1 when a higher value is better -- a rate, whose name ends in _per_s,
 * _per_sec, _per_second, _fps, _tps or _qps, or contains "throughput";
 * 0 when a lower one is -- times, memory, sizes, counts: every other
 * name.  Name a --metric accordingly. */
int ns_metric_higher_is_better(const char *name);

#endif
