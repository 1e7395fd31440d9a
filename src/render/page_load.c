/* page_load.c -- failures and the timeline on the report page (see
 * page_load.h).
 *
 * The figure: one row for the phases around the compiles (before, gaps,
 * after, grey), one row per lane of compiles (a compile overlapping
 * another goes to the next lane), a failed compile in red; a compile's bar
 * is labelled with its report label when there is room, and every bar has
 * a title (its kind, span and report total) for a pointer.  Seconds from
 * the span's start below.  Numbers are the timeline's (analyse/timeline.c).
 */
#include "render/page_load.h"

#include "model/load.h"
#include "render/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ====== Failures ====== */

void ns_page_failures(ns_page *p, const ns_table *t, const ns_study *st) {
    int n = 0, failed = 0;
    for (int i = 0; i < t->nrows; i++) {
        if (!strcmp(t->rows[i].cfg.mode, "warm")) continue;
        n++;
        failed += !strcmp(ns_table_status(&t->rows[i]), "failed");
    }
    if (!failed) return;
    ns_page_finding(p, "%d of %d configurations failed to compile; they are left out of the "
                       "regimes and fits (the compile matrix below).", failed, n);
    for (int i = 0; st && i < st->nfailures; i++) {
        const ns_study_failure *f = &st->failures[i];
        ns_page_finding(p, "Fails%s%s%s%s: %s.", f->pass ? " at " : "", f->pass ? f->pass : "",
                        f->submodel ? " in " : "", f->submodel ? f->submodel : "",
                        f->where ? f->where : "");
    }
    ns_html_table *tb = ns_page_table(p);
    int ncol = t->nkeys + 6;
    const char **head = ns_xcalloc((size_t)ncol + 1, sizeof *head);
    unsigned char *num = ns_xcalloc((size_t)ncol + 1, 1);
    int c = 0;
    for (int k = 0; k < t->nkeys; k++) head[c++] = t->keys[k];
    static const char *const more[] = {"mode", "status", "failing pass", "sub-model", "location",
                                       "message"};
    for (int k = 0; k < 6; k++) head[c++] = more[k];
    ns_html_table_init(tb, "compile-matrix", "Compile matrix: every configuration and whether it "
                                             "compiled", head, num);
    for (int i = 0; i < t->nrows; i++) {
        const ns_table_row *x = &t->rows[i];
        if (!strcmp(x->cfg.mode, "warm")) continue;
        int bad = !strcmp(ns_table_status(x), "failed");
        char **cells = ns_html_table_row(tb, bad ? "failed" : NULL);
        int k = 0;
        for (; k < t->nkeys; k++) {
            const char *v = ns_table_tag(x, t->keys[k]);
            cells[k] = ns_strdup(v ? v : "-");
        }
        const ns_failure *f = bad ? x->failure : NULL;
        cells[k++] = ns_strdup(x->cfg.mode);
        cells[k++] = ns_strdup(ns_table_status(x));
        cells[k++] = f && f->pass ? ns_strdup(f->pass) : NULL;
        cells[k++] = f && f->submodel ? ns_strdup(f->submodel) : NULL;
        cells[k++] = f && f->location ? ns_strdup(f->location) : NULL;
        cells[k++] = f && f->message ? ns_strdup(f->message) : NULL;
    }
    free(head);
    free(num);
}

void ns_page_log_failures(ns_page *p, const struct ns_load_s *L) {
    for (int i = 0; L && i < L->nfail; i++) {
        const ns_failure *f = &L->fail[i];
        ns_page_finding(p, "A compile failed (%s, line %ld): pass %s, sub-model %s, at %s: %s.",
                        f->file ? f->file : "?", f->line, f->pass ? f->pass : "not named",
                        f->submodel ? f->submodel : "not named",
                        f->location ? f->location : "no location", f->message ? f->message : "no message");
    }
}

/* ====== The timeline figure ====== */

