/* unit_npu_filter.c -- the NPU hook's one-pass filter loses nothing.
 *
 * The hook (npu/hook.c) hands a line to its matchers only when the line
 * holds one of the texts ns_npu_needles lists (npu.h); a matcher whose text
 * is missing from that list would silently read nothing.  So every file of
 * tests/fixtures is scanned with the hook twice, filtered and with every
 * line through the matchers (every_line), in each of the hook's modes
 * (facts; facts and an NPUW layout; detection), and the reports -- labels,
 * facts, per-pass memory, as run.json writes them -- must be the same
 * bytes.  The fixtures hold every line kind the matchers read (facts of
 * 2024 and 2025+, weights separation, the NPUW trace and subgraph names,
 * the strategy dump, the memory collector), so leaving any needle out of
 * the list fails here.  Then the needle set itself: hits at the start and
 * the end of a line, misses, lines shorter than a needle.
 *
 * Run from the repository's top folder (it reads tests/fixtures).
 * Prints "unit_npu_filter: N passed, M failed". */
#include "check.h"
#include "check_scan.h"

#include "npu/hook.h"
#include "parse/scan.h"
#include "render/tree_json.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/* ====== Reports, written down ====== */

/* The reports of data scanned with the hook in `mode` (0: facts, 1: facts
 * and an NPUW layout, 2: detection), filtered or not; *facts counts the
 * reports that got a fact. */
static char *ns__reports(const char *data, size_t len, int mode, int every_line, int *found) {
    ns_scanner sc;
    ns_scanner_init(&sc);
    ns_npu_hook npu;
    const char *layout = mode == 1 ? "generate:3,prefill:3,lm_head:1" : NULL;
    if (mode == 2) ns_npu_hook_init_detect(&npu, layout, NULL);
    else ns_npu_hook_init(&npu, layout, NULL);
    npu.every_line = every_line;
    sc.hook = &npu.ops;
    ns_buf b = {0};
    ns_buf_puts(&b, "");
    *found = ns_scan_buffer(&sc, "t.log", data, len, check_write_report, &b);
    ns_npu_hook_free(&npu);
    ns_scanner_free(&sc);
    return b.data; /* the caller frees it */
}

/* ====== Every fixture, filtered and not ====== */

static void test_fixtures(void) {
    DIR *d = check_fixtures_open();
    int files = 0, with_facts = 0;
    char path[512];
    while (check_fixtures_next(d, path, sizeof path)) {
        const char *name = path + strlen("tests/fixtures/");
        size_t len;
        char *data = check_slurp(path, &len);
        if (!data) continue;
        files++;
        for (int mode = 0; mode < 3; mode++) {
            int n1, n2;
            char *all = ns__reports(data, len, mode, 1, &n1);
            char *filtered = ns__reports(data, len, mode, 0, &n2);
            if (n1 != n2 || strcmp(all, filtered) != 0) {
                printf("FAIL %s (mode %d): the filtered hook gives other reports than every line "
                       "does: a matcher's text is missing from ns_npu_needles\n",
                       name, mode);
                failed++;
            } else {
                passed++;
            }
            if (mode == 0 && strstr(all, "\"metrics\":{\"")) with_facts++;
            free(all);
            free(filtered);
        }
        free(data);
    }
    /* the comparison means something: fixtures were read, and many of
     * them give facts the filter could have lost */
    CHECK(files > 25);
    CHECK(with_facts >= 8);
}

/* ====== The needle set ====== */

static void test_needles(void) {
    ns_needles nd;
    ns_needles_init(&nd);
    CHECK(ns_needles_add(&nd, "Compile Main") == 0);
    CHECK(ns_needles_add(&nd, "[ NPUW:") == 0);
    CHECK(ns_needles_add(&nd, "abc") == -1); /* too short to hash */
    CHECK(ns_needles_any(&nd, "Compile Main", 12) == 1);
    CHECK(ns_needles_any(&nd, "x [ NPUW:INFO ] y", 17) == 1);
    CHECK(ns_needles_any(&nd, "[INFO] Compile Main", 19) == 1); /* at the very end */
    CHECK(ns_needles_any(&nd, "[INFO] Compile Mai", 18) == 0);  /* cut by the length */
    CHECK(ns_needles_any(&nd, "Compile main", 12) == 0);
    CHECK(ns_needles_any(&nd, "Com", 3) == 0);
    CHECK(ns_needles_any(&nd, "", 0) == 0);
    /* the one-pass skip's head bytes: spread out as far as the shortest
     * needle allows (needles.h) */
    size_t b1, b2;
    ns_needles_skip_bytes(&nd, &b1, &b2);
    CHECK(nd.minlen == 7 && b1 == 4 && b2 == 6);
    CHECK(ns_needles_add(&nd, "[VCL]") == 0);
    ns_needles_skip_bytes(&nd, &b1, &b2);
    CHECK(nd.minlen == 5 && b1 == 1 && b2 == 4);
    CHECK(ns_needles_add(&nd, "KB: ") == 0);
    ns_needles_skip_bytes(&nd, &b1, &b2);
    CHECK(nd.minlen == 4 && b1 == 1 && b2 == 2);
    /* byte 6 has tables for the needles that have one, and only for them */
    CHECK(nd.lo[6][':' & 15] && nd.hi[6][':' >> 4]);
    for (int i = 4; i < NS_NEEDLES_MAX; i++) CHECK(ns_needles_add(&nd, "filler") == 0);
    CHECK(ns_needles_add(&nd, "one too many") == -1);
}

int main(void) {
    test_needles();
    test_fixtures();
    return check_summary("unit_npu_filter");
}
