/* fuzz_stages.c -- libFuzzer target: a stage map (the rules file of
 * `--stages FILE`, docs/stages.md) parsed and applied to real reports.
 *
 * The input is the rules text.  ns_stage_map_parse_new either refuses it,
 * and must then say why, one "fuzz.stages:LINE: message" line per problem,
 * or returns a map, which is then applied to every report of a few fixtures
 * read once per process (tests/fixtures, relative to the working folder
 * `make fuzz` runs in; NSF_FIXTURES=DIR overrides): an NPU compiler tree of
 * 2025, the 2024 shape behind a logger prefix, MLIR tree and list displays
 * and LLVM timer groups.  Checked, besides the sanitizers:
 *   - a refusal has a message, every line of it naming the file;
 *   - a map has stages, each found again by its name, and a default that is
 *     one of them;
 *   - every row gets a stage index in range (or -1 for the root and Rest);
 *   - the accounting rule of stages.h: the stages' self times plus Rest add
 *     up to the report's Total, whatever the rules say (rules only move time
 *     between stages, never create or lose it), up to the rounding of the
 *     printed times;
 *   - a pattern without '*', '?' or '\' matches exactly the equal name.
 * The first line of the input is also used as a glob pattern against every
 * row name, which gives ns_stage_glob hostile patterns and names.
 */
#include "parse/parse.h"
#include "parse/scan.h"
#include "model/stages.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A breach of the contract: say which, then crash for libFuzzer. */
#define NSF_REQUIRE(cond)                                                         \
    do {                                                                          \
        if (!(cond)) {                                                            \
            fprintf(stderr, "fuzz_stages: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                              \
        }                                                                         \
    } while (0)

/* ====== The reports every map is applied to ====== */
static const char *const nsf_fixtures[] = {
    "constructed-npu-2025.log", "constructed-vpux-prefix.log", "mlir22-tree-mt.txt",
    "mlir22-list-mt.txt",       "opt22-time-passes.txt",
};

#define NSF_MAX_REPORTS 32

static ns_report *nsf_reports[NSF_MAX_REPORTS];
static int nsf_nreports;

static int nsf_keep(ns_report *r, void *ctx) {
    (void)ctx;
    if (nsf_nreports < NSF_MAX_REPORTS) nsf_reports[nsf_nreports++] = r;
    else ns_report_free(r);
    return 0;
}

static void nsf_load(void) {
    const char *dir = getenv("NSF_FIXTURES");
    if (!dir) dir = "tests/fixtures";
    ns_scanner sc;
    ns_scanner_init(&sc);
    for (size_t i = 0; i < sizeof nsf_fixtures / sizeof nsf_fixtures[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, nsf_fixtures[i]);
        FILE *f = fopen(path, "rb");
        if (!f) {
            fprintf(stderr, "fuzz_stages: cannot open %s (run from the repository, or set NSF_FIXTURES)\n",
                    path);
            abort();
        }
        ns_buf b = {0};
        char chunk[65536];
        size_t n;
        while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) ns_buf_add(&b, chunk, n);
        fclose(f);
        sc.next_index = 0;
        if (ns_scan_buffer(&sc, path, b.data ? b.data : "", b.len, nsf_keep, NULL) <= 0) {
            fprintf(stderr, "fuzz_stages: no report in %s\n", path);
            abort();
        }
        free(b.data);
    }
}

/* ====== Checks ====== */
static long nsf_rows(const ns_report *r) {
    long n = 0;
    for (ns_node *x = r->root; x; x = ns_node_next(x, r->root)) n++;
    return n;
}

static int nsf_plain(const char *pattern) {
    return strpbrk(pattern, "*?\\") == NULL;
}

static void nsf_apply(const ns_stage_map *m, const ns_report *r, const char *glob) {
    int nst = ns_stage_count(m);
    long n = -1;
    ns_stage_of *of = ns_stage_assign_new(m, r, &n);
    NSF_REQUIRE(n == nsf_rows(r));
    for (long i = 0; i < n; i++)
        NSF_REQUIRE(of[i].stage >= -1 && of[i].stage < nst);

    double *self = calloc((size_t)nst, sizeof *self);
    if (!self) abort();
    ns_stage_sums ss = {self, 0, 0};
    ns_stage_sum(m, r, of, &ss);
    if (isfinite(ss.total) && r->root->child && r->complete) {
        /* Reports print times rounded to 0.1 ms, and Rest is computed by
         * the compiler from unrounded times: each counted row and Rest may
         * be off by half a unit of the last digit. */
        double sum = ss.rest, slack = 1e-9 * fabs(ss.total) + 0.5e-4;
        for (int j = 0; j < nst; j++) sum += self[j];
        for (ns_node *x = r->root->child; x; x = ns_node_next(x, r->root))
            if (ns_stage_counted(r, x)) slack += 0.5e-4;
        NSF_REQUIRE(fabs(sum - ss.total) <= slack);
    }
    free(self);
    free(of);

    if (glob)
        for (ns_node *x = r->root->child; x; x = ns_node_next(x, r->root)) {
            int hit = ns_stage_glob(glob, x->name);
            NSF_REQUIRE(!nsf_plain(glob) || hit == (strcmp(glob, x->name) == 0));
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int loaded;
    if (!loaded) {
        nsf_load();
        loaded = 1;
    }
    char *text = ns_strndup((const char *)data, size); /* stops at a NUL */
    size_t len = strlen(text);
    const char *nl = memchr(text, '\n', len);
    char *glob = ns_strndup(text, nl ? (size_t)(nl - text) : len);

    ns_buf errs = {0};
    ns_stage_map *m = ns_stage_map_parse_new("fuzz.stages", text, len, &errs);
    if (!m) {
        /* refused: at least one message, every line naming the file */
        NSF_REQUIRE(errs.len > 0 && errs.data[errs.len - 1] == '\n');
        for (const char *p = errs.data; p < errs.data + errs.len;) {
            NSF_REQUIRE(strncmp(p, "fuzz.stages", 11) == 0);
            const char *e = memchr(p, '\n', (size_t)(errs.data + errs.len - p));
            p = e + 1;
        }
    } else {
        int nst = ns_stage_count(m);
        NSF_REQUIRE(nst >= 1);
        for (int i = 0; i < nst; i++)
            NSF_REQUIRE(ns_stage_find(m, ns_stage_name(m, i)) == i && ns_stage_desc(m, i));
        int d = ns_stage_default(m);
        NSF_REQUIRE(d >= -1 && d < nst);
        ns_buf sum = {0};
        ns_stage_map_summary(&sum, m);
        free(sum.data);
        for (int k = 0; k < nsf_nreports; k++) nsf_apply(m, nsf_reports[k], glob);
        ns_stage_map_free(m);
    }
    free(errs.data);
    free(glob);
    free(text);
    return 0;
}
