/* fuzz_sweep_spec.c -- libFuzzer target: the pure sweep planner
 * (sweep_plan.c) driven by a small script.
 *
 * The input is split into lines (at most NSF_MAX_OPS are used); the first
 * byte of a line says what to do with the rest of it:
 *   L NAME=v1,v2,...     ns_axes_add_list
 *   P NAME=LO:HI:STEP    ns_axes_add_range (also NAME=LO:HI:*K); a range
 *                        that would have more than NSF_RANGE_MAX values is
 *                        skipped (each value costs a dozen snprintf calls,
 *                        and one 100,000-value range would slow the whole
 *                        run to a crawl; tests/unit_sweep.c covers the limit)
 *   S TEMPLATE           ns_axes_subst_new for the first, middle and last
 *                        configuration, and ns_axes_mark_used
 *   I MODE [K=V ...]     ns_run_id_new for the same configurations, with
 *                        the K=V words as extra tags; the repeat number and
 *                        warmup flag come from the line's length
 *   K K/N                ns_shard_parse
 *   B <6 bytes>          ns_plan_build, its arguments taken from the bytes
 *                        (only plans of at most 100,000 runs are built)
 *   anything else        the whole line to ns_axes_add_list
 * After every step the documented contract is checked, and a breach
 * aborts (which libFuzzer reports as a crash):
 *   - axes: well-formed unique names, non-empty values, the product of the
 *     value counts equals ns_axes_configs and is at most NS_AXES_MAX_CONFIGS;
 *   - a template without braces comes back unchanged, and
 *     ns_axes_mark_used accepts exactly the templates ns_axes_subst_new
 *     accepts;
 *   - a run id is a single safe path component: only [A-Za-z0-9._+-], no
 *     leading '.', at most 140 bytes, and the same every time it is made;
 *   - a shard parses to 0 <= K < N;
 *   - a plan has the documented size, its items' configuration, mode and
 *     repeat are in range, and every item belongs to the shard.
 */
#include "capture/sweep_plan.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NSF_MAX_OPS 64
#define NSF_PLAN_MAX 100000
#define NSF_RANGE_MAX 4096

/* Would the -P spec give more than NSF_RANGE_MAX values?  A rough, lenient
 * count (strtod); anything it cannot read goes to ns_axes_add_range as is. */
static int nsf_range_too_big(const char *spec) {
    const char *eq = strchr(spec, '=');
    if (!eq) return 0;
    char *end;
    double lo = strtod(eq + 1, &end);
    if (*end != ':') return 0;
    double hi = strtod(end + 1, &end);
    if (*end != ':') return 0;
    int geo = end[1] == '*';
    double step = strtod(end + 1 + geo, &end);
    double n;
    if (geo) {
        if (!(lo > 0 && hi > 0 && step > 1)) return 0;
        n = log(hi / lo) / log(step);
    } else {
        if (!(step > 0)) return 0;
        n = (hi - lo) / step;
    }
    return n > NSF_RANGE_MAX; /* false for NaN */
}

