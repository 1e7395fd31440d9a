/* check_scan.h -- the sink of the unit programs that hold one way of
 * scanning to another (whole buffer, file, pushed pieces; with and without
 * a filter or a skip): each report written down as run.json writes it, with
 * what the JSON leaves out in front (its number, label, file and lines),
 * then freed.  Two scans found the same reports when their buffers are
 * the same bytes.  Header-only, like check.h; ctx is an ns_buf.
 */
#ifndef NPUSCOPE_CHECK_SCAN_H
#define NPUSCOPE_CHECK_SCAN_H

#include "base/common.h"
#include "model/report.h"
#include "model/view.h"
#include "render/tree_json.h"

static inline int check_write_report(ns_report *r, void *ctx) {
    ns_buf *b = ctx;
    ns_view v;
    ns_view_init(&v);
    ns_buf_printf(b, "[%d %s %s %ld-%ld] ", r->index, r->label ? r->label : "(none)", r->file,
                  r->line, r->end_line);
    ns_json_report(b, r, &v);
    ns_buf_putc(b, '\n');
    ns_report_free(r);
    return 0;
}

#endif
