/* page_change.c -- the page's "What to change" section and its findings
 * document (page_int.h lists the module's files).
 *
 * Both come from the findings engine (analyse/findings.h), never from the
 * page's own sums: the document embedded in the page is the very bytes
 * `advise --format json` prints for the same inputs (render/findings.h
 * writes both), and the section says it in HTML -- for a sweep the
 * study's fix table (regime | when | heaviest pass of the stage | root
 * cause | fix, with the sweep's own numbers), then each configuration's
 * ranked fixes; for one compile (or a few) its ranked fixes with their
 * evidence.  Every case says what was found, even when no rule fires.
 *
 * This file computes nothing and must not call back into page.c.
 */
#include "render/page_int.h"

#include "render/findings.h"
#include "render/svg.h"

#include <string.h>

#define NS__MAX_CASES 60 /* configurations listed with their fixes; more are counted */

static void ns__text(ns_buf *b, const char *tag, const char *cls, const char *s) {
    if (cls) ns_buf_printf(b, "<%s class=\"%s\">", tag, cls);
    else ns_buf_printf(b, "<%s>", tag);
    ns_xml_text(b, s ? s : "");
    ns_buf_printf(b, "</%s>", tag);
}

/* The advice of rule `rule` in the first case of regime `stage` where it
 * fired: the fix with that configuration's numbers. */
static const ns_advice *ns__fix_text(const ns_findings *f, const char *stage, const char *rule,
                                     const ns_findings_case **in) {
    for (int i = 0; rule && i < f->ncases; i++) {
        const ns_findings_case *c = &f->cases[i];
        if (c->regime < 0 || strcmp(ns_stage_name(c->map, c->regime), stage)) continue;
        for (int k = 0; k < c->nadvice; k++)
            if (!strcmp(c->advice[k].rule, rule)) {
                *in = c;
                return &c->advice[k];
            }
    }
    return NULL;
}

static void ns__study(ns_buf *b, const ns_findings *f) {
    const ns_study *st = &f->study;
    ns_buf_printf(b, "<p>A study of %d configurations: each one's regime is the stage with the "
                     "largest median share of its compile (over its counted runs); each regime "
                     "has a root cause and a fix (<code>npuscope advise</code> prints the same).</p>\n",
                  st->ncells);
    ns_buf_puts(b, "<div class=\"table-wrap\"><table id=\"fix-table\">\n<caption>The study's fix "
                   "table</caption>\n<thead><tr><th scope=\"col\">regime</th><th scope=\"col\">"
                   "when</th><th scope=\"col\">heaviest pass of the stage (median share)</th>"
                   "<th scope=\"col\">root cause</th><th scope=\"col\">fix</th></tr></thead>\n"
                   "<tbody>\n");
    for (int i = 0; i < st->nregimes; i++) {
        const ns_study_regime *r = &st->regimes[i];
        ns_buf cell = {0};
        ns_buf_puts(b, "<tr>");
        ns__text(b, "td", NULL, r->stage);
        ns_buf_printf(&cell, "%d of %d configurations: %s", r->ncells, st->ncells, r->where);
        ns__text(b, "td", NULL, cell.data);
        cell.len = 0;
        if (r->pass) ns_buf_printf(&cell, "%s (%.0f%%)", r->pass, 100 * r->median_share);
        else ns_buf_puts(&cell, "-");
        ns__text(b, "td", NULL, cell.data);
        ns__text(b, "td", NULL, r->cause ? r->cause : "-");
        cell.len = 0;
        const ns_findings_case *in = NULL;
        const ns_advice *a = ns__fix_text(f, r->stage, r->fix, &in);
        if (a) ns_buf_printf(&cell, "%s: %s (%s)", r->fix, a->text, in->name);
        else if (r->fix) ns_buf_printf(&cell, "%s", r->fix);
        else ns_buf_puts(&cell, "no rule of advise addresses this regime");
        ns__text(b, "td", NULL, cell.data);
        ns_buf_puts(b, "</tr>\n");
        ns_buf_free(&cell);
    }
    ns_buf_puts(b, "</tbody></table></div>\n<ul class=\"evidence\">\n");
    for (int i = 0; i < st->nregimes; i++) {
        ns_buf e = {0};
        ns_findings_regime_evidence(&e, st, &st->regimes[i]);
        ns__text(b, "li", NULL, e.data);
        ns_buf_putc(b, '\n');
        ns_buf_free(&e);
    }
    for (int i = 0; i < st->nfits; i++) {
        ns_buf e = {0};
        ns_findings_fit_sentence(&e, &st->fits[i]);
        ns__text(b, "li", NULL, e.data);
        ns_buf_putc(b, '\n');
        ns_buf_free(&e);
    }
    ns_buf_puts(b, "</ul>\n");
}

/* One case: what was found, then its fixes in rank order with evidence. */
static void ns__case(ns_buf *b, const ns_findings_case *c) {
    char t[32];
    ns_buf h = {0};
    ns_buf_printf(&h, "%s: %s s per compile", c->name, ns_svg_num(t, c->total_s, 4));
    if (c->compiles > 1) ns_buf_printf(&h, ", median of %d", c->compiles);
    ns__text(b, "h3", NULL, h.data);
    ns_buf_putc(b, '\n');
    ns_buf_free(&h);
    ns__text(b, "p", NULL, c->found);
    ns_buf_putc(b, '\n');
    if (!c->nadvice) return;
    ns_buf_puts(b, "<ol class=\"fixes\">\n");
    for (int k = 0; k < c->nadvice; k++) {
        ns_buf_puts(b, "<li>");
        ns__text(b, "code", NULL, c->advice[k].rule);
        ns_buf_puts(b, " ");
        ns_xml_text(b, c->advice[k].text);
        ns_buf_puts(b, "<br>");
        ns__text(b, "span", "note", c->advice[k].evidence);
        ns_buf_puts(b, "</li>\n");
    }
    ns_buf_puts(b, "</ol>\n");
}

void ns__render_page_change(ns_page *p, const ns_page_model *m) {
    const ns_findings *f = m->in->findings;
    if (!f) return;
    ns_findings_json(&p->findings_json, f);
    ns_html_section *s = ns_page_section(p, "what-to-change", "What to change");
    ns_buf *b = &s->html;
    if (!f->ncases) {
        ns_buf_puts(b, "<p>No compile to advise on: no timing report and no counted run.</p>\n");
        return;
    }
    if (f->studied) ns__study(b, f);
    int shown = f->ncases < NS__MAX_CASES ? f->ncases : NS__MAX_CASES;
    if (f->studied)
        ns_buf_printf(b, "<details class=\"fold\"><summary>Each configuration's fixes "
                         "(%d)</summary>\n", f->ncases);
    for (int i = 0; i < shown; i++) ns__case(b, &f->cases[i]);
    if (shown < f->ncases)
        ns_buf_printf(b, "<p class=\"note\">%d more configurations: npuscope advise "
                         "--per-config lists every one.</p>\n", f->ncases - shown);
    if (f->studied) ns_buf_puts(b, "</details>\n");
    if (f->tradeoffs && *f->tradeoffs) ns__text(b, "p", NULL, f->tradeoffs);
    ns_buf_puts(b, "<p class=\"note\">The same findings as JSON: <code>npuscope advise --format "
                   "json</code> with the same inputs prints the document this page embeds "
                   "(script id npuscope-findings).</p>\n");
}
