/* predict.c -- `npuscope predict`: what a configuration the sweep did not
 * run will cost, with an interval, the regime it implies and the error the
 * model showed on the configurations it did run.
 *
 *   predict [--y FIELD] [--mode M] --at K=V[,K=V]... DIR...   points
 *   predict ... --grid DIR...                                  every cell
 *   predict ... --max-s S --vary AXIS [--at ...] DIR...        the inverse
 *
 * The model is analyse/predict.c's; this file reads the runs (trees freed
 * as each run is digested), picks the counted runs of one cache mode, and
 * prints.  Text is for people; JSON is the contract of docs/formats.md
 * ("npuscope-predict"), numbers with 15 significant digits as every export.
 * A refusal (too little data, a value the sweep cannot speak for) is an
 * error naming why, exit 1, never a number.
 * Left out: predicting from CSV tables (no stages, no runs to check).
 */
#include "builtin/builtin.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "analyse/predict.h"
#include "base/jsonw.h"
#include "capture/sweep_grid.h"

#include <jansson.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { NS__PRED_TEXT, NS__PRED_JSON };
static const char *const ns__pred_formats[] = {"text", "json", NULL};

/* ====== Numbers ====== */

static void ns__g(ns_buf *b, double v) {
    if (!isfinite(v)) {
        ns_buf_puts(b, "null");
        return;
    }
    if (v == 0) v = 0;
    ns_buf_printf(b, "%.15g", v);
}

/* For people: 4 significant digits, more for big numbers. */
static void ns__v(ns_buf *b, double v) {
    if (!isfinite(v)) ns_buf_puts(b, "-");
    else if (fabs(v) >= 1000) ns_buf_printf(b, "%.0f", v);
    else ns_buf_printf(b, "%.4g", v);
}

/* The name of y's value in JSON: total_s, wall_s, peak_rss_mb, or the
 * field as written. */
static const char *ns__ykey(const char *spec) {
    if (!strcmp(spec, "total")) return "total_s";
    if (!strcmp(spec, "wall")) return "wall_s";
    if (!strcmp(spec, "user")) return "user_s";
    if (!strcmp(spec, "sys")) return "sys_s";
    if (!strcmp(spec, "peak")) return "peak_rss_mb";
    return spec;
}

/* ====== One point ====== */

typedef struct {
    ns_pred_point pt;  /* the prediction */
    int vary;          /* --max-s: the axis varied, else -1 */
    double vlo, vhi;   /* --max-s: the largest value under the budget by the
                          interval's upper and lower ends */
    ns_kvlist cell;    /* --grid from the declared grid: the cell's values */
    char *refused;     /* why this cell cannot be predicted (owned), or NULL */
} ns__answer;

static void ns__at_text(ns_buf *b, const ns_pred *p, const ns_pred_point *q) {
    for (int a = 0; a < p->naxes; a++) {
        if (a) ns_buf_puts(b, ", ");
        ns_buf_printf(b, "%s=", p->axes[a].name);
        if (p->axes[a].numeric && !p->axes[a].derived) ns_buf_printf(b, "%.10g", q->x[a]);
        else if (p->axes[a].numeric) {
            int l = 0; /* a measured model by its name, another by its size */
            while (l < p->axes[a].nlevels && p->axes[a].xs[l] != q->x[a]) l++;
            if (l < p->axes[a].nlevels) ns_buf_puts(b, p->axes[a].levels[l]);
            else ns_buf_printf(b, "%.10gb", q->x[a]);
        }
        else ns_buf_puts(b, p->axes[a].levels[q->level[a]]);
    }
}

