/* findings.c -- the findings engine's numbers (findings.h): the cases of
 * logs and run folders, the summary, the study; the rules that read them
 * are in findings_rules.c.
 *
 * A log file is one compile (all its reports summed: an NPUW LLM compile
 * is several).  A configuration of run folders is its counted runs: the
 * compile row (cold, or "none" without cache modes) gives the time, the
 * stage shares (the table's medians) and the heaviest pass (the largest
 * median over its runs of a pass's summed time), the warm row the cache
 * verdict.  Every counted report also goes into one ns_top, whose stage
 * rows are the summary -- the same sums `top --by stage` makes.
 *
 * Runs are read run by run: a run's leaf pass times are kept (names
 * interned once), its trees may then be freed.
 */
#include "analyse/findings.h"
#include "analyse/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ns_findings_init(ns_findings *f, ns_stage_sel *sel) {
    memset(f, 0, sizeof *f);
    f->sel = sel;
    ns_top_init(&f->top, 0);
    ns_table_init(&f->table);
    ns_strmap_init(&f->passes);
    ns_study_keep_init(&f->keep);
    f->dominant = f->heaviest = -1;
}

/* Add a report to the summary's sums. */
static void ns__top_add(ns_findings *f, const ns_report *r) {
    if (r->tracks && !(r->root->child && r->root->child->next && r->root->child->next->beside))
        f->side_by_side = 1;
    f->listed |= r->list_mode;
    f->cut |= !r->complete;
    const ns_stage_map *m = ns_stage_sel_pick(f->sel, r);
    long n;
    ns_stage_of *of = m ? ns_stage_assign_new(m, r, &n) : NULL;
    ns_top_add_staged(&f->top, r, m, of);
    free(of);
}

/* The summed totals of a compile's main reports (those that have one). */
static double ns__total(ns_report *const *reps, int n) {
    double total = 0;
    for (int k = 0; k < n; k++) {
        if (!ns_report_is_main(reps[k])) continue;
        double t = ns_stage_report_total(reps[k]);
        if (isfinite(t)) total += t;
    }
    return total;
}

/* Leaf pass rows summed by name over a compile's reports, into q.  A phase
 * row whose passes a breakdown table lists is no pass. */
static void ns__passes(ns_findings *f, ns_report *const *reps, int n, ns_findings_run *q) {
    size_t *slot = NULL; /* per name id: index in q + 1 */
    size_t nslot = 0;
    for (int k = 0; k < n; k++)
        for (const ns_node *nd = reps[k]->root->child; nd;
             nd = ns_node_next((ns_node *)nd, reps[k]->root)) {
            if (nd->kind != NS_KIND_PASS || nd->child || nd->split == NS_SPLIT_PASSES) continue;
            /* a trace's side track, list display's hidden root (stages.h) */
            if (!ns_stage_counted(reps[k], nd)) continue;
            int added;
            size_t id = ns_strmap_intern(&f->passes, nd->name, &added);
            if (id >= nslot) {
                size_t m = id + 64;
                slot = ns_xrealloc(slot, sizeof *slot * m);
                memset(slot + nslot, 0, sizeof *slot * (m - nslot));
                nslot = m;
            }
            if (!slot[id]) {
                q->pass = ns_xrealloc(q->pass, sizeof *q->pass * (size_t)(q->npass + 1));
                q->pass_s = ns_xrealloc(q->pass_s, sizeof *q->pass_s * (size_t)(q->npass + 1));
                q->pass[q->npass] = id;
                q->pass_s[q->npass] = 0;
                slot[id] = (size_t)++q->npass;
            }
            double w = nd->val[NS_COL_WALL].v;
            if (isfinite(w)) q->pass_s[slot[id] - 1] += w;
        }
    free(slot);
}

/* The compile of one set of reports, as a run summary. */
static void ns__compile(ns_findings *f, ns_report *const *reps, int n, ns_findings_run *q) {
    memset(q, 0, sizeof *q);
    q->has_reports = n > 0;
    if (!n) return;
    q->map = ns_stage_sel_pick(f->sel, reps[0]);
    for (int k = 0; k < n; k++) q->submodels += ns_report_starts_compile(reps[k]);
    q->total = ns__total(reps, n);
    ns__passes(f, reps, n, q);
}

