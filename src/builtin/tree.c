/* cmd_tree.c -- `npuscope tree`: every report of the input as a tree, in
 * the terminal or as an export (json, csv, folded, chrome, speedscope,
 * original).  Reports are rendered as the scanner finds them and freed at
 * once, so a log of any size is shown in bounded memory.
 *
 * With --merge the inputs are run folders, and what is shown is one merged
 * tree per configuration, mode and report position: the medians of the
 * repeats (merge.h).  Those need every run at once, so they are read
 * whole. */
#include "builtin/builtin.h"
#include "cli/cli.h"
#include "analyse/merge.h"
#include "model/load.h"
#include "render/export.h"
#include "render/merged.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    ns_exporter *ex; /* output */
    long want;       /* --report N (1-based), 0 for all */
    long seen;       /* reports seen so far */
    long shown;      /* reports rendered */
    int werr;        /* a write failed */
} ns__tree_ctx;

static int ns__tree_sink(ns_report *r, void *vctx) {
    ns__tree_ctx *c = vctx;
    c->seen++;
    int stop = 0;
    if (!c->want || c->seen == c->want) {
        if (ns_exporter_add(c->ex, r) != 0) c->werr = 1;
        c->shown++;
        stop = c->want != 0 || c->werr;
    }
    ns_report_free(r);
    return stop;
}

/* A log with no report but a failed compile: say what failed, so that
 * "no timing report found" is not all that is said. */
static void ns__tree_failures(const ns_load *L) {
    for (int i = 0; i < L->nfail; i++) {
        const ns_failure *f = &L->fail[i];
        ns_note_at(f->file, "line %ld: a compile failed: pass %s, sub-model %s: %s", f->line,
                   f->pass ? f->pass : "(not named)", f->submodel ? f->submodel : "(not named)",
                   f->message ? f->message : "(no message)");
    }
}

/* ====== --merge ====== */

/* The merged trees of the run folders `inputs` (at least one), in format
 * eo->format (not original: a merged tree has no original layout).
 * Returns an exit code. */