static void ns__at_json(ns_buf *b, const ns_pred *p, const ns_pred_point *q,
                        const ns_kvlist *given, int vary) {
    ns_buf_putc(b, '{');
    for (int a = 0; a < p->naxes; a++) {
        if (a) ns_buf_putc(b, ',');
        ns_json_str(b, p->axes[a].name);
        ns_buf_putc(b, ':');
        const char *g = given && a != vary ? ns_kv_get(given, p->axes[a].name) : NULL;
        int l = 0; /* a measured value by its text (a model by its name) */
        while (p->axes[a].numeric && !g && l < p->axes[a].nlevels && p->axes[a].xs[l] != q->x[a])
            l++;
        if (p->axes[a].numeric && !g && l < p->axes[a].nlevels) {
            ns_json_str(b, p->axes[a].levels[l]);
        } else if (p->axes[a].numeric && !g) {
            char t[64];
            snprintf(t, sizeof t, "%.15g", q->x[a]);
            ns_json_str(b, t);
        } else {
            ns_json_str(b, g ? g : p->axes[a].levels[q->level[a]]);
        }
    }
    ns_buf_putc(b, '}');
}

/* Bisection in ln x for the largest x of axis a at which f(x) <= budget,
 * f the value (which = 0), the upper end (1) or the lower end (2).
 * NaN when even the smallest tried is over; +inf past the largest. */
static double ns__inverse(const ns_pred *p, ns_pred_point *q, int a, double budget, int which) {
    double lo = log(p->axes[a].lo) - log(1e4), hi = log(p->axes[a].hi) + log(1e4);
    double save = q->x[a];
#define NS__F(lx)                                                                   \
    (q->x[a] = exp(lx), ns_pred_eval(p, q), which == 0 ? q->value : which == 1 ? q->hi : q->lo)
    if (NS__F(lo) > budget) {
        q->x[a] = save;
        return NAN;
    }
    if (NS__F(hi) <= budget) {
        q->x[a] = save;
        return INFINITY;
    }
    for (int i = 0; i < 200 && hi - lo > 1e-12; i++) {
        double m = (lo + hi) / 2;
        if (NS__F(m) <= budget) lo = m;
        else hi = m;
    }
#undef NS__F
    q->x[a] = save;
    return exp(lo);
}

/* ====== Options ====== */

typedef struct {
    ns_kvlist *ats;  /* one list per --at */
    int n;           /* entries */
} ns__ats;

static int ns__opt_at(const ns_option *opt, const char *v, const char **why) {
    ns__ats *a = opt->ctx;
    a->ats = ns_xrealloc(a->ats, sizeof *a->ats * (size_t)(a->n + 1));
    ns_kvlist *l = &a->ats[a->n++];
    memset(l, 0, sizeof *l);
    if (ns_select_parse(l, v) < 0) {
        static char msg[300];
        snprintf(msg, sizeof msg, "K=V[,K=V...], not '%.200s'", v);
        *why = msg;
        return -1;
    }
    return 0;
}

/* ====== Rendering ====== */

