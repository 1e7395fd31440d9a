/* unit_stream.c -- the pushed scan (scan.h, "Pushed streams") against the
 * scan of the same bytes as a file.
 *
 * record scans a compile's output as capture drains it, in pieces cut
 * wherever the pipe happened to cut them: inside a line, between a CR and
 * its LF, inside a banner, a report's first 4096 bytes.  What it finds must
 * be what `tree` finds in stdout.log afterwards, to the byte.  So every
 * fixture (and a few constructed inputs that put the cuts where they hurt)
 * is scanned once whole with ns_scan_buffer, and again pushed in pieces of
 * many sizes, fixed and random, with and without the NPU hook (which makes
 * the scanner look at every line instead of skipping noise); the reports,
 * written as run.json writes them, with their index, label, file, lines
 * and facts, must be the same bytes.  Then the late numbering that puts
 * stderr's reports after stdout's.  And the metric rules, which read the
 * same pieces: their one-pass anchor search (each vector loop and none)
 * must find what a look at every line finds.
 *
 * Run from the repository's top folder (it reads tests/fixtures).
 * Prints "unit_stream: N passed, M failed". */
#include "check.h"
#include "check_scan.h"

#include "capture/metrics.h"
#include "npu/hook.h"
#include "parse/scan.h"
#include "render/tree_json.h"

#include <stdlib.h>
#include <string.h>

/* ====== Reports, written down ====== */

/* The reports of data scanned whole (piece == 0) or pushed in pieces of
 * `piece` bytes (piece < 0: random sizes up to -piece, from seed). */
static char *ns__reports(const char *data, size_t len, long piece, unsigned seed, int hooked,
                         int *found) {
    ns_scanner sc;
    ns_scanner_init(&sc);
    ns_npu_hook npu;
    if (hooked) {
        ns_npu_hook_init(&npu, NULL, NULL);
        sc.hook = &npu.ops;
    }
    ns_buf b = {0};
    ns_buf_puts(&b, "");
    if (piece == 0) {
        *found = ns_scan_buffer(&sc, "t.log", data, len, check_write_report, &b);
    } else {
        ns_scan_stream *ss = ns_scan_stream_new(&sc, "t.log", check_write_report, &b);
        for (size_t at = 0; at < len;) {
            size_t n = piece > 0 ? (size_t)piece : 1 + (size_t)(rand_r(&seed) % (unsigned)-piece);
            if (n > len - at) n = len - at;
            /* each piece in a buffer of its own, so a read past it is ASan's */
            char *p = malloc(n);
            memcpy(p, data + at, n);
            ns_scan_stream_feed(ss, p, n);
            free(p);
            at += n;
        }
        *found = ns_scan_stream_end(ss);
    }
    if (hooked) ns_npu_hook_free(&npu);
    ns_scanner_free(&sc);
    return b.data; /* the caller frees it */
}

/* data pushed in every kind of piece gives what the whole scan gives */
static int ns__same_pushed(const char *what, const char *data, size_t len) {
    static const long pieces[] = {1, 2, 3, 7, 63, 64, 65, 100, 4095, 4096, 4097, 65536, -5, -300, -70000};
    int ok = 1;
    for (int hooked = 0; hooked < 2; hooked++) {
        int whole_n;
        char *whole = ns__reports(data, len, 0, 0, hooked, &whole_n);
        for (size_t k = 0; k < sizeof pieces / sizeof pieces[0]; k++) {
            int n;
            char *got = ns__reports(data, len, pieces[k], 17u + (unsigned)k, hooked, &n);
            if (n != whole_n || strcmp(got, whole) != 0) {
                printf("  %s: pieces of %ld%s: %d reports, not %d as scanned whole, or other bytes\n",
                       what, pieces[k], hooked ? " (hooked)" : "", n, whole_n);
                ok = 0;
            }
            free(got);
        }
        free(whole);
    }
    return ok;
}

/* ====== Fixtures ====== */

