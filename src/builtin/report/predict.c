/* predict.c -- `report --predict K=V[,K=V...]`: the model of the sweep
 * (analyse/predict.h) on the page: its check, the predicted regime map and
 * a table of the points asked for (render/page_predict.h).
 *
 * The folders given to report are read once more, run by run, for what
 * the model needs of each run's trees (its stage times); the page's own
 * reading keeps other summaries.  The counted runs of one cache mode are
 * modelled: cold when the sweep has it, else the first mode read.  A model
 * the data cannot carry is a warning, and the page is made without it.
 */
#include "builtin/report/report.h"
#include "analyse/predict.h"
#include "render/page_predict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int ns__report_predict(ns_page *page, char **inputs, int ninputs, const char *const *specs,
                       int nspecs, ns_stage_sel *sel) {
    ns_field fy;
    const char *why;
    ns_field_parse("total", 0, &fy, &why);
    fy.stages = sel;
    ns_pred_reader rd;
    memset(&rd, 0, sizeof rd);
    rd.fy = &fy;
    rd.sel = sel;
    ns_runs_forget(); /* the page read these runs once already: a second reading, not duplicates */
    for (int i = 0; i < ninputs; i++) {
        struct stat st;
        if (stat(inputs[i], &st) == 0 && S_ISDIR(st.st_mode)) ns_runs_each(inputs[i], ns_pred_reader_take, &rd);
    }
    const char *mode = NULL;
    for (int i = 0; i < rd.n; i++)
        if (ns_run_counted(&rd.runs[i]) && (!mode || !strcmp(rd.runs[i].mode ? rd.runs[i].mode : "", "cold")))
            mode = rd.runs[i].mode ? rd.runs[i].mode : "";
    const ns_run **runs = ns_xcalloc((size_t)rd.n + 1, sizeof *runs);
    int *idx = ns_xcalloc((size_t)rd.n + 1, sizeof *idx), n = 0, rc = -1;
    for (int i = 0; i < rd.n; i++) {
        runs[i] = &rd.runs[i];
        if (ns_run_counted(&rd.runs[i]) && mode && !strcmp(rd.runs[i].mode ? rd.runs[i].mode : "", mode))
            idx[n++] = i;
    }
    ns_pred p;
    memset(&p, 0, sizeof p);
    ns_pred_point *grid = NULL, *at = ns_xcalloc((size_t)nspecs + 1, sizeof *at);
    char **label = ns_xcalloc((size_t)nspecs + 1, sizeof *label);
    char **whys = ns_xcalloc((size_t)nspecs + 1, sizeof *whys);
    int ngrid = 1;
    if (n == 0 || ns_pred_build(&p, runs, idx, n, &rd.dig, 1, 0.9, 1) < 0) {
        ns_warn_at(NULL, 0, "report --predict: no prediction: %s",
                   n ? p.why : "no counted runs in the folders given");
        goto out;
    }
    /* the grid: every combination of the measured values */
    for (int a = 0; a < p.naxes; a++) ngrid *= p.axes[a].nlevels;
    if (ngrid > 5000) ngrid = 0;
    grid = ns_xcalloc((size_t)ngrid + 1, sizeof *grid);
    for (int i = 0; i < ngrid; i++) {
        ns_pred_point *q = &grid[i];
        q->factor = ns_xcalloc((size_t)p.naxes + 1, sizeof *q->factor);
        q->x = ns_xcalloc((size_t)p.naxes + 1, sizeof *q->x);
        q->level = ns_xcalloc((size_t)p.naxes + 1, sizeof *q->level);
        int r = i;
        for (int a = p.naxes - 1; a >= 0; a--) {
            int l = r % p.axes[a].nlevels;
            r /= p.axes[a].nlevels;
            q->level[a] = p.axes[a].numeric ? -1 : l;
            q->x[a] = p.axes[a].numeric ? p.axes[a].xs[l] : NAN;
        }
        ns_pred_eval(&p, q);
    }
    for (int i = 0; i < nspecs; i++) {
        ns_kvlist kv = {0};
        ns_buf l = {0};
        if (ns_select_parse(&kv, specs[i]) < 0) {
            whys[i] = ns_strdup("not K=V[,K=V...]");
        } else if (ns_pred_point_at(&p, &kv, &at[i]) < 0) {
            whys[i] = ns_strdup(p.why);
        } else {
            ns_pred_eval(&p, &at[i]);
        }
        for (int k = 0; k < kv.n; k++)
            ns_buf_printf(&l, "%s%s=%s", k ? ", " : "", kv.items[k].key, kv.items[k].value);
        label[i] = l.len ? l.data : ns_strdup(specs[i]);
        ns_kv_free(&kv);
    }
    ns_page_predict pp = {&p, grid, ngrid, at, (const char *const *)label,
                          (const char *const *)whys, nspecs, "total"};
    ns_render_predict(page, &pp);
    rc = 0;
out:
    for (int i = 0; grid && i < ngrid; i++) ns_pred_point_free(&grid[i]);
    free(grid);
    for (int i = 0; i < nspecs; i++) {
        ns_pred_point_free(&at[i]);
        free(label[i]);
        free(whys[i]);
    }
    free(at);
    free(label);
    free(whys);
    ns_pred_free(&p);
    ns_pred_reader_free(&rd);
    free(runs);
    free(idx);
    return rc;
}