static void ns__run_free(ns_findings_run *q) {
    free(q->pass);
    free(q->pass_s);
}

static ns_findings_case *ns__new_case(ns_findings *f, const char *name) {
    f->cases = ns_xrealloc(f->cases, sizeof *f->cases * (size_t)(f->ncases + 1));
    ns_findings_case *c = &f->cases[f->ncases++];
    memset(c, 0, sizeof *c);
    c->name = ns_strdup(name);
    c->cold_s = c->warm_s = c->tasks = c->tokens_per_s = c->cache_x = NAN;
    c->pass_s = c->pass_share = c->pass_of_s = c->pass_worst_s = NAN;
    c->regime = -1;
    for (int i = 0; i < NS_FINDINGS_MAX_STAGES; i++) c->share[i] = NAN;
    return c;
}

static void ns__regime(ns_findings_case *c) {
    c->regime = -1;
    for (int i = 0; c->map && i < ns_stage_count(c->map) && i < NS_FINDINGS_MAX_STAGES; i++)
        if (isfinite(c->share[i]) && (c->regime < 0 || c->share[i] > c->share[c->regime]))
            c->regime = i;
    c->npu = c->map && !strcmp(ns_stage_map_label(c->map), "vpux");
}

/* The heaviest pass of compiles qs[0..n): the pass with the largest median
 * (over the compiles, 0 where it did not run) of its summed time; ties by
 * name.  Its median share of each compile's total, the median total. */
static void ns__heaviest(ns_findings *f, ns_findings_case *c, const ns_findings_run *const *qs,
                         int n) {
    if (!n) return;
    double *v = ns_xmalloc(sizeof *v * (size_t)n);
    ns_strmap seen;
    ns_strmap_init(&seen);
    const char *best = NULL;
    double best_s = NAN;
    for (int i = 0; i < n; i++)
        for (int p = 0; p < qs[i]->npass; p++) {
            const char *name = f->passes.keys[qs[i]->pass[p]];
            int added;
            ns_strmap_intern(&seen, name, &added);
            if (!added) continue;
            for (int j = 0; j < n; j++) {
                v[j] = 0;
                for (int r = 0; r < qs[j]->npass; r++)
                    if (qs[j]->pass[r] == qs[i]->pass[p]) v[j] = qs[j]->pass_s[r];
            }
            double med = ns_median(v, (size_t)n);
            if (!best || med > best_s || (med == best_s && strcmp(name, best) < 0)) {
                best = name;
                best_s = med;
            }
        }
    if (best) {
        double *sh = ns_xmalloc(sizeof *sh * (size_t)n), *tot = ns_xmalloc(sizeof *tot * (size_t)n);
        c->pass_worst_s = 0;
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int r = 0; r < qs[j]->npass; r++)
                if (!strcmp(f->passes.keys[qs[j]->pass[r]], best)) s = qs[j]->pass_s[r];
            sh[j] = qs[j]->total > 0 ? s / qs[j]->total : NAN;
            tot[j] = qs[j]->total;
            if (s > c->pass_worst_s) c->pass_worst_s = s;
        }
        c->pass = ns_strdup(best);
        c->pass_s = best_s;
        c->pass_share = ns_median(sh, (size_t)n);
        c->pass_of_s = ns_median(tot, (size_t)n);
        free(sh);
        free(tot);
    }
    ns_strmap_free(&seen);
    free(v);
}

