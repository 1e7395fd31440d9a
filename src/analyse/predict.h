/* predict.h -- what a configuration that was never measured will cost:
 * a model of a sweep, checked by leaving each configuration out.
 *
 * The model explains a compile the way the study does: its time is the sum
 * of its stages (the stage map's self times, stages.h), and each stage
 * grows with the sweep's axes as a power law.  So every stage that takes
 * time ("a part") gets its own log-linear model
 *     ln part = b0 + sum_k b_k ln x_k + (a factor per level of each
 *               categorical axis) [+ a factor per level times each ln x_k]
 * numeric axes in log space (a tag whose values are all positive numbers,
 * or the model's size in billions read off a `model` tag), categorical
 * ones (precision, pipeline) as factors; the bracketed interaction lets
 * fp16 grow with size at its own exponent.  Either form may also have a
 * fixed cost c >= 0 beside its power law,
 *     part = c + exp(the log-linear model above),
 * the cost a process pays whatever the size (loading and registering a
 * compiler: about 0.02 s of mlir-opt's CPU time, two thirds of compiling
 * a thousand empty functions).  It is what bends a log-log line upward:
 * the local slope of c + a x^b rises from near 0 toward b as x grows, so
 * a power law fitted to the small sizes of a sweep has too small an
 * exponent and falls short at the large ones (mlir-opt's instruction
 * counts, 1k..16k functions, are a constant plus a linear term to 0.2 %).
 * c is profiled: the c in [0, 0.985 of the smallest value) whose fit of
 * ln(part - c) leaves the least squared error in ln part.
 *
 * The parts are summed and multiplied by the ratio of y to that sum (a part of its own, modelled
 * the same way: Rest, the import, a process's start).  A part that is zero
 * in every configuration of a categorical level (a pipeline without a
 * lowering) is zero there.  y other than the report total (wall, peak, a
 * pass or a stage) is one part; the stages still give the regime.
 *
 * Which of the four forms each part takes is chosen by leave-one-
 * configuration-out cross-validation (the model refitted without each
 * configuration, that configuration predicted, c profiled again): a richer
 * form only where its error left out is ten per cent below the best
 * simpler one's (plain, interactions, plain with c, interactions with c),
 * and a form with c only where it is also no worse at the ends: each
 * numeric axis's largest and smallest value left out together and
 * predicted from the rest (one-out errors are mostly interpolation, and a
 * c the noise of the small sizes makes up fits inside and runs away
 * outside).
 * The same refits give the error printed with every prediction (median
 * and worst relative error of y).  A configuration is the median of its
 * counted runs.
 *
 * The interval (level 0.9 by default) is the usual one of a linear model's
 * prediction in log space, s^2 (1 + leverage), per part (with a fixed
 * cost: s^2 + (w s_f)^2 leverage, s_f the residual error in ln(part - c)
 * and w = (part - c) / part, so the fit's uncertainty grows with the
 * distance from the measured points as it does without one), with s
 * taken as the larger of the fit's residual error and its cross-validated one, the
 * parts' variances added with their weights in the sum, a Student t with
 * the smallest of the parts' degrees of freedom.  It holds for the machine
 * and environment the sweep ran on.
 *
 * That interval trusts the model's form, and past the measured range the
 * form is what fails first: mlir-opt's compile of empty functions is a
 * fixed cost plus a linear term to a few per cent up to 8k functions, and
 * at 32k, where its IR outgrows the caches, costs 5-11 % more than that
 * line says -- outside an interval of +-8 % in two sweeps of four.  So a
 * prediction past an end of a numeric axis also carries the ends check:
 * the model built again without that end's configurations predicts them
 * (an extrapolation by one step, the ratio of the end's value to its
 * neighbour's), and the rms error in ln of those predictions is added to
 * the variance as one more part, scaled to the prediction's reach: how
 * far past the range it goes as a fraction of the range (ln factor over
 * ln of hi / lo), over the same of the check (ln step over the ln range
 * of the rest).  An error from curvature the model lacks grows with the
 * distance, and a model fitted over a wide range goes less wrong at the
 * same distance than one fitted over a narrow one.  The check is left out
 * where it would judge a different model: an axis with two values (the
 * rest has one), and an end that holds more than a third of the
 * configurations (an adaptive sweep's corners: the model without them is
 * built on a remnant, and predicted a 14B model 71 % wrong where the
 * whole sweep's was right to 0.1 %).  It measures the form's error where
 * the data can show it, one step in; it cannot see a cliff beyond the
 * last value.
 *
 * Refusals are answers: fewer configurations than a form's parameters plus
 * two, a value of an axis the sweep held at one value, a level of a
 * categorical axis it never measured.  Cliffs (fit.h): along each numeric
 * axis, every slice of configurations that differ only in it is fitted on
 * its own, and a local slope more than NS_FIT_CLIFF above the slice's
 * exponent is a cliff; a prediction at or past one says so.
 *
 * Ownership: an ns_pred owns everything in it, names included.  Left out:
 * the workload facts as a step of the chain (a fact that is a power law of
 * the axes makes its stage one too, so the direct form is the same model),
 * curvature terms in log space (they do not extrapolate: a quadratic in
 * ln x bends the wrong way as soon as it leaves the data, where a fixed
 * cost only straightens toward its power law), and weights by repeat
 * counts.
 */
