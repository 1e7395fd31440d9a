/* table.c -- `npuscope table`: one row per configuration and mode of a
 * sweep, with the statistics of its runs, as text, CSV, JSON or Markdown.
 *
 * The command only reads its options and the run folders, hands the runs
 * to the engine (analyse/table.h: rows, statistics, cache x, baseline
 * ratios, stage shares) and the table to its writer (render/table.h:
 * the four formats), and says what the options could not do: a
 * --tag-columns name no run has, --stages without a kept report, --by
 * without --baseline.
 */
#include "builtin/builtin.h"
#include "cli/cli.h"
#include "analyse/table.h"
#include "parse/run_read.h"
#include "render/table.h"

#include <stdlib.h>
#include <string.h>

/* --format: an index into ns__tab_formats, in the writer's order */
static const char *const ns__tab_formats[] = {"text", "csv", "json", "markdown", NULL};
static const ns_table_format ns__tab_format[] = {NS_TABLE_TEXT, NS_TABLE_CSV, NS_TABLE_JSON,
                                                 NS_TABLE_MARKDOWN};

/* Split "A,B" into t->keys (owned by `list`, a copy of the argument);
 * returns -1 on an empty name. */
static int ns__tag_columns(ns_table *t, char *list) {
    for (char *s = list;;) {
        char *comma = strchr(s, ',');
        if (comma) *comma = 0;
        if (!*s) return -1;
        ns_key_add(&t->keys, &t->nkeys, s);
        if (!comma) break;
        s = comma + 1;
    }
    return 0;
}

/* Does any run have the tag key? */
static int ns__tag_seen(const ns_run *runs, int nruns, const char *key) {
    for (int i = 0; i < nruns; i++)
        if (ns_kv_get(&runs[i].tags, key)) return 1;
    return 0;
}

int ns_cmd_table(int argc, char **argv) {
    ns_args a;
    ns_args_init(&a, argc, argv);
    int fmt = 0;
    ns_table t;
    ns_table_init(&t);
    ns_table_opts o = {NULL, NULL, NULL};
    ns_table_view view = {NS_TABLE_TEXT, 0, NULL};
    ns_stage_sel sel;
    memset(&sel, 0, sizeof sel);
    int stages = 0;                /* --stages given */
    const char *stage_spec = NULL; /* --stages=MAP */
    char *tagcols = NULL;  /* copy of --tag-columns, owner of its key names */
    char *base_key = NULL; /* --baseline's tag name (owned) */
    int submodels = 0;     /* --submodels */
    ns_run *runs = NULL;   /* every run read */
    int nruns = 0;         /* entries in runs */
    char **dirs = ns_xcalloc((size_t)argc, sizeof *dirs);
    int ndirs = 0, rc = NS_EXIT_OK, quiet = 0, unreadable = 0;
    const char *v;
    ns_buf b = {0};
    while (a.i < argc) {
        const char *arg = argv[a.i];
        int m;
        if ((m = ns_args_format(&a, ns__tab_formats, &fmt))) {
            if (m < 0) { rc = NS_EXIT_USAGE; goto out; }
        } else if ((m = ns_args_value(&a, "--baseline", &v))) {
            if (m < 0) { rc = NS_EXIT_USAGE; goto out; }
            const char *eq = strchr(v, '=');
            if (!eq || eq == v || !eq[1]) {
                rc = ns_args_usage(&a, "--baseline: TAG=VALUE, e.g. precision=int8, not '%s'", v);
                goto out;
            }
            free(base_key);
            base_key = ns_strndup(v, (size_t)(eq - v));
            o.base_key = base_key;
            o.base_value = eq + 1;
        } else if (ns_args_flag(&a, "--submodels")) {
            submodels = 1;
        } else if ((m = ns_args_value(&a, "--by", &v))) {
            if (m < 0) { rc = NS_EXIT_USAGE; goto out; }
            view.by = v;
        } else if ((m = ns_args_value(&a, "--tag-columns", &v))) {
            if (m < 0) { rc = NS_EXIT_USAGE; goto out; }
            free(tagcols);
            tagcols = ns_strdup(v);
            t.nkeys = 0;
            if (ns__tag_columns(&t, tagcols) < 0) {
                rc = ns_args_usage(&a, "--tag-columns: a comma-separated list of tag names, "
                                       "not '%s'", v);
                goto out;
            }
        } else if (ns_args_flag(&a, "--stages")) {
            stages = 1; /* a bare flag: the map is chosen per report */
            stage_spec = NULL;
        } else if (!a.only_inputs && strncmp(arg, "--stages=", 9) == 0) {
            stages = 1;
            stage_spec = arg + 9;
            a.i++;
        } else if ((m = ns_args_rest(&a, &quiet, dirs, &ndirs)) != NS_ARGS_TAKEN) {
            rc = m == NS_ARGS_HELP ? NS_EXIT_OK : NS_EXIT_USAGE;
            goto out;
        }
    }
    if (ndirs == 0) {
        rc = ns_args_usage(&a, "no DIR given (a run folder or a folder of run folders)");
        goto out;
    }
    ns_diag_quiet(quiet);
    int listed = t.nkeys; /* keys named by --tag-columns */
    for (int i = 0; i < ndirs; i++)
        if (ns_runs_read(dirs[i], &runs, &nruns) < 0) unreadable = 1;
    if (nruns > 0) {
        for (int k = 0; k < listed; k++)
            if (!ns__tag_seen(runs, nruns, t.keys[k]))
                ns_warn_at(NULL, 0, "--tag-columns: no run has the tag '%s'", t.keys[k]);
        if (submodels) ns_table_submodel_metrics(runs, nruns);
        if (stages) {
            if (ns_stage_sel_init(&sel, stage_spec) < 0) {
                rc = NS_EXIT_USAGE;
                goto out;
            }
            o.stages = &sel;
            int added; /* a map named on the command line has its columns even without reports */
            for (int s = 0; sel.fixed && s < ns_stage_count(sel.fixed); s++)
                ns_strmap_intern(&t.stages, ns_stage_name(sel.fixed, s), &added);
        }
        ns_table_build(&t, runs, nruns, &o);
        if (stages && !ns_table_any_regime(&t))
            ns_warn_at(NULL, 0, "--stages: no counted run kept a timing report, so there are "
                                "no stage shares (record keeps the reports the command printed)");
        if (view.by && !o.base_key)
            ns_warn_at(NULL, 0, "--by groups --baseline ratios; without --baseline it does nothing");
        view.format = ns__tab_format[fmt];
        view.ncols = listed ? listed : t.nkeys;
        ns_render_table(&b, &t, &view);
        if (ns_buf_flush(&b, stdout) || fflush(stdout)) {
            ns_error("error writing the output");
            rc = NS_EXIT_USAGE;
        }
    } else if (!unreadable) {
        ns_buf_puts(&b, dirs[0]);
        for (int i = 1; i < ndirs; i++) {
            ns_buf_puts(&b, ", ");
            ns_buf_puts(&b, dirs[i]);
        }
        ns_error("no runs found in %s", b.data);
        rc = NS_EXIT_NOTHING;
    }
    if (unreadable) rc = NS_EXIT_USAGE;
    ns_diag_summary();
out:
    ns_table_free(&t);
    ns_stage_sel_free(&sel);
    for (int i = 0; i < nruns; i++) ns_run_free(&runs[i]);
    free(runs);
    free(tagcols);
    free(base_key);
    free(dirs);
    ns_buf_free(&b);
    return rc;
}
