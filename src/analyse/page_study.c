/* page_study.c -- the data behind the study's figures on the report page
 * (page.h says what each holds; page_int.h lists the module's files): the
 * hand-off, why it is costly, the family fingerprint, precision against
 * size and the memory-scheduling share against the window.  Moved out of
 * page_figures.c as it was (only the shared helpers' names changed).
 *
 * The study's figures start from analyse/study.c (its cells, and its fit
 * of a dominant pass against a workload fact, a point per report) and add
 * what each figure needs: a cell's compile time (summed report totals),
 * size and family (the derived tags), the window and precision axes; the
 * hand-off bins the cells by time (n / 8 bins, 3 to 8, each stage's median
 * share per bin; the leader of each bin in turn is the hand-off order).
 * When the data cannot carry a figure, its reason goes to s->absent.
 *
 * This file must not print, format numbers for people, or call back into
 * page_figures.c (the calls go page_figures.c -> here); it calls only
 * page_tags.c.
 */
#include "analyse/page_int.h"
#include "base/strmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== The study's figures ====== */

/* Names of the window axis, in order of preference. */
static const char *const ns__window_names[] = {"window", "seq_len", "context", "prompt", "ctx",
                                               "resolution"};

static int ns__cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of v[0..n) (sorted in place); NaN for none. */
static double ns__median_of(double *v, int n) {
    if (n <= 0) return NAN;
    qsort(v, (size_t)n, sizeof *v, ns__cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A cell's time: the median over its counted runs of the summed report
 * totals; the row's wall median when no run has one. */
static double ns__cell_time(const ns_page_model *m, const ns_table_row *row) {
    ns_field total;
    const char *why;
    ns_field_parse("total", 0, &total, &why);
    double *v = ns_xcalloc((size_t)row->cfg.nruns + 1, sizeof *v);
    int n = 0;
    for (int i = 0; i < row->cfg.nruns; i++) {
        const ns_run *r = &m->in->set->runs[row->cfg.runs[i]];
        if (!ns_run_counted(r)) continue;
        /* a run read without its trees: the total kept of them */
        double y = m->in->sums ? m->in->sums[row->cfg.runs[i]].total : ns_run_value(r, &total);
        if (isfinite(y) && y > 0) v[n++] = y;
    }
    double t = n ? ns__median_of(v, n) : row->median;
    free(v);
    return t;
}

/* The first counted run of a row (its tags, derived ones too), or NULL. */
static const ns_run *ns__row_run(const ns_page_model *m, const ns_table_row *row) {
    for (int i = 0; i < row->cfg.nruns; i++)
        if (ns_run_counted(&m->in->set->runs[row->cfg.runs[i]])) return &m->in->set->runs[row->cfg.runs[i]];
    return row->cfg.nruns ? &m->in->set->runs[row->cfg.runs[0]] : NULL;
}

/* Do rows a and b share every tag but `skip`? */
static int ns__same_but(const ns_table *t, const ns_table_row *a, const ns_table_row *b,
                        const char *skip) {
    for (int k = 0; k < t->nkeys; k++) {
        if (skip && !strcmp(t->keys[k], skip)) continue;
        const char *x = ns_table_tag(a, t->keys[k]), *y = ns_table_tag(b, t->keys[k]);
        if ((x == NULL) != (y == NULL) || (x && strcmp(x, y) != 0)) return 0;
    }
    return 1;
}

static int ns__index_of(const char *const *v, int n, const char *x) {
    for (int i = 0; x && i < n; i++)
        if (!strcmp(v[i], x)) return i;
    return -1;
}

/* Add a point to lines l. */
static void ns__lines_add(ns_page_lines *l, int panel, int series, double x, double y, int n) {
    if (!isfinite(x) || !isfinite(y)) return;
    l->pts = ns_xrealloc(l->pts, sizeof *l->pts * (size_t)(l->npts + 1));
    l->pts[l->npts++] = (ns_page_fpt){panel, series, x, y, n, 0};
}

/* The cells, their families, models by size, precisions (baseline first). */
static void ns__study_cells(ns_page_model *m, ns_page_study *s) {
    const ns_study *st = &s->study;
    s->cells = ns_xcalloc((size_t)st->ncells + 1, sizeof *s->cells);
    s->models = ns_xcalloc((size_t)st->ncells + 1, sizeof *s->models);
    s->precs = ns_xcalloc((size_t)st->ncells + 1, sizeof *s->precs);
    double *msize = ns_xcalloc((size_t)st->ncells + 1, sizeof *msize);
    for (int i = 0; i < st->ncells; i++) {
        ns_page_cell *c = &s->cells[s->ncells++];
        c->row = st->cells[i].row;
        c->time = ns__cell_time(m, c->row);
        c->size_b = NAN;
        c->family = c->model = -1;
        c->window = s->wk ? ns_table_tag(c->row, s->wk) : NULL;
        c->prec = s->pk ? ns_table_tag(c->row, s->pk) : NULL;
        const ns_run *r = ns__row_run(m, c->row);
        char buf[128];
        const char *v = r ? ns_run_tag(r, "size_b", buf, sizeof buf) : NULL;
        if (v) ns_text_number(v, &c->size_b);
        const char *fam = r ? ns_run_tag(r, "family", buf, sizeof buf) : NULL;
        if (fam) {
            int k = 0;
            while (k < s->nfam && strcmp(s->families[k], fam)) k++;
            if (k == s->nfam) {
                s->families = ns_xrealloc(s->families, sizeof *s->families * (size_t)(s->nfam + 1));
                s->families[s->nfam++] = ns_strdup(fam);
            }
        }
        const char *mo = ns_table_tag(c->row, "model");
        if (mo && ns__index_of(s->models, s->nmodels, mo) < 0) {
            msize[s->nmodels] = c->size_b;
            s->models[s->nmodels++] = mo;
        }
        if (c->prec && ns__index_of(s->precs, s->nprecs, c->prec) < 0) s->precs[s->nprecs++] = c->prec;
    }
    /* families by name; models by size (no size last), then name; the
       baseline precision first, the others by name */
    for (int i = 1; i < s->nfam; i++)
        for (int j = i; j > 0 && strcmp(s->families[j], s->families[j - 1]) < 0; j--) {
            char *x = s->families[j];
            s->families[j] = s->families[j - 1];
            s->families[j - 1] = x;
        }
    for (int i = 1; i < s->nmodels; i++)
        for (int j = i; j > 0; j--) {
            double a = msize[j], b = msize[j - 1];
            int before = isfinite(a) && (!isfinite(b) || a < b);
            if (!before && (isfinite(a) != isfinite(b) || a != b || ns_text_cmp(s->models[j], s->models[j - 1]) >= 0))
                break;
            const char *x = s->models[j];
            s->models[j] = s->models[j - 1];
            s->models[j - 1] = x;
            double d = msize[j];
            msize[j] = msize[j - 1];
            msize[j - 1] = d;
        }
    ns__page_sort_values(s->precs, s->nprecs);
    int b = ns__index_of(s->precs, s->nprecs, s->base);
    for (; b > 0; b--) {
        const char *x = s->precs[b];
        s->precs[b] = s->precs[b - 1];
        s->precs[b - 1] = x;
    }
    free(msize);
    for (int i = 0; i < s->ncells; i++) {
        ns_page_cell *c = &s->cells[i];
        c->model = ns__index_of(s->models, s->nmodels, ns_table_tag(c->row, "model"));
        const ns_run *r = ns__row_run(m, c->row);
        char buf[128];
        const char *fam = r ? ns_run_tag(r, "family", buf, sizeof buf) : NULL;
        for (int k = 0; fam && k < s->nfam; k++)
            if (!strcmp(s->families[k], fam)) c->family = k;
    }
}

/* The leaders of cells ord[0..n) (sorted by time) in nb bins of
 * neighbours: the stage with the largest median share in each bin, in
 * turn, repeats merged, into lead[]; returns how many. */
static int ns__bin_leaders(const ns_page_study *s, size_t nst, const int *ord, int n, int nb,
                           int *lead) {
    double *v = ns_xcalloc((size_t)n + 1, sizeof *v);
    int nl = 0;
    for (int b = 0; b < nb; b++) {
        int a = b * n / nb, z = (b + 1) * n / nb, best = -1;
        double bv = 0;
        for (size_t st = 0; st < nst; st++) {
            int k = 0;
            for (int i = a; i < z; i++) {
                double sh = s->cells[ord[i]].row->shares[st];
                if (isfinite(sh)) v[k++] = sh;
            }
            double med = ns__median_of(v, k);
            if (isfinite(med) && (best < 0 || med > bv)) best = (int)st, bv = med;
        }
        if (best >= 0 && (!nl || lead[nl - 1] != best)) lead[nl++] = best;
    }
    free(v);
    return nl;
}

/* Per family: its own leaders (bins of 4 of its cells, 3 to 8 bins, when
 * it has 6 cells or more), and whether they come in the sweep's order
 * (a subsequence of it: a family may skip a stage that never leads it). */
static void ns__handoff_families(ns_page_study *s, size_t nst, const int *ord, int n) {
    s->fam_lead = ns_xcalloc((size_t)(s->nfam + 1) * 8, sizeof *s->fam_lead);
    s->fam_nlead = ns_xcalloc((size_t)s->nfam + 1, sizeof *s->fam_nlead);
    int *sub = ns_xcalloc((size_t)n + 1, sizeof *sub);
    for (int f = 0; f < s->nfam; f++) {
        int k = 0;
        for (int i = 0; i < n; i++)
            if (s->cells[ord[i]].family == f) sub[k++] = ord[i];
        if (k < 6) continue;
        int nb = k / 4 < 3 ? 3 : k / 4 > 8 ? 8 : k / 4;
        int *l = &s->fam_lead[f * 8];
        s->fam_nlead[f] = ns__bin_leaders(s, nst, sub, k, nb, l);
        s->fam_checked++;
        int j = 0; /* a subsequence of the sweep's leaders? */
        for (int i = 0; i < s->nlead && j < s->fam_nlead[f]; i++) j += s->lead[i] == l[j];
        s->fam_same += j == s->fam_nlead[f];
    }
    free(sub);
}

/* The hand-off: cells in order of time, in bins of neighbours; per bin
 * each stage's median share; the leaders in turn. */
typedef struct {
    double time; /* a cell's compile time */
    int cell;    /* its index */
} ns__by_time;

static int ns__cmp_by_time(const void *pa, const void *pb) {
    const ns__by_time *a = pa, *b = pb;
    if (a->time != b->time) return a->time < b->time ? -1 : 1;
    return (a->cell > b->cell) - (a->cell < b->cell);
}

static void ns__handoff(ns_page_model *m, ns_page_study *s) {
    size_t nst = m->table.stages.count;
    int *ord = ns_xcalloc((size_t)s->ncells + 1, sizeof *ord), n = 0;
    for (int i = 0; i < s->ncells; i++)
        if (isfinite(s->cells[i].time) && s->cells[i].time > 0) ord[n++] = i;
    /* by time, ties in cell order (a stable sort; insertion was quadratic) */
    ns__by_time *bt = ns_xcalloc((size_t)n + 1, sizeof *bt);
    for (int i = 0; i < n; i++) bt[i] = (ns__by_time){s->cells[ord[i]].time, ord[i]};
    qsort(bt, (size_t)n, sizeof *bt, ns__cmp_by_time);
    for (int i = 0; i < n; i++) ord[i] = bt[i].cell;
    free(bt);
    if (n < 6 || !nst || !(s->cells[ord[n - 1]].time > s->cells[ord[0]].time)) {
        s->absent[1] = "needs 6 configurations or more with a compile time and stage shares";
        free(ord);
        return;
    }
    int nb = n / 8;
    if (nb < 3) nb = 3;
    if (nb > 8) nb = 8;
    s->nbins = nb;
    s->bin_x = ns_xcalloc((size_t)nb, sizeof *s->bin_x);
    s->bin_lo = ns_xcalloc((size_t)nb, sizeof *s->bin_lo);
    s->bin_hi = ns_xcalloc((size_t)nb, sizeof *s->bin_hi);
    s->bin_share = ns_xcalloc((size_t)nb * nst, sizeof *s->bin_share);
    s->lead = ns_xcalloc((size_t)nb, sizeof *s->lead);
    s->lead_to = ns_xcalloc((size_t)nb, sizeof *s->lead_to);
    double *v = ns_xcalloc((size_t)n + 1, sizeof *v);
    for (int b = 0; b < nb; b++) {
        int a = b * n / nb, z = (b + 1) * n / nb, k = 0;
        for (int i = a; i < z; i++) v[k++] = s->cells[ord[i]].time;
        s->bin_x[b] = ns__median_of(v, k);
        s->bin_lo[b] = s->cells[ord[a]].time;
        s->bin_hi[b] = s->cells[ord[z - 1]].time;
        int best = -1;
        for (size_t st = 0; st < nst; st++) {
            k = 0;
            for (int i = a; i < z; i++) {
                double sh = s->cells[ord[i]].row->shares[st];
                if (isfinite(sh)) v[k++] = sh;
            }
            double med = ns__median_of(v, k);
            s->bin_share[(size_t)b * nst + st] = med;
            if (isfinite(med) && (best < 0 || med > s->bin_share[(size_t)b * nst + (size_t)best])) best = (int)st;
        }
        if (best < 0) continue;
        if (s->nlead && s->lead[s->nlead - 1] == best) continue;
        if (s->nlead) s->lead_to[s->nlead - 1] = sqrt(s->bin_hi[b - 1] * s->bin_lo[b]);
        s->lead[s->nlead] = best;
        s->lead_to[s->nlead++] = NAN;
    }
    free(v);
    ns__handoff_families(s, nst, ord, n);
    free(ord);
}

/* Why it is costly: the study's per-report fit of a dominant pass. */
static void ns__why(ns_page_study *s) {
    for (int i = 0; i < s->study.nfits && !s->why; i++) {
        const ns_study_fit *f = &s->study.fits[i];
        if (!f->per_report || strncmp(f->y, "pass:", 5) || strncmp(f->x, "fact:", 5)) continue;
        s->why = f;
        s->why_pass = f->y + 5;
        s->why_fact = f->x + 5;
    }
    if (!s->why)
        s->absent[2] = "needs a regime whose dominant pass has a workload fact in every report "
                       "(FeasibleAllocation and the VPUIP task count)";
}

/* The fingerprint by family at the window most families share (ties: the
 * middle one of those, in sweep order), one bar per model, at the baseline
 * precision when there is one. */
static void ns__fp_family(ns_page_model *m, ns_page_study *s) {
    if (!s->wk || s->nfam < 2 || !s->nmodels) {
        s->absent[3] = "needs a window tag and models of two families or more";
        return;
    }
    int nw;
    const char **wv = ns__page_tag_values_new(&m->table, s->wk, &nw);
    int *count = ns_xcalloc((size_t)nw + 1, sizeof *count), best = 0;
    char *seen = ns_xcalloc((size_t)(nw + 1) * (size_t)(s->nfam + 1), 1);
    for (int i = 0; i < s->ncells; i++) {
        int w = ns__index_of(wv, nw, s->cells[i].window), f = s->cells[i].family;
        if (w < 0 || f < 0 || seen[(size_t)w * (size_t)s->nfam + (size_t)f]) continue;
        seen[(size_t)w * (size_t)s->nfam + (size_t)f] = 1;
        if (++count[w] > best) best = count[w];
    }
    int tied = 0;
    for (int w = 0; w < nw; w++) tied += count[w] == best;
    const char *want = m->opts ? m->opts->fp_window : NULL; /* --fingerprint-window */
    if (want) {
        int w = ns__index_of(wv, nw, want);
        /* asked for: taken when two families have it, else said why */
        if (w >= 0 && count[w] >= 2) s->fp_window = wv[w], best = count[w];
        else best = 0;
    } else {
        for (int w = 0, k = 0; w < nw && best >= 2; w++)
            if (count[w] == best && k++ == (tied - 1) / 2) s->fp_window = wv[w];
    }
    s->fp_nfam = best;
    free(seen);
    free(count);
    free(wv);
    if (!s->fp_window) {
        s->absent[3] = want ? "the --fingerprint-window asked for is not a window of two "
                              "families or more"
                            : "no window is shared by two families";
        return;
    }
    size_t nst = m->table.stages.count;
    s->fp_model = ns_xcalloc((size_t)s->nmodels + 1, sizeof *s->fp_model);
    s->fp_share = ns_xcalloc((size_t)s->nmodels * nst + 1, sizeof *s->fp_share);
    int *runs = ns_xcalloc((size_t)m->in->set->nruns + 1, sizeof *runs);
    /* bars: families in name order, each family's models by size */
    for (int f = 0; f < s->nfam; f++)
        for (int mo = 0; mo < s->nmodels; mo++) {
            int nr = 0;
            for (int i = 0; i < s->ncells; i++) {
                const ns_page_cell *c = &s->cells[i];
                if (c->model != mo || c->family != f || !c->window || strcmp(c->window, s->fp_window)) continue;
                if (s->pk && (!c->prec || strcmp(c->prec, s->base))) continue;
                for (int r = 0; r < c->row->cfg.nruns; r++) runs[nr++] = c->row->cfg.runs[r];
            }
            int with;
            if (!nr || ns_table_median_shares(&m->table, runs, nr, &s->fp_share[(size_t)s->fp_n * nst], &with) < 0)
                continue;
            s->fp_model[s->fp_n++] = mo;
        }
    free(runs);
    if (s->fp_n < 2) s->absent[3] = "fewer than two models have stage shares at the shared window";
}

/* Precision against size: time at the fingerprint's window (every window
 * pooled when there is none), and per model the median over its windows
 * (and other tags) of its time over the baseline precision's time in the
 * same configuration; where each ratio series crosses 1, interpolated in
 * log-log between the neighbouring sizes. */
static void ns__prec_size(ns_page_model *m, ns_page_study *s) {
    int sized = 0;
    for (int mo = 0; mo < s->nmodels; mo++)
        for (int i = 0; i < s->ncells; i++)
            if (s->cells[i].model == mo) {
                sized += isfinite(s->cells[i].size_b);
                break;
            }
    if (!s->pk || s->nprecs < 2 || sized < 3) {
        s->absent[4] = "needs a precision tag with its baseline and three model sizes or more "
                       "(size_b from the model names)";
        return;
    }
    double *v = ns_xcalloc((size_t)s->ncells + 1, sizeof *v);
    double *r = ns_xcalloc((size_t)s->ncells + 1, sizeof *r);
    s->cross = ns_xcalloc((size_t)s->nprecs + 1, sizeof *s->cross);
    s->ratio_lo = ns_xcalloc((size_t)s->nprecs + 1, sizeof *s->ratio_lo);
    s->ratio_hi = ns_xcalloc((size_t)s->nprecs + 1, sizeof *s->ratio_hi);
    s->ps_time.npanels = s->ps_ratio.npanels = 1;
    s->ps_time.series = s->ps_ratio.series = s->precs;
    s->ps_time.nseries = s->ps_ratio.nseries = s->nprecs;
    for (int p = 0; p < s->nprecs; p++) {
        s->cross[p] = s->ratio_lo[p] = s->ratio_hi[p] = NAN;
        double px = NAN, py = NAN;
        for (int mo = 0; mo < s->nmodels; mo++) {
            double size = NAN;
            int nt = 0, nr = 0;
            for (int i = 0; i < s->ncells; i++) {
                const ns_page_cell *c = &s->cells[i];
                if (c->model != mo || !c->prec || strcmp(c->prec, s->precs[p])) continue;
                size = c->size_b;
                if (!s->fp_window || (c->window && !strcmp(c->window, s->fp_window))) v[nt++] = c->time;
                for (int j = 0; p > 0 && j < s->ncells; j++) {
                    const ns_page_cell *d = &s->cells[j];
                    if (d->prec && !strcmp(d->prec, s->base) && d->time > 0 &&
                        ns__same_but(&m->table, c->row, d->row, s->pk)) {
                        r[nr++] = c->time / d->time;
                        break;
                    }
                }
            }
            if (!isfinite(size)) continue;
            ns__lines_add(&s->ps_time, 0, p, size, ns__median_of(v, nt), nt);
            if (p == 0 || !nr) continue;
            double y = ns__median_of(r, nr);
            ns__lines_add(&s->ps_ratio, 0, p, size, y, nr);
            if (!(s->ratio_lo[p] <= y)) s->ratio_lo[p] = y;
            if (!(s->ratio_hi[p] >= y)) s->ratio_hi[p] = y;
            if (isfinite(py) && !isfinite(s->cross[p]) && size > px && py > 0 && y > 0 &&
                (py - 1) * (y - 1) <= 0 && py != y) {
                double f = log(py) / (log(py) - log(y));
                s->cross[p] = exp(log(px) + f * (log(size) - log(px)));
            }
            px = size;
            py = y;
        }
    }
    free(v);
    free(r);
}

/* The memory-scheduling share against the window: a series per
 * precision, a panel per model (by size). */
static void ns__prec_scaling(ns_page_model *m, ns_page_study *s) {
    size_t k = ns_strmap_find(&m->table.stages, "memory-scheduling");
    s->ms_stage = k == (size_t)-1 ? -1 : (int)k;
    int pow2;
    if (s->ms_stage < 0 || !s->wk || !s->pk || s->nprecs < 2 || !ns__page_numeric_with(m, s->wk, 2, &pow2)) {
        s->absent[5] = "needs a memory-scheduling stage (the vpux stage map), a numeric window "
                       "tag and a precision tag";
        return;
    }
    s->ms.npanels = s->nmodels ? s->nmodels : 1;
    s->ms.panels = s->nmodels ? s->models : NULL;
    s->ms.series = s->precs;
    s->ms.nseries = s->nprecs;
    int nw;
    const char **wv = ns__page_tag_values_new(&m->table, s->wk, &nw);
    double *v = ns_xcalloc((size_t)s->ncells + 1, sizeof *v);
    for (int pa = 0; pa < s->ms.npanels; pa++)
        for (int p = 0; p < s->nprecs; p++)
            for (int w = 0; w < nw; w++) {
                int n = 0;
                double x;
                if (!ns_text_number(wv[w], &x)) continue;
                for (int i = 0; i < s->ncells; i++) {
                    const ns_page_cell *c = &s->cells[i];
                    if ((s->nmodels && c->model != pa) || !c->prec || strcmp(c->prec, s->precs[p]) ||
                        !c->window || strcmp(c->window, wv[w]))
                        continue;
                    double sh = c->row->shares[s->ms_stage];
                    if (isfinite(sh)) v[n++] = sh;
                }
                if (n) ns__lines_add(&s->ms, pa, p, x, ns__median_of(v, n), n);
            }
    free(v);
    free(wv);
}

void ns__page_study_figures(ns_page_model *m) {
    ns_page_study *s = &m->study;
    s->ms_stage = -1;
    if (!m->table.staged || !ns_table_any_regime(&m->table)) return;
    if (m->in->study_sums ? ns_study_build_summed(&s->study, &m->table, m->in->study_sums,
                                                  m->in->study_keep, NULL) < 0
                          : ns_study_build(&s->study, &m->table, m->sel, NULL) < 0)
        return;
    s->built = 1;
    for (size_t i = 0; i < sizeof ns__window_names / sizeof *ns__window_names && !s->wk; i++)
        for (int k = 0; k < s->study.naxes && !s->wk; k++)
            if (!strcmp(s->study.axes[k], ns__window_names[i])) s->wk = s->study.axes[k];
    for (int k = 0; k < s->study.naxes && !s->wk; k++) {
        int p2;
        const char *key = s->study.axes[k];
        if (strcmp(key, "size_b") && strcmp(key, "params") && ns__page_numeric_with(m, key, 2, &p2)) s->wk = key;
    }
    if (m->ratios.key && m->ratios.found_base && (!s->wk || strcmp(m->ratios.key, s->wk))) {
        s->pk = m->ratios.key;
        s->base = m->ratios.base;
    }
    ns__study_cells(m, s);
    if (!m->regime.filled) s->absent[0] = "needs runs that kept a timing report";
    ns__handoff(m, s);
    ns__why(s);
    ns__fp_family(m, s);
    ns__prec_size(m, s);
    ns__prec_scaling(m, s);
}

void ns__page_study_figures_free(ns_page_study *s) {
    for (int i = 0; i < s->nfam; i++) free(s->families[i]);
    free(s->families);
    free(s->cells);
    free(s->models);
    free(s->precs);
    free(s->bin_x);
    free(s->bin_lo);
    free(s->bin_hi);
    free(s->bin_share);
    free(s->lead);
    free(s->lead_to);
    free(s->fam_lead);
    free(s->fam_nlead);
    free(s->fp_model);
    free(s->fp_share);
    free(s->ps_time.pts);
    free(s->ps_ratio.pts);
    free(s->cross);
    free(s->ratio_lo);
    free(s->ratio_hi);
    free(s->ms.pts);
    if (s->built) ns_study_free(&s->study);
}
