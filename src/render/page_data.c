/* page_data.c -- the explorer's data block: what the page's script needs to
 * show the embedded trees and pick configurations, as one compact JSON
 * document (the format is in docs/formats.md, "The report page's data").
 *
 * Why compact, and how.  A sweep's page embeds the trees of up to three
 * runs per configuration and mode; a 6,000-run sweep has 600
 * configurations, and the tree JSON of their runs (one object per row,
 * every key spelled out) made an 8 MB page that took over a second to parse
 * and flatten before the first click.  Nearly all of it was repetition:
 * every run of a sweep prints the same passes in the same order, and every
 * row spelled "name", "kind", "wall_s", "user_s", "children".  So:
 *
 *   - a string table (`strings`) holds each name, label, producer and file
 *     once; everything else refers to it by index;
 *   - a tree's shape -- its rows' names, depths, kinds and details in
 *     pre-order -- is stored once in `shapes` and shared by every report
 *     that has the same one (a sweep has a handful);
 *   - a report is its shape's index and one array per column of values,
 *     each an integer count of 10^-dec (the column's most decimals in the
 *     report): "0.0123" costs "123".  Dividing that integer by 10^dec in
 *     the browser gives the very double the printed number parses to (IEEE
 *     division is correctly rounded), so nothing is rounded.  A column whose
 *     values cannot all be scaled exactly (more than 15 digits, a printed
 *     nan) is written as printed, with dec -1;
 *   - reports and configurations are columns too: arrays, not objects, so
 *     no key is repeated per report or per run.
 *
 * What is left out, on purpose: the runs other than the median, fastest and
 * slowest of each configuration and mode (the last two too when they would
 * take the page past NS_PAGE_FULL_NODES rows; their numbers are in the runs
 * table and the figures; `npuscope tree RUN` prints any one), the reports'
 * compiler facts and titles, per-row percentages as printed, input line
 * numbers of rows, and the file of a run's reports (always the run's
 * stdout.log; the run's id is there).  The script builds rows from these arrays only when a
 * report is opened.
 *
 * This file must not compute a statistic, read a file or print; it writes
 * what the model (analyse/page.h, ns_page_shown) chose to embed.
 */
#include "render/page_int.h"

#include "base/jsonw.h"
#include "base/strmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== Helpers ====== */

/* The index of s in the string table (NULL: -1). */
static long ns__str(ns_strmap *strs, const char *s) {
    if (!s) return -1;
    return (long)ns_strmap_intern(strs, s, NULL);
}

/* Column c of report r as integers of 10^-dec: the dec, or -1 when some
 * value cannot be scaled exactly (then the values go as printed), or -2
 * when no row has the column. */
static int ns__col_dec(const ns_report *r, ns_col c) {
    int dec = -2, raw = 0;
    for (const ns_node *n = r->root; n; n = ns_node_next((ns_node *)n, r->root)) {
        ns_num v = n->val[c];
        if (v.dec == NS_DEC_ABSENT) continue;
        if (dec < 0) dec = 0;
        if (v.dec == NS_DEC_WORD || v.inexact || v.dec > 15) raw = 1;
        else if (v.dec > dec) dec = v.dec;
    }
    if (dec < 0) return -2;
    if (raw) return -1;
    double scale = pow(10, dec);
    for (const ns_node *n = r->root; n; n = ns_node_next((ns_node *)n, r->root)) {
        ns_num v = n->val[c];
        if (ns_num_present(v) && !(fabs(v.v) * scale < 9e15)) return -1;
    }
    return dec;
}

/* "[dec,v,v,...]": every row's value of column c, pre-order. */
static void ns__col_values(ns_buf *b, const ns_report *r, ns_col c, int dec) {
    double scale = pow(10, dec < 0 ? 0 : dec);
    ns_buf_printf(b, "[%d", dec);
    for (const ns_node *n = r->root; n; n = ns_node_next((ns_node *)n, r->root)) {
        ns_num v = n->val[c];
        ns_buf_putc(b, ',');
        if (!ns_num_present(v) || v.dec == NS_DEC_WORD) ns_buf_puts(b, "null");
        else if (dec < 0) ns_num_put_json(b, v);
        else ns_buf_printf(b, "%lld", (long long)llround(v.v * scale));
    }
    ns_buf_putc(b, ']');
}

/* ====== Shapes ====== */