void ns_findings_add_log(ns_findings *f, const char *name, ns_report *const *reps, int n) {
    ns_findings_case *c = ns__new_case(f, name);
    ns_findings_run q;
    ns__compile(f, reps, n, &q);
    c->map = q.map;
    c->compiles = 1;
    c->submodels = q.submodels;
    c->total_s = q.total;
    double self[NS_FINDINGS_MAX_STAGES] = {0};
    for (int k = 0; k < n; k++) {
        ns__top_add(f, reps[k]);
        if (!ns_report_is_main(reps[k])) continue; /* inside a main report */
        const ns_stage_map *m = ns_stage_sel_pick(f->sel, reps[k]);
        long cnt;
        ns_stage_of *of = ns_stage_assign_new(m, reps[k], &cnt);
        ns_stage_sums s;
        double buf[NS_FINDINGS_MAX_STAGES + 1];
        s.self = buf;
        ns_stage_sum(m, reps[k], of, &s);
        /* stages by name: reports of one log may use different maps */
        for (int i = 0; i < ns_stage_count(m) && i < NS_FINDINGS_MAX_STAGES; i++) {
            int at = c->map ? ns_stage_find(c->map, ns_stage_name(m, i)) : -1;
            if (at >= 0 && at < NS_FINDINGS_MAX_STAGES) self[at] += buf[i];
        }
        free(of);
        for (int x = 0; x < reps[k]->nfacts; x++)
            if (!strcmp(reps[k]->facts[x].name, "vpuip_tasks"))
                c->tasks = (isfinite(c->tasks) ? c->tasks : 0) + reps[k]->facts[x].value;
    }
    for (int i = 0; c->map && i < ns_stage_count(c->map) && i < NS_FINDINGS_MAX_STAGES; i++)
        c->share[i] = q.total > 0 ? self[i] / q.total : NAN;
    const ns_findings_run *qs[1] = {&q};
    ns__heaviest(f, c, qs, 1);
    ns__regime(c);
    ns__run_free(&q);
}

void ns_findings_keep_run(ns_findings *f, const ns_run *r) {
    if (f->nruns == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 64;
        f->runs = ns_xrealloc(f->runs, sizeof *f->runs * (size_t)f->cap);
        f->study_sums = ns_xrealloc(f->study_sums, sizeof *f->study_sums * (size_t)f->cap);
    }
    int i = f->nruns++;
    ns_table_keep_stages(&f->table, r, f->sel);
    ns__compile(f, r->reports, r->nreports, &f->runs[i]);
    ns_study_keep_run(&f->keep, r, f->sel, &f->study_sums[i]);
    if (ns_run_counted(r))
        for (int k = 0; k < r->nreports; k++) ns__top_add(f, r->reports[k]);
}

/* The median of metric `name` in a row, or NaN. */
static double ns__row_metric(const ns_table *t, const ns_table_row *x, const char *name) {
    for (int m = 0; m < t->nmetrics; m++)
        if (!strcmp(t->metrics[m], name)) return x->metrics[m];
    return NAN;
}

/* The cache verdict of a configuration: its warm row's (analyse/table.h). */
static void ns__cache(ns_findings_case *c, const ns_table_row *warm) {
    c->cache_x = isfinite(c->cold_s) && c->warm_s > 0 ? c->cold_s / c->warm_s : NAN;
    c->cache = warm && warm->cache >= 0 ? (ns_cache_verdict)warm->cache : NS_CACHE_UNKNOWN;
    c->warm_runs = warm ? warm->n : 0;
    c->warm_compiled = warm ? warm->warm_compiled : 0;
}

