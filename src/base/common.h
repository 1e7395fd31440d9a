/* common.h -- what every npuscope module shares: the append
 * buffer, allocation that never returns NULL, and diagnostics.
 *
 * Ownership rule (stated once, for the whole program): a function that
 * returns a pointer to heap memory says so in its name with "new" or "dup",
 * and the caller frees it; every other pointer is borrowed and stays owned by
 * the object it came from.  Reports own all their nodes and strings (see
 * report.h); nothing else frees them.
 *
 * Diagnostics follow one shape, on stderr:
 *     npuscope: FILE:LINE: message        (a problem tied to an input line)
 *     npuscope: message                   (anything else)
 * Warnings never stop the run; errors set the exit code.  The first
 * diagnostics are printed and the rest only counted, so that a 1 GB log of
 * garbage cannot flood the terminal.
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

#endif
