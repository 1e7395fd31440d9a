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
 * The reading of runs and records into points and groups is
 * analyse/fitting.c's (shared with `predict`); this file is the command
 * line and the renderings.
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
#include "analyse/fitting.h"
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

static void ns__render_group_text(ns_buf *b, const ns_fitset *s, const ns_fit_group *g) {
    const ns_fit *f = &g->fit;
    ns_buf c = {0};
    ns_fitset_label(b, s, g);
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

static void ns__render_text(ns_buf *b, const ns_fitset *s, char **inputs, int ninputs) {
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

static void ns__render_json(ns_buf *b, const ns_fitset *s) {
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
        const ns_fit_group *g = &s->groups[i];
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
static void ns__render_csv(ns_buf *b, const ns_fitset *s) {
    ns_buf_puts(b, "group,mode,x,y,n,min,max,outliers,in_fit,fitted,residual,local_slope,cliff,"
                   "exponent,prefactor,r2,ci95_lo,ci95_hi\n");
    for (int i = 0; i < s->ngroups; i++) {
        const ns_fit_group *g = &s->groups[i];
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

/* When --where / --mode match no counted run, say so, naming the filter
 * and what the runs have (their tags and their values, their modes), and
 * return 1; 0 when the filter matched runs (the data is to blame). */
static int ns__filter_empty(const ns_runset *set, const ns_kvlist *where, const char *mode) {
    ns_selection sel;
    ns_select_runs(set, where, mode, &sel);
    int empty = sel.n == 0;
    ns_selection_free(&sel);
    if (!empty) return 0;
    int counted = 0;
    ns_strmap keys, modes;
    ns_strmap_init(&keys);
    ns_strmap_init(&modes);
    for (int i = 0; i < set->nruns; i++) {
        const ns_run *r = &set->runs[i];
        if (!ns_run_counted(r)) continue;
        counted++;
        int added;
        for (int k = 0; k < r->tags.n; k++) ns_strmap_intern(&keys, r->tags.items[k].key, &added);
        ns_strmap_intern(&modes, r->mode ? r->mode : "none", &added);
    }
    ns_buf f = {0}, have = {0};
    for (int k = 0; k < where->n; k++)
        ns_buf_printf(&f, "%s%s=%s", k ? "," : "--where ", where->items[k].key, where->items[k].value);
    if (mode) ns_buf_printf(&f, "%s--mode %s", f.len ? " " : "", mode);
    for (size_t k = 0; k < keys.count; k++) {
        ns_buf_printf(&have, "%s%s", k ? ", " : "; tags here: ", keys.keys[k]);
        for (int w = 0; w < where->n; w++) {
            if (strcmp(where->items[w].key, keys.keys[k])) continue;
            ns_buf_puts(&have, " (values:");
            ns_strmap vals;
            ns_strmap_init(&vals);
            for (int i = 0; i < set->nruns; i++) {
                const char *v = ns_kv_get(&set->runs[i].tags, keys.keys[k]);
                int added;
                if (v && ns_run_counted(&set->runs[i])) ns_strmap_intern(&vals, v, &added);
            }
            for (size_t v = 0; v < vals.count && v < 8; v++) ns_buf_printf(&have, " %s", vals.keys[v]);
            if (vals.count > 8) ns_buf_puts(&have, " ...");
            ns_buf_putc(&have, ')');
            ns_strmap_free(&vals);
            break;
        }
    }
    if (!keys.count) ns_buf_puts(&have, "; the runs have no tags");
    ns_buf_puts(&have, "; modes here:");
    for (size_t k = 0; k < modes.count; k++) ns_buf_printf(&have, " %s", modes.keys[k]);
    ns_error("%s matches none of the %d counted runs%s", f.data, counted, have.data);
    ns_buf_free(&f);
    ns_buf_free(&have);
    ns_strmap_free(&keys);
    ns_strmap_free(&modes);
    return 1;
}

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
    ns_fitset s = {0};
    ns_runset set = {0};
    ns_fit_reader rd = {&set, 0, NULL, NULL, NULL, 0}; /* run folders read run by run */
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
            if (ns_fitset_from_csv(&s, &tables[i]) < 0) {
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
            if (ns_runs_each(inputs[i], ns_fit_reader_take, &rd) < 0) rc = NS_EXIT_USAGE;
        if (rc) goto out;
        if (set.nruns == 0) {
            ns_error("no runs found in %s%s", inputs[0],
                     ninputs > 1 ? " and the other INPUTs" : "");
            rc = NS_EXIT_NOTHING;
            goto out;
        }
        ns_fitset_from_runs(&s, &rd, &where, mode, &fx);
    }
    ns_fitset_build(&s);
    int fitted = 0;
    for (int i = 0; i < s.ngroups; i++) {
        ns_fit_group *g = &s.groups[i];
        if (s.per_report) g->fit.min_step = NS_FIT_MIN_STEP;
        if (ns_fit_power(&g->fit) == 0) fitted++;
        int out_of_fit = g->fit.npts - g->fit.used;
        if (out_of_fit) {
            ns_buf label = {0};
            ns_fitset_label(&label, &s, g);
            ns_warn_at(NULL, 0, "%s: %d point%s with x <= 0 or y <= 0 left out of the fit "
                                "(a power law has no logarithm there)",
                       label.data, out_of_fit, out_of_fit == 1 ? "" : "s");
            ns_buf_free(&label);
        }
    }
    if (s.ngroups == 0 && !s.csv && (where.n || mode) && ns__filter_empty(&set, &where, mode)) {
        rc = NS_EXIT_NOTHING; /* the filter matched nothing: said, naming it */
        goto out;
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
    ns_fitset_free(&s);
    for (int i = 0; i < ntables; i++) ns_csv_free(&tables[i]);
    free(tables);
    ns_fit_reader_free(&rd);
    ns_runset_free(&set);
    ns_stage_sel_free(&stages);
    ns_kv_free(&where);
    free(inputs);
    ns_buf_free(&b);
    return rc;
}
