/* predict_lsq.c -- the least squares of one part of the predictor
 * (predict.h): the columns of its two forms, the fit, and the refits that
 * leave each configuration out.
 *
 * Ordinary least squares through the normal equations, inverted by
 * Gauss-Jordan with partial pivoting: a sweep has tens of configurations
 * and a form a handful of columns, so the inverse is cheap and is wanted
 * anyway (a prediction's leverage).  Numeric columns are centred (ln x
 * minus its mean), which keeps the equations well conditioned.  A column
 * that is constant over the rows of a fit (a level no row has, a level
 * every row has) is dropped from that fit; a refit that drops a column the
 * left-out configuration needs (its level's only configuration) cannot
 * predict it, and the form is not checked, so not used.
 * A form with a fixed cost (predict.h) is fitted by profiling c: the
 * least squares of ln(value - c) on a grid of c, then a golden-section
 * search between the best grid point's neighbours; its checks profile c
 * again without the left-out row.
 * Left out: regularisation, weights, and any search over subsets of axes.
 */
#include "analyse/predict_int.h"
#include "analyse/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ====== Columns ====== */

int ns_pred_ncols(const ns_pred *p, int form) {
    int nnum = 0, ndum = 0;
    for (int a = 0; a < p->naxes; a++) {
        if (p->axes[a].numeric) nnum++;
        else ndum += p->axes[a].nlevels - 1;
    }
    return 1 + nnum + ndum + (form ? ndum * nnum : 0);
}

void ns_pred_row(const ns_pred *p, int form, const double *lx, const int *level, double *row) {
    int k = 0;
    row[k++] = 1;
    for (int a = 0; a < p->naxes; a++)
        if (p->axes[a].numeric) row[k++] = lx[a];
    int dum0 = k;
    for (int a = 0; a < p->naxes; a++)
        if (!p->axes[a].numeric)
            for (int l = 1; l < p->axes[a].nlevels; l++) row[k++] = level[a] == l;
    if (!form) return;
    int ndum = k - dum0;
    for (int d = 0; d < ndum; d++)
        for (int a = 0; a < p->naxes; a++)
            if (p->axes[a].numeric) row[k++] = row[dum0 + d] * lx[a];
}

/* ====== Least squares ====== */

/* Fit y on the rows of X (n x nc) whose use[] is set.  keep[j]: column j
 * enters (not constant over those rows; the intercept always).  beta and
 * inv are over the kept columns (nk and nk x nk).  Returns nk, or -1 when
 * the equations are singular or there are not more rows than columns. */
static int ns__lsq(const double *X, const double *y, int n, int nc, const unsigned char *use,
                   int *keep, double *beta, double *inv, double *rss) {
    int nk = 0, rows = 0;
    for (int j = 0; j < nc; j++) {
        keep[j] = j == 0;
        double first = NAN;
        for (int i = 0; i < n && !keep[j]; i++) {
            if (!use[i]) continue;
            if (isnan(first)) first = X[i * nc + j];
            else if (X[i * nc + j] != first) keep[j] = 1;
        }
        nk += keep[j];
    }
    for (int i = 0; i < n; i++) rows += use[i] != 0;
    if (rows <= nk) return -1;
    int *col = ns_xcalloc((size_t)nk, sizeof *col);
    for (int j = 0, k = 0; j < nc; j++)
        if (keep[j]) col[k++] = j;
    /* [A | I] with A = X'X, and X'y */
    int w = 2 * nk;
    double *m = ns_xcalloc((size_t)(nk * w), sizeof *m), *xty = ns_xcalloc((size_t)nk, sizeof *xty);
    for (int i = 0; i < n; i++) {
        if (!use[i]) continue;
        const double *r = X + (size_t)i * (size_t)nc;
        for (int a = 0; a < nk; a++) {
            xty[a] += r[col[a]] * y[i];
            for (int b = 0; b < nk; b++) m[a * w + b] += r[col[a]] * r[col[b]];
        }
    }
    double scale = 0;
    for (int a = 0; a < nk; a++) {
        m[a * w + nk + a] = 1;
        if (m[a * w + a] > scale) scale = m[a * w + a];
    }
    int ok = 1;
    for (int c = 0; c < nk && ok; c++) {
        int piv = c;
        for (int r = c + 1; r < nk; r++)
            if (fabs(m[r * w + c]) > fabs(m[piv * w + c])) piv = r;
        if (!(fabs(m[piv * w + c]) > 1e-10 * scale)) {
            ok = 0;
            break;
        }
        if (piv != c)
            for (int k = 0; k < w; k++) {
                double t = m[c * w + k];
                m[c * w + k] = m[piv * w + k];
                m[piv * w + k] = t;
            }
        double d = m[c * w + c];
        for (int k = 0; k < w; k++) m[c * w + k] /= d;
        for (int r = 0; r < nk; r++) {
            if (r == c || m[r * w + c] == 0) continue;
            double f = m[r * w + c];
            for (int k = 0; k < w; k++) m[r * w + k] -= f * m[c * w + k];
        }
    }
    if (ok) {
        for (int a = 0; a < nk; a++) {
            beta[a] = 0;
            for (int b = 0; b < nk; b++) {
                inv[a * nk + b] = m[a * w + nk + b];
                beta[a] += inv[a * nk + b] * xty[b];
            }
        }
        *rss = 0;
        for (int i = 0; i < n; i++) {
            if (!use[i]) continue;
            double f = 0;
            for (int a = 0; a < nk; a++) f += X[(size_t)i * (size_t)nc + col[a]] * beta[a];
            *rss += (y[i] - f) * (y[i] - f);
        }
    }
    free(m);
    free(xty);
    free(col);
    return ok ? nk : -1;
}

