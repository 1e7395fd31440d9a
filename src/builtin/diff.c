/* diff.c -- `npuscope diff`: A against B, total, passes and metrics,
 * with exact statistics and a gate for CI.
 *
 * The two sides are two folders (each a run folder or a folder of runs),
 * or two tag selections of one folder (--a precision=int8 --b
 * precision=int4); with two folders --a and --b still narrow each side.
 * Only counted runs compare (ok, neither warmups nor primers).  A side
 * whose counted runs span cache modes is refused until --mode picks one:
 * a median of cold and warm compiles is not a number about anything.
 *
 * The folders are read run by run: what a row needs of a run's trees is
 * summarised as it is read, and a run neither side can select is dropped
 * (see "Reading, run by run").
 *
 * The rows and the verdict rule are diff.c's.  Here: reading, the warning
 * that a side has too few runs to ever be significant (with the smallest
 * p its sizes can reach), printing, and --fail-if-slower: exit 1 when the
 * total is "slower" (significant and over --threshold) by more than PCT.
 *
 * Text is for people: seconds %.4f, ratios as x1.234, signed shifts, p to
 * 4 decimals; time rows and metric rows in one table, so a compile-time
 * cost and a runtime gain read side by side.  CSV and JSON (the contract
 * in DESIGN.md, docs/formats.md) carry 15 significant digits.
 */
#include "builtin/builtin.h"
#include "cli/cli.h"
#include "analyse/dataset.h"
#include "analyse/diff.h"
#include "base/display.h"
#include "base/jsonw.h"
#include "analyse/stats.h"
#include "render/grid.h"

#include "render/diff_pr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* --format: an index into ns__diff_formats */
enum { NS__DIFF_TEXT, NS__DIFF_CSV, NS__DIFF_JSON, NS__DIFF_MARKDOWN, NS__DIFF_GITHUB };
static const char *const ns__diff_formats[] = {"text", "csv", "json", "markdown", "github", NULL};

/* Runs this many a side make an exact test worth its name. */
#define NS__DIFF_ENOUGH 5

typedef struct {
    const char *dir;    /* the folder (borrowed from argv) */
    ns_kvlist sel;      /* --a / --b tag selection */
    const char *spec;   /* the selection as written, joined (owned by spec_buf) */
    ns_buf spec_buf;    /* "K=V,K=V" of all --a / --b given */
    ns_selection runs;  /* its counted runs */
    const char *mode;   /* its one mode (borrowed), NULL when it has none */
} ns__side;

/* ====== Numbers ====== */

static void ns__put_g(ns_buf *b, double v, const char *missing) {
    if (!isfinite(v)) {
        ns_buf_puts(b, missing);
        return;
    }
    if (v == 0) v = 0;
    ns_buf_printf(b, "%.15g", v);
}

/* A value for people: seconds %.4f; a metric with up to 4 decimals,
 * trailing zeros dropped (%.4g when tiny or huge).  sign: always signed. */
static void ns__put_value(ns_buf *b, double v, int time, int sign) {
    if (!isfinite(v)) {
        ns_buf_putc(b, '-');
        return;
    }
    if (v == 0) v = 0;
    if (time) {
        ns_buf_printf(b, sign ? "%+.4f s" : "%.4f", v);
        return;
    }
    double a = fabs(v);
    if ((a < 0.01 && a > 0) || a >= 1e12) {
        ns_buf_printf(b, sign ? "%+.4g" : "%.4g", v);
        return;
    }
    size_t at = b->len;
    ns_buf_printf(b, sign ? "%+.4f" : "%.4f", v);
    while (b->len > at && b->data[b->len - 1] == '0') b->len--;
    if (b->len > at && b->data[b->len - 1] == '.') b->len--;
    b->data[b->len] = 0;
}

static void ns__put_p(ns_buf *b, double p) {
    if (!isfinite(p)) ns_buf_putc(b, '-');
    else if (p >= 1e-4) ns_buf_printf(b, "%.4f", p);
    else ns_buf_printf(b, "%.1e", p);
}

/* ====== Text ====== */

