/* cmd_report.c -- `npuscope report`: one self-contained HTML page with the
 * timing trees, the heaviest passes, the run tables and figures, and the
 * key findings in sentences, from logs, run folders and sweeps.
 *
 * This file is the analysis half of the page: it reads every input, asks
 * the other modules the questions the page answers, and fills an ns_page
 * (render_html.h) that render_html.c lays out and render_svg.c draws.
 *
 *   - Trees.  Every report of a log is shown.  A sweep can hold thousands
 *     of runs with seven reports each, so for run folders the explorer
 *     shows the reports of one run per configuration and mode: the median
 *     run (the counted run whose wall time is the median; the lower middle
 *     for an even count; ties by reading order).  At most NS__MAX_NODES
 *     rows are embedded; reports past that are counted, not dropped
 *     silently.
 *   - Heaviest passes: `top`'s sums (top.h) over the reports the explorer
 *     shows, coloured by stage (stages.h: --stages, automatic by default).
 *   - Runs: one row per configuration and mode, the rule of `table`
 *     (dataset.h: counted = ok, not a warmup, not a primer); cache x =
 *     median cold / median warm of the same configuration.
 *   - Figures, each only when the data can carry it: a scaling plot for
 *     every tag whose values are numbers (>= 3 of them), one power-law fit
 *     per series (fit.h); a regime map over the first two tags; stage
 *     fingerprints per configuration; ratios to a baseline (--baseline, or
 *     precision=int8 when there is such a tag value).
 *   - Diff: --a/--b select two sides of the runs (diff.h).
 *   - Findings: one sentence per question above, with its numbers.
 *
 * Everything is sorted before it is shown (tag values as numbers where
 * they are numbers, ties by name), and nothing reads the clock, so the
 * same input gives the same bytes.
 * Deliberately left out: advice (that is `advise`), and any figure the data
 * cannot support (a fit through two points, a map without stage data).
 */
#include "builtin/builtin.h"
#include "cli/cli.h"
#include "npu/npu.h"
#include "analyse/dataset.h"
#include "analyse/diff.h"
#include "analyse/fit.h"
#include "base/jsonw.h"
#include "render/render.h"
#include "render/html.h"
#include "render/svg.h"
#include "model/stages.h"
#include "analyse/stats.h"
#include "base/strmap.h"
#include "analyse/top.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


#define NS__DEFAULT_OUT "npuscope-report.html"
#define NS__MAX_NODES 250000 /* rows embedded for the explorer, all reports together */
#define NS__TOP_BARS 20      /* bars of the heaviest-passes chart */
#define NS__MAX_SERIES 7     /* series per line plot (the palette's colours) */
#define NS__MAX_STACK 60     /* bars of the fingerprint figure */
#define NS__MAX_LIST 12      /* values listed per method fact */

/* ====== Small helpers ====== */

/* Seconds for a sentence: four significant digits ("82.47 s", "0.2385 s"). */
static const char *ns__s(char *buf, double v) {
    char n[32];
    snprintf(buf, 48, "%s s", ns_svg_num(n, v, 4));
    return buf;
}

/* A ratio for a sentence ("44.6x"). */
static const char *ns__x(char *buf, double v) {
    char n[32];
    snprintf(buf, 48, "%s\xc3\x97", ns_svg_num(n, v, 3));
    return buf;
}

/* A share as a percentage ("31.2%"). */
static const char *ns__pct(char *buf, double share) {
    snprintf(buf, 48, "%.1f%%", share * 100);
    return buf;
}

/* argv as one shell-quoted line. */
static char *ns__shell_line_new(char **argv) {
    ns_buf b = {0};
    ns_buf_puts(&b, "");
    for (int i = 0; argv && argv[i]; i++) {
        const char *a = argv[i];
        int plain = *a != 0;
        for (const char *p = a; *p && plain; p++)
            plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                           "_./:=@%+,-{}", *p) != NULL;
        if (i) ns_buf_putc(&b, ' ');
        if (plain) {
            ns_buf_puts(&b, a);
            continue;
        }
        ns_buf_putc(&b, '\'');
        for (const char *p = a; *p; p++) {
            if (*p == '\'') ns_buf_puts(&b, "'\\''");
            else ns_buf_putc(&b, *p);
        }
        ns_buf_putc(&b, '\'');
    }
    return b.data;
}

/* A name usable as an element id and a file name: [A-Za-z0-9_-] kept,
 * anything else '_'. */
static void ns__put_ident(ns_buf *b, const char *s) {
    for (; *s; s++) {
        char c = *s;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '_' || c == '-';
        ns_buf_putc(b, ok ? c : '_');
    }
}

static int ns__cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ====== State ====== */

typedef struct {
    ns_config cfg;      /* its configuration, mode and runs (indices into the runset) */
    int n;              /* counted runs */
    double median;      /* wall seconds over the counted runs ... */
    double min;         /* ... */
    double max;         /* ... */
    double cache_x;     /* median cold / median warm of the configuration */
    int rep;            /* the median run (index), or -1 */
    double *share;      /* per page stage: median share over counted runs with reports */
    int nshared;        /* counted runs that have stage shares */
    int regime;         /* stage with the largest median share, or -1 */
} ns__grp;

typedef struct {
    /* options */
    const char *out;        /* -o FILE ("-": standard output) */
    const char *svg_dir;    /* --svg-dir DIR, or NULL */
    const char *stage_spec; /* --stages MAP (NULL: automatic) */
    const char *sel_a;      /* --a K=V[,K=V] */
    const char *sel_b;      /* --b K=V[,K=V] */
    const char *baseline;   /* --baseline K=V */
    ns_read_opts ro;        /* --label-regex, --npu, --npuw, -q */
    char **inputs;          /* inputs as given (borrowed from argv) */
    int ninputs;            /* entries in inputs */
    int argc;               /* the report command line, for the method section */
    char **argv;            /* ... */
    /* what was read */
    ns_report **logs;       /* reports of the log inputs, in order (owned) */
    int nlogs;              /* entries in logs */
    ns_buf from;            /* subtitle: what each input gave */
    ns_runset set;          /* runs of the folder inputs */
    const char **run_dir;   /* per run: the input folder it came from */
    /* analysis */
    ns_stage_sel sel;       /* stage map per report */
    ns_strmap stages;       /* page stage names, in the maps' order of declaration */
    int *stage_color;       /* palette index per page stage */
    double *run_share;      /* [run * nstages + stage], NaN: unknown */
    size_t nst;             /* stages when run_share was made */
    const char **keys;      /* tag keys in order of first appearance */
    int nkeys;              /* entries in keys */
    ns__grp *grps;          /* configurations x modes, sorted */
    int ngrps;              /* entries in grps */
    const char *fig_mode;   /* runs the figures use: "cold" when any, else NULL (all) */
    ns_page page;           /* the page being filled */
} ns__rep;

/* ====== Reading ====== */

static int ns__keep_report(ns_report *r, void *ctx) {
    ns__rep *s = ctx;
    s->logs = ns_xrealloc(s->logs, sizeof *s->logs * (size_t)(s->nlogs + 1));
    s->logs[s->nlogs++] = r;
    return 0;
}

/* Read every input: folders as runs, files (and standard input) as logs.
 * Returns 0, or -1 when an input could not be read (message printed). */
static int ns__read(ns__rep *s) {
    char **files = ns_xcalloc((size_t)s->ninputs + 1, sizeof *files);
    int nfiles = 0, failed = 0;
    for (int i = 0; i < s->ninputs; i++) {
        struct stat st;
        const char *in = s->inputs[i];
        if (strcmp(in, "-") != 0 && stat(in, &st) == 0 && S_ISDIR(st.st_mode)) {
            int before = s->set.nruns;
            if (ns_runset_read(&s->set, in) < 0) {
                failed = 1;
                continue;
            }
            s->run_dir = ns_xrealloc(s->run_dir, sizeof *s->run_dir * (size_t)(s->set.nruns + 1));
            for (int k = before; k < s->set.nruns; k++) s->run_dir[k] = in;
            int got = s->set.nruns - before;
            if (got == 0)
                ns_warn_at(NULL, 0, "%s: no runs found (a run folder holds run.json)", in);
            ns_buf_printf(&s->from, "%s%s: %d run%s", s->from.len ? "; " : "", in, got,
                          got == 1 ? "" : "s");
        } else {
            files[nfiles++] = s->inputs[i];
        }
    }
    if (nfiles || s->ninputs == 0) {
        int before = s->nlogs;
        if (ns_cli_scan(files, nfiles, &s->ro, ns__keep_report, s) < 0) failed = 1;
        int got = s->nlogs - before;
        ns_buf_printf(&s->from, "%s%s%s: %d timing report%s", s->from.len ? "; " : "",
                      nfiles ? files[0] : "standard input", nfiles > 1 ? " and the other logs" : "",
                      got, got == 1 ? "" : "s");
    }
    free(files);
    return failed ? -1 : 0;
}

/* ====== Stages ====== */

/* Intern the stages of m into the page's list (declaration order). */
static void ns__add_map_stages(ns__rep *s, const ns_stage_map *m) {
    int added;
    for (int i = 0; m && i < ns_stage_count(m); i++)
        ns_strmap_intern(&s->stages, ns_stage_name(m, i), &added);
}

/* Colours: the stages in page order take the palette in turn; "other"
 * (what no named stage holds) is grey. */
static void ns__stage_colors(ns__rep *s) {
    free(s->stage_color);
    s->stage_color = ns_xcalloc(s->stages.count + 1, sizeof *s->stage_color);
    int k = 0;
    for (size_t i = 0; i < s->stages.count; i++)
        s->stage_color[i] = strcmp(s->stages.keys[i], "other") == 0 ? NS_SVG_GREY : k++;
}

static int ns__stage_color(const ns__rep *s, const char *name) {
    size_t k = ns_strmap_find(&s->stages, name);
    return k == (size_t)-1 ? NS_SVG_GREY : s->stage_color[k];
}

/* Every counted run's share of each stage: its reports' stage self times
 * over their summed totals (the rule of `table --stages`). */
