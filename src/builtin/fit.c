/* fit.c -- `npuscope fit`: how a compile grows with an axis of a sweep,
 * as a power law per group, with what a single exponent would hide.
 *
 * The inputs are run folders (a sweep) or CSV tables (a study's published
 * figures, `table --format csv` output); not both at once.
 *
 *   - Run folders: the counted runs (ok, neither warmups nor primers) that
 *     match --where and --mode.  x is a tag read as a number (--x window)
 *     or a metric; y is a field of dataset.h (wall, pass:NAME, ...).  One
 *     point per group and x: the median y of the runs there, with their
 *     count, min and max.  Runs of different cache modes are never mixed
 *     in a point: without --mode each mode is fitted on its own.  Runs at
 *     one point that differ in another tag are mixed by the median, and a
 *     warning names the tag.
 *   - --per report: each timing report (a sub-model compile: an NPUW LLM
 *     run holds seven) is a point, x and y both from that report: x a
 *     fact the compiler logged (fact:vpuip_tasks), y pass:NAME,
 *     stage:NAME or total.  So the cost of a pass is fitted against the
 *     workload that drives it, across every compile of a sweep.
 *   - CSV: --x, --y and --by name columns; each record is a point.
 *   - A run or record that lacks x, y or the --by value is left out and
 *     counted in one warning per cause; a point with x <= 0 or y <= 0 is
 *     kept in the output but left out of the fit (warning).
 *
 * Groups print in the order of their --by value (numbers as numbers),
 * then cold, warm, none.  Text is for people (seconds %.4f, exponents
 * %.4f); CSV (one line per point, the fit repeated on each) and JSON (the
 * contract in DESIGN.md, docs/formats.md) carry every number with 15
 * significant digits.
 */
#include "builtin/builtin.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "analyse/dataset.h"
#include "analyse/fit.h"
#include "base/jsonw.h"
#include "base/strmap.h"
#include "render/grid.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* --format: an index into ns__fit_formats */
enum { NS__FIT_TEXT, NS__FIT_CSV, NS__FIT_JSON };
static const char *const ns__fit_formats[] = {"text", "csv", "json", NULL};

/* ====== Groups ====== */

typedef struct {
    const char *group; /* --by value (borrowed), NULL without --by */
    const char *mode;  /* cache mode of its runs (borrowed), NULL for CSV */
    double x;          /* x of the run or record */
    double y;          /* y of it */
    const ns_run *run; /* the run (NULL for CSV) */
    long line;         /* CSV: line of the record; --per report: the report's index */
} ns__obs;

typedef struct {
    const char *group; /* --by value (borrowed), NULL without --by */
    const char *mode;  /* cache mode (borrowed), NULL for CSV */
    ns_fit fit;        /* its points and fit */
} ns__group;

typedef struct {
    const char *xname;  /* --x as given */
    const char *yname;  /* --y as given */
    const char *byname; /* --by, or NULL */
    int csv;            /* inputs are CSV tables */
    int per_report;     /* --per report: a point per timing report */
    ns_strmap names;    /* derived --by values (family), owning their text */
    int y_time;         /* y is seconds (text headers say " s") */
    ns__obs *obs;       /* observations, then sorted into groups */
    int nobs;           /* entries in obs */
    ns__group *groups;  /* fits, in output order */
    int ngroups;        /* entries in groups */
    int total;          /* runs read / records read */
    int counted;        /* counted runs that matched (run folders) */
    int nmodes;         /* distinct modes among the counted runs */
    int total_reports;  /* --per report: reports of the counted runs */
} ns__fitset;