/* "A  DIR  K=V  mode cold  5 runs (1 not counted: 1 failed)" */
static void ns__render_side(ns_buf *b, const char *label, const ns__side *s) {
    /* the folder and the selection are data: controls shown escaped */
    ns_buf_printf(b, "%s  ", label);
    ns_display_name(b, s->dir);
    if (s->sel.n) {
        ns_buf_puts(b, "  ");
        ns_display_name(b, s->spec);
    }
    if (s->mode && strcmp(s->mode, "none") != 0) ns_buf_printf(b, "  mode %s", s->mode);
    const ns_selection *r = &s->runs;
    ns_buf_printf(b, "  %d run%s", r->n, r->n == 1 ? "" : "s");
    int left = r->matched - r->n;
    if (left) {
        ns_buf_printf(b, " (%d not counted:", left);
        const char *sep = " ";
        if (r->failed) ns_buf_printf(b, "%s%d failed", sep, r->failed), sep = ", ";
        if (r->warmups)
            ns_buf_printf(b, "%s%d warmup%s", sep, r->warmups, r->warmups == 1 ? "" : "s"),
                sep = ", ";
        if (r->primers)
            ns_buf_printf(b, "%s%d primer%s", sep, r->primers, r->primers == 1 ? "" : "s");
        ns_buf_putc(b, ')');
    }
    ns_buf_putc(b, '\n');
}

static void ns__render_text(ns_buf *b, const ns__side *sa, const ns__side *sb, const ns_diff *d,
                            const ns_diff_opts *o) {
    ns__render_side(b, "A", sa);
    ns__render_side(b, "B", sb);
    ns_buf_printf(b, "two-sided Mann-Whitney U (exact up to about 45 runs a side): slower or\n"
                     "faster needs p < %g and a shift of more than %g%% of A's median; same\n"
                     "needs the shift's %g%% interval inside +-%g%%; else inconclusive\n\n",
                  o->alpha, o->threshold, ns_diff_ci_level(o) * 100, o->threshold);
    ns_grid g = {NULL, 0, 9, "lrrrrrrrl", NULL, 0};
    ns_buf c = {0};
    static const char *const head[] = {"name",  "A n",   "B n", "A median", "B median",
                                       "ratio", "shift", "p",   "verdict"};
    for (int i = 0; i < 9; i++) {
        ns_buf_puts(&c, head[i]);
        ns_grid_take(&g, &c);
    }
    for (int i = 0; i < d->nrows; i++) {
        const ns_diff_row *r = &d->rows[i];
        int time = r->kind != NS_DIFF_METRIC && r->kind != NS_DIFF_MEMORY;
        ns_buf_puts(&c, r->name);
        ns_grid_take(&g, &c);
        ns_buf_printf(&c, "%zu", r->a_n);
        ns_grid_take(&g, &c);
        ns_buf_printf(&c, "%zu", r->b_n);
        ns_grid_take(&g, &c);
        ns__put_value(&c, r->a_median, time, 0);
        ns_grid_take(&g, &c);
        ns__put_value(&c, r->b_median, time, 0);
        ns_grid_take(&g, &c);
        if (isfinite(r->ratio)) ns_buf_printf(&c, "×%.3f", r->ratio);
        else ns_buf_putc(&c, '-');
        ns_grid_take(&g, &c);
        ns__put_value(&c, r->shift, time, 1);
        ns_grid_take(&g, &c);
        ns__put_p(&c, r->p);
        ns_grid_take(&g, &c);
        ns_diff_verdict_text(&c, r);
        ns_grid_take(&g, &c);
    }
    ns_grid_write(b, &g);
    for (int i = 0; i < d->nrows; i++)
        if (d->rows[i].kind == NS_DIFF_MEMORY) {
            ns_buf_puts(b, "(mem:PASS: kB the pass raised the compiler's peak memory, summed over "
                           "a run's compiles;\n"
                           " the memory-usage-collector's lines; 0 where a run has them but "
                           "none for the pass)\n");
            break;
        }
    if (d->skipped)
        ns_buf_printf(b, "(%d pass%s under 0.1 ms on both sides not shown; --all shows them)\n",
                      d->skipped, d->skipped == 1 ? "" : "es");
    ns_buf_free(&c);
}

/* ====== CSV and JSON ====== */

