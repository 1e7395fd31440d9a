/* page.c -- the model of the report page: building it in page order (see
 * page.h for what each section holds, page_int.h for which file owns what).
 *
 * The build is a straight line of sections, each reading what the earlier
 * ones left: the table first (it decides the page's stage names, the
 * groups and their median runs), then the explorer's reports, the overview,
 * the heaviest passes over the shown reports, the cache factor, the diff,
 * the figures' data and the method facts.  The stage names of the logs'
 * maps are put in before the table adds the runs' maps, so a page keeps
 * one stage order from the first finding to the last figure.
 *
 * This file must not print (the command says what the options could not
 * get, from the model), format a sentence or a number for people, or know
 * anything of HTML and SVG (render/page.c does).
 */
#include "analyse/page_int.h"

#include "analyse/stats.h"
#include "npu/npu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== The explorer ====== */

/* Embed r unless the rows are full; its index in reps, or -1. */
static int ns__show(ns_page_shown *sh, const ns_report *r, const char *label) {
    if (!r || !r->root) return -1;
    if (sh->nodes + r->nnodes > NS_PAGE_MAX_NODES && sh->n > 0) {
        sh->omitted++;
        return -1;
    }
    sh->reps = ns_xrealloc(sh->reps, sizeof *sh->reps * (size_t)(sh->n + 1));
    sh->labels = ns_xrealloc(sh->labels, sizeof *sh->labels * (size_t)(sh->n + 1));
    sh->reps[sh->n] = r;
    sh->labels[sh->n] = ns_strdup(label);
    sh->nodes += r->nnodes;
    return sh->n++;
}

/* The rows of run `run`'s reports that have a tree, and its reports: from
 * the trees, or from what was kept of them when the run was read. */
static long ns__run_nodes(const ns_page_model *m, int run, int *nreports) {
    if (m->in->sums) {
        *nreports = m->in->sums[run].nreports;
        return m->in->sums[run].nodes;
    }
    const ns_run *r = &m->in->set->runs[run];
    long need = 0;
    for (int k = 0; k < r->nreports; k++)
        if (r->reports[k]->root) need += r->reports[k]->nnodes;
    *nreports = r->nreports;
    return need;
}

/* Embed the reports of run `run` as an openable run of table row `row`:
 * all of them, or none (a run is opened whole).  A run read without its
 * trees has them brought back first; when they cannot be (the run folder
 * changed since), none are embedded. */
static void ns__show_run(ns_page_model *m, int row, int run, int roles) {
    ns_page_shown *sh = &m->shown;
    const ns_run *r = &m->in->set->runs[run];
    int nrep;
    long need = ns__run_nodes(m, run, &nrep);
    ns_page_xrun x = {row, run, roles, -1, 0};
    if (need && sh->nodes + need > NS_PAGE_MAX_NODES && sh->n > 0) {
        sh->omitted += nrep;
    } else if (!m->in->sums || nrep == 0 || m->in->load(m->in->load_ctx, run) == 0) {
        for (int k = 0; k < r->nreports; k++) {
            int at = ns__show(sh, r->reports[k], r->reports[k]->label);
            if (at < 0) continue;
            if (x.first < 0) x.first = at;
            x.nreps++;
        }
    }
    sh->runs = ns_xrealloc(sh->runs, sizeof *sh->runs * (size_t)(sh->nruns + 1));
    sh->runs[sh->nruns++] = x;
}

/* The row's fastest (dir < 0) or slowest (dir > 0) counted run: ties by
 * reading order; -1 without counted runs. */
static int ns__extreme_run(const ns_page_model *m, const ns_table_row *x, int dir) {
    int best = -1;
    for (int i = 0; i < x->cfg.nruns; i++) {
        const ns_run *r = &m->in->set->runs[x->cfg.runs[i]];
        if (!ns_run_counted(r)) continue;
        double w = r->wall_s, b = best < 0 ? 0 : m->in->set->runs[best].wall_s;
        if (best < 0 || (dir < 0 ? w < b : w > b)) best = x->cfg.runs[i];
    }
    return best;
}

/* The reports the explorer shows: every log report, then the median run's
 * reports of each configuration and mode, then -- within
 * NS_PAGE_FULL_NODES -- the fastest and slowest runs' (each once, with
 * every role it plays). */
