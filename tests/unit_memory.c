/* unit_memory.c -- the memory-usage-collector line and its row
 * (npu/memory.h): the line as the compiler prints it, with and without the
 * logger prefix, names with quotes in them, what is not such a line; and
 * which row a line goes to when a name occurs more than once.  The whole
 * path (hook, JSON, top, diff) is tests/run_memory.sh's. */
#include "check.h"

#include "npu/memory.h"

#include <math.h>
#include <string.h>

/* ====== The line ====== */

typedef struct {
    const char *line; /* as cleaned by the scanner */
    const char *name; /* expected pass name, NULL: not a line */
    double peak, inc; /* expected numbers */
} ns__case;

static const ns__case cases[] = {
    {"[INFO] 10:15:09.700 [memory-usage-collector] Peak memory usage after 'FeasibleAllocation' "
     "pass: 2948096 kB, increase 524288 kB",
     "FeasibleAllocation", 2948096, 524288},
    {"Peak memory usage after 'Canonicalizer' pass: 10 kB, increase 1 kB", "Canonicalizer", 10, 1},
    /* a name with quotes and spaces: the last "' pass: " ends it */
    {"Peak memory usage after ''func.func' Pipeline' pass: 7 kB, increase 3 kB",
     "'func.func' Pipeline", 7, 3},
    {"  [INFO] x [memory-usage-collector]   Peak memory usage after "
     "'(anonymous namespace)::X' pass: 1 kB, increase 1 kB trailing",
     "(anonymous namespace)::X", 1, 1},
    /* not one */
    {"Peak memory usage after '' pass: 7 kB, increase 3 kB", NULL, 0, 0},
    {"Peak memory usage after 'X' pass: 7.5 kB, increase 3 kB", NULL, 0, 0},
    {"Peak memory usage after 'X' pass: 7 KB, increase 3 KB", NULL, 0, 0},
    {"Peak memory usage after 'X' pass: 7 kB", NULL, 0, 0},
    {"Compilation memory usage: Peak 528485 KB", NULL, 0, 0},
    {"Peak memory usage after 'X pass: 7 kB, increase 3 kB", NULL, 0, 0},
};

static void ns__lines(void) {
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const ns__case *c = &cases[i];
        const char *name = NULL;
        size_t len = 0;
        double peak = NAN, inc = NAN;
        int got = ns_npu_memline_parse(c->line, strlen(c->line), &name, &len, &peak, &inc);
        int ok = c->name ? got && len == strlen(c->name) && !memcmp(name, c->name, len) &&
                               peak == c->peak && inc == c->inc
                         : !got;
        CHECK(ok);
        if (!ok) printf("     line %zu: got %d '%.*s' %g %g\n", i, got, (int)len, name ? name : "", peak, inc);
    }
}

/* ====== The row ====== */

/* A flat report of the given row names, depth 0. */
static ns_report *ns__report(const char *const *names, int n) {
    ns_report *r = ns_report_new(NS_PROD_MLIR_TEXT, "x.log", 1);
    r->label = ns_strdup("#1");
    for (int i = 0; i < n; i++) {
        ns_node *node = ns_report_node(r);
        node->name = ns_report_strdup(r, names[i], strlen(names[i]));
        node->kind = NS_KIND_PASS;
        node->depth = 0;
        ns_node_append(r->root, node);
    }
    return r;
}

static void ns__feed(ns_npu_mem *m, const char *pass, int inc) {
    char line[256];
    snprintf(line, sizeof line, "Peak memory usage after '%s' pass: %d kB, increase %d kB", pass,
             1000 + inc, inc);
    CHECK(ns_npu_mem_line(m, line, strlen(line)) == 1);
}

/* The increase of the k-th row (-1: absent). */
static double ns__inc(const ns_report *r, int k) {
    const ns_node *n = r->root->child;
    while (k-- && n) n = n->next;
    return n && ns_num_present(n->val[NS_COL_MEM_INC]) ? n->val[NS_COL_MEM_INC].v : -1;
}