/* The shape of r as its JSON object text, into t (names interned). */
static void ns__shape(ns_buf *t, const ns_report *r, ns_strmap *strs) {
    int details = 0;
    ns_buf_puts(t, "{\"name\":[");
    for (const ns_node *n = r->root; n; n = ns_node_next((ns_node *)n, r->root)) {
        ns_buf_printf(t, "%s%ld", n == r->root ? "" : ",", ns__str(strs, n->name));
        details |= n->detail != NULL;
    }
    ns_buf_puts(t, "],\"depth\":[");
    for (const ns_node *n = r->root; n; n = ns_node_next((ns_node *)n, r->root))
        ns_buf_printf(t, "%s%d", n == r->root ? "" : ",", n->depth + 1);
    ns_buf_puts(t, "],\"kind\":[");
    for (const ns_node *n = r->root; n; n = ns_node_next((ns_node *)n, r->root))
        ns_buf_printf(t, "%s%d", n == r->root ? "" : ",", (int)n->kind);
    ns_buf_putc(t, ']');
    if (details) {
        ns_buf_puts(t, ",\"detail\":[");
        for (const ns_node *n = r->root; n; n = ns_node_next((ns_node *)n, r->root))
            ns_buf_printf(t, "%s%ld", n == r->root ? "" : ",", ns__str(strs, n->detail));
        ns_buf_putc(t, ']');
    }
    ns_buf_putc(t, '}');
}

/* ====== Configurations ====== */

/* "configs" and "runs": the table's rows as columns, and the runs the
 * explorer can open. */
static void ns__configs(ns_buf *b, const ns_page_model *m, ns_strmap *strs) {
    const ns_table *tb = &m->table;
    const ns_page_shown *sh = &m->shown;
    ns_buf_puts(b, ",\n\"tags\":[");
    for (int k = 0; k < tb->nkeys; k++) {
        if (k) ns_buf_putc(b, ',');
        ns_json_str(b, tb->keys[k]);
    }
    ns_buf_puts(b, "],\n\"configs\":{\"tag\":[");
    for (int k = 0; k < tb->nkeys; k++) {
        ns_buf_puts(b, k ? ",[" : "[");
        for (int g = 0; g < tb->nrows; g++)
            ns_buf_printf(b, "%s%ld", g ? "," : "", ns__str(strs, ns_table_tag(&tb->rows[g], tb->keys[k])));
        ns_buf_putc(b, ']');
    }
    ns_buf_puts(b, "],\"mode\":[");
    for (int g = 0; g < tb->nrows; g++)
        ns_buf_printf(b, "%s%ld", g ? "," : "", ns__str(strs, tb->rows[g].cfg.mode));
    ns_buf_puts(b, "],\"n\":[");
    for (int g = 0; g < tb->nrows; g++) ns_buf_printf(b, "%s%d", g ? "," : "", tb->rows[g].n);
    ns_buf_puts(b, "],\"median_s\":[");
    for (int g = 0; g < tb->nrows; g++) {
        if (g) ns_buf_putc(b, ',');
        ns_put_json_double(b, tb->rows[g].median, 4);
    }
    ns_buf_puts(b, "]},\n\"runs\":{\"config\":[");
    for (int i = 0; i < sh->nruns; i++) ns_buf_printf(b, "%s%d", i ? "," : "", sh->runs[i].row);
    ns_buf_puts(b, "],\"id\":[");
    for (int i = 0; i < sh->nruns; i++)
        ns_buf_printf(b, "%s%ld", i ? "," : "", ns__str(strs, m->in->set->runs[sh->runs[i].run].id));
    ns_buf_puts(b, "],\"repeat\":[");
    for (int i = 0; i < sh->nruns; i++)
        ns_buf_printf(b, "%s%d", i ? "," : "", m->in->set->runs[sh->runs[i].run].repeat);
    ns_buf_puts(b, "],\"wall_s\":[");
    for (int i = 0; i < sh->nruns; i++) {
        if (i) ns_buf_putc(b, ',');
        ns_put_json_double(b, m->in->set->runs[sh->runs[i].run].wall_s, 4);
    }
    ns_buf_puts(b, "],\"roles\":[");
    for (int i = 0; i < sh->nruns; i++) ns_buf_printf(b, "%s%d", i ? "," : "", sh->runs[i].roles);
    ns_buf_puts(b, "],\"first\":[");
    for (int i = 0; i < sh->nruns; i++) ns_buf_printf(b, "%s%d", i ? "," : "", sh->runs[i].first);
    ns_buf_puts(b, "],\"count\":[");
    for (int i = 0; i < sh->nruns; i++) ns_buf_printf(b, "%s%d", i ? "," : "", sh->runs[i].nreps);
    ns_buf_puts(b, "]}");
}

/* ====== The block ====== */

