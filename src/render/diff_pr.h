/* diff_pr.h -- a diff for a pull request: a Markdown table to paste (or to
 * write to a CI job summary), and GitHub workflow annotations.
 *
 * Compile-time regressions are argued about in pull requests: the table
 * leads with one summary line (what got slower, by how much, how sure),
 * then the rows that matter -- significant ones first, the slower before
 * the faster, each with a marker a reviewer sees at a glance -- and says
 * how many rows were the same.  The annotations are one
 * `::warning title=...::message` line per slower row (`::notice` for a
 * faster one), which a GitHub Actions log turns into marks on the run's
 * summary.  Names go through the same escaping as every other output: a
 * pass name can hold '|', '<' or a newline, and a name may not end a
 * table cell or an annotation early.
 */
#ifndef NPUSCOPE_DIFF_PR_H
#define NPUSCOPE_DIFF_PR_H

#include "analyse/diff.h"

/* "A" and "B" name the sides (folders or selections) in the summary. */
void ns_diff_markdown(ns_buf *b, const ns_diff *d, const char *a_name, const char *b_name);
void ns_diff_github(ns_buf *b, const ns_diff *d, const char *a_name, const char *b_name);

#endif
