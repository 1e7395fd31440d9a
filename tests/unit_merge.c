/* unit_merge.c -- unit tests of src/merge.c on reports built by hand:
 * three repeats of one compile with a Canonicalizer run three times under
 * one pipeline (matched by occurrence, never by name alone), a pass one run
 * lacks and one only another run has, a slow total that is an outlier, a
 * user column one run did not print for a row, and mixed decimals.  Also:
 * grouping of runs by configuration and mode, the text and JSON outputs,
 * and a 10,000-deep tree (iterative walks: no stack overflow).
 *
 * Prints one line per failure and ends with "unit_merge: N passed, N failed". */
#include "check.h"

#include "analyse/merge.h"
#include "render/merged.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEAR(a, b) (fabs((a) - (b)) < 1e-12)

/* ====== Building reports ====== */

static ns_num num(double v, int dec) {
    ns_num n = {v, (signed char)dec, 0};
    return n;
}

/* A row `name` under parent with wall (4 decimals) and, when user >= 0, user. */
static ns_node *row(ns_report *r, ns_node *parent, const char *name, double wall, double user) {
    ns_node *n = ns_report_node(r);
    n->name = ns_report_strdup(r, name, strlen(name));
    n->depth = parent->depth + 1;
    n->kind = ns_kind_of_name(name, n->depth);
    n->val[NS_COL_WALL] = num(wall, 4);
    if (user >= 0) n->val[NS_COL_USER] = num(user, 4);
    ns_node_append(parent, n);
    return n;
}

/* A complete report whose Total is `total`, with a user column when user >= 0. */
static ns_report *report(double total, double user) {
    ns_report *r = ns_report_new(NS_PROD_MLIR_TEXT, "unit", 1);
    r->label = ns_strdup("#1");
    r->cols = NS_COLBIT(NS_COL_WALL);
    r->complete = 1;
    r->root->val[NS_COL_WALL] = num(total, 4);
    if (user >= 0) {
        r->cols |= NS_COLBIT(NS_COL_USER);
        r->root->val[NS_COL_USER] = num(user, 4);
    }
    r->header_total = num(total, 4);
    return r;
}

/* Three repeats (see the top).  Run 3's total is the outlier; PassA is in
 * runs 1 and 3, PassB only in run 2; run 3 printed no user for PassA. */
static void three_runs(ns_report *rep[3]) {
    static const double total[3] = {10.0, 11.0, 30.0};
    static const double pipe[3] = {5.0, 6.0, 5.5};
    for (int i = 0; i < 3; i++) {
        ns_report *r = rep[i] = report(total[i], 2 * total[i]);
        ns_node *p = row(r, r->root, "IE to VPUIP pipeline", pipe[i], 2 * pipe[i]);
        row(r, p, "Canonicalizer", 1.0 + 0.1 * i, 1.0);
        if (i != 1) row(r, p, "PassA", 0.5 + 0.1 * i, i == 2 ? -1 : 0.5);
        row(r, p, "Canonicalizer", 2.0 + 0.1 * i, 2.0);
        if (i == 1) row(r, p, "PassB", 0.7, 0.7);
        row(r, p, "Canonicalizer", 3.0 + 0.1 * i, 3.0);
        ns_node *rest = row(r, r->root, "Rest", 0.1 * (i + 1), -1);
        rest->val[NS_COL_WALL].dec = i == 0 ? 3 : 4; /* 0.100 | 0.2000 | 0.3000 */
    }
    /* run 2's pipeline wall printed with 5 decimals: the merged one has 5 */
    rep[1]->root->child->val[NS_COL_WALL].dec = 5;
}

/* The i-th child of n (0-based), or NULL. */
static ns_node *kid(const ns_node *n, int i) {
    ns_node *c = n ? n->child : NULL;
    while (c && i--) c = c->next;
    return c;
}

/* ====== Merging ====== */

