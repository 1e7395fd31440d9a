/* export.c -- machine-readable outputs of `npuscope tree`.
 *
 * Formats (all documented in docs/formats.md):
 *   json        the npuscope-tree contract: values exactly as printed
 *               (tree_json.c writes it, for merged trees too)
 *   csv         one row per node, for spreadsheets and pandas
 *   folded      FlameGraph's folded stacks: self time, integer microseconds
 *   chrome      Chrome trace events for Perfetto / chrome://tracing
 *   speedscope  speedscope's file format, a sampled profile by self time
 *   original    each report printed again in its producer's own layout
 *
 * A timing report has durations, not timestamps, so the chrome export lays
 * children out one after another from their parent's start: a synthetic
 * timeline, and it says so in otherData.  When the children of a node add up
 * to more than the node (user time summed over threads, or MLIR's double
 * counting of the inliner's nested pipeline), the node's box is stretched to
 * hold them and its real values stay in args.  Folded stacks and speedscope
 * use self time; nodes whose self time is not positive contribute nothing
 * (a negative Rest cannot be drawn).
 *
 * Everything is written through one append buffer, flushed every megabyte.
 * The exporter stands on the writers below it -- text.c for the terminal
 * tree, tree_json.c for the JSON -- and on the view (model/view.c); none of
 * them calls back into it, and it keeps no state between exporters.
 */
#include "render/export.h"

#include "base/jsonw.h"
#include "base/strmap.h"
#include "render/text.h"
#include "render/tree_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NS__FLUSH_AT (1u << 20)

struct ns_exporter {
    ns_export_opts o;   /* options */
    ns_text_opts text;  /* text: the options of the terminal tree, from o */
    FILE *out;          /* destination */
    ns_buf b;           /* pending output */
    int n;              /* reports written so far */
    int werr;           /* a write failed */
    ns_strmap frames;   /* speedscope: frame name -> index */
    ns_buf weights;     /* speedscope: weights of the current profile */
    double weight_sum;  /* speedscope: their sum (the profile's endValue) */
    long events;        /* chrome: events written (for separators) */
};

int ns_format_parse(const char *s, ns_format *out) {
    static const struct { const char *name; ns_format f; } t[] = {
        {"text", NS_FMT_TEXT},     {"json", NS_FMT_JSON},
        {"csv", NS_FMT_CSV},       {"folded", NS_FMT_FOLDED},
        {"chrome", NS_FMT_CHROME}, {"speedscope", NS_FMT_SPEEDSCOPE},
        {"original", NS_FMT_ORIGINAL}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(s, t[i].name) == 0) {
            *out = t[i].f;
            return 0;
        }
    return -1;
}

/* ====== CSV ====== */

/* A number as printed; an empty field when absent, nan or inf. */
static void ns__csv_num(ns_buf *b, ns_num n) {
    if (n.dec >= 0 && isfinite(n.v)) ns_num_put_json(b, n);
}