static int nsf_name_ok(const char *s) {
    if (!s || !((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_')) return 0;
    for (; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return 0;
    return 1;
}

static void nsf_check_axes(const ns_axes *a) {
    size_t prod = 1;
    for (int i = 0; i < a->naxes; i++) {
        const ns_axis *x = &a->axes[i];
        if (!nsf_name_ok(x->name) || x->nvalues < 1 || ns_axes_find(a, x->name) != i) abort();
        for (int v = 0; v < x->nvalues; v++)
            if (!x->values[v] || !x->values[v][0]) abort();
        if (x->nvalues <= 64) /* distinct (checked where it is cheap) */
            for (int v = 0; v < x->nvalues; v++)
                for (int w = v + 1; w < x->nvalues; w++)
                    if (strcmp(x->values[v], x->values[w]) == 0) abort();
        prod *= (size_t)x->nvalues;
        if (prod > NS_AXES_MAX_CONFIGS) abort();
    }
    if (ns_axes_configs(a) != prod) abort();
}

static void nsf_check_id(const char *id) {
    size_t n = strlen(id);
    if (n == 0 || n > 140 || id[0] == '.') abort();
    for (const char *p = id; *p; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
              *p == '.' || *p == '_' || *p == '+' || *p == '-'))
            abort();
}

/* Configurations worth trying: first, middle, last. */
static size_t nsf_configs(const ns_axes *a, size_t *c) {
    size_t n = ns_axes_configs(a);
    c[0] = 0;
    c[1] = n / 2;
    c[2] = n - 1;
    return n >= 3 ? 3 : n;
}

static void nsf_subst(const ns_axes *a, const char *tmpl) {
    size_t cs[3], nc = nsf_configs(a, cs);
    int *idx = calloc((size_t)a->naxes + 1, sizeof *idx);
    int *used = calloc((size_t)a->naxes + 1, sizeof *used);
    int braces = strchr(tmpl, '{') || strchr(tmpl, '}');
    int ok = -1; /* whether the template was accepted (the same for every configuration) */
    for (size_t k = 0; k < nc; k++) {
        ns_axes_config(a, cs[k], idx);
        for (int i = 0; i < a->naxes; i++)
            if (idx[i] < 0 || idx[i] >= a->axes[i].nvalues) abort();
        char *s = ns_axes_subst_new(a, idx, tmpl);
        if (!braces && (!s || strcmp(s, tmpl) != 0)) abort();
        if (ok >= 0 && ok != (s != NULL)) abort();
        ok = s != NULL;
        free(s);
    }
    int rc = ns_axes_mark_used(a, tmpl, used);
    if ((rc == 0) != (ok == 1)) abort();
    free(idx);
    free(used);
}

static void nsf_ids(const ns_axes *a, char *arg, size_t linelen) {
    const char *extra[16];
    int nextra = 0;
    char *mode = arg;
    char *sp = strchr(arg, ' ');
    if (sp) {
        *sp = 0;
        char *p = sp + 1;
        while (*p && nextra < 16) {
            extra[nextra++] = p;
            char *q = strchr(p, ' ');
            if (!q) break;
            *q = 0;
            p = q + 1;
        }
    }
    int repeat = (int)(linelen % 131) - 10;
    int warmup = (int)(linelen & 1);
    size_t cs[3], nc = nsf_configs(a, cs);
    int *idx = calloc((size_t)a->naxes + 1, sizeof *idx);
    for (size_t k = 0; k < nc; k++) {
        ns_axes_config(a, cs[k], idx);
        char *id = ns_run_id_new(a, idx, extra, nextra, mode, repeat, warmup);
        nsf_check_id(id);
        char *again = ns_run_id_new(a, idx, extra, nextra, mode, repeat, warmup);
        if (strcmp(id, again) != 0) abort();
        free(again);
        free(id);
    }
    free(idx);
}

static void nsf_plan(const ns_axes *a, const unsigned char *b, size_t n) {
    unsigned char x[6] = {0};
    memcpy(x, b, n < 6 ? n : 6);
    int nmodes = 1 + x[0] % 3, repeats = x[1] % 5, warmups = x[2] % 3;
    ns_order order = (x[3] & 1) ? NS_ORDER_GROUPED : NS_ORDER_INTERLEAVE;
    int shard_n = 1 + x[4] % 4, shard_k = x[5] % shard_n;
    size_t configs = ns_axes_configs(a);
    size_t per = (size_t)nmodes * (size_t)(repeats + warmups);
    if (configs * per > NSF_PLAN_MAX) return;
    ns_plan p;
    memset(&p, 0, sizeof p);
    if (ns_plan_build(&p, a, nmodes, repeats, warmups, order, shard_k, shard_n) != 0) abort();
    size_t mine = 0; /* counted, not computed as sweep_plan.c does */
    for (size_t c = (size_t)shard_k; c < configs; c += (size_t)shard_n) mine++;
    if (p.n != mine * per) abort();
    for (size_t i = 0; i < p.n; i++) {
        const ns_plan_item *it = &p.items[i];
        if (it->config >= configs || it->config % (size_t)shard_n != (size_t)shard_k) abort();
        if (it->mode < 0 || it->mode >= nmodes || it->repeat < 1) abort();
        if (it->repeat > (it->warmup ? warmups : repeats)) abort();
    }
    ns_plan_free(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ns_axes a;
    memset(&a, 0, sizeof a);
    char *buf = malloc(size + 1);
    memcpy(buf, data, size);
    buf[size] = 0;
    char *line = buf;
    for (int op = 0; op < NSF_MAX_OPS && line < buf + size; op++) {
        char *nl = memchr(line, '\n', (size_t)(buf + size - line));
        size_t len = nl ? (size_t)(nl - line) : (size_t)(buf + size - line);
        line[len] = 0; /* an embedded NUL just ends the line early */
        char *arg = len ? line + 1 : line;
        switch (len ? line[0] : 0) {
        case 'L': ns_axes_add_list(&a, arg); break;
        case 'P':
            if (!nsf_range_too_big(arg)) ns_axes_add_range(&a, arg);
            break;
        case 'S': nsf_subst(&a, arg); break;
        case 'I': nsf_ids(&a, arg, len); break;
        case 'K': {
            int k = -1, n = -1;
            if (ns_shard_parse(arg, &k, &n) == 0 && !(k >= 0 && k < n)) abort();
            break;
        }
        case 'B': nsf_plan(&a, (const unsigned char *)arg, len ? len - 1 : 0); break;
        default: ns_axes_add_list(&a, line); break;
        }
        nsf_check_axes(&a);
        line += len + 1;
    }
    ns_axes_free(&a);
    free(buf);
    return 0;
}
