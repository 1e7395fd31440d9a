/* text.c -- the terminal tree of `npuscope tree`.
 *
 * Like MLIR's own report, but easier to read: the time column first with
 * the compiler's own digits, the share of the report's total as a number and
 * as a bar (eighth-block characters, so small shares still show), the user
 * column when the report has one, the memory-usage-collector's per-pass
 * memory when the report has it (peak after the pass and its increase, kB;
 * "-" on rows without a line), and the name indented by depth.  Rows
 * elided by --min-ms are summed into one line per parent, so nothing
 * disappears without a trace; rows cut by --depth are counted on their
 * parent.  Colour only when asked (the CLI decides: a TTY and no NO_COLOR).
 * The writer knows the report and the view (model/view.c) and nothing else
 * of the render layer: the exporter and the merged tree call it.
 */
#include "render/text.h"

#include "base/display.h"

#include <math.h>

#define NS__BAR_CELLS 16

static const char *const ns__eighths[9] = {"", "\u258f", "\u258e", "\u258d", "\u258c",
                                           "\u258b", "\u258a", "\u2589", "\u2588"};

#define NS__C(o, code) ((o)->color ? (code) : "")
#define NS__RESET "\033[0m"

static void ns__bar(ns_buf *b, double share, const ns_text_opts *o) {
    int cells = 0;
    if (isfinite(share) && share > 0) {
        double e = share * NS__BAR_CELLS * 8;
        int eighths = (int)lround(e > NS__BAR_CELLS * 8 ? NS__BAR_CELLS * 8 : e);
        if (eighths == 0) eighths = 1;
        ns_buf_puts(b, NS__C(o, "\033[36m"));
        while (eighths >= 8) {
            ns_buf_puts(b, ns__eighths[8]);
            eighths -= 8;
            cells++;
        }
        if (eighths) {
            ns_buf_puts(b, ns__eighths[eighths]);
            cells++;
        }
        if (o->color) ns_buf_puts(b, NS__RESET);
    }
    ns_buf_pad(b, ' ', (size_t)(NS__BAR_CELLS - cells + 1));
}

/* One numeric cell: the printed digits right-aligned in `width`. */
static void ns__num_cell(ns_buf *b, ns_num n, int width) {
    if (!ns_num_present(n)) {
        ns_buf_pad(b, ' ', (size_t)width - 1);
        ns_buf_putc(b, '-');
        return;
    }
    ns_num_put(b, n, width);
}

/* ====== Per-pass memory ======
 * Two cells after the time columns when the report has them (npu/memory.h):
 * the peak after the pass and how much it raised it, in kB. */
#define NS__MEM_WIDTH 22 /* both cells and their gaps */

static int ns__has_mem(const ns_report *r) {
    return (r->cols & NS_COLBIT(NS_COL_MEM_PEAK)) != 0;
}

static void ns__mem_head(ns_buf *b, const ns_report *r) {
    if (ns__has_mem(r)) ns_buf_printf(b, "%10s  %8s  ", "peak kB", "+kB");
}

static void ns__mem_cells(ns_buf *b, const ns_report *r, const ns_node *n) {
    if (!ns__has_mem(r)) return;
    ns__num_cell(b, n->val[NS_COL_MEM_PEAK], 10);
    ns_buf_puts(b, "  ");
    ns__num_cell(b, n->val[NS_COL_MEM_INC], 8);
    ns_buf_puts(b, "  ");
}

/* ====== Rows ====== */

static void ns__row(ns_buf *b, const ns_report *r, const ns_node *n, int has_user,
                    double total, const ns_text_opts *o, int hidden_deeper) {
    double t = ns_view_time(&o->view, n);
    ns__num_cell(b, n->val[NS_COL_WALL], 11);
    double share = total > 0 ? t / total : NAN;
    if (isfinite(share))
        ns_buf_printf(b, "  %6.1f%%  ", share * 100);
    else
        ns_buf_puts(b, "        -  ");
    ns__bar(b, share, o);
    if (has_user) {
        ns__num_cell(b, n->val[NS_COL_USER], 10);
        ns_buf_puts(b, "  ");
    }
    ns__mem_cells(b, r, n);
    ns_buf_pad(b, ' ', (size_t)(n->depth < 0 ? 0 : n->depth) * 2);
    const char *style = "";
    switch (n->kind) {
    case NS_KIND_PIPELINE:
    case NS_KIND_ANALYSIS: style = NS__C(o, "\033[2m"); break;
    case NS_KIND_REST:
    case NS_KIND_TOTAL: style = NS__C(o, "\033[1m"); break;
    case NS_KIND_SCOPE: style = NS__C(o, "\033[1;34m"); break;
    case NS_KIND_PASS: break;
    }
    ns_buf_puts(b, style);
    ns_display_name(b, n->name); /* no control or bidi byte reaches the terminal */
    if (n->detail) {
        ns_buf_puts(b, " (");
        ns_display_name(b, n->detail);
        ns_buf_putc(b, ')');
    }
    if (*style) ns_buf_puts(b, NS__RESET);
    if (hidden_deeper)
        ns_buf_printf(b, "%s  [+%d below]%s", NS__C(o, "\033[2m"), hidden_deeper,
                      o->color ? NS__RESET : "");
    ns_buf_putc(b, '\n');
}