/* The kept columns' part of a full row, dotted with beta. */
static double ns__dot_kept(const double *row, const int *keep, int nc, const double *beta) {
    double f = 0;
    for (int j = 0, k = 0; j < nc; j++)
        if (keep[j]) f += row[j] * beta[k++];
    return f;
}

/* ====== A fixed cost ====== */

/* ln(c + exp(f)), without overflow for large f. */
static double ns__ln_fixed(double c, double f) {
    return c > 0 ? f + log1p(c * exp(-f)) : f;
}

/* The squared error in ln value of the fit of ln(value - c) on the used
 * rows (beta etc. as ns__lsq's; t: scratch of n).  INFINITY when it cannot
 * be fitted. */
static double ns__fixed_rss(double c, const double *X, const double *lnv, int n, int nc,
                            const unsigned char *use, int *keep, double *beta, double *inv,
                            double *t, double *rss_f, int *nk) {
    for (int i = 0; i < n; i++) t[i] = use[i] ? log(exp(lnv[i]) - c) : 0;
    *nk = ns__lsq(X, t, n, nc, use, keep, beta, inv, rss_f);
    if (*nk < 0) return INFINITY;
    double r = 0;
    for (int i = 0; i < n; i++) {
        if (!use[i]) continue;
        double e = lnv[i] - ns__ln_fixed(c, ns__dot_kept(X + (size_t)i * (size_t)nc, keep, nc, beta));
        r += e * e;
    }
    return isfinite(r) ? r : INFINITY;
}

/* Least squares of value = c + exp(X beta) over the used rows: the fixed
 * cost c (in [0, 0.985 of the smallest value)) whose fit of ln(value - c)
 * leaves the least squared error in ln value -- a grid of 18 values, then
 * a golden-section search between the best one's neighbours -- and that
 * fit.  Returns nk as ns__lsq does; *c, *rss (ln value), *rss_f (ln(value
 * - c)) set. */
