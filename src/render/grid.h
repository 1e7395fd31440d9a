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
 * Usage: fill in ncols, align, indent and markdown, add the cells row by
 * row (ns_grid_add, or ns_grid_take to move a buffer's text in), then
 * ns_grid_write, which appends the grid to a buffer and frees the cells.
 * Deliberately left out: wrapping, truncation and terminal widths (a grid
 * is as wide as its cells), and colour.
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

/* Add the next cell (copied). */
void ns_grid_add(ns_grid *g, const char *text);
/* Add the text of c as the next cell and empty c (c stays allocated). */
void ns_grid_take(ns_grid *g, ns_buf *c);
/* Append the grid to b and free its cells (g is empty again, its settings
 * kept). */
void ns_grid_write(ns_buf *b, ns_grid *g);

#endif