static void ns__csv_report(ns_exporter *e, const ns_report *r) {
    ns_buf *b = &e->b;
    const ns_view *v = &e->o.view;
    ns_buf path = {0};      /* names from the root, joined by ';' */
    size_t *plen = NULL;    /* path length before each depth's name */
    size_t pcap = 0;
    int *idx = NULL;        /* child number at each depth */
    for (const ns_node *n = ns_view_first(v, r->root); n;) {
        int d = n->depth;
        if ((size_t)d + 1 >= pcap) {
            pcap = pcap ? pcap * 2 : 64;
            while ((size_t)d + 1 >= pcap) pcap *= 2;
            plen = ns_xrealloc(plen, sizeof *plen * pcap);
            idx = ns_xrealloc(idx, sizeof *idx * pcap);
        }
        path.len = d == 0 ? 0 : plen[d];
        plen[d] = path.len;
        if (d > 0) ns_buf_putc(&path, ';');
        else ns_buf_grow(&path, 0);
        ns_buf_puts(&path, n->name);
        idx[d] = (n == ns_view_first(v, n->parent)) ? 0 : idx[d] + 1;

        ns_buf_printf(b, "%d,", r->index);
        ns_csv_field(b, r->label);
        ns_buf_putc(b, ',');
        for (int i = 0; i <= d; i++) ns_buf_printf(b, "%s%d", i ? "/" : "", idx[i]);
        ns_buf_putc(b, ',');
        ns_csv_field(b, path.data);
        ns_buf_printf(b, ",%d,", d);
        ns_csv_field(b, n->name);
        ns_buf_printf(b, ",%s,", ns_kind_name(n->kind));
        ns__csv_num(b, n->val[NS_COL_WALL]);
        ns_buf_putc(b, ',');
        ns__csv_num(b, n->val[NS_COL_USER]);
        ns_buf_putc(b, ',');
        double self = ns_node_self(n, NS_COL_WALL);
        if (isfinite(self)) ns_put_json_double(b, self, n->val[NS_COL_WALL].dec);
        ns_buf_putc(b, '\n');
        if (b->len > NS__FLUSH_AT && ns_buf_flush(b, e->out)) e->werr = 1;

        /* advance: first kept child, else next kept sibling up the chain */
        const ns_node *c = ns_view_first(v, n);
        if (c) {
            if ((size_t)d + 2 >= pcap) {
                pcap *= 2;
                plen = ns_xrealloc(plen, sizeof *plen * pcap);
                idx = ns_xrealloc(idx, sizeof *idx * pcap);
            }
            plen[d + 1] = path.len;
            n = c;
            continue;
        }
        while (n && n != r->root && !ns_view_next(v, n)) n = n->parent;
        n = (n && n != r->root) ? ns_view_next(v, n) : NULL;
    }
    free(plen);
    free(idx);
    ns_buf_free(&path);
}

/* ====== Folded stacks and speedscope ====== */

/* Calls fn for each kept node with positive self time, with the frames from
 * the report label down to the node. */
typedef void (*ns__stack_fn)(ns_exporter *e, const ns_report *r,
                             const ns_node **stack, int depth, double self);

static void ns__stacks(ns_exporter *e, const ns_report *r, ns__stack_fn fn) {
    const ns_view *v = &e->o.view;
    const ns_node **stack = NULL;
    int cap = 0;
    for (const ns_node *n = r->root; n;) {
        int d = n->depth + 1; /* root at 0 */
        if (d >= cap) {
            cap = cap ? cap * 2 : 64;
            while (d >= cap) cap *= 2;
            stack = ns_xrealloc(stack, sizeof *stack * (size_t)cap);
        }
        stack[d] = n;
        /* self time within the view: elided children count as self */
        double t = ns_view_time(v, n);
        for (const ns_node *c = ns_view_first(v, n); c; c = ns_view_next(v, c)) {
            double ct = ns_view_time(v, c);
            if (isfinite(ct)) t -= ct;
        }
        /* round to the printed decimals: a difference of printed values
         * has no more digits than they do (no 3e-18 leftovers) */
        int dec = n->val[v->col].dec > 0 ? n->val[v->col].dec : 6;
        if (dec > 9) dec = 9;
        double scale = pow(10, dec);
        t = round(t * scale) / scale;
        if (isfinite(t) && t > 0) fn(e, r, stack, d, t);
        n = ns_view_walk(v, n, r->root);
    }
    free(stack);
}

static void ns__folded_name(ns_buf *b, const char *s) {
    for (; *s; s++) ns_buf_putc(b, *s == ';' ? ':' : (*s == '\n' ? ' ' : *s));
}

static void ns__folded_line(ns_exporter *e, const ns_report *r,
                            const ns_node **stack, int depth, double self) {
    long long us = llround(self * 1e6);
    if (us <= 0) return;
    ns_buf *b = &e->b;
    ns__folded_name(b, r->label);
    for (int i = 1; i <= depth; i++) {
        ns_buf_putc(b, ';');
        ns__folded_name(b, stack[i]->name);
    }
    ns_buf_printf(b, " %lld\n", us);
    if (b->len > NS__FLUSH_AT && ns_buf_flush(b, e->out)) e->werr = 1;
}

/* The document opens with its profiles, which are written as they come
 * (each sample repeats its whole stack, so a deep tree makes megabytes of
 * them), and ends with the frames every sample refers to by index, the
 * only part kept until the end.  Key order means nothing in JSON. */
static void ns__speedscope_open(ns_buf *b) {
    ns_buf_puts(b, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
                   "\"exporter\":\"npuscope " NS_VERSION "\",\"name\":\"npuscope\","
                   "\"activeProfileIndex\":0,\"profiles\":[");
}

