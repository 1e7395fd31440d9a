/* unit_fit.c -- unit tests of the analysis layer: power-law fits
 * (src/fit.c), the A/B rows and verdicts (src/diff.c), and what they read
 * (src/dataset.c: fields, pass sums over reports, selections, CSV tables).
 *
 * The fits are checked on exact power laws (where the answer is known to
 * the last digit) and on the published figures of an NPU compile-time
 * study (tests/data/seed-compile-table.csv, see tests/data/README.md):
 * its cache_x column must equal cold_s / warm_reuse_s as printed, and its
 * window exponents must come out as the study reports them (~0.24 for
 * Qwen2.5-1.5B, ~0.55 for Qwen2.5-7B).  The commands are tested end to end
 * by tests/run.sh (golden cases) and tests/run_analysis.sh (real compiles).
 *
 * Run from the repository root.  Prints one line per failure and ends with
 * "unit_fit: N passed, N failed". */
#include "check.h"

#include "analyse/dataset.h"
#include "analyse/diff.h"
#include "analyse/fit.h"
#include "capture/metrics.h"
#include "model/report.h"
#include "analyse/stats.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))

/* ====== Fits on exact power laws ====== */

static void add1(ns_fit *f, double x, double y) { ns_fit_add(f, x, &y, 1); }

static void test_exact_power_law(void) {
    ns_fit f = {0};
    for (double x = 1; x <= 1024; x *= 2) add1(&f, x, 3 * sqrt(x));
    CHECK(ns_fit_power(&f) == 0 && f.ok);
    CHECK(f.used == 11 && f.npts == 11);
    CHECK(NEAR(f.exponent, 0.5, 1e-12));
    CHECK(NEAR(f.prefactor, 3, 1e-11));
    CHECK(NEAR(f.r2, 1, 1e-12));
    CHECK(f.ci95_lo <= 0.5 + 1e-9 && f.ci95_hi >= 0.5 - 1e-9 && f.ci95_hi - f.ci95_lo < 1e-9);
    int resid_ok = 1, fitted_ok = 1;
    for (int i = 0; i < f.npts; i++) {
        resid_ok &= NEAR(f.pts[i].residual, 0, 1e-12);
        fitted_ok &= NEAR(f.pts[i].fitted, f.pts[i].y, 1e-9 * f.pts[i].y);
    }
    CHECK(resid_ok && fitted_ok);
    CHECK(f.nslopes == 10 && f.cliffs == 0);
    int slopes_ok = 1;
    for (int i = 0; i < f.nslopes; i++)
        slopes_ok &= NEAR(f.slopes[i].slope, 0.5, 1e-12) && f.slopes[i].x1 == 2 * f.slopes[i].x0;
    CHECK(slopes_ok);
    ns_fit_free(&f);

    /* points added out of order come out sorted; y = 2 x^1.5 */
    double xs[] = {9, 1, 4, 16, 25};
    for (int i = 0; i < 5; i++) add1(&f, xs[i], 2 * pow(xs[i], 1.5));
    CHECK(ns_fit_power(&f) == 0);
    CHECK(f.pts[0].x == 1 && f.pts[4].x == 25);
    CHECK(NEAR(f.exponent, 1.5, 1e-12) && NEAR(f.prefactor, 2, 1e-11));
    ns_fit_free(&f);

    /* two points: an exact line, but no confidence interval */
    add1(&f, 10, 100);
    add1(&f, 100, 1000);
    CHECK(ns_fit_power(&f) == 0 && NEAR(f.exponent, 1, 1e-12) && NEAR(f.r2, 1, 1e-12));
    CHECK(isnan(f.ci95_lo) && isnan(f.ci95_hi));
    ns_fit_free(&f);
}

