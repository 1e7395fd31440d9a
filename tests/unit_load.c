/* unit_load.c -- unit tests of the run-folder load path: the decimals a tree
 * JSON value comes back with (parse/tree_read.c recovers them by
 * arithmetic, not by printing: checked here against the printf + strtod
 * trial it replaced, on every kind of value a report holds), and a table
 * built from runs read one at a time, their trees freed after
 * ns_table_keep_stages, against the same table built with every tree in
 * memory (analyse/table.h); the flat rows of a deep report in run.json
 * rebuilt into its tree, and malformed ones refused with a reason.
 *
 * Prints one line per failure and ends with "unit_load: N passed, N failed". */
#include "check.h"

#include "analyse/table.h"
#include "model/report.h"
#include "parse/run_read.h"
#include "parse/tree_read.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ====== Decimals ====== */

/* The reference: the fewest decimals (0..9) whose printing reads back as v. */
static int trial_decimals(double v) {
    char buf[64];
    for (int d = 0; d <= 9; d++) {
        snprintf(buf, sizeof buf, "%.*f", d, v);
        if (strtod(buf, NULL) == v) return d;
    }
    return 9;
}

/* The decimals tree_read gives the root's wall_s when it is the number
 * written `text` (a one-node report, so no column widening). */
static int read_decimals(const char *text, double *v) {
    char doc[256];
    snprintf(doc, sizeof doc, "{\"root\":{\"name\":\"Total\",\"wall_s\":%s,\"children\":[]}}", text);
    json_error_t err;
    json_t *o = json_loads(doc, 0, &err);
    if (!o) return -100;
    const char *why;
    ns_report *r = ns_report_from_json_new(o, "t.json", &why);
    json_decref(o);
    if (!r) return -101;
    int dec = r->root->val[NS_COL_WALL].dec;
    *v = r->root->val[NS_COL_WALL].v;
    ns_report_free(r);
    return dec;
}

static unsigned long long seed = 88172645463325252ULL;
static unsigned long long next(void) { /* xorshift64 */
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
}

static void test_decimals(void) {
    static const char *const fixed[] = {"3.8142", "0.016", "0.0160", "-0.0001", "62.5888",
                                        "1e-7", "0.1", "0.7", "1234567.891", "999999.9999999",
                                        "5e15", "1.5e300", "123456789012.5", "0.000000001",
                                        "2.675", "1.005", "-0.5", "1e6", "999999.999999999"};
    int mismatch = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) {
        double v;
        int got = read_decimals(fixed[i], &v);
        if (got != trial_decimals(v)) {
            printf("  decimals of %s: %d, the trial gives %d\n", fixed[i], got, trial_decimals(v));
            mismatch++;
        }
    }
    CHECK(mismatch == 0);
    double v;
    CHECK(read_decimals("3.8142", &v) == 4 && v == 3.8142);
    CHECK(read_decimals("0.0160", &v) == 3); /* JSON keeps no trailing zero */
    /* printed numbers: m / 10^d for random m of up to 15 digits, d 0..12,
     * and random doubles of every size (%.17g) */
    mismatch = 0;
    for (int i = 0; i < 200000; i++) {
        char text[64];
        unsigned long long r = next();
        if (i % 2) {
            int d = (int)(r % 13);
            long long m = (long long)((r >> 8) % 1000000000000000ULL) / (long long)(1 + (r >> 4) % 1000000);
            snprintf(text, sizeof text, "%s%lld.%0*lld", (r & 1) ? "-" : "", m / 1000, d ? d : 1,
                     (long long)(m % (long long)pow(10, d ? d : 1)));
        } else {
            double x = ldexp((double)(r >> 11) / 9007199254740992.0, (int)(r % 80) - 40);
            snprintf(text, sizeof text, "%.17g", x);
        }
        int got = read_decimals(text, &v);
        if (got != trial_decimals(v)) {
            if (mismatch++ < 5)
                printf("  decimals of %s: %d, the trial gives %d\n", text, got, trial_decimals(v));
        }
    }
    CHECK(mismatch == 0);
}

