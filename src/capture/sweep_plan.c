/* sweep_plan.c -- axes, plans, placeholders and run ids (see sweep_plan.h).
 *
 * Everything here is arithmetic on small arrays, done so that it can be
 * trusted without running anything:
 *
 *   - a configuration is one number c; its value indices are the digits of c
 *     in the mixed radix of the axes' value counts (first axis slowest), so a
 *     plan item stores one size_t and never a copy of the values;
 *   - range values are computed from their index (LO + i*STEP, LO * K^i), so
 *     rounding error never accumulates, and the end point is accepted within
 *     a relative 1e-9 and then printed as HI itself;
 *   - numbers are validated by hand before strtod sees them (no "nan",
 *     "inf", hex or trailing junk), and printed without exponent whenever
 *     that stays short;
 *   - a shard is built by the same loops as the whole plan, skipping the
 *     configurations of other shards, which is what makes "the plan of shard
 *     K is the unsharded plan filtered" true by construction.
 *
 * Deliberately left out: anything with processes or files, and any notion of
 * what a mode means (the plan only carries its index).
 */
#include "capture/sweep_plan.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ====== Small helpers ====== */

static int ns__is_name(const char *s, size_t n) {
    if (n == 0) return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        int alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
        int digit = c >= '0' && c <= '9';
        if (!alpha && !(digit && i > 0)) return 0;
    }
    return 1;
}

static int ns__cmp_str(const void *x, const void *y) {
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* A value that occurs twice in v[0..n), or NULL.  Sorts a copy of the
 * pointers: O(n log n) even for a million values. */
static const char *ns__find_dup(char **v, int n) {
    if (n < 2) return NULL;
    char **s = ns_xmalloc(sizeof *s * (size_t)n);
    memcpy(s, v, sizeof *s * (size_t)n);
    qsort(s, (size_t)n, sizeof *s, ns__cmp_str);
    const char *dup = NULL;
    for (int i = 1; i < n && !dup; i++)
        if (strcmp(s[i - 1], s[i]) == 0) dup = s[i];
    free(s);
    return dup;
}

static void ns__free_values(char **v, int n) {
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
}

/* ====== Axes ====== */

/* Split "NAME=REST" and check NAME; `opt` names the option in messages. */
static int ns__split_spec(const ns_axes *a, const char *opt, const char *spec,
                          char **name, const char **rest) {
    const char *eq = strchr(spec, '=');
    if (!eq) {
        ns_error("%s '%s': expected NAME=VALUES", opt, spec);
        return -1;
    }
    size_t n = (size_t)(eq - spec);
    if (n == 0) {
        ns_error("%s '%s': the axis name is empty", opt, spec);
        return -1;
    }
    if (!ns__is_name(spec, n)) {
        ns_error("%s '%s': axis name '%.*s' must match [A-Za-z_][A-Za-z0-9_]*",
                 opt, spec, (int)n, spec);
        return -1;
    }
    char *nm = ns_strndup(spec, n);
    if (ns_axes_find(a, nm) >= 0) {
        ns_error("%s '%s': axis '%s' is already defined", opt, spec, nm);
        free(nm);
        return -1;
    }
    *name = nm;
    *rest = eq + 1;
    return 0;
}

/* Append an axis (taking ownership of name and values) unless the product
 * grows past the limit or a value repeats; on failure frees them. */
static int ns__add_axis(ns_axes *a, const char *opt, const char *spec,
                        char *name, char **values, int nvalues) {
    const char *dup = ns__find_dup(values, nvalues);
    if (dup) {
        ns_error("%s '%s': value '%s' of axis '%s' is given twice", opt, spec,
                 dup, name);
        goto fail;
    }
    size_t prod = ns_axes_configs(a);
    if ((size_t)nvalues > NS_AXES_MAX_CONFIGS / prod) {
        ns_error("%s '%s': the sweep would have %.0f configurations "
                 "(at most %d)", opt, spec, (double)prod * nvalues,
                 NS_AXES_MAX_CONFIGS);
        goto fail;
    }
    a->axes = ns_xrealloc(a->axes, sizeof *a->axes * (size_t)(a->naxes + 1));
    a->axes[a->naxes].name = name;
    a->axes[a->naxes].values = values;
    a->axes[a->naxes].nvalues = nvalues;
    a->naxes++;
    return 0;
fail:
    free(name);
    ns__free_values(values, nvalues);
    return -1;
}

int ns_axes_add_list(ns_axes *a, const char *spec) {
    char *name;
    const char *rest;
    if (ns__split_spec(a, "-L", spec, &name, &rest) < 0) return -1;

    size_t n = 1;
    for (const char *p = rest; *p; p++)
        if (*p == ',') n++;
    if (n > NS_AXES_MAX_CONFIGS) {
        ns_error("-L '%.60s...': more than %d values", spec, NS_AXES_MAX_CONFIGS);
        free(name);
        return -1;
    }
    char **values = ns_xmalloc(sizeof *values * n);
    int nv = 0;
    const char *p = rest;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0) {
            ns_error("-L '%s': value %d of axis '%s' is empty", spec, nv + 1,
                     name);
            free(name);
            ns__free_values(values, nv);
            return -1;
        }
        values[nv++] = ns_strndup(p, len);
        if (!comma) break;
        p = comma + 1;
    }
    return ns__add_axis(a, "-L", spec, name, values, nv);
}