static void test_merge(void) {
    ns_report *rep[3];
    three_runs(rep);
    const char *names[3] = {"r1", "r2", "r3"};
    ns_merged *m = ns_merge_new((const ns_report *const *)rep, names, 3, "model=llm cold #1");
    const ns_report *r = m->report;
    CHECK(m->nruns == 3 && strcmp(m->runs[1], "r2") == 0);
    CHECK(strcmp(r->label, "model=llm cold #1") == 0);
    CHECK(r->cols == (NS_COLBIT(NS_COL_WALL) | NS_COLBIT(NS_COL_USER)));
    CHECK(r->complete == 1);

    /* Total: median of the totals; 30 is an outlier and is counted */
    const ns_merge_stat *st = ns_merge_stat_of(m, r->root);
    CHECK(NEAR(r->root->val[NS_COL_WALL].v, 11.0) && r->root->val[NS_COL_WALL].dec == 4);
    CHECK(NEAR(r->root->val[NS_COL_USER].v, 22.0));
    CHECK(st && st->n == 3 && st->outliers == 1);
    CHECK(st && NEAR(st->min.v, 10.0) && NEAR(st->max.v, 30.0) && st->min.dec == 4);
    CHECK(NEAR(r->header_total.v, 11.0));
    CHECK(m->outlier_rows == 1);

    /* top level: the pipeline, then Rest */
    CHECK(r->root->nchild == 2);
    ns_node *p = kid(r->root, 0), *rest = kid(r->root, 1);
    CHECK(p && strcmp(p->name, "IE to VPUIP pipeline") == 0 && p->depth == 0);
    CHECK(p && NEAR(p->val[NS_COL_WALL].v, 5.5) && p->val[NS_COL_WALL].dec == 5);
    CHECK(rest && strcmp(rest->name, "Rest") == 0 && NEAR(rest->val[NS_COL_WALL].v, 0.2));
    CHECK(rest && rest->val[NS_COL_WALL].dec == 4);         /* max of 3, 4, 4 */
    CHECK(rest && !ns_num_present(rest->val[NS_COL_USER])); /* nobody printed it */

    /* children in order of first appearance: PassB (run 2 only) comes last */
    static const char *const order[] = {"Canonicalizer", "PassA", "Canonicalizer",
                                        "Canonicalizer", "PassB"};
    CHECK(p && p->nchild == 5);
    for (int i = 0; i < 5; i++) {
        ns_node *c = kid(p, i);
        CHECK(c && strcmp(c->name, order[i]) == 0 && c->depth == 1 && c->parent == p);
    }
    /* the k-th Canonicalizer is matched with the k-th of every run */
    ns_node *c0 = kid(p, 0), *c1 = kid(p, 2), *c2 = kid(p, 3);
    CHECK(c0 && NEAR(c0->val[NS_COL_WALL].v, 1.1) && NEAR(c0->val[NS_COL_USER].v, 1.0));
    CHECK(c1 && NEAR(c1->val[NS_COL_WALL].v, 2.1));
    CHECK(c2 && NEAR(c2->val[NS_COL_WALL].v, 3.1));
    st = ns_merge_stat_of(m, c2);
    CHECK(st && st->n == 3 && NEAR(st->min.v, 3.0) && NEAR(st->max.v, 3.2) && st->outliers == 0);

    /* a row missing from a run: smaller n, median of the others; user only
     * when every run that has the row printed it */
    ns_node *pa = kid(p, 1), *pb = kid(p, 4);
    st = ns_merge_stat_of(m, pa);
    CHECK(st && st->n == 2 && pa && NEAR(pa->val[NS_COL_WALL].v, 0.6));
    CHECK(pa && !ns_num_present(pa->val[NS_COL_USER]));
    st = ns_merge_stat_of(m, pb);
    CHECK(st && st->n == 1 && pb && NEAR(pb->val[NS_COL_WALL].v, 0.7));
    CHECK(pb && NEAR(pb->val[NS_COL_USER].v, 0.7));

    /* the side table knows only the merged report's nodes */
    CHECK(ns_merge_stat_of(m, rep[0]->root) == NULL);
    CHECK(ns_merge_stat_of(m, NULL) == NULL);

    /* the inputs are untouched */
    CHECK(NEAR(rep[2]->root->val[NS_COL_WALL].v, 30.0) && rep[1]->root->nchild == 2);

    /* text: the ordinary tree plus the summary line before the blank line */
    ns_text_opts eo;
    memset(&eo, 0, sizeof eo);
    ns_view_init(&eo.view);
    ns_buf b = {0};
    ns_merged_text(&b, m, &eo);
    CHECK(b.data && strstr(b.data, "report model=llm cold #1") == b.data);
    CHECK(b.data && strstr(b.data, "    5.50000"));
    const char *tail = "  Total\n  merged 3 runs; medians shown; 1 row with outliers\n\n";
    CHECK(b.len > strlen(tail) && strcmp(b.data + b.len - strlen(tail), tail) == 0);
    ns_buf_free(&b);

    /* JSON: the contract plus n, min_s, max_s, outliers */
    ns_merged_json_begin(&b);
    ns_merged_json(&b, m, &eo.view, 1);
    ns_merged_json_end(&b);
    const char *head = "{\"format\":\"npuscope-tree\",\"version\":1,\"merged\":true,";
    CHECK(b.data && strncmp(b.data, head, strlen(head)) == 0);
    CHECK(b.data && strstr(b.data, "\"runs\":[\"r1\",\"r2\",\"r3\"],\"rows_with_outliers\":1,"));
    CHECK(b.data && strstr(b.data, "\"root\":{\"name\":\"Total\",\"kind\":\"total\",\"wall_s\":"
                                   "11.0000,\"user_s\":22.0000,\"n\":3,\"min_s\":10.0000,"
                                   "\"max_s\":30.0000,\"outliers\":1,\"children\":["));
    CHECK(b.data && strstr(b.data, "{\"name\":\"PassA\",\"kind\":\"pass\",\"wall_s\":0.6000,"
                                   "\"user_s\":null,\"n\":2,\"min_s\":0.5000,\"max_s\":0.7000,"
                                   "\"outliers\":0,\"children\":[]}"));
    CHECK(b.len > 5 && strcmp(b.data + b.len - 5, "}\n]}\n") == 0);
    ns_buf_free(&b);

    /* deterministic: the same inputs give the same bytes */
    ns_merged *again = ns_merge_new((const ns_report *const *)rep, names, 3, "model=llm cold #1");
    ns_buf b1 = {0}, b2 = {0};
    ns_merged_json(&b1, m, &eo.view, 1);
    ns_merged_json(&b2, again, &eo.view, 1);
    CHECK(b1.len == b2.len && memcmp(b1.data, b2.data, b1.len) == 0);
    ns_buf_free(&b1);
    ns_buf_free(&b2);
    ns_merge_free(again);

    ns_merge_free(m);
    for (int i = 0; i < 3; i++) ns_report_free(rep[i]);
}

