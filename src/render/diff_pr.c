/* diff_pr.c -- Markdown and GitHub annotation forms of a diff (diff_pr.h). */
#include "render/diff_pr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== Escaping ====== */

/* Text for a Markdown table cell: '|' and '\' escaped, '<' '>' '&' as
 * entities (GitHub renders HTML in cells), control bytes and newlines as
 * spaces, backticks escaped. */
static void ns__md(ns_buf *b, const char *s) {
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '|' || c == '\\' || c == '`' || c == '*' || c == '_' || c == '[' || c == ']') {
            ns_buf_putc(b, '\\');
            ns_buf_putc(b, (char)c);
        } else if (c == '<') ns_buf_puts(b, "&lt;");
        else if (c == '>') ns_buf_puts(b, "&gt;");
        else if (c == '&') ns_buf_puts(b, "&amp;");
        else if (c < 0x20 || c == 0x7f) ns_buf_putc(b, ' ');
        else ns_buf_putc(b, (char)c);
    }
}

/* Text for a workflow command: '%', CR and LF percent-encoded (the
 * message), and ':' ',' as well in a property such as title. */
static void ns__gh(ns_buf *b, const char *s, int property) {
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '%') ns_buf_puts(b, "%25");
        else if (c == '\r') ns_buf_puts(b, "%0D");
        else if (c == '\n') ns_buf_puts(b, "%0A");
        else if (property && c == ':') ns_buf_puts(b, "%3A");
        else if (property && c == ',') ns_buf_puts(b, "%2C");
        else if (c < 0x20 || c == 0x7f) ns_buf_putc(b, ' ');
        else ns_buf_putc(b, (char)c);
    }
}

/* ====== Rows ====== */

static int ns__significant(const ns_diff_row *r) {
    return !strcmp(r->verdict, "slower") || !strcmp(r->verdict, "faster");
}

/* significant first, slower before faster, then by the size of the change,
 * then the inconclusive rows, then the same ones; ties keep the diff's
 * order (total, passes by A median, metrics) */
static int ns__rank(const ns_diff_row *r) {
    return !strcmp(r->verdict, "slower") ? 0 : !strcmp(r->verdict, "faster") ? 1
           : !strcmp(r->verdict, "inconclusive") ? 2 : 3;
}

typedef struct {
    const ns_diff_row *row; /* the row */
    int order;              /* its place in the diff */
} ns__item;

static double ns__change(const ns_diff_row *r) {
    return isfinite(r->ratio) ? fabs(log(r->ratio)) : 0;
}

static int ns__cmp(const void *pa, const void *pb) {
    const ns__item *a = pa, *b = pb;
    int ra = ns__rank(a->row), rb = ns__rank(b->row);
    if (ra != rb) return ra - rb;
    if (ra < 2) {
        double ca = ns__change(a->row), cb = ns__change(b->row);
        if (ca != cb) return ca > cb ? -1 : 1;
    }
    return a->order - b->order;
}

static ns__item *ns__sorted_new(const ns_diff *d) {
    ns__item *it = ns_xcalloc((size_t)(d->nrows ? d->nrows : 1), sizeof *it);
    for (int i = 0; i < d->nrows; i++) {
        it[i].row = &d->rows[i];
        it[i].order = i;
    }
    qsort(it, (size_t)d->nrows, sizeof *it, ns__cmp);
    return it;
}

/* "+12.3%" (B against A), or "n/a" */
static void ns__pct(ns_buf *b, const ns_diff_row *r) {
    if (!isfinite(r->ratio)) ns_buf_puts(b, "n/a");
    else ns_buf_printf(b, "%+.1f%%", (r->ratio - 1) * 100);
}

static void ns__value(ns_buf *b, const ns_diff_row *r, double v) {
    if (!isfinite(v)) ns_buf_puts(b, "n/a");
    else if (r->kind == NS_DIFF_METRIC) ns_buf_printf(b, "%.4g", v);
    else if (r->kind == NS_DIFF_MEMORY) ns_buf_printf(b, "%.0f kB", v);
    else ns_buf_printf(b, "%.4f s", v);
}

static void ns__p(ns_buf *b, double p) {
    if (!isfinite(p)) ns_buf_puts(b, "n/a");
    else if (p < 0.001) ns_buf_puts(b, "< 0.001");
    else ns_buf_printf(b, "%.3f", p);
}

/* ====== Markdown ====== */

