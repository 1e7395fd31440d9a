/* fuzz_scan.c -- libFuzzer target: the whole scanner over one buffer.
 *
 * The input is a log as `npuscope tree` would read it from a file: the
 * scanner (scan.c) cleans its lines (CR, ANSI colour, log prefixes), finds
 * the reports in it (MLIR text tree and list, MLIR JSON, LLVM timer groups,
 * a Chrome trace when the buffer starts like one) and hands each finished
 * report to the sink below.  The sink renders it through every exporter
 * (text, json, csv, folded, chrome, speedscope, original, and text once more
 * with a narrowed view and colour), adds it to a `top` summary, and frees it -- the
 * streaming life of a report in `tree` and `top`.  Output goes to a memory
 * stream that is thrown away.
 *
 * The scanner's options are chosen by the input's length, so one corpus
 * reaches every mode (length % 4):
 *   0  plain (the fast path that skips noise lines);
 *   1  --label-regex '(compiling|model) ([a-z_0-9]+)';
 *   2  --npu (the NPU hook, npu/hook.c: compile facts become report
 *      metrics);
 *   3  --npuw=LAYOUT (the NPU hook with a layout), where LAYOUT is the rest of the first line when the
 *      input starts with "npuw=" (checked as the command line checks it,
 *      else the default layout) -- the line stays part of the log.
 * Deterministic: the only state kept between inputs is the compiled regex
 * and the count of what the scanner said (its sink counts; nothing is
 * printed, so the target runs with stderr open).
 */
#include "npu/hook.h"
#include "npu/npu.h"
#include "render/export.h"
#include "parse/scan.h"
#include "analyse/top.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The exporters one report goes through. */
#define NSF_NEXP 8

typedef struct {
    ns_exporter *ex[NSF_NEXP];
    ns_top top;
    long reports;
} nsf_ctx;

static void nsf_opts(ns_export_opts *o, int i) {
    static const ns_format fmts[NSF_NEXP] = {
        NS_FMT_TEXT,   NS_FMT_JSON,       NS_FMT_CSV,      NS_FMT_FOLDED,
        NS_FMT_CHROME, NS_FMT_SPEEDSCOPE, NS_FMT_ORIGINAL, NS_FMT_TEXT};
    memset(o, 0, sizeof *o);
    o->format = fmts[i];
    ns_view_init(&o->view);
    if (i == 7) { /* a narrowed view: --depth 1 --min-ms 0.5 --time user --color always */
        o->view.max_depth = 1;
        o->view.min_s = 0.0005;
        o->view.col = NS_COL_USER;
        o->color = 1;
    }
}

static int nsf_sink(ns_report *r, void *vctx) {
    nsf_ctx *c = vctx;
    c->reports++;
    for (int i = 0; i < NSF_NEXP; i++) ns_exporter_add(c->ex[i], r);
    ns_top_add(&c->top, r);
    ns_report_free(r);
    return 0;
}

static ns_scanner nsf_sc[4];
static long nsf_said[2];    /* what the scanners said (a counting sink: nothing prints) */
static ns_npu_hook nsf_npu; /* modes 2 and 3: the NPU layer's scanner hook */

/* --npuw layout for mode 3: "npuw=LAYOUT\n..." or the default. */
static char *nsf_layout_new(const uint8_t *data, size_t size) {
    if (size < 5 || memcmp(data, "npuw=", 5) != 0) return NULL;
    const uint8_t *nl = memchr(data, '\n', size);
    size_t n = (nl ? (size_t)(nl - data) : size) - 5;
    char *layout = ns_strndup((const char *)data + 5, n);
    char tmp[128];
    if (strlen(layout) != n || ns_npuw_label(layout, 0, tmp, sizeof tmp) == -2) {
        free(layout); /* the command line would refuse it */
        return NULL;
    }
    return layout;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int inited;
    if (!inited) {
        for (int i = 0; i < 4; i++) {
            ns_scanner_init(&nsf_sc[i]);
            nsf_sc[i].diag = (ns_diag){ns_diag_count, nsf_said};
        }
        if (ns_scanner_set_label_regex(&nsf_sc[1], "(compiling|model) ([a-z_0-9]+)") != 0)
            abort();
        inited = 1;
    }
    ns_scanner *sc = &nsf_sc[size % 4];
    char *layout = NULL;
    if (size % 4 == 3) layout = nsf_layout_new(data, size);
    sc->hook = NULL;
    if (size % 4 >= 2) { /* --npu, or --npuw=LAYOUT */
        ns_npu_hook_init(&nsf_npu, size % 4 == 2 ? NULL : layout ? layout : NS_NPUW_DEFAULT_LAYOUT,
                         &sc->diag);
        sc->hook = &nsf_npu.ops;
    }
    sc->next_index = 0;
    sc->stopped = 0;
    sc->bytes = 0;
    sc->lines = 0;

    char *out = NULL;
    size_t outlen = 0;
    FILE *f = open_memstream(&out, &outlen);
    if (!f) abort();
    nsf_ctx c;
    memset(&c, 0, sizeof c);
    for (int i = 0; i < NSF_NEXP; i++) {
        ns_export_opts o;
        nsf_opts(&o, i);
        c.ex[i] = ns_exporter_new(&o, f);
    }
    ns_top_init(&c.top, (int)(size & 4) >> 2);

    int found = ns_scan_buffer(sc, "fuzz.log", (const char *)data, size, nsf_sink, &c);
    if (found >= 0 && found != c.reports) abort(); /* every report reaches the sink */

    for (int i = 0; i < NSF_NEXP; i++) ns_exporter_end(c.ex[i]);
    free(ns_top_order_new(&c.top));
    ns_top_free(&c.top);
    fclose(f);
    free(out);
    if (sc->hook) ns_npu_hook_free(&nsf_npu); /* no layout left dangling */
    sc->hook = NULL;
    free(layout);
    return 0;
}
