/* progress.c -- a profile from timing trees, and positions in it
 * (progress.h). */
#include "analyse/progress.h"

#include "npu/logline.h"

#include <stdlib.h>
#include <string.h>

/* ====== Building ====== */

static double ns__wall(const ns_node *n) {
    ns_num v = n->val[NS_COL_WALL];
    return ns_num_present(v) && v.v > 0 ? v.v : 0;
}

/* Rows below n in pre-order; start: the profile seconds n started at. */
static void ns__walk(ns_profile_report *pr, const ns_node *n, double start, int *cap) {
    double t = start;
    for (const ns_node *c = n->child; c; c = c->next) {
        if (c->kind == NS_KIND_REST || c->kind == NS_KIND_TOTAL) continue;
        if (pr->nrows == *cap) {
            *cap = *cap ? *cap * 2 : 64;
            pr->rows = ns_xrealloc(pr->rows, sizeof *pr->rows * (size_t)*cap);
        }
        char key[128];
        ns_pass_key(c->name, strlen(c->name), key, sizeof key);
        ns_profile_row *r = &pr->rows[pr->nrows++];
        r->key = ns_strdup(key);
        r->start_s = t;
        r->wall_s = ns__wall(c);
        ns__walk(pr, c, t, cap);
        t += ns__wall(c);
    }
}

ns_profile *ns_profile_new(ns_report *const *reports, int n) {
    ns_profile *p = ns_xcalloc(1, sizeof *p);
    p->reports = ns_xcalloc((size_t)(n ? n : 1), sizeof *p->reports);
    for (int i = 0; i < n; i++) {
        ns_profile_report *pr = &p->reports[p->nreports++];
        int cap = 0;
        if (reports[i]->root) {
            ns__walk(pr, reports[i]->root, 0, &cap);
            pr->total_s = ns__wall(reports[i]->root);
        }
        pr->label = ns_strdup(reports[i]->label ? reports[i]->label : "");
        p->total_s += pr->total_s;
    }
    return p;
}

void ns_profile_free(ns_profile *p) {
    if (!p) return;
    for (int i = 0; i < p->nreports; i++) {
        for (int k = 0; k < p->reports[i].nrows; k++) free(p->reports[i].rows[k].key);
        free(p->reports[i].rows);
        free(p->reports[i].label);
    }
    free(p->reports);
    free(p);
}

/* ====== Positions ====== */

int ns_progress_pass(const ns_profile *p, ns_progress *pos, int report, const char *key) {
    if (report != pos->report) {
        pos->report = report;
        pos->row = -1;
    }
    if (!p || report < 0 || report >= p->nreports) return 0;
    const ns_profile_report *pr = &p->reports[report];
    int from = pos->row < 0 ? 0 : pos->row;
    for (int k = from; k < pr->nrows; k++)
        if (!strcmp(pr->rows[k].key, key)) {
            pos->row = k;
            return 1;
        }
    return 0;
}

void ns_progress_report_done(ns_progress *pos) {
    pos->report++;
    pos->row = -1;
}

double ns_progress_done_s(const ns_profile *p, const ns_progress *pos) {
    if (!p) return 0;
    double s = 0;
    for (int i = 0; i < pos->report && i < p->nreports; i++) s += p->reports[i].total_s;
    if (pos->report < p->nreports && pos->row >= 0)
        s += p->reports[pos->report].rows[pos->row].start_s;
    return s;
}

double ns_progress_end_s(const ns_profile *p, const ns_progress *pos) {
    if (!p) return 0;
    double s = 0;
    for (int i = 0; i <= pos->report && i < p->nreports; i++) s += p->reports[i].total_s;
    return s;
}

/* ====== Pace ====== */

double ns_progress_slower(double elapsed, double entered, double start_s, double end_s) {
    double worst = 0;
    if (entered >= 0 && start_s > 1) worst = entered / start_s;
    if (end_s > 0 && elapsed > 1 && elapsed / end_s > worst) worst = elapsed / end_s;
    return worst >= NS_PROGRESS_SLOWER ? worst : 0;
}
