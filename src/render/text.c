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
#include "render/width.h"

#include <math.h>
#include <string.h>

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

/* ====== Fitting a terminal ======
 * Which columns a width leaves (text.h); kept apart from the rows so that
 * a column added to the tree only says how wide it is here. */

#define NS__FIX_W 22    /* "     wall s    share  ": the time and the share */
#define NS__BAR_W (NS__BAR_CELLS + 1)
#define NS__USER_W 12   /* "    user s  " */
#define NS__NAME_MIN 8  /* characters a shortened name keeps at least */

typedef struct {
    int width;      /* the width to fit, 0: no limit */
    int bar;        /* the share bar is shown */
    int user;       /* the user column is shown (the report has one) */
    int cut;        /* names are shortened to what is left of the width */
    int cut_any;    /* a name was shortened (for the note) */
    int mem;        /* the per-pass memory cells are shown (never left out) */
} ns__fit;

/* Characters before the name (and its indentation). */
static size_t ns__fit_prefix(const ns__fit *f) {
    return NS__FIX_W + (f->bar ? NS__BAR_W : 0) + (f->user ? NS__USER_W : 0) +
           (f->mem ? NS__MEM_WIDTH : 0);
}

/* The name of a row as shown: the name, its detail, escaped (display.h). */
static void ns__name_text(ns_buf *b, const ns_node *n) {
    ns_display_name(b, n->name);
    if (n->detail) {
        ns_buf_puts(b, " (");
        ns_display_name(b, n->detail);
        ns_buf_putc(b, ')');
    }
}

/* "  [+N below]" of a row cut by --depth: its width (never shortened). */
static size_t ns__hidden_w(int hidden) {
    if (!hidden) return 0;
    char t[48];
    return (size_t)snprintf(t, sizeof t, "  [+%d below]", hidden);
}

static int ns__count_below(const ns_node *n);

/* Indentation: two blanks a level, down to NS__INDENT_LEVELS levels; a row
 * deeper than that is indented as that level and says its own ("[level
 * N] " before the name), so that a tree 100,000 levels deep prints 100,000
 * lines, not 10 GB of blanks. */
#define NS__INDENT_LEVELS 100

static size_t ns__indent_of(int depth) {
    return (size_t)(depth < 0 ? 0 : depth > NS__INDENT_LEVELS ? NS__INDENT_LEVELS : depth) * 2;
}

/* "[level N] " of a row below NS__INDENT_LEVELS, into b; its width. */
static size_t ns__level_mark(ns_buf *b, int depth) {
    if (depth <= NS__INDENT_LEVELS) return 0;
    char t[40];
    int k = snprintf(t, sizeof t, "[level %d] ", depth);
    if (b) ns_buf_puts(b, t);
    return (size_t)k;
}

/* Indentation and name of the widest row the view shows. */
static size_t ns__widest_row(const ns_report *r, const ns_view *v) {
    const ns_node *root = r->root;
    size_t most = 0;
    ns_buf t = {0};
    for (const ns_node *n = root;;) {
        t.len = 0;
        ns__name_text(&t, n);
        int deeper = n != root && v->max_depth >= 0 && n->depth == v->max_depth && n->child
                         ? ns__count_below(n) : 0;
        size_t w = ns__indent_of(n->depth) + ns__level_mark(NULL, n->depth) +
                   ns_width_of(t.data ? t.data : "") + ns__hidden_w(deeper);
        if (w > most) most = w;
        const ns_node *c = ns_view_first(v, n);
        if (c) {
            n = c;
            continue;
        }
        while (n != root && !ns_view_next(v, n)) n = n->parent;
        if (n == root) break;
        n = ns_view_next(v, n);
    }
    ns_buf_free(&t);
    return most;
}

/* The columns of report r at width o->width. */
static void ns__fit_choose(const ns_report *r, const ns_text_opts *o, int has_user, ns__fit *f) {
    memset(f, 0, sizeof *f);
    f->width = o->width;
    f->bar = 1;
    f->user = has_user;
    f->mem = ns__has_mem(r);
    if (o->width <= 0) return;
    size_t need = ns__widest_row(r, &o->view), w = (size_t)o->width;
    if (ns__fit_prefix(f) + need <= w) return;
    f->bar = 0;
    if (ns__fit_prefix(f) + need <= w) return;
    f->user = 0;
    if (ns__fit_prefix(f) + need <= w) return;
    f->cut = 1;
}

/* The name of row n into b, shortened when f says so: what is left of the
 * width after the prefix, the indentation and the [+N below] note. */