static void ns__render_text(ns_buf *b, const ns_pred *p, const char *yspec, const char *mode,
                            int nruns, ns__answer *ans, int nans, const ns_pred_cliff *cl,
                            int ncl, double budget) {
    ns_buf_printf(b, "predict %s from %d configuration%s (%d run%s", yspec, p->ncfgs,
                  p->ncfgs == 1 ? "" : "s", nruns, nruns == 1 ? "" : "s");
    if (mode) ns_buf_printf(b, ", mode %s", mode);
    ns_buf_puts(b, "); axes: ");
    for (int a = 0; a < p->naxes; a++) {
        const ns_pred_axis *ax = &p->axes[a];
        ns_buf_printf(b, "%s%s ", a ? ", " : "", ax->name);
        if (ax->numeric)
            ns_buf_printf(b, "%.10g..%.10g%s", ax->lo, ax->hi, ax->derived ? " (size, B)" : "");
        else
            for (int l = 0; l < ax->nlevels; l++)
                ns_buf_printf(b, "%s%s", l ? "|" : "", ax->levels[l]);
    }
    ns_buf_printf(b, "\nLOO: median error %.0f %%, worst %.0f %% over %d configurations\n",
                  100 * p->loo_median, 100 * p->loo_max, p->loo_n);
    ns_buf_puts(b, p->summed ? "model: per stage a power law of the axes, summed:"
                             : "model: a power law of the axes:");
    for (int j = 0; j < p->nparts; j++) {
        const ns_pred_part *pt = &p->parts[j];
        if (pt->dropped || (!p->summed && pt->is_stage)) continue;
        ns_buf_printf(b, " %s%s", pt->name, pt->form == 1 ? " (exponents per level)" : "");
        if (pt->has_fixed) ns_buf_printf(b, " (plus a fixed %.4g)", pt->fixed);
    }
    ns_buf_putc(b, '\n');
    for (int a = 0; a < p->naxes; a++)
        for (int e = 1; e >= 0; e--) {
            const ns_pred_axis *ax = &p->axes[a];
            if (!isfinite(ax->ext_err[e])) continue;
            ns_buf_printf(b, "ends check: %s=%s predicted without it within %.1f %% (rms of %d "
                             "configuration%s, %.2f of the rest's range past it)\n",
                          ax->name, ns_pred_end_value(ax, e), 100 * ax->ext_err[e],
                          ax->ext_n[e], ax->ext_n[e] == 1 ? "" : "s", ax->ext_reach[e]);
        }
    for (int i = 0; i < ncl; i++)
        ns_buf_printf(b, "cliff: %s from %.10g to %.10g, local slope %.2f against the exponent "
                         "%.2f: a power law does not hold across it\n",
                      p->axes[cl[i].axis].name, cl[i].x0, cl[i].x1, cl[i].slope, cl[i].exponent);
    ns_buf_putc(b, '\n');
    for (int i = 0; i < nans; i++) {
        ns__answer *an = &ans[i];
        const ns_pred_point *q = &an->pt;
        if (an->refused) {
            for (int k = 0; k < an->cell.n; k++)
                ns_buf_printf(b, "%s%s=%s", k ? ", " : "", an->cell.items[k].key,
                              an->cell.items[k].value);
            ns_buf_printf(b, ": not predicted: %s\n", an->refused);
            continue;
        }
        if (an->vary >= 0) {
            const ns_pred_axis *ax = &p->axes[an->vary];
            ns_buf_printf(b, "largest %s under %.10g: ", ax->name, budget);
            if (isnan(q->x[an->vary])) ns_buf_puts(b, "none (the smallest is over)");
            else if (isinf(q->x[an->vary])) ns_buf_puts(b, "beyond 10000x the measured range");
            else ns_buf_printf(b, "%.4g", q->x[an->vary]);
            ns_buf_printf(b, " (%.0f%%: ", 100 * p->level);
            ns__v(b, an->vlo);
            ns_buf_puts(b, " .. ");
            ns__v(b, an->vhi);
            ns_buf_puts(b, ")\n  at ");
            if (!isfinite(q->x[an->vary])) {
                ns_buf_putc(b, '\n');
                continue;
            }
        }
        if (an->cell.n) /* a declared cell: its values as the sweep wrote them */
            for (int k = 0; k < an->cell.n; k++)
                ns_buf_printf(b, "%s%s=%s", k ? ", " : "", an->cell.items[k].key,
                              an->cell.items[k].value);
        else ns__at_text(b, p, q);
        ns_buf_puts(b, ": ");
        ns__v(b, q->value);
        ns_buf_printf(b, " (%.0f%% interval ", 100 * p->level);
        ns__v(b, q->lo);
        ns_buf_puts(b, " .. ");
        ns__v(b, q->hi);
        ns_buf_putc(b, ')');
        if (q->regime) ns_buf_printf(b, ", regime %s", q->regime);
        if (q->measured) {
            ns_buf_puts(b, "; measured ");
            ns__v(b, q->measured_y);
        }
        ns_buf_putc(b, '\n');
        if (q->extrapolation) {
            ns_buf_puts(b, "  extrapolation:");
            for (int a = 0; a < p->naxes; a++) {
                const ns_pred_axis *ax = &p->axes[a];
                int e = q->factor[a] > 1;
                if (q->factor[a] == 1) continue;
                ns_buf_printf(b, " %s %.3gx %s the measured %.10g..%.10g", ax->name,
                              e ? q->factor[a] : 1 / q->factor[a], e ? "above" : "below",
                              ax->lo, ax->hi);
                double r = ns_pred_ends_error(p, a, q->factor[a]);
                if (isfinite(r))
                    ns_buf_printf(b, " (in the interval: the ends check's %.1f %% at %.2f of a "
                                     "range past it, %.1f %% at %.2f)",
                                  100 * ax->ext_err[e], ax->ext_reach[e], 100 * r,
                                  ns_pred_reach(p, a, q->factor[a]));
                else ns_buf_printf(b, " (no ends check: %s)", ns_pred_ends_skip_why(ax->ext_skip[e]));
            }
            ns_buf_putc(b, '\n');
        }
        if (q->cliff) ns_buf_puts(b, "  past a cliff of the measured points: do not trust it\n");
    }
    ns_buf_puts(b, "\nPredictions hold for the machine and environment the sweep was measured on.\n");
}