static void test_fixtures(void) {
    static const char *const names[] = {
        "mlir22-tree-mt.txt",         "mlir22-tree-st.txt",        "mlir14-tree-mt.txt",
        "mlir22-json-tree.txt",       "mlir22-json-list.txt",      "opt22-time-passes.txt",
        "flang22-ftime-report.txt",   "clang22-ftime-report.txt",  "constructed-npu-2025.log",
        "constructed-vpux-prefix.log", "constructed-ansi-crlf.log", "constructed-npuw-7.log",
        "noisy-build.log",            "clang22-ftime-trace.json",  "mlir22-error-pass.txt",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "tests/fixtures/%s", names[i]);
        size_t len;
        char *data = check_slurp(path, &len);
        CHECK(data != NULL);
        if (!data) {
            printf("  cannot read %s (run from the repository's top folder)\n", path);
            continue;
        }
        int n;
        char *whole = ns__reports(data, len, 0, 0, 0, &n);
        /* the comparison means something: each fixture has reports (a trace too) */
        CHECK(n > 0);
        free(whole);
        CHECK(ns__same_pushed(names[i], data, len));
        free(data);
    }
}

/* ====== Cuts where they hurt ====== */

static void test_constructed(void) {
    size_t len;
    char *rep = check_slurp("tests/fixtures/mlir22-tree-st.txt", &len);
    CHECK(rep != NULL);
    if (!rep) return;
    /* CRLF line ends, a report behind a log prefix, noise lines of every
     * length around 64 (the skip works 64 bytes at a time), a line longer
     * than the pieces, no newline at the end */
    ns_buf b = {0};
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 200; i++) {
            ns_buf_printf(&b, "[INFO] 12:00:%02d.000 [vpux-compiler] noise %*s", i % 60, i % 130, "");
            ns_buf_puts(&b, i % 3 ? "x\n" : "x\r\n");
        }
        for (int i = 0; i < 70000; i++) ns_buf_putc(&b, 'a' + i % 26);
        ns_buf_puts(&b, "\r\n");
        for (const char *p = rep; *p; p++) {
            if (*p == '\n') ns_buf_puts(&b, k == 1 ? "\r\n" : "\n");
            else ns_buf_putc(&b, *p);
        }
        if (k == 2) { /* the same report behind a logger prefix */
            const char *pre = "[INFO] 12:00:01.000 [vpux-compiler] ";
            ns_buf_puts(&b, pre);
            for (const char *p = rep; *p; p++) {
                ns_buf_putc(&b, *p);
                if (*p == '\n' && p[1]) ns_buf_puts(&b, pre);
            }
        }
    }
    ns_buf_puts(&b, "trailing line without a newline ===");
    int n;
    char *whole = ns__reports(b.data, b.len, 0, 0, 0, &n);
    CHECK(n == 4);
    free(whole);
    CHECK(ns__same_pushed("constructed", b.data, b.len));
    /* a report cut short by the end of the input, in the middle of a row */
    size_t cut = b.len - 40 - strlen(rep) / 2;
    CHECK(ns__same_pushed("cut short", b.data, cut));
    /* an empty input, and one of blank lines */
    CHECK(ns__same_pushed("empty", "", 0));
    CHECK(ns__same_pushed("blank lines", "\n\n\r\n\n", 5));
    ns_buf_free(&b);
    free(rep);
}

/* ====== Late numbers ====== */

static int ns__keep(ns_report *r, void *ctx) {
    ns_report **slot = ctx;
    while (*slot) slot++;
    *slot = r;
    return 0;
}

static void test_number_late(void) {
    size_t len;
    char *rep = check_slurp("tests/fixtures/mlir22-tree-st.txt", &len);
    CHECK(rep != NULL);
    if (!rep) return;
    ns_scanner sc;
    ns_scanner_init(&sc);
    sc.number_late = 1;
    ns_report *got[4] = {0};
    ns_scan_stream *ss = ns_scan_stream_new(&sc, "stderr.log", ns__keep, got);
    ns_scan_stream_feed(ss, rep, len);
    ns_scan_stream_feed(ss, rep, len);
    CHECK(ns_scan_stream_end(ss) == 2);
    /* no label until its place is known */
    CHECK(got[0] && got[1] && !got[0]->label && !got[1]->label && got[1]->index == 1);
    if (got[0] && got[1]) {
        ns_scan_number_late(got[0], 3);
        ns_scan_number_late(got[1], 3);
        CHECK(got[0]->index == 3 && !strcmp(got[0]->label, "#4"));
        CHECK(got[1]->index == 4 && !strcmp(got[1]->label, "#5"));
        CHECK(!strcmp(got[1]->file, "stderr.log"));
    }
    for (int i = 0; i < 4; i++)
        if (got[i]) ns_report_free(got[i]);
    ns_scanner_free(&sc);
    free(rep);
}

