/* jsonscan.c -- the spans of a JSON document's pieces (see jsonscan.h).
 *
 * Why a scanner of our own, and so small: the one thing the run.json reader
 * needs that jansson cannot give is *where* an element of "reports" starts
 * and ends, so that it can hand jansson one element at a time.  Finding
 * that takes three facts of JSON's grammar: a string runs from a quote to
 * the next quote not escaped by a backslash; brackets nest, and only
 * outside strings; a number or a literal ends at whitespace, a comma or a
 * closing bracket.  Nothing here decodes a string, reads a number or
 * checks a bracket's kind: jansson does all of that on every span, and
 * where the scanner has a doubt it says so (a -1 and a failure reason, as
 * stb does) and the reader falls back to jansson on the whole document.
 *
 * Deliberately left out: recursion (a bracket is a counter, so a document
 * nested 100,000 deep costs nothing), allocation except the one array of
 * spans, and any message for a user: the reasons are for tests and for
 * the reader's own comments, never printed.
 */
#include "base/jsonscan.h"

#include "base/common.h"

#include <stdlib.h>
#include <string.h>

/* ====== Pieces ====== */

static size_t ns__ws(const char *s, size_t i, size_t n) {
    while (i < n && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')) i++;
    return i;
}

/* The string whose opening quote is s[i]: the offset after its closing
 * quote, or 0 when it is not closed before n; *esc is set when it holds a
 * backslash. */
static size_t ns__string_end(const char *s, size_t i, size_t n, int *esc) {
    for (i++; i < n; i++) {
        if (s[i] == '"') return i + 1;
        if (s[i] == '\\') {
            *esc = 1;
            i++; /* the escaped byte, a quote included */
        }
    }
    return 0;
}

/* The value that starts at s[i] (not whitespace): the offset after its
 * last byte, or 0 with *why. */
static size_t ns__value_end(const char *s, size_t i, size_t n, const char **why) {
    int esc = 0;
    if (i >= n) {
        *why = "a value expected";
        return 0;
    }
    if (s[i] == '"') {
        size_t e = ns__string_end(s, i, n, &esc);
        if (!e) *why = "a string not closed";
        return e;
    }
    if (s[i] == '{' || s[i] == '[') {
        long depth = 0;
        for (; i < n; i++) {
            char c = s[i];
            if (c == '"') {
                size_t e = ns__string_end(s, i, n, &esc);
                if (!e) break;
                i = e - 1;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                return i + 1;
            }
        }
        *why = "brackets not closed";
        return 0;
    }
    size_t start = i;
    while (i < n && !strchr(" \n\t\r,]}[{\"", s[i])) i++;
    if (i == start) *why = "a value expected";
    return i == start ? 0 : i;
}

/* ====== The document's members ====== */

int ns_jscan_member(const char *s, size_t n, const char *key, ns_jspan *val, const char **why) {
    size_t klen = strlen(key), i = ns__ws(s, 0, n);
    int found = 0;
    if (i >= n || s[i] != '{') {
        *why = "not an object";
        return -1;
    }
    i = ns__ws(s, i + 1, n);
    if (i < n && s[i] == '}') return 0;
    for (;;) {
        int esc = 0;
        if (i >= n || s[i] != '"') {
            *why = "a key expected";
            return -1;
        }
        size_t kend = ns__string_end(s, i, n, &esc);
        if (!kend) {
            *why = "a key not closed";
            return -1;
        }
        if (esc) { /* it might spell key: only jansson can tell */
            *why = "a key with escapes";
            return -1;
        }
        int match = kend - i - 2 == klen && memcmp(s + i + 1, key, klen) == 0;
        i = ns__ws(s, kend, n);
        if (i >= n || s[i] != ':') {
            *why = "':' expected";
            return -1;
        }
        i = ns__ws(s, i + 1, n);
        size_t vend = ns__value_end(s, i, n, why);
        if (!vend) return -1;
        if (match) {
            if (found) { /* jansson keeps the last; a reader of spans would have to too */
                *why = "the key twice";
                return -1;
            }
            found = 1;
            *val = (ns_jspan){i, vend - i};
        }
        i = ns__ws(s, vend, n);
        if (i < n && s[i] == '}') return found;
        if (i >= n || s[i] != ',') {
            *why = "',' or '}' expected";
            return -1;
        }
        i = ns__ws(s, i + 1, n);
    }
}

/* ====== An array's elements ====== */

long ns_jscan_elements(const char *s, ns_jspan arr, ns_jspan **out, const char **why) {
    *out = NULL;
    if (arr.len < 2 || s[arr.off] != '[' || s[arr.off + arr.len - 1] != ']') {
        *why = "not an array";
        return -1;
    }
    size_t end = arr.off + arr.len - 1, i = ns__ws(s, arr.off + 1, end);
    long count = 0;
    if (i == end) return 0;
    for (;;) {
        size_t vend = ns__value_end(s, i, end, why);
        if (!vend) break;
        if (count == 0 || (count & (count - 1)) == 0) /* capacity: powers of two */
            *out = ns_xrealloc(*out, sizeof **out * (size_t)(count ? 2 * count : 1));
        (*out)[count++] = (ns_jspan){i, vend - i};
        i = ns__ws(s, vend, end);
        if (i == end) return count;
        if (s[i] != ',') {
            *why = "',' or ']' expected";
            break;
        }
        i = ns__ws(s, i + 1, end);
    }
    free(*out);
    *out = NULL;
    return -1;
}