static void ns__fit_name(ns_buf *b, const ns__fit *f, const ns_node *n, size_t indent,
                         int hidden, ns__fit *seen) {
    ns_buf t = {0};
    ns__name_text(&t, n);
    const char *s = t.data ? t.data : "";
    size_t used = ns__fit_prefix(f) + indent + ns__hidden_w(hidden);
    size_t room = f->cut && (size_t)f->width > used ? (size_t)f->width - used : 0;
    if (room < NS__NAME_MIN) room = NS__NAME_MIN;
    if (f->cut && ns_width_of(s) > room) {
        ns_width_put_short(b, s, room);
        seen->cut_any = 1;
    } else {
        ns_buf_puts(b, s);
    }
    ns_buf_free(&t);
}

/* Indentation of a row: two blanks a level, less when a shortened name
 * would not keep NS__NAME_MIN characters. */
static size_t ns__fit_indent(const ns__fit *f, const ns_node *n, int hidden) {
    size_t indent = ns__indent_of(n->depth);
    if (!f->cut) return indent;
    size_t fixed = ns__fit_prefix(f) + NS__NAME_MIN + ns__hidden_w(hidden);
    size_t most = (size_t)f->width > fixed ? (size_t)f->width - fixed : 0;
    return indent < most ? indent : most;
}

/* The note under a fitted report: what the width left out. */
static void ns__fit_note(ns_buf *b, const ns__fit *f, int has_user) {
    if (f->bar && f->user == has_user && !f->cut_any) return;
    ns_buf t = {0};
    ns_buf_printf(&t, "  (to fit %d columns:", f->width);
    const char *sep = " ";
    if (!f->bar) ns_buf_printf(&t, "%sno share bar", sep), sep = "; ";
    if (f->user != has_user) ns_buf_printf(&t, "%sno user s column", sep), sep = "; ";
    if (f->cut_any) ns_buf_printf(&t, "%snames shortened in the middle", sep);
    ns_buf_puts(&t, "; a wider COLUMNS, or a pipe, shows all)");
    ns_width_wrap(b, t.data, (size_t)f->width, 0, 3);
    ns_buf_free(&t);
}

static void ns__row(ns_buf *b, const ns_report *r, const ns_node *n, ns__fit *f,
                    double total, const ns_text_opts *o, int hidden_deeper) {
    double t = ns_view_time(&o->view, n);
    ns__num_cell(b, n->val[NS_COL_WALL], 11);
    double share = total > 0 ? t / total : NAN;
    if (isfinite(share))
        ns_buf_printf(b, "  %6.1f%%  ", share * 100);
    else
        ns_buf_puts(b, "        -  ");
    if (f->bar) ns__bar(b, share, o);
    if (f->user) {
        ns__num_cell(b, n->val[NS_COL_USER], 10);
        ns_buf_puts(b, "  ");
    }
    ns__mem_cells(b, r, n);
    size_t indent = ns__fit_indent(f, n, hidden_deeper);
    ns_buf_pad(b, ' ', indent);
    const char *style = "";
    switch (n->kind) {
    case NS_KIND_PIPELINE:
    case NS_KIND_ANALYSIS: style = NS__C(o, "\033[2m"); break;
    case NS_KIND_REST:
    case NS_KIND_TOTAL: style = NS__C(o, "\033[1m"); break;
    case NS_KIND_SCOPE: style = NS__C(o, "\033[1;34m"); break;
    case NS_KIND_PASS: break;
    }
    ns__level_mark(b, n->depth);
    ns_buf_puts(b, style);
    /* no control or bidi byte reaches the terminal (ns_display_name) */
    ns__fit_name(b, f, n, indent + ns__level_mark(NULL, n->depth), hidden_deeper, f);
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
                            const ns__fit *f) {
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
    size_t indent = ns__indent_of(parent->depth + 1);
    size_t pad = f->width > 0 && !f->bar ? ns__fit_prefix(f) + indent /* under the names */
                                         : 31 + NS__BAR_CELLS + (f->user ? 12 : 0) +
                                               (f->mem ? NS__MEM_WIDTH : 0) + indent;
    ns_buf t = {0};
    ns_buf_printf(&t, "(%ld row%s below %g ms elided, %.4f s together)", count,
                  count == 1 ? "" : "s", v->min_s * 1e3, sum);
    if (f->width > 0 && pad + t.len > (size_t)f->width) /* as far right as the width allows */
        pad = (size_t)f->width > t.len + 2 ? (size_t)f->width - t.len : 2;
    ns_buf_pad(b, ' ', pad);
    ns_buf_puts(b, NS__C(o, "\033[2m"));
    if (f->width > 0 && pad + t.len > (size_t)f->width) {
        ns_width_wrap(b, t.data, (size_t)f->width, pad, 4);
        b->len--; /* the line end after the colour's reset */
    } else {
        ns_buf_puts(b, t.data);
    }
    ns_buf_printf(b, "%s\n", o->color ? NS__RESET : "");
    ns_buf_free(&t);
    return count;
}

