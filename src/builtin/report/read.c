/* read.c -- the inputs of `npuscope report` (report.h lists the files of
 * the command).
 *
 * An input is a run folder or a folder of run folders (record, sweep),
 * read as runs, or anything else -- a log file, "-", or nothing at all for
 * standard input -- scanned for timing reports.  Every input says what it
 * gave in the page's subtitle ("DIR: 28 runs; x.log: 7 timing reports"),
 * and a folder without a run is a warning, not silence.
 *
 * This file reads and keeps; it must not analyse what it read.
 */
#include "builtin/report/report.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int ns__keep_report(ns_report *rep, void *ctx) {
    ns__report_read *r = ctx;
    r->logs = ns_xrealloc(r->logs, sizeof *r->logs * (size_t)(r->nlogs + 1));
    r->logs[r->nlogs++] = rep;
    return 0;
}

int ns__report_read_inputs(ns__report_read *r, char **inputs, int ninputs,
                           const ns_read_opts *ro) {
    char **files = ns_xcalloc((size_t)ninputs + 1, sizeof *files);
    int nfiles = 0, failed = 0;
    for (int i = 0; i < ninputs; i++) {
        struct stat st;
        const char *in = inputs[i];
        if (strcmp(in, "-") != 0 && stat(in, &st) == 0 && S_ISDIR(st.st_mode)) {
            int before = r->set.nruns;
            if (ns_runset_read(&r->set, in) < 0) {
                failed = 1;
                continue;
            }
            r->run_dir = ns_xrealloc(r->run_dir, sizeof *r->run_dir * (size_t)(r->set.nruns + 1));
            for (int k = before; k < r->set.nruns; k++) r->run_dir[k] = in;
            int got = r->set.nruns - before;
            if (got == 0)
                ns_warn_at(NULL, 0, "%s: no runs found (a run folder holds run.json)", in);
            ns_buf_printf(&r->from, "%s%s: %d run%s", r->from.len ? "; " : "", in, got,
                          got == 1 ? "" : "s");
        } else {
            files[nfiles++] = inputs[i];
        }
    }
    if (nfiles || ninputs == 0) {
        int before = r->nlogs;
        if (ns_cli_scan(files, nfiles, ro, ns__keep_report, r) < 0) failed = 1;
        int got = r->nlogs - before;
        ns_buf_printf(&r->from, "%s%s%s: %d timing report%s", r->from.len ? "; " : "",
                      nfiles ? files[0] : "standard input", nfiles > 1 ? " and the other logs" : "",
                      got, got == 1 ? "" : "s");
    }
    free(files);
    return failed ? -1 : 0;
}

void ns__report_read_free(ns__report_read *r) {
    for (int i = 0; i < r->nlogs; i++) ns_report_free(r->logs[i]);
    free(r->logs);
    ns_buf_free(&r->from);
    ns_runset_free(&r->set);
    free(r->run_dir);
    memset(r, 0, sizeof *r);
}