/* [+-]?(D+(.D*)?|.D+)([eE][+-]?D+)? over exactly s[0..n), then strtod
 * (npuscope never calls setlocale, so strtod reads '.').  Finite only. */
static int ns__parse_number(const char *s, size_t n, double *out) {
    size_t i = 0, digits = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++, digits++;
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++, digits++;
    }
    if (digits == 0) return -1;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        size_t ed = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++, ed++;
        if (ed == 0) return -1;
    }
    if (i != n || n > 64) return -1;
    char tmp[65];
    memcpy(tmp, s, n);
    tmp[n] = 0;
    double v = strtod(tmp, NULL);
    if (!isfinite(v)) return -1;
    *out = v == 0 ? 0.0 : v; /* no negative zero */
    return 0;
}

/* Print v as an integer when integral, else with the fewest decimals that
 * give back the %.15g-rounded value; %.15g when fixed notation would be
 * long or show more than 15 digits (1e+20, 1e-30). */
static char *ns__format_value_new(double v) {
    char g[64], f[64];
    if (v == 0) return ns_strdup("0");
    snprintf(g, sizeof g, "%.15g", v);
    double r = strtod(g, NULL);
    if (fabs(r) >= 1e15) return ns_strdup(g);
    for (int d = 0; d <= 17; d++) {
        int len = snprintf(f, sizeof f, "%.*f", d, r);
        if (len < 0 || len > 32) break;
        if (strtod(f, NULL) == r) return ns_strdup(f);
    }
    return ns_strdup(g);
}