static const char *ns__kind_name(ns_diff_kind k) {
    return k == NS_DIFF_TOTAL ? "total" : k == NS_DIFF_PASS ? "pass"
                                : k == NS_DIFF_STAGE ? "stage"
                                : k == NS_DIFF_MEMORY ? "memory" : "metric";
}

static void ns__render_csv(ns_buf *b, const ns_diff *d) {
    ns_buf_puts(b, "name,kind,a_n,b_n,a_median,b_median,ratio,shift,p,verdict,better,shift_lo,"
                   "shift_hi\n");
    for (int i = 0; i < d->nrows; i++) {
        const ns_diff_row *r = &d->rows[i];
        ns_csv_field(b, r->name);
        ns_buf_printf(b, ",%s,%zu,%zu,", ns__kind_name(r->kind), r->a_n, r->b_n);
        ns__put_g(b, r->a_median, "");
        ns_buf_putc(b, ',');
        ns__put_g(b, r->b_median, "");
        ns_buf_putc(b, ',');
        ns__put_g(b, r->ratio, "");
        ns_buf_putc(b, ',');
        ns__put_g(b, r->shift, "");
        ns_buf_putc(b, ',');
        ns__put_g(b, r->p, "");
        ns_buf_printf(b, ",%s,%s,", r->verdict, r->higher_better ? "higher" : "lower");
        ns__put_g(b, r->ci_lo, "");
        ns_buf_putc(b, ',');
        ns__put_g(b, r->ci_hi, "");
        ns_buf_putc(b, '\n');
    }
}

static void ns__json_side(ns_buf *b, const ns__side *s) {
    ns_buf_puts(b, "{\"input\":");
    ns_json_str(b, s->dir);
    ns_buf_puts(b, ",\"select\":{");
    for (int i = 0; i < s->sel.n; i++) {
        if (i) ns_buf_putc(b, ',');
        ns_json_str(b, s->sel.items[i].key);
        ns_buf_putc(b, ':');
        ns_json_str(b, s->sel.items[i].value);
    }
    ns_buf_puts(b, "},\"mode\":");
    if (s->mode) ns_json_str(b, s->mode);
    else ns_buf_puts(b, "null");
    ns_buf_printf(b, ",\"runs\":%d,\"failed\":%d,\"warmups\":%d,\"primers\":%d}", s->runs.n,
                  s->runs.failed, s->runs.warmups, s->runs.primers);
}

static void ns__render_json(ns_buf *b, const ns__side *sa, const ns__side *sb, const ns_diff *d,
                            const ns_diff_opts *o, double min_p) {
    ns_buf_puts(b, "{\"format\":\"npuscope-diff\",\"version\":1,\"alpha\":");
    ns__put_g(b, o->alpha, "null");
    ns_buf_puts(b, ",\"threshold_pct\":");
    ns__put_g(b, o->threshold, "null");
    ns_buf_puts(b, ",\"ci_level\":");
    ns__put_g(b, ns_diff_ci_level(o), "null");
    ns_buf_puts(b, ",\"min_p\":");
    ns__put_g(b, min_p, "null");
    ns_buf_puts(b, ",\"a\":");
    ns__json_side(b, sa);
    ns_buf_puts(b, ",\"b\":");
    ns__json_side(b, sb);
    ns_buf_printf(b, ",\"skipped\":%d,\"rows\":[", d->skipped);
    for (int i = 0; i < d->nrows; i++) {
        const ns_diff_row *r = &d->rows[i];
        ns_buf_puts(b, i ? ",\n{\"name\":" : "\n{\"name\":");
        ns_json_str(b, r->name);
        ns_buf_printf(b, ",\"kind\":\"%s\",\"a_n\":%zu,\"b_n\":%zu,\"a_median\":",
                      ns__kind_name(r->kind), r->a_n, r->b_n);
        ns__put_g(b, r->a_median, "null");
        ns_buf_puts(b, ",\"b_median\":");
        ns__put_g(b, r->b_median, "null");
        ns_buf_puts(b, ",\"ratio\":");
        ns__put_g(b, r->ratio, "null");
        ns_buf_puts(b, ",\"shift\":");
        ns__put_g(b, r->shift, "null");
        ns_buf_puts(b, ",\"shift_ci\":[");
        ns__put_g(b, r->ci_lo, "null");
        ns_buf_putc(b, ',');
        ns__put_g(b, r->ci_hi, "null");
        ns_buf_puts(b, "],\"p\":");
        ns__put_g(b, r->p, "null");
        ns_buf_printf(b, ",\"verdict\":\"%s\",\"better\":\"%s\"}", r->verdict,
                      r->higher_better ? "higher" : "lower");
    }
    ns_buf_puts(b, "\n]}\n");
}

