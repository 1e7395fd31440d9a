/* grid.c -- text grids (see grid.h for the rules every grid follows).
 *
 * Cells are kept as one flat array of strings; widths are measured when
 * the grid is written, so a caller never needs to know a column's width in
 * advance.  What it must not do: decide what goes in a cell (formats of
 * numbers are the callers'), or write anywhere but the buffer it is given.
 */
#include "render/grid.h"

#include "base/display.h"
#include "render/width.h"

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

/* ====== Fitting ====== */

/* Width of the kept columns with their separators (and the indent). */
static size_t ns__total(const ns_grid *g, const size_t *w, const char *keep) {
    size_t t = g->indent ? ns__width(g->indent) : 0;
    int any = 0;
    for (int c = 0; c < g->ncols; c++)
        if (keep[c]) t += w[c] + (any++ ? 2 : 0);
    return t;
}

/* Choose the kept columns and the width of each (rules in grid.h): keep[c]
 * set, w[c] lowered for the columns that shrink.  Returns how many were
 * left out. */
static int ns__fit(const ns_grid *g, const ns_grid_fit *f, size_t *w, char *keep) {
    int nc = g->ncols, maxp = 0, left = 0;
    size_t W = (size_t)f->width;
    for (int c = 0; c < nc; c++) {
        int p = f->prio ? f->prio[c] : 0;
        keep[c] = p == 0;
        if (p > maxp) maxp = p;
    }
    if (!maxp && ns__total(g, w, keep) <= W) return 0;
    for (int c = 0; c < nc; c++) keep[c] = 1;
    if (ns__total(g, w, keep) <= W) return 0;
    for (int c = 0; c < nc; c++) keep[c] = !f->prio || f->prio[c] == 0;
    /* the names shrink, the widest first, while the kept columns are too wide */
    size_t *floor = ns_xcalloc((size_t)nc + 1, sizeof *floor);
    for (int c = 0; c < nc; c++) {
        size_t h = ns__width(g->cells[c]);
        floor[c] = f->shrink && f->shrink[c] ? (h > 8 ? h : 8) : w[c];
        if (floor[c] > w[c]) floor[c] = w[c];
    }
    while (ns__total(g, w, keep) > W) {
        int widest = -1;
        for (int c = 0; c < nc; c++)
            if (keep[c] && w[c] > floor[c] && (widest < 0 || w[c] > w[widest])) widest = c;
        if (widest < 0) break;
        w[widest]--;
    }
    free(floor);
    /* then the others, by priority, each priority's columns together (min
     * and max, mean and stddev), where their room is left */
    for (int p = 1; p <= maxp; p++) {
        int next = maxp; /* the priorities in use only (metrics are 10 + i, ...) */
        for (int c = 0; c < nc; c++)
            if (f->prio[c] >= p && f->prio[c] < next) next = f->prio[c];
        p = next;
        int any = 0;
        for (int c = 0; c < nc; c++)
            if (f->prio[c] == p) keep[c] = 1, any++;
        if (!any || ns__total(g, w, keep) <= W) continue;
        for (int c = 0; c < nc; c++)
            if (f->prio[c] == p) keep[c] = 0, left++;
    }
    return left;
}

/* The note under a fitted grid: which columns were left out. */
static void ns__fit_note(ns_buf *b, const ns_grid *g, int width, const char *keep, int left) {
    ns_buf n = {0};
    ns_buf_printf(&n, "(%d column%s left out to fit %d columns:", left, left == 1 ? "" : "s",
                  width);
    int k = 0;
    for (int c = 0; c < g->ncols; c++) {
        if (keep[c]) continue;
        ns_buf_puts(&n, k++ ? ", " : " ");
        for (const char *q = g->cells[c]; *q; q++) /* a name is not broken over lines */
            ns_buf_putc(&n, *q == ' ' ? NS_WIDTH_NBSP : *q);
    }
    ns_buf_puts(&n, "; a wider COLUMNS, or a pipe, shows every column)");
    ns_width_wrap(b, n.data, (size_t)width, 0, 1);
    ns_buf_free(&n);
}

/* ====== Writing ====== */

void ns_grid_write(ns_buf *b, ns_grid *g) { ns_grid_write_fit(b, g, NULL); }

void ns_grid_write_fit(ns_buf *b, ns_grid *g, const ns_grid_fit *f) {
    int nc = g->ncols, md = g->markdown;
    size_t *w = ns_xcalloc((size_t)nc + 1, sizeof *w);
    char *keep = ns_xcalloc((size_t)nc + 1, 1);
    for (int i = 0; i < g->ncells; i++) {
        size_t x = ns__width(g->cells[i]);
        if (x > w[i % nc]) w[i % nc] = x;
    }
    for (int c = 0; md && c < nc; c++)
        if (w[c] < 3) w[c] = 3; /* room for "--:" */
    for (int c = 0; c < nc; c++) keep[c] = 1;
    int fit = !md && f && f->width > 0 && g->ncells >= nc;
    int left = fit ? ns__fit(g, f, w, keep) : 0;
    int first = 0, lastc = nc - 1; /* the first and last column shown */
    while (first < nc - 1 && !keep[first]) first++;
    while (lastc > 0 && !keep[lastc]) lastc--;
    size_t end = b->len; /* where the line's last text ends: no padding after it */
    ns_buf cut = {0};
    for (int i = 0; i < g->ncells; i++) {
        int c = i % nc, last = c == lastc;
        if (c == 0) {
            end = b->len;
            if (g->indent) ns_buf_puts(b, g->indent);
        }
        if (!keep[c]) continue;
        int right = !g->align || g->align[c] == 'r';
        const char *s = g->cells[i];
        if (ns__width(s) > w[c]) { /* a name of a shrunk column */
            cut.len = 0;
            ns_width_put_short(&cut, s, w[c]);
            s = cut.data;
        }
        size_t pad = w[c] - ns__width(s);
        if (md) ns_buf_puts(b, c != first ? " | " : "| ");
        else if (c != first) ns_buf_puts(b, "  ");
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
    if (left) ns__fit_note(b, g, f->width, keep, left);
    ns_buf_free(&cut);
    for (int i = 0; i < g->ncells; i++) free(g->cells[i]);
    free(g->cells);
    free(keep);
    free(w);
    g->cells = NULL;
    g->ncells = 0;
}
