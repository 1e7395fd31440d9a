/* render_html.c -- the report page laid out from an ns_page (see
 * render_html.h for what the page promises: self-contained, no requests,
 * light/dark, printable, names as text only).
 *
 * The document is written top to bottom into one buffer: head (CSP, the
 * embedded CSS), key findings, the tree explorer's frame (its rows are the
 * JS's job) followed at once by the data block and the embedded JS, then
 * the heaviest passes, the run tables, the figures, method and
 * reproducibility.  The script comes right after the frame it fills, not
 * at the end: the title and findings still show before it runs, and the
 * explorer answers a click while the browser is still reading the rest.
 *
 * The figures and tables below the explorer are each written inside a
 * <noscript class="later"> element.  With JavaScript on, a browser reads a
 * noscript element's content as plain text (the HTML parser's raw-text
 * rule): no element, no style, no layout -- at 6,000 runs the 1.7 MB of
 * SVG and table rows below the explorer took the main thread a quarter of
 * a second in one task (style 118 ms, layout 49 ms, parsing 75 ms) and
 * paint another 64 ms, right when the first click came.  web/later.js then
 * builds each part from that text after the first paint, one part per task
 * (at once for a part scrolled into view, for a #fragment inside one, and
 * for printing; and all of them before the load event on a small page, so
 * that a tool taking the page at its load sees it whole).  With JavaScript
 * off the same elements are shown as they are, so the page still reads and
 * prints without it.  The text is the markup the parser would have read
 * in place: every name in it went through ns_xml_text, so it holds no '<'
 * of a log's and cannot close the noscript element early.
 */
#include "render/html.h"

#include "render/svg.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ====== The page model ====== */

void ns_html_table_init(ns_html_table *t, const char *id, const char *caption,
                        const char *const *head, const unsigned char *num) {
    memset(t, 0, sizeof *t);
    t->id = ns_strdup(id);
    t->caption = ns_strdup(caption);
    while (head[t->ncols]) t->ncols++;
    t->head = ns_xcalloc((size_t)t->ncols + 1, sizeof *t->head);
    t->num = ns_xcalloc((size_t)t->ncols + 1, 1);
    for (int c = 0; c < t->ncols; c++) {
        t->head[c] = ns_strdup(head[c]);
        t->num[c] = num ? num[c] : 0;
    }
}

char **ns_html_table_row(ns_html_table *t, const char *cls) {
    t->cells = ns_xrealloc(t->cells, sizeof *t->cells * (size_t)(t->nrows + 1) * (size_t)t->ncols);
    t->cls = ns_xrealloc(t->cls, sizeof *t->cls * (size_t)(t->nrows + 1));
    char **row = &t->cells[(size_t)t->nrows * (size_t)t->ncols];
    for (int c = 0; c < t->ncols; c++) row[c] = NULL;
    t->cls[t->nrows] = cls ? ns_strdup(cls) : NULL;
    t->nrows++;
    return row;
}

void ns_html_table_free(ns_html_table *t) {
    for (int c = 0; c < t->ncols; c++) free(t->head[c]);
    for (size_t i = 0; i < (size_t)t->nrows * (size_t)t->ncols; i++) free(t->cells[i]);
    for (int r = 0; r < t->nrows; r++) free(t->cls[r]);
    free(t->head);
    free(t->num);
    free(t->cells);
    free(t->cls);
    free(t->id);
    free(t->caption);
    free(t->note);
    memset(t, 0, sizeof *t);
}

ns_html_figure *ns_page_figure(ns_page *p, const char *id, const char *section,
                               const char *caption, char *svg) {
    p->figs = ns_xrealloc(p->figs, sizeof *p->figs * (size_t)(p->nfigs + 1));
    ns_html_figure *f = &p->figs[p->nfigs++];
    f->id = ns_strdup(id);
    f->caption = ns_strdup(caption);
    f->svg = svg;
    f->section = (char *)section;
    return f;
}

ns_html_table *ns_page_table(ns_page *p) {
    p->tables = ns_xrealloc(p->tables, sizeof *p->tables * (size_t)(p->ntables + 1));
    ns_html_table *t = &p->tables[p->ntables++];
    memset(t, 0, sizeof *t);
    return t;
}

void ns_page_finding(ns_page *p, const char *fmt, ...) {
    ns_buf b = {0};
    va_list ap;
    va_start(ap, fmt);
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) n = 0;
    ns_buf_grow(&b, (size_t)n + 1);
    vsnprintf(b.data, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    b.len = (size_t)n;
    p->findings = ns_xrealloc(p->findings, sizeof *p->findings * (size_t)(p->nfindings + 1));
    p->findings[p->nfindings++] = b.data;
}

