/* cmd_tree.c -- `npuscope tree`: every report of the input as a tree, in
 * the terminal or as an export (json, csv, folded, chrome, speedscope,
 * original).  Reports are rendered as the scanner finds them and freed at
 * once, so a log of any size is shown in bounded memory. */
#include "cli.h"
#include "render.h"

#include <stdlib.h>
#include <string.h>
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

int ns_cmd_tree(int argc, char **argv) {
    ns_args a;
    ns_args_init(&a, argc, argv);
    ns_export_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.format = NS_FMT_TEXT;
    ns_view_init(&eo.view);
    ns_read_opts ro = {0};
    long want = 0;
    int color = -1;
    char **inputs = ns_xcalloc((size_t)argc, sizeof *inputs);
    int ninputs = 0, rc = NS_EXIT_OK;
    const char *v;
    while (a.i < argc) {
        int m;
        if ((m = ns_args_value(&a, "--format", &v))) {
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
    ns__tree_ctx ctx = {ns_exporter_new(&eo, stdout), want, 0, 0, 0};
    long found = ns_cli_scan(inputs, ninputs, &ro, ns__tree_sink, &ctx);
    if (ns_exporter_end(ctx.ex) != 0) ctx.werr = 1;
    if (ctx.werr) {
        ns_error("error writing the output");
        rc = NS_EXIT_USAGE;
    } else if (found < 0) {
        rc = NS_EXIT_USAGE;
    } else if (found == 0) {
        ns_error("no timing report found in the input");
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
