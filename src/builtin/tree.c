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
    ns_text_opts text = {eo->view, eo->color};
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
    ns_args a;
    ns_args_init(&a, argc, argv);
    ns_export_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.format = NS_FMT_TEXT;
    ns_view_init(&eo.view);
    eo.diag = ns_diag_stderr;
    ns_read_opts ro = {0};
    long want = 0;
    int color = -1, merge = 0;
    char **inputs = ns_xcalloc((size_t)argc, sizeof *inputs);
    int ninputs = 0, rc = NS_EXIT_OK;
    const char *v;
    while (a.i < argc) {
        int m;
        if (ns_args_flag(&a, "--merge")) {
            merge = 1;
        } else if ((m = ns_args_value(&a, "--format", &v))) {
            if (m < 0 || ns_format_parse(v, &eo.format) != 0) {
                rc = m < 0 ? NS_EXIT_USAGE
                           : ns_args_usage(&a, "--format: unknown format '%s' (text, json, "
                                               "csv, folded, chrome, speedscope, original)", v);
                goto out;
            }
        } else if ((m = ns_args_value(&a, "--depth", &v))) {
            long d;
            if (m < 0 || ns_args_int(&a, "--depth", v, 0, 1000000, &d)) { rc = NS_EXIT_USAGE; goto out; }
            eo.view.max_depth = (int)d;
        } else if ((m = ns_args_value(&a, "--min-ms", &v))) {
            double ms;
            if (m < 0 || ns_args_double(&a, "--min-ms", v, 0, &ms)) { rc = NS_EXIT_USAGE; goto out; }
            eo.view.min_s = ms / 1e3;
        } else if ((m = ns_args_value(&a, "--report", &v))) {
            if (m < 0 || ns_args_int(&a, "--report", v, 1, 1L << 30, &want)) { rc = NS_EXIT_USAGE; goto out; }
        } else if ((m = ns_args_value(&a, "--time", &v))) {
            if (m < 0) { rc = NS_EXIT_USAGE; goto out; }
            if (strcmp(v, "wall") == 0) eo.view.col = NS_COL_WALL;
            else if (strcmp(v, "user") == 0) eo.view.col = NS_COL_USER;
            else { rc = ns_args_usage(&a, "--time: 'wall' or 'user', not '%s'", v); goto out; }
        } else if ((m = ns_args_value(&a, "--color", &v))) {
            if (m < 0) { rc = NS_EXIT_USAGE; goto out; }
            if (strcmp(v, "always") == 0) color = 1;
            else if (strcmp(v, "never") == 0) color = 0;
            else if (strcmp(v, "auto") == 0) color = -1;
            else { rc = ns_args_usage(&a, "--color: always, never or auto, not '%s'", v); goto out; }
        } else if ((m = ns_args_common(&a, &ro, inputs, &ninputs)) != NS_ARGS_TAKEN) {
            rc = m == NS_ARGS_HELP ? NS_EXIT_OK : NS_EXIT_USAGE;
            goto out;
        }
    }
    eo.color = color < 0 ? ns_cli_color(STDOUT_FILENO) : color;
    if (merge) {
        if (eo.format == NS_FMT_ORIGINAL)
            rc = ns_args_usage(&a, "--merge: a merged tree has no original layout (no compiler "
                                   "printed it); every other --format works");
        else if (ninputs == 0)
            rc = ns_args_usage(&a, "--merge: give run folders (a run, or a folder of runs)");
        else rc = ns__tree_merge(inputs, ninputs, &eo, want, &ro);
        goto out;
    }
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
        rc = NS_EXIT_NOTHING;
    } else if (want && ctx.shown == 0) {
        ns_error("--report %ld: the input has only %ld report%s", want, found,
                 found == 1 ? "" : "s");
        rc = NS_EXIT_NOTHING;
    }
out:
    free(inputs);
    return rc;
}
