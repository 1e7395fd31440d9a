/* fitting.c -- the points of `fit` (and of `predict`): observations of a
 * sweep's runs or of CSV records, their groups, one fit per group.
 * fitting.h says what and why; this file was builtin/fit.c's first half,
 * moved whole (the messages and their order are the same).
 */
#include "analyse/fitting.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ====== Groups ====== */


static int ns__cmp_obs(const void *pa, const void *pb) {
    const ns_fit_obs *a = pa, *b = pb;
    int c = ns_text_cmp(a->group, b->group);
    if (c) return c;
    c = ns_mode_rank(a->mode) - ns_mode_rank(b->mode);
    if (c) return c;
    if (a->mode && b->mode && (c = strcmp(a->mode, b->mode))) return c;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    if (a->y != b->y) return a->y < b->y ? -1 : 1;
    if (a->run != b->run) return a->run < b->run ? -1 : 1; /* reading order */
    return a->line < b->line ? -1 : a->line > b->line;
}

static int ns__same_group(const ns_fit_obs *a, const ns_fit_obs *b) {
    return ns_text_cmp(a->group, b->group) == 0 && ns_text_cmp(a->mode, b->mode) == 0;
}

static void ns__add_obs(ns_fitset *s, const ns_fit_obs *o) {
    s->obs = ns_xrealloc(s->obs, sizeof *s->obs * (size_t)(s->nobs + 1));
    s->obs[s->nobs++] = *o;
}

/* Runs at one point that differ in a tag other than x and --by: the
 * median mixes them.  Each such tag is named once. */
static void ns__check_mixed(const ns_fitset *s, const ns_fit_obs *o, int n, ns_strmap *warned) {
    for (int i = 1; i < n; i++) {
        const ns_run *a = o[0].run, *b = o[i].run;
        for (int pass = 0; pass < 2; pass++) {
            const ns_run *p = pass ? b : a, *q = pass ? a : b;
            for (int k = 0; k < p->tags.n; k++) {
                const char *key = p->tags.items[k].key;
                if (strcmp(key, s->xname) == 0 || (s->byname && strcmp(key, s->byname) == 0))
                    continue;
                const char *v = ns_kv_get(&q->tags, key);
                if (v && strcmp(v, p->tags.items[k].value) == 0) continue;
                if (ns_strmap_find(warned, key) != (size_t)-1) continue;
                int added;
                ns_strmap_intern(warned, key, &added);
                ns_warn_at(NULL, 0, "runs at the same %s differ in the tag '%s': each point's "
                                    "median mixes them (choose with --where, or split with --by)",
                           s->xname, key);
            }
        }
    }
}

/* Sort the observations and make one fit per group: for run folders one
 * point per x (the median of its runs), for CSV one point per record. */
void ns_fitset_build(ns_fitset *s) {
    if (s->nobs > 1) qsort(s->obs, (size_t)s->nobs, sizeof *s->obs, ns__cmp_obs);
    ns_strmap warned;
    ns_strmap_init(&warned);
    double *ys = ns_xcalloc((size_t)s->nobs + 1, sizeof *ys);
    for (int i = 0; i < s->nobs;) {
        int j = i;
        while (j < s->nobs && ns__same_group(&s->obs[i], &s->obs[j])) j++;
        s->groups = ns_xrealloc(s->groups, sizeof *s->groups * (size_t)(s->ngroups + 1));
        ns_fit_group *g = &s->groups[s->ngroups++];
        memset(g, 0, sizeof *g);
        g->group = s->obs[i].group;
        g->mode = s->obs[i].mode;
        for (int k = i; k < j;) {
            int e = k + 1;
            if (!s->csv && !s->per_report)
                while (e < j && s->obs[e].x == s->obs[k].x) e++;
            for (int t = k; t < e; t++) ys[t - k] = s->obs[t].y;
            ns_fit_add(&g->fit, s->obs[k].x, ys, (size_t)(e - k));
            if (!s->csv && !s->per_report) ns__check_mixed(s, &s->obs[k], e - k, &warned);
            k = e;
        }
        i = j;
    }
    free(ys);
    ns_strmap_free(&warned);
}

