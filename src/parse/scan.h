/* scan.h -- find every timing report in a stream of log lines.
 *
 * The scanner is the only module that reads input.  It streams a file line
 * by line in a bounded buffer, cleans each line (CR, ANSI colour, per-report
 * log prefixes), recognises where a report begins, hands its lines to the
 * format's parser, and passes every finished report to a sink.  The sink
 * owns the report from then on, so memory is bounded by the largest report,
 * not by the size of the log.
 */
#ifndef NPUSCOPE_SCAN_H
#define NPUSCOPE_SCAN_H

#include "model/report.h"

#include <regex.h>
#include <stdint.h>

/* Receives each finished report and owns it.  Return 0 to go on, non-zero
 * to stop scanning (e.g. --report N was found). */
typedef int (*ns_sink)(ns_report *r, void *ctx);

#define NS_LINE_MAX (16u << 20) /* longer lines are cut, with a warning */
#define NS_FOREIGN_RUN_MAX 64   /* this many non-rows in a row end a report */

typedef struct {
    regex_t label_re;     /* --label-regex, compiled */
    int npu;              /* attach NPU compile facts to reports (npu.h) */
    const char *npuw;     /* NPUW layout for labels, or NULL (implies npu) */
    int has_label_re;     /* label_re is set */
    int next_index;       /* reports found so far, across all inputs */
    int stopped;          /* the sink asked to stop */
    uint64_t bytes;       /* bytes read, across all inputs */
    long lines;           /* lines read, across all inputs */
} ns_scanner;

void ns_scanner_init(ns_scanner *sc);
/* Returns 0, or -1 with a message if the regex does not compile. */
int ns_scanner_set_label_regex(ns_scanner *sc, const char *re);
void ns_scanner_free(ns_scanner *sc);

/* Scan one input: a file name, or "-" for standard input.  Returns the
 * number of reports found in it, or -1 if it could not be read (a message
 * has been printed). */
int ns_scan_path(ns_scanner *sc, const char *path, ns_sink sink, void *ctx);

/* The vector code that skips log noise between reports: the best the CPU
 * has is used unless one is asked for.  ns_scan_simd(want) uses `want`
 * (or the best, when want is -1 or more than the CPU has) from then on,
 * and returns the one in use; the tests run each. */
enum { NS_SIMD_NONE, NS_SIMD_SSE2, NS_SIMD_AVX2 };
int ns_scan_simd(int want);

/* Scan an in-memory buffer as if it were a file named `name`. */
int ns_scan_buffer(ns_scanner *sc, const char *name, const char *data,
                   size_t len, ns_sink sink, void *ctx);

#endif
