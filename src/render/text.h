/* text.h -- the terminal tree of `npuscope tree` (text.c).
 *
 * One report as the people-facing tree: the time column with the
 * compiler's own digits, the share of the total as a number and a bar, the
 * user column where there is one, the name indented by depth; rows a view
 * elides are summed into one line per parent.
 *
 * With a width (a terminal, render/width.h) the tree fits it: when the
 * widest row does not, the share bar is left out first, then the user
 * column, then names lose their middle to an ellipsis (each keeps at least
 * 8 characters; rows too deep for that lose indentation); the time and the
 * share are always shown whole, and a note under the report says what was
 * left out.  The header, the facts and the notes wrap at blanks.  The writer knows only the
 * report, the view (model/view.h) and whether to colour: it sits below the
 * exporter (export.h), which calls it for --format text, and below the
 * merged tree's writer (merged.h), which adds its summary after it.
 */
#ifndef NPUSCOPE_TEXT_H
#define NPUSCOPE_TEXT_H

#include "model/view.h"

#include <stdio.h>

typedef struct {
    ns_view view; /* rows and column */
    int color;    /* ANSI colour (the CLI decides: a TTY and no NO_COLOR) */
    int width;    /* fit to this many columns (the CLI decides: cli.h ns_cli_width);
                   * 0: no limit */
} ns_text_opts;

/* One report as the terminal tree, appended to b.  With `out`, b is
 * written there whenever it passes a megabyte (a 10,000-deep tree is 100 MB
 * of indentation); a write error sets *werr. */
void ns_render_tree_text(ns_buf *b, const ns_report *r, const ns_text_opts *o, FILE *out,
                         int *werr);

#endif
