/* common.c -- allocation, the append buffer and diagnostics.
 *
 * Allocation failure is not recoverable in a command-line analyser: we print
 * one line and exit with the I/O status rather than thread NULL checks through
 * every parser.  Everything else here is deliberately boring.  The printing
 * half of the diagnostics (the counters, -q, the cap) is the commands' and
 * keeps its state here; the readers never reach it but through the sink a
 * command installs (ns_diag_print).
 */
#include "base/common.h"

#include <stdlib.h>
#include <string.h>

/* ====== Allocation ====== */

static void ns__oom(size_t n) {
    fprintf(stderr, "npuscope: out of memory (asked for %zu bytes)\n", n);
    exit(NS_EXIT_USAGE);
}

void *ns_xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) ns__oom(n);
    return p;
}

void *ns_xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) ns__oom(n * size);
    return p;
}

void *ns_xrealloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) ns__oom(n);
    return q;
}

char *ns_strndup(const char *s, size_t n) {
    char *d = ns_xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

char *ns_strdup(const char *s) { return ns_strndup(s, strlen(s)); }

/* ====== Append buffer ====== */

void ns_buf_grow(ns_buf *b, size_t extra) {
    if (b->len + extra + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) cap *= 2;
    b->data = ns_xrealloc(b->data, cap);
    b->cap = cap;
}

void ns_buf_add(ns_buf *b, const char *s, size_t n) {
    ns_buf_grow(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = 0;
}

void ns_buf_puts(ns_buf *b, const char *s) { ns_buf_add(b, s, strlen(s)); }

void ns_buf_putc(ns_buf *b, char c) { ns_buf_add(b, &c, 1); }

void ns_buf_pad(ns_buf *b, char c, size_t n) {
    ns_buf_grow(b, n);
    memset(b->data + b->len, c, n);
    b->len += n;
    b->data[b->len] = 0;
}

void ns_buf_printf(ns_buf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        ns_buf_add(b, small, (size_t)n);
        return;
    }
    ns_buf_grow(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void ns_buf_free(ns_buf *b) {
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

int ns_buf_flush(ns_buf *b, FILE *f) {
    int rc = 0;
    if (b->len && fwrite(b->data, 1, b->len, f) != b->len) rc = -1;
    b->len = 0;
    if (b->data) b->data[0] = 0;
    return rc;
}

/* ====== Diagnostics ====== */

#define NS__DIAG_SHOWN_MAX 50 /* warnings printed before we only count */

static long ns__errors;
static long ns__warnings;
static int ns__quiet;

static void ns__vdiag(const char *kind, const char *file, long line,
                      const char *fmt, va_list ap) {
    fputs("npuscope: ", stderr);
    if (file && line > 0)
        fprintf(stderr, "%s:%ld: ", file, line);
    else if (file)
        fprintf(stderr, "%s: ", file);
    if (kind) fputs(kind, stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void ns_warn_at(const char *file, long line, const char *fmt, ...) {
    ns__warnings++;
    if (ns__quiet || ns__warnings > NS__DIAG_SHOWN_MAX) return;
    va_list ap;
    va_start(ap, fmt);
    ns__vdiag("warning: ", file, line, fmt, ap);
    va_end(ap);
}

void ns_note_at(const char *file, const char *fmt, ...) {
    if (ns__quiet) return;
    va_list ap;
    va_start(ap, fmt);
    ns__vdiag(NULL, file, 0, fmt, ap);
    va_end(ap);
}

void ns_error_at(const char *file, long line, const char *fmt, ...) {
    ns__errors++;
    va_list ap;
    va_start(ap, fmt);
    ns__vdiag(NULL, file, line, fmt, ap);
    va_end(ap);
}

void ns_error(const char *fmt, ...) {
    ns__errors++;
    va_list ap;
    va_start(ap, fmt);
    ns__vdiag(NULL, NULL, 0, fmt, ap);
    va_end(ap);
}

long ns_error_count(void) { return ns__errors; }
long ns_warning_count(void) { return ns__warnings; }
int ns_diag_quiet(int quiet) {
    int was = ns__quiet;
    ns__quiet = quiet;
    return was;
}

/* ====== Diagnostics sinks and failure reasons ====== */

/* Format into `small`, or into a new buffer when it does not fit (then
 * *heap is set and the caller frees it). */
static const char *ns__vformat(char *small, size_t n, char **heap, const char *fmt,
                               va_list ap) {
    va_list again;
    va_copy(again, ap);
    int len = vsnprintf(small, n, fmt, ap);
    *heap = NULL;
    if (len >= 0 && (size_t)len >= n) {
        *heap = ns_xmalloc((size_t)len + 1);
        vsnprintf(*heap, (size_t)len + 1, fmt, again);
    }
    va_end(again);
    return *heap ? *heap : small;
}

void ns_diag_say(const ns_diag *d, ns_diag_kind kind, const char *file, long line,
                 const char *fmt, ...) {
    if (!d || !d->fn) return;
    char small[512], *heap;
    va_list ap;
    va_start(ap, fmt);
    const char *msg = ns__vformat(small, sizeof small, &heap, fmt, ap);
    va_end(ap);
    d->fn(d->ctx, kind, file, line, msg);
    free(heap);
}

void ns_diag_print(void *ctx, ns_diag_kind kind, const char *file, long line, const char *msg) {
    (void)ctx;
    if (kind == NS_DIAG_WARNING) ns_warn_at(file, line, "%s", msg);
    else ns_error_at(file, line, "%s", msg);
}

const ns_diag ns_diag_stderr = {ns_diag_print, NULL};

void ns_diag_count(void *ctx, ns_diag_kind kind, const char *file, long line, const char *msg) {
    (void)file;
    (void)line;
    (void)msg;
    ((long *)ctx)[kind]++;
}

int ns_fail(ns_why *why, long line, const char *fmt, ...) {
    if (!why) return -1;
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(why->text, sizeof why->text, fmt, ap);
    va_end(ap);
    if (len >= (int)sizeof why->text) memcpy(why->text + sizeof why->text - 4, "...", 4);
    why->line = line;
    return -1;
}

void ns_diag_why(const ns_diag *d, ns_diag_kind kind, const char *file, const ns_why *why,
                 const char *suffix) {
    ns_diag_say(d, kind, file, why->line, "%s%s", why->text, suffix ? suffix : "");
}

void ns_diag_summary(void) {
    if (!ns__quiet && ns__warnings > NS__DIAG_SHOWN_MAX)
        fprintf(stderr, "npuscope: %ld more warnings not shown\n",
                ns__warnings - NS__DIAG_SHOWN_MAX);
}

/* ====== Regular expressions from the command line ====== */

/* glibc's compile time grows faster than its node count (a 4,000-node
 * pattern of stacked '+' took 3 s, 12 s under ASan): real metric patterns
 * have tens of nodes, so the budget is far below where that starts. */
#define NS__REGEX_MAX_NODES 2000

/* The guard walks the pattern once, keeping per open group: its nodes so
 * far (after glibc's copies) and whether the current branch, and any
 * earlier one, can match empty. */
typedef struct {
    double nodes;     /* nodes of this group so far (of everything, outermost) */
    int branch_empty; /* the items of this branch before the last all match empty */
    int any_empty;    /* an earlier branch of this group matches empty */
    int has_last;     /* there is an item a repetition would apply to */
    int last_empty;   /* that item matches empty */
    double last;      /* its nodes */
} ns__re_level;

static void ns__re_branch_start(ns__re_level *l) {
    l->branch_empty = 1;
    l->has_last = 0;
    l->last_empty = 1;
    l->last = 0;
}

/* A new item of `nodes` nodes becomes the last one. */
static void ns__re_item(ns__re_level *l, double nodes, int empty) {
    if (l->has_last) l->branch_empty = l->branch_empty && l->last_empty;
    l->last = nodes;
    l->nodes += nodes;
    l->has_last = 1;
    l->last_empty = empty;
}

/* The last item repeated: glibc makes `copies` copies of it.  `loop`: the
 * repetition may run more than once.  Returns 1 when it loops over
 * something that can match empty. */
static int ns__re_repeat(ns__re_level *l, double copies, int loop, int may_skip) {
    if (!l->has_last) return 0; /* glibc refuses a repetition of nothing */
    if (loop && l->last_empty) return 1;
    l->nodes += l->last * (copies - 1);
    l->last *= copies;
    if (may_skip) l->last_empty = 1;
    return 0;
}

const char *ns_regex_refusal(const char *re) {
    static const char *const too_big =
        "repeats repetitions too deeply to compile in reasonable time and memory";
    static const char *const empty_loop =
        "repeats something that can match nothing (as x** or (x?)+ do), which glibc's regex "
        "engine can take minutes over";
    ns__re_level st[65];
    int sp = 0;
    ns__re_level *l = &st[0];
    memset(l, 0, sizeof *l);
    ns__re_branch_start(l);
    for (const char *p = re; *p; p++) {
        switch (*p) {
        case '\\':
            if (!p[1]) {
                ns__re_item(l, 1, 0);
                break;
            }
            p++;
            if (*p >= '1' && *p <= '9')
                return "has a back-reference (\\1 to \\9), which glibc's regex engine can take "
                       "exponential time over";
            /* GNU's word and buffer anchors match empty */
            ns__re_item(l, 1, strchr("bB<>`'", *p) != NULL);
            break;
        case '^':
        case '$':
            ns__re_item(l, 1, 1);
            break;
        case '[': { /* a bracket expression is one atom */
            const char *q = p + 1;
            if (*q == '^') q++;
            if (*q == ']') q++;
            while (*q && *q != ']') q++;
            p = *q ? q : q - 1;
            ns__re_item(l, 1, 0);
            break;
        }
        case '(':
            if (sp == 64) return too_big;
            l = &st[++sp];
            memset(l, 0, sizeof *l);
            ns__re_branch_start(l);
            break;
        case ')': {
            if (sp == 0) { /* glibc takes an unmatched ')' as a literal */
                ns__re_item(l, 1, 0);
                break;
            }
            /* the group is a node of its own, even when empty: "(())+++..."
             * doubles a subtree that counting only atoms would call 0 */
            int empty = l->any_empty || (l->branch_empty && l->last_empty);
            double nodes = l->nodes + 1;
            l = &st[--sp];
            ns__re_item(l, nodes, empty);
            break;
        }
        case '|':
            l->any_empty = l->any_empty || (l->branch_empty && l->last_empty);
            ns__re_branch_start(l);
            break;
        case '*':
            if (ns__re_repeat(l, 1, 1, 1)) return empty_loop;
            break;
        case '+': /* glibc copies X for X+ */
            if (ns__re_repeat(l, 2, 1, 0)) return empty_loop;
            break;
        case '?':
            ns__re_repeat(l, 1, 0, 1);
            break;
        case '{': {
            long m = 0, n = 0;
            int comma = 0, upper = 0;
            const char *q = p + 1;
            while (*q >= '0' && *q <= '9' && m < 100000) m = m * 10 + (*q++ - '0');
            if (*q == ',') {
                comma = 1;
                q++;
                while (*q >= '0' && *q <= '9' && n < 100000) n = n * 10 + (*q++ - '0'), upper = 1;
            }
            long most = comma ? (upper ? n : -1) : m; /* -1: unbounded */
            if (ns__re_repeat(l, (double)(m > n ? m : n) + 1, most < 0 || most > 1, m == 0))
                return empty_loop;
            while (*q && *q != '}') q++;
            p = *q ? q : q - 1;
            break;
        }
        default:
            ns__re_item(l, 1, 0);
        }
        double nodes = 0;
        for (int i = 0; i <= sp; i++) nodes += st[i].nodes;
        if (nodes > NS__REGEX_MAX_NODES || l->last > NS__REGEX_MAX_NODES) return too_big;
    }
    return NULL;
}
