/* display.h -- a name as a person may safely see it.
 *
 * Pass names, labels and tag values come from the compile's output and
 * the user's command line, so they can hold anything: a BEL or backspace
 * that reaches a terminal rings or rewrites what is shown, and a bidi
 * control (U+202E right-to-left override) reverses the rest of the line --
 * a key finding's numbers included ("...sti ;troper 1 ni s 160.1 eht fo
 * %9.82..."): a name could change what figures a reader sees.  Wherever
 * npuscope shows a name to a person (the terminal, the page, CSV), such
 * characters are written as visible escapes instead: \x07 for C0 controls
 * and DEL, \u202E for C1 controls and the bidi controls (U+061C, U+200E,
 * U+200F, U+202A-U+202E, U+2066-U+2069).  JSON outputs keep names exact
 * (JSON escapes what it must); nothing here changes what is stored.
 */
#ifndef NPUSCOPE_DISPLAY_H
#define NPUSCOPE_DISPLAY_H

#include "base/common.h"

/* If s (n bytes) starts with a character to escape, its code point (> 0)
 * and its length in *len; else 0. */
unsigned ns_display_control(const char *s, size_t n, size_t *len);
/* Append s with every such character as its visible escape. */
void ns_display_name(ns_buf *b, const char *s);
/* Does s hold any? (to skip the copy when it does not) */
int ns_display_needs(const char *s);

#endif
