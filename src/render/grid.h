/* grid.h -- text grids: the aligned columns of `table`, `diff` and `fit`,
 * and the Markdown table of `table --format markdown`.
 *
 * Every command that prints rows for people prints the same kind of grid:
 * one header row, then rows of cells, columns as wide as their widest cell,
 * two blanks between columns, numbers right-aligned.  It is written here
 * once, so that the three commands agree on what a grid is:
 *
 *   - A cell is one line of text.  Control characters become blanks when
 *     the cell is added (names come from logs and tags nobody controls: a
 *     line break must not break the grid); in Markdown '|' is escaped.
 *   - Widths count characters, not bytes (UTF-8 continuation bytes do not
 *     count), so "×1.234" and "R²" line up.
 *   - A line never ends in padding: an empty last cell leaves no blanks.
 *   - Markdown: "| a | b |", a rule of dashes under the first row (':' at
 *     the right end of a right-aligned column), every column at least three
 *     wide, every cell padded.
 *
 *   - A width (ns_grid_write_fit, text only; 0 is no limit): when the grid
 *     is wider, it is fitted (render/width.h).  Columns of priority 0 are
 *     always kept; if they alone are too wide, the cells of columns marked
 *     `shrink` (names, never numbers) lose their middle to an ellipsis,
 *     the widest column first, down to its header's width (at least 8).
 *     Then the other columns come back in order of priority (1 first,
 *     then 2, ...; each column whose room is left, in its place), and a
 *     note after the grid names the ones left out.  A number is never cut:
 *     a column is shown whole or not at all.
 *
 * Usage: fill in ncols, align, indent and markdown, add the cells row by
 * row (ns_grid_add, or ns_grid_take to move a buffer's text in), then
 * ns_grid_write, which appends the grid to a buffer and frees the cells
 * (ns_grid_write_fit, with an ns_grid_fit, to fit a terminal).
 * Deliberately left out: wrapping a cell over lines, and colour.
 */
#ifndef NPUSCOPE_RENDER_GRID_H
#define NPUSCOPE_RENDER_GRID_H

#include "base/common.h"

typedef struct {
    char **cells;       /* row-major, ncols a row (owned) */
    int ncells;         /* entries in cells */
    int ncols;          /* cells per row */
    const char *align;  /* per column 'l' or 'r' (borrowed); NULL: every column 'r' */
    const char *indent; /* written before every row (borrowed), NULL: none */
    int markdown;       /* a Markdown table rather than aligned text */
} ns_grid;

/* How a text grid fits a terminal (ns_grid_write_fit). */
typedef struct {
    int width;          /* fit the lines to this many characters; 0: no limit */
    const int *prio;    /* per column: 0 always kept, higher left out first (borrowed);
                         * NULL: every column 0 */
    const char *shrink; /* per column: non-zero when its cells may lose their middle
                         * (borrowed); NULL: none may */
} ns_grid_fit;

/* Add the next cell (copied). */
void ns_grid_add(ns_grid *g, const char *text);
/* Add the text of c as the next cell and empty c (c stays allocated). */
void ns_grid_take(ns_grid *g, ns_buf *c);
/* Append the grid to b and free its cells (g is empty again, its settings
 * kept). */
void ns_grid_write(ns_buf *b, ns_grid *g);
/* The same, fitted to f (NULL, or a width of 0, or Markdown: as wide as
 * its cells). */
void ns_grid_write_fit(ns_buf *b, ns_grid *g, const ns_grid_fit *f);

#endif