static void test_fit_edges(void) {
    ns_fit f = {0};
    /* a point is the median of its values; NaN is not a value */
    double v[] = {5, NAN, 1, 3, 100};
    CHECK(ns_fit_add(&f, 2, v, 5) == 0);
    CHECK(f.pts[0].y == 4 && f.pts[0].n == 4 && f.pts[0].min == 1 && f.pts[0].max == 100);
    CHECK(v[0] == 5 && isnan(v[1]) && v[4] == 100); /* not reordered */
    double none[] = {NAN, NAN};
    CHECK(ns_fit_add(&f, 3, none, 2) == -1 && f.npts == 1);
    /* one point: no fit */
    CHECK(ns_fit_power(&f) == -1 && !f.ok && isnan(f.exponent));
    ns_fit_free(&f);

    /* x <= 0 and y <= 0 stay as points but are left out of the fit */
    add1(&f, 0, 5);
    add1(&f, 4, -1);
    for (double x = 1; x <= 8; x *= 2) add1(&f, x, 7 * x);
    CHECK(ns_fit_power(&f) == 0 && f.npts == 6 && f.used == 4);
    CHECK(NEAR(f.exponent, 1, 1e-12) && NEAR(f.prefactor, 7, 1e-10));
    CHECK(!f.pts[0].used && isnan(f.pts[0].fitted) && isnan(f.pts[0].residual));
    int out_y = -1;
    for (int i = 0; i < f.npts; i++)
        if (f.pts[i].y < 0) out_y = i;
    CHECK(out_y >= 0 && !f.pts[out_y].used && NEAR(f.pts[out_y].fitted, 28, 1e-9) &&
          isnan(f.pts[out_y].residual));
    ns_fit_free(&f);

    /* all at one x: no fit */
    add1(&f, 5, 1);
    add1(&f, 5, 2);
    CHECK(ns_fit_power(&f) == -1 && f.nslopes == 0);
    ns_fit_free(&f);

    /* points sharing an x: one local slope, through their median */
    add1(&f, 1, 10);
    add1(&f, 2, 18);
    add1(&f, 2, 22);
    add1(&f, 4, 40);
    CHECK(ns_fit_power(&f) == 0 && f.nslopes == 2);
    CHECK(NEAR(f.slopes[0].slope, log(2.0) / log(2.0), 1e-12) && f.slopes[0].x1 == 2);
    ns_fit_free(&f);
}

/* A compile that falls off a cliff: y = x up to 64, then 20x in one step.
 * The global exponent stays modest; the local slope shows the cliff. */
static void test_cliff(void) {
    ns_fit f = {0};
    for (double x = 1; x <= 64; x *= 2) add1(&f, x, x);
    add1(&f, 128, 128 * 20);
    CHECK(ns_fit_power(&f) == 0);
    CHECK(f.exponent > 1 && f.exponent < 2);
    CHECK(f.nslopes == 7 && f.cliffs == 1);
    CHECK(f.slopes[6].cliff && f.slopes[6].x0 == 64 && f.slopes[6].x1 == 128);
    CHECK(NEAR(f.slopes[6].slope, 1 + log(20.0) / log(2.0), 1e-12));
    CHECK(!f.slopes[0].cliff && NEAR(f.slopes[0].slope, 1, 1e-12));
    ns_fit_free(&f);
}

/* ====== The study's published table ====== */