/* One report alone, no names, one without a user column: merges to itself,
 * user dropped (not every report has it), runs named "#1", "#2". */
static void test_single_and_columns(void) {
    ns_report *a = report(2.0, 4.0), *b = report(4.0, 8.0);
    row(a, a->root, "Parser", 1.0, 1.0);
    row(b, b->root, "Parser", 3.0, 3.0);
    ns_merged *m = ns_merge_new((const ns_report *const *)&a, NULL, 1, "cold #1");
    CHECK(m->nruns == 1 && strcmp(m->runs[0], "#1") == 0);
    CHECK(NEAR(m->report->root->val[NS_COL_WALL].v, 2.0) && m->outlier_rows == 0);
    ns_buf t = {0};
    ns_text_opts eo;
    memset(&eo, 0, sizeof eo);
    ns_view_init(&eo.view);
    ns_merged_text(&t, m, &eo);
    CHECK(t.data && strstr(t.data, "  merged 1 run; medians shown; 0 rows with outliers\n\n"));
    ns_buf_free(&t);
    ns_merge_free(m);

    b->cols = NS_COLBIT(NS_COL_WALL);
    const ns_report *two[2] = {a, b};
    m = ns_merge_new(two, NULL, 2, "x");
    CHECK(strcmp(m->runs[1], "#2") == 0);
    CHECK(m->report->cols == NS_COLBIT(NS_COL_WALL));
    CHECK(!ns_num_present(m->report->root->val[NS_COL_USER]));
    CHECK(NEAR(m->report->root->val[NS_COL_WALL].v, 3.0)); /* even count: the mean of two */
    ns_merge_free(m);
    ns_report_free(a);
    ns_report_free(b);
}