int ns_axes_add_range(ns_axes *a, const char *spec) {
    char *name;
    const char *rest;
    if (ns__split_spec(a, "-P", spec, &name, &rest) < 0) return -1;

    const char *c1 = strchr(rest, ':');
    const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2 || strchr(c2 + 1, ':')) {
        ns_error("-P '%s': expected NAME=LO:HI:STEP or NAME=LO:HI:*K", spec);
        free(name);
        return -1;
    }
    const char *st = c2 + 1;
    int geometric = *st == '*';
    if (geometric) st++;
    double lo, hi, step;
    if (ns__parse_number(rest, (size_t)(c1 - rest), &lo) < 0 ||
        ns__parse_number(c1 + 1, (size_t)(c2 - c1 - 1), &hi) < 0 ||
        ns__parse_number(st, strlen(st), &step) < 0) {
        ns_error("-P '%s': LO, HI and STEP must be decimal numbers", spec);
        free(name);
        return -1;
    }
    const char *why = NULL;
    if (lo > hi)
        why = "LO is greater than HI";
    else if (geometric && step <= 1)
        why = "the factor K of '*K' must be greater than 1";
    else if (geometric && lo <= 0)
        why = "a geometric range needs LO > 0";
    else if (!geometric && step <= 0)
        why = "STEP must be greater than 0";
    if (why) {
        ns_error("-P '%s': %s", spec, why);
        free(name);
        return -1;
    }

    /* the end point counts when reached within a relative 1e-9, but never
     * within half a step of it (a step that fine makes duplicates, below) */
    double scale = fmax(fmax(fabs(lo), fabs(hi)), geometric ? 0 : step);
    double gap = geometric ? lo * (step - 1) : step;
    double tol = fmin(1e-9 * scale, gap / 2);
    int cap = 64, nv = 0;
    char **values = ns_xmalloc(sizeof *values * (size_t)cap);
    for (int i = 0;; i++) {
        double v = geometric ? lo * pow(step, i) : lo + (double)i * step;
        if (!(v <= hi + tol)) break; /* also stops on overflow to inf */
        if (fabs(v - hi) <= tol) v = hi;
        if (nv == NS_RANGE_MAX_VALUES) {
            ns_error("-P '%s': the range has more than %d values", spec,
                     NS_RANGE_MAX_VALUES);
            free(name);
            ns__free_values(values, nv);
            return -1;
        }
        if (nv == cap) {
            cap *= 2;
            values = ns_xrealloc(values, sizeof *values * (size_t)cap);
        }
        values[nv++] = ns__format_value_new(v == 0 ? 0.0 : v);
        if (v == hi) break;
    }
    /* nv >= 1: LO <= HI, so i = 0 always fits */
    const char *dup = ns__find_dup(values, nv);
    if (dup) {
        ns_error("-P '%s': STEP is too small for the precision of the values "
                 "('%s' comes twice)", spec, dup);
        free(name);
        ns__free_values(values, nv);
        return -1;
    }
    return ns__add_axis(a, "-P", spec, name, values, nv);
}

int ns_axes_find(const ns_axes *a, const char *name) {
    for (int i = 0; i < a->naxes; i++)
        if (strcmp(a->axes[i].name, name) == 0) return i;
    return -1;
}

void ns_axes_free(ns_axes *a) {
    for (int i = 0; i < a->naxes; i++) {
        free(a->axes[i].name);
        ns__free_values(a->axes[i].values, a->axes[i].nvalues);
    }
    free(a->axes);
    a->axes = NULL;
    a->naxes = 0;
}

size_t ns_axes_configs(const ns_axes *a) {
    size_t n = 1;
    for (int i = 0; i < a->naxes; i++) n *= (size_t)a->axes[i].nvalues;
    return n;
}

void ns_axes_config(const ns_axes *a, size_t c, int *idx) {
    for (int i = a->naxes - 1; i >= 0; i--) {
        size_t nv = (size_t)a->axes[i].nvalues;
        idx[i] = (int)(c % nv);
        c /= nv;
    }
}

/* ====== Plan ====== */

int ns_shard_parse(const char *s, int *k, int *n) {
    long long v[2] = {0, 0}; /* long is 32 bits on Windows: 10 * INT_MAX must fit */
    const char *p = s;
    for (int part = 0; part < 2; part++) {
        const char *start = p;
        while (*p >= '0' && *p <= '9') {
            v[part] = v[part] * 10 + (*p - '0');
            if (v[part] > INT_MAX) goto bad;
            p++;
        }
        if (p == start) goto bad;
        if (part == 0 && *p++ != '/') goto bad;
    }
    if (*p) goto bad;
    if (v[1] < 1) {
        ns_error("--shard '%s': N must be at least 1", s);
        return -1;
    }
    if (v[0] >= v[1]) {
        ns_error("--shard '%s': K must be 0..%lld (shards are numbered from 0)",
                 s, v[1] - 1);
        return -1;
    }
    *k = (int)v[0];
    *n = (int)v[1];
    return 0;
bad:
    ns_error("--shard '%s': expected K/N, e.g. 0/4", s);
    return -1;
}