static void test_seed_table(void) {
    ns_csv t;
    if (ns_csv_read("tests/data/seed-compile-table.csv", &t) != 0) {
        CHECK(!"tests/data/seed-compile-table.csv readable (run from the repository root)");
        return;
    }
    CHECK(t.nrows == 8 && t.ncols == 6);
    int model = ns_csv_col(&t, "model"), window = ns_csv_col(&t, "window");
    int cold = ns_csv_col(&t, "cold_s"), warm = ns_csv_col(&t, "warm_reuse_s");
    int cache = ns_csv_col(&t, "cache_x");
    CHECK(model == 0 && window == 1 && cold == 2 && warm == 3 && cache == 4);
    CHECK(ns_csv_col(&t, "nope") == -1);

    /* cache_x = cold_s / warm_reuse_s, to the precision it is printed */
    int rows_ok = 0;
    for (int r = 0; r < t.nrows; r++) {
        double c, w;
        if (!ns_text_number(ns_csv_cell(&t, r, cold), &c) ||
            !ns_text_number(ns_csv_cell(&t, r, warm), &w))
            continue;
        char printed[32];
        snprintf(printed, sizeof printed, "%.1f", c / w);
        if (strcmp(printed, ns_csv_cell(&t, r, cache)) == 0) rows_ok++;
        else printf("  row %d: cold/warm = %s, table says %s\n", r + 1, printed,
                    ns_csv_cell(&t, r, cache));
    }
    CHECK(rows_ok == 8);
    CHECK(strcmp(ns_csv_cell(&t, 0, cache), "20.6") == 0);
    CHECK(strcmp(ns_csv_cell(&t, 7, cache), "125.1") == 0);

    /* the window exponents the study reports */
    static const struct {
        const char *model; /* model column */
        double exponent;   /* reported */
        double tol;        /* allowed difference */
    } want[] = {{"qwen25_1_5b", 0.24, 0.02}, {"qwen25_7b", 0.55, 0.05}};
    for (size_t m = 0; m < sizeof want / sizeof want[0]; m++) {
        ns_fit f = {0};
        for (int r = 0; r < t.nrows; r++) {
            double x, y;
            if (strcmp(ns_csv_cell(&t, r, model), want[m].model) == 0 &&
                ns_text_number(ns_csv_cell(&t, r, window), &x) &&
                ns_text_number(ns_csv_cell(&t, r, cold), &y))
                add1(&f, x, y);
        }
        CHECK(ns_fit_power(&f) == 0);
        if (!NEAR(f.exponent, want[m].exponent, want[m].tol))
            printf("  %s: window exponent %.4f, the study reports ~%.2f\n", want[m].model,
                   f.exponent, want[m].exponent);
        CHECK(NEAR(f.exponent, want[m].exponent, want[m].tol));
        CHECK(f.r2 > 0.9 && f.ci95_lo < f.exponent && f.exponent < f.ci95_hi);
        ns_fit_free(&f);
    }
    ns_csv_free(&t);
}

/* ====== CSV reading ====== */

/* Messages the code under test prints on purpose go to /dev/null. */
static int quiet_saved = -1;

static void quiet_begin(void) {
    fflush(stderr);
    quiet_saved = dup(2);
    int fd = open("/dev/null", O_WRONLY);
    if (fd >= 0) {
        dup2(fd, 2);
        close(fd);
    }
}

static void quiet_end(void) {
    fflush(stderr);
    if (quiet_saved >= 0) {
        dup2(quiet_saved, 2);
        close(quiet_saved);
        quiet_saved = -1;
    }
}