static void ns__speedscope_sample(ns_exporter *e, const ns_report *r,
                                  const ns_node **stack, int depth, double self) {
    ns_buf *p = &e->b;
    ns_buf_puts(p, e->weights.len ? ",[" : "[");
    for (int i = 0; i <= depth; i++) {
        const char *name = i == 0 ? r->label : stack[i]->name;
        size_t f = ns_strmap_intern(&e->frames, name, NULL);
        ns_buf_printf(p, "%s%zu", i ? "," : "", f);
    }
    ns_buf_putc(p, ']');
    ns_buf_printf(&e->weights, "%s%.9g", e->weights.len ? "," : "", self);
    e->weight_sum += self;
    if (p->len > NS__FLUSH_AT && ns_buf_flush(p, e->out)) e->werr = 1;
}

static void ns__speedscope_report(ns_exporter *e, const ns_report *r) {
    ns_buf *p = &e->b;
    if (e->n) ns_buf_putc(p, ',');
    else ns__speedscope_open(p);
    ns_buf_puts(p, "\n{\"type\":\"sampled\",\"name\":");
    ns_json_str(p, r->label);
    ns_buf_puts(p, ",\"unit\":\"seconds\",\"startValue\":0,\"samples\":[");
    e->weights.len = 0;
    e->weight_sum = 0;
    ns__stacks(e, r, ns__speedscope_sample);
    ns_buf_puts(p, "],\"weights\":[");
    ns_buf_add(p, e->weights.data ? e->weights.data : "", e->weights.len);
    ns_buf_printf(p, "],\"endValue\":%.9g}", e->weight_sum);
}

/* ====== Chrome trace ====== */

static void ns__chrome_report(ns_exporter *e, const ns_report *r) {
    ns_buf *b = &e->b;
    const ns_view *v = &e->o.view;
    /* pre-order array of kept nodes with parent links, then spans bottom-up */
    size_t cap = 256, cnt = 0;
    const ns_node **nodes = ns_xmalloc(sizeof *nodes * cap);
    long *parent = ns_xmalloc(sizeof *parent * cap);
    long cur = -1; /* index of the current node's parent chain top */
    for (const ns_node *n = r->root; n;) {
        if (cnt == cap) {
            cap *= 2;
            nodes = ns_xrealloc(nodes, sizeof *nodes * cap);
            parent = ns_xrealloc(parent, sizeof *parent * cap);
        }
        /* find the parent index by walking up from the previous node */
        while (cur >= 0 && nodes[cur] != n->parent) cur = parent[cur];
        nodes[cnt] = n;
        parent[cnt] = cur;
        cur = (long)cnt++;
        n = ns_view_walk(v, n, r->root);
    }
    /* A trace of several threads or async tracks has them as its
     * top-level rows (ns_report.tracks): they ran side by side, so each
     * starts at the report's start on a tid of its own, and the report
     * spans the longest -- laid one after another they would add up to
     * more than the trace took.  Every other report's rows are sequential. */
    int tracks = r->tracks;
    double *span = ns_xcalloc(cnt, sizeof *span);
    double *sum = ns_xcalloc(cnt, sizeof *sum);
    double *start = ns_xcalloc(cnt, sizeof *start);
    int *tid = ns_xcalloc(cnt, sizeof *tid);
    for (size_t i = cnt; i-- > 0;) {
        double t = ns_view_time(v, nodes[i]);
        if (!isfinite(t) || t < 0) t = 0;
        span[i] = t > sum[i] ? t : sum[i];
        if (parent[i] == 0 && tracks) {
            if (span[i] > sum[0]) sum[0] = span[i];
        } else if (parent[i] >= 0) {
            sum[parent[i]] += span[i];
        }
    }
    /* starts: children one after another from the parent's start */
    int unplaced = 0; /* rows too large for microseconds, left out */
    double *cursor = ns_xcalloc(cnt, sizeof *cursor);
    int ntid = 1; /* tid 1: the report's own row, and every row of a text report */
    for (size_t i = 0; i < cnt; i++) {
        tid[i] = 1;
        if (parent[i] == 0 && tracks) {
            start[i] = start[0];
            tid[i] = ++ntid;
        } else if (parent[i] >= 0) {
            long p = parent[i];
            start[i] = start[p] + cursor[p];
            cursor[p] += span[i];
            tid[i] = tid[p];
        }
        cursor[i] = 0;
        const ns_node *n = nodes[i];
        double t = ns_view_time(v, n);
        if (!isfinite(t) || t <= 0) continue; /* negative Rest: no box */
        if (!isfinite(start[i] * 1e6) || !isfinite(span[i] * 1e6)) {
            /* 1e308 s is a number, not a time a trace can place: said, not written as inf */
            if (!unplaced++)
                ns_diag_say(&e->o.diag, NS_DIAG_WARNING, r->file, n->line,
                            "'%s' (%g s) is too large for a trace's microseconds: left out of "
                            "the trace with the rows after it",
                            i == 0 ? r->label : n->name, t);
            continue;
        }
        ns_buf_puts(b, e->events ? ",\n" : "\n");
        e->events++;
        ns_buf_puts(b, "{\"name\":");
        ns_json_str(b, i == 0 ? r->label : n->name);
        ns_buf_printf(b, ",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,"
                         "\"pid\":%d,\"tid\":%d,\"args\":{",
                      ns_kind_name(n->kind), start[i] * 1e6, span[i] * 1e6,
                      r->index + 1, tid[i]);
        ns_buf_puts(b, "\"wall_s\":");
        ns_num_put_json(b, n->val[NS_COL_WALL]);
        ns_buf_puts(b, ",\"user_s\":");
        ns_num_put_json(b, n->val[NS_COL_USER]);
        /* stretched: the children add up to more than the row; rounding
         * noise of the sum (a few ulps) is not that */
        if (span[i] > t * (1 + 1e-12)) ns_buf_puts(b, ",\"stretched\":true");
        ns_buf_puts(b, "}}");
        if (b->len > NS__FLUSH_AT && ns_buf_flush(b, e->out)) e->werr = 1;
    }
    ns_buf_printf(b, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,"
                     "\"tid\":1,\"args\":{\"name\":",
                  e->events++ ? ",\n" : "\n", r->index + 1);
    ns_json_str(b, r->label);
    ns_buf_puts(b, "}}");
    /* each track's tid named after it, as the viewer shows threads */
    for (size_t i = 1; tracks && i < cnt; i++) {
        if (parent[i] != 0) continue;
        ns_buf_printf(b, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
                         "\"args\":{\"name\":",
                      r->index + 1, tid[i]);
        ns_json_str(b, nodes[i]->name);
        ns_buf_puts(b, "}}");
        e->events++;
    }
    free(tid);
    free(nodes);
    free(parent);
    free(span);
    free(sum);
    free(start);
    free(cursor);
}

