/* timeline.h -- reading a log or a run into its timeline (analyse/
 * timeline.h): for `timeline` and the report page's timeline figure. */
#ifndef NPUSCOPE_CLI_TIMELINE_H
#define NPUSCOPE_CLI_TIMELINE_H

#include "analyse/timeline.h"
#include "cli/cli.h"
#include "model/runs.h"

/* The timeline of log `path` (its reports read with ro's options).
 * Returns 0, or -1 (error printed) when it cannot be read. */
int ns_timeline_of_log(const char *path, const ns_read_opts *ro, ns_timeline *tl);
/* The timeline of run r, whose folder is dir. */
int ns_timeline_of_run(const char *dir, const ns_run *r, const ns_read_opts *ro, ns_timeline *tl);
/* Say on stderr what the clock did (midnight, steps back, malformed
 * times, no time at all, a compile the input ends inside). */
void ns_timeline_say(const ns_timeline *tl, int quiet);

/* The report page's part of an input (render/page_load.h): a log's failed
 * compiles as findings, and the timeline figure of a log or of a run
 * folder (one run) that has times; k numbers the figure.  Reads quietly:
 * what the clock did is the timeline command's to say. */
struct ns_page_s;
void ns_timeline_page(struct ns_page_s *p, const char *input, int k);

#endif