void ns__render_page_data(ns_page *p, const ns_page_model *m) {
    const ns_page_shown *sh = &m->shown;
    ns_buf *b = &p->data;
    ns_strmap strs, shapes;
    ns_strmap_init(&strs);
    ns_strmap_init(&shapes);
    ns_buf body = {0}, shp = {0}, t = {0};
    int *shape_of = ns_xcalloc((size_t)sh->n + 1, sizeof *shape_of);
    for (int i = 0; i < sh->n; i++) {
        t.len = 0;
        ns__shape(&t, sh->reps[i], &strs);
        int added;
        shape_of[i] = (int)ns_strmap_intern(&shapes, t.data, &added);
        if (added) {
            if (shp.len) ns_buf_puts(&shp, ",\n");
            ns_buf_add(&shp, t.data, t.len);
        }
    }
    /* the reports, a column at a time */
    ns_buf_puts(&body, ",\n\"reports\":{\"label\":[");
    for (int i = 0; i < sh->n; i++) ns_buf_printf(&body, "%s%ld", i ? "," : "", ns__str(&strs, sh->labels[i]));
    ns_buf_puts(&body, "],\"producer\":[");
    for (int i = 0; i < sh->n; i++)
        ns_buf_printf(&body, "%s%ld", i ? "," : "", ns__str(&strs, ns_producer_name(sh->reps[i])));
    ns_buf_puts(&body, "],\"file\":[");
    for (int i = 0; i < sh->n; i++) /* a run's reports are all from its stdout.log: not shown */
        ns_buf_printf(&body, "%s%ld", i ? "," : "", i < sh->nlogs ? ns__str(&strs, sh->reps[i]->file) : -1L);
    ns_buf_puts(&body, "],\"line\":[");
    for (int i = 0; i < sh->n; i++) ns_buf_printf(&body, "%s%ld", i ? "," : "", sh->reps[i]->line);
    ns_buf_puts(&body, "],\"shape\":[");
    for (int i = 0; i < sh->n; i++) ns_buf_printf(&body, "%s%d", i ? "," : "", shape_of[i]);
    ns_buf_puts(&body, "],\"total\":[");
    for (int i = 0; i < sh->n; i++) {
        const ns_report *r = sh->reps[i];
        ns_num tot = r->root->val[NS_COL_WALL];
        if (i) ns_buf_putc(&body, ',');
        ns_num_put_json(&body, ns_num_present(tot) && tot.dec != NS_DEC_WORD ? tot : r->header_total);
    }
    ns_buf_puts(&body, "],\"cols\":{");
    int firstcol = 1;
    for (int c = 0; c < NS_COL_COUNT; c++) {
        int any = c == NS_COL_WALL || c == NS_COL_USER;
        for (int i = 0; i < sh->n && !any; i++) any = (sh->reps[i]->cols & NS_COLBIT(c)) != 0;
        if (!any) continue;
        if (!firstcol) ns_buf_putc(&body, ',');
        firstcol = 0;
        ns_buf_puts(&body, "\n");
        ns_json_str(&body, ns_col_json_key((ns_col)c));
        ns_buf_puts(&body, ":[");
        for (int i = 0; i < sh->n; i++) {
            if (i) ns_buf_putc(&body, ',');
            int dec = ns__col_dec(sh->reps[i], (ns_col)c);
            if (dec == -2) ns_buf_puts(&body, "null");
            else ns__col_values(&body, sh->reps[i], (ns_col)c, dec);
        }
        ns_buf_putc(&body, ']');
    }
    ns_buf_printf(&body, "}},\n\"logs\":%d,\"primary\":%d,\"extras_left\":%d", sh->nlogs, sh->primary,
                  sh->extras_left);
    if (m->in->set->nruns) ns__configs(&body, m, &strs);

    /* the document: strings first (the script reads them before the rest) */
    ns_buf_puts(b, "{\"format\":\"npuscope-report\",\"version\":2,\"generator\":\"npuscope " NS_VERSION
                   "\",\n\"kinds\":[");
    for (int k = 0; k <= NS_KIND_TOTAL; k++) ns_buf_printf(b, "%s\"%s\"", k ? "," : "", ns_kind_name((ns_kind)k));
    ns_buf_puts(b, "],\n\"strings\":[");
    for (size_t i = 0; i < strs.count; i++) {
        if (i) ns_buf_putc(b, ',');
        ns_json_str(b, strs.keys[i]);
    }
    ns_buf_puts(b, "],\n\"shapes\":[");
    if (shp.len) ns_buf_add(b, shp.data, shp.len);
    ns_buf_putc(b, ']');
    ns_buf_add(b, body.data, body.len);
    ns_buf_printf(b, ",\n\"omitted\":%d}", sh->omitted);
    p->nreports = sh->n;
    free(shape_of);
    ns_buf_free(&body);
    ns_buf_free(&shp);
    ns_buf_free(&t);
    ns_strmap_free(&strs);
    ns_strmap_free(&shapes);
}