static int ns__lsq_fixed(const double *X, const double *lnv, int n, int nc,
                         const unsigned char *use, int *keep, double *beta, double *inv,
                         double *c, double *rss, double *rss_f) {
    enum { NGRID = 18 };
    static const double q[NGRID] = {0,      1 / 16., 2 / 16.,  3 / 16.,  4 / 16.,  5 / 16.,
                                    6 / 16., 7 / 16., 8 / 16.,  9 / 16.,  10 / 16., 11 / 16.,
                                    12 / 16., 13 / 16., 14 / 16., 15 / 16., 0.97,     0.985};
    double m = INFINITY;
    for (int i = 0; i < n; i++)
        if (use[i] && exp(lnv[i]) < m) m = exp(lnv[i]);
    if (!(m > 0) || !isfinite(m)) return -1;
    double *t = ns_xcalloc((size_t)n + 1, sizeof *t), rf;
    int nk, best = -1;
    double r[NGRID];
    for (int k = 0; k < NGRID; k++) {
        r[k] = ns__fixed_rss(q[k] * m, X, lnv, n, nc, use, keep, beta, inv, t, &rf, &nk);
        if (isfinite(r[k]) && (best < 0 || r[k] < r[best])) best = k;
    }
    if (best < 0) {
        free(t);
        return -1;
    }
    /* golden section on [q[best-1], q[best+1]] */
    double a = q[best > 0 ? best - 1 : 0], b = q[best < NGRID - 1 ? best + 1 : best];
    double qb = q[best], rb = r[best];
    const double g = 0.6180339887498949;
    double x1 = b - g * (b - a), x2 = a + g * (b - a);
    double f1 = ns__fixed_rss(x1 * m, X, lnv, n, nc, use, keep, beta, inv, t, &rf, &nk);
    double f2 = ns__fixed_rss(x2 * m, X, lnv, n, nc, use, keep, beta, inv, t, &rf, &nk);
    for (int it = 0; it < 14; it++) {
        if (f1 < rb) { qb = x1; rb = f1; }
        if (f2 < rb) { qb = x2; rb = f2; }
        if (f1 < f2) {
            b = x2; x2 = x1; f2 = f1;
            x1 = b - g * (b - a);
            f1 = ns__fixed_rss(x1 * m, X, lnv, n, nc, use, keep, beta, inv, t, &rf, &nk);
        } else {
            a = x1; x1 = x2; f1 = f2;
            x2 = a + g * (b - a);
            f2 = ns__fixed_rss(x2 * m, X, lnv, n, nc, use, keep, beta, inv, t, &rf, &nk);
        }
    }
    *c = qb * m;
    *rss = ns__fixed_rss(*c, X, lnv, n, nc, use, keep, beta, inv, t, rss_f, &nk);
    free(t);
    return isfinite(*rss) ? nk : -1;
}

/* ====== A part ====== */

typedef struct {
    int nk;          /* kept columns */
    int *keep;       /* per column */
    double *beta;    /* nk */
    double *inv;     /* nk x nk */
    double c;        /* the fixed cost: value = c + exp(row . beta) (0: none) */
    double rss;      /* residual sum of squares in ln value */
    double rss_f;    /* the same in ln(value - c), the scale of the leverage */
    double press;    /* sum of squared leave-one-out errors in ln value */
    double xpress;   /* the same of the ends: each numeric axis's largest and
                        smallest value left out together, predicted by the rest */
    double *loo;     /* per configuration: ln prediction without it */
} ns__form_fit;

static void ns__form_free(ns__form_fit *f) {
    free(f->keep);
    free(f->beta);
    free(f->inv);
    free(f->loo);
    memset(f, 0, sizeof *f);
}

/* The ends of a form (ff->xpress): for each numeric column (1..nnum of
 * X) the rows at its largest value, then those at its smallest, left out
 * together and predicted by a refit of the others -- an extrapolation by
 * one step of the axis, which is what a prediction beyond the sweep is.
 * An end that leaves too few rows, one value of the column, or a column
 * the left-out rows need is not checked. */
