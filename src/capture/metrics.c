/* metrics.c -- metric rules and the scan of the output logs (see metrics.h). */
#include "capture/metrics.h"

#include <stdlib.h>
#include <string.h>

#define NS__METRIC_LINE_MAX (64u << 10)

/* ====== Built-in rules ====== */

static const struct {
    const char *name;  /* metric */
    const char *re;    /* POSIX ERE; the first group that matched is the value */
    const char *hint;  /* fixed text to look for before running the regex */
    ns_agg agg;        /* combining rule */
} ns__builtin[] = {
    {"compile_model_ms", "Compile model took ([0-9]+([.][0-9]+)?) ms", "Compile model took", NS_AGG_LAST},
    {"compiler_peak_kb", "[Cc]ompilation memory usage: Peak ([0-9]+) KB", "memory usage: Peak", NS_AGG_MAX},
    {"compile_net_ms", "Compile net time: ([0-9]+([.][0-9]+)?) ms", "Compile net time:", NS_AGG_SUM},
    {"tokens_per_s", "([0-9]+([.][0-9]+)?) tokens per second", "tokens per second", NS_AGG_LAST},
    /* OpenVINO GenAI: "Throughput: 12.34 tokens/s" or "... 12.34 ± 0.56 tokens/s" */
    {"tokens_per_s", "Throughput ?: ([0-9]+([.][0-9]+)?)( [^ ]+ [0-9.]+)? tokens/s", "Throughput", NS_AGG_LAST},
    /* older GenAI samples: "Throughput tokens/s: 12.34" */
    {"tokens_per_s", "Throughput tokens/s: ([0-9]+([.][0-9]+)?)", "Throughput tokens/s:", NS_AGG_LAST},
};

static void ns__add_rule(ns_metric_set *m, const char *name, const regex_t *re,
                         const char *hint, ns_agg agg) {
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 8;
        m->rules = ns_xrealloc(m->rules, sizeof *m->rules * (size_t)m->cap);
    }
    ns_metric_rule *r = &m->rules[m->n++];
    memset(r, 0, sizeof *r);
    r->name = ns_strdup(name);
    r->re = *re;
    r->hint = hint;
    r->agg = agg;
}

void ns_metrics_init(ns_metric_set *m) {
    memset(m, 0, sizeof *m);
    for (size_t i = 0; i < sizeof ns__builtin / sizeof ns__builtin[0]; i++) {
        regex_t re;
        if (regcomp(&re, ns__builtin[i].re, REG_EXTENDED) != 0) continue; /* cannot happen */
        ns__add_rule(m, ns__builtin[i].name, &re, ns__builtin[i].hint, ns__builtin[i].agg);
    }
}

int ns_metrics_add(ns_metric_set *m, const char *spec) {
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1]) {
        ns_error("--metric '%s': expected NAME=REGEX", spec);
        return -1;
    }
    for (const char *p = spec; p < eq; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' || *p == '-')) {
            ns_error("--metric '%s': a name is letters, digits, '_', '.' and '-'", spec);
            return -1;
        }
    const char *refusal = ns_regex_refusal(eq + 1);
    if (refusal) {
        ns_error("--metric '%s': the regex %s", spec, refusal);
        return -1;
    }
    regex_t re;
    int rc = regcomp(&re, eq + 1, REG_EXTENDED);
    if (rc != 0) {
        char msg[256];
        regerror(rc, &re, msg, sizeof msg);
        ns_error("--metric '%s': %s", spec, msg);
        return -1;
    }
    if (re.re_nsub < 1) {
        regfree(&re);
        ns_error("--metric '%s': the regex needs a capture group around the number", spec);
        return -1;
    }
    char *name = ns_strndup(spec, (size_t)(eq - spec));
    /* a user rule replaces a built-in of the same name */
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->rules[i].name, name) == 0) {
            regfree(&m->rules[i].re);
            free(m->rules[i].name);
            m->rules[i] = m->rules[--m->n];
            i--;
        }
    ns__add_rule(m, name, &re, NULL, NS_AGG_LAST);
    free(name);
    return 0;
}

void ns_metrics_reset(ns_metric_set *m) {
    for (int i = 0; i < m->n; i++) {
        m->rules[i].value = 0;
        m->rules[i].count = 0;
    }
}

