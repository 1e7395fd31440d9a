/* page_load.h -- what the report page says of the load besides its
 * reports: the configurations that failed to compile (a finding and the
 * compile matrix's table, render/matrix.h's words) and the timeline of a
 * log or a run that has times (a figure).  Pieces of their own, added to
 * the page after the page's own sections (render/page.h), so the page's
 * findings and rules stay theirs. */
#ifndef NPUSCOPE_RENDER_PAGE_LOAD_H
#define NPUSCOPE_RENDER_PAGE_LOAD_H

#include "analyse/study.h"
#include "analyse/timeline.h"
#include "render/html.h"

/* A finding per failure group and the compile matrix table, when a
 * configuration of t failed (st: the study, or NULL). */
void ns_page_failures(ns_page *p, const ns_table *t, const ns_study *st);
/* A failure logged by a log input (not a run): a finding. */
struct ns_load_s;
void ns_page_log_failures(ns_page *p, const struct ns_load_s *L);
/* The timeline figure of tl (nothing when it has no time); k numbers the
 * figure's id ("timeline-1"). */
void ns_page_timeline(ns_page *p, const ns_timeline *tl, int k);
/* The SVG of a timeline: a bar per phase on its lane, seconds below. */
char *ns_timeline_svg_new(const ns_timeline *tl);

#endif