static void ns__ends(int fixed, const double *X, int nc, int nnum, const double *lnv, int n,
                     const unsigned char *use, ns__form_fit *ff) {
    unsigned char *u2 = ns_xcalloc((size_t)n + 1, 1);
    int *k2 = ns_xcalloc((size_t)nc, sizeof *k2);
    double *b2 = ns_xcalloc((size_t)nc, sizeof *b2), *i2 = ns_xcalloc((size_t)(nc * nc), sizeof *i2);
    ff->xpress = 0;
    for (int j = 1; j <= nnum && j < nc; j++)
        for (int end = 0; end < 2; end++) {
            double e = end ? INFINITY : -INFINITY;
            for (int i = 0; i < n; i++)
                if (use[i]) {
                    double v = X[(size_t)i * (size_t)nc + j];
                    if (end ? v < e : v > e) e = v;
                }
            double other = NAN;
            int left = 0, two = 0;
            for (int i = 0; i < n; i++) {
                u2[i] = use[i] && X[(size_t)i * (size_t)nc + j] != e;
                if (!u2[i]) continue;
                left++;
                if (isnan(other)) other = X[(size_t)i * (size_t)nc + j];
                else if (X[(size_t)i * (size_t)nc + j] != other) two = 1;
            }
            double c2 = 0, rss2, rf2;
            int nk2 = !two ? -1
                      : fixed ? ns__lsq_fixed(X, lnv, n, nc, u2, k2, b2, i2, &c2, &rss2, &rf2)
                              : ns__lsq(X, lnv, n, nc, u2, k2, b2, i2, &rss2);
            if (nk2 < 0 || left < nk2 + 1) continue;
            int fine = 1;
            for (int c = 0; c < nc && fine; c++) {
                if (k2[c]) continue;
                double kept = NAN;
                for (int i = 0; i < n && fine; i++) {
                    if (!use[i]) continue;
                    double v = X[(size_t)i * (size_t)nc + c];
                    if (isnan(kept)) kept = v;
                    else if (v != kept) fine = 0;
                }
            }
            if (!fine) continue;
            for (int i = 0; i < n; i++) {
                if (!use[i] || u2[i]) continue;
                double d = lnv[i] - ns__ln_fixed(c2, ns__dot_kept(X + (size_t)i * (size_t)nc, k2, nc, b2));
                ff->xpress += d * d;
            }
        }
    free(u2);
    free(k2);
    free(b2);
    free(i2);
}

/* Fit a form's columns X (with a fixed cost when `fixed`) and check it by
 * leaving each used row out, and at its ends.  Returns 0, or -1 when it
 * cannot be fitted or checked. */
static int ns__try_form(int fixed, const double *X, int nc, int nnum, const double *lnv, int n,
                        int nused, ns__form_fit *ff) {
    unsigned char *use = ns_xcalloc((size_t)n + 1, 1);
    for (int i = 0; i < n; i++) use[i] = !isnan(lnv[i]);
    ff->keep = ns_xcalloc((size_t)nc, sizeof *ff->keep);
    ff->beta = ns_xcalloc((size_t)nc, sizeof *ff->beta);
    ff->inv = ns_xcalloc((size_t)(nc * nc), sizeof *ff->inv);
    ff->loo = ns_xcalloc((size_t)n + 1, sizeof *ff->loo);
    int *k2 = ns_xcalloc((size_t)nc, sizeof *k2);
    double *b2 = ns_xcalloc((size_t)nc, sizeof *b2), *i2 = ns_xcalloc((size_t)(nc * nc), sizeof *i2);
    int rc = -1;
    double c2 = 0, rf2;
    ff->c = 0;
    if (fixed) {
        ff->nk = ns__lsq_fixed(X, lnv, n, nc, use, ff->keep, ff->beta, ff->inv, &ff->c, &ff->rss,
                               &ff->rss_f);
    } else {
        ff->nk = ns__lsq(X, lnv, n, nc, use, ff->keep, ff->beta, ff->inv, &ff->rss);
        ff->rss_f = ff->rss;
    }
    if (ff->nk < 0 || nused < ff->nk + 2 + (fixed != 0)) goto out;
    ff->press = 0;
    for (int i = 0; i < n; i++) {
        ff->loo[i] = NAN;
        if (!use[i]) continue;
        use[i] = 0;
        double rss2;
        int nk2 = fixed ? ns__lsq_fixed(X, lnv, n, nc, use, k2, b2, i2, &c2, &rss2, &rf2)
                        : ns__lsq(X, lnv, n, nc, use, k2, b2, i2, &rss2);
        use[i] = 1;
        if (nk2 < 0) goto out;
        /* a column this refit dropped must be one the left-out row does
         * not need: the constant the other rows have */
        for (int j = 0; j < nc; j++) {
            if (k2[j]) continue;
            for (int r = 0; r < n; r++)
                if (use[r] && r != i) {
                    if (X[(size_t)r * (size_t)nc + j] != X[(size_t)i * (size_t)nc + j]) goto out;
                    break;
                }
        }
        ff->loo[i] = ns__ln_fixed(c2, ns__dot_kept(X + (size_t)i * (size_t)nc, k2, nc, b2));
        ff->press += (lnv[i] - ff->loo[i]) * (lnv[i] - ff->loo[i]);
    }
    ns__ends(fixed, X, nc, nnum, lnv, n, use, ff);
    rc = 0;
out:
    free(use);
    free(k2);
    free(b2);
    free(i2);
    return rc;
}

