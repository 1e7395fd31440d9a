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
 *   page_figures.c  the figures' data: scaling series and their fits, the
 *                   regime map, the ratios to a baseline; the entry that
 *                   builds them all, the study's figures too
 *   page_study.c    the study's figures' data: hand-off, why-costly, family
 *                   fingerprint, precision-size, precision-scaling
 *   page_tags.c     row labels (ns_page_label_new), a tag's values sorted,
 *                   numeric tags
 *   page_method.c   method & reproducibility: the command line, the runs'
 *                   commands, environment, hosts (read from run.json),
 *                   dates, compilers, compiler facts
 *
 * Calls go one way, page.c -> page_figures.c -> page_study.c, both figure
 * files -> page_tags.c, and page.c -> page_method.c, never back
 * (tools/layers.sh refuses a loop between files of a layer).
 */
#ifndef NPUSCOPE_ANALYSE_PAGE_INT_H
#define NPUSCOPE_ANALYSE_PAGE_INT_H

#include "analyse/page.h"

/* page_figures.c: the scaling series, the regime map and the ratios, in
 * m (after the table is built); and their memory. */
void ns__page_figures(ns_page_model *m);
void ns__page_figures_free(ns_page_model *m);

/* page_study.c: the study's figures in m->study (page_figures.c calls
 * it, after the ratios); and their memory. */
void ns__page_study_figures(ns_page_model *m);
void ns__page_study_figures_free(ns_page_study *s);

/* page_tags.c: sort distinct strings by ns_text_cmp. */
void ns__page_sort_values(const char **v, int n);
/* Is tag key numeric among the counted runs, with at least `least` values?
 * *pow2: all are powers of 2. */
int ns__page_numeric_with(const ns_page_model *m, const char *key, int least, int *pow2);
/* Distinct values of tag key over the rows (sorted, borrowed; the array is
 * the caller's). */
const char **ns__page_tag_values_new(const ns_table *t, const char *key, int *n);

/* page_method.c: the method facts in m->method; and their memory. */
void ns__page_method(ns_page_model *m);
void ns__page_method_free(ns_page_method *mt);

#endif
