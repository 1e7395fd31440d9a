/* read.c -- the inputs of `npuscope report` (report.h lists the files of
 * the command).
 *
 * An input is a run folder or a folder of run folders (record, sweep),
 * read as runs, or anything else -- a log file, "-", or nothing at all for
 * standard input -- scanned for timing reports.  Every input says what it
 * gave in the page's subtitle ("DIR: 28 runs; x.log: 7 timing reports"),
 * and a folder without a run is a warning, not silence.
 *
 * A run folder is read run by run: each run's trees are reduced to what
 * the page reads of them (ns_page_run_sums, the table's stage sums, the
 * study's and the diff's summaries, the reports' titles) and freed, and
 * the page asks for the trees of the runs it embeds again (ns__report_load).
 * Between the two reads the folder may change; a run whose run.json is gone
 * or says other things the second time is a warning and its trees are left
 * out, never shown beside numbers they did not give.
 *
 * This file reads and keeps; it must not analyse what it read (the
 * summaries are the analyses' own keepers).
 */
#include "builtin/report/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ====== Runs, one at a time ====== */

void ns__report_read_init(ns__report_read *r, ns_stage_sel *sel, int want_diff) {
    memset(r, 0, sizeof *r);
    r->sel = sel;
    r->want_diff = want_diff;
    const char *why;
    ns_field_parse("total", 0, &r->total, &why);
    ns_table_init(&r->kept);
    ns_study_keep_init(&r->study_keep);
    ns_diff_keep_init(&r->diff_keep, NULL);
    ns_strmap_init(&r->titles);
    ns_findings_init(&r->findings, sel);
}

/* What the page reads of run `r`'s trees. */
static ns_page_run_sums ns__run_sums(const ns__report_read *rd, const ns_run *r) {
    ns_page_run_sums q = {ns_run_value(r, &rd->total), 0, r->nreports};
    for (int k = 0; k < r->nreports; k++)
        if (r->reports[k]->root) q.nodes += r->reports[k]->nnodes;
    return q;
}

/* Where the runs of the input folder being read are (ns__take_run). */
typedef struct {
    ns__report_read *rd; /* what is read */
    const char *dir;     /* the input folder */
    int single;          /* it is a run folder itself (it holds run.json) */
} ns__folder;

/* ns_run_fn: keep run r without its trees, and what the page reads of them. */
static void ns__take_run(ns_run *r, void *ctx) {
    ns__folder *f = ctx;
    ns__report_read *rd = f->rd;
    if (rd->set.nruns == rd->cap) {
        rd->cap = rd->cap ? 2 * rd->cap : 64;
        size_t n = (size_t)rd->cap;
        rd->set.runs = ns_xrealloc(rd->set.runs, sizeof *rd->set.runs * n);
        rd->run_dir = ns_xrealloc(rd->run_dir, sizeof *rd->run_dir * n);
        rd->path = ns_xrealloc(rd->path, sizeof *rd->path * n);
        rd->sums = ns_xrealloc(rd->sums, sizeof *rd->sums * n);
        rd->study_sums = ns_xrealloc(rd->study_sums, sizeof *rd->study_sums * n);
        rd->diff_sums = ns_xrealloc(rd->diff_sums, sizeof *rd->diff_sums * n);
    }
    int i = rd->set.nruns++;
    ns_run *kept = &rd->set.runs[i];
    *kept = *r;
    rd->run_dir[i] = f->dir;
    ns_buf p = {0};
    if (f->single) ns_buf_printf(&p, "%s/run.json", f->dir);
    else ns_buf_printf(&p, "%s/%s/run.json", f->dir, kept->id);
    rd->path[i] = p.data;
    rd->sums[i] = ns__run_sums(rd, kept);
    ns_table_keep_stages(&rd->kept, kept, rd->sel);
    ns_study_keep_run(&rd->study_keep, kept, rd->sel, &rd->study_sums[i]);
    ns_findings_keep_run(&rd->findings, kept);
    memset(&rd->diff_sums[i], 0, sizeof rd->diff_sums[i]);
    if (rd->want_diff) ns_diff_keep_run(&rd->diff_keep, kept, &rd->diff_sums[i]);
    ns_buf b = {0};
    for (int k = 0; k < kept->nreports; k++) {
        const ns_report *rep = kept->reports[k];
        b.len = 0;
        ns_buf_printf(&b, "%s", ns_producer_name(rep));
        if (rep->title) ns_buf_printf(&b, ": %s", rep->title);
        int added;
        size_t t = ns_strmap_intern(&rd->titles, b.data, &added);
        if (added) {
            rd->title_n = ns_xrealloc(rd->title_n, sizeof *rd->title_n * (rd->titles.count + 1));
            rd->title_n[t] = 0;
        }
        rd->title_n[t]++;
    }
    ns_buf_free(&b);
    ns_run_free_reports(kept);
}

