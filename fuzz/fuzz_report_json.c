/* fuzz_report_json.c -- libFuzzer target: tree JSON read back into reports
 * (ns_report_from_json_new), the path run.json's "reports" take in `table`,
 * `tree RUNDIR` and `top RUNDIR`.
 *
 * The input is parsed by jansson as run.json is (flags 0).  Then:
 *   - an object with a "reports" array (a `tree --format json` document or
 *     a run.json): every element is a report candidate;
 *   - an array: every element is one;
 *   - anything else: the value itself is one.
 * Each report that comes back is rendered through every exporter into a
 * memory stream -- a report read back must be as safe to print as one
 * parsed from a log -- added to a `top` summary, and freed.  A NULL result
 * must come with a reason.
 */
#include "render/export.h"
#include "parse/tree_read.h"
#include "analyse/top.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const ns_format nsf_fmts[] = {NS_FMT_TEXT,   NS_FMT_JSON,       NS_FMT_CSV,
                                     NS_FMT_FOLDED, NS_FMT_CHROME,     NS_FMT_SPEEDSCOPE,
                                     NS_FMT_ORIGINAL};
#define NSF_NEXP (sizeof nsf_fmts / sizeof nsf_fmts[0])

static void nsf_one(const json_t *o, ns_exporter **ex, ns_top *top) {
    const char *why = NULL;
    ns_report *r = ns_report_from_json_new(o, "fuzz.json", &why);
    if (!r) {
        if (!why) abort(); /* NULL always comes with a reason */
        return;
    }
    if (!r->root) abort();
    for (size_t i = 0; i < NSF_NEXP; i++) ns_exporter_add(ex[i], r);
    ns_top_add(top, r);
    ns_report_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    json_error_t err;
    json_t *doc = json_loadb((const char *)data, size, 0, &err);
    if (!doc) return 0;

    char *out = NULL;
    size_t outlen = 0;
    FILE *f = open_memstream(&out, &outlen);
    if (!f) abort();
    ns_exporter *ex[NSF_NEXP];
    for (size_t i = 0; i < NSF_NEXP; i++) {
        ns_export_opts o;
        memset(&o, 0, sizeof o);
        o.format = nsf_fmts[i];
        ns_view_init(&o.view);
        ex[i] = ns_exporter_new(&o, f);
    }
    ns_top top;
    ns_top_init(&top, (int)(size & 1));

    const json_t *reports = json_is_object(doc) ? json_object_get(doc, "reports") : NULL;
    const json_t *list = json_is_array(reports) ? reports : json_is_array(doc) ? doc : NULL;
    if (list) {
        for (size_t i = 0; i < json_array_size(list); i++)
            nsf_one(json_array_get(list, i), ex, &top);
    } else {
        nsf_one(doc, ex, &top);
    }

    for (size_t i = 0; i < NSF_NEXP; i++) ns_exporter_end(ex[i]);
    free(ns_top_order_new(&top));
    ns_top_free(&top);
    fclose(f);
    free(out);
    json_decref(doc);
    return 0;
}
