/* page_predict.h -- the report page's predictions (`report --predict`):
 * what the model of a sweep (analyse/predict.h) says, as two figures and
 * a table, added to an ns_page after the rest of it is made.
 *
 *   predict-loo         every configuration's median against its
 *                       prediction from all the others (leave-one-out),
 *                       log-log, with the line where they agree: the
 *                       model's check, drawn
 *   predict-regime-map  every cell of the grid coloured by the stage the
 *                       model predicts to rule it, measured cells outlined
 *                       and dotted: a regime map from a partial sweep
 *   predict-table       one row per --predict point: the value, its
 *                       interval, the regime, extrapolation, measured
 *
 * Nothing is computed here: the caller evaluates the model at every cell
 * and point.  One hook in the report command calls this; the findings and
 * the rest of the page are render/page.c's.
 */
#ifndef NPUSCOPE_RENDER_PAGE_PREDICT_H
#define NPUSCOPE_RENDER_PAGE_PREDICT_H

#include "analyse/predict.h"
#include "render/html.h"

typedef struct {
    const ns_pred *model;        /* the model (borrowed) */
    const ns_pred_point *grid;   /* every cell of the measured grid, evaluated */
    int ngrid;                   /* entries */
    const ns_pred_point *at;     /* the --predict points, evaluated */
    const char *const *at_label; /* "model=qwen2-14b, window=8192" per point */
    const char *const *at_why;   /* per point: why it was refused, or NULL */
    int nat;                     /* entries */
    const char *yname;           /* y as written ("total") */
} ns_page_predict;

/* Add the figures and the table to p. */
void ns_render_predict(ns_page *p, const ns_page_predict *pp);

#endif
