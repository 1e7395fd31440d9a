/* jsonw.c -- JSON string and CSV field writers (see jsonw.h). */
#include "base/jsonw.h"

#include "base/display.h"

#include <string.h>

size_t ns_utf8_len(const unsigned char *s, size_t n) {
    unsigned char c = s[0];
    size_t len;
    unsigned min;
    unsigned cp;
    if (c < 0x80) return 1;
    if (c >= 0xc2 && c <= 0xdf) len = 2, cp = c & 0x1f, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef) len = 3, cp = c & 0x0f, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4) len = 4, cp = c & 0x07, min = 0x10000;
    else return 0;
    if (n < len) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return len;
}

void ns_json_strn(ns_buf *b, const char *s, size_t n) {
    const unsigned char *u = (const unsigned char *)s;
    ns_buf_grow(b, n + 2);
    ns_buf_putc(b, '"');
    for (size_t i = 0; i < n;) {
        unsigned char c = u[i];
        if (c == '"' || c == '\\') {
            ns_buf_putc(b, '\\');
            ns_buf_putc(b, (char)c);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            switch (c) {
            case '\n': ns_buf_puts(b, "\\n"); break;
            case '\t': ns_buf_puts(b, "\\t"); break;
            case '\r': ns_buf_puts(b, "\\r"); break;
            default: ns_buf_printf(b, "\\u%04x", c);
            }
            i++;
        } else if (c < 0x80) {
            /* '<' escaped so that JSON embedded in HTML cannot close a script */
            if (c == '<') ns_buf_puts(b, "\\u003c");
            else ns_buf_putc(b, (char)c);
            i++;
        } else {
            size_t k = ns_utf8_len(u + i, n - i);
            if (k == 0) {
                ns_buf_puts(b, "\\ufffd");
                i++;
            } else {
                ns_buf_add(b, s + i, k);
                i += k;
            }
        }
    }
    ns_buf_putc(b, '"');
}

void ns_json_str(ns_buf *b, const char *s) { ns_json_strn(b, s, strlen(s)); }

int ns_csv_raw;

/* A plain decimal number: [+-]digits[.digits][e[+-]digits], at least one
 * digit before the exponent. */
static int ns__plain_number(const char *s) {
    int digits = 0;
    if (*s == '+' || *s == '-') s++;
    for (; *s >= '0' && *s <= '9'; s++) digits++;
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++) digits++;
    if (!digits) return 0;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-') s++;
        if (!(*s >= '0' && *s <= '9')) return 0;
        while (*s >= '0' && *s <= '9') s++;
    }
    return *s == 0;
}

void ns_csv_field(ns_buf *b, const char *s) {
    /* a CSV is read by people too (cat, a terminal, a spreadsheet): controls
     * and bidi characters as visible escapes, as everywhere a name is shown */
    ns_buf shown = {0};
    /* a formula a spreadsheet would run: a quote in front (OWASP) */
    int formula = !ns_csv_raw && (strchr("=+-@\t\r", s[0]) && s[0]) && !ns__plain_number(s);
    if (ns_display_needs(s)) {
        ns_display_name(&shown, s);
        s = shown.data;
    }
    if (!formula && !strpbrk(s, ",\"\r\n")) {
        ns_buf_puts(b, s);
        ns_buf_free(&shown);
        return;
    }
    ns_buf_putc(b, '"');
    if (formula) ns_buf_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '"') ns_buf_putc(b, '"');
        ns_buf_putc(b, *s);
    }
    ns_buf_putc(b, '"');
    ns_buf_free(&shown);
}