static void ns__render_json(ns_buf *b, const ns_pred *p, const char *yspec, const char *mode,
                            ns__answer *ans, int nans, const ns_kvlist *given,
                            const ns_pred_cliff *cl, int ncl, double budget) {
    const char *key = ns__ykey(yspec);
    ns_buf_puts(b, "{\"format\":\"npuscope-predict\",\"version\":1,\"y\":");
    ns_json_str(b, yspec);
    ns_buf_puts(b, ",\"mode\":");
    if (mode) ns_json_str(b, mode);
    else ns_buf_puts(b, "null");
    ns_buf_puts(b, ",\"loo\":{\"median_rel_error\":");
    ns__g(b, p->loo_median);
    ns_buf_puts(b, ",\"max_rel_error\":");
    ns__g(b, p->loo_max);
    ns_buf_printf(b, ",\"n\":%d,\"configurations\":[", p->loo_n);
    for (int c = 0, k = 0; c < p->ncfgs; c++) {
        if (!isfinite(p->loo_pred[c])) continue;
        ns_buf_puts(b, k++ ? ",{\"at\":{" : "{\"at\":{");
        for (int a = 0; a < p->naxes; a++) {
            if (a) ns_buf_putc(b, ',');
            ns_json_str(b, p->axes[a].name);
            ns_buf_putc(b, ':');
            ns_json_str(b, p->axes[a].levels[p->cfgs[c].level[a]]);
        }
        ns_buf_puts(b, "},\"measured\":");
        ns__g(b, p->cfgs[c].y);
        ns_buf_puts(b, ",\"predicted\":");
        ns__g(b, p->loo_pred[c]);
        ns_buf_putc(b, '}');
    }
    ns_buf_puts(b, "]},\"axes\":[");
    for (int a = 0; a < p->naxes; a++) {
        const ns_pred_axis *ax = &p->axes[a];
        ns_buf_puts(b, a ? ",{\"name\":" : "{\"name\":");
        ns_json_str(b, ax->name);
        ns_buf_printf(b, ",\"kind\":\"%s\",\"values\":[",
                      ax->derived ? "size_b" : ax->numeric ? "numeric" : "categorical");
        for (int l = 0; l < ax->nlevels; l++) {
            if (l) ns_buf_putc(b, ',');
            ns_json_str(b, ax->levels[l]);
        }
        ns_buf_puts(b, "]}");
    }
    ns_buf_puts(b, "],\"parts\":[");
    for (int j = 0, k = 0; j < p->nparts; j++) {
        const ns_pred_part *pt = &p->parts[j];
        if (pt->dropped) continue;
        ns_buf_puts(b, k++ ? ",{\"name\":" : "{\"name\":");
        ns_json_str(b, pt->name);
        ns_buf_printf(b, ",\"stage\":%s,\"in_y\":%s,\"per_level_exponents\":%s,\"df\":%d,"
                         "\"loo_rms_ln\":",
                      pt->is_stage ? "true" : "false",
                      (!pt->is_stage || p->summed) ? "true" : "false",
                      pt->form == 1 ? "true" : "false", pt->df);
        ns__g(b, pt->loo_rms);
        ns_buf_puts(b, ",\"fixed_cost\":");
        ns__g(b, pt->has_fixed ? pt->fixed : NAN);
        ns_buf_putc(b, '}');
    }
    ns_buf_puts(b, "],\"extrapolation_checks\":[");
    for (int a = 0, k = 0; a < p->naxes; a++)
        for (int e = 1; e >= 0; e--) {
            const ns_pred_axis *ax = &p->axes[a];
            if (!isfinite(ax->ext_err[e])) continue;
            ns_buf_puts(b, k++ ? ",{\"axis\":" : "{\"axis\":");
            ns_json_str(b, ax->name);
            ns_buf_printf(b, ",\"end\":\"%s\",\"value\":", e ? "above" : "below");
            ns_json_str(b, ns_pred_end_value(ax, e));
            ns_buf_puts(b, ",\"reach\":");
            ns__g(b, ax->ext_reach[e]);
            ns_buf_printf(b, ",\"n\":%d,\"rms_ln_error\":", ax->ext_n[e]);
            ns__g(b, ax->ext_err[e]);
            ns_buf_putc(b, '}');
        }
    ns_buf_puts(b, "],\"cliffs\":[");
    for (int i = 0; i < ncl; i++) {
        ns_buf_puts(b, i ? ",{\"axis\":" : "{\"axis\":");
        ns_json_str(b, p->axes[cl[i].axis].name);
        ns_buf_puts(b, ",\"from\":");
        ns__g(b, cl[i].x0);
        ns_buf_puts(b, ",\"to\":");
        ns__g(b, cl[i].x1);
        ns_buf_puts(b, ",\"slope\":");
        ns__g(b, cl[i].slope);
        ns_buf_puts(b, ",\"exponent\":");
        ns__g(b, cl[i].exponent);
        ns_buf_putc(b, '}');
    }
    ns_buf_puts(b, "],\"environment\":\"the machine and environment the sweep was measured on\"");
    if (isfinite(budget)) {
        ns_buf_puts(b, ",\"budget\":");
        ns__g(b, budget);
    }
    ns_buf_puts(b, ",\"predictions\":[");
    for (int i = 0; i < nans; i++) {
        const ns__answer *an = &ans[i];
        const ns_pred_point *q = &an->pt;
        ns_buf_puts(b, i ? ",\n{\"at\":" : "\n{\"at\":");
        if (an->refused) {
            ns_buf_putc(b, '{');
            for (int k = 0; k < an->cell.n; k++) {
                if (k) ns_buf_putc(b, ',');
                ns_json_str(b, an->cell.items[k].key);
                ns_buf_putc(b, ':');
                ns_json_str(b, an->cell.items[k].value);
            }
            ns_buf_puts(b, "},");
            ns_json_str(b, key);
            ns_buf_puts(b, ":null,\"value\":null,\"interval\":null,\"level\":");
            ns__g(b, p->level);
            ns_buf_puts(b, ",\"regime\":null,\"extrapolation\":null,\"measured\":false,"
                           "\"refused\":");
            ns_json_str(b, an->refused);
            ns_buf_putc(b, '}');
            continue;
        }
        ns__at_json(b, p, q, an->cell.n ? &an->cell : given ? &given[i] : NULL, an->vary);
        ns_buf_putc(b, ',');
        ns_json_str(b, key);
        ns_buf_putc(b, ':');
        ns__g(b, q->value);
        ns_buf_puts(b, ",\"value\":");
        ns__g(b, q->value);
        ns_buf_puts(b, ",\"interval\":[");
        ns__g(b, q->lo);
        ns_buf_putc(b, ',');
        ns__g(b, q->hi);
        ns_buf_puts(b, "],\"level\":");
        ns__g(b, p->level);
        ns_buf_puts(b, ",\"regime\":");
        if (q->regime) ns_json_str(b, q->regime);
        else ns_buf_puts(b, "null");
        ns_buf_printf(b, ",\"extrapolation\":%s,\"extrapolation_by\":{",
                      q->extrapolation ? "true" : "false");
        for (int a = 0, k = 0; a < p->naxes; a++)
            if (q->factor[a] != 1) {
                if (k++) ns_buf_putc(b, ',');
                ns_json_str(b, p->axes[a].name);
                ns_buf_putc(b, ':');
                ns__g(b, q->factor[a]);
            }
        ns_buf_printf(b, "},\"cliff\":%s,\"measured\":%s", q->cliff ? "true" : "false",
                      q->measured ? "true" : "false");
        if (q->measured) {
            ns_buf_puts(b, ",\"measured_value\":");
            ns__g(b, q->measured_y);
        }
        if (an->vary >= 0) {
            ns_buf_puts(b, ",\"max\":{\"axis\":");
            ns_json_str(b, p->axes[an->vary].name);
            ns_buf_puts(b, ",\"value\":");
            ns__g(b, q->x[an->vary]);
            ns_buf_puts(b, ",\"interval\":[");
            ns__g(b, an->vlo);
            ns_buf_putc(b, ',');
            ns__g(b, an->vhi);
            ns_buf_puts(b, "]}");
        }
        ns_buf_putc(b, '}');
    }
    ns_buf_puts(b, "\n]}\n");
}