#ifndef NPUSCOPE_PREDICT_H
#define NPUSCOPE_PREDICT_H

#include "analyse/dataset.h"

/* ====== The data ====== */

typedef struct {
    char *name;     /* tag key ("window", "model") */
    int numeric;    /* 1: a number axis (ln of it in the model) */
    int derived;    /* numeric from a model name (size in billions) */
    int nlevels;    /* distinct values measured */
    char **levels;  /* those values as written, ns_text_cmp order (owned) */
    double *xs;     /* numeric: each level's number */
    double lo, hi;  /* numeric: the measured range */
    double center;  /* numeric: mean ln x over the configurations */
    /* numeric: the ends check ([0] the smallest value, [1] the largest):
     * the rms error in ln of that end's configurations predicted by a model
     * built without them (NaN: not checked, ext_skip says why), how far
     * past its own range that model reached (ln step to the end over the
     * ln range of the rest), and how many configurations it was checked on */
    double ext_err[2];
    double ext_reach[2];
    int ext_n[2];
    int ext_skip[2]; /* NS_PRED_ENDS_*: why an end was not checked */
} ns_pred_axis;

/* Why an end of an axis has no ends check (ns_pred_axis.ext_skip). */
enum {
    NS_PRED_ENDS_DONE = 0,   /* checked */
    NS_PRED_ENDS_FEW,        /* fewer than three values */
    NS_PRED_ENDS_HEAVY,      /* the end holds more than a third of the configurations */
    NS_PRED_ENDS_NO_MODEL    /* no model could be built without it */
};
/* Its reason as words ("fewer than three values measured"). */
const char *ns_pred_ends_skip_why(int skip);
/* The value as written at end e of a numeric axis (0 smallest, 1 largest). */
const char *ns_pred_end_value(const ns_pred_axis *ax, int e);

typedef struct {
    int *level;      /* per axis: index into the axis's levels */
    double y;        /* median y of its runs */
    double *parts;   /* per part: median over its runs */
    int nruns;       /* counted runs behind it */
} ns_pred_config;

typedef struct {
    char *name;        /* the stage's name, "y" for a one-part y, "ratio" */
    int is_stage;      /* a stage: it can be the regime */
    int form;          /* chosen form: 0 plain, 1 with interactions; -1 none */
    double *beta;      /* coefficients over the form's columns (owned) */
    double *inv;       /* (X'X)^-1 of the kept columns (owned) */
    int *keep;         /* the form's columns kept (all-zero or constant ones dropped) */
    int ncols;         /* columns of the form */
    int nkept;         /* entries of beta */
    int df;            /* configurations minus parameters */
    int has_fixed;     /* the form has a fixed cost: value = fixed + exp(row . beta) */
    double fixed;      /* that cost (0 without) */
    double s;          /* noise in ln: max(residual s, cross-validated rms) */
    double s_f;        /* the fit's residual s in ln(value - fixed), at least s */
    double loo_rms;    /* cross-validated rms error in ln */
    unsigned char *absent; /* per configuration: zero there by its level (owned) */
    int dropped;       /* left out of the sum: neither positive nor absent by level */
} ns_pred_part;

typedef struct {
    ns_pred_axis *axes;   /* axes that vary (owned) */
    int naxes;            /* entries in axes */
    ns_kvlist fixed;      /* tags every configuration has with one value */
    ns_pred_config *cfgs; /* configurations (owned) */
    int ncfgs;            /* entries in cfgs */
    ns_pred_part *parts;  /* stages, then "ratio" (or the one part "y") (owned) */
    int nparts;           /* entries in parts */
    int summed;           /* y is the sum of the stage parts times the ratio */
    int nstages;          /* the first nstages parts are stages */
    double level;         /* interval level, 0.9 */
    double loo_median;    /* median |y_-i - y_i| / y_i */
    double loo_max;       /* largest */
    int loo_n;            /* configurations it was checked on */
    double *loo_pred;     /* per configuration: its prediction without it (owned) */
    char why[300];        /* why no model could be made */
} ns_pred;

