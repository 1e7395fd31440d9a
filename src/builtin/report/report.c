/* report.c -- `npuscope report`: one self-contained HTML page with the
 * timing trees, the heaviest passes, the run tables and figures, and the
 * key findings in sentences, from logs, run folders and sweeps.
 *
 * The command is a straight line: read the options, read the inputs
 * (read.c), build the page's model (analyse/page.h: every number the page
 * states), say what the options asked for and could not get, turn the
 * model into a page (render/page.h) and lay it out (render/html.h), write
 * it (write.c).  The files of this folder share report.h, which says
 * which owns what.
 *
 * Exit codes: 1 when no input held a timing report or a run; 2 for a bad
 * option, an unreadable input or an unwritable output, and for --a/--b
 * without run folders.  Deliberately left out: advice (that is `advise`).
 */
#include "builtin/builtin.h"
#include "builtin/report/report.h"
#include "cli/timeline.h"
#include "render/page_load.h"

#include "analyse/page.h"
#include "render/page.h"

#include <stdlib.h>
#include <string.h>

#define NS__DEFAULT_OUT "npuscope-report.html"

typedef struct {
    const char *out;        /* -o FILE ("-": standard output) */
    const char *svg_dir;    /* --svg-dir DIR, or NULL */
    ns_page_opts page;      /* --stages, --a, --b, --baseline, --fingerprint-window */
    ns_read_opts ro;        /* --label-regex, --npu, --npuw, -q */
    char **inputs;          /* inputs as given (borrowed from argv) */
    int ninputs;            /* entries in inputs */
    const char **predict;   /* --predict K=V[,K=V...] (borrowed from argv) */
    int npredict;           /* entries in predict */
} ns__opts;

static int ns__opt_predict(const ns_option *opt, const char *v, const char **why) {
    ns__opts *o = opt->ctx;
    (void)why;
    o->predict = ns_xrealloc(o->predict, sizeof *o->predict * (size_t)(o->npredict + 1));
    o->predict[o->npredict++] = v;
    return 0;
}

static int ns__kv_ok(const char *spec) {
    const char *eq = strchr(spec, '=');
    return eq && eq != spec;
}

static int ns__opt_baseline(const ns_option *opt, const char *v, const char **why) {
    static char msg[300];
    if (!ns__kv_ok(v)) {
        snprintf(msg, sizeof msg, "K=V (a tag and its value), not '%.200s'", v);
        *why = msg;
        return -1;
    }
    *(const char **)opt->ctx = v;
    return 0;
}

/* The options into o (one table, cli/options.h); 0 to go on, else the exit
 * code (NS_EXIT_OK after --help, which sets *done). */
static int ns__options(int argc, char **argv, ns__opts *o, int *done) {
    const char *stages = NULL;
    const ns_option own[] = {
        NS_OPT_STRING('o', "output", &o->out, "FILE.html"),
        NS_OPT_STRING(0, "svg-dir", &o->svg_dir, "DIR"),
        NS_OPT_STAGES(&stages),
        NS_OPT_STRING(0, "a", &o->page.sel_a, "K=V[,K=V...]"),
        NS_OPT_STRING(0, "b", &o->page.sel_b, "K=V[,K=V...]"),
        NS_OPT_CALL(0, "baseline", "K=V", ns__opt_baseline, &o->page.baseline),
        NS_OPT_STRING(0, "fingerprint-window", &o->page.fp_window, "W"),
        NS_OPT_CALL(0, "predict", "K=V[,K=V...]", ns__opt_predict, o),
        NS_OPT_READ(&o->ro),
        NS_OPT_END(),
    };
    const ns_option *const tables[] = {own, NULL};
    switch (ns_options_parse("report", argc, argv, tables, o->inputs, &o->ninputs)) {
    case NS_OPTIONS_HELP: *done = 1; return NS_EXIT_OK;
    case NS_OPTIONS_ERROR: return NS_EXIT_USAGE;
    }
    o->page.stage_spec = stages && strcmp(stages, "auto") ? stages : NULL;
    const char *sa = o->page.sel_a, *sb = o->page.sel_b;
    if (!sa != !sb)
        return ns_options_usage("report", "--a and --b go together (the two sides of the diff)");
    if (sa && (!ns__kv_ok(sa) || !ns__kv_ok(sb)))
        return ns_options_usage("report", "--a and --b take K=V[,K=V...] (tag selections)");
    if (!*o->out) return ns_options_usage("report", "-o needs a file name");
    return 0;
}

/* What the options asked of the page and the data could not give. */
static void ns__warn_unmet(const ns_page_model *m, const ns_page_opts *po) {
    const ns_page_diff *d = &m->diff;
    if (d->asked && (d->a_n == 0 || d->b_n == 0))
        ns_warn_at(NULL, 0, "--a %s / --b %s: %s has no counted run%s; no diff table", po->sel_a,
                   po->sel_b, d->a_n == 0 ? "A" : "B", d->mode ? " in a mode both sides have" : "");
    if (po->baseline && !m->ratios.found_base)
        ns_warn_at(NULL, 0, "--baseline %s: no counted run has that tag value", po->baseline);
}

