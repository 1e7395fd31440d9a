/* page_findings.c -- the key findings of the report page: one sentence per
 * question the model answered, with the numbers that answer it (page.h;
 * page_int.h lists the module's files).
 *
 * The sentences come in page order -- what was read, the heaviest pass and
 * stage, the cache, the diff, the scaling exponents, the regime, the
 * ratios -- and each appears only when the model has its numbers, so a
 * page never states what its data cannot carry.  Numbers in a sentence are
 * for people: seconds and ratios to four and three significant digits
 * (ns_svg_num), shares to a tenth of a percent.
 *
 * This file must not compute a statistic (a range of the model's values is
 * the most it takes), and must not call back into page.c.
 */
#include "render/page_int.h"

#include "render/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== Numbers in sentences ====== */

/* Seconds: four significant digits ("82.47 s", "0.2385 s"). */
static const char *ns__s(char *buf, double v) {
    char n[32];
    snprintf(buf, 48, "%s s", ns_svg_num(n, v, 4));
    return buf;
}

/* A ratio ("44.6x"). */
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

/* ====== What was read ====== */

static void ns__overview(ns_page *p, const ns_page_model *m) {
    const ns_page_overview *o = &m->overview;
    const ns_page_input *in = m->in;
    char a[48], c[48], d[48];
    if (in->nlogs) {
        ns_buf pl = {0};
        for (size_t i = 0; i < o->producers.count; i++)
            ns_buf_printf(&pl, "%s%s", i ? ", " : "", o->producers.keys[i]);
        /* tables that break down rows of a main report (model/report.h):
         * their time is in the total once, through the main report */
        int parts = 0;
        for (int i = 0; i < in->nlogs; i++) parts += !ns_report_is_main(in->logs[i]);
        ns_buf bd = {0};
        ns_buf_puts(&bd, "");
        if (parts)
            ns_buf_printf(&bd, ", %d of them breakdown table%s inside the others", parts,
                          parts == 1 ? "" : "s");
        if (o->log_big >= 0 && in->nlogs > 1)
            ns_page_finding(p,
                            "The input holds %d timing reports (%s%s) totalling %s of wall time; "
                            "the largest, %s, takes %s.",
                            in->nlogs, pl.data, bd.data, ns__s(a, o->log_sum),
                            in->logs[o->log_big]->label,
                            ns__s(c, ns_stage_report_total(in->logs[o->log_big])));
        else if (o->log_big >= 0)
            ns_page_finding(p, "The input holds one timing report (%s) of %s wall time.", pl.data,
                            ns__s(a, o->log_sum));
        ns_buf_free(&bd);
        ns_buf_free(&pl);
        if (o->kinds.count > 1 && o->kinds.count < (size_t)in->nlogs && o->log_sum > 0) {
            ns_buf kl = {0};
            for (size_t j = 0; j < o->kinds.count; j++)
                ns_buf_printf(&kl, "%s%s %s (%.0f%%)", j ? ", " : "", o->kinds.keys[j],
                              ns__s(a, o->kind_total[j]), 100 * o->kind_total[j] / o->log_sum);
            ns_page_finding(p, "By sub-model kind: %s.", kl.data);
            ns_buf_free(&kl);
        }
    }
    int nruns = in->set->nruns;
    if (nruns && o->counted)
        ns_page_finding(p,
                        "%d run%s (%d counted: ok, neither warmups nor cache primers) in %d "
                        "configuration%s; the median run took %s, from %s to %s.",
                        nruns, nruns == 1 ? "" : "s", o->counted, o->configs,
                        o->configs == 1 ? "" : "s", ns__s(a, o->run_median), ns__s(c, o->run_min),
                        ns__s(d, o->run_max));
    else if (nruns)
        ns_page_finding(p, "%d run%s, none of them counted (failed, warmups or primers).", nruns,
                        nruns == 1 ? "" : "s");
}

/* ====== Passes and stages ====== */