static void ns__shown(ns_page_model *m) {
    ns_page_shown *sh = &m->shown;
    for (int i = 0; i < m->in->nlogs; i++) ns__show(sh, m->in->logs[i], m->in->logs[i]->label);
    sh->nlogs = sh->n;
    int *fast = ns_xcalloc((size_t)m->table.nrows + 1, sizeof *fast);
    int *slow = ns_xcalloc((size_t)m->table.nrows + 1, sizeof *slow);
    for (int g = 0; g < m->table.nrows; g++) {
        const ns_table_row *x = &m->table.rows[g];
        fast[g] = ns__extreme_run(m, x, -1);
        slow[g] = ns__extreme_run(m, x, 1);
        int med = x->median_run;
        if (med < 0) continue;
        ns__show_run(m, g, med, NS_PAGE_MEDIAN | (fast[g] == med ? NS_PAGE_FASTEST : 0) |
                                    (slow[g] == med ? NS_PAGE_SLOWEST : 0));
    }
    sh->primary = sh->n;
    /* the other runs: all of them within the budget, or none */
    long extra = 0;
    int nextra = 0;
    for (int g = 0; g < m->table.nrows; g++) {
        int med = m->table.rows[g].median_run, x[2] = {fast[g], slow[g]};
        if (med < 0) continue;
        for (int k = 0; k < 2; k++) {
            if (x[k] < 0 || x[k] == med || (k == 1 && x[1] == x[0])) continue;
            int nrep;
            extra += ns__run_nodes(m, x[k], &nrep);
            nextra++;
        }
    }
    if (sh->nodes + extra > NS_PAGE_FULL_NODES) {
        sh->extras_left = nextra;
        nextra = 0;
    }
    for (int g = 0; g < m->table.nrows && nextra; g++) {
        int med = m->table.rows[g].median_run;
        if (med < 0) continue;
        if (fast[g] >= 0 && fast[g] != med)
            ns__show_run(m, g, fast[g], NS_PAGE_FASTEST | (slow[g] == fast[g] ? NS_PAGE_SLOWEST : 0));
        if (slow[g] >= 0 && slow[g] != med && slow[g] != fast[g])
            ns__show_run(m, g, slow[g], NS_PAGE_SLOWEST);
    }
    free(fast);
    free(slow);
}

/* ====== The overview ====== */

static void ns__overview_logs(ns_page_model *m) {
    ns_page_overview *o = &m->overview;
    ns_report *const *logs = m->in->logs;
    int n = m->in->nlogs;
    o->log_big = -1;
    for (int i = 0; i < n; i++) {
        double t = ns_stage_report_total(logs[i]);
        /* a breakdown table's time is inside its main report's (report.h) */
        if (!isfinite(t) || !ns_report_is_main(logs[i])) continue;
        o->log_sum += t;
        if (o->log_big < 0 || t > ns_stage_report_total(logs[o->log_big])) o->log_big = i;
    }
    int added;
    for (int i = 0; i < n; i++) ns_strmap_intern(&o->producers, ns_producer_name(logs[i]), &added);
    /* sub-model kinds (an NPUW LLM compile labelled with --npuw) */
    o->kind_total = ns_xcalloc((size_t)n + 1, sizeof *o->kind_total);
    for (int i = 0; i < n; i++) {
        char *k = ns_submodel_kind_new(logs[i]->label);
        size_t j = ns_strmap_intern(&o->kinds, k, NULL);
        free(k);
        double t = ns_stage_report_total(logs[i]);
        if (isfinite(t)) o->kind_total[j] += t;
    }
}

static void ns__overview_runs(ns_page_model *m) {
    ns_page_overview *o = &m->overview;
    const ns_runset *set = m->in->set;
    double *w = ns_xcalloc((size_t)set->nruns + 1, sizeof *w);
    for (int i = 0; i < set->nruns; i++)
        if (ns_run_counted(&set->runs[i])) w[o->counted++] = set->runs[i].wall_s;
    /* configurations: distinct tags over the rows (every mode), counted
     * through a hash map (ns_config_groups_new) */
    const ns_config **cf = ns_xcalloc((size_t)m->table.nrows + 1, sizeof *cf);
    for (int g = 0; g < m->table.nrows; g++) cf[g] = &m->table.rows[g].cfg;
    free(ns_config_groups_new(cf, m->table.nrows, &o->configs));
    free(cf);
    o->run_min = ns_min(w, (size_t)o->counted);
    o->run_max = ns_max(w, (size_t)o->counted);
    o->run_median = ns_median(w, (size_t)o->counted);
    free(w);
}

