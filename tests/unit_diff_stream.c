/* unit_diff_stream.c -- `diff` over summaries gives the rows the trees give.
 *
 * `diff` reads run by run, keeps a summary of each run's trees
 * (ns_diff_keep_run, analyse/diff.h) and frees the trees before the next
 * run is read.  This checks that the rows made from those summaries are
 * the rows the trees themselves give, value for value and bit for bit:
 * every pass and stage row's medians, shift and p are recomputed here from
 * the trees, kept whole in a second reading of the same folder, through
 * the field readers of analyse/dataset.h (ns_run_value of pass:NAME and
 * stage:NAME -- their own tree walks, not the summaries'), and every
 * memory row's values from the trees by a walk written out here.  The run
 * folders are the repository's (tests/runs and tests/data/NAME/runs), under each
 * stage selection `diff --stages` takes.
 *
 * Run from the repository root.  Ends with "unit_diff_stream: N passed, M
 * failed". */
#include "check.h"

#include "analyse/dataset.h"
#include "analyse/diff.h"
#include "model/report.h"
#include "parse/run_read.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== Reading the folder twice ====== */

static const ns_diag quiet = {NULL, NULL}; /* the folders' warnings are not this test's */

/* What the streaming reader keeps: the runs without trees, a summary each. */
typedef struct {
    ns_run *runs;       /* kept runs, trees freed */
    ns_diff_sums *sums; /* the summary of each */
    int n;              /* entries */
    ns_diff_keep *keep; /* shared names */
} streamed;

static void take(ns_run *r, void *ctx) {
    streamed *s = ctx;
    s->runs = realloc(s->runs, sizeof *s->runs * (size_t)(s->n + 1));
    s->sums = realloc(s->sums, sizeof *s->sums * (size_t)(s->n + 1));
    s->runs[s->n] = *r;
    ns_diff_keep_run(s->keep, &s->runs[s->n], &s->sums[s->n]);
    ns_run_free_reports(&s->runs[s->n]); /* as `diff` does: the summary must outlive it */
    s->n++;
}

/* ====== The values from the trees ====== */

/* The side of a run: tag key=value, counted runs only. */
static int on_side(const ns_run *r, const char *key, const char *value) {
    const char *v = ns_kv_get(&r->tags, key);
    return ns_run_counted(r) && v && strcmp(v, value) == 0;
}

/* kB rows named `name` raised the peak in r, as the memory rows count it. */
static double mem_value(const ns_run *r, const char *name) {
    int has = 0;
    double sum = 0;
    for (int k = 0; k < r->nreports; k++) {
        const ns_report *rep = r->reports[k];
        if (!(rep->cols & NS_COLBIT(NS_COL_MEM_INC))) continue;
        has = 1;
        for (ns_node *n = rep->root; n; n = ns_node_next(n, rep->root)) {
            ns_num x = n->val[NS_COL_MEM_INC];
            if (ns_num_present(x) && isfinite(x.v) && strcmp(n->name, name) == 0) sum += x.v;
        }
    }
    return has ? sum : NAN;
}

/* The value of row `row` (its name as diff prints it) for run r, from r's trees. */
static double tree_value(const ns_run *r, const ns_diff_row *row, ns_stage_sel *sel) {
    ns_field f = {NS_FIELD_PASS, row->name, row->name, sel};
    switch (row->kind) {
    case NS_DIFF_PASS: {
        int found;
        double v = ns_run_pass_wall(r, row->name, &found);
        return r->nreports == 0 ? NAN : found ? v : 0; /* diff: a pass a run lacks took 0 s */
    }
    case NS_DIFF_STAGE:
        f.kind = NS_FIELD_STAGE;
        f.name = row->name + 6; /* "stage:" */
        return ns_run_value(r, &f);
    case NS_DIFF_MEMORY: return mem_value(r, row->name + 4); /* "mem:" */
    default: return NAN;
    }
}

static int same_double(double a, double b) { return (isnan(a) && isnan(b)) || a == b; }

/* ====== One comparison ====== */

/* trees: the folder's runs have reports (tests/runs kept none: the rows
 * of runs without any are checked there). */