/* ====== Original layout ====== */

static void ns__orig_banner(ns_buf *b, const char *title) {
    size_t tl = strlen(title);
    size_t pad = tl < 80 ? (80 - tl) / 2 : 0;
    ns_buf_puts(b, "===-------------------------------------------------------------------------===\n");
    ns_buf_pad(b, ' ', pad);
    ns_buf_puts(b, title);
    ns_buf_puts(b, "\n===-------------------------------------------------------------------------===\n");
}

/* llvm: LLVM's widths; legacy: MLIR's layout of 2020, whose every time
 * group is "  %7.4f (%5.1f%%)  " (two blanks after each, not only the last) */
static void ns__orig_cols(ns_buf *b, const ns_report *r, const ns_node *n, int llvm, int legacy) {
    int groups = 0;
    for (int i = 0; i < NS_COL_COUNT; i++) {
        ns_col c = ns_col_print_order[i];
        if (!(r->cols & NS_COLBIT(c)) || c == NS_COL_MEM || c == NS_COL_INSTR ||
            !ns_col_printed(c))
            continue;
        if (legacy && groups++) ns_buf_puts(b, "  ");
        if (!ns_num_present(n->val[c])) {
            ns_buf_puts(b, "        -----     ");
            continue;
        }
        ns_buf_puts(b, "  ");
        ns_num_put(b, n->val[c], llvm || legacy ? 7 : 8);
        ns_buf_puts(b, " (");
        if (ns_num_present(n->pct[c])) {
            ns_num_put(b, n->pct[c], 5);
        } else {
            /* read back from run.json: the percentage was not kept, so it
             * is recomputed from the printed values (the compiler used the
             * unrounded ones; the last digit can differ) */
            double t = r->root->val[c].v;
            ns_buf_printf(b, "%5.1f", t != 0 ? 100.0 * n->val[c].v / t : NAN);
        }
        ns_buf_puts(b, "%)");
    }
    ns_buf_puts(b, "  ");
    for (int c = NS_COL_MEM; c <= NS_COL_INSTR; c++)
        if (r->cols & NS_COLBIT(c)) {
            ns_num_put(b, n->val[c], 9);
            ns_buf_puts(b, "  ");
        }
}

