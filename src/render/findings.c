/* findings.c -- the findings engine's model (analyse/findings.h) as text
 * and as the JSON document of `advise --format json`, which the report
 * page embeds byte for byte (render/page.c): one writer, so the two can
 * never differ.
 *
 * The text is advise's: for a sweep the study first (its fix table and
 * fits), then per case its time, what was found, and the ranked advice.
 * Nothing here computes a statistic; it prints the model's numbers.
 */
#include "render/findings.h"
#include "render/matrix.h"

#include "base/jsonw.h"
#include "render/grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== The study ====== */

/* "report total ~ window^0.52 (95% 0.41 to 0.63) for model=m1, ..." */
void ns_findings_fit_sentence(ns_buf *b, const ns_study_fit *f) {
    const ns_fit *x = &f->fit;
    const char *y = !strncmp(f->y, "pass:", 5) ? f->y + 5 : !strcmp(f->y, "total") ? "report total" : f->y;
    const char *xn = !strncmp(f->x, "fact:", 5) ? f->x + 5 : f->x;
    ns_buf_printf(b, "%s ~ %s^%.3f (95%% interval %.3f to %.3f", y, xn, x->exponent,
                  x->ci95_lo, x->ci95_hi);
    if (isfinite(x->r2)) ns_buf_printf(b, ", R^2 %.2f", x->r2);
    else ns_buf_puts(b, ", flat");
    if (f->per_report) ns_buf_printf(b, ", a point per report: %d reports)", x->used);
    else ns_buf_printf(b, ", %d values of %s)", x->used, f->x);
    if (f->group) ns_buf_printf(b, " for %s", f->group);
    if (f->mixed) ns_buf_printf(b, ", median over %s", f->mixed);
}

void ns_findings_regime_evidence(ns_buf *b, const ns_study *st, const ns_study_regime *g) {
    int with = 0;
    for (int i = 0; g->pass && i < g->ncells; i++) {
        const char *p = st->cells[g->cells[i]].pass;
        with += p && !strcmp(p, g->pass);
    }
    ns_buf_printf(b, "%d of %d configurations are %s-bound", g->ncells, st->ncells, g->stage);
    if (g->pass)
        ns_buf_printf(b, "; %s is the heaviest %s pass in %d of them, a median %.0f%% of the "
                         "summed report totals", g->pass, g->stage, with, 100 * g->median_share);
    if (!g->fix) ns_buf_puts(b, "; no rule of advise addresses this regime");
}

static void ns__study_text(ns_buf *b, const ns_findings *f, int per_config) {
    const ns_study *st = &f->study;
    ns_buf_printf(b, "study of %d configurations (the compile row of each; shares of the "
                     "report totals):\n", st->ncells);
    ns_grid g = {NULL, 0, 5, "lrlll", NULL, 1}; /* a Markdown table */
    static const char *const head[] = {"regime", "cells", "dominant pass of the stage (median share)",
                                       "root cause", "fix"};
    for (int k = 0; k < 5; k++) ns_grid_add(&g, head[k]);
    for (int i = 0; i < st->nregimes; i++) {
        const ns_study_regime *r = &st->regimes[i];
        char n[32], pass[300];
        snprintf(n, sizeof n, "%d", r->ncells);
        if (r->pass) snprintf(pass, sizeof pass, "%s (%.0f%%)", r->pass, 100 * r->median_share);
        else snprintf(pass, sizeof pass, "-");
        ns_grid_add(&g, r->stage);
        ns_grid_add(&g, n);
        ns_grid_add(&g, pass);
        ns_grid_add(&g, r->cause ? r->cause : "-");
        ns_grid_add(&g, r->fix ? r->fix : "(no rule)");
    }
    ns_grid_write(b, &g);
    for (int i = 0; i < st->nregimes; i++) {
        const ns_study_regime *r = &st->regimes[i];
        ns_buf_printf(b, "%s:\n", r->stage);
        const char *p = r->where;
        while (*p) {
            const char *e = strstr(p, "; ");
            size_t len = e ? (size_t)(e - p) : strlen(p);
            ns_buf_printf(b, "  %.*s\n", (int)len, p);
            p += len + (e ? 2 : 0);
        }
    }
    if (st->nfits) ns_buf_puts(b, "fits the sweep supports:\n");
    for (int i = 0; i < st->nfits; i++) {
        ns_buf_puts(b, "- ");
        ns_findings_fit_sentence(b, &st->fits[i]);
        ns_buf_puts(b, ".\n");
    }
    if (!per_config) ns_buf_puts(b, "(the advice of each configuration: --per-config)\n");
    else ns_buf_putc(b, '\n');
}