int ns_pred_fit_part(ns_pred *p, ns_pred_part *part, const double *lnv, const double *lx,
                     const int *lv, double *loo_ln) {
    int n = p->ncfgs, nused = 0;
    for (int i = 0; i < n; i++) nused += !isnan(lnv[i]);
    int nnum = 0, ncat = 0;
    for (int a = 0; a < p->naxes; a++) {
        nnum += p->axes[a].numeric != 0;
        ncat += !p->axes[a].numeric;
    }
    ns__form_fit best = {0};
    int best_form = -1, best_fixed = 0;
    /* the candidates, simplest first: plain, with interactions, then each
     * with a fixed cost (numeric axes only: a constant beside factors alone
     * is not identified) */
    for (int cand = 0; cand < 4; cand++) {
        int form = cand & 1, fixed = cand >> 1;
        if ((form && !(nnum && ncat)) || (fixed && !nnum)) continue;
        int nc = ns_pred_ncols(p, form);
        double *X = ns_xcalloc((size_t)(n * nc) + 1, sizeof *X);
        for (int i = 0; i < n; i++)
            ns_pred_row(p, form, lx + (size_t)i * (size_t)p->naxes, lv + (size_t)i * (size_t)p->naxes,
                        X + (size_t)i * (size_t)nc);
        ns__form_fit ff = {0};
        int ok = ns__try_form(fixed, X, nc, nnum, lnv, n, nused, &ff) == 0;
        free(X);
        /* a richer form only when it checks clearly better: ten per cent
         * less squared error left out than the best simpler one; a fixed
         * cost, which matters most beyond the data, also no worse at the
         * ends (the one-out check is mostly interpolation, and an ill-
         * determined c can fit inside and run away outside) */
        if (ok && (best_form < 0 || (ff.press < 0.9 * best.press &&
                                     (!fixed || ff.xpress <= best.xpress)))) {
            ns__form_free(&best);
            best = ff;
            best_form = form;
            best_fixed = fixed;
        } else {
            ns__form_free(&ff);
        }
    }
    if (best_form < 0) {
        snprintf(p->why, sizeof p->why,
                 "%d configuration%s with a value of %s cannot carry a model of the sweep's "
                 "axes and check it (at least the model's parameters plus two are needed)",
                 nused, nused == 1 ? "" : "s", part->name);
        return -1;
    }
    part->form = best_form;
    part->ncols = ns_pred_ncols(p, best_form);
    part->nkept = best.nk;
    part->keep = best.keep;
    part->beta = best.beta;
    part->inv = best.inv;
    part->fixed = best_fixed ? best.c : 0;
    part->has_fixed = best_fixed;
    part->df = nused - best.nk - best_fixed;
    part->loo_rms = sqrt(best.press / nused);
    double s_fit = sqrt(best.rss / part->df);
    part->s = s_fit > part->loo_rms ? s_fit : part->loo_rms;
    part->s_f = sqrt(best.rss_f / part->df);
    if (part->s_f < part->s) part->s_f = part->s;
    for (int i = 0; i < n; i++) loo_ln[i] = best.loo[i];
    free(best.loo);
    return 0;
}

void ns_pred_part_at(const ns_pred *p, const ns_pred_part *pt, const double *lx, const int *level,
                     double *row, double *val, double *var) {
    ns_pred_row(p, pt->form, lx, level, row);
    double f = 0, h = 0;
    for (int c = 0, k = 0; c < pt->ncols; c++) {
        if (!pt->keep[c]) continue;
        f += row[c] * pt->beta[k];
        for (int c2 = 0, k2 = 0; c2 < pt->ncols; c2++) {
            if (!pt->keep[c2]) continue;
            h += row[c] * pt->inv[k * pt->nkept + k2] * row[c2];
            k2++;
        }
        k++;
    }
    /* ln value = ln(c + e^f): the fit's uncertainty (in ln(value - c))
     * reaches ln value scaled by w = e^f / value, the noise as it is */
    double w = 1 / (1 + pt->fixed * exp(-f));
    *val = exp(f) + pt->fixed;
    *var = pt->s * pt->s + w * w * pt->s_f * pt->s_f * h;
}
