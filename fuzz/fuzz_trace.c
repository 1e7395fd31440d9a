/* fuzz_trace.c -- libFuzzer target: a Chrome trace document (clang
 * -ftime-trace) through ns_trace_report_new, the parser the scanner hands whole
 * JSON documents to.
 *
 * The input is the document (jansson parses it, trace.c turns its events
 * into a tree by containment).  Its warnings go to a counting sink (the
 * parser prints nothing), and a document it refuses must say why.  A report that comes out is rendered
 * through the exporters that treat traces specially (original, json, text,
 * chrome, folded) into a memory stream and freed.  Like the scanner
 * (scan.c, ns__number), the target gives the report its label first: the
 * exporters expect every report to have one.
 */
#include "parse/parse.h"
#include "render/export.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    long said[2] = {0, 0};
    ns_diag count = {ns_diag_count, said};
    ns_why why = {"", 0};
    ns_report *r = ns_trace_report_new((const char *)data, size, "fuzz.json", &count, &why);
    if (!r) {
        if (!why.text[0]) abort(); /* a refusal always has a reason */
        return 0;
    }
    if (!r->root || r->producer != NS_PROD_TRACE) abort();
    if (!r->label) r->label = ns_strdup("#1"); /* what the scanner does */

    char *out = NULL;
    size_t outlen = 0;
    FILE *f = open_memstream(&out, &outlen);
    if (!f) abort();
    static const ns_format fmts[] = {NS_FMT_ORIGINAL, NS_FMT_JSON, NS_FMT_TEXT,
                                     NS_FMT_CHROME, NS_FMT_FOLDED};
    for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
        ns_export_opts o;
        memset(&o, 0, sizeof o);
        o.format = fmts[i];
        ns_view_init(&o.view);
        o.diag = count;
        ns_exporter *e = ns_exporter_new(&o, f);
        ns_exporter_add(e, r);
        ns_exporter_end(e);
    }
    fclose(f);
    free(out);
    ns_report_free(r);
    return 0;
}
