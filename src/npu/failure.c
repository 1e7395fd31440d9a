/* failure.c -- failed compiles and environment facts (see failure.h).
 *
 * Every text is found by its fixed words wherever it sits in the line, as
 * npu.c finds facts: a logger prefix, colour already stripped, a Python
 * "RuntimeError: " or a C++ "Exception from src/..." before it change
 * nothing.  A "Got Diagnostic" line is a failure only at ERROR (a note or
 * a warning comes through the same text at INFO / WARNING).
 */
#include "npu/failure.h"

#include "npu/logline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first text in [s, s+n): a pointer to it, or NULL. */
static const char *ns__at(const char *s, size_t n, const char *text) {
    size_t k = strlen(text);
    for (size_t i = 0; i + k <= n; i++)
        if (s[i] == text[0] && !memcmp(s + i, text, k)) return s + i;
    return NULL;
}

/* A new string of [s, e) without the spaces around it, or NULL if empty. */
static char *ns__trim_new(const char *s, const char *e) {
    while (s < e && (*s == ' ' || *s == '\t')) s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t')) e--;
    return e > s ? ns_strndup(s, (size_t)(e - s)) : NULL;
}

/* ====== Locations ====== */

char *ns_npu_loc_new(const char *s, size_t n, size_t *used) {
    const char *p = s, *end = s + n;
    int depth = 0, in_str = 0;
    const char *list = NULL, *first = NULL, *first_end = NULL; /* the last '[' list */
    const char *q;
    for (q = p; q < end; q++) {
        char c = *q;
        if (in_str) {
            if (c == '\\' && q + 1 < end) q++;
            else if (c == '"') {
                in_str = 0;
                if (!first_end) first_end = q;
            }
            continue;
        }
        if (c == '"') {
            in_str = 1;
            if (!first) first = q + 1;
        } else if (c == '(' || c == '{' || c == '<') {
            depth++;
        } else if (c == ')' || c == '}' || c == '>') {
            if (--depth <= 0 && c == ')') {
                q++;
                break;
            }
        } else if (c == '[') {
            list = q;
        }
    }
    if (used) *used = (size_t)(q - s);
    ns_buf b = {0};
    if (list) { /* the quoted names of the list, each closed one */
        in_str = 0;
        const char *name = NULL;
        for (const char *r = list + 1; r < q && *r != ']'; r++) {
            if (!in_str && *r == '"') in_str = 1, name = r + 1;
            else if (in_str && *r == '\\' && r + 1 < q) r++;
            else if (in_str && *r == '"') {
                if (b.len) ns_buf_putc(&b, '/');
                ns_buf_add(&b, name, (size_t)(r - name));
                in_str = 0;
            }
        }
    }
    if (!b.len && first && first_end) ns_buf_add(&b, first, (size_t)(first_end - first));
    char *out = b.len ? ns_strndup(b.data, b.len) : NULL;
    ns_buf_free(&b);
    return out;
}

/* ====== Failures ====== */

static int ns__same(const char *a, const char *b) { return !a || !b || !strcmp(a, b); }

/* Add what one line says of a failure: to an open failure of the same
 * location whose pass agrees, else to a new one.  Takes the strings. */
static void ns__failure(ns_load *L, const char *file, long line, char *pass, char *loc, char *msg) {
    ns_failure *f = NULL;
    for (int i = L->open; i < L->nfail && !f; i++) {
        ns_failure *g = &L->fail[i];
        if (loc && g->location && !strcmp(loc, g->location) && ns__same(pass, g->pass) &&
            ns__same(msg, g->message))
            f = g;
    }
    if (!f) f = ns_load_add_failure(L, file, line);
    if (!f->pass) f->pass = pass, pass = NULL;
    if (!f->location) f->location = loc, loc = NULL;
    if (!f->message) f->message = msg, msg = NULL;
    free(pass);
    free(loc);
    free(msg);
}

/* "P Pass failed : WHY" (or any other diagnostic text) into pass and
 * message. */
static void ns__diag_text(const char *s, const char *e, char **pass, char **msg) {
    const char *pf = ns__at(s, (size_t)(e - s), " Pass failed");
    *pass = NULL;
    if (!pf) {
        *msg = ns__trim_new(s, e);
        return;
    }
    *pass = ns__trim_new(s, pf);
    const char *w = pf + strlen(" Pass failed");
    while (w < e && (*w == ' ' || *w == ':')) w++;
    *msg = ns__trim_new(w, e);
}

