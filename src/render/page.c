/* page.c -- the report page from its model: the entry ns_render_page, and
 * the parts that are neither findings nor figures (page.h; page_int.h
 * lists the module's files).
 *
 * The page is filled in the order a reader meets it -- title and notes,
 * findings, the explorer's data block (page_data.c), the runs and diff
 * tables, figures, method -- so that what each part says matches what the parts above it
 * said.  Tables hold text cells: numbers are printed here with the
 * decimals `table` and `diff` print ("-" for a missing one), the numbers
 * themselves come from the model.
 *
 * This file must not compute a statistic, read a file or print.
 */
#include "render/page_int.h"

#include "base/jsonw.h"
#include "render/render.h"
#include "render/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NS__DIFF_PASSES 25 /* passes in the diff table */
#define NS__MAX_LIST 12    /* values listed per method fact */

/* ====== Title and notes ====== */

static void ns__title(ns_page *p, const ns_page_model *m) {
    const ns_page_input *in = m->in;
    ns_buf t = {0};
    ns_buf_puts(&t, "npuscope report: ");
    ns_buf_puts(&t, in->ninputs ? in->inputs[0] : "standard input");
    if (in->ninputs > 1) ns_buf_printf(&t, " and %d more", in->ninputs - 1);
    p->title = t.data;
    p->subtitle = ns_strdup(in->from ? in->from : "");
    ns_buf note = {0};
    if (in->set->nruns)
        ns_buf_puts(&note, "Pick a configuration, its mode and a run (the median run first), and "
                           "compare it with another. ");
    if (m->shown.extras_left)
        ns_buf_printf(&note, "Only the median runs' trees are embedded: the %d fastest and slowest "
                             "runs would take the page past %d rows. ",
                      m->shown.extras_left, NS_PAGE_FULL_NODES);
    if (m->shown.omitted)
        ns_buf_printf(&note, "%d report%s left out: the page holds at most %d rows. ",
                      m->shown.omitted, m->shown.omitted == 1 ? " is" : "s are", NS_PAGE_MAX_NODES);
    ns_buf_puts(&note, "Click a row, or use the arrow keys, Enter or Space, Home and End; "
                       "shares are of the report's total (wall)");
    if (in->set->nruns)
        ns_buf_puts(&note, ", and in a run of several sub-model compiles a sub-model's row and its "
                           "kind's row have shares of the run's total");
    ns_buf_puts(&note, ".");
    p->tree_note = note.data;
}

/* ====== Tables ====== */

static char *ns__fmt_new(const char *fmt, double v) {
    if (!isfinite(v)) return ns_strdup("-");
    char buf[64];
    snprintf(buf, sizeof buf, fmt, v);
    return ns_strdup(buf);
}

/* One row per configuration and mode, the columns `table` prints first. */
static void ns__runs_table(ns_page *p, const ns_page_model *m) {
    const ns_table *tb = &m->table;
    if (!tb->nrows) return;
    int any_cache = 0, any_regime = 0, any_cold = 0;
    for (int g = 0; g < tb->nrows; g++) {
        any_cache |= isfinite(tb->rows[g].cache_x);
        any_regime |= tb->rows[g].regime >= 0;
        any_cold |= strcmp(tb->rows[g].cfg.mode, "cold") == 0 ||
                    strcmp(tb->rows[g].cfg.mode, "warm") == 0;
    }
    int nc = tb->nkeys + 5 + any_cache + any_regime;
    const char **head = ns_xcalloc((size_t)nc + 2, sizeof *head);
    unsigned char *num = ns_xcalloc((size_t)nc + 2, 1);
    int c = 0;
    for (int k = 0; k < tb->nkeys; k++) head[c++] = tb->keys[k];
    head[c++] = "mode";
    num[c] = 1, head[c++] = "n";
    num[c] = 1, head[c++] = "median s";
    num[c] = 1, head[c++] = "min s";
    num[c] = 1, head[c++] = "max s";
    if (any_cache) num[c] = 1, head[c++] = "cache \xc3\x97";
    if (any_regime) head[c++] = "dominant stage";
    ns_html_table *t = ns_page_table(p);
    ns_html_table_init(t, "runs-table",
                       any_cold ? "Cold and warm compiles per configuration"
                                : "Compiles per configuration",
                       head, num);
    for (int g = 0; g < tb->nrows; g++) {
        const ns_table_row *x = &tb->rows[g];
        char **row = ns_html_table_row(t, x->cfg.mode);
        c = 0;
        for (int k = 0; k < tb->nkeys; k++) {
            const char *v = ns_table_tag(x, tb->keys[k]);
            row[c++] = ns_strdup(v ? v : "-");
        }
        row[c++] = ns_strdup(x->cfg.mode);
        row[c++] = ns__fmt_new("%.0f", x->n);
        row[c++] = ns__fmt_new("%.4f", x->median);
        row[c++] = ns__fmt_new("%.4f", x->min);
        row[c++] = ns__fmt_new("%.4f", x->max);
        if (any_cache) row[c++] = ns__fmt_new("%.2f", x->cache_x);
        if (any_regime) {
            ns_buf b = {0};
            if (x->regime >= 0)
                ns_buf_printf(&b, "%s %.0f%%", tb->stages.keys[x->regime], x->shares[x->regime] * 100);
            else
                ns_buf_puts(&b, "-");
            row[c++] = b.data;
        }
    }
    t->note = ns_strdup("Statistics over the counted runs of each configuration and mode (ok, "
                        "neither warmups nor cache primers); wall seconds. cache \xc3\x97 = median "
                        "cold / median warm of the same configuration. Dominant stage: the stage "
                        "with the largest median share of the compile's time by the stage map. "
                        "npuscope table prints the same rows with more columns.");
    free(head);
    free(num);
}