/* ====== Flat rows ====== */

/* A report read from `doc`: NULL with *why when refused. */
static ns_report *read_report(const char *doc, const char **why) {
    json_error_t err;
    json_t *o = json_loads(doc, 0, &err);
    if (!o) {
        *why = "not JSON";
        return NULL;
    }
    ns_report *r = ns_report_from_json_new(o, "t.json", why);
    json_decref(o);
    return r;
}

/* run.json's deep rows (render/tree_json.h): a row at depth 0 holding A
 * (depth 1) > B (2), then C (1), reads as the nested tree; rows that
 * jump a level, start below their holder's children or nest again are
 * refused with a reason. */
static void test_flat_rows(void) {
    const char *why = NULL;
    ns_report *r = read_report(
        "{\"root\":{\"name\":\"Total\",\"wall_s\":1,\"children\":[{\"name\":\"H\",\"wall_s\":1,"
        "\"rows\":[{\"name\":\"A\",\"wall_s\":0.5,\"depth\":1},{\"name\":\"B\",\"wall_s\":0.25,"
        "\"depth\":2},{\"name\":\"C\",\"wall_s\":0.125,\"depth\":1}]},{\"name\":\"D\",\"wall_s\":0,"
        "\"children\":[]}]}}",
        &why);
    CHECK(r != NULL);
    if (r) {
        ns_node *h = r->root->child;
        CHECK(h && !strcmp(h->name, "H") && h->nchild == 2 && h->depth == 0);
        CHECK(h && h->child && !strcmp(h->child->name, "A") && h->child->depth == 1);
        CHECK(h && h->child && h->child->child && !strcmp(h->child->child->name, "B") &&
              h->child->child->depth == 2 && h->child->child->val[NS_COL_WALL].v == 0.25);
        CHECK(h && h->last && !strcmp(h->last->name, "C"));
        CHECK(h && h->next && !strcmp(h->next->name, "D") && r->root->nchild == 2);
        ns_report_free(r);
    }
    static const char *const bad[][2] = {
        {"{\"name\":\"A\",\"depth\":2}", "flat row 1 is at depth 2, not from 1 to 1"},
        {"{\"name\":\"A\",\"depth\":1},{\"name\":\"B\",\"depth\":3}", "flat row 2 is at depth 3, not from 1 to 2"},
        {"{\"name\":\"A\",\"depth\":0}", "flat row 1 is at depth 0, not from 1 to 1"},
        {"{\"name\":\"A\"}", "a flat row needs an object with a whole-number \"depth\""},
        {"{\"name\":\"A\",\"depth\":1,\"children\":[]}", "a flat row has \"children\" or \"rows\" of its own"},
        {"{\"name\":\"A\",\"depth\":1,\"wall_s\":\"x\"}", "a node's \"wall_s\" must be a number or null, not a string"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char doc[512];
        snprintf(doc, sizeof doc,
                 "{\"root\":{\"name\":\"Total\",\"children\":[{\"name\":\"H\",\"rows\":[%s]}]}}",
                 bad[i][0]);
        why = NULL;
        r = read_report(doc, &why);
        CHECK(r == NULL && why && !strcmp(why, bad[i][1]));
        if (r) ns_report_free(r);
        else if (!why || strcmp(why, bad[i][1])) printf("  rows [%s]: %s\n", bad[i][0], why ? why : "(no reason)");
    }
    why = NULL;
    r = read_report("{\"root\":{\"name\":\"Total\",\"children\":[{\"name\":\"H\",\"children\":"
                    "[{\"name\":\"X\"}],\"rows\":[{\"name\":\"A\",\"depth\":1}]}]}}",
                    &why);
    CHECK(r == NULL && why && strstr(why, "both"));
    if (r) ns_report_free(r);
    why = NULL;
    r = read_report("{\"root\":{\"name\":\"Total\",\"rows\":{}}}", &why);
    CHECK(r == NULL && why && !strcmp(why, "a node's \"rows\" must be an array, not an object"));
    if (r) ns_report_free(r);
}

/* ====== Tables from runs read one at a time ====== */

typedef struct {
    ns_run *runs;       /* kept runs, trees freed */
    int n;              /* entries */
    ns_table *t;        /* keeps the stage sums */
    ns_stage_sel *sel;  /* the stage selection */
} kept_runs;

static void take(ns_run *r, void *ctx) {
    kept_runs *k = ctx;
    k->runs = realloc(k->runs, sizeof *k->runs * (size_t)(k->n + 1));
    k->runs[k->n] = *r;
    ns_table_keep_stages(k->t, &k->runs[k->n], k->sel);
    ns_run_free_reports(&k->runs[k->n]);
    k->n++;
}

static int same_double(double a, double b) { return (isnan(a) && isnan(b)) || a == b; }

static void test_streamed_table(const char *spec) {
    ns_diag quiet = {NULL, NULL};
    ns_run *all = NULL;
    int nall = 0;
    ns_stage_sel sel_a, sel_b;
    CHECK(ns_stage_sel_init(&sel_a, spec) == 0 && ns_stage_sel_init(&sel_b, spec) == 0);
    /* two folders, so runs of both maps (vpux and mlir) and of none */
    CHECK(ns_run_folder_read("tests/data/stages/runs", &all, &nall, &quiet) > 0);
    CHECK(ns_run_folder_read("tests/runs", &all, &nall, &quiet) > 0);
    int with_reports = 0;
    for (int i = 0; i < nall; i++) with_reports += all[i].nreports > 0;
    CHECK(with_reports >= 6);
    ns_table a, b;
    ns_table_init(&a);
    ns_table_init(&b);
    ns_table_opts oa = {&sel_a, NULL, NULL}, ob = {&sel_b, NULL, NULL};
    ns_table_build(&a, all, nall, &oa);
    kept_runs k = {NULL, 0, &b, &sel_b};
    CHECK(ns_run_folder_each("tests/data/stages/runs", take, &k, &quiet) > 0);
    CHECK(ns_run_folder_each("tests/runs", take, &k, &quiet) > 0);
    for (int i = 0; i < k.n; i++) CHECK(k.runs[i].nreports == 0 && k.runs[i].reports == NULL);
    ns_table_build(&b, k.runs, k.n, &ob);
    CHECK(a.nruns == b.nruns && a.nrows == b.nrows && a.stages.count == b.stages.count);
    int same = a.nruns == b.nruns && a.stages.count == b.stages.count;
    for (size_t s = 0; same && s < a.stages.count; s++)
        same = strcmp(a.stages.keys[s], b.stages.keys[s]) == 0;
    for (size_t c = 0; same && c < (size_t)a.nruns * a.stages.count; c++)
        same = same_double(a.run_share[c], b.run_share[c]);
    int shares = 0; /* the comparison compares something */
    for (size_t c = 0; c < (size_t)a.nruns * a.stages.count; c++) shares += isfinite(a.run_share[c]);
    for (int r = 0; same && r < a.nrows; r++) {
        same = a.rows[r].regime == b.rows[r].regime && same_double(a.rows[r].median, b.rows[r].median);
        for (size_t s = 0; same && s < a.stages.count; s++)
            same = same_double(a.rows[r].shares[s], b.rows[r].shares[s]);
    }
    CHECK(same);
    CHECK(shares > 0);
    CHECK(ns_table_any_regime(&b));
    ns_table_free(&a);
    ns_table_free(&b);
    for (int i = 0; i < nall; i++) ns_run_free(&all[i]);
    for (int i = 0; i < k.n; i++) ns_run_free(&k.runs[i]);
    free(all);
    free(k.runs);
    ns_stage_sel_free(&sel_a);
    ns_stage_sel_free(&sel_b);
}

int main(void) {
    test_decimals();
    test_flat_rows();
    test_streamed_table(NULL);     /* the map chosen per report */
    test_streamed_table("vpux");   /* one map for every report */
    return check_summary("unit_load");
}