/* Write text to a new temporary file; its name goes to path. */
static int write_tmp(char *path, size_t n, const char *text) {
    const char *dir = getenv("TMPDIR");
    snprintf(path, n, "%s/unit_fit_XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) return -1;
    size_t len = strlen(text);
    int rc = write(fd, text, len) == (ssize_t)len ? 0 : -1;
    close(fd);
    return rc;
}

static void test_csv(void) {
    char path[256];
    ns_csv t;
    /* BOM, CRLF, quotes with commas, doubled quotes and a line break,
     * blanks around values, a blank line, a short record, a long one */
    const char *text = "\xEF\xBB\xBFname,x,\"y, s\"\r\n"
                       "\"a, \"\"quoted\"\"\", 1 ,2.5\r\n"
                       "\r\n"
                       "\"two\nlines\",3,4\n"
                       "short,5\n"
                       "long,6,7,8\n";
    if (write_tmp(path, sizeof path, text) != 0) {
        CHECK(!"temporary file");
        return;
    }
    quiet_begin(); /* the long record's warning */
    int rc = ns_csv_read(path, &t);
    quiet_end();
    CHECK(rc == 0);
    if (rc == 0) {
        CHECK(t.ncols == 3 && t.nrows == 4);
        CHECK(strcmp(t.head[0], "name") == 0 && strcmp(t.head[2], "y, s") == 0);
        CHECK(strcmp(ns_csv_cell(&t, 0, 0), "a, \"quoted\"") == 0);
        CHECK(strcmp(ns_csv_cell(&t, 0, 1), "1") == 0 && strcmp(ns_csv_cell(&t, 0, 2), "2.5") == 0);
        CHECK(strcmp(ns_csv_cell(&t, 1, 0), "two\nlines") == 0);
        CHECK(t.lines[0] == 2 && t.lines[1] == 4 && t.lines[2] == 6 && t.lines[3] == 7);
        CHECK(ns_csv_cell(&t, 2, 2) == NULL && strcmp(ns_csv_cell(&t, 2, 1), "5") == 0);
        CHECK(strcmp(ns_csv_cell(&t, 3, 2), "7") == 0);
        CHECK(ns_csv_cell(&t, 9, 0) == NULL && ns_csv_cell(&t, 0, 9) == NULL);
        ns_csv_free(&t);
    }
    unlink(path);

    /* a quote never closed is an error, not a silently short table */
    if (write_tmp(path, sizeof path, "a,b\n1,\"2\n3,4\n") == 0) {
        quiet_begin();
        rc = ns_csv_read(path, &t);
        quiet_end();
        CHECK(rc == -1);
        unlink(path);
    }
    if (write_tmp(path, sizeof path, "\n\n") == 0) {
        quiet_begin();
        rc = ns_csv_read(path, &t);
        quiet_end();
        CHECK(rc == -1);
        unlink(path);
    }
}

/* ====== Text values, fields, selections ====== */

static void test_text_and_fields(void) {
    double v;
    CHECK(ns_text_number("128", &v) && v == 128);
    CHECK(ns_text_number("-0.5", &v) && v == -0.5);
    CHECK(ns_text_number("1e3", &v) && v == 1000);
    CHECK(!ns_text_number("nan", &v) && !ns_text_number("12a", &v) && !ns_text_number("", &v));
    CHECK(!ns_text_number(" 1", &v) && !ns_text_number("3,5", &v));
    CHECK(ns_text_cmp("128", "1024") < 0 && ns_text_cmp("1024", "int8") < 0);
    CHECK(ns_text_cmp(NULL, "a") < 0 && ns_text_cmp("a", "a") == 0 && ns_text_cmp("b", "a") > 0);
    CHECK(ns_text_cmp("1.0", "1") > 0); /* equal numbers: by bytes */

    ns_field f;
    const char *why = NULL;
    CHECK(ns_field_parse("wall", 0, &f, &why) == 0 && f.kind == NS_FIELD_WALL &&
          ns_field_is_time(&f));
    CHECK(ns_field_parse("peak", 0, &f, &why) == 0 && f.kind == NS_FIELD_PEAK &&
          !ns_field_is_time(&f));
    CHECK(ns_field_parse("pass:FeasibleAllocation", 0, &f, &why) == 0 &&
          f.kind == NS_FIELD_PASS && strcmp(f.name, "FeasibleAllocation") == 0);
    CHECK(ns_field_parse("metric:tokens_per_s", 0, &f, &why) == 0 && f.kind == NS_FIELD_METRIC &&
          strcmp(f.name, "tokens_per_s") == 0);
    CHECK(ns_field_parse("stage:memory-scheduling", 0, &f, &why) == 0 && f.kind == NS_FIELD_STAGE &&
          strcmp(f.name, "memory-scheduling") == 0);
    CHECK(ns_field_parse("stage:", 0, &f, &why) == -1 && strstr(why, "name of a stage"));
    CHECK(ns_field_parse("walltime", 0, &f, &why) == -1);
    CHECK(ns_field_parse("pass:", 0, &f, &why) == -1);
    CHECK(ns_field_parse("window", 1, &f, &why) == 0 && f.kind == NS_FIELD_TAG);
    CHECK(ns_field_parse("metric:params", 1, &f, &why) == 0 && f.kind == NS_FIELD_METRIC);
    CHECK(ns_field_parse("pass:X", 1, &f, &why) == -1 && ns_field_parse("", 1, &f, &why) == -1);

    ns_kvlist sel = {0};
    CHECK(ns_select_parse(&sel, "model=m1,window=128") == 0 && sel.n == 2);
    CHECK(ns_select_parse(&sel, "precision") == -1);
    ns_kv_free(&sel);
    CHECK(ns_select_parse(&sel, "model=m1") == 0);
    ns_run r;
    memset(&r, 0, sizeof r);
    ns_kv_set(&r.tags, "model", "m1");
    ns_kv_set(&r.tags, "window", "128");
    CHECK(ns_select_match(&r, &sel) && ns_select_match(&r, NULL));
    ns_kv_set(&sel, "window", "1024");
    CHECK(!ns_select_match(&r, &sel));
    ns_field w;
    CHECK(ns_field_parse("window", 1, &w, &why) == 0 && ns_run_value(&r, &w) == 128);
    ns_kv_set(&r.tags, "window", "big");
    CHECK(isnan(ns_run_value(&r, &w)));
    ns_kv_free(&sel);
    ns_run_free(&r);
}

/* ====== Runs with reports ====== */

static ns_node *node(ns_report *rep, ns_node *parent, const char *name, ns_kind kind,
                     double wall) {
    ns_node *n = ns_report_node(rep);
    n->name = ns_report_strdup(rep, name, strlen(name));
    n->kind = kind;
    n->depth = parent->depth + 1;
    n->val[NS_COL_WALL] = (ns_num){wall, 4, 0};
    ns_node_append(parent, n);
    return n;
}

/* A report like mlir-opt's: Parser, a pipeline holding Canonicalizer and
 * CSE, a top-level Canonicalizer, Rest; scale multiplies every time. */
static ns_report *mlir_report(double scale) {
    ns_report *rep = ns_report_new(NS_PROD_MLIR_TEXT, "x.log", 1);
    rep->root->val[NS_COL_WALL] = (ns_num){1.0 * scale, 4, 0};
    node(rep, rep->root, "Parser", NS_KIND_SCOPE, 0.1 * scale);
    ns_node *pipe = node(rep, rep->root, "'func.func' Pipeline", NS_KIND_PIPELINE, 0.5 * scale);
    node(rep, pipe, "Canonicalizer", NS_KIND_PASS, 0.3 * scale);
    node(rep, pipe, "CSE", NS_KIND_PASS, 0.2 * scale);
    node(rep, pipe, "(A) DominanceInfo", NS_KIND_ANALYSIS, 0.00001);
    node(rep, rep->root, "Canonicalizer", NS_KIND_PASS, 0.4 * scale);
    node(rep, rep->root, "Rest", NS_KIND_REST, -0.01);
    return rep;
}

static void make_run(ns_run *r, double wall, double scale, int nreports, double tokens) {
    memset(r, 0, sizeof *r);
    r->id = ns_strdup("run");
    r->mode = ns_strdup("none");
    r->wall_s = wall;
    r->user_s = r->sys_s = r->peak_rss_mb = NAN;
    r->nreports = nreports;
    r->reports = ns_xcalloc((size_t)nreports + 1, sizeof *r->reports);
    for (int i = 0; i < nreports; i++) r->reports[i] = mlir_report(scale);
    if (!isnan(tokens)) {
        r->nmetrics = 1;
        r->metrics = ns_xcalloc(1, sizeof *r->metrics);
        r->metrics[0].name = ns_strdup("tokens_per_s");
        r->metrics[0].value = tokens;
        r->metrics[0].count = 1;
    }
}

static void test_pass_sums(void) {
    ns_run r;
    make_run(&r, 2.0, 1.0, 2, NAN);
    int found;
    /* both Canonicalizer rows of both reports (sub-model reports sum) */
    CHECK(NEAR(ns_run_pass_wall(&r, "Canonicalizer", &found), 1.4, 1e-12) && found == 4);
    CHECK(NEAR(ns_run_pass_wall(&r, "CSE", &found), 0.4, 1e-12) && found == 2);
    CHECK(ns_run_pass_wall(&r, "Rest", &found) == 0 && found == 0);
    CHECK(ns_run_pass_wall(&r, "Total", &found) == 0 && found == 0);
    ns_field f;
    const char *why;
    CHECK(ns_field_parse("pass:Canonicalizer", 0, &f, &why) == 0 &&
          NEAR(ns_run_value(&r, &f), 1.4, 1e-12));
    CHECK(ns_field_parse("pass:Nope", 0, &f, &why) == 0 && isnan(ns_run_value(&r, &f)));
    CHECK(ns_field_parse("wall", 0, &f, &why) == 0 && ns_run_value(&r, &f) == 2.0);
    CHECK(ns_field_parse("user", 0, &f, &why) == 0 && isnan(ns_run_value(&r, &f)));

    /* pass names as top ranks them: no containers, no Rest, each once */
    ns_strmap names;
    ns_strmap_init(&names);
    ns_run_pass_names(&r, &names);
    CHECK(names.count == 4);
    if (names.count == 4)
        CHECK(strcmp(names.keys[0], "Parser") == 0 && strcmp(names.keys[1], "Canonicalizer") == 0 &&
              strcmp(names.keys[2], "CSE") == 0 && strcmp(names.keys[3], "(A) DominanceInfo") == 0);
    /* all at once: the same sums as one by one */
    double sums[4];
    int counts[4], same = names.count == 4;
    ns_run_pass_sums(&r, &names, sums, counts);
    for (size_t k = 0; k < names.count && same; k++) {
        double one = ns_run_pass_wall(&r, names.keys[k], &found);
        same = one == sums[k] && found == counts[k];
    }
    CHECK(same);

    /* a row inside a same-named row is part of it, not counted twice */
    ns_report *rep = r.reports[1];
    ns_node *outer = rep->root->child->next; /* the pipeline */
    node(rep, outer->child, "Canonicalizer", NS_KIND_PASS, 0.1);
    CHECK(NEAR(ns_run_pass_wall(&r, "Canonicalizer", &found), 1.4, 1e-12) && found == 4);
    ns_run_pass_sums(&r, &names, sums, counts);
    CHECK(NEAR(sums[1], 1.4, 1e-12) && counts[1] == 4);
    ns_strmap_free(&names);
    ns_run_free(&r);
}

/* ====== A against B ====== */

static void test_verdicts(void) {
    ns_diff_opts o = {0.05, 2.0, 0};
    /* time (and every metric that is better low): higher is slower */
    double inf = INFINITY;
    CHECK(strcmp(ns_diff_verdict(0, 0.008, 0.5, 0.4, 0.6, 10, &o), "slower") == 0);
    CHECK(strcmp(ns_diff_verdict(0, 0.008, -0.5, -0.6, -0.4, 10, &o), "faster") == 0);
    /* a rate: higher is faster */
    CHECK(strcmp(ns_diff_verdict(1, 0.008, 0.5, 0.4, 0.6, 10, &o), "faster") == 0);
    CHECK(strcmp(ns_diff_verdict(1, 0.008, -0.5, -0.6, -0.4, 10, &o), "slower") == 0);
    /* significant but small: 1% of the median, its interval inside +-2% */
    CHECK(strcmp(ns_diff_verdict(0, 0.008, 0.1, 0.05, 0.15, 10, &o), "same") == 0);
    /* significant, small, but the interval reaches past 2%: not shown same */
    CHECK(strcmp(ns_diff_verdict(0, 0.008, 0.1, 0.05, 0.3, 10, &o), "inconclusive") == 0);
    /* large but not significant: p >= alpha alone is no evidence of sameness */
    CHECK(strcmp(ns_diff_verdict(0, 0.1, 5, -inf, inf, 10, &o), "inconclusive") == 0);
    CHECK(strcmp(ns_diff_verdict(0, 0.1, 5, 1, 9, 10, &o), "inconclusive") == 0);
    CHECK(strcmp(ns_diff_verdict(0, 0.05, 5, 1, 9, 10, &o), "inconclusive") == 0); /* p < alpha */
    CHECK(strcmp(ns_diff_verdict(0, NAN, 5, NAN, NAN, 10, &o), "inconclusive") == 0);
    /* not significant, but shown small: same */
    CHECK(strcmp(ns_diff_verdict(0, 0.4, 0.01, -0.1, 0.15, 10, &o), "same") == 0);
    /* a pass A never ran: any significant time in B is slower */
    CHECK(strcmp(ns_diff_verdict(0, 0.008, 0.2, 0.1, 0.3, 0, &o), "slower") == 0);
    /* ... and same only when every difference is 0 */
    CHECK(strcmp(ns_diff_verdict(0, 1, 0, 0, 0, 0, &o), "same") == 0);
    CHECK(strcmp(ns_diff_verdict(0, 0.3, 0, -0.1, 0.1, 0, &o), "inconclusive") == 0);

    ns_diff_row row;
    double a[] = {1.00, 1.01, 1.02, 1.03, 1.04}, b[] = {1.20, 1.21, 1.22, 1.23, 1.24};
    ns_diff_row_make(&row, "total", NS_DIFF_TOTAL, a, 5, b, 5, &o);
    CHECK(row.a_n == 5 && row.b_n == 5 && row.a_median == 1.02 && row.b_median == 1.22);
    CHECK(NEAR(row.ratio, 1.22 / 1.02, 1e-15) && NEAR(row.shift, 0.2, 1e-12));
    CHECK(NEAR(row.p, 2.0 / 252, 1e-12) && strcmp(row.verdict, "slower") == 0);
    CHECK(a[0] == 1.00 && b[4] == 1.24); /* inputs untouched */
    free(row.name);
    ns_diff_row_make(&row, "total", NS_DIFF_TOTAL, b, 5, a, 5, &o);
    CHECK(strcmp(row.verdict, "faster") == 0 && NEAR(row.shift, -0.2, 1e-12));
    free(row.name);
    /* 3 against 3 can never reach p < 0.05, however clear the difference:
     * inconclusive, and its interval is every difference (unbounded at
     * less) */
    ns_diff_row_make(&row, "total", NS_DIFF_TOTAL, a, 3, b, 3, &o);
    CHECK(NEAR(row.p, 0.1, 1e-12) && strcmp(row.verdict, "inconclusive") == 0);
    CHECK(NEAR(row.ci_lo, 0.18, 1e-12) && NEAR(row.ci_hi, 0.22, 1e-12));
    CHECK(NEAR(ns_mann_whitney_min_p(3, 3), 0.1, 1e-12));
    free(row.name);
    /* A against A */
    ns_diff_row_make(&row, "total", NS_DIFF_TOTAL, a, 5, a, 5, &o);
    CHECK(row.p == 1 && row.shift == 0 && strcmp(row.verdict, "same") == 0);
    free(row.name);
    /* a --threshold above the shift: no verdict */
    o.threshold = 50;
    ns_diff_row_make(&row, "total", NS_DIFF_TOTAL, a, 5, b, 5, &o);
    CHECK(strcmp(row.verdict, "same") == 0);
    free(row.name);
    /* missing values and an empty side */
    double c[] = {NAN, 2, NAN};
    ns_diff_row_make(&row, "metric:x", NS_DIFF_METRIC, c, 3, NULL, 0, &o);
    CHECK(row.a_n == 1 && row.b_n == 0 && row.a_median == 2 && isnan(row.b_median) &&
          isnan(row.p) && isnan(row.ratio) && strcmp(row.verdict, "inconclusive") == 0);
    free(row.name);
    /* metric rows: the direction comes from the name, the text says both */
    o.threshold = 2;
    static const struct {
        const char *name;    /* row name */
        ns_diff_kind kind;   /* row kind */
        int a_first;         /* A = a[] (B higher), else A = b[] (B lower) */
        int higher_better;   /* expected direction */
        const char *text;    /* expected ns_diff_verdict_text */
    } vt[] = {
        {"metric:tokens_per_s", NS_DIFF_METRIC, 1, 1, "faster (higher)"},
        {"metric:compiler_vmpeak_kb", NS_DIFF_METRIC, 1, 0, "slower (higher)"},
        {"metric:tokens_per_s", NS_DIFF_METRIC, 0, 1, "slower (lower)"},
        {"total", NS_DIFF_TOTAL, 0, 0, "faster"},
    };
    ns_buf t = {0};
    for (size_t i = 0; i < sizeof vt / sizeof *vt; i++) {
        ns_diff_row_make(&row, vt[i].name, vt[i].kind, vt[i].a_first ? a : b, 5,
                         vt[i].a_first ? b : a, 5, &o);
        t.len = 0;
        ns_diff_verdict_text(&t, &row);
        CHECK(row.higher_better == vt[i].higher_better && strcmp(t.data, vt[i].text) == 0);
        free(row.name);
    }
    ns_buf_free(&t);
    /* the naming rule */
    CHECK(ns_metric_higher_is_better("tokens_per_s") && ns_metric_higher_is_better("img_fps") &&
          ns_metric_higher_is_better("req_per_second") && ns_metric_higher_is_better("throughput_fps") &&
          ns_metric_higher_is_better("decode_throughput"));
    CHECK(!ns_metric_higher_is_better("compile_net_ms") && !ns_metric_higher_is_better("per_s") &&
          !ns_metric_higher_is_better("compiler_vmpeak_kb") && !ns_metric_higher_is_better("") &&
          !ns_metric_higher_is_better("tokens_per_s_ms"));
}

static void test_diff_runs(void) {
    enum { N = 5 };
    ns_run ra[N], rb[N];
    const ns_run *pa[N], *pb[N];
    for (int i = 0; i < N; i++) {
        /* B: every pass 1.5x, the total 1.4x, tokens/s halved */
        make_run(&ra[i], 1.0 + 0.01 * i, 1.0 + 0.01 * i, 1, 20 + 0.1 * i);
        make_run(&rb[i], 1.4 + 0.01 * i, 1.5 + 0.01 * i, 1, 10 + 0.1 * i);
        pa[i] = &ra[i];
        pb[i] = &rb[i];
    }
    ns_diff_opts o = {0.05, 2.0, 0};
    ns_diff d;
    ns_diff_runs(pa, N, pb, N, &o, &d);
    /* total, 3 passes (the tiny analysis left out), 1 metric */
    CHECK(d.nrows == 5 && d.skipped == 1);
    if (d.nrows == 5) {
        CHECK(strcmp(d.rows[0].name, "total") == 0 && strcmp(d.rows[0].verdict, "slower") == 0);
        CHECK(NEAR(d.rows[0].p, 2.0 / 252, 1e-12));
        /* passes by A's median, heaviest first */
        CHECK(strcmp(d.rows[1].name, "Canonicalizer") == 0 &&
              NEAR(d.rows[1].a_median, 0.714, 1e-9));
        CHECK(strcmp(d.rows[2].name, "CSE") == 0 && strcmp(d.rows[3].name, "Parser") == 0);
        CHECK(strcmp(d.rows[1].verdict, "slower") == 0 && d.rows[1].kind == NS_DIFF_PASS);
        CHECK(strcmp(d.rows[4].name, "metric:tokens_per_s") == 0 &&
              strcmp(d.rows[4].verdict, "slower") == 0 && d.rows[4].higher_better &&
              NEAR(d.rows[4].ratio, 10.2 / 20.2, 1e-12));
    }
    ns_diff_free(&d);
    o.all = 1;
    ns_diff_runs(pa, N, pb, N, &o, &d);
    CHECK(d.nrows == 6 && d.skipped == 0);
    if (d.nrows == 6) CHECK(strcmp(d.rows[4].name, "(A) DominanceInfo") == 0);
    ns_diff_free(&d);
    for (int i = 0; i < N; i++) {
        ns_run_free(&ra[i]);
        ns_run_free(&rb[i]);
    }
}

int main(void) {
    test_exact_power_law();
    test_fit_edges();
    test_cliff();
    test_seed_table();
    test_csv();
    test_text_and_fields();
    test_pass_sums();
    test_verdicts();
    test_diff_runs();
    return check_summary("unit_fit");
}
