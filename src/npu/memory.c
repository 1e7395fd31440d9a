/* memory.c -- per-pass memory from the memory-usage-collector (see memory.h).
 *
 * Which row a line belongs to.  The line names the pass as the timing
 * report does (pass->getName()), but a name can occur many times in one
 * report (Canonicalizer, some 200 times in an NPU40XX compile) and the
 * line carries nothing else: no position, no function.  What it does
 * carry is its order: the collector logs after each pass as the pass
 * manager runs them, and the report lists the rows in the order they first
 * ran.  So a cursor walks the report's rows in that order (pre-order): a
 * line goes to the first row of its name after the previous line's row,
 * and when there is none, to the nearest one at or before it -- which is
 * where a nested pipeline that runs once per function (after the
 * compiler's Outliner) brings its passes round again.  The one thing the
 * order cannot tell apart: when a function's second round of a nested
 * pipeline logs a pass whose name also comes later in the report, the line
 * goes to that later row.  A pass can also log several lines (one per
 * function it ran on); its row keeps the largest peak and the summed
 * increase.
 *
 * MLIR's own adaptor passes run the nested pipelines and are passes to the
 * instrumentation too; their name is the C++ type
 * (mlir::detail::OpToOpPassAdaptor), which is no row of the report: their
 * lines are dropped.  A line naming no row at all is counted and, once per
 * report, a warning says so: it means the lines were logged by a compile
 * whose report is not the one they were tied to.
 *
 * Quiet like the rest of the npu layer: the warning goes to the sink.
 */
#include "npu/memory.h"

#include <stdlib.h>
#include <string.h>

/* ====== The line ====== */

/* The text before the pass name, and after it (the name itself may hold
 * quotes: the last "' pass: " ends it). */
#define NS__MEM_HEAD "Peak memory usage after '"
#define NS__MEM_MID "' pass: "

/* A number at *p (digits, an optional sign), *p moved past it; -1 if none. */
static int ns__mem_num(const char **p, const char *end, double *v) {
    ns_num x;
    if (ns_num_parse(p, end, &x) != 0 || x.dec != 0) return -1;
    *v = x.v;
    return 0;
}

/* Does s (up to end) start with the literal? Moves *p past it. */
static int ns__mem_lit(const char **p, const char *end, const char *lit) {
    size_t l = strlen(lit);
    if ((size_t)(end - *p) < l || memcmp(*p, lit, l) != 0) return 0;
    *p += l;
    return 1;
}

int ns_npu_memline_parse(const char *s, size_t n, const char **name, size_t *name_len,
                         double *peak_kb, double *inc_kb) {
    const size_t hl = sizeof NS__MEM_HEAD - 1, ml = sizeof NS__MEM_MID - 1;
    const char *end = s + n, *head = NULL;
    for (const char *q = s; q + hl <= end; q++)
        if (*q == 'P' && !memcmp(q, NS__MEM_HEAD, hl)) {
            head = q + hl;
            break;
        }
    if (!head) return 0;
    const char *mid = NULL;
    for (const char *q = head; q + ml <= end; q++)
        if (*q == '\'' && !memcmp(q, NS__MEM_MID, ml)) mid = q;
    if (!mid || mid == head) return 0;
    const char *p = mid + ml;
    if (ns__mem_num(&p, end, peak_kb) || !ns__mem_lit(&p, end, " kB, increase ") ||
        ns__mem_num(&p, end, inc_kb) || !ns__mem_lit(&p, end, " kB"))
        return 0;
    *name = head;
    *name_len = (size_t)(mid - head);
    return 1;
}

/* ====== Collecting ====== */

static void ns__lines_push(ns_npu_memlines *l, ns_npu_memline x) {
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->lines = ns_xrealloc(l->lines, sizeof *l->lines * (size_t)l->cap);
    }
    l->lines[l->n++] = x;
}

static void ns__lines_free(ns_npu_memlines *l) {
    for (int i = 0; i < l->n; i++) free(l->lines[i].pass);
    free(l->lines);
    memset(l, 0, sizeof *l);
}

/* Does the line announce a weights-separation Init part ("Compile
 * Init[{0}]", logger vpux-compiler)? */
static int ns__init_marker(const char *s, size_t n) {
    static const char key[] = "Compile Init[";
    const size_t kl = sizeof key - 1;
    for (size_t i = 0; i + kl <= n; i++)
        if (s[i] == 'C' && !memcmp(s + i, key, kl)) return 1;
    return 0;
}