/* One case per configuration of the runs, in the table's order. */
static void ns__from_runs(ns_findings *f, const ns_runset *rs) {
    ns_table_opts o = {f->sel, NULL, NULL};
    ns_table_build(&f->table, rs->runs, rs->nruns, &o);
    const ns_table *t = &f->table;
    /* the rows of each configuration, in row order, through their group
     * numbers (linear: a pairwise scan was minutes at 20,000) */
    const ns_config **cf = ns_xcalloc((size_t)t->nrows + 1, sizeof *cf);
    for (int i = 0; i < t->nrows; i++) cf[i] = &t->rows[i].cfg;
    int ng, *grp = ns_config_groups_new(cf, t->nrows, &ng);
    free(cf);
    int *gstart = ns_xcalloc((size_t)ng + 2, sizeof *gstart), *gfill = ns_xcalloc((size_t)ng + 1, sizeof *gfill);
    int *members = ns_xcalloc((size_t)t->nrows + 1, sizeof *members);
    for (int i = 0; i < t->nrows; i++) gstart[grp[i] + 1]++;
    for (int q = 0; q < ng; q++) gstart[q + 1] += gstart[q];
    for (int i = 0; i < t->nrows; i++) members[gstart[grp[i]] + gfill[grp[i]]++] = i;
    free(gfill);
    int *done = ns_xcalloc((size_t)t->nrows + 1, sizeof *done);
    const ns_findings_run **qs = ns_xcalloc((size_t)rs->nruns + 1, sizeof *qs);
    for (int i = 0; i < t->nrows; i++) {
        if (done[i]) continue;
        const ns_table_row *first = &t->rows[i], *compile = NULL, *warm = NULL;
        for (int q = gstart[grp[i]]; q < gstart[grp[i] + 1]; q++) { /* the rows of this configuration */
            int r = members[q];
            const ns_table_row *x = &t->rows[r];
            done[r] = 1;
            if (!x->n) continue;
            if (!strcmp(x->cfg.mode, "warm")) warm = x;
            else if (!compile) compile = x;
        }
        if (!compile && !warm) continue; /* no counted run */
        const ns_kvlist *tags = &rs->runs[first->cfg.runs[0]].tags;
        ns_buf name = {0};
        for (int k = 0; k < tags->n; k++)
            ns_buf_printf(&name, "%s%s=%s", k ? " " : "", tags->items[k].key, tags->items[k].value);
        if (ns_config_label(&first->cfg))
            ns_buf_printf(&name, "%s%s=%s", name.len ? " " : "", ns_config_label_key(&first->cfg),
                          ns_config_label(&first->cfg));
        ns_findings_case *c = ns__new_case(f, name.len ? name.data : "(no tags)");
        ns_buf_free(&name);
        c->tags = tags;
        const ns_table_row *row = compile ? compile : warm;
        int nq = 0;
        for (int k = 0; k < row->cfg.nruns; k++) {
            int ri = row->cfg.runs[k];
            const ns_findings_run *q = &f->runs[ri];
            if (!ns_run_counted(&rs->runs[ri]) || !q->has_reports) continue;
            c->map = q->map; /* the last counted run's */
            c->submodels = q->submodels;
            qs[nq++] = q;
        }
        c->compiles = row->n;
        c->cold_s = compile ? compile->median : NAN;
        c->warm_s = warm ? warm->median : NAN;
        c->total_s = isfinite(c->cold_s) ? c->cold_s : c->warm_s;
        for (int k = 0; c->map && k < ns_stage_count(c->map) && k < NS_FINDINGS_MAX_STAGES; k++) {
            size_t at = ns_strmap_find(&t->stages, ns_stage_name(c->map, k));
            c->share[k] = at == (size_t)-1 ? NAN : row->shares[at];
        }
        ns__heaviest(f, c, qs, nq);
        if (compile) {
            c->tasks = ns__row_metric(t, compile, "tasks");
            c->tokens_per_s = ns__row_metric(t, compile, "tokens_per_s");
            /* only cache modes mark a cold run: "none" runs are not cold */
            if (!strcmp(compile->cfg.mode, "none")) c->cold_s = NAN;
        }
        ns__cache(c, warm);
        ns__regime(c);
    }
    free(qs);
    free(done);
    free(members);
    free(gstart);
    free(grp);
    f->studied = ns_study_build_summed(&f->study, &f->table, f->study_sums, &f->keep,
                                       ns_findings_fix_of) == 0;
}

/* ====== The NPUW decode lesson ======
 * Configurations that differ only in NPUW_FUNCALL_FOR_ALL (or NPUW_FOLD)
 * and carry tokens/s: a trade of compile time against decode speed. */
