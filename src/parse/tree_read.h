/* tree_read.h -- the tree JSON read back into reports.
 *
 * run.json keeps every report found in a run's output in the tree JSON
 * format (docs/formats.md).  Analysis (fit, diff) and `tree`/`top` on run
 * folders need them as ns_report again.  Values come back as doubles; the
 * printed decimals are recovered as the fewest that reproduce the number,
 * so 3.8142 prints as 3.8142 again (by arithmetic, not by printing and
 * reading back: tree_read.c).  The reader prints nothing: an element that
 * is not a report comes back as NULL and a reason, which the run.json
 * reader turns into its warning.
 */
#ifndef NPUSCOPE_TREE_READ_H
#define NPUSCOPE_TREE_READ_H

#include "model/report.h"

#include <jansson.h>

/* One element of a "reports" array; NULL with *why set when it is not a
 * report (missing root or name; a time value that is not a number or
 * null, "children" that is not an array: the reason names the member).
 * *why is valid until the next call. */
ns_report *ns_report_from_json_new(const json_t *o, const char *file,
                                   const char **why);

#endif