/* ====== Heaviest passes ====== */

/* top's sums over the shown reports (the logs' and the median runs': the
 * fastest and slowest runs are there to be opened, not summed).  Their
 * maps' stages are already the page's: the shown reports are logs and
 * runs, whose maps the table read. */
static void ns__passes(ns_page_model *m) {
    ns_page_passes *p = &m->passes;
    ns_top_init(&p->top, 0);
    p->best = p->second = -1;
    if (m->shown.primary == 0) return;
    for (int i = 0; i < m->shown.primary; i++) {
        const ns_stage_map *sm = ns_stage_sel_pick(m->sel, m->shown.reps[i]);
        long n;
        ns_stage_of *of = sm ? ns_stage_assign_new(sm, m->shown.reps[i], &n) : NULL;
        ns_top_add_staged(&p->top, m->shown.reps[i], sm, of);
        free(of);
    }
    p->order = ns_top_order_new(&p->top);
    const ns_top *t = &p->top;
    for (size_t k = 0; k < t->stages.count; k++) {
        if (p->best < 0 || t->srows[k].self > t->srows[p->best].self) p->second = p->best, p->best = (int)k;
        else if (p->second < 0 || t->srows[k].self > t->srows[p->second].self) p->second = (int)k;
    }
}

/* ====== The cache factor ====== */