static void ns__tradeoffs(ns_findings *f) {
    static const char *const keys[] = {"NPUW_FUNCALL_FOR_ALL", "NPUW_FOLD", "funcall_for_all",
                                       "funcall", "fold"};
    ns_buf b = {0};
    ns_buf_puts(&b, "");
    for (int i = 0; i < f->ncases; i++)
        for (int j = i + 1; j < f->ncases && isfinite(f->cases[i].tokens_per_s); j++) {
            const ns_findings_case *x = &f->cases[i], *y = &f->cases[j];
            if (!x->tags || !y->tags || x->tags->n != y->tags->n) continue;
            if (!isfinite(y->tokens_per_s)) continue;
            const char *diff_key = NULL;
            int other = 0;
            for (int t = 0; t < x->tags->n; t++) {
                const char *k = x->tags->items[t].key, *yv = ns_kv_get(y->tags, k);
                if (yv && !strcmp(yv, x->tags->items[t].value)) continue;
                int known = 0;
                for (size_t q = 0; q < sizeof keys / sizeof keys[0]; q++) known |= !strcmp(k, keys[q]);
                if (known && !diff_key) diff_key = k;
                else other = 1;
            }
            if (!diff_key || other) continue;
            const ns_findings_case *fast = x->tokens_per_s >= y->tokens_per_s ? x : y;
            const ns_findings_case *slow = fast == x ? y : x;
            ns_buf_printf(&b, "- decode trade-off (%s): %s=%s decodes at %.2f tokens/s vs %.2f "
                              "(x%.2f) for a compile of %.2f s vs %.2f s (%+.2f s). Use %s=%s for the "
                              "generate (decode) model only, e.g. via NPUW_LLM_GENERATE_CONFIG, "
                              "and keep the other setting for prefill.\n",
                          diff_key, diff_key, ns_kv_get(fast->tags, diff_key), fast->tokens_per_s,
                          slow->tokens_per_s, fast->tokens_per_s / slow->tokens_per_s,
                          fast->total_s, slow->total_s, fast->total_s - slow->total_s, diff_key,
                          ns_kv_get(fast->tags, diff_key));
        }
    f->tradeoffs = b.data;
}

void ns_findings_finish(ns_findings *f, const ns_runset *rs) {
    if (rs && rs->nruns) ns__from_runs(f, rs);
    for (int i = 0; i < f->ncases; i++) ns_findings_advise(&f->cases[i]);
    ns__tradeoffs(f);
    /* the summary: the largest stage (Rest aside) and the heaviest pass */
    const ns_top *t = &f->top;
    for (size_t k = 0; k < t->stages.count; k++)
        if (t->srows[k].self > 0 && (f->dominant < 0 || t->srows[k].self > t->srows[f->dominant].self))
            f->dominant = (int)k;
    /* the summary's shares, Rest included, add up to 1 -- or say why not */
    double sum = t->rest.self;
    for (size_t k = 0; k < t->stages.count; k++) sum += t->srows[k].self;
    if (t->stages.count && t->total_wall > 0 && fabs(sum / t->total_wall - 1) > 0.01)
        f->why = f->side_by_side ? "the trace's threads ran side by side: their stage times "
                                   "overlap, so the shares add up to more than 1"
                 : f->listed     ? "MLIR's list display prints each pipeline's passes again "
                                   "beside their pipeline, so rows overlap"
                 : f->cut        ? "a report was cut short (no Total read): its rows do not "
                                   "add up to a total"
                                 : "the printed rows do not add up to the reports' totals";
    size_t *order = ns_top_order_new(t);
    for (size_t k = 0; order && k < t->names.count; k++) {
        const ns_top_row *row = &t->rows[order[k]];
        if (row->kind != NS_KIND_PASS) continue;
        f->heaviest = (int)order[k];
        break;
    }
    free(order);
}

void ns_findings_free(ns_findings *f) {
    for (int i = 0; i < f->ncases; i++) {
        ns_findings_case *c = &f->cases[i];
        for (int k = 0; k < c->nadvice; k++) {
            free(c->advice[k].text);
            free(c->advice[k].evidence);
        }
        free(c->advice);
        free(c->name);
        free(c->pass);
        free(c->found);
    }
    free(f->cases);
    for (int i = 0; i < f->nruns; i++) {
        ns__run_free(&f->runs[i]);
        ns_study_sums_free(&f->study_sums[i]);
    }
    free(f->runs);
    free(f->study_sums);
    ns_study_free(&f->study);
    ns_study_keep_free(&f->keep);
    ns_table_free(&f->table);
    ns_top_free(&f->top);
    ns_strmap_free(&f->passes);
    free(f->tradeoffs);
    memset(f, 0, sizeof *f);
}