ns_html_fact *ns_page_fact(ns_page *p, const char *term, int code) {
    p->facts = ns_xrealloc(p->facts, sizeof *p->facts * (size_t)(p->nfacts + 1));
    ns_html_fact *f = &p->facts[p->nfacts++];
    memset(f, 0, sizeof *f);
    f->term = ns_strdup(term);
    f->code = code;
    return f;
}

void ns_page_fact_add(ns_html_fact *f, const char *value) {
    f->vals = ns_xrealloc(f->vals, sizeof *f->vals * (size_t)(f->nvals + 1));
    f->vals[f->nvals++] = ns_strdup(value);
}

ns_html_section *ns_page_section(ns_page *p, const char *id, const char *title) {
    p->sections = ns_xrealloc(p->sections, sizeof *p->sections * (size_t)(p->nsections + 1));
    ns_html_section *s = &p->sections[p->nsections++];
    memset(s, 0, sizeof *s);
    s->id = ns_strdup(id);
    s->title = ns_strdup(title);
    return s;
}

void ns_page_free(ns_page *p) {
    free(p->title);
    free(p->subtitle);
    for (int i = 0; i < p->nfindings; i++) free(p->findings[i]);
    free(p->findings);
    ns_buf_free(&p->data);
    free(p->tree_note);
    for (int i = 0; i < p->ntables; i++) ns_html_table_free(&p->tables[i]);
    free(p->tables);
    for (int i = 0; i < p->nfigs; i++) {
        free(p->figs[i].id);
        free(p->figs[i].caption);
        free(p->figs[i].svg);
    }
    free(p->figs);
    free(p->figs_note);
    for (int i = 0; i < p->nfacts; i++) {
        free(p->facts[i].term);
        for (int k = 0; k < p->facts[i].nvals; k++) free(p->facts[i].vals[k]);
        free(p->facts[i].vals);
    }
    free(p->facts);
    for (int i = 0; i < p->nsections; i++) {
        free(p->sections[i].id);
        free(p->sections[i].title);
        ns_buf_free(&p->sections[i].html);
    }
    free(p->sections);
    ns_buf_free(&p->findings_json);
    memset(p, 0, sizeof *p);
}

/* ====== Pieces ====== */

/* <TAG>text</TAG> */
static void ns__elem(ns_buf *b, const char *tag, const char *text) {
    ns_buf_printf(b, "<%s>", tag);
    ns_xml_text(b, text);
    ns_buf_printf(b, "</%s>", tag);
}

/* Where a part below the explorer starts and ends (see the top). */
static void ns__later(ns_buf *b) { ns_buf_puts(b, "<noscript class=\"later\">\n"); }
static void ns__later_end(ns_buf *b) { ns_buf_puts(b, "</noscript>\n"); }

/* A table of more rows than this is folded (a closed <details> with the
 * caption and the row count as its summary): a browser lays out a long
 * table's every row before the page can answer a click -- 1,200 rows
 * (a 6,000-run sweep) took it most of a second -- and a closed details
 * element's content is not laid out until it is opened. */
#define NS__FOLD_ROWS 100

static void ns__table(ns_buf *b, const ns_html_table *t) {
    int fold = t->nrows > NS__FOLD_ROWS;
    ns__later(b);
    if (fold) {
        ns_buf_puts(b, "<details class=\"fold\"><summary>");
        ns_xml_text(b, t->caption);
        ns_buf_printf(b, " (%d rows)</summary>\n", t->nrows);
    }
    ns_buf_puts(b, "<div class=\"table-wrap\"><table id=\"");
    ns_xml_text(b, t->id);
    ns_buf_puts(b, "\">\n<caption>");
    ns_xml_text(b, t->caption);
    ns_buf_puts(b, "</caption>\n<thead><tr>");
    for (int c = 0; c < t->ncols; c++) {
        ns_buf_puts(b, t->num[c] ? "<th scope=\"col\" class=\"num\">" : "<th scope=\"col\">");
        ns_xml_text(b, t->head[c]);
        ns_buf_puts(b, "</th>");
    }
    ns_buf_puts(b, "</tr></thead>\n<tbody>\n");
    for (int r = 0; r < t->nrows; r++) {
        if (t->cls && t->cls[r]) {
            ns_buf_puts(b, "<tr class=\"");
            ns_xml_text(b, t->cls[r]);
            ns_buf_puts(b, "\">");
        } else {
            ns_buf_puts(b, "<tr>");
        }
        for (int c = 0; c < t->ncols; c++) {
            const char *s = t->cells[(size_t)r * (size_t)t->ncols + (size_t)c];
            ns_buf_puts(b, t->num[c] ? "<td class=\"num\">" : "<td>");
            ns_xml_text(b, s ? s : "");
            ns_buf_puts(b, "</td>");
        }
        ns_buf_puts(b, "</tr>\n");
    }
    ns_buf_puts(b, "</tbody></table></div>\n");
    if (fold) ns_buf_puts(b, "</details>\n");
    if (t->note) {
        ns_buf_puts(b, "<p class=\"note\">");
        ns_xml_text(b, t->note);
        ns_buf_puts(b, "</p>\n");
    }
    ns__later_end(b);
}