static void ns__orig_text(ns_exporter *e, const ns_report *r) {
    ns_buf *b = &e->b;
    int llvm = r->producer == NS_PROD_LLVM;
    int legacy = r->producer == NS_PROD_MLIR_TEXT && r->legacy; /* LLVM's header */
    ns__orig_banner(b, r->title ? r->title : "");
    if (ns_num_present(r->header_total)) {
        ns_buf_puts(b, "  Total Execution Time: ");
        ns_num_put(b, r->header_total, llvm || legacy ? 5 : 0);
        ns_buf_puts(b, " seconds");
        if (ns_num_present(r->header_wall)) {
            ns_buf_puts(b, " (");
            ns_num_put(b, r->header_wall, 5);
            ns_buf_puts(b, " wall clock)");
        }
        ns_buf_putc(b, '\n');
    }
    ns_buf_putc(b, '\n');
    static const char *const mlir_h[NS_COL_COUNT] = {
        "  ----Wall Time----", "  ----User Time----", "", "", "", "", "", ""};
    static const char *const llvm_h[NS_COL_COUNT] = {
        "   ---Wall Time---", "   ---User Time---", "   --System Time--",
        "   --User+System--", "  ---Mem---", "  ---Instr---", "", ""};
    for (int i = 0; i < NS_COL_COUNT; i++) {
        ns_col c = ns_col_print_order[i];
        if ((r->cols & NS_COLBIT(c)) && ns_col_printed(c))
            ns_buf_puts(b, llvm || legacy ? llvm_h[c] : mlir_h[c]);
    }
    ns_buf_puts(b, llvm || legacy ? "  --- Name ---\n" : "  ----Name----\n");
    for (const ns_node *n = r->root->child; n; n = ns_node_next((ns_node *)n, r->root)) {
        ns__orig_cols(b, r, n, llvm, legacy);
        ns_buf_pad(b, ' ', (size_t)n->depth * 2);
        ns_buf_puts(b, n->name);
        ns_buf_putc(b, '\n');
        if (b->len > NS__FLUSH_AT && ns_buf_flush(b, e->out)) e->werr = 1;
    }
    if (r->complete) {
        ns__orig_cols(b, r, r->root, llvm, legacy);
        ns_buf_puts(b, "Total\n");
        if (llvm) ns_buf_putc(b, '\n');
    }
}

static void ns__orig_json_entry(ns_buf *b, const ns_node *n, int depth) {
    ns_buf_pad(b, ' ', (size_t)depth * 2);
    ns_buf_putc(b, '{');
    if (ns_num_present(n->val[NS_COL_USER])) {
        ns_buf_puts(b, "\"user\": {\"duration\": ");
        ns_num_put(b, n->val[NS_COL_USER], 8);
        ns_buf_puts(b, ", \"percentage\": ");
        ns_num_put(b, n->pct[NS_COL_USER], 5);
        ns_buf_puts(b, "}, ");
    }
    ns_buf_puts(b, "\"wall\": {\"duration\": ");
    ns_num_put(b, n->val[NS_COL_WALL], 8);
    ns_buf_puts(b, ", \"percentage\": ");
    ns_num_put(b, n->pct[NS_COL_WALL], 5);
    ns_buf_puts(b, "}, \"name\": \"");
    ns_buf_puts(b, n->name); /* unescaped, as MLIR prints it */
    ns_buf_putc(b, '"');
}

