/* predict_int.h -- private to analyse/predict*.c: the predictor is one
 * module broken out into two files for easier editing (sqlite's
 * whereInt.h): predict.c reads the sweep, builds the model and predicts;
 * predict_lsq.c is the least squares of one part, its forms and their
 * cross-validation.  predict_lsq.c calls nothing of predict.c.
 */
#ifndef NPUSCOPE_PREDICT_INT_H
#define NPUSCOPE_PREDICT_INT_H

#include "analyse/predict.h"

/* Columns of form `form` (0 plain, 1 with interactions). */
int ns_pred_ncols(const ns_pred *p, int form);
/* The row of a configuration or a point: lx[a] = ln x - center of a
 * numeric axis a, level[a] the level of a categorical one. */
void ns_pred_row(const ns_pred *p, int form, const double *lx, const int *level, double *row);
/* Fit part `part` to lnv[c] (ln of its value per configuration; NaN where
 * it has none), choosing the form by leave-one-out error; loo_ln[c]
 * receives each configuration's prediction without it (NaN where none).
 * lx and lv: per configuration, per axis (naxes each), row-major.
 * Returns 0, or -1 (no form can be fitted and checked; why in p->why). */
int ns_pred_fit_part(ns_pred *p, ns_pred_part *part, const double *lnv, const double *lx,
                     const int *lv, double *loo_ln);

/* A part's value at a point and the variance of its ln (noise plus the
 * fit's uncertainty there); row: scratch of ns_pred_ncols(p, 1). */
void ns_pred_part_at(const ns_pred *p, const ns_pred_part *pt, const double *lx, const int *level,
                     double *row, double *val, double *var);

#endif