/* A run as the predictor reads it: its tags (borrowed from the run kept by
 * the caller), y and the stage times (per ns_pred_reader's stage names). */
typedef struct {
    ns_strmap stages;  /* stage names seen, in order of first sight */
    double **stage_v;  /* per run: per stage its time (NaN: no report) (owned) */
    int *nst;          /* per run: entries of stage_v[i] */
    double *y;         /* per run: y (NaN: none) */
    int n, cap;        /* runs digested / allocated */
} ns_pred_digest;

void ns_pred_digest_run(ns_pred_digest *d, const ns_run *r, const ns_field *fy,
                        ns_stage_sel *sel);
void ns_pred_digest_free(ns_pred_digest *d);

/* The one reader of a sweep for the predictor (predict, sweep --adaptive,
 * report --predict): runs kept without their trees, each digested as it
 * is read.  Set fy and sel, then hand ns_pred_reader_take to ns_runs_each
 * with the reader as ctx. */
typedef struct {
    ns_run *runs;         /* runs read, trees freed (owned) */
    int n, cap;           /* entries / allocated */
    ns_pred_digest dig;   /* per run: y and stage times (owned) */
    const ns_field *fy;   /* y (borrowed) */
    ns_stage_sel *sel;    /* the stage maps (borrowed) */
} ns_pred_reader;

/* An ns_run_fn (ctx: an ns_pred_reader): digests r, frees its trees and
 * keeps the rest of it. */
void ns_pred_reader_take(ns_run *r, void *ctx);
void ns_pred_reader_free(ns_pred_reader *rd);

/* Build the model from the counted runs runs[0..n) (digests d, index by
 * run) of one mode; y_total: y is the report total (the stages sum to it);
 * ends_check: also the ends check of each numeric axis (two more builds
 * an axis; a caller that predicts only inside the measured range, as
 * sweep --adaptive does, leaves it out).  Returns 0, or -1 with p->why
 * set (too little data). */
int ns_pred_build(ns_pred *p, const ns_run *const *runs, const int *idx, int n,
                  const ns_pred_digest *d, int y_total, double level, int ends_check);
void ns_pred_free(ns_pred *p);

/* ====== Predicting ====== */

typedef struct {
    double value;       /* predicted y */
    double lo, hi;      /* its interval */
    const char *regime; /* the stage predicted to take most time (borrowed), or NULL */
    int measured;       /* a configuration with these values was measured */
    double measured_y;  /* its median y */
    int extrapolation;  /* some numeric axis outside its measured range */
    double *factor;     /* per axis: value / hi above, value / lo below, 1 inside (owned) */
    double *x;          /* per axis: the numeric value (NaN for categorical) (owned) */
    int *level;         /* per axis: categorical level index (-1 numeric) (owned) */
    int cliff;          /* at or past a cliff of the measured points */
} ns_pred_point;

/* The values of `at` for each axis: a numeric axis takes a number (a
 * model name for a derived one), a categorical one a measured level; a
 * fixed tag must have its one value.  Returns 0, or -1 with why (static
 * buffer in p->why). */
int ns_pred_point_at(const ns_pred *p, const ns_kvlist *at, ns_pred_point *pt);
/* Predict at pt's axis values (x, level set). */
void ns_pred_eval(const ns_pred *p, ns_pred_point *pt);
/* The ends check's share of a prediction's interval at factor past axis
 * a's measured range (factor as ns_pred_point's: above 1 past the
 * largest, below 1 past the smallest): the end's error in ln scaled by
 * the prediction's reach over the check's.  0 inside the range; NaN past
 * an end that was not checked. */
double ns_pred_ends_error(const ns_pred *p, int a, double factor);
/* How far past axis a's measured range factor goes, as a fraction of
 * the range (ln factor over ln hi / lo). */
double ns_pred_reach(const ns_pred *p, int a, double factor);
void ns_pred_point_free(ns_pred_point *pt);

/* ====== Cliffs ====== */

typedef struct {
    int axis;         /* the axis */
    double x0, x1;    /* between these measured values */
    double slope;     /* local slope */
    double exponent;  /* the slice's exponent */
    int cfg;          /* a configuration of the slice (its other tags) */
} ns_pred_cliff;

/* Cliffs of y along the numeric axes (slices of 3 or more configurations).
 * Returns how many, the array in *out (free it). */
int ns_pred_cliffs(const ns_pred *p, ns_pred_cliff **out);
/* Is pt at or past one of the cliffs (on the same axis, same other levels
 * where categorical)? */
int ns_pred_past_cliff(const ns_pred *p, const ns_pred_cliff *c, int nc, const ns_pred_point *pt);

#endif