static void ns__push(ns_plan *p, size_t config, int mode, int repeat,
                     int warmup) {
    ns_plan_item *it = &p->items[p->n++];
    it->config = config;
    it->mode = mode;
    it->repeat = repeat;
    it->warmup = warmup;
}

int ns_plan_build(ns_plan *p, const ns_axes *a, int nmodes, int repeats,
                  int warmups, ns_order order, int shard_k, int shard_n) {
    if (nmodes < 1 || repeats < 0 || warmups < 0) {
        ns_error("sweep plan: need at least one mode and no negative counts "
                 "(modes %d, repeats %d, warmups %d)", nmodes, repeats, warmups);
        return -1;
    }
    if (shard_n < 1 || shard_k < 0 || shard_k >= shard_n) {
        ns_error("sweep plan: shard %d/%d is not one of 0/N..N-1/N", shard_k,
                 shard_n);
        return -1;
    }
    if (order != NS_ORDER_INTERLEAVE && order != NS_ORDER_GROUPED) {
        ns_error("sweep plan: unknown order %d", (int)order);
        return -1;
    }
    size_t nconf = ns_axes_configs(a);
    size_t k = (size_t)shard_k, sn = (size_t)shard_n;
    size_t mine = nconf > k ? (nconf - k + sn - 1) / sn : 0;
    double total = (double)mine * nmodes * ((double)repeats + warmups);
    if (total > NS_PLAN_MAX_ITEMS) {
        ns_error("sweep plan: %.0f runs is more than %d", total,
                 NS_PLAN_MAX_ITEMS);
        return -1;
    }
    ns_plan q = {NULL, 0};
    q.items = ns_xmalloc(sizeof *q.items * (size_t)total);

    if (order == NS_ORDER_GROUPED) {
        for (size_t c = k; c < nconf; c += sn)
            for (int m = 0; m < nmodes; m++) {
                for (int w = 1; w <= warmups; w++) ns__push(&q, c, m, w, 1);
                for (int r = 1; r <= repeats; r++) ns__push(&q, c, m, r, 0);
            }
    } else {
        for (size_t c = k; c < nconf; c += sn)
            for (int m = 0; m < nmodes; m++)
                for (int w = 1; w <= warmups; w++) ns__push(&q, c, m, w, 1);
        for (int r = 1; r <= repeats; r++)
            for (size_t c = k; c < nconf; c += sn)
                for (int m = 0; m < nmodes; m++) ns__push(&q, c, m, r, 0);
    }
    *p = q;
    return 0;
}

void ns_plan_free(ns_plan *p) {
    free(p->items);
    p->items = NULL;
    p->n = 0;
}

/* ====== Placeholders ====== */

/* One pass over tmpl: into `out` when non-NULL, marking `used` when
 * non-NULL.  Returns 0, or -1 with a message. */
