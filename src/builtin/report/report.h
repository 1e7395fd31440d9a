/* report.h -- private to the files of `npuscope report` (builtin/report/).
 *
 * The command is broken out into separate source files for easier
 * editing; this header is what they share, and nothing outside this
 * folder may include it (but tests/unit_report_reload.c, which tests the
 * second read of a run folder).  Which file owns what:
 *
 *   report.c   ns_cmd_report: the options, then the steps in order (read,
 *              build the page model, write the page), the warnings about
 *              what the options could not get, the exit code
 *   read.c     reading the inputs: folders as runs (with the folder each
 *              run came from), files and standard input as logs; the
 *              subtitle's account of what each input gave
 *   write.c    writing the page to a file or standard output, and each
 *              figure as a standalone .svg (--svg-dir)
 *   predict.c  --predict: the model of the sweep, its figures and table
 *
 * The page itself is not the command's: analyse/page.h builds its model,
 * render/page.h turns the model into the page, render/html.h lays it out.
 * Calls go report.c -> read.c and report.c -> write.c, never back.
 */
#ifndef NPUSCOPE_BUILTIN_REPORT_H
#define NPUSCOPE_BUILTIN_REPORT_H

#include "analyse/dataset.h"
#include "analyse/page.h"
#include "cli/cli.h"
#include "render/html.h"

/* ====== What was read (read.c) ====== */

/* The runs are read one at a time and each is reduced to what the page
 * reads of its trees (page.h, ns_page_input) before its trees are freed;
 * the page brings back the trees of the few runs it embeds
 * (ns__report_load), so memory does not grow with the trees of every run. */
typedef struct {
    ns_report **logs;       /* reports of the log inputs, in order (owned) */
    int nlogs;              /* entries in logs */
    ns_buf from;            /* subtitle: what each input gave */
    ns_runset set;          /* runs of the folder inputs, without their trees */
    const char **run_dir;   /* per run: the input folder it came from (names borrowed) */
    char **path;            /* per run: its run.json, to read its trees again (owned) */
    int cap;                /* allocated entries of the per-run arrays */
    ns_stage_sel *sel;      /* the page's stage maps (borrowed) */
    int want_diff;          /* --a/--b: keep the diff's summaries too */
    ns_field total;         /* the "total" field (ns_page_run_sums.total) */
    ns_page_run_sums *sums; /* per run: what the page reads of its trees (owned) */
    ns_table kept;          /* the runs' stage sums (ns_table_keep_stages) */
    ns_study_keep study_keep; /* names of the study summaries */
    ns_study_sums *study_sums; /* per run: its study summary (owned) */
    ns_diff_keep diff_keep;   /* names of the diff summaries (want_diff) */
    ns_diff_sums *diff_sums;  /* per run, with want_diff: its diff summary (owned) */
    ns_strmap titles;       /* "producer: title" of the runs' reports, first-seen */
    int *title_n;           /* per title: the reports that had it (owned) */
    ns_findings findings;   /* the findings of every input, as advise makes them */
} ns__report_read;

/* Set r up to read: sel gives the stage maps, want_diff says --a/--b. */
void ns__report_read_init(ns__report_read *r, ns_stage_sel *sel, int want_diff);
/* Read every input: folders as runs, files (and standard input, for none
 * or "-") as logs.  Returns 0, or -1 when an input could not be read
 * (message printed); what could be read is kept either way. */
int ns__report_read_inputs(ns__report_read *r, char **inputs, int ninputs,
                           const ns_read_opts *ro);
/* ns_page_load_fn (ctx: the ns__report_read): run `run`'s trees read
 * again from its run.json; a run.json gone or changed since the first read
 * is a warning, and its trees are left out (-1). */
int ns__report_load(void *ctx, int run);
void ns__report_read_free(ns__report_read *r);

/* ====== Predictions (predict.c) ====== */

/* --predict K=V[,K=V...] (specs[0..nspecs)): the model of the folders
 * among inputs, its figures and table added to page.  Returns 0, or -1
 * (a warning says why; the page goes on without them). */
int ns__report_predict(ns_page *page, char **inputs, int ninputs, const char *const *specs,
                       int nspecs, ns_stage_sel *sel);

/* ====== Writing (write.c) ====== */

/* The laid-out page to `out` ("-": standard output; a file is announced
 * on stderr).  Returns 0, or -1 (message printed). */
int ns__report_write_page(const char *out, const ns_buf *html);
/* -o may not replace an input: the same file as one, or inside an input
 * folder anything but a page (.html/.htm).  Returns 0, or -1 (message
 * printed).  "-" and a name that does not exist yet are always fine. */
int ns__report_out_refused(const char *out, char **inputs, int ninputs);
/* Every figure of p as DIR/ID.svg.  Returns 0, or -1 (message printed). */
int ns__report_write_svgs(const char *dir, const ns_page *p);

#endif