/* ====== The command ====== */

/* Every cell of the measured grid: the product of each axis's values. */
static int ns__grid(const ns_pred *p, ns__answer **out) {
    int n = 1;
    for (int a = 0; a < p->naxes; a++) n *= p->axes[a].nlevels;
    *out = ns_xcalloc((size_t)n + 1, sizeof **out);
    for (int i = 0; i < n; i++) {
        ns__answer *an = &(*out)[i];
        an->vary = -1;
        ns_pred_point *q = &an->pt;
        q->factor = ns_xcalloc((size_t)p->naxes + 1, sizeof *q->factor);
        q->x = ns_xcalloc((size_t)p->naxes + 1, sizeof *q->x);
        q->level = ns_xcalloc((size_t)p->naxes + 1, sizeof *q->level);
        int r = i;
        for (int a = p->naxes - 1; a >= 0; a--) {
            int l = r % p->axes[a].nlevels;
            r /= p->axes[a].nlevels;
            q->level[a] = p->axes[a].numeric ? -1 : l;
            q->x[a] = p->axes[a].numeric ? p->axes[a].xs[l] : NAN;
        }
    }
    return n;
}

/* The grid the sweep was asked for (capture/sweep_grid.h), when the one
 * INPUT holds it: every cell, the ones the model cannot speak for kept
 * with the reason.  Returns the number of cells, or -1 (no such file). */