static void ns__str_or_null(ns_buf *b, const char *s) {
    if (s) ns_json_str(b, s);
    else ns_buf_puts(b, "null");
}

static void ns__study_json(ns_buf *b, const ns_findings *f) {
    const ns_study *st = &f->study;
    ns_buf_printf(b, "\"study\":{\"configurations\":%d,\"regimes\":[", st->ncells);
    for (int i = 0; i < st->nregimes; i++) {
        const ns_study_regime *r = &st->regimes[i];
        ns_buf_puts(b, i ? ",\n{\"regime\":" : "\n{\"regime\":");
        ns_json_str(b, r->stage);
        ns_buf_puts(b, ",\"cells\":[");
        for (int c = 0; c < r->ncells; c++) {
            const ns_config *cfg = &st->cells[r->cells[c]].row->cfg;
            ns_buf_puts(b, c ? ",{" : "{");
            for (int k = 0; k < cfg->ntags; k++) {
                if (k) ns_buf_putc(b, ',');
                ns_json_str(b, cfg->tags[k]->key);
                ns_buf_putc(b, ':');
                ns_json_str(b, cfg->tags[k]->value);
            }
            ns_buf_putc(b, '}');
        }
        ns_buf_puts(b, "],\"where\":");
        ns_json_str(b, r->where);
        ns_buf_puts(b, ",\"dominant_pass\":");
        ns__str_or_null(b, r->pass);
        ns_buf_puts(b, ",\"median_share\":");
        ns_put_json_double(b, r->median_share, 4);
        ns_buf_puts(b, ",\"fix\":");
        ns__str_or_null(b, r->fix);
        ns_buf_puts(b, ",\"root_cause\":");
        ns__str_or_null(b, r->cause);
        ns_buf evidence = {0};
        ns_findings_regime_evidence(&evidence, st, r);
        ns_buf_puts(b, ",\"evidence\":");
        ns_json_str(b, evidence.data);
        ns_buf_free(&evidence);
        ns_buf_putc(b, '}');
    }
    ns_buf_puts(b, "],\"fits\":[");
    for (int i = 0; i < st->nfits; i++) {
        const ns_study_fit *x = &st->fits[i];
        ns_buf_puts(b, i ? ",\n{\"y\":" : "\n{\"y\":");
        ns_json_str(b, x->y);
        ns_buf_puts(b, ",\"x\":");
        ns_json_str(b, x->x);
        ns_buf_puts(b, ",\"group\":");
        ns__str_or_null(b, x->group);
        ns_buf_printf(b, ",\"per\":\"%s\",\"n\":%d,\"exponent\":", x->per_report ? "report" : "x", x->fit.used);
        ns_put_json_double(b, x->fit.exponent, 15);
        ns_buf_puts(b, ",\"ci95\":[");
        ns_put_json_double(b, x->fit.ci95_lo, 15);
        ns_buf_putc(b, ',');
        ns_put_json_double(b, x->fit.ci95_hi, 15);
        ns_buf_puts(b, "],\"r2\":");
        ns_put_json_double(b, x->fit.r2, 15);
        ns_buf text = {0};
        ns_findings_fit_sentence(&text, x);
        ns_buf_puts(b, ",\"text\":");
        ns_json_str(b, text.data);
        ns_buf_free(&text);
        ns_buf_putc(b, '}');
    }
    ns_buf_puts(b, "]},");
}

/* ====== The summary ====== */

