/* unit_config.c -- unit tests of configurations (src/analyse/config.c,
 * the rules in analyse/dataset.h "Configurations"), on runs built here.
 *
 * Runs with the same tags but another command or another --env are
 * other configurations, never one; they get labels made of the words that
 * differ ("--pass-pipeline=…", "FOO=1", "without FOO"), the same in any
 * reading order; NPUSCOPE_* variables npuscope sets per run do not count;
 * a long pipeline loses its shared part and its middle; labels that would
 * read the same get a hash; cold and warm of one command pair, baseline
 * partners keep their label; configurations sort numbers as numbers.
 *
 * Prints one line per failure and ends with "unit_config: N passed, N failed". */
#include "check.h"

#include "analyse/table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== Runs ====== */

/* A run: tags "k=v,k=v", argv "a b c" (split at blanks), env "K=V,K=V",
 * a mode and a wall time. */
static void run_make(ns_run *r, const char *tags, const char *argv, const char *env,
                     const char *mode, double wall) {
    memset(r, 0, sizeof *r);
    r->id = ns_strdup("r");
    r->mode = ns_strdup(mode);
    r->wall_s = r->user_s = wall;
    r->peak_rss_mb = 100;
    char *t = ns_strdup(tags);
    for (char *s = strtok(t, ","); s; s = strtok(NULL, ",")) ns_kv_parse(&r->tags, s);
    free(t);
    t = ns_strdup(env);
    for (char *s = strtok(t, ","); s; s = strtok(NULL, ",")) ns_kv_parse(&r->env, s);
    free(t);
    /* what npuscope sets for every run: never part of the configuration */
    ns_kv_set(&r->env, "NPUSCOPE_MODE", mode);
    char dir[64];
    snprintf(dir, sizeof dir, "/runs/.tmp-%p", (void *)r);
    ns_kv_set(&r->env, "NPUSCOPE_RUN_DIR", dir);
    int n = 0;
    r->argv = ns_xcalloc(32, sizeof *r->argv);
    t = ns_strdup(argv);
    for (char *s = strtok(t, " "); s && n < 31; s = strtok(NULL, " ")) r->argv[n++] = ns_strdup(s);
    free(t);
}

static void runs_free(ns_run *runs, int n) {
    for (int i = 0; i < n; i++) ns_run_free(&runs[i]);
}

/* The labels of the table's rows, in row order, joined by '|'. */
static char *labels_new(const ns_table *t) {
    ns_buf b = {0};
    ns_buf_puts(&b, "");
    for (int i = 0; i < t->nrows; i++) {
        const char *l = ns_config_label(&t->rows[i].cfg);
        ns_buf_printf(&b, "%s%s", i ? "|" : "", l ? l : "-");
    }
    return b.data;
}

static void build(ns_table *t, const ns_run *runs, int n) {
    ns_table_opts o = {NULL, NULL, NULL};
    ns_table_init(t);
    ns_table_build(t, runs, n, &o);
}

/* ====== Commands and environments ====== */

#define PA "--pass-pipeline=builtin.module(func.func(canonicalize))"
#define PB "--pass-pipeline=builtin.module(inline,func.func(canonicalize,cse,canonicalize,cse),convert-to-llvm)"