/* "model=m1, mode cold" (or "all runs"), for people. */
void ns_fitset_label(ns_buf *b, const ns_fitset *s, const ns_fit_group *g) {
    size_t at = b->len;
    if (s->byname) ns_buf_printf(b, "%s=%s", s->byname, g->group ? g->group : "");
    if (g->mode && (s->nmodes > 1 || strcmp(g->mode, "none") != 0))
        ns_buf_printf(b, "%smode %s", b->len > at ? ", " : "", g->mode);
    if (b->len == at)
        ns_buf_puts(b, s->csv ? "all rows" : s->per_report ? "all reports" : "all runs");
    /* values from the runs: no control characters on a terminal */
    for (size_t i = at; i < b->len; i++)
        if ((unsigned char)b->data[i] < 0x20 || b->data[i] == 0x7f) b->data[i] = ' ';
}


/* ====== Reading ====== */

void ns_fit_reader_take(ns_run *r, void *ctx) {
    ns_fit_reader *rd = ctx;
    int i = rd->set->nruns;
    if (i == rd->cap) {
        rd->cap = rd->cap ? 2 * rd->cap : 64;
        rd->set->runs = ns_xrealloc(rd->set->runs, sizeof *rd->set->runs * (size_t)rd->cap);
        rd->dig = ns_xrealloc(rd->dig, sizeof *rd->dig * (size_t)rd->cap);
    }
    ns_run *kept = &rd->set->runs[rd->set->nruns++];
    *kept = *r;
    ns_fit_digest *d = &rd->dig[i];
    memset(d, 0, sizeof *d);
    if (rd->per_report) {
        d->npts = kept->nreports;
        d->pts = ns_xcalloc((size_t)kept->nreports + 1, sizeof *d->pts);
        for (int k = 0; k < kept->nreports; k++)
            d->pts[k].code = ns_report_point(kept->reports[k], rd->fx, rd->fy, &d->pts[k].x,
                                             &d->pts[k].y);
    } else {
        d->x = ns_run_value(kept, rd->fx);
        d->y = ns_run_value(kept, rd->fy);
    }
    ns_run_free_reports(kept);
}

/* Run folders: observations of the counted runs (their values taken as
 * they were read, rd). */
void ns_fitset_from_runs(ns_fitset *s, const ns_fit_reader *rd, const ns_kvlist *where,
                          const char *mode, const ns_field *fx) {
    const ns_runset *set = rd->set;
    ns_selection sel;
    ns_select_runs(set, where, mode, &sel);
    s->total = set->nruns;
    s->counted = sel.n;
    const char *modes[1];
    s->nmodes = ns_selection_modes(&sel, modes, 1);
    int no_by = 0, no_x = 0, no_y = 0;
    for (int i = 0; i < sel.n; i++) {
        const ns_run *r = sel.runs[i];
        ns_fit_obs o = {NULL, r->mode, NAN, NAN, r, 0};
        char buf[256];
        if (s->byname) {
            const char *g = ns_run_tag(r, s->byname, buf, sizeof buf);
            if (!g) {
                no_by++;
                continue;
            }
            int added;
            size_t at = ns_strmap_intern(&s->names, g, &added);
            o.group = s->names.keys[at];
        }
        const ns_fit_digest *d = &rd->dig[r - set->runs];
        if (s->per_report) {
            s->total_reports += d->npts;
            for (int k = 0; k < d->npts; k++) {
                o.line = k;
                o.x = d->pts[k].x;
                o.y = d->pts[k].y;
                switch (d->pts[k].code) {
                case 1: no_x++; break;
                case 2: no_y++; break;
                default: ns__add_obs(s, &o);
                }
            }
            continue;
        }
        if (isnan(o.x = d->x)) {
            no_x++;
            continue;
        }
        if (isnan(o.y = d->y)) {
            no_y++;
            continue;
        }
        ns__add_obs(s, &o);
    }
    const char *unit = s->per_report ? "report" : "run";
    if (no_by)
        ns_warn_at(NULL, 0, "%d run%s without the tag '%s' left out", no_by,
                   no_by == 1 ? "" : "s", s->byname);
    if (no_x)
        ns_warn_at(NULL, 0, "%d %s%s without a number for %s%s left out", no_x, unit,
                   no_x == 1 ? "" : "s", fx->kind == NS_FIELD_TAG ? "the tag " : "", s->xname);
    if (no_y)
        ns_warn_at(NULL, 0, "%d %s%s without a value of %s left out", no_y, unit,
                   no_y == 1 ? "" : "s", s->yname);
    ns_selection_free(&sel);
}