static void ns__passes(ns_page *p, const ns_page_model *m) {
    const ns_top *t = &m->passes.top;
    char a[48], c[48], d[48];
    if (m->passes.order && t->names.count) {
        const ns_top_row *row = &t->rows[m->passes.order[0]];
        const char *stage = row->stage >= 0                     ? t->stages.keys[row->stage]
                            : row->stage == NS_TOP_MIXED_STAGE ? "mixed"
                                                                : NULL;
        ns_page_finding(p,
                        "The heaviest pass is %s: %s over %ld occurrence%s, %s of the %s in "
                        "%d report%s%s%s.",
                        t->names.keys[m->passes.order[0]], ns__s(a, row->wall), row->count,
                        row->count == 1 ? "" : "s",
                        ns__pct(c, t->total_wall > 0 ? row->wall / t->total_wall : NAN),
                        ns__s(d, t->total_wall), t->reports, t->reports == 1 ? "" : "s",
                        stage ? "; its stage: " : "", stage ? stage : "");
    }
    int best = m->passes.best, second = m->passes.second;
    if (best >= 0 && t->total_wall > 0 && t->srows[best].self > 0) {
        ns_buf maps = {0};
        for (size_t k = 0; k < t->maps.count; k++)
            ns_buf_printf(&maps, "%s%s", k ? " and " : "", t->maps.keys[k]);
        ns_buf more = {0};
        ns_buf_puts(&more, "");
        if (second >= 0 && t->srows[second].self > 0)
            ns_buf_printf(&more, "; next is %s with %s", t->stages.keys[second],
                          ns__pct(d, t->srows[second].self / t->total_wall));
        ns_page_finding(p,
                        "By the %s stage map%s, %s takes the most time: %s of self time, %s of "
                        "the total%s.",
                        maps.data, t->maps.count > 1 ? "s" : "", t->stages.keys[best],
                        ns__s(a, t->srows[best].self), ns__pct(c, t->srows[best].self / t->total_wall),
                        more.data);
        ns_buf_free(&maps);
        ns_buf_free(&more);
    }
}

/* The same two sentences from the findings engine (analyse/findings.h):
 * every counted report, the sums `top --by stage` makes -- never the few
 * runs the explorer shows. */
static void ns__passes_found(ns_page *p, const ns_findings *f) {
    const ns_top *t = &f->top;
    char a[48], c[48], d[48];
    if (f->heaviest >= 0 && t->total_wall > 0) {
        const ns_top_row *row = &t->rows[f->heaviest];
        const char *stage = row->stage >= 0                     ? t->stages.keys[row->stage]
                            : row->stage == NS_TOP_MIXED_STAGE ? "mixed"
                                                                : NULL;
        ns_page_finding(p,
                        "The heaviest pass is %s: %s over %ld occurrence%s, %s of the %s in "
                        "%d report%s%s%s.",
                        t->names.keys[f->heaviest], ns__s(a, row->wall), row->count,
                        row->count == 1 ? "" : "s", ns__pct(c, row->wall / t->total_wall),
                        ns__s(d, t->total_wall), t->reports, t->reports == 1 ? "" : "s",
                        stage ? "; its stage: " : "", stage ? stage : "");
    }
    int best = f->dominant, second = -1;
    for (size_t k = 0; best >= 0 && k < t->stages.count; k++)
        if ((int)k != best && t->srows[k].self > 0 &&
            (second < 0 || t->srows[k].self > t->srows[second].self))
            second = (int)k;
    if (best >= 0 && t->total_wall > 0) {
        ns_buf maps = {0}, more = {0};
        for (size_t k = 0; k < t->maps.count; k++)
            ns_buf_printf(&maps, "%s%s", k ? " and " : "", t->maps.keys[k]);
        ns_buf_puts(&more, "");
        if (second >= 0)
            ns_buf_printf(&more, "; next is %s with %s", t->stages.keys[second],
                          ns__pct(d, t->srows[second].self / t->total_wall));
        ns_page_finding(p,
                        "By the %s stage map%s, %s takes the most time: %s of self time, %s of "
                        "the total over every counted report (as npuscope top --by stage)%s.",
                        maps.data, t->maps.count > 1 ? "s" : "", t->stages.keys[best],
                        ns__s(a, t->srows[best].self), ns__pct(c, t->srows[best].self / t->total_wall),
                        more.data);
        ns_buf_free(&maps);
        ns_buf_free(&more);
    }
}

