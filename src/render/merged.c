/* merged.c -- a merged tree as text and as tree JSON (see merged.h).
 *
 * The writers below do the work: text.c prints the tree of medians and
 * tree_json.c the report object, in its two halves, with the runs merged
 * put between them and every row's spread added through the row callback.
 * This file only reads the merge's side table (analyse/merge.h); it never
 * changes a merged report and computes no statistic.
 */
#include "render/merged.h"

#include "base/jsonw.h"
#include "render/tree_json.h"

/* ====== Text ====== */

void ns_merged_text(ns_buf *b, const ns_merged *m, const ns_text_opts *o) {
    ns_render_tree_text(b, m->report, o, NULL, NULL);
    /* the renderer ends a report with an empty line: the summary goes before it */
    if (b->len && b->data[b->len - 1] == '\n') b->data[--b->len] = 0;
    ns_buf_printf(b, "  merged %d run%s; medians shown; %ld row%s with outliers\n\n", m->nruns,
                  m->nruns == 1 ? "" : "s", m->outlier_rows, m->outlier_rows == 1 ? "" : "s");
}

/* ====== JSON ====== */

/* A merged row's spread over the runs, added to its JSON object (an
 * ns_tree_json_row_fn; ctx is the ns_merged). */
static void ns__mjson_stat(ns_buf *b, const ns_node *n, const void *ctx) {
    const ns_merge_stat *st = ns_merge_stat_of(ctx, n);
    if (!st) return;
    ns_buf_printf(b, ",\"n\":%d,\"min_s\":", st->n);
    ns_num_put_json(b, st->min);
    ns_buf_puts(b, ",\"max_s\":");
    ns_num_put_json(b, st->max);
    ns_buf_printf(b, ",\"outliers\":%d", st->outliers);
}

void ns_merged_json_begin(ns_buf *b) { ns_tree_json_begin(b, 1); }

void ns_merged_json_end(ns_buf *b) { ns_tree_json_end(b); }

/* The tree JSON of the merged report (tree_json.c writes what every tree
 * report has), with the names of the runs merged between its two halves. */
void ns_merged_json(ns_buf *b, const ns_merged *m, const ns_view *v, int first) {
    ns_buf_puts(b, first ? "\n" : ",\n");
    ns_tree_json_head(b, m->report);
    ns_buf_puts(b, ",\"runs\":[");
    for (int i = 0; i < m->nruns; i++) {
        if (i) ns_buf_putc(b, ',');
        ns_json_str(b, m->runs[i]);
    }
    ns_buf_printf(b, "],\"rows_with_outliers\":%ld", m->outlier_rows);
    ns_tree_json_rows(b, m->report, v, ns__mjson_stat, m);
}