static int ns__grid_declared(const char *dir, ns_pred *p, ns__answer **out) {
    ns_buf path = {0};
    ns_buf_printf(&path, "%s/%s", dir, NS_GRID_FILE);
    json_error_t err;
    json_t *doc = json_load_file(path.data, 0, &err), *axes = json_object_get(doc, "axes");
    int n = -1;
    size_t na = json_array_size(axes), total = 1;
    for (size_t a = 0; a < na; a++) {
        json_t *vals = json_object_get(json_array_get(axes, a), "values");
        if (!json_is_string(json_object_get(json_array_get(axes, a), "name")) ||
            !json_array_size(vals) || total > 100000)
            goto out;
        total *= json_array_size(vals);
    }
    if (!na) goto out;
    *out = ns_xcalloc(total + 1, sizeof **out);
    for (size_t i = 0; i < total; i++) {
        ns__answer *an = &(*out)[i];
        an->vary = -1;
        size_t r = i;
        for (size_t a = na; a-- > 0;) {
            json_t *ax = json_array_get(axes, a), *vals = json_object_get(ax, "values");
            const char *v = json_string_value(json_array_get(vals, r % json_array_size(vals)));
            r /= json_array_size(vals);
            ns_kv_set(&an->cell, json_string_value(json_object_get(ax, "name")), v ? v : "");
        }
        /* in the order the sweep declared them */
        ns_kvlist ordered = {0};
        for (int k = an->cell.n - 1; k >= 0; k--)
            ns_kv_set(&ordered, an->cell.items[k].key, an->cell.items[k].value);
        ns_kv_free(&an->cell);
        an->cell = ordered;
        if (ns_pred_point_at(p, &an->cell, &an->pt) < 0) an->refused = ns_strdup(p->why);
    }
    n = (int)total;
out:
    json_decref(doc);
    ns_buf_free(&path);
    return n;
}