void ns_render_tree_text(ns_buf *b, const ns_report *r, const ns_text_opts *o, FILE *out,
                         int *werr) {
    const ns_view *v = &o->view;
    int has_user = (r->cols & NS_COLBIT(NS_COL_USER)) != 0;
    double total = r->root->val[v->col].v;
    if (!ns_num_present(r->root->val[v->col])) total = r->root->val[NS_COL_WALL].v;
    ns__fit fit;
    ns__fit_choose(r, o, has_user, &fit);
    size_t width = o->width > 0 ? (size_t)o->width : 0;

    ns_buf head = {0};
    ns_buf_printf(&head, "report %s  %s  %s:%ld", r->label, ns_producer_name(r), r->file, r->line);
    if (r->title) ns_buf_printf(&head, "  \"%s\"", r->title);
    if (!width || ns_width_of(head.data) <= width) {
        ns_buf_printf(b, "%sreport %s%s", NS__C(o, "\033[1m"), r->label, o->color ? NS__RESET : "");
        ns_buf_puts(b, head.data + 7 + strlen(r->label));
        ns_buf_putc(b, '\n');
    } else {
        ns_width_wrap(b, head.data, width, 0, 2); /* plain: a colour would not survive a cut */
    }
    ns_buf_free(&head);
    if (r->nfacts) {
        ns_buf t = {0};
        ns_buf_puts(&t, "  logged:");
        for (int i = 0; i < r->nfacts; i++)
            ns_buf_printf(&t, "%s %s=%g", i ? "," : "", r->facts[i].name, r->facts[i].value);
        ns_width_wrap(b, t.data, width, 0, 4);
        ns_buf_free(&t);
    }
    if (!ns_report_is_main(r)) { /* model/report.h, "Report groups" */
        ns_buf_puts(b, "  breakdown table: inside ");
        if (r->within) ns_buf_printf(b, "%s of ", r->within);
        ns_buf_printf(b, "report #%d (its time is counted there)\n", r->parent + 1);
    }
    if (!r->complete)
        ns_width_wrap(b, "  (incomplete: the report has no Total row; shares are of the "
                         "header total where known)", width, 0, 3);
    ns_buf_printf(b, "%11s  %7s  ", "wall s", v->col == NS_COL_USER ? "user %" : "share");
    if (fit.bar) ns_buf_pad(b, ' ', NS__BAR_W);
    if (fit.user) ns_buf_printf(b, "%10s  ", "user s");
    ns__mem_head(b, r);
    ns_buf_puts(b, "name\n");
    if (!isfinite(total) && ns_num_present(r->header_total)) total = r->header_total.v;

    long elided = 0;
    const ns_node *root = r->root;
    if (!ns_view_first(v, root)) elided += ns__elided_line(b, root, o, &fit);
    for (const ns_node *n = ns_view_first(v, root); n;) {
        int deeper = (v->max_depth >= 0 && n->depth == v->max_depth && n->child)
                         ? ns__count_below(n) : 0;
        ns__row(b, r, n, &fit, total, o, deeper);
        if (out && b->len > (1u << 20) && ns_buf_flush(b, out) && werr) *werr = 1;
        const ns_node *c = ns_view_first(v, n);
        if (c) {
            n = c;
            continue;
        }
        if (!deeper) elided += ns__elided_line(b, n, o, &fit);
        /* climb: print each finished parent's elision line */
        while (n != root && !ns_view_next(v, n)) {
            n = n->parent;
            elided += ns__elided_line(b, n, o, &fit);
        }
        n = n == root ? NULL : ns_view_next(v, n);
    }
    if (r->complete) ns__row(b, r, root, &fit, total, o, 0);
    if (elided) {
        ns_buf t = {0};
        ns_buf_printf(&t, "  %ld row%s below %g ms elided (--min-ms)", elided,
                      elided == 1 ? "" : "s", v->min_s * 1e3);
        ns_width_wrap(b, t.data, width, 0, 4);
        ns_buf_free(&t);
    }
    ns__fit_note(b, &fit, has_user);
    ns_buf_putc(b, '\n');
}
