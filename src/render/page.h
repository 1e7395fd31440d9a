/* page.h -- the report page in words, tables and figures: an ns_page
 * (render/html.h) made from the page model (analyse/page.h).
 *
 * The model holds the numbers; this module says them.  It writes the
 * findings as sentences with their numbers, the runs and diff tables, the
 * figures as SVG (render/svg.h) with their captions, the method facts, the
 * explorer's data block (every shown report and the configurations, in the
 * compact form of docs/formats.md 2.15), and the page's title and notes.  How much of a long list a reader gets is decided
 * here too: the 20 heaviest passes, 7 series a plot, 60 fingerprint rows,
 * 12 values a fact, 25 passes in the diff table -- each cut said on the
 * page.  render/html.c then lays the ns_page out.
 *
 * The module is broken out into four files (page_int.h lists what each
 * owns).  It must not compute a statistic, read a file or print: every
 * number on the page is in the model.
 */
#ifndef NPUSCOPE_RENDER_PAGE_H
#define NPUSCOPE_RENDER_PAGE_H

#include "analyse/page.h"
#include "render/html.h"

/* Fill p (zeroed) from the model: everything ns_html_page lays out. */
void ns_render_page(ns_page *p, const ns_page_model *m);

#endif
