/* matrix.c -- the compile matrix (see matrix.h).
 *
 * A configuration is a row of the table; its compile row is the cold one,
 * or the mode-less one (warm rows are cache hits, not compiles).  Its
 * status is the table's (analyse/table.h, ns_table_status), its failure
 * what its first failed run logged; the groups and their descriptions are
 * the study's (analyse/study.h), so nothing here decides anything.
 */
#include "render/matrix.h"

#include "base/jsonw.h"
#include "model/load.h"
#include "render/grid.h"

#include <stdlib.h>
#include <string.h>

int ns_matrix_any(const ns_table *t) {
    for (int i = 0; i < t->nrows; i++)
        if (!strcmp(ns_table_status(&t->rows[i]), "failed")) return 1;
    return 0;
}

/* The compile rows: not warm. */
static int ns__compile_row(const ns_table_row *x) { return strcmp(x->cfg.mode, "warm") != 0; }

/* "fails at PASS in SUBMODEL" of a group. */
static void ns__group_text(ns_buf *b, const ns_study_failure *f) {
    ns_buf_puts(b, "fails");
    if (f->pass) ns_buf_printf(b, " at %s", f->pass);
    if (f->submodel) ns_buf_printf(b, " in %s", f->submodel);
    if (!f->pass && !f->submodel) ns_buf_puts(b, " (the log names no pass)");
    ns_buf_printf(b, ": %s", f->where ? f->where : "");
}

void ns_matrix_text(ns_buf *b, const ns_table *t, const ns_study *st) {
    int n = 0, failed = 0;
    for (int i = 0; i < t->nrows; i++) {
        if (!ns__compile_row(&t->rows[i])) continue;
        n++;
        failed += !strcmp(ns_table_status(&t->rows[i]), "failed");
    }
    ns_buf_printf(b, "compile matrix: %d configuration%s, %d failed to compile (left out of "
                     "the regimes and fits)\n", n, n == 1 ? "" : "s", failed);
    for (int i = 0; st && i < st->nfailures; i++) {
        ns_buf_puts(b, "  ");
        ns__group_text(b, &st->failures[i]);
        ns_buf_putc(b, '\n');
    }
    int ncol = t->nkeys + 2;
    char *align = ns_xcalloc((size_t)ncol + 1, 1);
    memset(align, 'l', (size_t)ncol);
    ns_grid g = {NULL, 0, ncol, align, NULL, 0};
    for (int k = 0; k < t->nkeys; k++) ns_grid_add(&g, t->keys[k]);
    ns_grid_add(&g, "mode");
    ns_grid_add(&g, "status");
    ns_buf cell = {0};
    for (int i = 0; i < t->nrows; i++) {
        const ns_table_row *x = &t->rows[i];
        if (!ns__compile_row(x)) continue;
        for (int k = 0; k < t->nkeys; k++) {
            const char *v = ns_table_tag(x, t->keys[k]);
            ns_grid_add(&g, v ? v : "-");
        }
        ns_grid_add(&g, x->cfg.mode);
        cell.len = 0;
        ns_buf_puts(&cell, ns_table_status(x));
        if (!strcmp(ns_table_status(x), "failed") && x->failure) {
            const ns_failure *f = x->failure;
            if (f->pass) ns_buf_printf(&cell, " at %s", f->pass);
            if (f->submodel) ns_buf_printf(&cell, " in %s", f->submodel);
            if (f->location) ns_buf_printf(&cell, " (%s)", f->location);
        }
        ns_grid_take(&g, &cell);
    }
    ns_grid_write(b, &g);
    ns_buf_free(&cell);
    free(align);
}

static void ns__str(ns_buf *b, const char *s) {
    if (s) ns_json_str(b, s);
    else ns_buf_puts(b, "null");
}

void ns_matrix_json(ns_buf *b, const ns_table *t, const ns_study *st) {
    int n = 0, failed = 0;
    ns_buf rows = {0};
    for (int i = 0; i < t->nrows; i++) {
        const ns_table_row *x = &t->rows[i];
        if (!ns__compile_row(x)) continue;
        int bad = !strcmp(ns_table_status(x), "failed");
        const ns_failure *f = bad ? x->failure : NULL;
        ns_buf_puts(&rows, n ? ",\n{\"tags\":{" : "\n{\"tags\":{");
        for (int k = 0; k < x->cfg.ntags; k++) {
            if (k) ns_buf_putc(&rows, ',');
            ns_json_str(&rows, x->cfg.tags[k]->key);
            ns_buf_putc(&rows, ':');
            ns_json_str(&rows, x->cfg.tags[k]->value);
        }
        ns_buf_puts(&rows, "},\"mode\":");
        ns_json_str(&rows, x->cfg.mode);
        ns_buf_printf(&rows, ",\"status\":\"%s\",\"failed_pass\":", ns_table_status(x));
        ns__str(&rows, f ? f->pass : NULL);
        ns_buf_puts(&rows, ",\"submodel\":");
        ns__str(&rows, f ? f->submodel : NULL);
        ns_buf_puts(&rows, ",\"location\":");
        ns__str(&rows, f ? f->location : NULL);
        ns_buf_puts(&rows, ",\"message\":");
        ns__str(&rows, f ? f->message : NULL);
        ns_buf_putc(&rows, '}');
        n++;
        failed += bad;
    }
    ns_buf_printf(b, "\"compile_matrix\":{\"configurations\":%d,\"failed\":%d,"
                     "\"left_out_of_fits\":%s,\"rows\":[", n, failed, failed ? "true" : "false");
    if (rows.len) ns_buf_add(b, rows.data, rows.len);
    ns_buf_free(&rows);
    ns_buf_puts(b, "],\"failures\":[");
    for (int i = 0; st && i < st->nfailures; i++) {
        const ns_study_failure *f = &st->failures[i];
        ns_buf_puts(b, i ? ",\n{\"pass\":" : "\n{\"pass\":");
        ns__str(b, f->pass);
        ns_buf_puts(b, ",\"submodel\":");
        ns__str(b, f->submodel);
        ns_buf_printf(b, ",\"configurations\":%d,\"where\":", f->nconfigs);
        ns__str(b, f->where);
        ns_buf text = {0};
        ns__group_text(&text, f);
        ns_buf_puts(b, ",\"text\":");
        ns_json_str(b, text.data);
        ns_buf_free(&text);
        ns_buf_putc(b, '}');
    }
    ns_buf_puts(b, "]},");
}

void ns_matrix_log_failures(ns_buf *b, const ns_load *L) {
    for (int i = 0; L && i < L->nfail; i++) {
        const ns_failure *f = &L->fail[i];
        ns_buf_printf(b, "a compile failed: %s line %ld: pass %s, sub-model %s, at %s: %s\n",
                      f->file ? f->file : "?", f->line, f->pass ? f->pass : "(not named)",
                      f->submodel ? f->submodel : "(not named)",
                      f->location ? f->location : "(no location)",
                      f->message ? f->message : "(no message)");
    }
}
