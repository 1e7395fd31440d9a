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
#include <unistd.h>

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
    char buf[256];
    for (int i = 0; i < nruns; i++)
        if (ns_run_tag(&runs[i], key, buf, sizeof buf)) return 1; /* derived ones too */
    return 0;
}

/* ====== Reading run by run ======
 * The table needs of a run's trees only its stage sums (--stages) and its
 * sub-model totals (--submodels): each run is reduced to those as it is
 * read and its trees are freed, so memory grows with the runs' records
 * (about 1 KiB each), not with their trees (tens of KiB). */
typedef struct {
    ns_run **runs;      /* the runs kept, trees freed */
    int *nruns;         /* entries in runs */
    int cap;            /* allocated entries */
    ns_table *t;        /* keeps the stage sums */
    ns_stage_sel *sel;  /* the stage selection, NULL without --stages */
    int submodels;      /* --submodels */
} ns__tab_reader;

static void ns__tab_take(ns_run *r, void *ctx) {
    ns__tab_reader *rd = ctx;
    if (*rd->nruns == rd->cap) {
        rd->cap = rd->cap ? 2 * rd->cap : 64;
        *rd->runs = ns_xrealloc(*rd->runs, sizeof **rd->runs * (size_t)rd->cap);
    }
    ns_run *kept = &(*rd->runs)[(*rd->nruns)++];
    *kept = *r;
    if (rd->submodels) ns_table_submodel_metrics(kept, 1);
    if (rd->sel) ns_table_keep_stages(rd->t, kept, rd->sel);
    ns_run_free_reports(kept);
}

/* What the option handlers fill in. */
typedef struct {
    ns_table *t;        /* the table (its tag columns) */
    ns_table_opts *o;   /* the baseline */
    char **tagcols;     /* owner of the --tag-columns key names */
    char **base_key;    /* owner of --baseline's tag name */
} ns__tab_args;

static int ns__opt_baseline(const ns_option *opt, const char *v, const char **why) {
    static char msg[300];
    ns__tab_args *ta = opt->ctx;
    const char *eq = strchr(v, '=');
    if (!eq || eq == v || !eq[1]) {
        snprintf(msg, sizeof msg, "TAG=VALUE, e.g. precision=int8, not '%.200s'", v);
        *why = msg;
        return -1;
    }
    free(*ta->base_key);
    *ta->base_key = ns_strndup(v, (size_t)(eq - v));
    ta->o->base_key = *ta->base_key;
    ta->o->base_value = eq + 1;
    return 0;
}

static int ns__opt_tag_columns(const ns_option *opt, const char *v, const char **why) {
    static char msg[300];
    ns__tab_args *ta = opt->ctx;
    free(*ta->tagcols);
    *ta->tagcols = ns_strdup(v);
    ta->t->nkeys = 0;
    if (ns__tag_columns(ta->t, *ta->tagcols) == 0) return 0;
    snprintf(msg, sizeof msg, "a comma-separated list of tag names, not '%.200s'", v);
    *why = msg;
    return -1;
}

int ns_cmd_table(int argc, char **argv) {
    int fmt = 0;
    ns_table t;
    ns_table_init(&t);
    ns_table_opts o = {NULL, NULL, NULL};
    ns_table_view view = {NS_TABLE_TEXT, 0, NULL, 0};
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
    ns_buf b = {0};
    ns__tab_args ta = {&t, &o, &tagcols, &base_key};
    const char *stage_map = NULL; /* --stages [MAP] */
    const ns_option own[] = {
        NS_OPT_CHOICE(0, "format", &fmt, "F", ns__tab_formats),
        NS_OPT_CALL(0, "baseline", "TAG=VALUE", ns__opt_baseline, &ta),
        NS_OPT_FLAG(0, "submodels", &submodels),
        NS_OPT_STRING(0, "by", &view.by, "TAG"),
        NS_OPT_CALL(0, "tag-columns", "LIST", ns__opt_tag_columns, &ta),
        NS_OPT_STAGES(&stage_map),
        NS_OPT_QUIET(&quiet),
        NS_OPT_CSV_RAW(),
        NS_OPT_END(),
    };
    const ns_option *const tables[] = {own, NULL};
    switch (ns_options_parse("table", argc, argv, tables, dirs, &ndirs)) {
    case NS_OPTIONS_HELP: goto out;
    case NS_OPTIONS_ERROR: rc = NS_EXIT_USAGE; goto out;
    }
    if (stage_map) { /* bare: the map is chosen per report */
        stages = 1;
        stage_spec = strcmp(stage_map, "auto") ? stage_map : NULL;
    }
    if (ndirs == 0) {
        rc = ns_options_usage("table", "no DIR given (a run folder or a folder of run folders)");
        goto out;
    }
    ns_diag_quiet(quiet);
    int listed = t.nkeys; /* keys named by --tag-columns */
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
    ns__tab_reader rd = {&runs, &nruns, 0, &t, o.stages, submodels};
    for (int i = 0; i < ndirs; i++)
        if (ns_runs_each(dirs[i], ns__tab_take, &rd) < 0) unreadable = 1;
    if (nruns > 0) {
        for (int k = 0; k < listed; k++)
            if (!ns__tag_seen(runs, nruns, t.keys[k]))
                ns_warn_at(NULL, 0, "--tag-columns: no run has the tag '%s'", t.keys[k]);
        ns_table_build(&t, runs, nruns, &o);
        if (stages && !ns_table_any_regime(&t))
            ns_warn_at(NULL, 0, "--stages: no counted run kept a timing report, so there are "
                                "no stage shares (record keeps the reports the command printed)");
        if (view.by && !o.base_key)
            ns_warn_at(NULL, 0, "--by groups --baseline ratios; without --baseline it does nothing");
        view.format = ns__tab_format[fmt];
        view.ncols = listed ? listed : t.nkeys;
        view.width = ns_cli_width(STDOUT_FILENO); /* text: fit a terminal (render/width.h) */
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
        ns_buf hint = {0};
        for (int i = 0; i < ndirs; i++)
            if (ns_cli_runs_hint(dirs[i], &hint)) break;
        if (hint.len) ns_error("no runs found in %s: %s", b.data, hint.data);
        else ns_error("no runs found in %s", b.data);
        ns_buf_free(&hint);
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
