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
    exit(NS_EXIT_NOMEM);
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

void *ns_grow_zeroed(void *p, size_t *cap, size_t id, size_t size) {
    if (id < *cap) return p;
    size_t n = *cap ? *cap : 64;
    while (n <= id) n *= 2;
    p = ns_xrealloc(p, size * n);
    memset((char *)p + size * *cap, 0, size * (n - *cap));
    *cap = n;
    return p;
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

/* s as a terminal may safely show it: C0 controls and DEL (an escape
 * sequence, a newline that would forge a line of output, a carriage return
 * that would overwrite one) and the C1 controls in UTF-8 (U+0080-U+009F,
 * CSI among them) as visible escapes, \x1b and \u009B -- the forms
 * base/display.c writes for names in tables (which this file, below it,
 * cannot call). */
static void ns__put_shown(FILE *f, const char *s) {
    for (const unsigned char *u = (const unsigned char *)s; *u; u++) {
        if (*u < 0x20 || *u == 0x7f) fprintf(f, "\\x%02x", *u);
        else if (*u == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f) fprintf(f, "\\u%04X", *++u);
        else fputc(*u, f);
    }
}

static void ns__vdiag(const char *kind, const char *file, long line,
                      const char *fmt, va_list ap) {
    /* the file name and the message are data: both escaped */
    ns_buf msg = {0};
    char small[512];
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(small, sizeof small, fmt, aq);
    va_end(aq);
    if (n >= 0 && (size_t)n < sizeof small) ns_buf_puts(&msg, small);
    else if (n >= 0) {
        ns_buf_grow(&msg, (size_t)n);
        vsnprintf(msg.data, (size_t)n + 1, fmt, ap);
        msg.len = (size_t)n;
    }
    fputs("npuscope: ", stderr);
    if (file) {
        ns__put_shown(stderr, file);
        if (line > 0) fprintf(stderr, ":%ld", line);
        fputs(": ", stderr);
    }
    if (kind) fputs(kind, stderr);
    ns__put_shown(stderr, msg.data ? msg.data : "");
    fputc('\n', stderr);
    ns_buf_free(&msg);
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