/* Text from a file, fit for a message: control characters become '?',
 * and more than 40 characters end in "...".  Always allocated. */
static void ns__printable(ns_buf *b, const char *s) {
    ns_buf_puts(b, "");
    size_t n = 0;
    for (; *s && n < 40; s++, n += ((unsigned char)*s & 0xC0) != 0x80)
        ns_buf_putc(b, (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
    if (*s) ns_buf_puts(b, "...");
}

/* A CSV table: one observation per record.  Returns -1 when a named
 * column is missing (error printed). */
int ns_fitset_from_csv(ns_fitset *s, const ns_csv *t) {
    int cx = ns_csv_col(t, s->xname), cy = ns_csv_col(t, s->yname);
    int cb = s->byname ? ns_csv_col(t, s->byname) : -1;
    const char *missing = cx < 0 ? s->xname : cy < 0 ? s->yname : s->byname && cb < 0 ? s->byname
                                                                                       : NULL;
    if (missing) {
        ns_buf cols = {0};
        for (int c = 0; c < t->ncols && c < 20; c++) {
            if (c) ns_buf_puts(&cols, ", ");
            ns__printable(&cols, t->head[c]);
        }
        if (t->ncols > 20) ns_buf_printf(&cols, " and %d more", t->ncols - 20);
        ns_error("%s: no column '%s' (the columns are: %s)", t->file, missing, cols.data);
        ns_buf_free(&cols);
        return -1;
    }
    s->total += t->nrows;
    for (int r = 0; r < t->nrows; r++) {
        ns_fit_obs o = {NULL, NULL, NAN, NAN, NULL, t->lines[r]};
        const char *vx = ns_csv_cell(t, r, cx), *vy = ns_csv_cell(t, r, cy);
        if (s->byname) {
            o.group = ns_csv_cell(t, r, cb);
            if (!o.group) o.group = "";
        }
        const char *bad = !vx || !ns_text_number(vx, &o.x) ? s->xname
                          : !vy || !ns_text_number(vy, &o.y) ? s->yname
                                                             : NULL;
        if (bad) {
            const char *v = bad == s->xname ? vx : vy;
            ns_buf shown = {0};
            if (v && *v) {
                ns_buf_putc(&shown, '\'');
                ns__printable(&shown, v);
                ns_buf_putc(&shown, '\'');
            } else {
                ns_buf_puts(&shown, "an empty field");
            }
            ns_warn_at(t->file, t->lines[r], "column '%s': %s is not a number; record left out",
                       bad, shown.data);
            ns_buf_free(&shown);
            continue;
        }
        ns__add_obs(s, &o);
    }
    return 0;
}


/* ====== Freeing ====== */

void ns_fitset_free(ns_fitset *s) {
    for (int i = 0; i < s->ngroups; i++) ns_fit_free(&s->groups[i].fit);
    free(s->groups);
    free(s->obs);
    ns_strmap_free(&s->names);
    s->groups = NULL;
    s->obs = NULL;
    s->ngroups = s->nobs = 0;
}

void ns_fit_reader_free(ns_fit_reader *rd) {
    if (rd->set)
        for (int i = 0; i < rd->set->nruns; i++) free(rd->dig[i].pts);
    free(rd->dig);
    rd->dig = NULL;
}