static void ns__summary_json(ns_buf *b, const ns_findings *f) {
    const ns_top *t = &f->top;
    ns_buf_puts(b, "\"summary\":{\"stage_map\":");
    if (t->maps.count) {
        ns_buf m = {0};
        for (size_t k = 0; k < t->maps.count; k++)
            ns_buf_printf(&m, "%s%s", k ? "," : "", t->maps.keys[k]);
        ns_json_str(b, m.data);
        ns_buf_free(&m);
    } else {
        ns_buf_puts(b, "null");
    }
    ns_buf_printf(b, ",\"reports\":%d,\"compiles\":%d,\"total_s\":", t->reports, t->compiles);
    ns_put_json_double(b, t->total_wall, 6);
    ns_buf_puts(b, ",\"stages\":{");
    for (size_t k = 0; k < t->stages.count; k++) {
        ns_json_str(b, t->stages.keys[k]);
        ns_buf_putc(b, ':');
        ns_put_json_double(b, t->total_wall > 0 ? t->srows[k].self / t->total_wall : NAN, 6);
        ns_buf_putc(b, ',');
    }
    if (t->stages.count) {
        ns_buf_puts(b, "\"Rest\":");
        ns_put_json_double(b, t->total_wall > 0 ? t->rest.self / t->total_wall : NAN, 6);
    } else if (b->len && b->data[b->len - 1] == ',') {
        b->len--;
    }
    ns_buf_puts(b, "},\"why\":");
    ns__str_or_null(b, f->why);
    ns_buf_puts(b, ",\"dominant_stage\":");
    ns__str_or_null(b, f->dominant >= 0 ? t->stages.keys[f->dominant] : NULL);
    ns_buf_puts(b, ",\"heaviest_pass\":");
    if (f->heaviest >= 0) {
        const ns_top_row *row = &t->rows[f->heaviest];
        ns_buf_puts(b, "{\"name\":");
        ns_json_str(b, t->names.keys[f->heaviest]);
        ns_buf_puts(b, ",\"wall_s\":");
        ns_put_json_double(b, row->wall, 6);
        ns_buf_puts(b, ",\"share\":");
        ns_put_json_double(b, t->total_wall > 0 ? row->wall / t->total_wall : NAN, 6);
        ns_buf_putc(b, '}');
    } else {
        ns_buf_puts(b, "null");
    }
    /* the costliest headers of clang traces (analyse/top.h), ten at most */
    size_t *o = ns_top_headers_order_new(t);
    ns_buf_puts(b, ",\"headers\":[");
    for (size_t k = 0; o && k < t->headers.count && k < NS_FINDINGS_HEADERS; k++) {
        ns_buf_puts(b, k ? ",{\"file\":" : "{\"file\":");
        ns_json_str(b, t->headers.keys[o[k]]);
        ns_buf_puts(b, ",\"wall_s\":");
        ns_put_json_double(b, t->header_s[o[k]], 6);
        ns_buf_printf(b, ",\"count\":%ld}", t->header_n[o[k]]);
    }
    free(o);
    ns_buf_puts(b, "]},\n");
}

/* ====== Cases ====== */

static void ns__case_json(ns_buf *b, const ns_findings_case *c, int first) {
    ns_buf_puts(b, first ? "\n{\"name\":" : ",\n{\"name\":");
    ns_json_str(b, c->name);
    ns_buf_puts(b, ",\"tags\":");
    if (c->tags) {
        ns_buf_putc(b, '{');
        for (int k = 0; k < c->tags->n; k++) {
            if (k) ns_buf_putc(b, ',');
            ns_json_str(b, c->tags->items[k].key);
            ns_buf_putc(b, ':');
            ns_json_str(b, c->tags->items[k].value);
        }
        ns_buf_putc(b, '}');
    } else {
        ns_buf_puts(b, "null");
    }
    ns_buf_puts(b, ",\"stage_map\":");
    ns__str_or_null(b, c->map ? ns_stage_map_label(c->map) : NULL);
    ns_buf_puts(b, ",\"regime\":");
    ns__str_or_null(b, c->regime >= 0 ? ns_stage_name(c->map, c->regime) : NULL);
    ns_buf_printf(b, ",\"compiles\":%d,\"submodels\":%d,\"total_s\":", c->compiles, c->submodels);
    ns_put_json_double(b, c->total_s, 4);
    ns_buf_puts(b, ",\"stages\":{");
    for (int k = 0; c->map && k < ns_stage_count(c->map) && k < NS_FINDINGS_MAX_STAGES; k++) {
        if (k) ns_buf_putc(b, ',');
        ns_json_str(b, ns_stage_name(c->map, k));
        ns_buf_putc(b, ':');
        ns_put_json_double(b, c->share[k], 4);
    }
    ns_buf_puts(b, "},\"heaviest_pass\":");
    if (c->pass) {
        ns_buf_puts(b, "{\"name\":");
        ns_json_str(b, c->pass);
        ns_buf_puts(b, ",\"median_s\":");
        ns_put_json_double(b, c->pass_s, 6);
        ns_buf_puts(b, ",\"median_share\":");
        ns_put_json_double(b, c->pass_share, 4);
        ns_buf_puts(b, ",\"of_s\":");
        ns_put_json_double(b, c->pass_of_s, 6);
        ns_buf_puts(b, ",\"worst_s\":");
        ns_put_json_double(b, c->pass_worst_s, 6);
        ns_buf_putc(b, '}');
    } else {
        ns_buf_puts(b, "null");
    }
    ns_buf_printf(b, ",\"cache\":{\"verdict\":\"%s\",\"factor\":", ns_cache_verdict_name(c->cache));
    ns_put_json_double(b, c->cache_x, 4);
    ns_buf_printf(b, ",\"warm_runs\":%d,\"warm_compiled\":%d},\"found\":", c->warm_runs,
                  c->warm_compiled);
    ns_json_str(b, c->found);
    ns_buf_puts(b, ",\"advice\":[");
    for (int h = 0; h < c->nadvice; h++) {
        const ns_advice *a = &c->advice[h];
        ns_buf_printf(b, "%s{\"rule\":\"%s\",\"weight\":", h ? "," : "", a->rule);
        ns_put_json_double(b, a->weight, 4);
        ns_buf_puts(b, ",\"text\":");
        ns_json_str(b, a->text);
        ns_buf_puts(b, ",\"evidence\":");
        ns_json_str(b, a->evidence);
        ns_buf_putc(b, '}');
    }
    ns_buf_puts(b, "]}");
}