static void ns__run_shares(ns__rep *s) {
    for (int i = 0; i < s->set.nruns; i++)
        for (int k = 0; k < s->set.runs[i].nreports; k++)
            ns__add_map_stages(s, ns_stage_sel_pick(&s->sel, s->set.runs[i].reports[k]));
    size_t nst = s->stages.count;
    s->nst = nst;
    s->run_share = ns_xcalloc((size_t)s->set.nruns * nst + 1, sizeof *s->run_share);
    double *sum = ns_xcalloc(nst + 1, sizeof *sum);
    for (int i = 0; i < s->set.nruns; i++) {
        const ns_run *r = &s->set.runs[i];
        double total = 0;
        for (size_t k = 0; k < nst; k++) sum[k] = 0;
        if (ns_run_counted(r))
            for (int k = 0; k < r->nreports; k++) {
                const ns_stage_map *m = ns_stage_sel_pick(&s->sel, r->reports[k]);
                if (!m) continue;
                long n;
                ns_stage_of *of = ns_stage_assign_new(m, r->reports[k], &n);
                double *self = ns_xcalloc((size_t)ns_stage_count(m) + 1, sizeof *self);
                ns_stage_sums ss = {self, 0, 0};
                ns_stage_sum(m, r->reports[k], of, &ss);
                if (isfinite(ss.total)) {
                    total += ss.total;
                    for (int st = 0; st < ns_stage_count(m); st++)
                        sum[ns_strmap_find(&s->stages, ns_stage_name(m, st))] += self[st];
                }
                free(self);
                free(of);
            }
        for (size_t k = 0; k < nst; k++)
            s->run_share[(size_t)i * nst + k] = total > 0 ? sum[k] / total : NAN;
    }
    free(sum);
}

/* The median share of each stage over the given runs (those with shares),
 * into share[nst]; returns the dominant stage (ties: declared first) or -1,
 * and the number of runs with shares in *with. */
static int ns__median_shares(const ns__rep *s, const int *runs, int nruns, double *share,
                             int *with) {
    double *v = ns_xcalloc((size_t)nruns + 1, sizeof *v);
    int dom = -1;
    *with = 0;
    for (int i = 0; i < nruns; i++)
        if (s->nst && isfinite(s->run_share[(size_t)runs[i] * s->nst])) (*with)++;
    for (size_t k = 0; k < s->nst; k++) {
        int n = 0;
        for (int i = 0; i < nruns; i++) v[n++] = s->run_share[(size_t)runs[i] * s->nst + k];
        share[k] = ns_median(v, (size_t)n);
        if (isfinite(share[k]) && (dom < 0 || share[k] > share[dom])) dom = (int)k;
    }
    free(v);
    return dom;
}

/* ====== Configurations ====== */

static const char *ns__grp_tag(const ns__grp *g, const char *key) {
    return ns_config_tag(&g->cfg, key);
}

static const ns__rep *ns__sort_rep; /* context of ns__cmp_grp */

static int ns__cmp_grp(const void *pa, const void *pb) {
    const ns__grp *a = pa, *b = pb;
    return ns_config_cmp(&a->cfg, &b->cfg, ns__sort_rep->keys, ns__sort_rep->nkeys);
}

/* Index of the run whose wall time is the median of the counted runs
 * (lower middle for an even count; ties by reading order). */
static int ns__median_run(const ns__rep *s, const ns__grp *g) {
    double *w = ns_xcalloc((size_t)g->cfg.nruns + 1, sizeof *w);
    int n = 0;
    for (int i = 0; i < g->cfg.nruns; i++)
        if (ns_run_counted(&s->set.runs[g->cfg.runs[i]]))
            w[n++] = s->set.runs[g->cfg.runs[i]].wall_s;
    int rep = -1;
    if (n) {
        qsort(w, (size_t)n, sizeof *w, ns__cmp_double);
        double want = w[(n - 1) / 2];
        for (int i = 0; i < g->cfg.nruns && rep < 0; i++) {
            const ns_run *r = &s->set.runs[g->cfg.runs[i]];
            if (ns_run_counted(r) && r->wall_s == want) rep = g->cfg.runs[i];
        }
    }
    free(w);
    return rep;
}

/* Runs into groups (configuration x mode), their statistics, sorted. */
static void ns__group(ns__rep *s) {
    ns_config *cf;
    s->ngrps = ns_configs_new(s->set.runs, s->set.nruns, &cf, &s->keys, &s->nkeys);
    s->grps = ns_xcalloc((size_t)s->ngrps + 1, sizeof *s->grps);
    for (int k = 0; k < s->ngrps; k++) s->grps[k].cfg = cf[k];
    free(cf);
    for (int k = 0; k < s->ngrps; k++) {
        ns__grp *g = &s->grps[k];
        double *w = ns_xcalloc((size_t)g->cfg.nruns + 1, sizeof *w);
        int *counted = ns_xcalloc((size_t)g->cfg.nruns + 1, sizeof *counted);
        int n = 0;
        for (int i = 0; i < g->cfg.nruns; i++)
            if (ns_run_counted(&s->set.runs[g->cfg.runs[i]])) {
                counted[n] = g->cfg.runs[i];
                w[n++] = s->set.runs[g->cfg.runs[i]].wall_s;
            }
        g->n = n;
        g->min = ns_min(w, (size_t)n);
        g->max = ns_max(w, (size_t)n);
        g->median = ns_median(w, (size_t)n);
        g->cache_x = NAN;
        g->rep = ns__median_run(s, g);
        g->share = ns_xcalloc(s->nst + 1, sizeof *g->share);
        g->regime = ns__median_shares(s, counted, n, g->share, &g->nshared);
        free(counted);
        free(w);
    }
    ns__sort_rep = s;
    if (s->ngrps) qsort(s->grps, (size_t)s->ngrps, sizeof *s->grps, ns__cmp_grp);
    ns__sort_rep = NULL;
    for (int i = 0; i < s->ngrps; i++) {
        ns__grp *c = &s->grps[i];
        if (strcmp(c->cfg.mode, "cold") != 0) continue;
        for (int j = 0; j < s->ngrps; j++) {
            ns__grp *w = &s->grps[j];
            if (strcmp(w->cfg.mode, "warm") != 0 || !ns_config_same_tags(&w->cfg, &c->cfg))
                continue;
            double x = w->median > 0 ? c->median / w->median : NAN;
            c->cache_x = w->cache_x = isfinite(x) ? x : NAN;
        }
    }
    s->fig_mode = NULL;
    for (int i = 0; i < s->ngrps; i++)
        if (strcmp(s->grps[i].cfg.mode, "cold") == 0 && s->grps[i].n) s->fig_mode = "cold";
}

/* "model=m1, window=128" (the group's tags in key order), plus the mode
 * unless it is "none"; the keys skip1 and skip2 are left out.  "" when
 * nothing is left (see ns__or_all). */
static char *ns__grp_label_new(const ns__rep *s, const ns__grp *g, const char *skip1,
                               const char *skip2, int with_mode) {
    ns_buf b = {0};
    ns_buf_puts(&b, "");
    for (int k = 0; k < s->nkeys; k++) {
        const char *key = s->keys[k], *v = ns__grp_tag(g, key);
        if (!v || (skip1 && strcmp(key, skip1) == 0) || (skip2 && strcmp(key, skip2) == 0))
            continue;
        ns_buf_printf(&b, "%s%s=%s", b.len ? ", " : "", key, v);
    }
    if (with_mode && strcmp(g->cfg.mode, "none") != 0)
        ns_buf_printf(&b, "%s%s", b.len ? ", " : "", g->cfg.mode);
    ns_buf_puts(&b, ""); /* always allocated; "" when nothing is left */
    return b.data;
}

/* The group's tag values in key order, and its mode: "m1 \xc2\xb7 128 \xc2\xb7
 * cold" (short labels for many rows; ns__values_head says what they are). */
static char *ns__grp_values_new(const ns__rep *s, const ns__grp *g) {
    ns_buf b = {0};
    ns_buf_puts(&b, "");
    for (int k = 0; k < s->nkeys; k++) {
        const char *v = ns__grp_tag(g, s->keys[k]);
        ns_buf_printf(&b, "%s%s", k ? " \xc2\xb7 " : "", v ? v : "-");
    }
    ns_buf_printf(&b, "%s%s", s->nkeys ? " \xc2\xb7 " : "", g->cfg.mode);
    return b.data;
}

static char *ns__values_head_new(const ns__rep *s) {
    ns_buf b = {0};
    for (int k = 0; k < s->nkeys; k++) ns_buf_printf(&b, "%s \xc2\xb7 ", s->keys[k]);
    ns_buf_puts(&b, "mode");
    return b.data;
}

/* s, or "all runs" when it is empty (a label that names no tag). */
static char *ns__or_all(char *s) {
    if (*s) return s;
    free(s);
    return ns_strdup("all runs");
}

/* ====== Trees: the data block ====== */

/* Most decimals printed in a column of a report (for showing the values
 * with the compiler's digits). */
static int ns__report_dec(const ns_report *r, ns_col c) {
    int dec = 0;
    for (const ns_node *n = r->root; n; n = ns_node_next((ns_node *)n, r->root))
        if (n->val[c].dec > dec) dec = n->val[c].dec;
    return dec;
}

typedef struct {
    const ns_report **reps; /* reports shown in the explorer, in page order */
    char **labels;          /* their labels on the page (owned) */
    int n;                  /* entries */
    long nodes;             /* rows embedded */
    int omitted;            /* reports left out: over NS__MAX_NODES */
} ns__shown;

static void ns__show(ns__shown *sh, const ns_report *r, const char *label) {
    if (!r || !r->root) return;
    if (sh->nodes + r->nnodes > NS__MAX_NODES && sh->n > 0) {
        sh->omitted++;
        return;
    }
    sh->reps = ns_xrealloc(sh->reps, sizeof *sh->reps * (size_t)(sh->n + 1));
    sh->labels = ns_xrealloc(sh->labels, sizeof *sh->labels * (size_t)(sh->n + 1));
    sh->reps[sh->n] = r;
    sh->labels[sh->n++] = ns_strdup(label);
    sh->nodes += r->nnodes;
}

/* The reports the explorer shows: every log report, then the median run's
 * reports of each configuration and mode. */
static void ns__pick_shown(ns__rep *s, ns__shown *sh) {
    for (int i = 0; i < s->nlogs; i++) ns__show(sh, s->logs[i], s->logs[i]->label);
    ns_buf lab = {0};
    for (int g = 0; g < s->ngrps; g++) {
        if (s->grps[g].rep < 0) continue;
        const ns_run *r = &s->set.runs[s->grps[g].rep];
        for (int k = 0; k < r->nreports; k++) {
            lab.len = 0;
            ns_buf_printf(&lab, "%s/%s", r->id, r->reports[k]->label);
            ns__show(sh, r->reports[k], lab.data);
        }
    }
    ns_buf_free(&lab);
}