int ns_cmd_predict(int argc, char **argv) {
    int fmt = NS__PRED_TEXT, quiet = 0, grid = 0, rc = NS_EXIT_OK;
    const char *yspec = "total", *mode = NULL, *stage_spec = NULL, *vary = NULL;
    double budget = NAN, level = 0.9;
    ns__ats ats = {0};
    char **inputs = ns_xcalloc((size_t)argc + 1, sizeof *inputs);
    int ninputs = 0, nans = 0, ncl = 0;
    ns_stage_sel stages = {0};
    ns_pred_reader rd = {0};
    ns_pred p = {0};
    ns__answer *ans = NULL;
    ns_pred_cliff *cl = NULL;
    ns_buf b = {0};
    int *idx = NULL;
    const ns_run **runs = NULL;
    const ns_option own[] = {
        NS_OPT_STRING(0, "y", &yspec, "FIELD"),
        NS_OPT_STRING(0, "mode", &mode, "MODE"),
        NS_OPT_CALL(0, "at", "K=V[,K=V...]", ns__opt_at, &ats),
        NS_OPT_FLAG(0, "grid", &grid),
        NS_OPT_DOUBLE(0, "max-s", &budget, "S", 0),
        NS_OPT_STRING(0, "vary", &vary, "AXIS"),
        NS_OPT_DOUBLE(0, "level", &level, "P", 0),
        NS_OPT_STAGES(&stage_spec),
        NS_OPT_CHOICE(0, "format", &fmt, "F", ns__pred_formats),
        NS_OPT_QUIET(&quiet),
        NS_OPT_END(),
    };
    const ns_option *const tabs[] = {own, NULL};
    switch (ns_options_parse("predict", argc, argv, tabs, inputs, &ninputs)) {
    case NS_OPTIONS_HELP: goto out;
    case NS_OPTIONS_ERROR: rc = NS_EXIT_USAGE; goto out;
    default: break;
    }
    ns_diag_quiet(quiet);
    if (!(level > 0 && level < 1)) {
        rc = ns_options_usage("predict", "--level: a probability between 0 and 1, e.g. 0.9");
        goto out;
    }
    if (isfinite(budget) != (vary != NULL)) {
        rc = ns_options_usage("predict", "--max-s and --vary go together");
        goto out;
    }
    if (!ats.n && !grid && !vary) {
        rc = ns_options_usage("predict", "what to predict: --at K=V[,K=V...], --grid, or "
                                         "--max-s S --vary AXIS");
        goto out;
    }
    if ((grid && (ats.n || vary)) || (vary && ats.n > 1)) {
        rc = ns_options_usage("predict", "--grid stands alone; --max-s/--vary takes at most one "
                                         "--at (the other axes' values)");
        goto out;
    }
    if (ninputs == 0) {
        rc = ns_options_usage("predict", "no INPUT given (run folders of a sweep)");
        goto out;
    }
    ns_field fy;
    const char *why;
    if (ns_field_parse(yspec, 0, &fy, &why) < 0) {
        rc = ns_options_usage("predict", "--y '%s': %s", yspec, why);
        goto out;
    }
    if (ns_stage_sel_init(&stages, stage_spec) < 0) {
        rc = NS_EXIT_USAGE;
        goto out;
    }
    fy.stages = &stages;
    rd.fy = &fy;
    rd.sel = &stages;
    for (int i = 0; i < ninputs; i++)
        if (ns_runs_each(inputs[i], ns_pred_reader_take, &rd) < 0) rc = NS_EXIT_USAGE;
    if (rc) goto out;
    /* the counted runs of one mode */
    idx = ns_xcalloc((size_t)rd.n + 1, sizeof *idx);
    runs = ns_xcalloc((size_t)rd.n + 1, sizeof *runs);
    int n = 0;
    const char *seen = NULL;
    for (int i = 0; i < rd.n; i++) {
        const ns_run *r = &rd.runs[i];
        runs[i] = r;
        if (!ns_run_counted(r) || (mode && strcmp(r->mode ? r->mode : "", mode) != 0)) continue;
        if (!mode && seen && strcmp(seen, r->mode ? r->mode : "") != 0) {
            ns_error("the runs have more than one cache mode (%s, %s): choose one with --mode",
                     seen, r->mode ? r->mode : "");
            rc = NS_EXIT_USAGE;
            goto out;
        }
        seen = r->mode ? r->mode : "";
        idx[n++] = i;
    }
    if (!mode && seen && *seen) mode = seen;
    if (n == 0) {
        ns_error("no counted runs%s%s in %s", mode ? " of mode " : "", mode ? mode : "",
                 inputs[0]);
        rc = NS_EXIT_NOTHING;
        goto out;
    }
    if (ns_pred_build(&p, runs, idx, n, &rd.dig, fy.kind == NS_FIELD_TOTAL, level, 1) < 0) {
        ns_error("cannot predict %s: %s", yspec, p.why);
        rc = NS_EXIT_NOTHING;
        goto out;
    }
    ncl = ns_pred_cliffs(&p, &cl);
    int vary_axis = -1;
    if (vary) {
        for (int a = 0; a < p.naxes; a++)
            if (!strcmp(p.axes[a].name, vary)) vary_axis = a;
        if (vary_axis < 0 || !p.axes[vary_axis].numeric) {
            ns_error("--vary %s: not a numeric axis of the sweep", vary);
            rc = NS_EXIT_USAGE;
            goto out;
        }
    }
    if (grid) {
        nans = ninputs == 1 ? ns__grid_declared(inputs[0], &p, &ans) : -1;
        if (nans < 0) nans = ns__grid(&p, &ans);
    } else {
        int want = vary ? 1 : ats.n;
        ans = ns_xcalloc((size_t)want + 1, sizeof *ans);
        for (int i = 0; i < want; i++) {
            ns_kvlist at = {0};
            if (ats.n) {
                for (int k = 0; k < ats.ats[i].n; k++)
                    ns_kv_set(&at, ats.ats[i].items[k].key, ats.ats[i].items[k].value);
            }
            if (vary) {
                char t[64];
                snprintf(t, sizeof t, "%.17g", p.axes[vary_axis].hi);
                if (!ns_kv_get(&at, vary)) ns_kv_set(&at, vary, t);
            }
            ans[i].vary = vary_axis;
            int bad = ns_pred_point_at(&p, &at, &ans[i].pt);
            ns_kv_free(&at);
            nans++;
            if (bad) {
                ns_error("cannot predict at %s: %s", ats.n ? "the --at point" : "--vary", p.why);
                rc = NS_EXIT_NOTHING;
                goto out;
            }
        }
    }
    for (int i = 0; i < nans; i++) {
        ns_pred_point *q = &ans[i].pt;
        if (ans[i].refused) continue;
        if (ans[i].vary >= 0) {
            int a = ans[i].vary;
            ans[i].vlo = ns__inverse(&p, q, a, budget, 1);
            ans[i].vhi = ns__inverse(&p, q, a, budget, 2);
            q->x[a] = ns__inverse(&p, q, a, budget, 0);
            if (!isfinite(q->x[a])) {
                double keep = q->x[a];
                q->x[a] = p.axes[a].hi;
                ns_pred_eval(&p, q);
                q->x[a] = keep;
                continue;
            }
        }
        ns_pred_eval(&p, q);
        q->cliff = ns_pred_past_cliff(&p, cl, ncl, q);
    }
    if (fmt == NS__PRED_TEXT)
        ns__render_text(&b, &p, yspec, mode, n, ans, nans, cl, ncl, budget);
    else ns__render_json(&b, &p, yspec, mode, ans, nans, grid ? NULL : ats.ats, cl, ncl, budget);
    if (ns_buf_flush(&b, stdout) || fflush(stdout)) {
        ns_error("error writing the output");
        rc = NS_EXIT_USAGE;
    }
    ns_diag_summary();
out:
    for (int i = 0; i < nans; i++) {
        ns_pred_point_free(&ans[i].pt);
        ns_kv_free(&ans[i].cell);
        free(ans[i].refused);
    }
    free(ans);
    free(cl);
    ns_pred_free(&p);
    for (int i = 0; i < ats.n; i++) ns_kv_free(&ats.ats[i]);
    free(ats.ats);
    ns_pred_reader_free(&rd);
    ns_stage_sel_free(&stages);
    free(idx);
    free(runs);
    free(inputs);
    ns_buf_free(&b);
    return rc;
}
