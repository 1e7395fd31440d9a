/* matrix.h -- the compile matrix of a sweep: every configuration with its
 * status (ok, or failed and where), and the failures described as compactly
 * as the study's regimes ("fails at StaticAllocation in prefill: window >=
 * 4096").  A piece of its own that `advise` and the report page call, so
 * that the failures are said in one place whatever else those outputs say.
 */
#ifndef NPUSCOPE_RENDER_MATRIX_H
#define NPUSCOPE_RENDER_MATRIX_H

#include "analyse/study.h"

/* Does the table have a failed configuration?  (The matrix is shown only
 * then.) */
int ns_matrix_any(const ns_table *t);
/* Text: a heading line, one line per failure group, then the grid of the
 * configurations and their status.  st may be NULL (no study). */
void ns_matrix_text(ns_buf *b, const ns_table *t, const ns_study *st);
/* JSON: "compile_matrix":{"configurations","failed","left_out_of_fits",
 * "rows":[{"tags","mode","status","failed_pass","submodel","location",
 * "message"}],"failures":[{"pass","submodel","configurations","where",
 * "text"}]}, followed by a comma. */
void ns_matrix_json(ns_buf *b, const ns_table *t, const ns_study *st);

/* Text: the failed compiles a log input showed (model/load.h), one line
 * each ("a compile failed: ... line N: pass P, sub-model S, at LOC: WHY"). */
struct ns_load_s;
void ns_matrix_log_failures(ns_buf *b, const struct ns_load_s *L);

#endif