int ns_cmd_report(int argc, char **argv) {
    ns__opts o;
    memset(&o, 0, sizeof o);
    o.out = NS__DEFAULT_OUT;
    o.inputs = ns_xcalloc((size_t)argc + 1, sizeof *o.inputs);
    ns_stage_sel sel;
    memset(&sel, 0, sizeof sel);
    ns__report_read rd;
    ns__report_read_init(&rd, &sel, 0);
    ns_kvlist ka = {0}, kb = {0};
    ns_page_model m;
    ns_page page;
    memset(&page, 0, sizeof page);
    ns_buf html = {0};
    int built = 0, done = 0;
    int rc = ns__options(argc, argv, &o, &done);
    if (rc || done) goto out;
    if (ns_stage_sel_init(&sel, o.page.stage_spec) < 0) {
        memset(&sel, 0, sizeof sel);
        rc = NS_EXIT_USAGE;
        goto out;
    }
    ns_diag_quiet(o.ro.quiet);
    if (ns__report_out_refused(o.out, o.inputs, o.ninputs) < 0) { /* before any work */
        rc = NS_EXIT_USAGE;
        goto out;
    }
    rd.want_diff = o.page.sel_a != NULL;
    if (ns__report_read_inputs(&rd, o.inputs, o.ninputs, &o.ro) < 0) rc = NS_EXIT_USAGE;
    if (rd.nlogs == 0 && rd.set.nruns == 0) {
        if (rc == NS_EXIT_OK) {
            ns_error("no timing report or run found");
            rc = NS_EXIT_NOTHING;
        }
        goto out;
    }
    if (o.page.sel_a && rd.set.nruns == 0) {
        rc = ns_options_usage("report", "--a/--b select runs: give a run folder or a sweep folder");
        goto out;
    }
    if (o.page.sel_a) {
        const char *bad = ns_select_parse(&ka, o.page.sel_a) < 0   ? o.page.sel_a
                          : ns_select_parse(&kb, o.page.sel_b) < 0 ? o.page.sel_b
                                                                   : NULL;
        if (bad) {
            ns_error("report: --a and --b take K=V[,K=V...], not '%s'", bad);
            rc = NS_EXIT_USAGE;
            goto out;
        }
        o.page.a = &ka;
        o.page.b = &kb;
    }

    /* the page: its numbers, then its words and figures, then the document */
    ns_page_input in = {rd.logs, rd.nlogs, &rd.set, rd.run_dir, rd.from.data,
                        o.inputs, o.ninputs, argc, argv,
                        /* the runs were read without their trees (read.c) */
                        NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    in.sums = rd.sums;
    in.kept = &rd.kept;
    in.study_sums = rd.study_sums;
    in.study_keep = &rd.study_keep;
    in.diff_sums = rd.want_diff ? rd.diff_sums : NULL;
    in.diff_keep = &rd.diff_keep;
    in.titles = &rd.titles;
    in.title_n = rd.title_n;
    in.load = ns__report_load;
    in.load_ctx = &rd;
    ns_findings_finish(&rd.findings, &rd.set);
    in.findings = &rd.findings;
    ns_page_model_build(&m, &in, &o.page, &sel);
    built = 1;
    ns__warn_unmet(&m, &o.page);
    ns_render_page(&page, &m);
    if (o.npredict) /* the predictions' figures and table (builtin/report/predict.c) */
        ns__report_predict(&page, o.inputs, o.ninputs, o.predict, o.npredict, &sel);
    /* the load besides its reports: failed compiles, timelines (render/page_load.h) */
    ns_page_failures(&page, &m.table, m.study.built ? &m.study.study : NULL);
    for (int i = 0; i < o.ninputs; i++) ns_timeline_page(&page, o.inputs[i], i + 1);
    if (ns_html_page(&html, &page) < 0) {
        rc = NS_EXIT_USAGE;
        goto out;
    }
    if (ns__report_write_page(o.out, &html) < 0) rc = NS_EXIT_USAGE;
    if (rc == NS_EXIT_OK && o.svg_dir && ns__report_write_svgs(o.svg_dir, &page) < 0)
        rc = NS_EXIT_USAGE;
    ns_diag_summary();
out:
    ns_buf_free(&html);
    ns_page_free(&page);
    if (built) ns_page_model_free(&m);
    ns_kv_free(&ka);
    ns_kv_free(&kb);
    ns_stage_sel_free(&sel);
    ns__report_read_free(&rd);
    free(o.inputs);
    free(o.predict);
    return rc;
}
