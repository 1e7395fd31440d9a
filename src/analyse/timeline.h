/* timeline.h -- the whole load in time: when each compile ran, what came
 * before, between and after, and how much of it no report explains.
 *
 * What users time is the whole load -- process start, the plugin, NPUW
 * partitioning, each sub-model compile, the blob's import or export -- not
 * the compiler's report.  The NPU stack's log lines carry a local time of
 * day (npu/times.h); this file turns a log's marks (its timed lines, the
 * lines that open and close compiles, its failure lines, where its reports
 * end) into phases:
 *   before          from the start (the first timed line, or the process's
 *                   start for a recorded run) to the first compile;
 *   compile         one compile, from its first line to its last (the
 *                   report's end and the facts logged after it), with its
 *                   report's total beside its span;
 *   failed-compile  a compile that failed (failure lines, no report), up to
 *                   its last failure line;
 *   gap             a time between compiles in which none ran;
 *   after           from the last compile to the end.
 * Compiles that run at once (NPUW_PARALLEL_COMPILE) overlap: a compile
 * opens with the first of its opening lines, and one that opens while
 * another has printed that opening line already is a second compile; a
 * report closes the oldest compile open.  overlap_s is the summed compile
 * time minus the time in which any compile ran; unaccounted_s is the span
 * minus the summed report totals (negative when parallel reports sum past
 * the wall time).
 *
 * The clock (ns_tl_clock): local time with no date.  A step back of more
 * than 12 hours is midnight (a day is added); a smaller step back is the
 * clock going backwards (the time is held at the last one, counted and
 * said: never a negative length).  A line without a time takes none; a
 * logger prefix with a malformed time is counted and said.  A log without
 * any time has no span: said, no phase invented.
 *
 * This file computes only: reading is the command's, writing render/'s.
 */
#ifndef NPUSCOPE_ANALYSE_TIMELINE_H
#define NPUSCOPE_ANALYSE_TIMELINE_H

#include "base/common.h"

/* ====== The clock ====== */
typedef struct {
    int started;      /* a time came */
    double first;     /* the first time (seconds since its local midnight) */
    double last;      /* the last time given out, on the timeline's clock */
    double day;       /* seconds added for the midnights passed */
    int wraps;        /* midnights passed */
    int backs;        /* steps back held */
    double back_max;  /* the largest of them, seconds */
    long back_line;   /* the line of the first of them */
} ns_tl_clock;

/* A time of day read from line `line` onto the timeline's clock: seconds
 * since the first time's midnight. */
double ns_tl_clock_put(ns_tl_clock *c, double sec_of_day, long line);

/* ====== Marks and phases ====== */
typedef enum {
    NS_TL_LINE,   /* a timed line of no compile marker (the plugin's, NPUW's) */
    NS_TL_OPEN,   /* an opening line of a compile (bits in open) */
    NS_TL_CLOSE,  /* a fact logged as a compile ends */
    NS_TL_FAIL,   /* a failure line */
    NS_TL_CLINE,  /* any other line of the compiler's loggers */
    NS_TL_REPORT, /* a report ended here */
} ns_tl_kind;

typedef struct {
    ns_tl_kind kind; /* what the mark is */
    double t;        /* its time on the clock, or NAN (an untimed line) */
    long line;       /* its line in its input */
    unsigned open;   /* NS_TL_OPEN: which opening line */
    double total;    /* NS_TL_REPORT: the report's total, seconds */
    const char *label; /* NS_TL_REPORT: its label; NS_TL_FAIL: the failure's
                        * name ("StaticAllocation (Model0_...)") (borrowed) */
} ns_tl_mark;

typedef enum { NS_PH_BEFORE, NS_PH_COMPILE, NS_PH_FAILED, NS_PH_GAP, NS_PH_AFTER } ns_ph_kind;

typedef struct {
    ns_ph_kind kind; /* what it is */
    double start;    /* seconds from the span's start */
    double end;      /* ... */
    char *label;     /* a compile's report label or failure, else NULL (owned) */
    double total;    /* a compile's report total, or NAN */
    int lane;        /* compiles: 0, or a higher lane where one overlaps another */
} ns_phase;

typedef struct {
    char *source;      /* the input (owned) */
    int timed;         /* any time came: span and phases are known */
    double span;       /* seconds from start to end */
    double origin;     /* the start, seconds since its local midnight */
    ns_phase *ph;      /* phases, by start (owned) */
    int nph;           /* entries in ph */
    double unaccounted; /* span minus the summed report totals */
    double overlap;    /* summed compile time minus the time any compile ran */
    int compiles;      /* compiles, failed ones too */
    int reports;       /* reports with a compile */
    long untimed;      /* lines without a time */
    long malformed;    /* logger lines whose time is malformed */
    long first_bad;    /* the first of those, or 0 */
    ns_tl_clock clock; /* wraps and steps back */
    int unplaced;      /* reports with no time before them: not on the timeline */
    int open_at_end;   /* compiles the input ends inside, no report, no failure */
} ns_timeline;

/* The phases of marks[0..n) (in input order, times from ns_tl_clock_put):
 * start and end NAN take the first and last times; a recorded run gives
 * its process's start and end on the same clock.  Returns 0. */
int ns_timeline_build(ns_timeline *tl, const char *source, const ns_tl_mark *m, long n,
                      double start, double end);
void ns_timeline_free(ns_timeline *tl);
/* "before", "compile", "failed-compile", "gap", "after". */
const char *ns_phase_kind_name(ns_ph_kind k);

#endif