/* 10,000 nested rows in two runs, the second one row deeper. */
static void test_deep(void) {
    enum { DEEP = 10000 };
    ns_report *rep[2];
    for (int i = 0; i < 2; i++) {
        rep[i] = report(1.0, -1);
        ns_node *p = rep[i]->root;
        for (int d = 0; d < DEEP + i; d++) p = row(rep[i], p, "Pipeline", 1.0 + i, -1);
    }
    ns_merged *m = ns_merge_new((const ns_report *const *)rep, NULL, 2, "deep");
    CHECK(m->report->nnodes == DEEP + 2);
    ns_node *n = m->report->root;
    int depth = 0;
    while (n->child) {
        n = n->child;
        depth++;
    }
    CHECK(depth == DEEP + 1 && n->depth == DEEP);
    const ns_merge_stat *st = ns_merge_stat_of(m, n);
    CHECK(st && st->n == 1 && NEAR(n->val[NS_COL_WALL].v, 2.0));
    st = ns_merge_stat_of(m, n->parent);
    CHECK(st && st->n == 2 && NEAR(n->parent->val[NS_COL_WALL].v, 1.5));
    ns_view v;
    ns_view_init(&v);
    ns_buf b = {0};
    ns_merged_json(&b, m, &v, 1);
    CHECK(b.len > 0 && b.data[b.len - 1] == '}');
    ns_buf_free(&b);
    ns_merge_free(m);
    for (int i = 0; i < 2; i++) ns_report_free(rep[i]);
}

/* ====== Grouping runs ====== */

static void add_run(ns_runset *s, const char *id, const char *tags, const char *mode,
                    int exit_code, int nreports) {
    s->runs = ns_xrealloc(s->runs, sizeof *s->runs * (size_t)(s->nruns + 1));
    ns_run *r = &s->runs[s->nruns++];
    memset(r, 0, sizeof *r);
    r->id = ns_strdup(id);
    r->mode = ns_strdup(mode);
    r->exit_code = exit_code;
    if (*tags) ns_select_parse(&r->tags, tags);
    r->nreports = nreports;
    r->reports = ns_xcalloc((size_t)nreports + 1, sizeof *r->reports);
    for (int k = 0; k < nreports; k++) {
        r->reports[k] = report(10.0 * (k + 1) + s->nruns, -1);
        free(r->reports[k]->label);
        r->reports[k]->label = ns_strdup(k ? "decode" : "prefill");
    }
}