static void test_commands(void) {
    ns_run runs[10];
    int n = 0;
    /* two folders of two pipelines, no tags: the runs interleaved */
    for (int i = 0; i < 3; i++) {
        run_make(&runs[n++], "", "mlir-opt-22 --mlir-timing " PA " in.mlir", "", "none", 2.5 + i * 0.01);
        run_make(&runs[n++], "", "mlir-opt-22 --mlir-timing " PB " in.mlir", "", "none", 4.2 + i * 0.01);
    }
    ns_table t;
    build(&t, runs, n);
    CHECK(t.nrows == 2);
    if (t.nrows == 2) {
        CHECK(t.rows[0].n == 3 && t.rows[1].n == 3);
        CHECK(fabs(t.rows[0].median - 2.51) < 1e-9 && fabs(t.rows[1].median - 4.21) < 1e-9);
        char *l = labels_new(&t);
        /* the shared "builtin.module(" goes; B's middle goes too */
        CHECK(strcmp(l, "--pass-pipeline=\xe2\x80\xa6" "func.func(canonicalize))|"
                        "--pass-pipeline=\xe2\x80\xa6inline,\xe2\x80\xa6" ",cse),convert-to-llvm)") == 0 ||
              (printf("     labels: %s\n", l), 0));
        free(l);
        CHECK(t.nkeys == 1 && !strcmp(t.keys[0], "config"));
        CHECK(!strcmp(ns_config_label_key(&t.rows[0].cfg), "config"));
        CHECK(!ns_config_same_tags(&t.rows[0].cfg, &t.rows[1].cfg));
    }
    ns_table_free(&t);

    /* the same runs read in the other order give the same rows and labels */
    ns_run rev[10];
    for (int i = 0; i < n; i++) rev[i] = runs[n - 1 - i];
    ns_table u;
    build(&u, rev, n);
    build(&t, runs, n);
    char *a = labels_new(&t), *b = labels_new(&u);
    CHECK(strcmp(a, b) == 0);
    free(a);
    free(b);
    ns_table_free(&t);
    ns_table_free(&u);
    runs_free(runs, n);

    /* the same command under --env FOO=1, FOO=2 and none; cold and warm */
    n = 0;
    run_make(&runs[n++], "", "cc x.c", "FOO=1", "cold", 3);
    run_make(&runs[n++], "", "cc x.c", "FOO=1", "warm", 1);
    run_make(&runs[n++], "", "cc x.c", "FOO=2", "cold", 6);
    run_make(&runs[n++], "", "cc x.c", "FOO=2", "warm", 1);
    run_make(&runs[n++], "", "cc x.c", "", "cold", 9);
    build(&t, runs, n);
    CHECK(t.nrows == 5);
    a = labels_new(&t);
    CHECK(strcmp(a, "FOO=1|FOO=1|FOO=2|FOO=2|without FOO") == 0 || (printf("     labels: %s\n", a), 0));
    free(a);
    /* cold/warm pair within one environment only */
    CHECK(t.nrows == 5 && fabs(t.rows[0].cache_x - 3) < 1e-9 && fabs(t.rows[2].cache_x - 6) < 1e-9 &&
          isnan(t.rows[4].cache_x));
    ns_table_free(&t);
    runs_free(runs, n);

    /* tags tell them apart: no label, even where the commands differ */
    n = 0;
    run_make(&runs[n++], "n=2000", "opt in-2000.mlir", "", "none", 1);
    run_make(&runs[n++], "n=16000", "opt in-16000.mlir", "", "none", 8);
    run_make(&runs[n++], "n=1000", "opt in-1000.mlir", "", "none", 0.5);
    build(&t, runs, n);
    CHECK(t.nrows == 3 && t.nkeys == 1);
    a = labels_new(&t);
    CHECK(strcmp(a, "-|-|-") == 0);
    free(a);
    /* numbers as numbers: 1000, 2000, 16000 */
    CHECK(t.nrows == 3 && !strcmp(ns_table_tag(&t.rows[0], "n"), "1000") &&
          !strcmp(ns_table_tag(&t.rows[1], "n"), "2000") &&
          !strcmp(ns_table_tag(&t.rows[2], "n"), "16000"));
    ns_table_free(&t);
    runs_free(runs, n);

    /* a baseline partner keeps its label: int4 of pipeline A against int8
     * of pipeline A, not of B */
    n = 0;
    run_make(&runs[n++], "p=int8", "c --p=int8 -O1", "", "none", 2);
    run_make(&runs[n++], "p=int8", "c --p=int8 -O3", "", "none", 4);
    run_make(&runs[n++], "p=int4", "c --p=int4 -O1", "", "none", 1);
    run_make(&runs[n++], "p=int4", "c --p=int4 -O3", "", "none", 1);
    ns_table_opts o = {NULL, "p", "int8"};
    ns_table_init(&t);
    ns_table_build(&t, runs, n, &o);
    CHECK(t.nrows == 4);
    if (t.nrows == 4) { /* p=int4 first (text), then -O1 before -O3 */
        a = labels_new(&t);
        CHECK(strcmp(a, "-O1|-O3|-O1|-O3") == 0 || (printf("     labels: %s\n", a), 0));
        free(a);
        CHECK(fabs(t.rows[0].base_ratio - 0.5) < 1e-9 && fabs(t.rows[1].base_ratio - 0.25) < 1e-9);
    }
    ns_table_free(&t);
    runs_free(runs, n);

    /* the same words in another order: labels that read the same get a hash */
    n = 0;
    run_make(&runs[n++], "", "c -a -b", "", "none", 1);
    run_make(&runs[n++], "", "c -b -a", "", "none", 2);
    build(&t, runs, n);
    CHECK(t.nrows == 2);
    a = labels_new(&t);
    CHECK((strncmp(a, "command #", 9) == 0 && strlen(a) == 2 * 17 + 1) ||
          (printf("     labels: %s\n", a), 0));
    free(a);
    if (t.nrows == 2) CHECK(strcmp(ns_config_label(&t.rows[0].cfg), ns_config_label(&t.rows[1].cfg)) != 0);
    ns_table_free(&t);
    runs_free(runs, n);

    /* a run with a tag "config" moves the label to another key */
    n = 0;
    run_make(&runs[n++], "config=x", "c -a", "", "none", 1);
    run_make(&runs[n++], "config=x", "c -b", "", "none", 2);
    build(&t, runs, n);
    CHECK(t.nrows == 2 && t.nkeys == 2 && !strcmp(t.keys[1], "command_config"));
    if (t.nrows == 2) CHECK(!strcmp(ns_config_tag(&t.rows[0].cfg, "config"), "x") &&
                            !strcmp(ns_config_tag(&t.rows[0].cfg, "command_config"), "-a"));
    ns_table_free(&t);
    runs_free(runs, n);
}

int main(void) {
    test_commands();
    return check_summary("unit_config");
}