static int ns__tree_merge(char **inputs, int ninputs, const ns_export_opts *eo, long want,
                          const ns_read_opts *ro) {
    for (int i = 0; i < ninputs; i++) {
        struct stat st;
        if (stat(inputs[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
            ns_error("tree --merge: '%s' is not a folder (give run folders: a run, or a "
                     "folder of runs)", inputs[i]);
            return NS_EXIT_USAGE;
        }
    }
    ns_diag_quiet(ro->quiet);
    ns_runset set = {0};
    int rc = NS_EXIT_OK;
    for (int i = 0; i < ninputs; i++)
        if (ns_runset_read(&set, inputs[i]) < 0) rc = NS_EXIT_USAGE;
    if (rc != NS_EXIT_OK) {
        ns_runset_free(&set);
        return rc;
    }
    ns_merge_group *groups = NULL;
    int skipped = 0;
    int ngroups = ns_merge_groups(&set, &groups, &skipped);
    if (skipped)
        ns_warn_at(NULL, 0, "tree --merge: %d of %d run%s not counted (failed, warmups or "
                            "cache primers)", skipped, set.nruns, set.nruns == 1 ? "" : "s");
    ns_exporter *ex = NULL;
    ns_text_opts text = {eo->view, eo->color, eo->width};
    ns_buf b = {0};
    if (eo->format == NS_FMT_JSON) ns_merged_json_begin(&b);
    else if (eo->format != NS_FMT_TEXT) ex = ns_exporter_new(eo, stdout);
    long made = 0, shown = 0;
    int werr = 0;
    for (int g = 0; g < ngroups && !werr; g++) {
        ns_merged **ms = NULL;
        int nm = ns_merge_group_reports(&groups[g], &ms);
        for (int k = 0; k < nm; k++) {
            made++;
            if (!werr && (!want || made == want)) {
                ms[k]->report->index = (int)(made - 1);
                if (eo->format == NS_FMT_JSON) ns_merged_json(&b, ms[k], &eo->view, shown == 0);
                else if (eo->format == NS_FMT_TEXT) ns_merged_text(&b, ms[k], &text);
                else if (ns_exporter_add(ex, ms[k]->report) != 0) werr = 1;
                shown++;
                if (ns_buf_flush(&b, stdout)) werr = 1;
            }
            ns_merge_free(ms[k]);
        }
        free(ms);
    }
    if (eo->format == NS_FMT_JSON) ns_merged_json_end(&b);
    if (ns_buf_flush(&b, stdout) || fflush(stdout)) werr = 1;
    if (ex && ns_exporter_end(ex) != 0) werr = 1;
    ns_buf_free(&b);
    ns_merge_groups_free(groups, ngroups);
    ns_runset_free(&set);
    ns_diag_summary();
    if (werr) {
        ns_error("error writing the output");
        return NS_EXIT_USAGE;
    }
    if (made == 0) {
        ns_error("tree --merge: no counted run has a timing report");
        return NS_EXIT_NOTHING;
    }
    if (want && shown == 0) {
        ns_error("--report %ld: the runs merge into only %ld report%s", want, made,
                 made == 1 ? "" : "s");
        return NS_EXIT_NOTHING;
    }
    return NS_EXIT_OK;
}

int ns_cmd_tree(int argc, char **argv) {
    ns_export_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.format = NS_FMT_TEXT;
    ns_view_init(&eo.view);
    eo.diag = ns_diag_stderr;
    ns_read_opts ro = {0};
    long want = 0, depth = -1;
    double min_ms = 0;
    int merge = 0, format = 0, time_col = 0, color_when = 0;
    /* in ns_format's order; names as ns_format_parse reads them */
    static const char *const formats[] = {"text", "json", "csv", "folded", "chrome",
                                          "speedscope", "original", NULL};
    static const char *const times[] = {"wall", "user", NULL};
    static const char *const colors[] = {"auto", "always", "never", NULL};
    const ns_option own[] = {
        NS_OPT_CHOICE(0, "format", &format, "F", formats),
        NS_OPT_INT(0, "depth", &depth, "N", 0, 1000000),
        NS_OPT_DOUBLE(0, "min-ms", &min_ms, "X", 0),
        NS_OPT_INT(0, "report", &want, "N", 1, 1L << 30),
        NS_OPT_FLAG(0, "merge", &merge),
        NS_OPT_CHOICE(0, "time", &time_col, "wall|user", times),
        NS_OPT_CHOICE(0, "color", &color_when, "WHEN", colors),
        NS_OPT_READ(&ro),
        NS_OPT_CSV_RAW(),
        NS_OPT_END(),
    };
    const ns_option *const tables[] = {own, NULL};
    char **inputs = ns_xcalloc((size_t)argc, sizeof *inputs);
    int ninputs = 0, rc = NS_EXIT_OK;
    switch (ns_options_parse("tree", argc, argv, tables, inputs, &ninputs)) {
    case NS_OPTIONS_HELP: goto out;
    case NS_OPTIONS_ERROR: rc = NS_EXIT_USAGE; goto out;
    }
    ns_format_parse(formats[format], &eo.format);
    eo.view.max_depth = (int)depth;
    eo.view.min_s = min_ms / 1e3;
    eo.view.col = time_col ? NS_COL_USER : NS_COL_WALL;
    int color = color_when == 0 ? -1 : color_when == 1;
    eo.color = color < 0 ? ns_cli_color(STDOUT_FILENO) : color;
    eo.width = ns_cli_width(STDOUT_FILENO); /* text: fit a terminal (render/text.h) */
    if (merge) {
        if (eo.format == NS_FMT_ORIGINAL)
            rc = ns_options_usage("tree", "--merge: a merged tree has no original layout (no "
                                          "compiler printed it); every other --format works");
        else if (ninputs == 0)
            rc = ns_options_usage("tree", "--merge: give run folders (a run, or a folder of runs)");
        else rc = ns__tree_merge(inputs, ninputs, &eo, want, &ro);
        goto out;
    }
    ns_load load = {0}; /* failed compiles, environment: json writes them */
    ro.load = &load;
    eo.load = &load;
    ns__tree_ctx ctx = {ns_exporter_new(&eo, stdout), want, 0, 0, 0};
    long found = ns_cli_scan(inputs, ninputs, &ro, ns__tree_sink, &ctx);
    if (ns_exporter_end(ctx.ex) != 0) ctx.werr = 1;
    if (ctx.werr) {
        ns_error("error writing the output");
        rc = NS_EXIT_USAGE;
    } else if (found < 0) {
        rc = NS_EXIT_USAGE;
    } else if (found == 0) {
        ns_cli_none_found(inputs, ninputs);
        ns__tree_failures(&load);
        rc = NS_EXIT_NOTHING;
    } else if (want && ctx.shown == 0) {
        ns_error("--report %ld: the input has only %ld report%s", want, found,
                 found == 1 ? "" : "s");
        rc = NS_EXIT_NOTHING;
    }
    ns_load_free(&load);
out:
    free(inputs);
    return rc;
}