static void ns__data_json(ns__rep *s, const ns__shown *sh) {
    ns_buf *b = &s->page.data;
    ns_view v;
    ns_view_init(&v);
    ns_buf_puts(b, "{\"format\":\"npuscope-report\",\"version\":1,\"generator\":\"npuscope " NS_VERSION
                   "\",\"reports\":[");
    for (int i = 0; i < sh->n; i++) {
        const ns_report *r = sh->reps[i];
        ns_buf_puts(b, i ? ",\n{\"label\":" : "\n{\"label\":");
        ns_json_str(b, sh->labels[i]);
        ns_buf_printf(b, ",\"wall_dec\":%d,\"user_dec\":%d,\"tree\":", ns__report_dec(r, NS_COL_WALL),
                      ns__report_dec(r, NS_COL_USER));
        ns_json_report(b, r, &v);
        ns_buf_putc(b, '}');
    }
    ns_buf_printf(b, "\n],\"omitted\":%d}", sh->omitted);
    s->page.nreports = sh->n;
}

/* ====== Heaviest passes ====== */

static void ns__passes(ns__rep *s, const ns__shown *sh) {
    if (sh->n == 0) return;
    ns_top t;
    ns_top_init(&t, 0);
    for (int i = 0; i < sh->n; i++) {
        const ns_stage_map *m = ns_stage_sel_pick(&s->sel, sh->reps[i]);
        ns__add_map_stages(s, m);
        long n;
        ns_stage_of *of = m ? ns_stage_assign_new(m, sh->reps[i], &n) : NULL;
        ns_top_add_staged(&t, sh->reps[i], m, of);
        free(of);
    }
    ns__stage_colors(s);
    size_t *ord = ns_top_order_new(&t);
    int nb = (int)t.names.count < NS__TOP_BARS ? (int)t.names.count : NS__TOP_BARS;
    const char **names = ns_xcalloc((size_t)nb + 1, sizeof *names);
    const char **groups = ns_xcalloc((size_t)nb + 1, sizeof *groups);
    double *vals = ns_xcalloc((size_t)nb + 1, sizeof *vals);
    double *shares = ns_xcalloc((size_t)nb + 1, sizeof *shares);
    int *colors = ns_xcalloc((size_t)nb + 1, sizeof *colors);
    const char **legend = ns_xcalloc(t.stages.count + 2, sizeof *legend);
    int *lcolors = ns_xcalloc(t.stages.count + 2, sizeof *lcolors);
    int nlegend = 0, mixed = 0;
    for (int i = 0; i < nb; i++) {
        const ns_top_row *row = &t.rows[ord[i]];
        names[i] = t.names.keys[ord[i]];
        vals[i] = row->wall;
        shares[i] = t.total_wall > 0 ? row->wall / t.total_wall : NAN;
        if (row->stage >= 0) {
            groups[i] = t.stages.keys[row->stage];
            colors[i] = ns__stage_color(s, groups[i]);
        } else {
            groups[i] = row->stage == NS_TOP_MIXED_STAGE ? "mixed" : NULL;
            colors[i] = NS_SVG_GREY;
            mixed |= row->stage == NS_TOP_MIXED_STAGE;
        }
    }
    for (size_t k = 0; k < t.stages.count; k++) { /* legend: stages with a bar */
        int used = 0;
        for (int i = 0; i < nb && !used; i++)
            used = groups[i] && strcmp(groups[i], t.stages.keys[k]) == 0;
        if (!used) continue;
        legend[nlegend] = t.stages.keys[k];
        lcolors[nlegend++] = ns__stage_color(s, t.stages.keys[k]);
    }
    if (mixed) {
        legend[nlegend] = "mixed (the pass runs in several stages)";
        lcolors[nlegend++] = NS_SVG_GREY;
    }
    ns_buf title = {0}, xl = {0}, svg = {0}, cap = {0};
    ns_buf_printf(&title, "Heaviest passes, summed over %d report%s", t.reports,
                  t.reports == 1 ? "" : "s");
    ns_buf_printf(&xl, "wall time summed over the reports (s)");
    ns_svg_bars f = {"heaviest-passes", title.data, xl.data, names, vals, shares, colors, groups,
                     nb, legend, lcolors, nlegend};
    ns_svg_bars_draw(&svg, &f);
    ns_buf_printf(&cap, "The %d heaviest of %zu passes by wall time, each summed over every "
                        "report shown above (an NPUW compile prints one report per sub-model); "
                        "the share is of the reports' summed totals (%.4f s). Containers "
                        "(pipelines and scopes with children), Total and Rest are not passes. "
                        "Colour: the pass's stage by the stage map",
                  nb, t.names.count, t.total_wall);
    for (size_t k = 0; k < t.maps.count; k++)
        ns_buf_printf(&cap, "%s%s", k ? " or " : " ", t.maps.keys[k]);
    ns_buf_puts(&cap, ".");
    if (nb) ns_page_figure(&s->page, "heaviest-passes", "passes", cap.data, svg.data);
    else ns_buf_free(&svg);

    /* findings: the heaviest pass, and the dominant stage */
    char a[48], c[48], d[48];
    if (nb) {
        const ns_top_row *row = &t.rows[ord[0]];
        ns_page_finding(&s->page,
                        "The heaviest pass is %s: %s over %ld occurrence%s, %s of the %s in "
                        "%d report%s%s%s.",
                        names[0], ns__s(a, row->wall), row->count, row->count == 1 ? "" : "s",
                        ns__pct(c, shares[0]), ns__s(d, t.total_wall), t.reports,
                        t.reports == 1 ? "" : "s", groups[0] ? "; its stage: " : "",
                        groups[0] ? groups[0] : "");
    }
    int best = -1, second = -1;
    for (size_t k = 0; k < t.stages.count; k++) {
        if (best < 0 || t.srows[k].self > t.srows[best].self) second = best, best = (int)k;
        else if (second < 0 || t.srows[k].self > t.srows[second].self) second = (int)k;
    }
    if (best >= 0 && t.total_wall > 0 && t.srows[best].self > 0) {
        ns_buf maps = {0};
        for (size_t k = 0; k < t.maps.count; k++)
            ns_buf_printf(&maps, "%s%s", k ? " and " : "", t.maps.keys[k]);
        ns_buf more = {0};
        ns_buf_puts(&more, "");
        if (second >= 0 && t.srows[second].self > 0)
            ns_buf_printf(&more, "; next is %s with %s", t.stages.keys[second],
                          ns__pct(d, t.srows[second].self / t.total_wall));
        ns_page_finding(&s->page,
                        "By the %s stage map%s, %s takes the most time: %s of self time, %s of "
                        "the total%s.",
                        maps.data, t.maps.count > 1 ? "s" : "", t.stages.keys[best],
                        ns__s(a, t.srows[best].self), ns__pct(c, t.srows[best].self / t.total_wall),
                        more.data);
        ns_buf_free(&maps);
        ns_buf_free(&more);
    }
    free(ord);
    free(names);
    free(groups);
    free(vals);
    free(shares);
    free(colors);
    free(legend);
    free(lcolors);
    ns_buf_free(&title);
    ns_buf_free(&xl);
    ns_buf_free(&cap);
    ns_top_free(&t);
}

/* ====== The overview finding ====== */

static void ns__overview(ns__rep *s) {
    char a[48], c[48], d[48];
    if (s->nlogs) {
        double sum = 0;
        int big = -1;
        for (int i = 0; i < s->nlogs; i++) {
            double t = ns_stage_report_total(s->logs[i]);
            if (!isfinite(t)) continue;
            sum += t;
            if (big < 0 || t > ns_stage_report_total(s->logs[big])) big = i;
        }
        ns_strmap prods;
        ns_strmap_init(&prods);
        ns_buf pl = {0};
        for (int i = 0; i < s->nlogs; i++) {
            int added;
            ns_strmap_intern(&prods, ns_producer_name(s->logs[i]), &added);
            if (added) ns_buf_printf(&pl, "%s%s", pl.len ? ", " : "", ns_producer_name(s->logs[i]));
        }
        if (big >= 0 && s->nlogs > 1)
            ns_page_finding(&s->page,
                            "The input holds %d timing reports (%s) totalling %s of wall time; "
                            "the largest, %s, takes %s.",
                            s->nlogs, pl.data, ns__s(a, sum), s->logs[big]->label,
                            ns__s(c, ns_stage_report_total(s->logs[big])));
        else if (big >= 0)
            ns_page_finding(&s->page, "The input holds one timing report (%s) of %s wall time.",
                            pl.data, ns__s(a, sum));
        ns_buf_free(&pl);
        ns_strmap_free(&prods);
        /* sub-model kinds (an NPUW LLM compile labelled with --npuw) */
        ns_strmap kinds;
        ns_strmap_init(&kinds);
        double *kt = ns_xcalloc((size_t)s->nlogs + 1, sizeof *kt);
        for (int i = 0; i < s->nlogs; i++) {
            char *k = ns_submodel_kind_new(s->logs[i]->label);
            size_t j = ns_strmap_intern(&kinds, k, NULL);
            free(k);
            double t = ns_stage_report_total(s->logs[i]);
            if (isfinite(t)) kt[j] += t;
        }
        if (kinds.count > 1 && kinds.count < (size_t)s->nlogs && sum > 0) {
            ns_buf kl = {0};
            for (size_t j = 0; j < kinds.count; j++)
                ns_buf_printf(&kl, "%s%s %s (%.0f%%)", j ? ", " : "", kinds.keys[j], ns__s(a, kt[j]),
                              100 * kt[j] / sum);
            ns_page_finding(&s->page, "By sub-model kind: %s.", kl.data);
            ns_buf_free(&kl);
        }
        free(kt);
        ns_strmap_free(&kinds);
    }
    if (s->set.nruns) {
        int counted = 0;
        double *w = ns_xcalloc((size_t)s->set.nruns + 1, sizeof *w);
        for (int i = 0; i < s->set.nruns; i++)
            if (ns_run_counted(&s->set.runs[i])) w[counted++] = s->set.runs[i].wall_s;
        int configs = 0;
        for (int g = 0; g < s->ngrps; g++) {
            int seen = 0;
            for (int h = 0; h < g && !seen; h++)
                seen = ns_config_same_tags(&s->grps[h].cfg, &s->grps[g].cfg);
            configs += !seen;
        }
        double lo = ns_min(w, (size_t)counted), hi = ns_max(w, (size_t)counted);
        double med = ns_median(w, (size_t)counted);
        if (counted)
            ns_page_finding(&s->page,
                            "%d run%s (%d counted: ok, neither warmups nor cache primers) in %d "
                            "configuration%s; the median run took %s, from %s to %s.",
                            s->set.nruns, s->set.nruns == 1 ? "" : "s", counted, configs,
                            configs == 1 ? "" : "s", ns__s(a, med), ns__s(c, lo), ns__s(d, hi));
        else
            ns_page_finding(&s->page, "%d run%s, none of them counted (failed, warmups or primers).",
                            s->set.nruns, s->set.nruns == 1 ? "" : "s");
        free(w);
    }
}