void ns_metrics_free(ns_metric_set *m) {
    for (int i = 0; i < m->n; i++) {
        regfree(&m->rules[i].re);
        free(m->rules[i].name);
    }
    free(m->rules);
    memset(m, 0, sizeof *m);
}

/* ====== Scanning ====== */

static void ns__line(ns_metric_set *m, const char *line) {
    regmatch_t g[10];
    for (int i = 0; i < m->n; i++) {
        ns_metric_rule *r = &m->rules[i];
        if (r->hint && !strstr(line, r->hint)) continue;
        if (regexec(&r->re, line, 10, g, 0) != 0) continue;
        int k = 1;
        while (k < 10 && (size_t)k <= r->re.re_nsub && g[k].rm_so < 0) k++;
        if (k >= 10 || (size_t)k > r->re.re_nsub) continue;
        char num[64];
        size_t len = (size_t)(g[k].rm_eo - g[k].rm_so);
        if (len == 0 || len >= sizeof num) continue;
        memcpy(num, line + g[k].rm_so, len);
        num[len] = 0;
        char *end;
        double v = strtod(num, &end); /* C locale: npuscope never calls setlocale */
        if (end == num) continue;
        switch (r->agg) {
        case NS_AGG_LAST: r->value = v; break;
        case NS_AGG_SUM: r->value = r->count ? r->value + v : v; break;
        case NS_AGG_MAX: r->value = (!r->count || v > r->value) ? v : r->value; break;
        }
        r->count++;
    }
}

/* Append bytes [s, s + n) of a line to line[0..*len), NULs as blanks (a
 * line is a C string for regexec); past NS__METRIC_LINE_MAX the line is
 * dropped (*skipping). */
static void ns__line_add(char *line, size_t *len, int *skipping, const char *s, size_t n) {
    if (*skipping) return;
    if (n > NS__METRIC_LINE_MAX - *len) {
        *skipping = 1;
        return;
    }
    char *d = line + *len;
    memcpy(d, s, n);
    for (char *z = d; (z = memchr(z, 0, n - (size_t)(z - d))) != NULL;) *z++ = ' ';
    *len += n;
}

void ns_metrics_scan_file(ns_metric_set *m, const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return;
    char *line = ns_xmalloc(NS__METRIC_LINE_MAX + 1);
    size_t len = 0;
    int skipping = 0;
    char *buf = ns_xmalloc(1u << 16);
    size_t n;
    /* whole lines are found with memchr and copied with memcpy: on a
     * compile's gigabyte of output this runs at memory speed, and the
     * rules' fixed hints (strstr) are the only per-line work */
    while ((n = fread(buf, 1, 1u << 16, f)) > 0) {
        const char *p = buf, *end = buf + n;
        const char *nl;
        while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
            ns__line_add(line, &len, &skipping, p, (size_t)(nl - p));
            if (!skipping) {
                line[len] = 0;
                ns__line(m, line);
            }
            len = 0;
            skipping = 0;
            p = nl + 1;
        }
        ns__line_add(line, &len, &skipping, p, (size_t)(end - p));
    }
    if (len && !skipping) {
        line[len] = 0;
        ns__line(m, line);
    }
    free(line);
    free(buf);
    fclose(f);
}

void ns_metrics_to_run(const ns_metric_set *m, ns_run *r) {
    for (int i = 0; i < r->nmetrics; i++) free(r->metrics[i].name);
    free(r->metrics);
    r->metrics = NULL;
    r->nmetrics = 0;
    for (int i = 0; i < m->n; i++) {
        const ns_metric_rule *rule = &m->rules[i];
        if (!rule->count) continue;
        /* two built-in rules can share a name: the later match count wins */
        int j;
        for (j = 0; j < r->nmetrics; j++)
            if (strcmp(r->metrics[j].name, rule->name) == 0) break;
        if (j == r->nmetrics) {
            r->metrics = ns_xrealloc(r->metrics, sizeof *r->metrics * (size_t)(r->nmetrics + 1));
            r->metrics[j].name = ns_strdup(rule->name);
            r->nmetrics++;
            r->metrics[j].count = 0;
        }
        r->metrics[j].value = rule->value;
        r->metrics[j].count += rule->count;
    }
}
