/* group.h -- which tables belong to one compile (model/report.h, "Report
 * groups"), decided where the tables are read.
 *
 * clang, flang, opt and llc print all their timer tables when the process
 * ends, back to back; some are the compile's main report, the others break
 * down rows already inside it.  The grouper stands between the scanner and
 * its sink: it holds a run of such tables until the run ends (a report that
 * is not adjacent, or the end of the input), links them (ns_group_link) and
 * hands them on in the order they were printed.  Everything else passes
 * through at once, so memory stays bounded by a run of tables (at most
 * NS_GROUP_MAX).  It prints nothing.
 */
#ifndef NPUSCOPE_GROUP_H
#define NPUSCOPE_GROUP_H

#include "model/report.h"
#include "parse/scan.h"

#define NS_GROUP_MAX 64 /* a longer run of tables is no one process's */
#define NS_GROUP_GAP 3  /* at most this many lines from one table's last
                         * line to the next one's banner: two blank lines */

typedef struct {
    ns_sink sink;      /* where the reports go */
    void *ctx;         /* the sink's context */
    ns_report *held[NS_GROUP_MAX]; /* the run of tables being read, in print order */
    int n;             /* entries in held */
    int stop;          /* the sink asked to stop: the rest is freed */
} ns_group;

void ns_group_init(ns_group *g, ns_sink sink, void *ctx);
/* An ns_sink (ctx: the ns_group): holds or hands on r. */
int ns_group_sink(ns_report *r, void *ctx);
/* The input ends: link and hand on what is held.  Returns non-zero when
 * the sink asked to stop (at any time). */
int ns_group_end(ns_group *g);

/* Link n tables printed back to back (in print order): split them into
 * compiles and set each one's group, parent and within.  Rules, from what
 * the real outputs show (docs/formats.md, "Report groups"). */
void ns_group_link(ns_report **r, int n);

/* The reports of one input read back whole, in print order (a run's
 * run.json keeps their titles and lines, not their links): find the runs
 * of tables as the grouper does and link each. */
void ns_group_link_all(ns_report **r, int n);

#endif
