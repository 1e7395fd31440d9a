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
 *   page_fighelp.c   what the figure writers share: stage colours, ids
 *   page_study.c     the study's figures (hand-off, why-costly, family
 *                    fingerprint, precision-size, precision-scaling)
 *   page_figures.c   the figures: the heaviest passes, the
 *                    scaling plots, the regime map, the fingerprints, the
 *                    ratios, small multiples (the study's: page_study.c); each
 *                    with its caption, drawn by render/svg*.c (svg.h)
 *
 * Calls go one way, page.c -> page_findings.c, page.c -> page_data.c,
 * page.c -> page_change.c, page.c -> page_figures.c -> page_study.c, and
 * both figure files -> page_fighelp.c, never back (tools/layers.sh refuses a loop between files
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

/* page_fighelp.c: what the figure writers share. */
typedef struct {
    ns_page *page;             /* the page the figures go on */
    const ns_page_model *m;    /* what they show */
    int *color;                /* palette index per page stage (owned) */
} ns_page_figs;
/* The palette index of stage `name` (grey for "other" and unknown names). */
int ns__page_stage_color(const ns_page_figs *f, const char *name);
/* An id "PREFIX-NAME[-NAME2]" not yet used on the page (caller frees). */
char *ns__page_fig_id_new(const ns_page *p, const char *prefix, const char *a, const char *b);
/* The page's stage names, as an array for the drawings (caller frees). */
const char **ns__page_stage_names_new(const ns_page_model *m);

/* page_study.c: the study's figures, in page order (page_figures.c calls
 * it), and the sentence on those left out. */
void ns__render_page_study(ns_page_figs *f);
void ns__render_page_study_note(ns_page *p, const ns_page_study *s);

/* page_figures.c: every figure, in page order, and the note when the
 * figures section has none. */
void ns__render_page_figures(ns_page *p, const ns_page_model *m);

#endif