static void ns__figure(ns_buf *b, const ns_html_figure *f) {
    ns__later(b);
    ns_buf_puts(b, "<figure id=\"");
    ns_xml_text(b, f->id);
    ns_buf_puts(b, "\">\n<div class=\"svg\">");
    ns_buf_puts(b, f->svg); /* drawn by render_svg.c, every string in it escaped */
    ns_buf_puts(b, "</div>\n<figcaption>");
    ns_xml_text(b, f->caption);
    ns_buf_puts(b, "</figcaption>\n</figure>\n");
    ns__later_end(b);
}

static int ns__has_figs(const ns_page *p, const char *section) {
    for (int i = 0; i < p->nfigs; i++)
        if (strcmp(p->figs[i].section, section) == 0) return 1;
    return 0;
}

/* The data block: '<' is escaped inside every JSON string (ns_json_str), and
 * the JSON structure itself has none, so "</script" cannot occur. */
static void ns__data_block(ns_buf *b, const ns_page *p) {
    ns_buf_puts(b, "<script type=\"application/json\" id=\"npuscope-data\">");
    if (p->data.len) ns_buf_add(b, p->data.data, p->data.len);
    else ns_buf_puts(b, "{}");
    ns_buf_puts(b, "</script>\n");
}

/* ====== The document ====== */

