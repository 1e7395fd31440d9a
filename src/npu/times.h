/* times.h -- what a line of the NPU stack's log says about time and about
 * where a compile begins and ends: the raw material of `timeline`.
 *
 * The vpux compiler's logger prints "[LEVEL] HH:MM:SS.mmm [name] " with the
 * milliseconds zero-padded; the plugin's logger the same shape with the
 * milliseconds not padded (".7" is 7 ms: an integer printed as is) and an
 * ANSI colour around it; NPUW's "[ NPUW:INFO ]" lines and the timing report
 * itself carry no time (npu-compiler reference, sections 1.1 and 3).  The
 * time is local and has no date.
 *
 * Where a compile is: every compile opens with the same few lines (the
 * plugin's "getSupportedOpsetVersion", the compiler's "config:", its thread
 * pool lines), and ends with its report and the facts after it ("Compile
 * net time", the peak memory).  This file says which a line is; how they
 * make phases is analyse/timeline.c's.
 */
#ifndef NPUSCOPE_NPU_TIMES_H
#define NPUSCOPE_NPU_TIMES_H

#include <stddef.h>

enum {
    NS_TIME_NONE = 0,  /* the line has no logger prefix: no time */
    NS_TIME_OK = 1,    /* a time was read */
    NS_TIME_BAD = -1,  /* a logger prefix whose time is malformed */
};

typedef struct {
    int timed;     /* NS_TIME_* */
    double sec;    /* seconds since local midnight, to the millisecond */
    unsigned open; /* which opening line of a compile it is (a bit), or 0 */
    int close;     /* a fact logged when a compile ends */
    int fail;      /* a line of a failed compile (failure.h) */
    int compiler;  /* a line of the compiler's own loggers (not the plugin's) */
} ns_time_line;

/* Read a line (ANSI colour may still be on it; no newline). */
void ns_npu_time_line(const char *s, size_t n, ns_time_line *out);

#endif