static void ns__rows(void) {
    /* A C A B A: lines "A, B, A" go to rows 0, 3, 4 (forward from the
     * previous line's row); then "A" once more has no A after row 4, and
     * goes back to the nearest one at or before it: row 4 again */
    static const char *const names[] = {"A", "C", "A", "B", "A"};
    ns_report *r = ns__report(names, 5);
    ns_npu_mem m = {0};
    ns__feed(&m, "A", 1);
    ns__feed(&m, "B", 2);
    ns__feed(&m, "A", 4);
    ns__feed(&m, "A", 8);
    ns__feed(&m, "mlir::detail::OpToOpPassAdaptor", 16);
    long said[2] = {0, 0};
    ns_diag d = {NULL, NULL};
    CHECK(ns_npu_mem_attach(&m, r, &d) == 0);
    CHECK(ns__inc(r, 0) == 1);
    CHECK(ns__inc(r, 1) == -1);
    CHECK(ns__inc(r, 2) == -1);
    CHECK(ns__inc(r, 3) == 2);
    CHECK(ns__inc(r, 4) == 12);
    CHECK(r->cols & NS_COLBIT(NS_COL_MEM_INC));
    CHECK(m.next.n == 0); /* the lines are the report's now */
    ns_report_free(r);

    /* a name of no row: counted, said once; nothing attached, no columns */
    r = ns__report(names, 5);
    ns__feed(&m, "Z", 1);
    ns__feed(&m, "Y", 1);
    d = (ns_diag){ns_diag_count, said};
    CHECK(ns_npu_mem_attach(&m, r, &d) == 2);
    CHECK(said[NS_DIAG_WARNING] == 1);
    CHECK(!(r->cols & NS_COLBIT(NS_COL_MEM_INC)));
    ns_report_free(r);
}

/* Weights separation: the main part's lines come before "Compile Init[i]"
 * and its report after the Init parts' reports. */
static void ns__ws(void) {
    static const char *const main_rows[] = {"M1", "M2", "S"};
    static const char *const init_rows[] = {"I", "S"};
    ns_npu_mem m = {0};
    ns_diag d = {NULL, NULL};
    ns__feed(&m, "M1", 1); /* main's IE to VPU part */
    ns__feed(&m, "S", 2);
    const char *mark = "[INFO] 10:00:00.000 [vpux-compiler] Compile Init[0]";
    CHECK(ns_npu_mem_line(&m, mark, strlen(mark)) == 0);
    ns__feed(&m, "I", 4);
    ns__feed(&m, "S", 8);
    ns_report *init0 = ns__report(init_rows, 2);
    CHECK(ns_npu_mem_attach(&m, init0, &d) == 0);
    CHECK(ns__inc(init0, 0) == 4 && ns__inc(init0, 1) == 8);
    mark = "[INFO] 10:00:00.000 [vpux-compiler] Compile Init[1]";
    CHECK(ns_npu_mem_line(&m, mark, strlen(mark)) == 0);
    ns__feed(&m, "S", 16);
    ns_report *init1 = ns__report(init_rows, 2);
    CHECK(ns_npu_mem_attach(&m, init1, &d) == 0);
    CHECK(ns__inc(init1, 0) == -1 && ns__inc(init1, 1) == 16);
    mark = "[INFO] 10:00:00.000 [vpux-compiler] Compile Main";
    CHECK(ns_npu_mem_line(&m, mark, strlen(mark)) == 0);
    ns__feed(&m, "M2", 32);
    ns_report *mainr = ns__report(main_rows, 3);
    CHECK(ns_npu_mem_attach(&m, mainr, &d) == 0);
    /* M1 and S from before the Inits, M2 after them, in that order */
    CHECK(ns__inc(mainr, 0) == 1 && ns__inc(mainr, 1) == 32 && ns__inc(mainr, 2) == 2);
    CHECK(m.next.n == 0 && m.later.n == 0);
    ns_report_free(init0);
    ns_report_free(init1);
    ns_report_free(mainr);
    ns_npu_mem_reset(&m);
}

int main(void) {
    ns__lines();
    ns__rows();
    ns__ws();
    return check_summary("unit_memory");
}
