/* page_int.h -- private to the files of the page model (analyse/page*.c).
 *
 * The model of the report page (page.h) is one module broken out into
 * separate source files for easier editing; this header is what they share
 * and nothing outside them may include it.  Which file owns what:
 *
 *   page.c          the model: building it section by section in page
 *                   order, freeing it; the explorer's reports, the
 *                   overview, the heaviest passes, the cache factor, the
 *                   diff
 *   page_figures.c  the figures' data: row labels (ns_page_label_new),
 *                   numeric tags, scaling series and their fits, the regime
 *                   map, the ratios to a baseline, the study's figures
 *   page_method.c   method & reproducibility: the command line, the runs'
 *                   commands, environment, hosts (read from run.json),
 *                   dates, compilers, compiler facts
 *
 * Calls go one way, page.c -> page_figures.c and page.c -> page_method.c,
 * never back (tools/layers.sh refuses a loop between files of a layer).
 */
#ifndef NPUSCOPE_ANALYSE_PAGE_INT_H
#define NPUSCOPE_ANALYSE_PAGE_INT_H

#include "analyse/page.h"

/* page_figures.c: the scaling series, the regime map and the ratios, in
 * m (after the table is built); and their memory. */
void ns__page_figures(ns_page_model *m);
void ns__page_figures_free(ns_page_model *m);

/* page_method.c: the method facts in m->method; and their memory. */
void ns__page_method(ns_page_model *m);
void ns__page_method_free(ns_page_method *mt);

#endif