/* ====== Metrics in pieces ====== */

/* The metrics of out fed in pieces of `piece` bytes (1: every line is a
 * cut line, looked at whole by strstr; big: the anchor search), as
 * "name=value/count;..." */
static char *ns__metrics(const char *out, size_t len, size_t piece) {
    ns_metric_set m;
    ns_metrics_init(&m);
    ns_metric_stream st;
    ns_metrics_stream_init(&st, &m);
    for (size_t at = 0; at < len; at += piece)
        ns_metrics_feed(&st, out + at, len - at < piece ? len - at : piece);
    ns_metrics_stream_end(&st, &m);
    ns_run r;
    memset(&r, 0, sizeof r);
    ns_metrics_to_run(&m, &r);
    ns_buf b = {0};
    ns_buf_puts(&b, "");
    for (int i = 0; i < r.nmetrics; i++)
        ns_buf_printf(&b, "%s=%.17g/%ld;", r.metrics[i].name, r.metrics[i].value, r.metrics[i].count);
    ns_run_free(&r);
    ns_metrics_free(&m);
    return b.data;
}

static void test_metrics_anchored(void) {
    /* metric lines at every offset from a 32-byte block's start, twice in a
     * line, a text cut by a newline, near misses (first and last byte of an
     * anchor right, the middle wrong) */
    ns_buf b = {0};
    for (int i = 0; i < 3000; i++) {
        ns_buf_printf(&b, "%*s", i % 41, "");
        switch (i % 7) {
        case 0: ns_buf_printf(&b, "Compile net time: %d ms\n", i); break;
        case 1: ns_buf_printf(&b, "Compilation memory usage: Peak %d KB Compile net time: 1 ms\n", i * 3 % 1000); break;
        case 2: ns_buf_puts(&b, "Compile  et time: 5 ms Cxmpile net time: 5 ms Compile net\ntime: 7 ms\n"); break;
        case 3: ns_buf_printf(&b, "%d.5 tokens per second\n", i); break;
        case 4: ns_buf_printf(&b, "Throughput: %d.25 tokens/s\n", i); break;
        case 5: ns_buf_printf(&b, "Compile model took %d ms\n", i); break;
        default: ns_buf_puts(&b, "[INFO] 12:00:00.000 [vpux-compiler] nothing to see here\n"); break;
        }
    }
    char *lines = ns__metrics(b.data, b.len, 1);
    /* the comparison means something: the rules of four texts found theirs
     * (the memory rule's name is left out: the NPU layer names it) */
    int nfound = 0;
    for (const char *q = lines; (q = strchr(q, ';')); q++) nfound++;
    CHECK(strstr(lines, "compile_net_ms=") && strstr(lines, "tokens_per_s=") &&
          strstr(lines, "compile_model_ms=") && nfound >= 4);
    for (int simd = NS_SIMD_NONE; simd <= NS_SIMD_AVX2; simd++) {
        int used = ns_metrics_simd(simd);
        char *whole = ns__metrics(b.data, b.len, b.len);
        char *big = ns__metrics(b.data, b.len, 65536);
        if (strcmp(whole, lines) || strcmp(big, lines))
            printf("  metrics, vector loop %d: %s\n  not %s\n", used, whole, lines);
        CHECK(!strcmp(whole, lines) && !strcmp(big, lines));
        free(whole);
        free(big);
    }
    ns_metrics_simd(-1);
    free(lines);
    ns_buf_free(&b);
}

int main(void) {
    test_metrics_anchored();
    test_fixtures();
    test_constructed();
    test_number_late();
    return check_summary("unit_stream");
}
