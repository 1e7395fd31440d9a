/* live.h -- a compile you can watch: the status line, fed by the bytes the
 * capture already drains.
 *
 * record and sweep hand every piece of the compile's output to ns_live_feed
 * (capture's on_output hook, no second read of anything) and call
 * ns_live_tick from the capture loop; `npuscope watch` feeds it the bytes
 * of a log another process writes.  Lines are cut per stream; a line says
 * one of four things that matter here: a pass logger of the NPU compiler
 * (the pass running now), an NPUW "Compiling Subgraph[i]: NAME" (the
 * sub-model compile), a timing report's "Total Execution Time" (a compile
 * finished), or nothing.  The status line (render/status.h) is redrawn in
 * place at most four times a second, only on a terminal; with an events
 * stream the same facts go out as JSON lines for other tools.
 * What it shows never changes what is stored: it only reads.
 */
#ifndef NPUSCOPE_LIVE_H
#define NPUSCOPE_LIVE_H

#include "analyse/progress.h"

#include <stddef.h>
#include <stdio.h>

typedef struct ns_live ns_live;

/* fd: where the status line goes (a terminal), or -1 for none; width: its
 * columns; events: JSON lines of pass/report events, or NULL. */
ns_live *ns_live_new(int fd, int width, FILE *events);
void ns_live_free(ns_live *l);

/* A new run: its label ("2/6 run-id" or NULL), the profile of an earlier
 * run of its configuration (owned by the live line from now on; NULL:
 * none), and an NPUW layout to label compiles by (or NULL). */
void ns_live_start(ns_live *l, const char *label, ns_profile *profile, const char *npuw);
void ns_live_feed(ns_live *l, int stream, const char *buf, size_t n);
/* Redraw if a quarter of a second has passed (or force). */
void ns_live_tick(ns_live *l, int force);
/* Erase the line (before a line of other output, and at the end of a run);
 * the next tick draws it again. */
void ns_live_clear(ns_live *l);
/* Compiles finished so far in this run (reports seen). */
int ns_live_compiles(const ns_live *l);

/* The terminal width for the status line: COLUMNS, else the terminal's
 * own, else 80. */
int ns_live_width(int fd);

#endif