void ns_diff_markdown(ns_buf *b, const ns_diff *d, const char *a_name, const char *b_name) {
    ns__item *it = ns__sorted_new(d);
    int slower = 0, faster = 0, same = 0, unsure = 0;
    for (int i = 0; i < d->nrows; i++) {
        const char *v = d->rows[i].verdict;
        if (!strcmp(v, "slower")) slower++;
        else if (!strcmp(v, "faster")) faster++;
        else if (!strcmp(v, "same")) same++;
        else unsure++;
    }
    /* the summary line: the total first, then the counts */
    const ns_diff_row *total = NULL;
    for (int i = 0; i < d->nrows; i++)
        if (d->rows[i].kind == NS_DIFF_TOTAL) total = &d->rows[i];
    ns_buf_puts(b, "**npuscope diff** ");
    ns__md(b, a_name);
    ns_buf_puts(b, " → ");
    ns__md(b, b_name);
    ns_buf_puts(b, ": ");
    if (total) {
        ns_buf_printf(b, "compile time %s (", !strcmp(total->verdict, "slower") ? "**slower**"
                                              : !strcmp(total->verdict, "faster") ? "faster"
                                              : !strcmp(total->verdict, "same")   ? "the same"
                                                                                 : "inconclusive");
        ns__pct(b, total);
        ns_buf_puts(b, ", p ");
        ns__p(b, total->p);
        ns_buf_puts(b, "); ");
    }
    ns_buf_printf(b, "%d slower, %d faster, %d the same, %d inconclusive\n\n", slower, faster,
                  same, unsure);
    ns_buf_puts(b, "| | row | A median | B median | change | p | verdict |\n");
    ns_buf_puts(b, "|---|---|---:|---:|---:|---:|---|\n");
    int shown = 0;
    for (int i = 0; i < d->nrows; i++) {
        const ns_diff_row *r = it[i].row;
        /* the other rows are counted above; only the total is shown anyway */
        if (!ns__significant(r) && r->kind != NS_DIFF_TOTAL) continue;
        const char *mark = !strcmp(r->verdict, "slower") ? ":red_circle:"
                           : !strcmp(r->verdict, "faster") ? ":green_circle:"
                                                           : ":white_circle:";
        ns_buf_printf(b, "| %s | ", mark);
        if (r->kind == NS_DIFF_TOTAL) ns_buf_puts(b, "**total**");
        else ns__md(b, r->name);
        ns_buf_puts(b, " | ");
        ns__value(b, r, r->a_median);
        ns_buf_puts(b, " | ");
        ns__value(b, r, r->b_median);
        ns_buf_puts(b, " | ");
        ns__pct(b, r);
        ns_buf_puts(b, " | ");
        ns__p(b, r->p);
        ns_buf_puts(b, " | ");
        ns_diff_verdict_text(b, r);
        ns_buf_puts(b, " |\n");
        shown++;
    }
    int hidden = d->nrows - shown;
    if (hidden)
        ns_buf_printf(b, "\n%d row%s the same or inconclusive (not shown)", hidden,
                      hidden == 1 ? "" : "s");
    if (d->skipped)
        ns_buf_printf(b, "%s%d tiny pass%s left out", hidden ? "; " : "\n", d->skipped,
                      d->skipped == 1 ? "" : "es");
    if (hidden || d->skipped) ns_buf_puts(b, ".\n");
    free(it);
}

/* ====== GitHub annotations ====== */

void ns_diff_github(ns_buf *b, const ns_diff *d, const char *a_name, const char *b_name) {
    ns__item *it = ns__sorted_new(d);
    for (int i = 0; i < d->nrows; i++) {
        const ns_diff_row *r = it[i].row;
        /* an inconclusive total is said too: a summary that shows nothing
         * would read as "no change" */
        if (!ns__significant(r) &&
            !(r->kind == NS_DIFF_TOTAL && !strcmp(r->verdict, "inconclusive")))
            continue;
        int slow = !strcmp(r->verdict, "slower");
        ns_buf_puts(b, slow ? "::warning title=" : "::notice title=");
        ns_buf_puts(b, "npuscope ");
        ns__gh(b, r->verdict, 1);
        ns_buf_puts(b, " ");
        ns__gh(b, r->kind == NS_DIFF_TOTAL ? "total" : r->name, 1);
        ns_buf_puts(b, "::");
        ns_buf m = {0};
        if (r->kind == NS_DIFF_TOTAL) ns_buf_puts(&m, "compile time");
        else ns_buf_puts(&m, r->name);
        ns_buf_puts(&m, ": ");
        ns__value(&m, r, r->a_median);
        ns_buf_puts(&m, " -> ");
        ns__value(&m, r, r->b_median);
        ns_buf_puts(&m, " (");
        ns__pct(&m, r);
        ns_buf_puts(&m, ", p ");
        ns__p(&m, r->p);
        ns_buf_printf(&m, ", %zu vs %zu runs) from ", r->a_n, r->b_n);
        ns_buf_puts(&m, a_name);
        ns_buf_puts(&m, " to ");
        ns_buf_puts(&m, b_name);
        ns__gh(b, m.data, 0);
        ns_buf_free(&m);
        ns_buf_putc(b, '\n');
    }
    free(it);
}
