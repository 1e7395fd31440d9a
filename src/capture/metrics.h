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
#include "parse/scan.h" /* NS_SIMD_* */

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
    double value;      /* result so far (over the streams ended so far) */
    long count;        /* matches so far */
    int gave_up;       /* a stream went over the time budget: the run gets no value */
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
/* ====== Streams ======
 * One output stream (stdout or stderr) read as it arrives: ns_metrics_feed
 * takes the bytes in any pieces, ns_metrics_stream_end finishes the last
 * line and folds the stream's matches into the set.  Ending stdout's
 * stream, then stderr's, gives what scanning stdout.log, then stderr.log,
 * gave: "last" means the last match in stderr if it has one.  Lines over
 * 64 KiB are not looked at (no metric line is that long).
 *
 * The work per piece is one search for the rules' fixed texts over the
 * whole piece, not a look at every line: the texts' first eight bytes are
 * "anchors" (rules that share them share one), and one pass compares the
 * first and the last byte of every anchor at every position, 32 bytes at
 * a time, and the rest only where both match.  Only the lines that hold a
 * rule's text are copied and handed to its regex.  --metric rules have no
 * fixed text and look at every line of up to NS_METRIC_USER_LINE_MAX. */
typedef struct {
    const ns_metric_set *set; /* the rules */
    char *line;               /* the line cut by the last piece (or being built) */
    size_t len;               /* its bytes */
    int skipping;             /* it is over 64 KiB: dropped */
    double *value;            /* per rule: this stream's result */
    long *count;              /* per rule: this stream's matches */
    double *spent_s;          /* per rule: seconds in regexec (--metric rules) */
    int *gave_up;             /* per rule: over NS_METRIC_BUDGET_S */
    struct ns_metric_anchor *anchors; /* the distinct anchors of the hinted rules */
    int nanchors;             /* entries in anchors */
    int *anchor_of;           /* per rule: its anchor, or -1 (a --metric rule) */
} ns_metric_stream;

void ns_metrics_stream_init(ns_metric_stream *s, const ns_metric_set *m);
void ns_metrics_feed(ns_metric_stream *s, const char *buf, size_t n);
/* The last line (if it has no newline), then the matches into m (the set
 * the stream was made for); frees the stream. */
void ns_metrics_stream_end(ns_metric_stream *s, ns_metric_set *m);
/* The vector loop of the anchor search, as ns_scan_simd (parse/scan.h)
 * chooses the scanner's: the best the CPU has unless `want` (NS_SIMD_*)
 * is less; returns the one in use.  The tests run each. */
int ns_metrics_simd(int want);
/* Copy the metrics that matched into run (replacing its list). */
void ns_metrics_to_run(const ns_metric_set *m, ns_run *r);
void ns_metrics_free(ns_metric_set *m);

#endif
