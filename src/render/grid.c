/* grid.c -- text grids (see grid.h for the rules every grid follows).
 *
 * Cells are kept as one flat array of strings; widths are measured when
 * the grid is written, so a caller never needs to know a column's width in
 * advance.  What it must not do: decide what goes in a cell (formats of
 * numbers are the callers'), or write anywhere but the buffer it is given.
 */
#include "render/grid.h"

#include "base/display.h"

#include <stdlib.h>
#include <string.h>

/* ====== Cells ====== */

/* Characters in a UTF-8 string (continuation bytes do not count). */
static size_t ns__width(const char *s) {
    size_t w = 0;
    for (; *s; s++) w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

void ns_grid_add(ns_grid *g, const char *text) {
    ns_buf c = {0};
    ns_buf_puts(&c, "");
    /* controls and bidi characters as visible escapes (base/display.h) */
    ns_buf shown = {0};
    ns_display_name(&shown, text);
    for (const char *s = shown.data ? shown.data : ""; *s; s++) {
        if (g->markdown && *s == '|') ns_buf_puts(&c, "\\|");
        else ns_buf_putc(&c, *s);
    }
    ns_buf_free(&shown);
    g->cells = ns_xrealloc(g->cells, sizeof *g->cells * (size_t)(g->ncells + 1));
    g->cells[g->ncells++] = c.data;
}

void ns_grid_take(ns_grid *g, ns_buf *c) {
    ns_buf_puts(c, "");
    ns_grid_add(g, c->data);
    c->len = 0;
    c->data[0] = 0;
}

/* ====== Writing ====== */

void ns_grid_write(ns_buf *b, ns_grid *g) {
    int nc = g->ncols, md = g->markdown;
    size_t *w = ns_xcalloc((size_t)nc + 1, sizeof *w);
    for (int i = 0; i < g->ncells; i++) {
        size_t x = ns__width(g->cells[i]);
        if (x > w[i % nc]) w[i % nc] = x;
    }
    for (int c = 0; md && c < nc; c++)
        if (w[c] < 3) w[c] = 3; /* room for "--:" */
    size_t end = b->len; /* where the line's last text ends: no padding after it */
    for (int i = 0; i < g->ncells; i++) {
        int c = i % nc, last = c == nc - 1;
        int right = !g->align || g->align[c] == 'r';
        const char *s = g->cells[i];
        size_t pad = w[c] - ns__width(s);
        if (c == 0) {
            end = b->len;
            if (g->indent) ns_buf_puts(b, g->indent);
        }
        if (md) ns_buf_puts(b, c ? " | " : "| ");
        else if (c) ns_buf_puts(b, "  ");
        if (right) ns_buf_pad(b, ' ', pad);
        ns_buf_puts(b, s);
        if (*s) end = b->len;
        if (!right && (md || !last)) ns_buf_pad(b, ' ', pad);
        if (!last) continue;
        if (md) {
            ns_buf_puts(b, " |\n");
        } else {
            b->len = end;
            ns_buf_putc(b, '\n');
        }
        if (md && i == nc - 1) { /* the rule under the header */
            for (int k = 0; k < nc; k++) {
                int r = !g->align || g->align[k] == 'r';
                ns_buf_puts(b, k ? " | " : "| ");
                ns_buf_pad(b, '-', w[k] - (r ? 1 : 0));
                if (r) ns_buf_putc(b, ':');
            }
            ns_buf_puts(b, " |\n");
        }
    }
    for (int i = 0; i < g->ncells; i++) free(g->cells[i]);
    free(g->cells);
    free(w);
    g->cells = NULL;
    g->ncells = 0;
}
