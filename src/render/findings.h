/* findings.h -- the findings engine's model (analyse/findings.h) rendered:
 * advise's text, and the one JSON document that `advise --format json`
 * prints and the report page embeds byte for byte
 * (docs/formats.md, "Findings").
 */
#ifndef NPUSCOPE_RENDER_FINDINGS_H
#define NPUSCOPE_RENDER_FINDINGS_H

#include "analyse/findings.h"

/* The JSON document, ending in a newline. */
void ns_findings_json(ns_buf *b, const ns_findings *f);
/* advise's text: the study (when there is one), then with per_config (or
 * without a study) each case with what was found and its advice. */
void ns_findings_text(ns_buf *b, const ns_findings *f, int per_config);
/* A fit of the study as a sentence. */
void ns_findings_fit_sentence(ns_buf *b, const ns_study_fit *f);
/* The evidence of a regime of the study, as a sentence. */
void ns_findings_regime_evidence(ns_buf *b, const ns_study *st, const ns_study_regime *g);

#endif