static int ns__failure_line(ns_load *L, const char *file, long line, const char *s, size_t n) {
    const char *end = s + n, *p;
    if ((p = ns__at(s, n, "Failed Pass "))) {
        p += strlen("Failed Pass ");
        const char *on = ns__at(p, (size_t)(end - p), " on Operation ");
        char *pass = ns__trim_new(p, on ? on : end), *loc = NULL;
        if (on) {
            const char *l = on + strlen(" on Operation ");
            loc = ns_npu_loc_new(l, (size_t)(end - l), NULL);
        }
        ns__failure(L, file, line, pass, loc, NULL);
        return 1;
    }
    if ((p = ns__at(s, n, "Got Diagnostic at "))) {
        ns_logline ll;
        if (ns_logline_parse(s, n, &ll) && !(ll.level_len == 5 && !memcmp(ll.level, "ERROR", 5)))
            return 0; /* a note or a warning */
        p += strlen("Got Diagnostic at ");
        size_t used = 0;
        char *loc = ns_npu_loc_new(p, (size_t)(end - p), &used);
        const char *t = p + used;
        while (t < end && (*t == ' ' || *t == ':')) t++;
        char *pass, *msg;
        ns__diag_text(t, end, &pass, &msg);
        ns__failure(L, file, line, pass, loc, msg);
        return 1;
    }
    if (n > 4 && !memcmp(s, "loc(", 4)) { /* MLIR's echo: "LOC: error: TEXT" */
        size_t used = 0;
        char *loc = ns_npu_loc_new(s, n, &used);
        const char *t = s + used;
        static const char err[] = ": error: ";
        if ((size_t)(end - t) < sizeof err - 1 || memcmp(t, err, sizeof err - 1)) {
            free(loc);
            return 0;
        }
        t += sizeof err - 1;
        char *pass, *msg;
        ns__diag_text(t, end, &pass, &msg);
        ns__failure(L, file, line, pass, loc, msg);
        return 1;
    }
    if ((p = ns__at(s, n, "Failed to compile "))) {
        p += strlen("Failed to compile ");
        const char *fa = ns__at(p, (size_t)(end - p), " for all devices");
        char *name = fa ? ns__trim_new(p, fa) : NULL;
        if (!name) return 0; /* cut before the name ends: nothing sure to say */
        if (L->open == L->nfail) { /* no failure line came before it */
            ns_failure *f = ns_load_add_failure(L, file, line);
            f->message = ns__trim_new(p - strlen("Failed to compile "), end);
        }
        for (int i = L->open; i < L->nfail; i++)
            if (!L->fail[i].submodel) L->fail[i].submodel = ns_strdup(name);
        L->open = L->nfail;
        free(name);
        return 1;
    }
    return 0;
}

/* ====== Environment ====== */

/* The whole number after text in the line, or -1. */
static long ns__num_after(const char *s, size_t n, const char *text) {
    const char *p = ns__at(s, n, text);
    if (!p) return -1;
    p += strlen(text);
    const char *end = s + n;
    if (p >= end || *p < '0' || *p > '9') return -1;
    long v = 0;
    while (p < end && *p >= '0' && *p <= '9' && v < 100000000) v = v * 10 + (*p++ - '0');
    return v;
}

static void ns__env_num(ns_load *L, const char *key, long v) {
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%ld", v);
    ns_load_env_set(L, key, tmp);
}

static int ns__env_line(ns_load *L, const char *s, size_t n) {
    static const struct {
        const char *text, *key;
    } nums[] = {
        {"Plugin L0 API minor version = ", "plugin_l0_minor"},
        {"Driver L0 API minor version = ", "driver_l0_minor"},
        {"Plugin L0 API major version = ", "plugin_l0_major"},
        {"Driver L0 API major version = ", "driver_l0_major"},
        {"Max supported version of opset in CiD: ", "compiler_opset"},
    };
    int took = 0;
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        long v = ns__num_after(s, n, nums[i].text);
        if (v >= 0) ns__env_num(L, nums[i].key, v), took = 1;
    }
    const char *p = ns__at(s, n, "NPU_PLATFORM=\"");
    if (p) {
        p += strlen("NPU_PLATFORM=\"");
        const char *q = memchr(p, '"', (size_t)(s + n - p));
        if (q && q > p && q - p < 64) {
            char *v = ns_strndup(p, (size_t)(q - p));
            ns_load_env_set(L, "npu_platform", v);
            free(v);
            took = 1;
        }
    }
    return took;
}

/* ====== Public ====== */

int ns_npu_load_line(ns_load *L, const char *file, long line, const char *s, size_t n) {
    if (ns__failure_line(L, file, line, s, n)) return 1;
    return ns__env_line(L, s, n);
}

void ns_npu_load_needles(ns_needles *nd) {
    static const char *const texts[] = {
        "Failed Pass ", "Got Diagnostic at ", ": error: ", "Failed to compile ",
        " L0 API m", "Max supported version of opset in CiD: ", "NPU_PLATFORM=\"",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) ns_needles_add(nd, texts[i]);
}