/* A against B: the rows of `diff`, the heaviest NS__DIFF_PASSES passes. */
static void ns__diff_table(ns_page *p, const ns_page_model *m) {
    const ns_page_diff *pd = &m->diff;
    if (!pd->asked || !pd->a_n || !pd->b_n) return;
    const ns_diff *d = &pd->diff;
    static const char *const head[] = {"row", "A n", "B n", "A median", "B median",
                                       "B / A", "p", "verdict", NULL};
    static const unsigned char num[] = {0, 1, 1, 1, 1, 1, 1, 0};
    /* runs without a cache mode ("none") have no mode worth a word */
    const char *mode = pd->mode && strcmp(pd->mode, "none") ? pd->mode : NULL;
    ns_buf cap = {0};
    ns_buf_printf(&cap, "A (%s) against B (%s)%s%s", m->opts->sel_a, m->opts->sel_b,
                  mode ? ", mode " : "", mode ? mode : "");
    ns_html_table *t = ns_page_table(p);
    ns_html_table_init(t, "diff-table", cap.data, head, num);
    int passes = 0;
    for (int i = 0; i < d->nrows; i++) {
        const ns_diff_row *r = &d->rows[i];
        if (r->kind == NS_DIFF_PASS && ++passes > NS__DIFF_PASSES) continue;
        char **row = ns_html_table_row(t, r->verdict);
        row[0] = ns_strdup(r->name);
        row[1] = ns__fmt_new("%.0f", (double)r->a_n);
        row[2] = ns__fmt_new("%.0f", (double)r->b_n);
        /* seconds to 0.1 ms; a metric in its own unit; memory in whole kB */
        const char *f = r->kind == NS_DIFF_METRIC   ? "%.6g"
                        : r->kind == NS_DIFF_MEMORY ? "%.0f"
                                                    : "%.4f";
        row[3] = ns__fmt_new(f, r->a_median);
        row[4] = ns__fmt_new(f, r->b_median);
        row[5] = ns__fmt_new("%.3f", r->ratio);
        row[6] = ns__fmt_new("%.4f", r->p);
        ns_buf v = {0};
        ns_diff_verdict_text(&v, r);
        row[7] = v.data;
    }
    ns_buf note = {0};
    ns_buf_printf(&note, "Medians over the counted runs of each side (seconds; metrics in "
                         "their own unit; a pass's memory increase in kB); B / A is the "
                         "ratio of the medians; p is the "
                         "two-sided Mann-Whitney U p-value; slower or faster needs p < %.2f "
                         "and a shift over %.0f%% of A's median, same needs the shift's "
                         "interval inside that, else inconclusive (npuscope diff, which this "
                         "table follows). ",
                  pd->opts.alpha, pd->opts.threshold);
    if (passes > NS__DIFF_PASSES)
        ns_buf_printf(&note, "The %d heaviest of %d passes are shown. ", NS__DIFF_PASSES, passes);
    if (pd->min_p >= pd->opts.alpha)
        ns_buf_printf(&note, "With %d against %d runs no difference can be significant (the "
                             "smallest p these sizes reach is %.3f).",
                      pd->a_n, pd->b_n, pd->min_p);
    t->note = note.data;
    ns_buf_free(&cap);
}

/* ====== Method & reproducibility ====== */

/* A tally as a fact: its first NS__MAX_LIST values, with their counts. */
static void ns__tally_fact(ns_page *p, const ns_page_tally *t, const char *term, int code) {
    if (!t->m.count) return;
    ns_html_fact *f = ns_page_fact(p, term, code);
    ns_buf b = {0};
    for (size_t i = 0; i < t->m.count && i < NS__MAX_LIST; i++) {
        b.len = 0;
        ns_buf_printf(&b, "%s  (%d)", t->m.keys[i], t->count[i]);
        ns_page_fact_add(f, b.data);
    }
    if (t->m.count > NS__MAX_LIST) {
        b.len = 0;
        ns_buf_printf(&b, "... and %zu more", t->m.count - NS__MAX_LIST);
        ns_page_fact_add(f, b.data);
    }
    ns_buf_free(&b);
}

