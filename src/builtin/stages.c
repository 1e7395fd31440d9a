/* cmd_stages.c -- `npuscope stages`: show a stage map, check one, or show
 * which stage (and which rule) every row of a report gets.
 *
 *   npuscope stages [--stages MAP]             the map, in its file syntax
 *   npuscope stages --check FILE               is FILE a valid map?
 *   npuscope stages [--stages MAP] INPUT...    every row with its stage
 *
 * The first form prints the map's text as it was read (a built-in with its
 * comments), ready to be saved, edited and given back with --stages FILE.
 * The third is how a map is debugged: each row says whether a name rule, a
 * marker range, its parent or the default decided, with the rule's line.
 * Stage times are `top --by stage`'s job, not this command's.
 */
#include "builtin/builtin.h"
#include "cli/cli.h"
#include "model/stages.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    ns_stage_sel *sel; /* the map(s) */
    ns_buf out;        /* output of the report being listed */
    int failed;        /* writing failed */
} ns__stages_ctx;

/* One report: a header line, then every row with its stage and rule. */
static int ns__stages_sink(ns_report *r, void *vctx) {
    ns__stages_ctx *c = vctx;
    const ns_stage_map *m = ns_stage_sel_pick(c->sel, r);
    ns_buf *b = &c->out;
    if (r->index > 0) ns_buf_putc(b, '\n');
    ns_buf_printf(b, "report %s  %s:%ld  stage map %s\n", r->label, r->file, r->line,
                  m ? ns_stage_map_label(m) : "(none)");
    if (m) {
        long n;
        ns_stage_of *of = ns_stage_assign_new(m, r, &n);
        ns_buf_printf(b, "  %-18s %-14s %s\n", "stage", "rule", "name");
        long i = 0;
        for (const ns_node *x = r->root; x; x = ns_node_next((ns_node *)x, r->root), i++) {
            if (x == r->root) continue;
            char rule[32];
            if (of[i].line > 0)
                snprintf(rule, sizeof rule, "%s:%d", ns_stage_by_name(of[i].by), of[i].line);
            else
                snprintf(rule, sizeof rule, "%s", of[i].stage < 0 ? "-" : ns_stage_by_name(of[i].by));
            ns_buf_printf(b, "  %-18s %-14s ", of[i].stage < 0 ? "-" : ns_stage_name(m, of[i].stage),
                          rule);
            ns_buf_pad(b, ' ', (size_t)(x->depth > 0 ? x->depth : 0) * 2);
            ns_buf_puts(b, x->name);
            ns_buf_putc(b, '\n');
        }
        free(of);
    }
    if (ns_buf_flush(b, stdout)) c->failed = 1;
    ns_report_free(r);
    return 0;
}

/* --check FILE, repeatable: the files go to a list (opt->ctx). */
typedef struct {
    const char **files; /* room for argc entries */
    int n;              /* files given */
} ns__checks;

static int ns__opt_check(const ns_option *opt, const char *arg, const char **why) {
    (void)why;
    ns__checks *c = opt->ctx;
    c->files[c->n++] = arg;
    return 0;
}

int ns_cmd_stages(int argc, char **argv) {
    ns_read_opts ro = {0};
    const char *spec = NULL;
    ns__checks chk = {ns_xcalloc((size_t)argc, sizeof *chk.files), 0};
    char **inputs = ns_xcalloc((size_t)argc, sizeof *inputs);
    int ninputs = 0, rc = NS_EXIT_OK;
    ns_stage_sel sel = {0};
    ns__stages_ctx ctx = {&sel, {0}, 0};
    const ns_option own[] = {
        NS_OPT_STAGES(&spec),
        NS_OPT_CALL(0, "check", "FILE", ns__opt_check, &chk),
        NS_OPT_READ(&ro),
        NS_OPT_END(),
    };
    const ns_option *const tables[] = {own, NULL};
    switch (ns_options_parse("stages", argc, argv, tables, inputs, &ninputs)) {
    case NS_OPTIONS_HELP: goto out;
    case NS_OPTIONS_ERROR: rc = NS_EXIT_USAGE; goto out;
    }
    const char **checks = chk.files;
    int nchecks = chk.n;
    if (nchecks) {
        if (spec || ninputs) {
            rc = ns_options_usage("stages", "--check takes only map files: no --stages, no INPUT");
            goto out;
        }
        for (int i = 0; i < nchecks; i++) {
            ns_stage_map *m = ns_stage_map_load_new(checks[i]);
            if (!m) {
                rc = NS_EXIT_USAGE;
                continue;
            }
            ns_buf_printf(&ctx.out, "%s: ok: ", checks[i]);
            ns_stage_map_summary(&ctx.out, m);
            ns_buf_putc(&ctx.out, '\n');
            ns_stage_map_free(m);
        }
    } else if (ninputs == 0) {
        /* the map itself; auto has no report to choose by: the NPU map */
        ns_stage_map *m = ns_stage_map_load_new(!spec || strcmp(spec, "auto") == 0 ? "vpux" : spec);
        if (!m) {
            rc = NS_EXIT_USAGE;
            goto out;
        }
        const char *text = ns_stage_map_text(m);
        ns_buf_puts(&ctx.out, text);
        if (*text && text[strlen(text) - 1] != '\n') ns_buf_putc(&ctx.out, '\n');
        ns_stage_map_free(m);
    } else {
        if (ns_stage_sel_init(&sel, spec) < 0) {
            rc = NS_EXIT_USAGE;
            goto out;
        }
        long found = ns_cli_scan(inputs, ninputs, &ro, ns__stages_sink, &ctx);
        if (found < 0) rc = NS_EXIT_USAGE;
        else if (found == 0) {
            ns_cli_none_found(inputs, ninputs);
            rc = NS_EXIT_NOTHING;
        }
    }
    if (ns_buf_flush(&ctx.out, stdout) || fflush(stdout) || ctx.failed) {
        ns_error("error writing the output");
        rc = NS_EXIT_USAGE;
    }
out:
    ns_stage_sel_free(&sel);
    ns_buf_free(&ctx.out);
    free(chk.files);
    free(inputs);
    return rc;
}
