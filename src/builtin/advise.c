/* advise.c -- `npuscope advise`: the regime of each compile and what to
 * change, with the numbers that say why.
 *
 * The command reads and prints; the findings engine (analyse/findings.h)
 * computes every statement and its rules (analyse/findings_rules.c), and
 * render/findings.h writes them, the same document the report page embeds.
 *
 * Input: logs (every report of a file is one compile, summed: an NPUW LLM
 * compile is several reports) or run folders (one compile per counted run;
 * medians over the runs of a configuration).  --report N keeps the N-th
 * report of each log and each run, taken alone.  Run folders are read run
 * by run: what the findings need of a run's trees is kept as it is read
 * and the trees are freed.
 */
#include "builtin/builtin.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "analyse/findings.h"
#include "parse/run_read.h"
#include "render/findings.h"
#include "model/load.h"
#include "render/matrix.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The reports of a log file (--report N: the N-th only, taken alone). */
typedef struct {
    ns_report **r; /* kept reports */
    int n;         /* entries in r */
    long want;     /* --report N, 0 for all */
    long seen;     /* reports seen */
} ns__logf;

static int ns__sink(ns_report *r, void *ctx) {
    ns__logf *f = ctx;
    if (f->want && ++f->seen != f->want) {
        ns_report_free(r);
        return 0;
    }
    if (f->want) r->group = r->parent = -1; /* one table alone is its own whole */
    f->r = ns_xrealloc(f->r, sizeof *f->r * (size_t)(f->n + 1));
    f->r[f->n++] = r;
    return 0;
}

/* Returns -1 when the log could not be read (said), else 0. */
static int ns__from_log(ns_findings *fd, const char *path, const ns_read_opts *ro, long want) {
    ns__logf f = {NULL, 0, want, 0};
    char *in[1] = {(char *)path};
    long found = ns_cli_scan(in, 1, ro, ns__sink, &f);
    if (found > 0 && f.n > 0) ns_findings_add_log(fd, f.r[0]->file ? f.r[0]->file : path, f.r, f.n);
    else if (found > 0)
        ns_error("%s: --report %ld: the input has only %ld report%s", path, want, found,
                 found == 1 ? "" : "s");
    for (int i = 0; i < f.n; i++) ns_report_free(f.r[i]);
    free(f.r);
    return found < 0 ? -1 : 0;
}

/* ====== Run folders, run by run ======
 * Each run is read, cut to its N-th report alone with --report N (a run
 * with fewer keeps none) before anything is counted, handed to the
 * findings, and its trees are freed. */
typedef struct {
    ns_findings *fd; /* where the summaries go */
    ns_runset *rs;   /* where the runs go, trees freed */
    long want;       /* --report N */
    int cap;         /* allocated runs */
} ns__reader;

static void ns__take_run(ns_run *r, void *ctx) {
    ns__reader *rd = ctx;
    ns_runset *rs = rd->rs;
    if (rd->want) {
        ns_report *keep = rd->want <= r->nreports ? r->reports[rd->want - 1] : NULL;
        for (int k = 0; k < r->nreports; k++)
            if (r->reports[k] != keep) ns_report_free(r->reports[k]);
        r->nreports = 0;
        if (keep) {
            keep->group = keep->parent = -1;
            r->reports[r->nreports++] = keep;
        }
    }
    if (rs->nruns == rd->cap) {
        rd->cap = rd->cap ? 2 * rd->cap : 64;
        rs->runs = ns_xrealloc(rs->runs, sizeof *rs->runs * (size_t)rd->cap);
    }
    ns_run *kept = &rs->runs[rs->nruns++];
    *kept = *r;
    ns_findings_keep_run(rd->fd, kept);
    ns_run_free_reports(kept);
}

int ns_cmd_advise(int argc, char **argv) {
    ns_read_opts ro = {0};
    const char *stages = NULL;
    int format = 0, per_config = 0, rc = NS_EXIT_OK, made = 0;
    long want = 0; /* --report N */
    static const char *const formats[] = {"text", "json", NULL};
    char **inputs = ns_xcalloc((size_t)argc + 1, sizeof *inputs);
    int ninputs = 0;
    ns_stage_sel sel;
    memset(&sel, 0, sizeof sel);
    ns_findings fd;
    ns_runset rs = {0};
    const ns_option own[] = {
        NS_OPT_STAGES(&stages),
        NS_OPT_CHOICE(0, "format", &format, "F", formats),
        NS_OPT_FLAG(0, "per-config", &per_config),
        NS_OPT_INT(0, "report", &want, "N", 1, 1L << 30),
        NS_OPT_READ(&ro),
        NS_OPT_END(),
    };
    const ns_option *const tabs[] = {own, NULL};
    switch (ns_options_parse("advise", argc, argv, tabs, inputs, &ninputs)) {
    case NS_OPTIONS_HELP: goto out;
    case NS_OPTIONS_ERROR: rc = NS_EXIT_USAGE; goto out;
    default: break;
    }
    if (!ninputs) { rc = ns_options_usage("advise", "give a log or a run folder"); goto out; }
    ns_diag_quiet(ro.quiet);
    if (ns_stage_sel_init(&sel, stages) != 0) {
        memset(&sel, 0, sizeof sel);
        rc = NS_EXIT_USAGE;
        goto out;
    }
    ns_findings_init(&fd, &sel);
    made = 1;
    ns__reader rd = {&fd, &rs, want, 0};
    ns_load load = {0}; /* a log's failed compiles (render/matrix.h) */
    ro.load = &load;
    for (int i = 0; i < ninputs; i++) {
        struct stat st;
        if (stat(inputs[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            if (ns_runs_each(inputs[i], ns__take_run, &rd) < 0) rc = NS_EXIT_USAGE;
        } else {
            if (ns__from_log(&fd, inputs[i], &ro, want) < 0) rc = NS_EXIT_USAGE;
        }
    }
    ns_findings_finish(&fd, &rs);
    if (!fd.ncases) {
        ns_error("no compile found to advise on");
        if (rc == NS_EXIT_OK) rc = NS_EXIT_NOTHING;
    } else {
        ns_buf b = {0};
        if (format == 1) ns_findings_json(&b, &fd);
        else ns_findings_text(&b, &fd, per_config);
        if (ns_buf_flush(&b, stdout) || fflush(stdout)) rc = NS_EXIT_USAGE;
        ns_buf_free(&b);
    }
    if (format != 1 && load.nfail) { /* what failed, even when nothing compiled */
        ns_buf fb = {0};
        ns_matrix_log_failures(&fb, &load);
        if (ns_buf_flush(&fb, stdout) || fflush(stdout)) rc = NS_EXIT_USAGE;
        ns_buf_free(&fb);
    }
    ns_load_free(&load);
out:
    if (made) ns_findings_free(&fd);
    ns_runset_free(&rs);
    ns_stage_sel_free(&sel);
    free(inputs);
    return rc;
}