/* Count a node's descendants. */
static int ns__count_below(const ns_node *n) {
    int k = 0;
    for (const ns_node *d = n->child; d; d = ns_node_next((ns_node *)d, n)) k++;
    return k;
}

/* Summary line for children of `parent` elided by --min-ms. */
static long ns__elided_line(ns_buf *b, const ns_node *parent, const ns_text_opts *o,
                            int has_user, int has_mem) {
    const ns_view *v = &o->view;
    long count = 0;
    double sum = 0;
    for (const ns_node *c = parent->child; c; c = c->next) {
        if (ns_view_keep(v, c)) continue;
        if (v->max_depth >= 0 && c->depth > v->max_depth) return 0;
        count++;
        double t = ns_view_time(v, c);
        if (isfinite(t)) sum += t;
    }
    if (!count) return 0;
    ns_buf_pad(b, ' ', 31 + NS__BAR_CELLS + (has_user ? 12 : 0) + (has_mem ? NS__MEM_WIDTH : 0));
    ns_buf_pad(b, ' ', (size_t)(parent->depth + 1) * 2);
    ns_buf_printf(b, "%s(%ld row%s below %g ms elided, %.4f s together)%s\n",
                  NS__C(o, "\033[2m"), count, count == 1 ? "" : "s", v->min_s * 1e3,
                  sum, o->color ? NS__RESET : "");
    return count;
}

void ns_render_tree_text(ns_buf *b, const ns_report *r, const ns_text_opts *o, FILE *out,
                         int *werr) {
    const ns_view *v = &o->view;
    int has_user = (r->cols & NS_COLBIT(NS_COL_USER)) != 0;
    double total = r->root->val[v->col].v;
    if (!ns_num_present(r->root->val[v->col])) total = r->root->val[NS_COL_WALL].v;

    ns_buf_printf(b, "%sreport %s%s  %s  %s:%ld", NS__C(o, "\033[1m"), r->label,
                  o->color ? NS__RESET : "", ns_producer_name(r), r->file, r->line);
    if (r->title) ns_buf_printf(b, "  \"%s\"", r->title);
    ns_buf_putc(b, '\n');
    if (r->nfacts) {
        ns_buf_puts(b, "  logged:");
        for (int i = 0; i < r->nfacts; i++)
            ns_buf_printf(b, "%s %s=%g", i ? "," : "", r->facts[i].name, r->facts[i].value);
        ns_buf_putc(b, '\n');
    }
    if (!r->complete)
        ns_buf_puts(b, "  (incomplete: the report has no Total row; shares are of the "
                       "header total where known)\n");
    ns_buf_printf(b, "%11s  %7s  %-*s", "wall s",
                  v->col == NS_COL_USER ? "user %" : "share", NS__BAR_CELLS + 1, "");
    if (has_user) ns_buf_printf(b, "%10s  ", "user s");
    ns__mem_head(b, r);
    ns_buf_puts(b, "name\n");
    if (!isfinite(total) && ns_num_present(r->header_total)) total = r->header_total.v;

    long elided = 0;
    const ns_node *root = r->root;
    if (!ns_view_first(v, root)) elided += ns__elided_line(b, root, o, has_user, ns__has_mem(r));
    for (const ns_node *n = ns_view_first(v, root); n;) {
        int deeper = (v->max_depth >= 0 && n->depth == v->max_depth && n->child)
                         ? ns__count_below(n) : 0;
        ns__row(b, r, n, has_user, total, o, deeper);
        if (out && b->len > (1u << 20) && ns_buf_flush(b, out) && werr) *werr = 1;
        const ns_node *c = ns_view_first(v, n);
        if (c) {
            n = c;
            continue;
        }
        if (!deeper) elided += ns__elided_line(b, n, o, has_user, ns__has_mem(r));
        /* climb: print each finished parent's elision line */
        while (n != root && !ns_view_next(v, n)) {
            n = n->parent;
            elided += ns__elided_line(b, n, o, has_user, ns__has_mem(r));
        }
        n = n == root ? NULL : ns_view_next(v, n);
    }
    if (r->complete) ns__row(b, r, root, has_user, total, o, 0);
    if (elided)
        ns_buf_printf(b, "  %ld row%s below %g ms elided (--min-ms)\n", elided,
                      elided == 1 ? "" : "s", v->min_s * 1e3);
    ns_buf_putc(b, '\n');
}