static int ns__ident(const char *s, size_t n) {
    if (n == 0 || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
              (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return 0;
    return 1;
}

/* A placeholder is "{NAME}" with NAME an identifier.  Any other brace is
 * text: MLIR pass options ("canonicalize{max-iterations=3}") and JSON
 * ("{\"a\":1}") pass through untouched.  "{{" and "}}" stand for one brace,
 * to write a literal "{NAME}".  An identifier that names no axis is an
 * error: it is almost always a typo. */
static int ns__subst(const ns_axes *a, const int *idx, const char *tmpl,
                     ns_buf *out, int *used) {
    const char *p = tmpl;
    while (*p) {
        const char *brace = strpbrk(p, "{}");
        if (!brace) {
            if (out) ns_buf_puts(out, p);
            break;
        }
        if (out) ns_buf_add(out, p, (size_t)(brace - p));
        if (brace[0] == brace[1]) { /* "{{" or "}}" */
            if (out) ns_buf_putc(out, brace[0]);
            p = brace + 2;
            continue;
        }
        const char *close = brace[0] == '{' ? strchr(brace + 1, '}') : NULL;
        size_t n = close ? (size_t)(close - brace - 1) : 0;
        if (!close || !ns__ident(brace + 1, n)) { /* plain text */
            if (out) ns_buf_putc(out, *brace);
            p = brace + 1;
            continue;
        }
        int found = -1;
        for (int i = 0; i < a->naxes && found < 0; i++)
            if (strlen(a->axes[i].name) == n &&
                memcmp(a->axes[i].name, brace + 1, n) == 0)
                found = i;
        if (found < 0) {
            ns_buf names = {0};
            for (int i = 0; i < a->naxes; i++) {
                if (i) ns_buf_puts(&names, ", ");
                ns_buf_puts(&names, a->axes[i].name);
            }
            ns_error("template '%s': unknown placeholder {%.*s} (axes: %s; "
                     "write '{{' and '}}' for literal braces)", tmpl, (int)n,
                     brace + 1, names.len ? names.data : "none");
            ns_buf_free(&names);
            return -1;
        }
        if (used) used[found] = 1;
        if (out) ns_buf_puts(out, a->axes[found].values[idx[found]]);
        p = close + 1;
    }
    return 0;
}

char *ns_axes_subst_new(const ns_axes *a, const int *idx, const char *tmpl) {
    ns_buf b = {0};
    if (ns__subst(a, idx, tmpl, &b, NULL) < 0) {
        ns_buf_free(&b);
        return NULL;
    }
    if (!b.data) return ns_strdup("");
    return b.data; /* the buffer's storage becomes the string */
}

int ns_axes_mark_used(const ns_axes *a, const char *tmpl, int *used) {
    return ns__subst(a, NULL, tmpl, NULL, used);
}

/* ====== Run ids ====== */

static uint32_t ns__fnv1a(uint32_t h, const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        h ^= *p;
        h *= 16777619u;
    }
    return h;
}

/* Append s with every byte outside [A-Za-z0-9.+-] as '_', at most `max`
 * bytes in all of b. */
static void ns__put_safe(ns_buf *b, const char *s, size_t max) {
    for (const unsigned char *p = (const unsigned char *)s; *p && b->len < max;
         p++) {
        unsigned char c = *p;
        int ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                 (c >= '0' && c <= '9') || c == '.' || c == '+' || c == '-';
        ns_buf_putc(b, ok ? (char)c : '_');
    }
}

char *ns_run_id_new(const ns_axes *a, const int *idx,
                    const char *const *extra_kv, int nextra, const char *mode,
                    int repeat, int warmup) {
    ns_buf b = {0};
    uint32_t h = 2166136261u;
    for (int i = 0; i < a->naxes; i++) {
        const char *v = a->axes[i].values[idx[i]];
        if (i) ns__put_safe(&b, "_", NS_RUN_ID_SLUG_MAX);
        ns__put_safe(&b, a->axes[i].name, NS_RUN_ID_SLUG_MAX);
        ns__put_safe(&b, "-", NS_RUN_ID_SLUG_MAX);
        ns__put_safe(&b, v, NS_RUN_ID_SLUG_MAX);
        h = ns__fnv1a(h, a->axes[i].name);
        h = ns__fnv1a(h, "=");
        h = ns__fnv1a(h, v);
        h = ns__fnv1a(h, "\n");
    }
    for (int i = 0; i < nextra; i++) {
        h = ns__fnv1a(h, "tag:");
        h = ns__fnv1a(h, extra_kv[i]);
        h = ns__fnv1a(h, "\n");
    }
    if (b.len == 0) ns_buf_puts(&b, "run");
    if (b.data[0] == '.') b.data[0] = '_';
    ns_buf_printf(&b, "-%08x-", (unsigned)h);
    size_t mode_at = b.len;
    ns__put_safe(&b, mode && *mode ? mode : "none", mode_at + 32);
    ns_buf_printf(&b, "-%c%02d", warmup ? 'w' : 'r', repeat);
    return b.data;
}