int ns_html_page(ns_buf *b, const ns_page *p) {
    if (!ns_web_report_css || !ns_web_report_js || !ns_web_picker_js || !ns_web_later_js) {
        ns_error("report: this program was built without its web assets "
                 "(make builds them from web/ with tools/embed.sh)");
        return -1;
    }
    ns_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                   "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                   "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
                   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                   "<meta name=\"color-scheme\" content=\"light dark\">\n"
                   "<meta name=\"generator\" content=\"npuscope " NS_VERSION "\">\n");
    ns__elem(b, "title", p->title);
    ns_buf_puts(b, "\n<style>\n");
    ns_buf_puts(b, ns_web_report_css);
    ns_buf_puts(b, "</style>\n</head>\n<body>\n<header class=\"top\">\n");
    ns__elem(b, "h1", p->title);
    ns_buf_puts(b, "\n<p class=\"sub\">");
    ns_xml_text(b, p->subtitle);
    ns_buf_puts(b, "</p>\n<nav class=\"toc\" aria-label=\"sections\">"
                   "<a href=\"#findings\">Key findings</a>");
    for (int i = 0; i < p->nsections; i++) {
        ns_buf_puts(b, " <a href=\"#");
        ns_xml_text(b, p->sections[i].id);
        ns_buf_puts(b, "\">");
        ns_xml_text(b, p->sections[i].title);
        ns_buf_puts(b, "</a>");
    }
    ns_buf_puts(b, " <a href=\"#trees\">Timing trees</a>");
    if (ns__has_figs(p, "passes")) ns_buf_puts(b, " <a href=\"#passes\">Heaviest passes</a>");
    if (p->ntables) ns_buf_puts(b, " <a href=\"#tables\">Runs</a>");
    if (ns__has_figs(p, "figures") || p->figs_note)
        ns_buf_puts(b, " <a href=\"#figures\">Figures</a>");
    ns_buf_puts(b, " <a href=\"#method\">Method</a></nav>\n</header>\n<main>\n");

    /* key findings */
    ns_buf_puts(b, "<section id=\"findings\">\n<h2>Key findings</h2>\n<ul class=\"findings\">\n");
    for (int i = 0; i < p->nfindings; i++) {
        ns_buf_puts(b, "<li>");
        ns_xml_text(b, p->findings[i]);
        ns_buf_puts(b, "</li>\n");
    }
    if (!p->nfindings)
        ns_buf_puts(b, "<li>Nothing to report: the input held no timing report and no run.</li>\n");
    ns_buf_puts(b, "</ul>\n</section>\n");
    /* the findings document: '<' is escaped in its strings (ns_json_str) */
    if (p->findings_json.len) {
        ns_buf_puts(b, "<script type=\"application/json\" id=\"npuscope-findings\">");
        ns_buf_add(b, p->findings_json.data, p->findings_json.len);
        ns_buf_puts(b, "</script>\n");
    }
    for (int i = 0; i < p->nsections; i++) {
        const ns_html_section *s = &p->sections[i];
        ns_buf_puts(b, "<section id=\"");
        ns_xml_text(b, s->id);
        ns_buf_puts(b, "\">\n");
        ns__elem(b, "h2", s->title);
        ns_buf_putc(b, '\n');
        if (s->html.len) ns_buf_add(b, s->html.data, s->html.len);
        ns_buf_puts(b, "</section>\n");
    }

    /* tree explorer: the frame; report.js fills #tree from the data block */
    ns_buf_puts(b, "<section id=\"trees\">\n<h2>Timing trees</h2>\n");
    if (p->tree_note) {
        ns_buf_puts(b, "<p class=\"note\">");
        ns_xml_text(b, p->tree_note);
        ns_buf_puts(b, "</p>\n");
    }
    ns_buf_printf(b, "<div id=\"picker\" class=\"picker\" hidden></div>\n"
                     "<div class=\"controls\" role=\"toolbar\" aria-label=\"tree controls\">\n"
                     "<label>Search <input type=\"search\" id=\"q\" placeholder=\"pass name\" "
                     "autocomplete=\"off\" spellcheck=\"false\"></label>\n"
                     "<button type=\"button\" id=\"expand-all\">Expand all</button>\n"
                     "<button type=\"button\" id=\"collapse-all\">Collapse all</button>\n"
                     "<label>Hide rows below <input type=\"number\" id=\"min-ms\" min=\"0\" "
                     "step=\"any\" value=\"0\" inputmode=\"decimal\"> ms</label>\n"
                     "<span id=\"status\" role=\"status\" aria-live=\"polite\"></span>\n</div>\n"
                     "<div class=\"tree-head\" aria-hidden=\"true\"><span>name</span>"
                     "<span class=\"num\">wall s</span><span class=\"num\">share</span>"
                     "<span></span><span class=\"num\">user s</span></div>\n"
                     "<div id=\"tree\" role=\"tree\" aria-label=\"timing trees, %d report%s\" "
                     "data-reports=\"%d\"></div>\n"
                     "<noscript><p class=\"note\">The tree explorer needs JavaScript; everything "
                     "else on this page does not.</p></noscript>\n</section>\n",
                  p->nreports, p->nreports == 1 ? "" : "s", p->nreports);
    /* the explorer's data and script, right after its frame (see the top) */
    ns__data_block(b, p);
    ns_buf_puts(b, "<script>\n(function () {\n'use strict';\n");
    ns_buf_puts(b, ns_web_later_js); /* first, and a scope of its own: see later.js */
    ns_buf_puts(b, "})();\n(function () {\n'use strict';\n");
    ns_buf_puts(b, ns_web_report_js);
    ns_buf_puts(b, ns_web_picker_js);
    ns_buf_puts(b, "})();\n</script>\n");

    if (ns__has_figs(p, "passes")) {
        ns_buf_puts(b, "<section id=\"passes\">\n<h2>Heaviest passes</h2>\n");
        for (int i = 0; i < p->nfigs; i++)
            if (strcmp(p->figs[i].section, "passes") == 0) ns__figure(b, &p->figs[i]);
        ns_buf_puts(b, "</section>\n");
    }
    if (p->ntables) {
        ns_buf_puts(b, "<section id=\"tables\">\n<h2>Runs</h2>\n");
        for (int i = 0; i < p->ntables; i++) ns__table(b, &p->tables[i]);
        ns_buf_puts(b, "</section>\n");
    }
    if (ns__has_figs(p, "figures") || p->figs_note) {
        ns_buf_puts(b, "<section id=\"figures\">\n<h2>Figures</h2>\n");
        if (p->figs_note) {
            ns_buf_puts(b, "<p class=\"note\">");
            ns_xml_text(b, p->figs_note);
            ns_buf_puts(b, "</p>\n");
        }
        for (int i = 0; i < p->nfigs; i++)
            if (strcmp(p->figs[i].section, "figures") == 0) ns__figure(b, &p->figs[i]);
        ns_buf_puts(b, "</section>\n");
    }

    ns_buf_puts(b, "<section id=\"method\">\n<h2>Method &amp; reproducibility</h2>\n<dl>\n");
    for (int i = 0; i < p->nfacts; i++) {
        const ns_html_fact *f = &p->facts[i];
        ns__elem(b, "dt", f->term);
        ns_buf_putc(b, '\n');
        for (int k = 0; k < f->nvals; k++) {
            ns_buf_puts(b, f->code ? "<dd><code>" : "<dd>");
            ns_xml_text(b, f->vals[k]);
            ns_buf_puts(b, f->code ? "</code></dd>\n" : "</dd>\n");
        }
    }
    ns_buf_puts(b, "</dl>\n</section>\n</main>\n<footer>Made by npuscope " NS_VERSION
                   " from the files named above; the same input gives the same page.</footer>\n");
    ns_buf_puts(b, "</body>\n</html>\n");
    return 0;
}