/* ====== The gate ======
 * --fail-if-slower PCT decides on the total row: exit 1 when it is
 * "slower" by more than PCT (with A's median 0, any slower B is), 0 when
 * it is "faster", "same", "slower" by less, or "inconclusive" with the
 * whole interval of the shift at most PCT of A's median (the slowdown is
 * shown to be under the gate); otherwise the gate cannot decide and says
 * so, exit 2 -- never 0, which a CI would read as "not slower".  When the
 * sides are too small for any p to reach alpha, it names the runs a side
 * that could. */
static int ns__gate(const ns_diff_row *t, double pct, size_t na, size_t nb,
                    const ns_diff_opts *o) {
    double limit = fabs(t->a_median) * pct / 100;
    if (!strcmp(t->verdict, "slower")) {
        if (t->a_median == 0 ? t->b_median > 0 : t->ratio > 1 + pct / 100) {
            ns_error("total is slower: B median %.4f s against A %.4f s (x%.3f, p = %.4g), more "
                     "than the %g%% --fail-if-slower allows",
                     t->b_median, t->a_median, t->ratio, t->p, pct);
            return NS_EXIT_NOTHING;
        }
        return NS_EXIT_OK;
    }
    if (strcmp(t->verdict, "inconclusive") != 0 || t->ci_hi <= limit) return NS_EXIT_OK;
    if (!(ns_mann_whitney_min_p(na, nb) < o->alpha)) {
        size_t k = 1;
        while (!(ns_mann_whitney_min_p(k, k) < o->alpha)) k++;
        ns_error("--fail-if-slower cannot decide: with %zu run%s in A and %zu in B no p can "
                 "reach alpha %g; record at least %zu runs a side",
                 na, na == 1 ? "" : "s", nb, o->alpha, k);
    } else
        ns_error("--fail-if-slower cannot decide: the total is inconclusive (B median %.4f s "
                 "against A %.4f s, p = %.4g; the shift's interval [%.4g, %.4g] s reaches past "
                 "the %g%% gate); record more runs",
                 t->b_median, t->a_median, t->p, t->ci_lo, t->ci_hi, pct);
    return NS_EXIT_USAGE;
}

/* ====== Reading, run by run ======
 * A folder is read one run at a time (ns_runs_each): a run either side can
 * select is summarised (analyse/diff.h, ns_diff_keep_run) and kept without
 * its trees, the others are dropped as they come, so memory grows with the
 * selected runs' records and a few numbers per pass, not with every tree
 * of the history. */
typedef struct {
    ns_runset set;          /* the runs kept, trees freed (reading order) */
    ns_diff_sums *sums;     /* the summary of each, parallel to set.runs */
    int cap;                /* allocated entries of both */
    ns_diff_keep *keep;     /* the names every summary shares (borrowed) */
    const ns_kvlist *sel[2]; /* a run is kept when it matches one of them (NULL: none) */
} ns__diff_reader;

static void ns__diff_take(ns_run *r, void *ctx) {
    ns__diff_reader *rd = ctx;
    int want = 0;
    for (int s = 0; s < 2 && !want; s++) want = rd->sel[s] && ns_select_match(r, rd->sel[s]);
    if (!want) {
        ns_run_free(r);
        return;
    }
    if (rd->set.nruns == rd->cap) {
        rd->cap = rd->cap ? 2 * rd->cap : 64;
        rd->set.runs = ns_xrealloc(rd->set.runs, sizeof *rd->set.runs * (size_t)rd->cap);
        rd->sums = ns_xrealloc(rd->sums, sizeof *rd->sums * (size_t)rd->cap);
    }
    ns_run *kept = &rd->set.runs[rd->set.nruns];
    *kept = *r;
    ns_diff_keep_run(rd->keep, kept, &rd->sums[rd->set.nruns++]);
    ns_run_free_reports(kept);
}