static void test_groups(void) {
    ns_runset s = {0};
    /* read out of id order; tags in a different order are the same config */
    add_run(&s, "b-r2", "window=128,model=llm", "cold", 0, 2);
    add_run(&s, "a-r1", "model=cnn", "cold", 0, 1);
    add_run(&s, "b-r1", "model=llm,window=128", "cold", 0, 1);
    add_run(&s, "b-r3", "model=llm,window=128", "warm", 0, 1);
    add_run(&s, "b-r4", "model=llm,window=128", "cold", 1, 2); /* failed */
    add_run(&s, "c-r1", "", "none", 0, 1);
    add_run(&s, "b-r5", "model=llm", "cold", 0, 1); /* a subset is another config */
    ns_merge_group *g = NULL;
    int skipped = -1;
    int n = ns_merge_groups(&s, &g, &skipped);
    CHECK(skipped == 1);
    CHECK(n == 5);
    if (n == 5) {
        /* groups in table's order: tag by tag in the order the keys were
         * first read (window, then model), a missing value first; then mode */
        CHECK(strcmp(g[0].config, "") == 0 && strcmp(g[0].mode, "none") == 0);
        CHECK(strcmp(g[1].config, "model=cnn") == 0 && g[1].n == 1);
        CHECK(strcmp(g[2].config, "model=llm") == 0 && g[2].n == 1);
        CHECK(strcmp(g[3].config, "model=llm,window=128") == 0 && strcmp(g[3].mode, "cold") == 0);
        CHECK(g[3].n == 2 && strcmp(g[3].runs[0]->id, "b-r1") == 0 &&
              strcmp(g[3].runs[1]->id, "b-r2") == 0);
        CHECK(strcmp(g[4].config, "model=llm,window=128") == 0 && strcmp(g[4].mode, "warm") == 0);

        /* report k with report k: position 2 has only b-r2 */
        ns_merged **ms = NULL;
        int nm = ns_merge_group_reports(&g[3], &ms);
        CHECK(nm == 2);
        if (nm == 2) {
            CHECK(strcmp(ms[0]->report->label, "model=llm,window=128 cold prefill") == 0);
            CHECK(ms[0]->nruns == 2 && strcmp(ms[0]->runs[0], "b-r1") == 0);
            /* totals 13 (b-r1, third read) and 11 (b-r2, first read) */
            CHECK(NEAR(ms[0]->report->root->val[NS_COL_WALL].v, 12.0));
            CHECK(strcmp(ms[1]->report->label, "model=llm,window=128 cold decode") == 0);
            CHECK(ms[1]->nruns == 1 && strcmp(ms[1]->runs[0], "b-r2") == 0);
        }
        for (int k = 0; k < nm; k++) ns_merge_free(ms[k]);
        free(ms);
        nm = ns_merge_group_reports(&g[0], &ms);
        CHECK(nm == 1 && strcmp(ms[0]->report->label, "none prefill") == 0);
        for (int k = 0; k < nm; k++) ns_merge_free(ms[k]);
        free(ms);
    }
    ns_merge_groups_free(g, n);
    ns_runset_free(&s);
}

/* Groups in table's order: numbers as numbers (1000, 2000, 16000, never
 * 1000, 16000, 2000 as text), and runs of two commands without tags are
 * two groups, each labelled by its command's distinguishing word. */
static void test_group_order(void) {
    ns_runset s = {0};
    add_run(&s, "funcs-1000-r1", "funcs=1000", "none", 0, 1);
    add_run(&s, "funcs-16000-r1", "funcs=16000", "none", 0, 1);
    add_run(&s, "funcs-2000-r1", "funcs=2000", "none", 0, 1);
    add_run(&s, "run-a", "", "none", 0, 1);
    add_run(&s, "run-b", "", "none", 0, 1);
    const char *cmd[2] = {"-O1", "-O3"};
    for (int i = 0; i < 2; i++) {
        ns_run *r = &s.runs[3 + i];
        r->argv = ns_xcalloc(3, sizeof *r->argv);
        r->argv[0] = ns_strdup("opt");
        r->argv[1] = ns_strdup(cmd[i]);
    }
    ns_merge_group *g = NULL;
    int n = ns_merge_groups(&s, &g, NULL);
    CHECK(n == 5);
    if (n == 5) {
        CHECK(strcmp(g[0].config, "config=-O1") == 0 && strcmp(g[0].runs[0]->id, "run-a") == 0);
        CHECK(strcmp(g[1].config, "config=-O3") == 0 && strcmp(g[1].runs[0]->id, "run-b") == 0);
        CHECK(strcmp(g[2].config, "funcs=1000") == 0);
        CHECK(strcmp(g[3].config, "funcs=2000") == 0);
        CHECK(strcmp(g[4].config, "funcs=16000") == 0);
    }
    ns_merge_groups_free(g, n);
    ns_runset_free(&s);
}

int main(void) {
    test_merge();
    test_group_order();
    test_single_and_columns();
    test_deep();
    test_groups();
    return check_summary("unit_merge");
}
