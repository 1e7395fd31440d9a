/* report.h -- private to the files of `npuscope report` (builtin/report/).
 *
 * The command is broken out into separate source files for easier
 * editing; this header is what they share, and nothing outside this
 * folder may include it.  Which file owns what:
 *
 *   report.c   ns_cmd_report: the options, then the steps in order (read,
 *              build the page model, write the page), the warnings about
 *              what the options could not get, the exit code
 *   read.c     reading the inputs: folders as runs (with the folder each
 *              run came from), files and standard input as logs; the
 *              subtitle's account of what each input gave
 *   write.c    writing the page to a file or standard output, and each
 *              figure as a standalone .svg (--svg-dir)
 *
 * The page itself is not the command's: analyse/page.h builds its model,
 * render/page.h turns the model into the page, render/html.h lays it out.
 * Calls go report.c -> read.c and report.c -> write.c, never back.
 */
#ifndef NPUSCOPE_BUILTIN_REPORT_H
#define NPUSCOPE_BUILTIN_REPORT_H

#include "analyse/dataset.h"
#include "cli/cli.h"
#include "render/html.h"

/* ====== What was read (read.c) ====== */

typedef struct {
    ns_report **logs;       /* reports of the log inputs, in order (owned) */
    int nlogs;              /* entries in logs */
    ns_buf from;            /* subtitle: what each input gave */
    ns_runset set;          /* runs of the folder inputs */
    const char **run_dir;   /* per run: the input folder it came from (names borrowed) */
} ns__report_read;

/* Read every input: folders as runs, files (and standard input, for none
 * or "-") as logs.  Returns 0, or -1 when an input could not be read
 * (message printed); what could be read is kept either way. */
int ns__report_read_inputs(ns__report_read *r, char **inputs, int ninputs,
                           const ns_read_opts *ro);
void ns__report_read_free(ns__report_read *r);

/* ====== Writing (write.c) ====== */

/* The laid-out page to `out` ("-": standard output; a file is announced
 * on stderr).  Returns 0, or -1 (message printed). */
int ns__report_write_page(const char *out, const ns_buf *html);
/* Every figure of p as DIR/ID.svg.  Returns 0, or -1 (message printed). */
int ns__report_write_svgs(const char *dir, const ns_page *p);

#endif