static void ns__cache(ns_page_model *m) {
    ns_page_cache *c = &m->cache;
    double *xs = ns_xcalloc((size_t)m->table.nrows + 1, sizeof *xs);
    c->row = -1;
    for (int g = 0; g < m->table.nrows; g++)
        if (strcmp(m->table.rows[g].cfg.mode, "cold") == 0 && isfinite(m->table.rows[g].cache_x)) {
            xs[c->n++] = m->table.rows[g].cache_x;
            c->row = g;
        }
    c->min = ns_min(xs, (size_t)c->n);
    c->max = ns_max(xs, (size_t)c->n);
    c->median = ns_median(xs, (size_t)c->n);
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

static void ns__diff(ns_page_model *m) {
    ns_page_diff *d = &m->diff;
    if (!m->opts->a || !m->opts->b) return;
    d->asked = 1;
    ns_selection sa, sb;
    ns_select_runs(m->in->set, m->opts->a, NULL, &sa);
    ns_select_runs(m->in->set, m->opts->b, NULL, &sb);
    d->mode = ns__diff_mode(&sa, &sb);
    ns_selection_free(&sa);
    ns_selection_free(&sb);
    ns_select_runs(m->in->set, m->opts->a, d->mode, &sa);
    ns_select_runs(m->in->set, m->opts->b, d->mode, &sb);
    d->a_n = sa.n;
    d->b_n = sb.n;
    d->opts = (ns_diff_opts){0.05, 2, 0};
    if (sa.n && sb.n && m->in->diff_sums) {
        /* the runs' summaries, in the selections' order */
        const ns_diff_sums **qa = ns_xcalloc((size_t)sa.n, sizeof *qa);
        const ns_diff_sums **qb = ns_xcalloc((size_t)sb.n, sizeof *qb);
        for (int i = 0; i < sa.n; i++) qa[i] = &m->in->diff_sums[sa.runs[i] - m->in->set->runs];
        for (int i = 0; i < sb.n; i++) qb[i] = &m->in->diff_sums[sb.runs[i] - m->in->set->runs];
        ns_diff_summed(m->in->diff_keep, sa.runs, qa, sa.n, sb.runs, qb, sb.n, &d->opts, &d->diff);
        free(qa);
        free(qb);
        d->min_p = ns_mann_whitney_min_p((size_t)sa.n, (size_t)sb.n);
    } else if (sa.n && sb.n) {
        ns_diff_runs(sa.runs, sa.n, sb.runs, sb.n, &d->opts, &d->diff);
        d->min_p = ns_mann_whitney_min_p((size_t)sa.n, (size_t)sb.n);
    }
    ns_selection_free(&sa);
    ns_selection_free(&sb);
}

/* ====== The model ====== */

/* The baseline of the ratios: --baseline K=V, or precision=int8 when a run
 * has it.  The key is owned by the model. */
static void ns__baseline(ns_page_model *m) {
    const char *spec = m->opts->baseline;
    if (spec) {
        const char *eq = strchr(spec, '=');
        m->ratios.key = ns_strndup(spec, (size_t)(eq - spec));
        m->ratios.base = eq + 1;
        return;
    }
    for (int i = 0; i < m->in->set->nruns; i++) {
        const char *v = ns_kv_get(&m->in->set->runs[i].tags, "precision");
        if (v && strcmp(v, "int8") == 0) {
            m->ratios.key = ns_strdup("precision");
            m->ratios.base = "int8";
            return;
        }
    }
}

/* Take over the stage sums kept while the runs were read: their stage
 * names join the page's after the logs' (the order the table would give
 * them from the trees), and each sum's slot is renumbered to match. */
static void ns__adopt_kept(ns_table *t, ns_table *kept) {
    size_t *slot = ns_xcalloc(kept->stages.count + 1, sizeof *slot);
    int added;
    for (size_t k = 0; k < kept->stages.count; k++)
        slot[k] = ns_strmap_intern(&t->stages, kept->stages.keys[k], &added);
    for (size_t k = 0; k < kept->nkept; k++) kept->kept[k].slot = (int)slot[kept->kept[k].slot];
    free(slot);
    t->kept = kept->kept, t->nkept = kept->nkept, t->kept_sums_cap = kept->kept_sums_cap;
    t->kept_total = kept->kept_total, t->kept_cap = kept->kept_cap;
    t->kept_runs = kept->kept_runs;
    kept->kept = NULL, kept->nkept = kept->kept_sums_cap = 0;
    kept->kept_total = NULL, kept->kept_cap = 0;
    kept->kept_runs = 0;
}

void ns_page_model_build(ns_page_model *m, const ns_page_input *in, const ns_page_opts *opts,
                         ns_stage_sel *sel) {
    memset(m, 0, sizeof *m);
    m->in = in;
    m->opts = opts;
    m->sel = sel;
    ns_strmap_init(&m->overview.producers);
    ns_strmap_init(&m->overview.kinds);
    /* the table: the logs' stages first, then the runs' */
    ns_table_init(&m->table);
    int added;
    for (int i = 0; i < in->nlogs; i++) {
        const ns_stage_map *sm = ns_stage_sel_pick(sel, in->logs[i]);
        for (int k = 0; sm && k < ns_stage_count(sm); k++)
            ns_strmap_intern(&m->table.stages, ns_stage_name(sm, k), &added);
    }
    if (in->kept) ns__adopt_kept(&m->table, in->kept);
    ns__baseline(m);
    ns_table_opts to = {sel, m->ratios.key, m->ratios.base};
    ns_table_build(&m->table, in->set->runs, in->set->nruns, &to);
    for (int i = 0; i < m->table.nrows; i++)
        if (strcmp(m->table.rows[i].cfg.mode, "cold") == 0 && m->table.rows[i].n) m->fig_mode = "cold";
    /* the sections, in page order */
    ns__shown(m);
    if (in->nlogs) ns__overview_logs(m);
    if (in->set->nruns) ns__overview_runs(m);
    ns__passes(m);
    ns__cache(m);
    ns__diff(m);
    ns__page_figures(m);
    ns__page_method(m);
}

void ns_page_model_free(ns_page_model *m) {
    for (int i = 0; i < m->shown.n; i++) free(m->shown.labels[i]);
    free(m->shown.reps);
    free(m->shown.labels);
    free(m->shown.runs);
    ns_strmap_free(&m->overview.producers);
    ns_strmap_free(&m->overview.kinds);
    free(m->overview.kind_total);
    free(m->passes.order);
    ns_top_free(&m->passes.top);
    ns_diff_free(&m->diff.diff);
    ns__page_figures_free(m);
    ns__page_method_free(&m->method);
    ns_table_free(&m->table);
    memset(m, 0, sizeof *m);
}
