/* jsonw.h -- writing JSON and CSV text safely.
 *
 * Names come from logs nobody controls: they may hold quotes, control bytes
 * or invalid UTF-8.  These writers always produce valid output: JSON strings
 * escape what must be escaped and replace invalid UTF-8 with U+FFFD; CSV
 * fields are quoted when they hold a comma, quote or line break.
 *
 * A CSV is opened in spreadsheets, which run a cell that starts with =, +,
 * - or @ (and, after trimming, a tab or CR) as a formula: a pass named
 * =HYPERLINK(...) would be one click from sending data away.  As OWASP's
 * "CSV Injection" page recommends, such a field is written with a single
 * quote in front and quoted ("'=HYPERLINK(...)"), unless it is a plain
 * decimal number (-1.5, +3e-2: a number, never a formula).  ns_csv_raw
 * (--csv-raw) turns this off for tools that want the raw text.
 */
#ifndef NPUSCOPE_JSONW_H
#define NPUSCOPE_JSONW_H

#include "base/common.h"

void ns_json_str(ns_buf *b, const char *s);   /* "..." with escapes */
/* Length of the valid UTF-8 sequence at s (n bytes left), or 0 when the
 * bytes there are not one (overlong, surrogate, past U+10FFFF, cut short). */
size_t ns_utf8_len(const unsigned char *s, size_t n);
void ns_json_strn(ns_buf *b, const char *s, size_t n);
void ns_csv_field(ns_buf *b, const char *s);  /* RFC 4180 field, neutralised */
/* 1: ns_csv_field writes formula-like fields as they are (--csv-raw). */
extern int ns_csv_raw;

#endif