static void check_folder(const char *dir, const char *key, const char *va, const char *vb,
                         const char *stages, int trees) {
    ns_stage_sel sel = {0};
    if (stages) CHECK(ns_stage_sel_init(&sel, stages) == 0);
    ns_diff_keep keep;
    ns_diff_keep_init(&keep, stages ? &sel : NULL);
    streamed s = {NULL, NULL, 0, &keep};
    CHECK(ns_run_folder_each(dir, take, &s, &quiet) > 0);
    ns_run *whole = NULL;
    int nwhole = 0;
    CHECK(ns_run_folder_read(dir, &whole, &nwhole, &quiet) == s.n);

    /* each side's runs, in reading order, streamed and whole */
    const ns_run **a = calloc((size_t)s.n + 1, sizeof *a), **b = calloc((size_t)s.n + 1, sizeof *b);
    const ns_run **ta = calloc((size_t)s.n + 1, sizeof *ta), **tb = calloc((size_t)s.n + 1, sizeof *tb);
    const ns_diff_sums **sa = calloc((size_t)s.n + 1, sizeof *sa), **sb = calloc((size_t)s.n + 1, sizeof *sb);
    int na = 0, nb = 0;
    for (int i = 0; i < s.n && i < nwhole; i++) {
        if (on_side(&s.runs[i], key, va)) a[na] = &s.runs[i], ta[na] = &whole[i], sa[na++] = &s.sums[i];
        if (on_side(&s.runs[i], key, vb)) b[nb] = &s.runs[i], tb[nb] = &whole[i], sb[nb++] = &s.sums[i];
    }
    CHECK(na > 0 && nb > 0);

    ns_diff_opts o = {0.05, 2.0, 1};
    ns_diff d;
    ns_diff_summed(&keep, a, sa, na, b, sb, nb, &o, &d);
    double *xa = calloc((size_t)na + 1, sizeof *xa), *xb = calloc((size_t)nb + 1, sizeof *xb);
    int checked = 0, stage_rows = 0, mismatch = 0;
    for (int i = 0; i < d.nrows; i++) {
        const ns_diff_row *row = &d.rows[i];
        if (row->kind != NS_DIFF_PASS && row->kind != NS_DIFF_STAGE && row->kind != NS_DIFF_MEMORY)
            continue;
        for (int k = 0; k < na; k++) xa[k] = tree_value(ta[k], row, stages ? &sel : NULL);
        for (int k = 0; k < nb; k++) xb[k] = tree_value(tb[k], row, stages ? &sel : NULL);
        ns_diff_row want;
        ns_diff_row_make(&want, row->name, row->kind, xa, (size_t)na, xb, (size_t)nb, &o);
        int same = want.a_n == row->a_n && want.b_n == row->b_n &&
                   same_double(want.a_median, row->a_median) &&
                   same_double(want.b_median, row->b_median) && same_double(want.shift, row->shift) &&
                   same_double(want.p, row->p) && strcmp(want.verdict, row->verdict) == 0;
        if (!same) {
            if (mismatch < 3)
                printf("  %s %s=%s/%s stages %s: row %s: A median %.17g, the trees' %.17g\n", dir,
                       key, va, vb, stages ? stages : "-", row->name, row->a_median, want.a_median);
            mismatch++;
        }
        free(want.name);
        checked++;
        stage_rows += row->kind == NS_DIFF_STAGE;
    }
    CHECK(mismatch == 0);
    if (trees) CHECK(checked > 0);
    if (trees && stages) CHECK(stage_rows > 0);

    /* the same rows, in the same order, as the trees handed whole (the page's A/B) */
    ns_diff dt;
    ns_diff_runs(ta, na, tb, nb, &o, &dt);
    int rows_same = 1, k = 0;
    for (int i = 0; i < d.nrows; i++) {
        if (d.rows[i].kind == NS_DIFF_STAGE) continue; /* ns_diff_runs makes none */
        rows_same &= k < dt.nrows && strcmp(d.rows[i].name, dt.rows[k].name) == 0 &&
                     same_double(d.rows[i].a_median, dt.rows[k].a_median) &&
                     same_double(d.rows[i].p, dt.rows[k].p);
        k++;
    }
    CHECK(rows_same && k == dt.nrows);

    ns_diff_free(&dt);
    ns_diff_free(&d);
    free(xa);
    free(xb);
    free(a);
    free(b);
    free(ta);
    free(tb);
    free(sa);
    free(sb);
    for (int i = 0; i < s.n; i++) {
        ns_diff_sums_free(&s.sums[i]);
        ns_run_free(&s.runs[i]);
    }
    free(s.runs);
    free(s.sums);
    for (int i = 0; i < nwhole; i++) ns_run_free(&whole[i]);
    free(whole);
    ns_diff_keep_free(&keep);
    ns_stage_sel_free(&sel);
}

int main(void) {
    static const char *const stages[] = {NULL, "auto", "vpux", "mlir"};
    for (int i = 0; i < 4; i++) {
        check_folder("tests/runs", "model", "m1", "m2", stages[i], 0);
        check_folder("tests/runs", "window", "128", "1024", stages[i], 0);
        check_folder("tests/data/memory/runs", "side", "a", "b", stages[i], 1);
        check_folder("tests/data/pr/runs", "side", "a", "b", stages[i], 1);
        check_folder("tests/data/stages/runs", "model", "cnn", "llm", stages[i], 1);
        check_folder("tests/data/stages/runs", "model", "mlir", "llm", stages[i], 1);
    }
    return check_summary("unit_diff_stream");
}
