/* common.h -- what every npuscope module shares: the append
 * buffer, allocation that never returns NULL, and diagnostics.
 *
 * Ownership rule (stated once, for the whole program, without exception):
 * a pointer changes hands only where a name says so.
 *   - A function that returns a pointer to heap memory has "new" or "dup"
 *     in its name (ns_report_new, ns_trace_report_new, ns_strdup), and the
 *     caller frees it -- with the matching *_free where there is one.  The
 *     allocators ns_xmalloc, ns_xcalloc and ns_xrealloc are malloc itself,
 *     the one place every such pointer starts.
 *   - A sink (ns_sink, scan.h) takes the report it is handed; a scanner
 *     hook's begin, finish and end give back a report it held (scan.h).
 * Every other pointer is borrowed and stays owned by the object it came
 * from.  Reports own all their nodes and strings (see report.h); nothing
 * else frees them.
 *
 * Diagnostics follow one shape, on stderr:
 *     npuscope: FILE:LINE: message        (a problem tied to an input line)
 *     npuscope: message                   (anything else)
 * Warnings never stop the run; errors set the exit code.  The first
 * diagnostics are printed and the rest only counted, so that a 1 GB log of
 * garbage cannot flood the terminal.  Only the commands print them: the
 * layers that read input (parse/, npu/) hand what they have to say to a
 * sink, and a reader that gives up says why in a failure reason (both
 * below); the caller decides what becomes of either.
 */
#ifndef NPUSCOPE_COMMON_H
#define NPUSCOPE_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define NS_VERSION "0.1.0"

/* Exit codes: one name per meaning, in base/exit.h. */
#include "base/exit.h"

/* ====== Allocation ====== */
void *ns_xmalloc(size_t n);
void *ns_xcalloc(size_t n, size_t size);
void *ns_xrealloc(void *p, size_t n);
/* An array indexed by an id (a name's in a string map), grown to hold index
 * `id`: *cap doubles from 64 until it is past id, and the new elements are
 * zero, so that 0 can mean "not seen yet".  Returns the array. */
void *ns_grow_zeroed(void *p, size_t *cap, size_t id, size_t size);
char *ns_strdup(const char *s);
char *ns_strndup(const char *s, size_t n);

/* ====== Append buffer ======
 * Output is built in one of these and written once (or in large chunks),
 * never printf'd piece by piece to the terminal. */
typedef struct {
    char *data;   /* bytes, always NUL-terminated when len > 0 */
    size_t len;   /* bytes used, excluding the terminating NUL */
    size_t cap;   /* bytes allocated */
} ns_buf;

void ns_buf_grow(ns_buf *b, size_t extra);
void ns_buf_add(ns_buf *b, const char *s, size_t n);
void ns_buf_puts(ns_buf *b, const char *s);
void ns_buf_putc(ns_buf *b, char c);
void ns_buf_printf(ns_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void ns_buf_pad(ns_buf *b, char c, size_t n);   /* n copies of c */
void ns_buf_free(ns_buf *b);
/* Write the buffer to f and empty it; returns 0, or -1 on a write error. */
int ns_buf_flush(ns_buf *b, FILE *f);

/* ====== Diagnostics ====== */
void ns_warn_at(const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void ns_error_at(const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void ns_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Information that is neither a warning nor an error ("FILE: message"):
 * silenced by -q, never counted. */
void ns_note_at(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Number of errors and warnings issued so far (for exit codes and the
 * "N more warnings not shown" summary). */
long ns_error_count(void);
long ns_warning_count(void);
/* Print "npuscope: N more warnings not shown" if any were suppressed. */
void ns_diag_summary(void);
/* Silence warnings (or not); returns the previous setting. */
int ns_diag_quiet(int quiet);

/* ====== Diagnostics sinks ======
 * What a reader has to say about its input -- a warning about a line, an
 * input it cannot read -- goes, with its file and line, to the sink its
 * caller hands it.  The commands install ns_diag_stderr (ns_diag_print:
 * the shapes above, counted, -q, the first 50 shown), so a message reads
 * the same wherever it comes from; the fuzz targets install a counter; a
 * sink whose fn is NULL drops everything. */
typedef enum {
    NS_DIAG_WARNING, /* the input is read on (counted; -q silences it) */
    NS_DIAG_ERROR,   /* something could not be read, and why */
} ns_diag_kind;

typedef void (*ns_diag_fn)(void *ctx, ns_diag_kind kind, const char *file, long line,
                           const char *msg);
typedef struct {
    ns_diag_fn fn; /* receives each message; NULL: messages are dropped */
    void *ctx;     /* its state */
} ns_diag;

/* Format a message and hand it to d (nothing when d or d->fn is NULL).
 * file may be NULL and line 0, as for ns_warn_at. */
void ns_diag_say(const ns_diag *d, ns_diag_kind kind, const char *file, long line,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The commands' sink: a warning as ns_warn_at prints it, an error as
 * ns_error_at does (ctx unused). */
void ns_diag_print(void *ctx, ns_diag_kind kind, const char *file, long line, const char *msg);
extern const ns_diag ns_diag_stderr; /* {ns_diag_print, NULL} */
/* A sink that only counts: ctx is a long[2], indexed by ns_diag_kind (the
 * fuzz targets' sink; tests use it to see that something was said). */
void ns_diag_count(void *ctx, ns_diag_kind kind, const char *file, long line, const char *msg);

/* ====== Failure reasons ======
 * A reader that makes one thing or nothing (a trace's report, one
 * run.json, a file the compiler left) says why it made nothing in an
 * ns_why its caller hands it -- stb's stbi_failure_reason, kept by the
 * caller instead of in a global -- and returns NULL or -1.  The caller
 * decides what the reason is: an error, a warning that skips one input,
 * or nothing.  (A reason that is a fixed sentence is a `const char **why`
 * instead: ns_report_from_json_new, ns_field_parse.) */
#define NS_WHY_MAX 1024 /* a longer reason is cut, ending in "..." */
typedef struct {
    char text[NS_WHY_MAX]; /* the reason, "" while there is none */
    long line;             /* the input line it concerns; 0: the whole input */
} ns_why;

/* Record a reason (why may be NULL: nobody asked) and return -1, so that a
 * reader ends with `return ns_fail(why, line, "...", ...)`. */
int ns_fail(ns_why *why, long line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Hand a reason on to a sink as a message of that kind about `file`, with
 * `suffix` appended ("; run skipped", or ""). */
void ns_diag_why(const ns_diag *d, ns_diag_kind kind, const char *file, const ns_why *why,
                 const char *suffix);

#endif