static int ns__cmp_obs(const void *pa, const void *pb) {
    const ns__obs *a = pa, *b = pb;
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

static int ns__same_group(const ns__obs *a, const ns__obs *b) {
    return ns_text_cmp(a->group, b->group) == 0 && ns_text_cmp(a->mode, b->mode) == 0;
}

static void ns__add_obs(ns__fitset *s, const ns__obs *o) {
    s->obs = ns_xrealloc(s->obs, sizeof *s->obs * (size_t)(s->nobs + 1));
    s->obs[s->nobs++] = *o;
}

/* Runs at one point that differ in a tag other than x and --by: the
 * median mixes them.  Each such tag is named once. */
static void ns__check_mixed(const ns__fitset *s, const ns__obs *o, int n, ns_strmap *warned) {
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
static void ns__build(ns__fitset *s) {
    if (s->nobs > 1) qsort(s->obs, (size_t)s->nobs, sizeof *s->obs, ns__cmp_obs);
    ns_strmap warned;
    ns_strmap_init(&warned);
    double *ys = ns_xcalloc((size_t)s->nobs + 1, sizeof *ys);
    for (int i = 0; i < s->nobs;) {
        int j = i;
        while (j < s->nobs && ns__same_group(&s->obs[i], &s->obs[j])) j++;
        s->groups = ns_xrealloc(s->groups, sizeof *s->groups * (size_t)(s->ngroups + 1));
        ns__group *g = &s->groups[s->ngroups++];
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
static void ns__group_label(ns_buf *b, const ns__fitset *s, const ns__group *g) {
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

/* What a fit needs of one run's reports, taken as the run is read so that
 * its trees can be freed at once (a history of 100,000 runs does not fit
 * in memory with them): x and y of the run, or, --per report, each
 * report's point. */
typedef struct {
    double x, y; /* the report's x and y (NaN where it has none) */
    int code;    /* ns_report_point: 0 both, 1 no x, 2 no y */
} ns__pt;

typedef struct {
    double x, y;  /* ns_run_value of --x and --y (not --per report) */
    ns__pt *pts;  /* --per report: a point per report, in report order (owned) */
    int npts;     /* entries in pts: the run's reports */
} ns__digest;

typedef struct {
    ns_runset *set;      /* the runs, trees freed */
    int cap;             /* allocated entries of set->runs and dig */
    ns__digest *dig;     /* per run of set (owned) */
    const ns_field *fx;  /* --x */
    const ns_field *fy;  /* --y */
    int per_report;      /* --per report */
} ns__fit_reader;

static void ns__fit_take(ns_run *r, void *ctx) {
    ns__fit_reader *rd = ctx;
    int i = rd->set->nruns;
    if (i == rd->cap) {
        rd->cap = rd->cap ? 2 * rd->cap : 64;
        rd->set->runs = ns_xrealloc(rd->set->runs, sizeof *rd->set->runs * (size_t)rd->cap);
        rd->dig = ns_xrealloc(rd->dig, sizeof *rd->dig * (size_t)rd->cap);
    }
    ns_run *kept = &rd->set->runs[rd->set->nruns++];
    *kept = *r;
    ns__digest *d = &rd->dig[i];
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
static void ns__from_runs(ns__fitset *s, const ns__fit_reader *rd, const ns_kvlist *where,
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
        ns__obs o = {NULL, r->mode, NAN, NAN, r, 0};
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
        const ns__digest *d = &rd->dig[r - set->runs];
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
static int ns__from_csv(ns__fitset *s, const ns_csv *t) {
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
        ns__obs o = {NULL, NULL, NAN, NAN, NULL, t->lines[r]};
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

/* ====== Numbers ====== */

/* For CSV and JSON: 15 significant digits, no "-0"; `missing` when not
 * finite. */
static void ns__put_g(ns_buf *b, double v, const char *missing) {
    if (!isfinite(v)) {
        ns_buf_puts(b, missing);
        return;
    }
    if (v == 0) v = 0;
    ns_buf_printf(b, "%.15g", v);
}

/* A value of y for people: %.4f (seconds, and most other things: one
 * width for a column); %.4g when tiny or huge. */
static void ns__put_y(ns_buf *b, double v) {
    if (!isfinite(v)) {
        ns_buf_putc(b, '-');
        return;
    }
    if (v == 0) v = 0;
    double a = fabs(v);
    if ((a < 0.001 && a > 0) || a >= 1e12) ns_buf_printf(b, "%.4g", v);
    else ns_buf_printf(b, "%.4f", v);
}

static void ns__put_x(ns_buf *b, double v) {
    if (v == 0) v = 0;
    ns_buf_printf(b, "%.10g", v);
}

/* ====== Text ====== */

static void ns__render_group_text(ns_buf *b, const ns__fitset *s, const ns__group *g) {
    const ns_fit *f = &g->fit;
    ns_buf c = {0};
    ns__group_label(b, s, g);
    if (f->ok) {
        ns_buf_printf(b, ": %s = %.6g * %s^%.4f\n", s->yname, f->prefactor, s->xname, f->exponent);
        ns_buf_printf(b, "  exponent %.4f, 95%% CI ", f->exponent);
        if (isfinite(f->ci95_lo)) ns_buf_printf(b, "%.4f .. %.4f", f->ci95_lo, f->ci95_hi);
        else ns_buf_puts(b, "- (needs 3 points)");
        /* y the same at every x: nothing varies, so R² (explained over total
         * variation) is 0/0 -- said, not printed as nan */
        if (isfinite(f->r2)) ns_buf_printf(b, ", R² %.4f", f->r2);
        else ns_buf_puts(b, ", R² - (y is the same at every x)");
        ns_buf_printf(b, ", %d point%s\n", f->used, f->used == 1 ? "" : "s");
    } else {
        ns_buf_printf(b, ": no fit (%d point%s with x > 0 and y > 0 at distinct x; 2 needed)\n",
                      f->used, f->used == 1 ? "" : "s");
    }
    int spread = 0;
    for (int i = 0; i < f->npts; i++) spread |= f->pts[i].n > 1;
    /* every column right-aligned: numbers, and the header above them */
    ns_grid grid = {NULL, 0, 5 + (spread ? 3 : 0), NULL, "  ", 0};
    const char *unit = s->y_time ? " s" : "";
    ns_buf_puts(&c, s->xname);
    ns_grid_take(&grid, &c);
    ns_buf_printf(&c, "%s%s", s->yname, unit);
    ns_grid_take(&grid, &c);
    if (spread) {
        ns_buf_puts(&c, "runs");
        ns_grid_take(&grid, &c);
        ns_buf_printf(&c, "min%s", unit);
        ns_grid_take(&grid, &c);
        ns_buf_printf(&c, "max%s", unit);
        ns_grid_take(&grid, &c);
    }
    ns_buf_puts(&c, "fitted");
    ns_grid_take(&grid, &c);
    ns_buf_puts(&c, "residual");
    ns_grid_take(&grid, &c);
    ns_buf_puts(&c, "local slope");
    ns_grid_take(&grid, &c);
    int k = 0;
    for (int i = 0; i < f->npts; i++) {
        const ns_fit_point *p = &f->pts[i];
        ns__put_x(&c, p->x);
        ns_grid_take(&grid, &c);
        ns__put_y(&c, p->y);
        ns_grid_take(&grid, &c);
        if (spread) {
            ns_buf_printf(&c, "%d", p->n);
            ns_grid_take(&grid, &c);
            ns__put_y(&c, p->min);
            ns_grid_take(&grid, &c);
            ns__put_y(&c, p->max);
            ns_grid_take(&grid, &c);
        }
        ns__put_y(&c, p->fitted);
        ns_grid_take(&grid, &c);
        if (isfinite(p->residual)) /* a residual that rounds to zero is +0.0000 */
            ns_buf_printf(&c, "%+.4f", fabs(p->residual) < 5e-5 ? 0.0 : p->residual);
        else ns_buf_puts(&c, p->used ? "-" : "left out");
        ns_grid_take(&grid, &c);
        int first_at_x = i == 0 || f->pts[i - 1].x != p->x;
        if (first_at_x && k < f->nslopes && f->slopes[k].x1 == p->x) {
            ns_buf_printf(&c, "%.4f%s", f->slopes[k].slope, f->slopes[k].cliff ? " cliff" : "");
            k++;
        }
        ns_grid_take(&grid, &c);
    }
    ns_grid_write(b, &grid);
    for (int i = 0; i < f->nslopes; i++) {
        const ns_fit_slope *sl = &f->slopes[i];
        if (!sl->cliff) continue;
        ns_buf_puts(b, "  cliff: from ");
        ns__put_x(b, sl->x0);
        ns_buf_puts(b, " to ");
        ns__put_x(b, sl->x1);
        ns_buf_printf(b, " the local slope is %.4f, more than %.1f above the exponent %.4f: "
                         "a single exponent hides this\n",
                      sl->slope, NS_FIT_CLIFF, f->exponent);
    }
    ns_buf_free(&c);
}

static void ns__render_text(ns_buf *b, const ns__fitset *s, char **inputs, int ninputs) {
    ns_buf_printf(b, "power law %s = prefactor * %s^exponent, least squares in log-log space\n",
                  s->yname, s->xname);
    if (s->csv) {
        ns_buf_printf(b, "%d record%s of ", s->total, s->total == 1 ? "" : "s");
        for (int i = 0; i < ninputs; i++) ns_buf_printf(b, "%s%s", i ? ", " : "", inputs[i]);
    } else {
        ns_buf_printf(b, "%d run%s, %d counted (ok, neither warmups nor primers)", s->total,
                      s->total == 1 ? "" : "s", s->counted);
        if (s->per_report)
            ns_buf_printf(b, ", %d report%s: a point per report", s->total_reports,
                          s->total_reports == 1 ? "" : "s");
    }
    ns_buf_printf(b, "; %d fit%s\n", s->ngroups, s->ngroups == 1 ? "" : "s");
    if (s->nmodes > 1) ns_buf_puts(b, "each cache mode is fitted on its own (--mode picks one)\n");
    for (int i = 0; i < s->ngroups; i++) {
        ns_buf_putc(b, '\n');
        ns__render_group_text(b, s, &s->groups[i]);
    }
}

/* ====== CSV and JSON ====== */

static void ns__json_str_or_null(ns_buf *b, const char *s) {
    if (s) ns_json_str(b, s);
    else ns_buf_puts(b, "null");
}

static void ns__render_json(ns_buf *b, const ns__fitset *s) {
    ns_buf_puts(b, "{\"format\":\"npuscope-fit\",\"version\":1,\"x\":");
    ns_json_str(b, s->xname);
    ns_buf_puts(b, ",\"y\":");
    ns_json_str(b, s->yname);
    ns_buf_puts(b, ",\"by\":");
    ns__json_str_or_null(b, s->byname);
    ns_buf_printf(b, ",\"source\":\"%s\",\"%s\":%d", s->csv ? "csv" : "runs",
                  s->csv ? "records" : "runs", s->total);
    if (!s->csv) ns_buf_printf(b, ",\"counted\":%d", s->counted);
    if (s->per_report) ns_buf_printf(b, ",\"per\":\"report\",\"reports\":%d", s->total_reports);
    ns_buf_puts(b, ",\"fits\":[");
    for (int i = 0; i < s->ngroups; i++) {
        const ns__group *g = &s->groups[i];
        const ns_fit *f = &g->fit;
        ns_buf_puts(b, i ? ",\n{\"group\":" : "\n{\"group\":");
        ns__json_str_or_null(b, g->group);
        ns_buf_puts(b, ",\"mode\":");
        ns__json_str_or_null(b, g->mode);
        ns_buf_puts(b, ",\"x\":");
        ns_json_str(b, s->xname);
        ns_buf_puts(b, ",\"y\":");
        ns_json_str(b, s->yname);
        ns_buf_printf(b, ",\"n\":%d,\"left_out\":%d,\"exponent\":", f->used, f->npts - f->used);
        ns__put_g(b, f->exponent, "null");
        ns_buf_puts(b, ",\"prefactor\":");
        ns__put_g(b, f->prefactor, "null");
        ns_buf_puts(b, ",\"r2\":");
        ns__put_g(b, f->r2, "null");
        ns_buf_puts(b, ",\"ci95\":[");
        ns__put_g(b, f->ci95_lo, "null");
        ns_buf_putc(b, ',');
        ns__put_g(b, f->ci95_hi, "null");
        ns_buf_printf(b, "],\"cliff\":%s,\"points\":[", f->cliffs ? "true" : "false");
        for (int k = 0; k < f->npts; k++) {
            const ns_fit_point *p = &f->pts[k];
            ns_buf_puts(b, k ? ",{\"x\":" : "{\"x\":");
            ns__put_g(b, p->x, "null");
            ns_buf_puts(b, ",\"y\":");
            ns__put_g(b, p->y, "null");
            ns_buf_printf(b, ",\"n\":%d,\"min\":", p->n);
            ns__put_g(b, p->min, "null");
            ns_buf_puts(b, ",\"max\":");
            ns__put_g(b, p->max, "null");
            ns_buf_printf(b, ",\"outliers\":%d,\"in_fit\":%s,\"fitted\":", p->outliers,
                          p->used ? "true" : "false");
            ns__put_g(b, p->fitted, "null");
            ns_buf_puts(b, ",\"residual\":");
            ns__put_g(b, p->residual, "null");
            ns_buf_putc(b, '}');
        }
        ns_buf_puts(b, "],\"local_slopes\":[");
        for (int k = 0; k < f->nslopes; k++) {
            const ns_fit_slope *sl = &f->slopes[k];
            ns_buf_puts(b, k ? ",{\"x0\":" : "{\"x0\":");
            ns__put_g(b, sl->x0, "null");
            ns_buf_puts(b, ",\"x1\":");
            ns__put_g(b, sl->x1, "null");
            ns_buf_puts(b, ",\"slope\":");
            ns__put_g(b, sl->slope, "null");
            ns_buf_printf(b, ",\"cliff\":%s}", sl->cliff ? "true" : "false");
        }
        ns_buf_puts(b, "]}");
    }
    ns_buf_puts(b, "\n]}\n");
}

/* One line per point; the fit of its group repeated on each line, so the
 * file plots and filters without joins.  local_slope is the slope from
 * the previous x to this one. */
static void ns__render_csv(ns_buf *b, const ns__fitset *s) {
    ns_buf_puts(b, "group,mode,x,y,n,min,max,outliers,in_fit,fitted,residual,local_slope,cliff,"
                   "exponent,prefactor,r2,ci95_lo,ci95_hi\n");
    for (int i = 0; i < s->ngroups; i++) {
        const ns__group *g = &s->groups[i];
        const ns_fit *f = &g->fit;
        int k = 0;
        for (int j = 0; j < f->npts; j++) {
            const ns_fit_point *p = &f->pts[j];
            if (g->group) ns_csv_field(b, g->group);
            ns_buf_putc(b, ',');
            if (g->mode) ns_csv_field(b, g->mode);
            ns_buf_putc(b, ',');
            ns__put_g(b, p->x, "");
            ns_buf_putc(b, ',');
            ns__put_g(b, p->y, "");
            ns_buf_printf(b, ",%d,", p->n);
            ns__put_g(b, p->min, "");
            ns_buf_putc(b, ',');
            ns__put_g(b, p->max, "");
            ns_buf_printf(b, ",%d,%d,", p->outliers, p->used);
            ns__put_g(b, p->fitted, "");
            ns_buf_putc(b, ',');
            ns__put_g(b, p->residual, "");
            ns_buf_putc(b, ',');
            int first_at_x = j == 0 || f->pts[j - 1].x != p->x;
            if (first_at_x && k < f->nslopes && f->slopes[k].x1 == p->x) {
                ns__put_g(b, f->slopes[k].slope, "");
                ns_buf_printf(b, ",%d,", f->slopes[k].cliff);
                k++;
            } else {
                ns_buf_puts(b, ",,");
            }
            ns__put_g(b, f->exponent, "");
            ns_buf_putc(b, ',');
            ns__put_g(b, f->prefactor, "");
            ns_buf_putc(b, ',');
            ns__put_g(b, f->r2, "");
            ns_buf_putc(b, ',');
            ns__put_g(b, f->ci95_lo, "");
            ns_buf_putc(b, ',');
            ns__put_g(b, f->ci95_hi, "");
            ns_buf_putc(b, '\n');
        }
    }
}

/* ====== The command ====== */

/* --where K=V[,K=V...]: repeatable, the pairs add up */
static int ns__opt_where(const ns_option *opt, const char *v, const char **why) {
    if (ns_select_parse((ns_kvlist *)opt->ctx, v) < 0) {
        static char msg[300];
        snprintf(msg, sizeof msg, "K=V[,K=V...], not '%.200s'", v);
        *why = msg;
        return -1;
    }
    return 0;
}

int ns_cmd_fit(int argc, char **argv) {
    int fmt = NS__FIT_TEXT, per = 0;
    static const char *const pers[] = {"run", "report", NULL};
    ns__fitset s = {0};
    ns_runset set = {0};
    ns__fit_reader rd = {&set, 0, NULL, NULL, NULL, 0}; /* run folders read run by run */
    ns_kvlist where = {0};
    ns_csv *tables = NULL;
    int ntables = 0;
    const char *mode = NULL, *stage_spec = NULL; /* --mode, --stages */
    ns_stage_sel stages = {0};
    char **inputs = ns_xcalloc((size_t)argc + 1, sizeof *inputs);
    int ninputs = 0, rc = NS_EXIT_OK, quiet = 0, ndirs = 0;
    ns_buf b = {0};
    ns_strmap_init(&s.names);
    const ns_option own[] = {
        NS_OPT_STRING(0, "x", &s.xname, "AXIS"),
        NS_OPT_STRING(0, "y", &s.yname, "FIELD"),
        NS_OPT_STRING(0, "by", &s.byname, "AXIS"),
        NS_OPT_CHOICE(0, "per", &per, "run|report", pers),
        NS_OPT_CALL(0, "where", "K=V", ns__opt_where, &where),
        NS_OPT_STRING(0, "mode", &mode, "MODE"),
        NS_OPT_STAGES(&stage_spec),
        NS_OPT_CHOICE(0, "format", &fmt, "F", ns__fit_formats),
        NS_OPT_QUIET(&quiet),
        NS_OPT_CSV_RAW(),
        NS_OPT_END(),
    };
    const ns_option *const tabs[] = {own, NULL};
    switch (ns_options_parse("fit", argc, argv, tabs, inputs, &ninputs)) {
    case NS_OPTIONS_HELP: goto out;
    case NS_OPTIONS_ERROR: rc = NS_EXIT_USAGE; goto out;
    default: break;
    }
    s.per_report = per == 1;
    if (s.byname && !*s.byname) {
        rc = ns_options_usage("fit", "--by: a tag name (a column name for CSV input)");
        goto out;
    }
    if (!s.xname || !s.yname) {
        rc = ns_options_usage("fit", "%s is required",
                              !s.xname ? "--x AXIS|metric:NAME" : "--y FIELD");
        goto out;
    }
    if (ninputs == 0) {
        rc = ns_options_usage("fit", "no INPUT given (run folders, or CSV files)");
        goto out;
    }
    if (s.per_report && strncmp(s.xname, "fact:", 5) != 0) {
        rc = ns_options_usage("fit", "--per report: --x is a fact of each report (fact:NAME, "
                                     "e.g. fact:vpuip_tasks), not '%s'", s.xname);
        goto out;
    }
    ns_diag_quiet(quiet);
    /* run folders or CSV files, not both */
    for (int i = 0; i < ninputs; i++) {
        struct stat st;
        if (stat(inputs[i], &st) != 0) {
            ns_error("%s: %s", inputs[i], strerror(errno));
            rc = NS_EXIT_USAGE;
            goto out;
        }
        ndirs += S_ISDIR(st.st_mode) != 0;
    }
    if (ndirs && ndirs != ninputs) {
        rc = ns_options_usage("fit", "the INPUTs are run folders or CSV files, not both");
        goto out;
    }
    s.csv = ndirs == 0;
    if (s.csv && s.per_report) {
        rc = ns_options_usage("fit", "--per report reads the runs' reports: it needs run folders, "
                                     "not CSV files");
        goto out;
    }
    if (s.csv) {
        if (where.n || mode) {
            rc = ns_options_usage("fit", "%s selects runs: it needs run folders, not CSV files",
                               where.n ? "--where" : "--mode");
            goto out;
        }
        if (stage_spec) {
            rc = ns_options_usage("fit", "--stages reads the runs' reports: it needs run folders, "
                                   "not CSV files");
            goto out;
        }
        tables = ns_xcalloc((size_t)ninputs, sizeof *tables);
        for (; ntables < ninputs; ntables++)
            if (ns_csv_read(inputs[ntables], &tables[ntables]) < 0) {
                rc = NS_EXIT_USAGE;
                goto out;
            }
        for (int i = 0; i < ntables; i++)
            if (ns__from_csv(&s, &tables[i]) < 0) {
                rc = NS_EXIT_USAGE;
                goto out;
            }
    } else {
        ns_field fx, fy;
        const char *why;
        if (ns_field_parse(s.xname, 1, &fx, &why) < 0) {
            rc = ns_options_usage("fit", "--x '%s': %s", s.xname, why);
            goto out;
        }
        if (ns_field_parse(s.yname, 0, &fy, &why) < 0) {
            rc = ns_options_usage("fit", "--y '%s': %s", s.yname, why);
            goto out;
        }
        if (ns_stage_sel_init(&stages, stage_spec) < 0) {
            rc = NS_EXIT_USAGE;
            goto out;
        }
        fy.stages = &stages;
        s.y_time = ns_field_is_time(&fy);
        rd.fx = &fx;
        rd.fy = &fy;
        rd.per_report = s.per_report;
        for (int i = 0; i < ninputs; i++)
            if (ns_runs_each(inputs[i], ns__fit_take, &rd) < 0) rc = NS_EXIT_USAGE;
        if (rc) goto out;
        if (set.nruns == 0) {
            ns_error("no runs found in %s%s", inputs[0],
                     ninputs > 1 ? " and the other INPUTs" : "");
            rc = NS_EXIT_NOTHING;
            goto out;
        }
        ns__from_runs(&s, &rd, &where, mode, &fx);
    }
    ns__build(&s);
    int fitted = 0;
    for (int i = 0; i < s.ngroups; i++) {
        ns__group *g = &s.groups[i];
        if (s.per_report) g->fit.min_step = NS_FIT_MIN_STEP;
        if (ns_fit_power(&g->fit) == 0) fitted++;
        int out_of_fit = g->fit.npts - g->fit.used;
        if (out_of_fit) {
            ns_buf label = {0};
            ns__group_label(&label, &s, g);
            ns_warn_at(NULL, 0, "%s: %d point%s with x <= 0 or y <= 0 left out of the fit "
                                "(a power law has no logarithm there)",
                       label.data, out_of_fit, out_of_fit == 1 ? "" : "s");
            ns_buf_free(&label);
        }
    }
    if (s.ngroups == 0) {
        ns_error("nothing to fit: no %s has both %s and %s", s.csv ? "record" : "counted run",
                 s.xname, s.yname);
        rc = NS_EXIT_NOTHING;
        goto out;
    }
    if (fmt == NS__FIT_TEXT) ns__render_text(&b, &s, inputs, ninputs);
    else if (fmt == NS__FIT_CSV) ns__render_csv(&b, &s);
    else ns__render_json(&b, &s);
    if (ns_buf_flush(&b, stdout) || fflush(stdout)) {
        ns_error("error writing the output");
        rc = NS_EXIT_USAGE;
    } else if (!fitted) {
        ns_error("no group has 2 points with x > 0 and y > 0 at distinct x: no fit");
        rc = NS_EXIT_NOTHING;
    }
    ns_diag_summary();
out:
    for (int i = 0; i < s.ngroups; i++) ns_fit_free(&s.groups[i].fit);
    free(s.groups);
    free(s.obs);
    for (int i = 0; i < ntables; i++) ns_csv_free(&tables[i]);
    free(tables);
    for (int i = 0; i < set.nruns; i++) free(rd.dig[i].pts);
    free(rd.dig);
    ns_runset_free(&set);
    ns_stage_sel_free(&stages);
    ns_kv_free(&where);
    ns_strmap_free(&s.names);
    free(inputs);
    ns_buf_free(&b);
    return rc;
}