static void ns__orig_json(ns_exporter *e, const ns_report *r) {
    ns_buf *b = &e->b;
    ns_buf_puts(b, "[\n");
    if (r->list_mode) {
        for (const ns_node *n = r->root->child; n; n = n->next) {
            ns__orig_json_entry(b, n, 0);
            ns_buf_puts(b, "},\n");
        }
    } else {
        const ns_node *root = r->root;
        for (const ns_node *n = root->child; n;) {
            if (n->kind == NS_KIND_REST && n->depth == 0) {
                ns__orig_json_entry(b, n, 0);
                ns_buf_puts(b, "},\n");
                n = n->next;
                continue;
            }
            ns__orig_json_entry(b, n, n->depth);
            ns_buf_puts(b, ", \"passes\": [\n");
            if (n->child) {
                n = n->child;
                continue;
            }
            /* close n and every ancestor whose last child this is */
            for (;;) {
                ns_buf_pad(b, ' ', (size_t)n->depth * 2);
                ns_buf_puts(b, "{}]},\n");
                if (n->next || n->parent == root) break;
                n = n->parent;
            }
            n = n->next;
        }
    }
    if (r->complete) {
        ns__orig_json_entry(b, r->root, 0);
        ns_buf_puts(b, "}\n]\n");
    }
}

/* ====== Exporter ====== */

ns_exporter *ns_exporter_new(const ns_export_opts *o, FILE *out) {
    ns_exporter *e = ns_xcalloc(1, sizeof *e);
    e->o = *o;
    e->text = (ns_text_opts){o->view, o->color, o->width};
    e->out = out;
    ns_strmap_init(&e->frames);
    switch (o->format) {
    case NS_FMT_JSON:
        ns_tree_json_begin(&e->b, 0);
        break;
    case NS_FMT_CSV:
        ns_buf_puts(&e->b, "report,label,id,path,depth,name,kind,wall_s,user_s,self_s\n");
        break;
    case NS_FMT_CHROME:
        ns_buf_puts(&e->b, "{\"traceEvents\":[");
        break;
    default:
        break;
    }
    return e;
}

int ns_exporter_add(ns_exporter *e, const ns_report *r) {
    switch (e->o.format) {
    case NS_FMT_TEXT:
        ns_render_tree_text(&e->b, r, &e->text, e->out, &e->werr);
        break;
    case NS_FMT_JSON:
        ns_buf_puts(&e->b, e->n ? ",\n" : "\n");
        ns_json_report(&e->b, r, &e->o.view);
        break;
    case NS_FMT_CSV: ns__csv_report(e, r); break;
    case NS_FMT_FOLDED: ns__stacks(e, r, ns__folded_line); break;
    case NS_FMT_CHROME: ns__chrome_report(e, r); break;
    case NS_FMT_SPEEDSCOPE: ns__speedscope_report(e, r); break;
    case NS_FMT_ORIGINAL:
        if (r->producer == NS_PROD_MLIR_JSON) ns__orig_json(e, r);
        else if (r->producer == NS_PROD_TRACE)
            ns_diag_say(&e->o.diag, NS_DIAG_WARNING, r->file, 0,
                        "report %s is a trace; it has no text layout to print again",
                        r->label);
        else ns__orig_text(e, r);
        break;
    }
    e->n++;
    if (ns_buf_flush(&e->b, e->out)) e->werr = 1;
    return e->werr ? -1 : 0;
}

int ns_exporter_end(ns_exporter *e) {
    ns_buf *b = &e->b;
    switch (e->o.format) {
    case NS_FMT_JSON:
        if (e->o.load) ns_tree_json_end_load(b, e->o.load);
        else ns_tree_json_end(b);
        break;
    case NS_FMT_CHROME:
        ns_buf_puts(b, "\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":"
                       "\"npuscope " NS_VERSION "\",\"timeline\":\"synthetic: "
                       "timing reports hold durations, not start times; children "
                       "are laid out one after another inside their parent, and "
                       "a parent whose children add up to more than its own time "
                       "is stretched to hold them (args.stretched). Exact values "
                       "are in args.\"}}\n");
        break;
    case NS_FMT_SPEEDSCOPE:
        if (!e->n) ns__speedscope_open(b);
        ns_buf_puts(b, "\n],\"shared\":{\"frames\":[");
        for (size_t i = 0; i < e->frames.count; i++) {
            ns_buf_puts(b, i ? ",{\"name\":" : "{\"name\":");
            ns_json_str(b, e->frames.keys[i]);
            ns_buf_putc(b, '}');
        }
        ns_buf_puts(b, "]}}\n");
        break;
    default:
        break;
    }
    if (ns_buf_flush(b, e->out) || fflush(e->out)) e->werr = 1;
    int rc = e->werr ? -1 : 0;
    ns_buf_free(&e->b);
    ns_buf_free(&e->weights);
    ns_strmap_free(&e->frames);
    free(e);
    return rc;
}