char *ns_timeline_svg_new(const ns_timeline *tl) {
    int lanes = 1;
    for (int i = 0; i < tl->nph; i++)
        if ((tl->ph[i].kind == NS_PH_COMPILE || tl->ph[i].kind == NS_PH_FAILED) &&
            tl->ph[i].lane + 2 > lanes)
            lanes = tl->ph[i].lane + 2;
    const double W = 760, left = 10, right = 10, top = 10, row = 26, axis = 30;
    double H = top + lanes * row + axis, span = tl->span > 0 ? tl->span : 1;
    double sx = (W - left - right) / span;
    ns_buf b = {0};
    ns_buf_printf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" "
                      "width=\"%.0f\" height=\"%.0f\" role=\"img\" font-size=\"11\">\n",
                  W, H, W, H);
    for (int i = 0; i < tl->nph; i++) {
        const ns_phase *ph = &tl->ph[i];
        int compile = ph->kind == NS_PH_COMPILE || ph->kind == NS_PH_FAILED;
        double x = left + ph->start * sx, w = (ph->end - ph->start) * sx;
        double y = top + (compile ? 1 + ph->lane : 0) * row;
        if (w < 1) w = 1;
        const char *fill = ph->kind == NS_PH_FAILED    ? "#C0392B"
                           : ph->kind == NS_PH_COMPILE ? ns_svg_color(0)
                                                       : "#CCCCCC";
        ns_buf_printf(&b, "<rect class=\"phase %s\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
                          "height=\"%.1f\" fill=\"%s\"><title>",
                      ns_phase_kind_name(ph->kind), x, y, w, row - 6, fill);
        ns_buf_printf(&b, "%s", ns_phase_kind_name(ph->kind));
        if (ph->label) {
            ns_buf_puts(&b, " ");
            ns_xml_text(&b, ph->label);
        }
        ns_buf_printf(&b, ": %.3f s to %.3f s (%.3f s)", ph->start, ph->end, ph->end - ph->start);
        if (isfinite(ph->total)) ns_buf_printf(&b, ", report total %.4f s", ph->total);
        ns_buf_puts(&b, "</title></rect>\n");
        const char *text = ph->label ? ph->label : compile ? NULL : ns_phase_kind_name(ph->kind);
        if (text && w > 7.0 * (double)strlen(text) + 6) {
            ns_buf_printf(&b, "<text x=\"%.2f\" y=\"%.1f\" fill=\"%s\">", x + 3, y + row - 11,
                          compile ? "#FFFFFF" : "#333333");
            ns_xml_text(&b, text);
            ns_buf_puts(&b, "</text>\n");
        }
    }
    double ay = top + lanes * row + 4;
    ns_buf_printf(&b, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#666\"/>\n",
                  left, ay, W - right, ay);
    for (int k = 0; k <= 5; k++) {
        double t = span * k / 5, x = left + t * sx;
        ns_buf_printf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"#333\">%.*f s</text>\n",
                      x, ay + 16, k == 0 ? "start" : k == 5 ? "end" : "middle",
                      span < 10 ? 2 : 1, t);
    }
    ns_buf_puts(&b, "</svg>\n");
    return b.data;
}

void ns_page_timeline(ns_page *p, const ns_timeline *tl, int k) {
    if (!tl->timed) return;
    char id[32];
    snprintf(id, sizeof id, "timeline-%d", k);
    ns_buf cap = {0};
    ns_buf_printf(&cap, "The whole load of %s", tl->source);
    ns_buf_printf(&cap, " in time (npuscope timeline): %.3f s from the first timed line (or the "
                        "process's start) to the last, %d compile%s", tl->span, tl->compiles,
                  tl->compiles == 1 ? "" : "s");
    ns_buf_printf(&cap, "; %.3f s no report explains (the span minus the summed report totals)",
                  tl->unaccounted);
    if (tl->overlap > 0) ns_buf_printf(&cap, "; compiles overlap for %.3f s", tl->overlap);
    ns_buf_puts(&cap, ". Grey: before, between and after the compiles; red: a failed compile.");
    ns_page_figure(p, id, "figures", cap.data, ns_timeline_svg_new(tl));
    ns_buf_free(&cap);
}