/* ====== The runs table ====== */

static char *ns__fmt_new(const char *fmt, double v) {
    if (!isfinite(v)) return ns_strdup("-");
    char buf[64];
    snprintf(buf, sizeof buf, fmt, v);
    return ns_strdup(buf);
}

static void ns__runs_table(ns__rep *s) {
    if (!s->ngrps) return;
    int any_cache = 0, any_regime = 0, any_cold = 0;
    for (int g = 0; g < s->ngrps; g++) {
        any_cache |= isfinite(s->grps[g].cache_x);
        any_regime |= s->grps[g].regime >= 0;
        any_cold |= strcmp(s->grps[g].cfg.mode, "cold") == 0 ||
                    strcmp(s->grps[g].cfg.mode, "warm") == 0;
    }
    int nc = s->nkeys + 5 + any_cache + any_regime;
    const char **head = ns_xcalloc((size_t)nc + 2, sizeof *head);
    unsigned char *num = ns_xcalloc((size_t)nc + 2, 1);
    int c = 0;
    for (int k = 0; k < s->nkeys; k++) head[c++] = s->keys[k];
    head[c++] = "mode";
    num[c] = 1, head[c++] = "n";
    num[c] = 1, head[c++] = "median s";
    num[c] = 1, head[c++] = "min s";
    num[c] = 1, head[c++] = "max s";
    if (any_cache) num[c] = 1, head[c++] = "cache \xc3\x97";
    if (any_regime) head[c++] = "dominant stage";
    ns_html_table *t = ns_page_table(&s->page);
    ns_html_table_init(t, "runs-table",
                       any_cold ? "Cold and warm compiles per configuration"
                                : "Compiles per configuration",
                       head, num);
    for (int g = 0; g < s->ngrps; g++) {
        const ns__grp *x = &s->grps[g];
        char **row = ns_html_table_row(t, x->cfg.mode);
        c = 0;
        for (int k = 0; k < s->nkeys; k++) {
            const char *v = ns__grp_tag(x, s->keys[k]);
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
                ns_buf_printf(&b, "%s %.0f%%", s->stages.keys[x->regime], x->share[x->regime] * 100);
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

    /* finding: the cache factor */
    double *xs = ns_xcalloc((size_t)s->ngrps + 1, sizeof *xs);
    int n = 0, at = -1;
    for (int g = 0; g < s->ngrps; g++)
        if (strcmp(s->grps[g].cfg.mode, "cold") == 0 && isfinite(s->grps[g].cache_x)) {
            xs[n++] = s->grps[g].cache_x;
            at = g;
        }
    char a[48], b[48], d[48], e[48];
    if (n == 1) {
        const ns__grp *cg = &s->grps[at];
        double warm = cg->median / cg->cache_x;
        char *lab = ns__or_all(ns__grp_label_new(s, cg, NULL, NULL, 0));
        ns_page_finding(&s->page,
                        "A warm cache makes the compile %s faster: median cold %s against warm %s "
                        "(%s).",
                        ns__x(a, cg->cache_x), ns__s(b, cg->median), ns__s(d, warm), lab);
        free(lab);
    } else if (n > 1) {
        double lo = ns_min(xs, (size_t)n), hi = ns_max(xs, (size_t)n);
        double med = ns_median(xs, (size_t)n);
        ns_page_finding(&s->page,
                        "A warm cache makes compiles %s faster at the median over %d "
                        "configurations (from %s to %s; cache \xc3\x97 = median cold / median "
                        "warm).",
                        ns__x(a, med), n, ns__x(b, lo), ns__x(e, hi));
    }
    free(xs);
}

/* ====== Diff ====== */

/* The mode both sides can be compared in: their common one, cold first. */
static const char *ns__diff_mode(const ns_selection *a, const ns_selection *b) {
    const char *ma[8], *mb[8];
    int na = ns_selection_modes(a, ma, 8), nb = ns_selection_modes(b, mb, 8);
    if (na > 8) na = 8;
    if (nb > 8) nb = 8;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            if (strcmp(ma[i], mb[j]) == 0) return ma[i];
    return NULL;
}

static int ns__diff(ns__rep *s) {
    ns_kvlist ka = {0}, kb = {0};
    int rc = 0;
    const char *bad = ns_select_parse(&ka, s->sel_a) < 0   ? s->sel_a
                      : ns_select_parse(&kb, s->sel_b) < 0 ? s->sel_b
                                                           : NULL;
    if (bad) {
        ns_error("report: --a and --b take K=V[,K=V...], not '%s'", bad);
        rc = -1;
        goto out;
    }
    ns_selection sa, sb;
    ns_select_runs(&s->set, &ka, NULL, &sa);
    ns_select_runs(&s->set, &kb, NULL, &sb);
    const char *mode = ns__diff_mode(&sa, &sb);
    ns_selection_free(&sa);
    ns_selection_free(&sb);
    ns_select_runs(&s->set, &ka, mode, &sa);
    ns_select_runs(&s->set, &kb, mode, &sb);
    if (sa.n == 0 || sb.n == 0) {
        ns_warn_at(NULL, 0, "--a %s / --b %s: %s has no counted run%s; no diff table", s->sel_a,
                   s->sel_b, sa.n == 0 ? "A" : "B", mode ? " in a mode both sides have" : "");
    } else {
        ns_diff_opts o = {0.05, 2, 0};
        ns_diff d = {0};
        ns_diff_runs(sa.runs, sa.n, sb.runs, sb.n, &o, &d);
        static const char *const head[] = {"row", "A n", "B n", "A median", "B median",
                                           "B / A", "p", "verdict", NULL};
        static const unsigned char num[] = {0, 1, 1, 1, 1, 1, 1, 0};
        ns_buf cap = {0};
        ns_buf_printf(&cap, "A (%s) against B (%s)%s%s", s->sel_a, s->sel_b, mode ? ", mode " : "",
                      mode && strcmp(mode, "none") ? mode : "");
        ns_html_table *t = ns_page_table(&s->page);
        ns_html_table_init(t, "diff-table", cap.data, head, num);
        int passes = 0;
        for (int i = 0; i < d.nrows; i++) {
            const ns_diff_row *r = &d.rows[i];
            if (r->kind == NS_DIFF_PASS && ++passes > 25) continue;
            char **row = ns_html_table_row(t, r->verdict);
            row[0] = ns_strdup(r->name);
            row[1] = ns__fmt_new("%.0f", (double)r->a_n);
            row[2] = ns__fmt_new("%.0f", (double)r->b_n);
            const char *f = r->kind == NS_DIFF_METRIC ? "%.6g" : "%.4f";
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
                             "their own unit); B / A is the ratio of the medians; p is the exact "
                             "two-sided Mann-Whitney U p-value; a verdict needs p < %.2f and a "
                             "shift over %.0f%% of A's median (npuscope diff, which this table "
                             "follows). ",
                      o.alpha, o.threshold);
        if (passes > 25) ns_buf_printf(&note, "The 25 heaviest of %d passes are shown. ", passes);
        double minp = ns_mann_whitney_min_p((size_t)sa.n, (size_t)sb.n);
        if (minp >= o.alpha)
            ns_buf_printf(&note, "With %d against %d runs no difference can be significant (the "
                                 "smallest p these sizes reach is %.3f).",
                          sa.n, sb.n, minp);
        t->note = note.data;
        if (d.nrows && d.rows[0].kind == NS_DIFF_TOTAL) {
            const ns_diff_row *r = &d.rows[0];
            char a[48], b[48], c[48], e[48];
            ns_page_finding(&s->page,
                            "B (%s) against A (%s): the whole compile takes %s as long (median %s "
                            "against %s), p = %s: %s.",
                            s->sel_b, s->sel_a, ns__x(a, r->ratio), ns__s(b, r->b_median),
                            ns__s(c, r->a_median), ns_svg_num(e, r->p, 3),
                            strcmp(r->verdict, "same") == 0 ? "no significant difference"
                                                              : r->verdict);
        }
        ns_diff_free(&d);
        ns_buf_free(&cap);
    }
    ns_selection_free(&sa);
    ns_selection_free(&sb);
out:
    ns_kv_free(&ka);
    ns_kv_free(&kb);
    return rc;
}

/* ====== Figures ====== */

/* Add a figure to the figures section (takes svg). */
static void ns__figure(ns__rep *s, const char *id, const char *caption, char *svg) {
    ns_page_figure(&s->page, id, "figures", caption, svg);
}

/* An id "PREFIX-NAME[-NAME2]" not yet used on the page. */
static char *ns__fig_id_new(const ns__rep *s, const char *prefix, const char *a, const char *b) {
    ns_buf id = {0};
    ns_buf_puts(&id, prefix);
    if (a) {
        ns_buf_putc(&id, '-');
        ns__put_ident(&id, a);
    }
    if (b) {
        ns_buf_putc(&id, '-');
        ns__put_ident(&id, b);
    }
    size_t base = id.len;
    for (int k = 2;; k++) {
        int used = 0;
        for (int i = 0; i < s->page.nfigs && !used; i++)
            used = strcmp(s->page.figs[i].id, id.data) == 0;
        if (!used) break;
        id.len = base;
        ns_buf_printf(&id, "-%d", k);
    }
    return id.data;
}

/* Are all values of tag `key` among the counted runs numbers?  Their
 * distinct values (sorted) go to *vals (borrowed) / *n; all: powers of 2. */
static int ns__numeric_axis(const ns__rep *s, const char *key, const char ***vals, int *n,
                            int *pow2) {
    *vals = NULL;
    *n = 0;
    *pow2 = 1;
    int numeric = 1;
    for (int i = 0; i < s->set.nruns; i++) {
        const ns_run *r = &s->set.runs[i];
        if (!ns_run_counted(r)) continue;
        const char *v = ns_kv_get(&r->tags, key);
        if (!v) continue;
        double x;
        if (!ns_text_number(v, &x)) numeric = 0;
        else if (!(x > 0) || ldexp(1, (int)lround(log2(x))) != x) *pow2 = 0;
        int seen = 0;
        for (int k = 0; k < *n && !seen; k++) seen = strcmp((*vals)[k], v) == 0;
        if (seen) continue;
        *vals = ns_xrealloc(*vals, sizeof **vals * (size_t)(*n + 1));
        (*vals)[(*n)++] = v;
    }
    for (int i = 1; i < *n; i++) /* insertion sort: few values */
        for (int j = i; j > 0 && ns_text_cmp((*vals)[j], (*vals)[j - 1]) < 0; j--) {
            const char *t = (*vals)[j];
            (*vals)[j] = (*vals)[j - 1];
            (*vals)[j - 1] = t;
        }
    return numeric && *n > 0;
}

typedef struct {
    char *name;         /* series label (owned) */
    ns__grp **grps;     /* the groups in the series (borrowed) */
    int ngrps;          /* entries */
    ns_fit fit;         /* points and fit */
    ns_svg_pt *pts;     /* points for the plot (owned) */
    int npts;           /* entries */
} ns__series;

static void ns__series_free(ns__series *v, int n) {
    for (int i = 0; i < n; i++) {
        free(v[i].name);
        free(v[i].grps);
        free(v[i].pts);
        ns_fit_free(&v[i].fit);
    }
    free(v);
}

/* Groups sharing every tag but `axis` (and the mode) form one series. */
static ns__series *ns__make_series(ns__rep *s, const char *axis, const char *mode, int *nout) {
    ns__series *v = NULL;
    int n = 0;
    for (int g = 0; g < s->ngrps; g++) {
        ns__grp *x = &s->grps[g];
        if (!ns__grp_tag(x, axis) || (mode && strcmp(x->cfg.mode, mode) != 0) || x->n == 0)
            continue;
        char *lab = ns__or_all(ns__grp_label_new(s, x, axis, NULL, mode == NULL));
        int k = 0;
        while (k < n && strcmp(v[k].name, lab) != 0) k++;
        if (k == n) {
            v = ns_xrealloc(v, sizeof *v * (size_t)(n + 1));
            memset(&v[n], 0, sizeof v[n]);
            v[n++].name = lab;
        } else {
            free(lab);
        }
        v[k].grps = ns_xrealloc(v[k].grps, sizeof *v[k].grps * (size_t)(v[k].ngrps + 1));
        v[k].grps[v[k].ngrps++] = x;
    }
    *nout = n;
    return v;
}

/* Wall times of a group's counted runs into w (nruns entries); returns n. */
static int ns__grp_walls(const ns__rep *s, const ns__grp *g, double *w) {
    int n = 0;
    for (int i = 0; i < g->cfg.nruns; i++)
        if (ns_run_counted(&s->set.runs[g->cfg.runs[i]]))
            w[n++] = s->set.runs[g->cfg.runs[i]].wall_s;
    return n;
}

static void ns__scaling(ns__rep *s, const char *axis, int pow2) {
    int nser;
    ns__series *ser = ns__make_series(s, axis, s->fig_mode, &nser);
    int shown = nser < NS__MAX_SERIES ? nser : NS__MAX_SERIES, fitted = 0;
    ns_svg_series *ss = ns_xcalloc((size_t)shown + 1, sizeof *ss);
    int nss = 0;
    for (int k = 0; k < nser; k++) {
        ns__series *v = &ser[k];
        for (int i = 0; i < v->ngrps; i++) {
            double x;
            if (!ns_text_number(ns__grp_tag(v->grps[i], axis), &x)) continue;
            double *w = ns_xcalloc((size_t)v->grps[i]->cfg.nruns + 1, sizeof *w);
            int n = ns__grp_walls(s, v->grps[i], w);
            ns_fit_add(&v->fit, x, w, (size_t)n);
            free(w);
        }
        if (v->fit.npts < 3) continue; /* a scaling plot needs 3 values of the axis */
        ns_fit_power(&v->fit);
        fitted += v->fit.ok;
        if (nss >= shown) continue;
        v->pts = ns_xcalloc((size_t)v->fit.npts + 1, sizeof *v->pts);
        for (int i = 0; i < v->fit.npts; i++) {
            const ns_fit_point *q = &v->fit.pts[i];
            v->pts[v->npts++] = (ns_svg_pt){q->x, q->y, q->min, q->max, q->n};
        }
        ns_svg_series *o = &ss[nss];
        o->name = v->name;
        o->color = nss;
        o->pts = v->pts;
        o->npts = v->npts;
        o->fitted = v->fit.ok;
        o->exponent = v->fit.exponent;
        o->prefactor = v->fit.prefactor;
        o->r2 = v->fit.r2;
        o->ci_lo = v->fit.ci95_lo;
        o->ci_hi = v->fit.ci95_hi;
        nss++;
    }
    if (nss == 0) {
        ns__series_free(ser, nser);
        free(ss);
        return;
    }
    char *id = ns__fig_id_new(s, "scaling", axis, NULL);
    ns_buf title = {0}, xl = {0}, svg = {0}, cap = {0};
    ns_buf_printf(&title, "Wall time against %s (log-log)", axis);
    ns_buf_printf(&xl, "%s (tag value, log scale)", axis);
    ns_svg_plot p = {id, title.data, axis, xl.data, "wall time (s)", " s", 1, 1, pow2, NULL, 0,
                     0, 0, ss, nss, "pt"};
    ns_svg_plot_draw(&svg, &p);
    ns_buf_printf(&cap, "Median wall time of the counted runs at each %s (points), min to max "
                        "over the repeats (bars), and the power law fitted by least squares of "
                        "ln time on ln %s (dashed, labelled with its exponent) per series: the "
                        "runs that share every other tag%s.",
                  axis, axis, s->fig_mode ? " (cold compiles)" : " and mode");
    int all = 0;
    for (int k = 0; k < nser; k++) all += ser[k].fit.npts >= 3;
    if (all > nss) ns_buf_printf(&cap, " %d of %d series are shown.", nss, all);
    ns__figure(s, id, cap.data, svg.data);

    /* findings: the exponents */
    char a[48], b[48], c[48];
    if (fitted == 1 || (fitted > 1 && fitted <= 3)) {
        for (int k = 0; k < nser; k++) {
            const ns_fit *f = &ser[k].fit;
            if (!f->ok || f->npts < 3) continue;
            ns_buf ci = {0};
            ns_buf_puts(&ci, "");
            if (isfinite(f->ci95_lo))
                ns_buf_printf(&ci, ", 95%% CI %s to %s", ns_svg_num(a, f->ci95_lo, 3),
                              ns_svg_num(b, f->ci95_hi, 3));
            ns_page_finding(&s->page,
                            "Wall time grows as %s^%.2f (%s%s, R\xc2\xb2 %s, %d values of %s).",
                            axis, f->exponent, ser[k].name, ci.data, ns_svg_num(c, f->r2, 3),
                            f->npts, axis);
            ns_buf_free(&ci);
        }
    } else if (fitted > 3) {
        int lo = -1, hi = -1;
        for (int k = 0; k < nser; k++) {
            if (!ser[k].fit.ok || ser[k].fit.npts < 3) continue;
            if (lo < 0 || ser[k].fit.exponent < ser[lo].fit.exponent) lo = k;
            if (hi < 0 || ser[k].fit.exponent > ser[hi].fit.exponent) hi = k;
        }
        ns_page_finding(&s->page,
                        "Across %d series, wall time grows as %s^%.2f (%s) to %s^%.2f (%s).",
                        fitted, axis, ser[lo].fit.exponent, ser[lo].name, axis,
                        ser[hi].fit.exponent, ser[hi].name);
    }
    free(id);
    ns_buf_free(&title);
    ns_buf_free(&xl);
    ns_buf_free(&cap);
    free(ss);
    ns__series_free(ser, nser);
}

/* Distinct values of tag key over the groups (sorted, borrowed). */
static const char **ns__tag_values(const ns__rep *s, const char *key, int *n) {
    const char **v = NULL;
    *n = 0;
    for (int g = 0; g < s->ngrps; g++) {
        const char *x = ns__grp_tag(&s->grps[g], key);
        if (!x) continue;
        int seen = 0;
        for (int k = 0; k < *n && !seen; k++) seen = strcmp(v[k], x) == 0;
        if (seen) continue;
        v = ns_xrealloc(v, sizeof *v * (size_t)(*n + 1));
        v[(*n)++] = x;
    }
    for (int i = 1; i < *n; i++)
        for (int j = i; j > 0 && ns_text_cmp(v[j], v[j - 1]) < 0; j--) {
            const char *t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return v;
}

static void ns__regime(ns__rep *s) {
    if (s->nkeys < 1 || !s->nst) return;
    const char *xk = s->nkeys > 1 ? s->keys[1] : s->keys[0], *yk = s->nkeys > 1 ? s->keys[0] : NULL;
    if (yk) { /* the numeric tag goes across, when only one of the two is numeric */
        const char **tmp;
        int n, p2;
        int xnum = ns__numeric_axis(s, xk, &tmp, &n, &p2);
        free(tmp);
        int ynum = ns__numeric_axis(s, yk, &tmp, &n, &p2);
        free(tmp);
        if (ynum && !xnum) {
            const char *t = xk;
            xk = yk;
            yk = t;
        }
    }
    int nx, ny = 1;
    const char **xv = ns__tag_values(s, xk, &nx), **yv = yk ? ns__tag_values(s, yk, &ny) : NULL;
    static const char *const one[] = {"all"};
    const char **rows = yk ? yv : (const char **)one;
    int *cell = ns_xcalloc((size_t)(nx * ny) + 1, sizeof *cell);
    double *share = ns_xcalloc((size_t)(nx * ny) + 1, sizeof *share);
    int *nruns = ns_xcalloc((size_t)(nx * ny) + 1, sizeof *nruns);
    int *runs = ns_xcalloc((size_t)s->set.nruns + 1, sizeof *runs);
    double *sh = ns_xcalloc(s->nst + 1, sizeof *sh);
    int filled = 0;
    int *count = ns_xcalloc(s->nst + 1, sizeof *count);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            int n = 0;
            for (int r = 0; r < s->set.nruns; r++) {
                const ns_run *run = &s->set.runs[r];
                if (!ns_run_counted(run) || (s->fig_mode && strcmp(run->mode, s->fig_mode) != 0))
                    continue;
                const char *a = ns_kv_get(&run->tags, xk), *b = yk ? ns_kv_get(&run->tags, yk) : NULL;
                if (!a || strcmp(a, xv[i]) != 0 || (yk && (!b || strcmp(b, yv[j]) != 0))) continue;
                runs[n++] = r;
            }
            int with;
            size_t at = (size_t)j * (size_t)nx + (size_t)i;
            cell[at] = ns__median_shares(s, runs, n, sh, &with);
            share[at] = cell[at] >= 0 ? sh[cell[at]] : NAN;
            nruns[at] = with;
            if (cell[at] >= 0) {
                filled++;
                count[cell[at]]++;
            }
        }
    if (filled) {
        const char **names = ns_xcalloc(s->nst + 1, sizeof *names);
        for (size_t k = 0; k < s->nst; k++) names[k] = s->stages.keys[k];
        char *id = ns__fig_id_new(s, "regime", yk, xk);
        ns_buf title = {0}, svg = {0}, cap = {0};
        if (yk) ns_buf_printf(&title, "Dominant stage by %s and %s", yk, xk);
        else ns_buf_printf(&title, "Dominant stage by %s", xk);
        ns_svg_regime f = {id, title.data, xk, yk, xv, nx, rows, ny, cell, share, nruns,
                           names, s->stage_color, (int)s->nst};
        ns_svg_regime_draw(&svg, &f);
        ns_buf_printf(&cap, "Each cell: the stage with the largest median share of the compile's "
                            "time over the cell's counted%s runs (the number in the cell is that "
                            "share), by the stage map; empty cells have no run with a timing "
                            "report.",
                      s->fig_mode ? " cold" : "");
        int other = 0;
        for (int k = 0; k < s->nkeys; k++)
            other += strcmp(s->keys[k], xk) != 0 && (!yk || strcmp(s->keys[k], yk) != 0);
        if (other) ns_buf_printf(&cap, " Runs that differ in the other %d tag%s are pooled.", other,
                                 other == 1 ? "" : "s");
        ns__figure(s, id, cap.data, svg.data);
        /* finding: does the regime move? */
        int kinds = 0;
        ns_buf list = {0};
        for (size_t k = 0; k < s->nst; k++)
            if (count[k]) {
                kinds++;
                ns_buf_printf(&list, "%s%s in %d cell%s", list.len ? ", " : "", s->stages.keys[k],
                              count[k], count[k] == 1 ? "" : "s");
            }
        if (kinds > 1)
            ns_page_finding(&s->page, "The dominant stage changes across the %s%s%s map: %s.",
                            yk ? yk : "", yk ? " \xc3\x97 " : "", xk, list.data);
        else if (filled > 1)
            for (size_t k = 0; k < s->nst; k++)
                if (count[k])
                    ns_page_finding(&s->page, "%s dominates all %d cells of the %s%s%s map.",
                                    s->stages.keys[k], filled, yk ? yk : "",
                                    yk ? " \xc3\x97 " : "", xk);
        ns_buf_free(&list);
        free(names);
        free(id);
        ns_buf_free(&title);
        ns_buf_free(&cap);
    }
    free(count);
    free(sh);
    free(runs);
    free(cell);
    free(share);
    free(nruns);
    free(xv);
    free(yv);
}

static void ns__fingerprint(ns__rep *s) {
    if (!s->nst) return;
    int any = 0, n = 0;
    for (int g = 0; g < s->ngrps; g++) any |= s->grps[g].regime >= 0;
    if (!any) return;
    const char **rows = ns_xcalloc((size_t)s->ngrps + 1, sizeof *rows);
    char **owned = ns_xcalloc((size_t)s->ngrps + 1, sizeof *owned);
    double *shares = ns_xcalloc((size_t)s->ngrps * s->nst + 1, sizeof *shares);
    int total = 0;
    for (int g = 0; g < s->ngrps; g++) {
        const ns__grp *x = &s->grps[g];
        if (x->regime < 0) continue; /* warm rows, runs without reports */
        total++;
        if (n >= NS__MAX_STACK) continue;
        owned[n] = ns__grp_values_new(s, x);
        rows[n] = owned[n];
        for (size_t k = 0; k < s->nst; k++) shares[(size_t)n * s->nst + k] = x->share[k];
        n++;
    }
    const char **names = ns_xcalloc(s->nst + 1, sizeof *names);
    for (size_t k = 0; k < s->nst; k++) names[k] = s->stages.keys[k];
    char *id = ns__fig_id_new(s, "fingerprint", NULL, NULL);
    ns_buf svg = {0}, cap = {0};
    char *head = ns__values_head_new(s);
    ns_svg_stack f = {id, "Stage fingerprint per configuration", head, rows, n, names,
                      s->stage_color, (int)s->nst, shares};
    ns_svg_stack_draw(&svg, &f);
    ns_buf_printf(&cap, "Median share of each stage in the compile's time (self times by the "
                        "stage map, over the counted runs of each configuration and mode that "
                        "kept a timing report). What is left to 100%% is Rest (time outside "
                        "every row) or negative self time of parallel rows.");
    if (total > n) ns_buf_printf(&cap, " The first %d of %d configurations are shown.", n, total);
    ns__figure(s, id, cap.data, svg.data);
    free(id);
    free(head);
    ns_buf_free(&cap);
    for (int i = 0; i < n; i++) free(owned[i]);
    free(owned);
    free(rows);
    free(shares);
    free(names);
}

/* Ratios of every value of tag key to its baseline value, per configuration
 * of the other tags. */
static void ns__ratios(ns__rep *s) {
    char *key = NULL;
    const char *base = NULL;
    if (s->baseline) {
        const char *eq = strchr(s->baseline, '=');
        key = ns_strndup(s->baseline, (size_t)(eq - s->baseline));
        base = eq + 1;
    } else {
        for (int g = 0; g < s->ngrps && !key; g++) {
            const char *v = ns__grp_tag(&s->grps[g], "precision");
            if (v && strcmp(v, "int8") == 0) key = ns_strdup("precision"), base = "int8";
        }
    }
    if (!key) return;
    /* x: the first numeric tag (>= 2 values) other than key; else categories */
    const char *xk = NULL;
    int pow2 = 0;
    for (int k = 0; k < s->nkeys && !xk; k++) {
        if (strcmp(s->keys[k], key) == 0) continue;
        const char **vals;
        int n, p2;
        if (ns__numeric_axis(s, s->keys[k], &vals, &n, &p2) && n >= 2) xk = s->keys[k], pow2 = p2;
        free(vals);
    }
    /* the baseline median of each configuration (its other tags and mode) */
    typedef struct {
        char *series;    /* "fp16, model=7b" (owned) */
        char *cat;       /* categorical x: the other tags (owned) */
        double x;        /* numeric x (NaN: categorical) */
        double ratio;    /* median / baseline median */
        const char *val; /* the tag value (borrowed) */
    } ns__ratio;
    ns__ratio *rs = NULL;
    int nr = 0, found_base = 0;
    for (int g = 0; g < s->ngrps; g++) {
        const ns__grp *x = &s->grps[g];
        const char *v = ns__grp_tag(x, key);
        if (!v || x->n == 0 || (s->fig_mode && strcmp(x->cfg.mode, s->fig_mode) != 0)) continue;
        if (strcmp(v, base) == 0) {
            found_base = 1;
            continue;
        }
        if (xk && !ns__grp_tag(x, xk)) continue; /* no place on the x axis (another sweep) */
        /* the baseline group: same tags but key, same mode */
        const ns__grp *b = NULL;
        for (int h = 0; h < s->ngrps && !b; h++)
            if (s->grps[h].n && ns_config_partner(&x->cfg, &s->grps[h].cfg, key, base))
                b = &s->grps[h];
        if (!b || !(b->median > 0)) continue;
        rs = ns_xrealloc(rs, sizeof *rs * (size_t)(nr + 1));
        ns__ratio *r = &rs[nr++];
        /* numeric x: a series per value and the other tags; categorical x:
         * a series per value (and mode), the other tags along x */
        char *rest = xk ? ns__grp_label_new(s, x, key, xk, s->fig_mode == NULL)
                        : ns__grp_label_new(s, x, key, "", 0);
        ns_buf sb = {0};
        ns_buf_printf(&sb, "%s=%s", key, v);
        if (xk && *rest) ns_buf_printf(&sb, ", %s", rest);
        if (!xk && !s->fig_mode && strcmp(x->cfg.mode, "none") != 0)
            ns_buf_printf(&sb, ", %s", x->cfg.mode);
        r->series = sb.data;
        free(rest);
        r->cat = ns__grp_label_new(s, x, key, NULL, 0);
        if (!*r->cat) {
            free(r->cat);
            r->cat = ns_strdup("all");
        }
        r->x = NAN;
        if (xk) ns_text_number(ns__grp_tag(x, xk), &r->x);
        r->ratio = x->median / b->median;
        r->val = v;
    }
    if (!found_base && s->baseline)
        ns_warn_at(NULL, 0, "--baseline %s: no counted run has that tag value", s->baseline);
    if (nr) {
        /* series in first-seen order (the groups are sorted); categories likewise */
        const char **cats = NULL;
        int ncats = 0;
        if (!xk)
            for (int i = 0; i < nr; i++) {
                int k = 0;
                while (k < ncats && strcmp(cats[k], rs[i].cat) != 0) k++;
                if (k == ncats) {
                    cats = ns_xrealloc(cats, sizeof *cats * (size_t)(ncats + 1));
                    cats[ncats++] = rs[i].cat;
                }
                rs[i].x = k;
            }
        ns_svg_series *ss = ns_xcalloc((size_t)nr + 1, sizeof *ss);
        ns_svg_pt *pts = ns_xcalloc((size_t)nr + 1, sizeof *pts);
        int nss = 0, used = 0, all = 0;
        const char **seen = ns_xcalloc((size_t)nr + 1, sizeof *seen);
        for (int i = 0; i < nr; i++) {
            int k = 0;
            while (k < all && strcmp(seen[k], rs[i].series) != 0) k++;
            if (k < all) continue;
            seen[all++] = rs[i].series;
            if (nss >= NS__MAX_SERIES) continue;
            ns_svg_series *o = &ss[nss];
            o->name = rs[i].series;
            o->color = nss;
            o->pts = &pts[used];
            for (int j = i; j < nr; j++) /* the series' points, by x */
                if (strcmp(rs[j].series, rs[i].series) == 0) {
                    ns_svg_pt q = {rs[j].x, rs[j].ratio, NAN, NAN, 0};
                    int at = o->npts;
                    while (at > 0 && pts[used + at - 1].x > q.x) {
                        pts[used + at] = pts[used + at - 1];
                        at--;
                    }
                    pts[used + at] = q;
                    o->npts++;
                }
            used += o->npts;
            nss++;
        }
        char *id = ns__fig_id_new(s, "ratio", key, NULL);
        ns_buf title = {0}, xl = {0}, yl = {0}, svg = {0}, cap = {0};
        ns_buf_printf(&title, "Wall time relative to %s=%s", key, base);
        if (xk) ns_buf_printf(&xl, "%s (tag value, log scale)", xk);
        else ns_buf_puts(&xl, "configuration");
        ns_buf_printf(&yl, "wall time / %s=%s (ratio, log scale)", key, base);
        ns_svg_plot p = {id, title.data, xk ? xk : "configuration", xl.data, yl.data, "\xc3\x97",
                         1, 1, pow2, xk ? NULL : cats, ncats, 1, 1, ss, nss, "ratio"};
        ns_svg_plot_draw(&svg, &p);
        ns_buf_printf(&cap, "Median wall time of each configuration divided by the median of the "
                            "same configuration with %s=%s%s; 1 (dashed) is the baseline's time, "
                            "below it is faster.",
                      key, base, s->fig_mode ? " (cold compiles)" : " and the same mode");
        if (all > nss) ns_buf_printf(&cap, " %d of %d series are shown.", nss, all);
        ns__figure(s, id, cap.data, svg.data);
        /* findings: the range of each value's ratios */
        const char **vals = NULL;
        int nv = 0;
        for (int i = 0; i < nr; i++) {
            int k = 0;
            while (k < nv && strcmp(vals[k], rs[i].val) != 0) k++;
            if (k < nv) continue;
            vals = ns_xrealloc(vals, sizeof *vals * (size_t)(nv + 1));
            vals[nv++] = rs[i].val;
        }
        char a[48], b[48];
        for (int k = 0; k < nv && k < 4; k++) {
            double lo = INFINITY, hi = -INFINITY;
            int cnt = 0;
            for (int i = 0; i < nr; i++)
                if (strcmp(rs[i].val, vals[k]) == 0) {
                    cnt++;
                    if (rs[i].ratio < lo) lo = rs[i].ratio;
                    if (rs[i].ratio > hi) hi = rs[i].ratio;
                }
            if (cnt == 1)
                ns_page_finding(&s->page, "%s=%s takes %s the wall time of %s=%s.", key, vals[k],
                                ns__x(a, lo), key, base);
            else
                ns_page_finding(&s->page,
                                "%s=%s takes %s to %s the wall time of %s=%s (over %d "
                                "configurations).",
                                key, vals[k], ns__x(a, lo), ns__x(b, hi), key, base, cnt);
        }
        free(vals);
        free(id);
        ns_buf_free(&title);
        ns_buf_free(&xl);
        ns_buf_free(&yl);
        ns_buf_free(&cap);
        free(seen);
        free(ss);
        free(pts);
        free(cats);
    }
    for (int i = 0; i < nr; i++) {
        free(rs[i].series);
        free(rs[i].cat);
    }
    free(rs);
    free(key);
}

static void ns__figures(ns__rep *s) {
    if (!s->ngrps) return;
    int before = s->page.nfigs;
    for (int k = 0; k < s->nkeys; k++) {
        const char **vals;
        int n, pow2;
        int numeric = ns__numeric_axis(s, s->keys[k], &vals, &n, &pow2);
        free(vals);
        if (numeric && n >= 3) ns__scaling(s, s->keys[k], pow2);
    }
    ns__regime(s);
    ns__fingerprint(s);
    ns__ratios(s);
    if (s->page.nfigs == before) {
        s->page.figs_note = ns_strdup(
            "No figure: scaling plots need a tag with at least three numeric values, the regime "
            "map and fingerprints need runs that kept a timing report, and ratios need a "
            "baseline (--baseline K=V, or a precision tag with int8).");
    }
}

/* ====== Method & reproducibility ====== */

/* Distinct strings in first-seen order with counts. */
typedef struct {
    ns_strmap m;  /* string -> index */
    int *count;   /* occurrences per index */
} ns__tally;

static void ns__tally_add(ns__tally *t, const char *s) {
    int added;
    size_t k = ns_strmap_intern(&t->m, s, &added);
    if (added) {
        t->count = ns_xrealloc(t->count, sizeof *t->count * (t->m.count + 1));
        t->count[k] = 0;
    }
    t->count[k]++;
}

static void ns__tally_fact(ns__rep *s, ns__tally *t, const char *term, int code, int counts) {
    if (!t->m.count) return;
    ns_html_fact *f = ns_page_fact(&s->page, term, code);
    ns_buf b = {0};
    for (size_t i = 0; i < t->m.count && i < NS__MAX_LIST; i++) {
        b.len = 0;
        ns_buf_puts(&b, t->m.keys[i]);
        if (counts) ns_buf_printf(&b, "  (%d)", t->count[i]);
        ns_page_fact_add(f, b.data);
    }
    if (t->m.count > NS__MAX_LIST) {
        b.len = 0;
        ns_buf_printf(&b, "... and %zu more", t->m.count - NS__MAX_LIST);
        ns_page_fact_add(f, b.data);
    }
    ns_buf_free(&b);
}

/* Free, and leave t ready for ns_strmap_init again. */
static void ns__tally_free(ns__tally *t) {
    ns_strmap_free(&t->m);
    free(t->count);
    t->count = NULL;
}

/* The host of a run as recorded in its run.json ("name, os, N cpus"),
 * appended to b; 0, or -1 when there is none. */
static int ns__run_host(const char *dir, const char *id, ns_buf *b) {
    ns_buf path = {0};
    ns_buf_printf(&path, "%s/run.json", dir);
    struct stat st;
    if (stat(path.data, &st) != 0) { /* a folder of runs */
        path.len = 0;
        ns_buf_printf(&path, "%s/%s/run.json", dir, id);
    }
    json_error_t err;
    json_t *root = json_load_file(path.data, 0, &err);
    ns_buf_free(&path);
    json_t *h = root ? json_object_get(root, "host") : NULL;
    int rc = -1;
    if (json_is_object(h)) {
        const char *name = json_string_value(json_object_get(h, "name"));
        const char *os = json_string_value(json_object_get(h, "os"));
        json_t *cpus = json_object_get(h, "cpus");
        ns_buf_printf(b, "%s%s%s", name ? name : "?", os ? ", " : "", os ? os : "");
        if (json_is_integer(cpus))
            ns_buf_printf(b, ", %lld cpus", (long long)json_integer_value(cpus));
        rc = 0;
    }
    json_decref(root);
    return rc;
}

static void ns__method(ns__rep *s) {
    ns_html_fact *f = ns_page_fact(&s->page, "npuscope", 0);
    ns_page_fact_add(f, "npuscope " NS_VERSION);
    f = ns_page_fact(&s->page, "this page was made with", 1);
    char **line = ns_xcalloc((size_t)s->argc + 2, sizeof *line);
    line[0] = "npuscope";
    for (int i = 0; i < s->argc; i++) line[i + 1] = s->argv[i];
    char *cmd = ns__shell_line_new(line);
    ns_page_fact_add(f, cmd);
    free(cmd);
    free(line);
    f = ns_page_fact(&s->page, "inputs", 0);
    ns_page_fact_add(f, s->from.data ? s->from.data : "-");

    ns__tally t = {0};
    ns_strmap_init(&t.m);
    /* commands the runs ran */
    for (int i = 0; i < s->set.nruns; i++) {
        char *c = ns__shell_line_new(s->set.runs[i].argv);
        ns__tally_add(&t, c);
        free(c);
    }
    ns__tally_fact(s, &t, "commands recorded (runs)", 1, 1);
    ns__tally_free(&t);
    ns_strmap_init(&t.m);
    /* environment npuscope set: per variable, its values */
    ns_strmap vars;
    ns_strmap_init(&vars);
    for (int i = 0; i < s->set.nruns; i++)
        for (int k = 0; k < s->set.runs[i].env.n; k++) {
            int added;
            ns_strmap_intern(&vars, s->set.runs[i].env.items[k].key, &added);
        }
    if (vars.count) {
        f = ns_page_fact(&s->page, "environment npuscope set", 1);
        ns_buf b = {0};
        for (size_t v = 0; v < vars.count; v++) {
            const char *key = vars.keys[v];
            b.len = 0;
            ns_buf_printf(&b, "%s=", key);
            if (strcmp(key, "NPUSCOPE_RUN_DIR") == 0 || strcmp(key, "NPUSCOPE_CACHE_DIR") == 0) {
                ns_buf_puts(&b, "(a folder per run)");
                ns_page_fact_add(f, b.data);
                continue;
            }
            ns__tally vt = {0};
            ns_strmap_init(&vt.m);
            for (int i = 0; i < s->set.nruns; i++) {
                const char *val = ns_kv_get(&s->set.runs[i].env, key);
                if (val) ns__tally_add(&vt, val);
            }
            for (size_t k = 0; k < vt.m.count && k < NS__MAX_LIST; k++)
                ns_buf_printf(&b, "%s%s", k ? " | " : "", vt.m.keys[k]);
            if (vt.m.count > NS__MAX_LIST) ns_buf_printf(&b, " | ... (%zu values)", vt.m.count);
            ns_page_fact_add(f, b.data);
            ns__tally_free(&vt);
        }
        ns_buf_free(&b);
    }
    ns_strmap_free(&vars);
    /* hosts, from run.json */
    ns_buf h = {0};
    for (int i = 0; i < s->set.nruns; i++) {
        h.len = 0;
        if (ns__run_host(s->run_dir[i], s->set.runs[i].id, &h) == 0) ns__tally_add(&t, h.data);
    }
    ns_buf_free(&h);
    ns__tally_fact(s, &t, "hosts (run.json; number of runs)", 0, 1);
    ns__tally_free(&t);
    /* when */
    if (s->set.nruns) {
        const char *first = NULL, *last = NULL;
        for (int i = 0; i < s->set.nruns; i++) {
            const char *at = s->set.runs[i].started_at;
            if (!*at) continue;
            if (!first || strcmp(at, first) < 0) first = at;
            if (!last || strcmp(at, last) > 0) last = at;
        }
        if (first) {
            f = ns_page_fact(&s->page, "recorded (run.json started_at, UTC)", 0);
            ns_buf b = {0};
            ns_buf_printf(&b, "%s to %s", first, last);
            ns_page_fact_add(f, b.data);
            ns_buf_free(&b);
        }
    }
    /* compilers: producers and titles of the reports */
    ns_strmap_init(&t.m);
    ns_buf b = {0};
    for (int i = 0; i < s->nlogs + s->set.nruns; i++) {
        const ns_run *run = i < s->nlogs ? NULL : &s->set.runs[i - s->nlogs];
        ns_report *const *reps = run ? run->reports : &s->logs[i];
        int nrep = run ? run->nreports : 1;
        for (int k = 0; k < nrep; k++) {
            b.len = 0;
            ns_buf_printf(&b, "%s", ns_producer_name(reps[k]));
            if (reps[k]->title) ns_buf_printf(&b, ": %s", reps[k]->title);
            ns__tally_add(&t, b.data);
        }
    }
    ns__tally_fact(s, &t, "timing reports (producer: title; number of reports)", 0, 1);
    ns__tally_free(&t);
    /* facts the compiler logged (--npu) */
    ns_strmap names;
    ns_strmap_init(&names);
    for (int i = 0; i < s->nlogs; i++)
        for (int k = 0; k < s->logs[i]->nfacts; k++) {
            int added;
            ns_strmap_intern(&names, s->logs[i]->facts[k].name, &added);
        }
    if (names.count) {
        f = ns_page_fact(&s->page, "compiler facts logged", 0);
        for (size_t n = 0; n < names.count; n++) {
            double lo = INFINITY, hi = -INFINITY;
            int cnt = 0;
            for (int i = 0; i < s->nlogs; i++)
                for (int k = 0; k < s->logs[i]->nfacts; k++)
                    if (strcmp(s->logs[i]->facts[k].name, names.keys[n]) == 0) {
                        double v = s->logs[i]->facts[k].value;
                        cnt++;
                        if (v < lo) lo = v;
                        if (v > hi) hi = v;
                    }
            char x[32], y[32];
            b.len = 0;
            if (cnt == 1) ns_buf_printf(&b, "%s: %s", names.keys[n], ns_svg_num(x, lo, 6));
            else
                ns_buf_printf(&b, "%s: %s to %s over %d reports", names.keys[n],
                              ns_svg_num(x, lo, 6), ns_svg_num(y, hi, 6), cnt);
            ns_page_fact_add(f, b.data);
        }
    }
    ns_strmap_free(&names);
    ns_buf_free(&b);
    /* stage maps */
    if (s->stages.count) {
        f = ns_page_fact(&s->page, "stage maps", 0);
        b = (ns_buf){0};
        if (s->stage_spec) ns_buf_printf(&b, "--stages %s", s->stage_spec);
        else ns_buf_puts(&b, "automatic: vpux for NPU compiler reports, mlir for the others");
        ns_buf_puts(&b, " (npuscope stages prints a map's rules; npuscope stages INPUT shows "
                        "which rule decided each row)");
        ns_page_fact_add(f, b.data);
        ns_buf_free(&b);
    }
    f = ns_page_fact(&s->page, "statistics", 0);
    ns_page_fact_add(f, "Times are the compiler's printed values, never rescaled; shares of a "
                        "report's Total (wall). Runs count when they succeeded and are neither "
                        "warmups nor cache primers; medians over them, min to max as the spread.");
    ns_page_fact_add(f, "Power laws: least squares of ln time on ln x, 95% confidence interval "
                        "of the exponent by Student's t with n-2 degrees of freedom (npuscope "
                        "fit). Diff: exact two-sided Mann-Whitney U p-value (npuscope diff).");
}

/* ====== Writing ====== */

static int ns__write_file(const char *path, const char *pre, const ns_buf *b) {
    FILE *f = fopen(path, "wb");
    if (!f) {
        ns_error("%s: %s", path, strerror(errno));
        return -1;
    }
    int bad = (pre && fputs(pre, f) == EOF) || (b->len && fwrite(b->data, 1, b->len, f) != b->len);
    if (fclose(f) != 0) bad = 1;
    if (bad) {
        ns_error("%s: write error", path);
        return -1;
    }
    return 0;
}

static int ns__write_svgs(const ns__rep *s) {
    if (mkdir(s->svg_dir, 0777) != 0 && errno != EEXIST) {
        ns_error("%s: %s", s->svg_dir, strerror(errno));
        return -1;
    }
    ns_buf path = {0};
    int rc = 0;
    for (int i = 0; i < s->page.nfigs && rc == 0; i++) {
        path.len = 0;
        ns_buf_printf(&path, "%s/%s.svg", s->svg_dir, s->page.figs[i].id);
        ns_buf svg = {0};
        ns_buf_puts(&svg, s->page.figs[i].svg);
        rc = ns__write_file(path.data, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", &svg);
        ns_buf_free(&svg);
    }
    ns_buf_free(&path);
    return rc;
}

/* ====== The command ====== */

static void ns__free(ns__rep *s) {
    for (int i = 0; i < s->nlogs; i++) ns_report_free(s->logs[i]);
    free(s->logs);
    ns_buf_free(&s->from);
    ns_runset_free(&s->set);
    free(s->run_dir);
    ns_stage_sel_free(&s->sel);
    ns_strmap_free(&s->stages);
    free(s->stage_color);
    free(s->run_share);
    free(s->keys);
    for (int g = 0; g < s->ngrps; g++) {
        ns_config_free(&s->grps[g].cfg);
        free(s->grps[g].share);
    }
    free(s->grps);
    ns_page_free(&s->page);
}

static int ns__kv_ok(const char *spec) {
    const char *eq = strchr(spec, '=');
    return eq && eq != spec;
}

int ns_cmd_report(int argc, char **argv) {
    ns__rep s;
    memset(&s, 0, sizeof s);
    ns_strmap_init(&s.stages);
    s.out = NS__DEFAULT_OUT;
    s.argc = argc;
    s.argv = argv;
    s.inputs = ns_xcalloc((size_t)argc + 1, sizeof *s.inputs);
    ns_args a;
    ns_args_init(&a, argc, argv);
    int rc = NS_EXIT_OK, m, sel_ready = 0;
    const char *v;
    ns__shown sh = {0};
    while (a.i < argc) {
        if ((m = ns_args_value(&a, "-o", &v)) || (m = ns_args_value(&a, "--output", &v))) {
            if (m < 0) { rc = NS_EXIT_USAGE; goto out; }
            s.out = v;
        } else if ((m = ns_args_value(&a, "--svg-dir", &v))) {
            if (m < 0) { rc = NS_EXIT_USAGE; goto out; }
            s.svg_dir = v;
        } else if ((m = ns_args_value(&a, "--stages", &v))) {
            if (m < 0) { rc = NS_EXIT_USAGE; goto out; }
            s.stage_spec = strcmp(v, "auto") == 0 ? NULL : v;
        } else if ((m = ns_args_value(&a, "--a", &v))) {
            if (m < 0) { rc = NS_EXIT_USAGE; goto out; }
            s.sel_a = v;
        } else if ((m = ns_args_value(&a, "--b", &v))) {
            if (m < 0) { rc = NS_EXIT_USAGE; goto out; }
            s.sel_b = v;
        } else if ((m = ns_args_value(&a, "--baseline", &v))) {
            if (m < 0) { rc = NS_EXIT_USAGE; goto out; }
            if (!ns__kv_ok(v)) {
                rc = ns_args_usage(&a, "--baseline: K=V (a tag and its value), not '%s'", v);
                goto out;
            }
            s.baseline = v;
        } else {
            int r = ns_args_common(&a, &s.ro, s.inputs, &s.ninputs);
            if (r == NS_ARGS_HELP) goto out;
            if (r == NS_ARGS_ERROR) { rc = NS_EXIT_USAGE; goto out; }
        }
    }
    if (!s.sel_a != !s.sel_b) {
        rc = ns_args_usage(&a, "--a and --b go together (the two sides of the diff)");
        goto out;
    }
    if (s.sel_a && (!ns__kv_ok(s.sel_a) || !ns__kv_ok(s.sel_b))) {
        rc = ns_args_usage(&a, "--a and --b take K=V[,K=V...] (tag selections)");
        goto out;
    }
    if (!*s.out) {
        rc = ns_args_usage(&a, "-o needs a file name");
        goto out;
    }
    if (ns_stage_sel_init(&s.sel, s.stage_spec) < 0) {
        rc = NS_EXIT_USAGE;
        goto out;
    }
    sel_ready = 1;
    ns_diag_quiet(s.ro.quiet);
    if (ns__read(&s) < 0) rc = NS_EXIT_USAGE;
    if (s.nlogs == 0 && s.set.nruns == 0) {
        if (rc == NS_EXIT_OK) {
            ns_error("no timing report or run found");
            rc = NS_EXIT_NOTHING;
        }
        goto out;
    }
    if (s.sel_a && s.set.nruns == 0) {
        rc = ns_args_usage(&a, "--a/--b select runs: give a run folder or a sweep folder");
        goto out;
    }

    /* analysis, in page order */
    for (int i = 0; i < s.nlogs; i++) ns__add_map_stages(&s, ns_stage_sel_pick(&s.sel, s.logs[i]));
    ns__run_shares(&s);
    ns__stage_colors(&s);
    ns__group(&s);
    ns__pick_shown(&s, &sh);
    ns__data_json(&s, &sh);
    ns__overview(&s);
    ns__passes(&s, &sh);
    ns__runs_table(&s);
    if (s.sel_a && ns__diff(&s) < 0) {
        rc = NS_EXIT_USAGE;
        goto out;
    }
    ns__figures(&s);
    ns__method(&s);

    /* the page's words */
    ns_buf t = {0};
    ns_buf_puts(&t, "npuscope report: ");
    ns_buf_puts(&t, s.ninputs ? s.inputs[0] : "standard input");
    if (s.ninputs > 1) ns_buf_printf(&t, " and %d more", s.ninputs - 1);
    s.page.title = t.data;
    s.page.subtitle = ns_strdup(s.from.data ? s.from.data : "");
    ns_buf note = {0};
    if (s.set.nruns)
        ns_buf_puts(&note, "For run folders, the reports of the median run of each configuration "
                           "and mode are shown. ");
    if (sh.omitted)
        ns_buf_printf(&note, "%d report%s left out: the page holds at most %d rows. ", sh.omitted,
                      sh.omitted == 1 ? " is" : "s are", NS__MAX_NODES);
    ns_buf_puts(&note, "Click a row, or use the arrow keys, Enter or Space, Home and End; "
                       "shares are of the report's total (wall).");
    s.page.tree_note = note.data;

    ns_buf html = {0};
    if (ns_html_page(&html, &s.page) < 0) {
        ns_buf_free(&html);
        rc = NS_EXIT_USAGE;
        goto out;
    }
    if (strcmp(s.out, "-") == 0) {
        if (ns_buf_flush(&html, stdout) || fflush(stdout)) {
            ns_error("error writing the output");
            rc = NS_EXIT_USAGE;
        }
    } else if (ns__write_file(s.out, NULL, &html) < 0) {
        rc = NS_EXIT_USAGE;
    } else {
        fprintf(stderr, "npuscope: wrote %s\n", s.out);
    }
    ns_buf_free(&html);
    if (rc == NS_EXIT_OK && s.svg_dir && ns__write_svgs(&s) < 0) rc = NS_EXIT_USAGE;
    ns_diag_summary();
out:
    for (int i = 0; i < sh.n; i++) free(sh.labels[i]);
    free(sh.reps);
    free(sh.labels);
    if (!sel_ready) memset(&s.sel, 0, sizeof s.sel);
    ns__free(&s);
    free(s.inputs);
    return rc;
}