/* The regimes and the first fix, as the findings engine has them. */
static void ns__regime_found(ns_page *p, const ns_findings *f) {
    if (f->studied) {
        ns_buf list = {0};
        for (int i = 0; i < f->study.nregimes; i++)
            ns_buf_printf(&list, "%s%s in %d", i ? ", " : "", f->study.regimes[i].stage,
                          f->study.regimes[i].ncells);
        ns_page_finding(p, "Regimes over the %d configurations (each one's largest median stage "
                           "share): %s; the fixes are under What to change.",
                        f->study.ncells, list.data);
        ns_buf_free(&list);
    } else if (f->ncases > 1) {
        ns_buf list = {0};
        for (int i = 0; i < f->ncases; i++) {
            const ns_findings_case *c = &f->cases[i];
            ns_buf_printf(&list, "%s%s %s", i ? "; " : "", c->name,
                          c->regime >= 0 ? ns_stage_name(c->map, c->regime) : "(no stages)");
            if (i == 7 && f->ncases > 9) {
                ns_buf_printf(&list, "; %d more", f->ncases - 8);
                break;
            }
        }
        ns_page_finding(p, "Regimes (each one's largest median stage share): %s.", list.data);
        ns_buf_free(&list);
    } else if (f->ncases == 1) {
        const ns_findings_case *c = &f->cases[0];
        if (c->nadvice)
            ns_page_finding(p, "What to change first (%s): %s", c->advice[0].rule,
                            c->advice[0].text);
        else
            ns_page_finding(p, "Found: %s", c->found);
    }
    int miss = 0, hit = 0, warm = 0, compiled = 0;
    for (int i = 0; i < f->ncases; i++) {
        const ns_findings_case *c = &f->cases[i];
        miss += c->cache == NS_CACHE_MISS || c->cache == NS_CACHE_MIXED;
        hit += c->cache == NS_CACHE_HIT;
        warm += c->warm_runs;
        compiled += c->warm_compiled;
    }
    if (miss)
        ns_page_finding(p, "The cache did not hit in %d of %d configurations: %d of %d warm runs "
                           "compiled again (they printed a compile timing report).",
                        miss, miss + hit, compiled, warm);
}

/* ====== The cache and the diff ====== */

static void ns__cache(ns_page *p, const ns_page_model *m) {
    const ns_page_cache *c = &m->cache;
    char a[48], b[48], d[48];
    if (c->n == 1) {
        const ns_table_row *cg = &m->table.rows[c->row];
        double warm = cg->median / cg->cache_x;
        char *lab = ns_page_label_new(&m->table, cg, NULL, NULL, 0, "all runs");
        ns_page_finding(p,
                        "A warm cache makes the compile %s faster: median cold %s against warm %s "
                        "(%s).",
                        ns__x(a, cg->cache_x), ns__s(b, cg->median), ns__s(d, warm), lab);
        free(lab);
    } else if (c->n > 1) {
        ns_page_finding(p,
                        "A warm cache makes compiles %s faster at the median over %d "
                        "configurations (from %s to %s; cache \xc3\x97 = median cold / median "
                        "warm).",
                        ns__x(a, c->median), c->n, ns__x(b, c->min), ns__x(d, c->max));
    }
}

static void ns__diff(ns_page *p, const ns_page_model *m) {
    const ns_diff *d = &m->diff.diff;
    if (!d->nrows || d->rows[0].kind != NS_DIFF_TOTAL) return;
    const ns_diff_row *r = &d->rows[0];
    char a[48], b[48], c[48], e[48];
    ns_page_finding(p,
                    "B (%s) against A (%s): the whole compile takes %s as long (median %s "
                    "against %s), p = %s: %s.",
                    m->opts->sel_b, m->opts->sel_a, ns__x(a, r->ratio), ns__s(b, r->b_median),
                    ns__s(c, r->a_median), ns_svg_num(e, r->p, 3),
                    strcmp(r->verdict, "same") == 0 ? "no significant difference" : r->verdict);
}

/* ====== Figures ====== */