void ns_findings_json(ns_buf *b, const ns_findings *f) {
    ns_buf_putc(b, '{');
    ns__summary_json(b, f);
    if (f->studied) ns__study_json(b, f);
    /* configurations that failed to compile (render/matrix.h) */
    if (ns_matrix_any(&f->table)) ns_matrix_json(b, &f->table, f->studied ? &f->study : NULL);
    ns_buf_puts(b, "\"cases\":[");
    for (int i = 0; i < f->ncases; i++) ns__case_json(b, &f->cases[i], i == 0);
    ns_buf_puts(b, "\n],\"tradeoffs\":");
    ns_json_str(b, f->tradeoffs ? f->tradeoffs : "");
    ns_buf_puts(b, "}\n");
}

/* "2 sub-model compiles" (an NPUW compile's parts) or "2 compiles". */
static void ns__what_compiles(ns_buf *b, const ns_findings_case *c) {
    if (c->submodels > 1)
        ns_buf_printf(b, " (%d %s)", c->submodels, c->npu ? "sub-model compiles" : "compiles in one input");
}

void ns_findings_text(ns_buf *b, const ns_findings *f, int per_config) {
    if (f->studied) ns__study_text(b, f, per_config);
    /* configurations that failed to compile (render/matrix.h) */
    if (ns_matrix_any(&f->table)) ns_matrix_text(b, &f->table, f->studied ? &f->study : NULL);
    int blocks = !f->studied || per_config;
    for (int i = 0; blocks && i < f->ncases; i++) {
        const ns_findings_case *c = &f->cases[i];
        ns_buf_printf(b, "%s: %.2f s per compile", c->name, c->total_s);
        ns__what_compiles(b, c);
        if (c->compiles > 1) ns_buf_printf(b, ", median of %d", c->compiles);
        ns_buf_putc(b, '\n');
        ns_buf_printf(b, "  found: %s\n", c->found);
        for (int h = 0; h < c->nadvice; h++)
            ns_buf_printf(b, "  %d. %s\n     evidence: %s\n", h + 1, c->advice[h].text,
                          c->advice[h].evidence);
        ns_buf_putc(b, '\n');
    }
    if (f->tradeoffs) ns_buf_puts(b, f->tradeoffs);
    const ns_top *t = &f->top;
    size_t *o = ns_top_headers_order_new(t);
    if (o) {
        ns_buf_puts(b, "costliest headers (clang Source spans summed by file, each with what it "
                       "includes; inside Frontend, not added to the stages):\n");
        for (size_t k = 0; k < t->headers.count && k < NS_FINDINGS_HEADERS; k++)
            ns_buf_printf(b, "  %.4f s  %ldx  %s\n", t->header_s[o[k]], t->header_n[o[k]],
                          t->headers.keys[o[k]]);
    }
    free(o);
}