int ns_npu_mem_line(ns_npu_mem *m, const char *s, size_t n) {
    const char *name;
    size_t len;
    double peak, inc;
    if (!ns_npu_memline_parse(s, n, &name, &len, &peak, &inc)) {
        if (ns__init_marker(s, n)) { /* the lines so far are the main part's */
            for (int i = 0; i < m->next.n; i++) ns__lines_push(&m->later, m->next.lines[i]);
            m->next.n = 0;
            m->init_next = 1;
        }
        return 0;
    }
    ns__lines_push(&m->next, (ns_npu_memline){ns_strndup(name, len), peak, inc});
    return 1;
}

void ns_npu_mem_reset(ns_npu_mem *m) {
    ns__lines_free(&m->next);
    ns__lines_free(&m->later);
    m->init_next = 0;
}

/* ====== Attaching ====== */

/* Add one line's numbers to a row: the largest peak, the summed increase. */
static void ns__mem_add(ns_node *row, const ns_npu_memline *l) {
    ns_num *pk = &row->val[NS_COL_MEM_PEAK], *in = &row->val[NS_COL_MEM_INC];
    if (!ns_num_present(*pk) || l->peak_kb > pk->v) *pk = (ns_num){l->peak_kb, 0, 0};
    if (!ns_num_present(*in)) *in = (ns_num){l->inc_kb, 0, 0};
    else in->v += l->inc_kb;
}

/* The row for pass `name`: the first after the cursor, else the nearest at
 * or before it (see the top of the file); -1 when no row has the name. */
static long ns__mem_find(ns_node *const *rows, long nrows, long cursor, const char *name) {
    for (long i = cursor + 1; i < nrows; i++)
        if (!strcmp(rows[i]->name, name)) return i;
    for (long i = cursor < nrows ? cursor : nrows - 1; i >= 0; i--)
        if (!strcmp(rows[i]->name, name)) return i;
    return -1;
}

int ns_npu_mem_attach(ns_npu_mem *m, ns_report *r, const ns_diag *d) {
    /* an Init part's report takes its own lines; the next other report
     * takes the ones set aside before them, then its own */
    ns_npu_memlines own = m->next, *mine = &m->next;
    if (!m->init_next && m->later.n) {
        for (int i = 0; i < own.n; i++) ns__lines_push(&m->later, own.lines[i]);
        free(own.lines);
        m->next = m->later;
        memset(&m->later, 0, sizeof m->later);
    }
    m->init_next = 0;
    if (!mine->n) return 0;
    /* the rows a line can name, in the order the report lists them */
    long nrows = 0, cap = r->nnodes > 0 ? r->nnodes : 1;
    ns_node **rows = ns_xmalloc(sizeof *rows * (size_t)cap);
    for (ns_node *n = ns_node_next(r->root, r->root); n; n = ns_node_next(n, r->root)) {
        if (n->kind == NS_KIND_REST || n->kind == NS_KIND_TOTAL || n->kind == NS_KIND_ANALYSIS)
            continue;
        if (nrows == cap) {
            cap *= 2;
            rows = ns_xrealloc(rows, sizeof *rows * (size_t)cap);
        }
        rows[nrows++] = n;
    }
    long cursor = -1;
    int unmatched = 0, attached = 0;
    const char *first = NULL;
    for (int i = 0; i < mine->n; i++) {
        const ns_npu_memline *l = &mine->lines[i];
        long k = ns__mem_find(rows, nrows, cursor, l->pass);
        if (k < 0) {
            if (strstr(l->pass, "OpToOpPassAdaptor")) continue; /* MLIR's adaptor: no row */
            if (!unmatched++) first = l->pass;
            continue;
        }
        ns__mem_add(rows[k], l);
        cursor = k;
        attached++;
    }
    if (attached) r->cols |= NS_COLBIT(NS_COL_MEM_PEAK) | NS_COLBIT(NS_COL_MEM_INC);
    if (unmatched)
        ns_diag_say(d, NS_DIAG_WARNING, r->file, r->line,
                    "report %s: %d memory-usage-collector line%s before it name%s no row of "
                    "it (first: '%s'); left out",
                    r->label, unmatched, unmatched == 1 ? "" : "s", unmatched == 1 ? "s" : "",
                    first);
    free(rows);
    ns__lines_free(mine);
    return unmatched;
}