/* A run whose fields the page read must say the same the second time. */
static int ns__same_run(const ns_page_run_sums *a, const ns_page_run_sums *b, const ns_run *x,
                        const ns_run *y) {
    int same_total = (isnan(a->total) && isnan(b->total)) || a->total == b->total;
    return same_total && a->nodes == b->nodes && a->nreports == b->nreports &&
           x->wall_s == y->wall_s && x->exit_code == y->exit_code && !strcmp(x->mode, y->mode) &&
           x->repeat == y->repeat;
}

int ns__report_load(void *ctx, int run) {
    ns__report_read *rd = ctx;
    ns_run *kept = &rd->set.runs[run];
    ns_run fresh;
    ns_why why = {"", 0};
    const ns_diag quiet = {NULL, NULL}; /* its warnings were said at the first read */
    if (ns_run_load(rd->path[run], kept->id, &fresh, &quiet, &why) < 0) {
        ns_warn_at(rd->path[run], 0,
                   "cannot be read again (%s); the run's trees are left out of the page",
                   why.text[0] ? why.text : "unreadable");
        return -1;
    }
    ns_page_run_sums q = ns__run_sums(rd, &fresh);
    if (!ns__same_run(&rd->sums[run], &q, kept, &fresh)) {
        ns_warn_at(rd->path[run], 0,
                   "changed since it was first read; the run's trees are left out of the page");
        ns_run_free(&fresh);
        return -1;
    }
    ns_run_free_reports(kept);
    kept->reports = fresh.reports;
    kept->nreports = fresh.nreports;
    fresh.reports = NULL;
    fresh.nreports = 0;
    ns_run_free(&fresh);
    return 0;
}

/* ====== Inputs ====== */

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
            ns_buf p = {0};
            ns_buf_printf(&p, "%s/run.json", in);
            struct stat rs;
            ns__folder f = {r, in, stat(p.data, &rs) == 0 && S_ISREG(rs.st_mode)};
            ns_buf_free(&p);
            if (ns_runs_each(in, ns__take_run, &f) < 0) {
                failed = 1;
                continue;
            }
            int got = r->set.nruns - before;
            ns_buf hint = {0};
            if (got == 0 && ns_cli_runs_hint(in, &hint))
                ns_warn_at(NULL, 0, "%s: no runs found: %s", in, hint.data);
            else if (got == 0)
                ns_warn_at(NULL, 0, "%s: no runs found (a run folder holds run.json)", in);
            ns_buf_free(&hint);
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
        /* the findings: one case per file, as advise reads them */
        for (int i = before, j; i < r->nlogs; i = j) {
            for (j = i + 1; j < r->nlogs && !strcmp(r->logs[j]->file, r->logs[i]->file); j++) {}
            ns_findings_add_log(&r->findings, r->logs[i]->file, r->logs + i, j - i);
        }
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
    for (int i = 0; i < r->set.nruns; i++) {
        free(r->path[i]);
        ns_study_sums_free(&r->study_sums[i]);
        ns_diff_sums_free(&r->diff_sums[i]);
    }
    ns_runset_free(&r->set);
    free(r->run_dir);
    free(r->path);
    free(r->sums);
    free(r->study_sums);
    free(r->diff_sums);
    ns_table_free(&r->kept);
    ns_study_keep_free(&r->study_keep);
    ns_diff_keep_free(&r->diff_keep);
    ns_strmap_free(&r->titles);
    free(r->title_n);
    ns_findings_free(&r->findings);
    memset(r, 0, sizeof *r);
}
