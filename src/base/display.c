/* display.c -- visible escapes for controls in names (display.h). */
#include "base/display.h"

#include <string.h>

unsigned ns_display_control(const char *s, size_t n, size_t *len) {
    const unsigned char *u = (const unsigned char *)s;
    if (n == 0) return 0;
    if (u[0] < 0x20 || u[0] == 0x7f) {
        *len = 1;
        return u[0] ? u[0] : 0x100; /* NUL: a code point the caller prints as \x00 */
    }
    if (n >= 2 && u[0] == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f) { /* C1 */
        *len = 2;
        return u[1];
    }
    if (n >= 2 && u[0] == 0xd8 && u[1] == 0x9c) { /* U+061C arabic letter mark */
        *len = 2;
        return 0x061c;
    }
    if (n >= 3 && u[0] == 0xe2 && u[1] == 0x80 &&
        ((u[2] >= 0x8e && u[2] <= 0x8f) || (u[2] >= 0xaa && u[2] <= 0xae))) {
        *len = 3;
        return 0x2000u + (u[2] - 0x80u);
    }
    if (n >= 3 && u[0] == 0xe2 && u[1] == 0x81 && u[2] >= 0xa6 && u[2] <= 0xa9) {
        *len = 3;
        return 0x2040u + (u[2] - 0x80u);
    }
    return 0;
}

int ns_display_needs(const char *s) {
    size_t n = strlen(s), len;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 || c == 0x7f || c == 0xc2 || c == 0xd8 || c == 0xe2) &&
            ns_display_control(s + i, n - i, &len))
            return 1;
    }
    return 0;
}

void ns_display_name(ns_buf *b, const char *s) {
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        size_t len = 0;
        unsigned cp = ns_display_control(s + i, n - i, &len);
        if (!cp) {
            ns_buf_putc(b, s[i++]);
            continue;
        }
        if (cp == 0x100) cp = 0;
        if (cp < 0x80) ns_buf_printf(b, "\\x%02x", cp);
        else ns_buf_printf(b, "\\u%04X", cp);
        i += len;
    }
}