/* The exponents: each of up to three fits, or the range of more. */
static void ns__scaling(ns_page *p, const ns_page_scaling *sc) {
    const char *axis = sc->axis;
    char a[48], b[48], c[48];
    if (sc->fitted >= 1 && sc->fitted <= 3) {
        for (int k = 0; k < sc->nseries; k++) {
            const ns_fit *f = &sc->series[k].fit;
            if (!f->ok || f->npts < 3) continue;
            ns_buf ci = {0};
            ns_buf_puts(&ci, "");
            if (isfinite(f->ci95_lo))
                ns_buf_printf(&ci, ", 95%% CI %s to %s", ns_svg_num(a, f->ci95_lo, 3),
                              ns_svg_num(b, f->ci95_hi, 3));
            ns_page_finding(p, "Wall time grows as %s^%.2f (%s%s, R\xc2\xb2 %s, %d values of %s).",
                            axis, f->exponent, sc->series[k].name, ci.data, ns_svg_num(c, f->r2, 3),
                            f->npts, axis);
            ns_buf_free(&ci);
        }
    } else if (sc->fitted > 3) {
        int lo = -1, hi = -1;
        const ns_page_series *s = sc->series;
        for (int k = 0; k < sc->nseries; k++) {
            if (!s[k].fit.ok || s[k].fit.npts < 3) continue;
            if (lo < 0 || s[k].fit.exponent < s[lo].fit.exponent) lo = k;
            if (hi < 0 || s[k].fit.exponent > s[hi].fit.exponent) hi = k;
        }
        ns_page_finding(p, "Across %d series, wall time grows as %s^%.2f (%s) to %s^%.2f (%s).",
                        sc->fitted, axis, s[lo].fit.exponent, s[lo].name, axis, s[hi].fit.exponent,
                        s[hi].name);
    }
}

/* Does the dominant stage move across the map? */
static void ns__regime(ns_page *p, const ns_page_model *m) {
    const ns_page_regime *rg = &m->regime;
    const ns_strmap *st = &m->table.stages;
    if (!rg->filled) return;
    const char *yk = rg->yk;
    int kinds = 0;
    ns_buf list = {0};
    for (size_t k = 0; k < st->count; k++)
        if (rg->count[k]) {
            kinds++;
            ns_buf_printf(&list, "%s%s in %d cell%s", list.len ? ", " : "", st->keys[k],
                          rg->count[k], rg->count[k] == 1 ? "" : "s");
        }
    if (kinds > 1)
        ns_page_finding(p, "The dominant stage changes across the %s%s%s map: %s.", yk ? yk : "",
                        yk ? " \xc3\x97 " : "", rg->xk, list.data);
    else if (rg->filled > 1)
        for (size_t k = 0; k < st->count; k++)
            if (rg->count[k])
                ns_page_finding(p, "%s dominates all %d cells of the %s%s%s map.", st->keys[k],
                                rg->filled, yk ? yk : "", yk ? " \xc3\x97 " : "", rg->xk);
    ns_buf_free(&list);
}

/* The range of each of the first four values' ratios. */
static void ns__ratios(ns_page *p, const ns_page_ratios *rt) {
    const char **vals = NULL;
    int nv = 0;
    for (int i = 0; i < rt->n; i++) {
        int k = 0;
        while (k < nv && strcmp(vals[k], rt->r[i].val) != 0) k++;
        if (k < nv) continue;
        vals = ns_xrealloc(vals, sizeof *vals * (size_t)(nv + 1));
        vals[nv++] = rt->r[i].val;
    }
    char a[48], b[48];
    for (int k = 0; k < nv && k < 4; k++) {
        double lo = INFINITY, hi = -INFINITY;
        int cnt = 0;
        for (int i = 0; i < rt->n; i++)
            if (strcmp(rt->r[i].val, vals[k]) == 0) {
                cnt++;
                if (rt->r[i].ratio < lo) lo = rt->r[i].ratio;
                if (rt->r[i].ratio > hi) hi = rt->r[i].ratio;
            }
        if (cnt == 1)
            ns_page_finding(p, "%s=%s takes %s the wall time of %s=%s.", rt->key, vals[k],
                            ns__x(a, lo), rt->key, rt->base);
        else
            ns_page_finding(p,
                            "%s=%s takes %s to %s the wall time of %s=%s (over %d "
                            "configurations).",
                            rt->key, vals[k], ns__x(a, lo), ns__x(b, hi), rt->key, rt->base, cnt);
    }
    free(vals);
}

/* ====== In page order ====== */

void ns__render_page_findings(ns_page *p, const ns_page_model *m) {
    const ns_findings *f = m->in->findings;
    ns__overview(p, m);
    if (f) ns__passes_found(p, f);
    else ns__passes(p, m);
    /* the cache factor only where the engine saw no miss */
    int miss = 0;
    for (int i = 0; f && i < f->ncases; i++)
        miss += f->cases[i].cache == NS_CACHE_MISS || f->cases[i].cache == NS_CACHE_MIXED;
    if (!miss) ns__cache(p, m);
    ns__diff(p, m);
    for (int i = 0; i < m->nscaling; i++) ns__scaling(p, &m->scaling[i]);
    if (f) ns__regime_found(p, f);
    else ns__regime(p, m);
    ns__ratios(p, &m->ratios);
}
