/* width.c -- text fitted to a terminal's width (rules in width.h).
 *
 * Three small tools and no policy: counting characters, shortening a name
 * in its middle, and wrapping a sentence at blanks.  What to shorten, what
 * to drop and what to say about it is decided by the views that call them.
 */
#include "render/width.h"

#include <stdlib.h>
#include <string.h>

/* ====== Counting ====== */

size_t ns_width_of(const char *s) {
    size_t w = 0;
    for (; *s; s++) w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

/* Byte offset of character k of s (its length when s has fewer). */
static size_t ns__char_at(const char *s, size_t k) {
    size_t c = 0, i = 0;
    for (; s[i]; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80 && c++ == k) return i;
    return i;
}

/* ====== Shortening ====== */

void ns_width_put_short(ns_buf *b, const char *s, size_t max) {
    size_t n = ns_width_of(s);
    if (n <= max || max < 3) {
        ns_buf_puts(b, s);
        return;
    }
    /* the end is kept one character longer: it tells names apart more often */
    size_t keep = max - 1, tail = (keep + 1) / 2, head = keep - tail;
    ns_buf_add(b, s, ns__char_at(s, head));
    ns_buf_puts(b, "\xe2\x80\xa6");
    ns_buf_puts(b, s + ns__char_at(s, n - tail));
}

/* ====== Wrapping ====== */

/* Is s[0..n) a number ("0.2385", "x1.617", "-10.4%", "1e-3")?  A number is
 * never cut; a word that only holds digits (a path, file:line) may be. */
static int ns__is_number(const char *s, size_t n) {
    int digit = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] >= '0' && s[i] <= '9') digit = 1;
        else if (!strchr("+-.eE%x(),;", s[i])) return 0;
    }
    return digit;
}

void ns_width_wrap(ns_buf *b, const char *text, size_t width, size_t at, size_t indent) {
    if (!width) {
        for (const char *q = text; *q; q++) ns_buf_putc(b, *q == NS_WIDTH_NBSP ? ' ' : *q);
        ns_buf_putc(b, '\n');
        return;
    }
    size_t col = at;
    int first = 1; /* no word on this line yet */
    const char *p = text;
    while (*p) {
        size_t lead = 0;
        while (p[lead] == ' ') lead++;
        if (!p[lead]) break;
        const char *w = p + lead;
        size_t wl = strcspn(w, " ");
        char *word = ns_strndup(w, wl);
        size_t ww = ns_width_of(word);
        size_t gap = lead; /* blanks as written, but none at the start of a new line */
        if (!first && col + gap + ww > width) { /* a new line */
            ns_buf_putc(b, '\n');
            ns_buf_pad(b, ' ', indent);
            col = indent;
            gap = 0;
        }
        ns_buf_pad(b, ' ', gap);
        col += gap;
        if (col + ww > width && width > col + 3 && !ns__is_number(word, wl)) {
            ns_width_put_short(b, word, width - col);
            col = width;
        } else {
            for (const char *q = word; *q; q++) ns_buf_putc(b, *q == NS_WIDTH_NBSP ? ' ' : *q);
            col += ww;
        }
        first = 0;
        free(word);
        p = w + wl;
    }
    ns_buf_putc(b, '\n');
}