static void ns__diff_reader_free(ns__diff_reader *rd) {
    for (int i = 0; i < rd->set.nruns; i++) ns_diff_sums_free(&rd->sums[i]);
    free(rd->sums);
    ns_runset_free(&rd->set);
    memset(rd, 0, sizeof *rd);
}

/* The summaries of a side's counted runs, in their order (rd read them). */
static const ns_diff_sums **ns__side_sums_new(const ns__diff_reader *rd, const ns__side *s) {
    const ns_diff_sums **out = ns_xcalloc((size_t)s->runs.n + 1, sizeof *out);
    for (int i = 0; i < s->runs.n; i++) out[i] = &rd->sums[s->runs.runs[i] - rd->set.runs];
    return out;
}

/* ====== The command ====== */

/* Add a --a / --b selection to a side; -1 when malformed. */
static int ns__side_select(ns__side *s, const char *spec) {
    if (ns_select_parse(&s->sel, spec) < 0) return -1;
    if (s->spec_buf.len) ns_buf_putc(&s->spec_buf, ',');
    ns_buf_puts(&s->spec_buf, spec);
    s->spec = s->spec_buf.data;
    return 0;
}

/* Warn when a side's runs are of several commands (or environments) that
 * no tag tells apart (analyse/dataset.h: configurations and their labels):
 * its median would be over all of them. */
static void ns__side_commands(const ns__side *s, const char *label) {
    ns_run *runs = ns_xcalloc((size_t)s->runs.n + 1, sizeof *runs);
    for (int i = 0; i < s->runs.n; i++) runs[i] = *s->runs.runs[i]; /* borrowed, not owned */
    ns_config *cf = NULL;
    const char **keys = NULL;
    int nkeys = 0, nc = ns_configs_new(runs, s->runs.n, &cf, &keys, &nkeys);
    ns_buf b = {0};
    int nl = 0; /* distinct labels (a label is the same in every mode) */
    for (int i = 0; i < nc; i++) {
        const char *l = ns_config_label(&cf[i]);
        int seen = 0;
        for (int k = 0; k < i && l && !seen; k++)
            seen = ns_config_label(&cf[k]) && !strcmp(ns_config_label(&cf[k]), l);
        if (!l || seen) continue;
        if (nl < 3) ns_buf_printf(&b, "%s%s", nl ? "; " : "", l);
        nl++;
    }
    if (nl)
        ns_warn_at(NULL, 0, "%s: %s holds runs of %d commands or environments that no tag tells "
                            "apart (config %s%s): its median is over all of them; record each "
                            "into its own folder, or with a --tag",
                   label, s->dir, nl, b.data, nl > 3 ? "; ..." : "");
    for (int i = 0; i < nc; i++) ns_config_free(&cf[i]);
    free(cf);
    free(keys);
    free(runs);
    ns_buf_free(&b);
}

/* The counted runs of one side; 0, or an exit code (message printed). */
static int ns__side_runs(const ns_runset *set, ns__side *s, const char *label,
                         const char *mode) {
    ns_select_runs(set, &s->sel, mode, &s->runs);
    if (s->runs.matched == 0) {
        if (s->sel.n || mode)
            ns_error("%s: no run in %s matches%s%s%s%s", label, s->dir, s->sel.n ? " " : "",
                     s->sel.n ? s->spec : "", mode ? " mode " : "", mode ? mode : "");
        else ns_error("%s: no runs found in %s", label, s->dir);
        return NS_EXIT_NOTHING;
    }
    if (s->runs.n == 0) {
        ns_error("%s: none of the %d run%s in %s counts (failed, warmups or primers)", label,
                 s->runs.matched, s->runs.matched == 1 ? "" : "s", s->dir);
        return NS_EXIT_NOTHING;
    }
    const char *modes[2];
    int nm = ns_selection_modes(&s->runs, modes, 2);
    if (nm > 1)
        return ns_options_usage("diff", "%s holds %s and %s runs%s: choose one with --mode",
                                label, modes[0], modes[1], nm > 2 ? " (and more)" : "");
    s->mode = modes[0];
    ns__side_commands(s, label);
    return 0;
}