static void ns__env_fact(ns_page *p, const ns_page_method *mt) {
    if (!mt->env.count) return;
    ns_html_fact *f = ns_page_fact(p, "environment npuscope set", 1);
    ns_buf b = {0};
    for (size_t v = 0; v < mt->env.count; v++) {
        const char *key = mt->env.keys[v];
        const ns_page_tally *vt = &mt->env_values[v];
        b.len = 0;
        ns_buf_printf(&b, "%s=", key);
        if (strcmp(key, "NPUSCOPE_RUN_DIR") == 0 || strcmp(key, "NPUSCOPE_CACHE_DIR") == 0) {
            ns_buf_puts(&b, "(a folder per run)");
        } else {
            for (size_t k = 0; k < vt->m.count && k < NS__MAX_LIST; k++)
                ns_buf_printf(&b, "%s%s", k ? " | " : "", vt->m.keys[k]);
            if (vt->m.count > NS__MAX_LIST) ns_buf_printf(&b, " | ... (%zu values)", vt->m.count);
        }
        ns_page_fact_add(f, b.data);
    }
    ns_buf_free(&b);
}

static void ns__method(ns_page *p, const ns_page_model *m) {
    const ns_page_method *mt = &m->method;
    ns_html_fact *f = ns_page_fact(p, "npuscope", 0);
    ns_page_fact_add(f, "npuscope " NS_VERSION);
    f = ns_page_fact(p, "this page was made with", 1);
    ns_page_fact_add(f, mt->command);
    f = ns_page_fact(p, "inputs", 0);
    ns_page_fact_add(f, m->in->from ? m->in->from : "-");
    ns__tally_fact(p, &mt->commands, "commands recorded (runs)", 1);
    ns__env_fact(p, mt);
    ns__tally_fact(p, &mt->hosts, "hosts (run.json; number of runs)", 0);
    ns_buf b = {0};
    if (mt->first) {
        f = ns_page_fact(p, "recorded (run.json started_at, UTC)", 0);
        ns_buf_printf(&b, "%s to %s", mt->first, mt->last);
        ns_page_fact_add(f, b.data);
    }
    ns__tally_fact(p, &mt->reports, "timing reports (producer: title; number of reports)", 0);
    if (mt->facts.count) {
        f = ns_page_fact(p, "compiler facts logged", 0);
        for (size_t n = 0; n < mt->facts.count; n++) {
            char x[32], y[32];
            b.len = 0;
            if (mt->fact_n[n] == 1)
                ns_buf_printf(&b, "%s: %s", mt->facts.keys[n], ns_svg_num(x, mt->fact_min[n], 6));
            else
                ns_buf_printf(&b, "%s: %s to %s over %d reports", mt->facts.keys[n],
                              ns_svg_num(x, mt->fact_min[n], 6), ns_svg_num(y, mt->fact_max[n], 6),
                              mt->fact_n[n]);
            ns_page_fact_add(f, b.data);
        }
    }
    if (m->table.stages.count) {
        f = ns_page_fact(p, "stage maps", 0);
        b.len = 0;
        if (m->opts->stage_spec) ns_buf_printf(&b, "--stages %s", m->opts->stage_spec);
        else ns_buf_puts(&b, "automatic: vpux for NPU compiler reports, mlir for the others");
        ns_buf_puts(&b, " (npuscope stages prints a map's rules; npuscope stages INPUT shows "
                        "which rule decided each row)");
        ns_page_fact_add(f, b.data);
    }
    ns_buf_free(&b);
    f = ns_page_fact(p, "statistics", 0);
    ns_page_fact_add(f, "Times are the compiler's printed values, never rescaled; shares of a "
                        "report's Total (wall). Runs count when they succeeded and are neither "
                        "warmups nor cache primers; medians over them, min to max as the spread.");
    ns_page_fact_add(f, "Power laws: least squares of ln time on ln x, 95% confidence interval "
                        "of the exponent by Student's t with n-2 degrees of freedom (npuscope "
                        "fit). Diff: exact two-sided Mann-Whitney U p-value (npuscope diff).");
}

/* ====== The page ====== */

void ns_render_page(ns_page *p, const ns_page_model *m) {
    ns__title(p, m);
    ns__render_page_findings(p, m);
    ns__render_page_change(p, m); /* sections after the findings: one hook each */
    ns__render_page_data(p, m);
    ns__runs_table(p, m);
    ns__diff_table(p, m);
    ns__render_page_figures(p, m);
    ns__method(p, m);
}
