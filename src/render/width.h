/* width.h -- text fitted to a terminal's width: the pieces the grid
 * (grid.c, `table`) and the terminal tree (text.c, `tree`) share.
 *
 * A terminal of 60 columns wraps every line that is longer, and a wrapped
 * grid or tree is unreadable: the numbers of one row land under the names
 * of the next.  So the people-facing views fit themselves to the width the
 * command line found (cli.h, ns_cli_width: $COLUMNS, else the terminal's
 * own size, else no limit for a pipe or a file), and these are the rules
 * they share:
 *
 *   - a width counts characters, not bytes (UTF-8 continuation bytes do
 *     not count; every character is one column);
 *   - a name too long for its room loses its middle to an ellipsis (…),
 *     keeping its start and its end (a pass name's suffix, a path's file
 *     name, a file:line's number);
 *   - a sentence (a summary, a note) is wrapped at blanks, never inside a
 *     word; a single word longer than the line is shortened like a name
 *     (a path keeps its end, so a file:line keeps its line), unless it is
 *     a number: a number is never cut, it is then written whole, even
 *     past the width.
 *
 * Which columns a view drops when even shortened names do not fit, and
 * the note that says so, are the view's (grid.h, text.h).  Width 0 means
 * no limit everywhere: nothing here changes output for a pipe.
 */
#ifndef NPUSCOPE_RENDER_WIDTH_H
#define NPUSCOPE_RENDER_WIDTH_H

#include "base/common.h"

/* Characters of s (UTF-8: continuation bytes do not count). */
size_t ns_width_of(const char *s);
/* Append s, its middle replaced by an ellipsis when it has more than max
 * characters (max >= 3; below that s is appended whole). */
void ns_width_put_short(ns_buf *b, const char *s, size_t max);
/* A blank in a text to wrap that is no place to break a line ("max s" in
 * a list of column names): written as a blank. */
#define NS_WIDTH_NBSP '\x1f'

/* Append text wrapped at blanks to lines of at most width characters, the
 * first line starting at column `at` (what the caller already wrote on
 * it), every further line indented by `indent` blanks; each line ends
 * with '\n'.  width 0: text as it is (NS_WIDTH_NBSP as blanks), and '\n'. */
void ns_width_wrap(ns_buf *b, const char *text, size_t width, size_t at, size_t indent);

#endif