/* --a and --b: opt->ctx is the side */
static int ns__opt_side(const ns_option *opt, const char *arg, const char **why) {
    static char msg[300];
    if (ns__side_select(opt->ctx, arg) == 0) return 0;
    snprintf(msg, sizeof msg, "K=V[,K=V...], not '%.200s'", arg);
    *why = msg;
    return -1;
}

/* --fail-if-slower PCT: a percentage >= 0 (opt->ctx the double) */
static int ns__opt_gate(const ns_option *opt, const char *arg, const char **why) {
    static char msg[300];
    char *end;
    double v = strtod(arg, &end);
    if (end == arg || *end || !(v >= 0) || v > 1e9) {
        snprintf(msg, sizeof msg, "'%.200s' is not a number >= 0", arg);
        *why = msg;
        return -1;
    }
    *(double *)opt->ctx = v;
    return 0;
}

int ns_cmd_diff(int argc, char **argv) {
    int fmt = NS__DIFF_TEXT;
    ns_diff_opts o = {0.05, 2.0, 0};
    ns_stage_sel stages = {0};
    const char *stage_spec = NULL; /* --stages: stage rows under this map */
    ns__side sa = {0}, sb = {0};
    ns__diff_reader rd_a = {0}, rd_b = {0};
    ns_diff_keep keep;
    const ns_diff_sums **sums_a = NULL, **sums_b = NULL;
    ns_diff_keep_init(&keep, NULL); /* its stage selection once --stages is read */
    ns_diff d = {0};
    char **inputs = ns_xcalloc((size_t)argc + 1, sizeof *inputs);
    const char *mode = NULL;
    int ninputs = 0, rc = NS_EXIT_OK, quiet = 0, gate = 0;
    double gate_pct = -1; /* --fail-if-slower; < 0: no gate */
    ns_buf b = {0};
    const ns_option own[] = {
        NS_OPT_DOUBLE(0, "alpha", &o.alpha, "A", 0),
        NS_OPT_DOUBLE(0, "threshold", &o.threshold, "PCT", 0),
        NS_OPT_CALL(0, "fail-if-slower", "PCT", ns__opt_gate, &gate_pct),
        NS_OPT_CALL(0, "a", "K=V[,K=V...]", ns__opt_side, &sa),
        NS_OPT_CALL(0, "b", "K=V[,K=V...]", ns__opt_side, &sb),
        NS_OPT_STRING(0, "mode", &mode, "cold|warm|none"),
        NS_OPT_STAGES(&stage_spec),
        NS_OPT_FLAG(0, "all", &o.all),
        NS_OPT_CHOICE(0, "format", &fmt, "F", ns__diff_formats),
        NS_OPT_QUIET(&quiet),
        NS_OPT_CSV_RAW(),
        NS_OPT_END(),
    };
    const ns_option *const tables[] = {own, NULL};
    switch (ns_options_parse("diff", argc, argv, tables, inputs, &ninputs)) {
    case NS_OPTIONS_HELP: goto out;
    case NS_OPTIONS_ERROR: rc = NS_EXIT_USAGE; goto out;
    }
    if (!(o.alpha > 0 && o.alpha < 1)) {
        rc = ns_options_usage("diff", "--alpha: a probability between 0 and 1, not '%g'", o.alpha);
        goto out;
    }
    gate = gate_pct >= 0;
    if (ninputs > 2) {
        rc = ns_options_usage("diff", "at most two folders, A and B (got '%s' as a third)",
                              inputs[2]);
        goto out;
    }
    if (ninputs == 0) {
        rc = ns_options_usage("diff", "no folder given: diff A B, or diff --a K=V --b K=V DIR");
        goto out;
    }
    if (ninputs == 1 && (!sa.sel.n || !sb.sel.n)) {
        rc = ns_options_usage("diff", "one folder needs both --a and --b selections (or give "
                                      "two folders, A and B)");
        goto out;
    }
    if (stage_spec && ns_stage_sel_init(&stages, stage_spec) < 0) {
        rc = NS_EXIT_USAGE;
        goto out;
    }
    ns_diag_quiet(quiet);
    sa.dir = inputs[0];
    sb.dir = inputs[ninputs - 1];
    keep.sel = stage_spec ? &stages : NULL;
    rd_a.keep = rd_b.keep = &keep;
    rd_a.sel[0] = &sa.sel;
    rd_a.sel[1] = ninputs == 1 ? &sb.sel : NULL;
    rd_b.sel[0] = &sb.sel;
    if (ns_runs_each(sa.dir, ns__diff_take, &rd_a) < 0) rc = NS_EXIT_USAGE;
    ns_runs_forget(); /* A against A compares; it does not count a run twice */
    if (ninputs == 2 && ns_runs_each(sb.dir, ns__diff_take, &rd_b) < 0) rc = NS_EXIT_USAGE;
    if (rc) goto out;
    ns__diff_reader *rb = ninputs == 2 ? &rd_b : &rd_a;
    if ((rc = ns__side_runs(&rd_a.set, &sa, "A", mode)) ||
        (rc = ns__side_runs(&rb->set, &sb, "B", mode)))
        goto out;
    sums_a = ns__side_sums_new(&rd_a, &sa);
    sums_b = ns__side_sums_new(rb, &sb);
    size_t na = (size_t)sa.runs.n, nb = (size_t)sb.runs.n;
    double min_p = ns_mann_whitney_min_p(na, nb);
    if (na < NS__DIFF_ENOUGH || nb < NS__DIFF_ENOUGH) {
        if (!(min_p < o.alpha))
            ns_warn_at(NULL, 0, "A has %zu counted run%s and B %zu: the smallest p an exact "
                                "test can reach is %.2g, so no difference can be significant "
                                "at alpha %g (%d runs a side reach %.2g)",
                       na, na == 1 ? "" : "s", nb, min_p, o.alpha, NS__DIFF_ENOUGH,
                       ns_mann_whitney_min_p(NS__DIFF_ENOUGH, NS__DIFF_ENOUGH));
        else
            ns_warn_at(NULL, 0, "A has %zu counted run%s and B %zu: the smallest p an exact "
                                "test can reach is %.2g; with fewer than %d runs a side only "
                                "large, clean differences show",
                       na, na == 1 ? "" : "s", nb, min_p, NS__DIFF_ENOUGH);
    }
    ns_diff_summed(&keep, sa.runs.runs, sums_a, sa.runs.n, sb.runs.runs, sums_b, sb.runs.n, &o,
                   &d);
    if (fmt == NS__DIFF_TEXT) ns__render_text(&b, &sa, &sb, &d, &o);
    else if (fmt == NS__DIFF_CSV) ns__render_csv(&b, &d);
    else if (fmt == NS__DIFF_MARKDOWN || fmt == NS__DIFF_GITHUB) {
        /* a side is named by its folder, and its selection when it has one */
        ns_buf an = {0}, bn = {0};
        ns_buf_printf(&an, "%s%s%s", sa.dir, sa.sel.n ? " " : "", sa.sel.n ? sa.spec : "");
        ns_buf_printf(&bn, "%s%s%s", sb.dir, sb.sel.n ? " " : "", sb.sel.n ? sb.spec : "");
        if (fmt == NS__DIFF_MARKDOWN) ns_diff_markdown(&b, &d, an.data, bn.data);
        else ns_diff_github(&b, &d, an.data, bn.data);
        ns_buf_free(&an);
        ns_buf_free(&bn);
    }
    else ns__render_json(&b, &sa, &sb, &d, &o, min_p);
    if (ns_buf_flush(&b, stdout) || fflush(stdout)) {
        ns_error("error writing the output");
        rc = NS_EXIT_USAGE;
        goto out;
    }
    if (gate) rc = ns__gate(&d.rows[0], gate_pct, na, nb, &o);
    ns_diag_summary();
out:
    ns_diff_free(&d);
    ns_selection_free(&sa.runs);
    ns_selection_free(&sb.runs);
    ns_kv_free(&sa.sel);
    ns_kv_free(&sb.sel);
    ns_buf_free(&sa.spec_buf);
    ns_buf_free(&sb.spec_buf);
    free(sums_a);
    free(sums_b);
    ns__diff_reader_free(&rd_a);
    ns__diff_reader_free(&rd_b);
    ns_diff_keep_free(&keep);
    ns_stage_sel_free(&stages);
    ns_buf_free(&b);
    free(inputs);
    return rc;
}
