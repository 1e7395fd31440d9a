/* page_int.h -- private to the files that write the report page
 * (render/page*.c).
 *
 * Writing the page (page.h) is one module broken out into separate source
 * files for easier editing; this header is what they share and nothing
 * outside them may include it.  Which file owns what:
 *
 *   page.c           the entry, ns_render_page: title, subtitle and notes,
 *                    the explorer's data block, the runs and diff tables,
 *                    method & reproducibility
 *   page_findings.c  the key findings: one sentence per question the model
 *                    answered, with its numbers, in page order
 *   page_change.c    the "What to change" section and the findings document
 *                    (the findings engine's, analyse/findings.h)
 *   page_data.c      the explorer's data block: the embedded trees and
 *                    configurations as compact JSON (string table, shared
 *                    shapes, columns of scaled integers)
 *   page_figures.c   the figures: stage colours, the heaviest passes, the
 *                    scaling plots, the regime map, the fingerprints, the
 *                    ratios, the study's figures, small multiples; each
 *                    with its caption, drawn by render/svg.c
 *
 * Calls go one way, page.c -> page_findings.c, page.c -> page_data.c,
 * page.c -> page_change.c and page.c -> page_figures.c, never back (tools/layers.sh refuses a loop between files
 * of a layer).
 */
#ifndef NPUSCOPE_RENDER_PAGE_INT_H
#define NPUSCOPE_RENDER_PAGE_INT_H

#include "render/page.h"

/* page_findings.c: every finding, in page order. */
void ns__render_page_findings(ns_page *p, const ns_page_model *m);

/* page_change.c: the findings document into p->findings_json and the
 * "What to change" section (nothing without m->in->findings). */
void ns__render_page_change(ns_page *p, const ns_page_model *m);

/* page_data.c: the data block the explorer reads, into p->data (and
 * p->nreports). */
void ns__render_page_data(ns_page *p, const ns_page_model *m);

/* page_figures.c: every figure, in page order, and the note when the
 * figures section has none. */
void ns__render_page_figures(ns_page *p, const ns_page_model *m);

#endif
