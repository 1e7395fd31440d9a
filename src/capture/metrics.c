/* metrics.c -- metric rules and the scan of the output logs (see metrics.h). */
/* memmem() is GNU and BSD (POSIX only from 2024): the search of a rule's
 * fixed text over a whole piece of output, at memory speed. */
#define _GNU_SOURCE 1
#include "capture/metrics.h"

#include "base/regex_guard.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NS__METRIC_LINE_MAX (64u << 10)

/* ====== Built-in rules ====== */

static const struct {
    const char *name;  /* metric */
    const char *re;    /* POSIX ERE; the first group that matched is the value */
    const char *hint;  /* fixed text to look for before running the regex */
    ns_agg agg;        /* combining rule */
} ns__builtin[] = {
    {"compile_model_ms", "Compile model took ([0-9]+([.][0-9]+)?) ms", "Compile model took", NS_AGG_LAST},
    /* the NPU compiler's VmPeak (virtual memory, /proc/self/status): 2024
     * logs the absolute value after each compile (it only grows in a
     * process: the largest is the process's peak by its last compile);
     * 2025+ logs its growth during each compile (summed: how much the
     * run's compiles raised it; a later compile below an earlier peak logs 0) */
    {"compiler_vmpeak_kb", "End of compilation memory usage: Peak ([0-9]+) KB",
     "End of compilation memory usage: Peak", NS_AGG_MAX},
    {"compiler_vmpeak_delta_kb", "Compilation memory usage: Peak ([0-9]+) KB",
     "Compilation memory usage: Peak", NS_AGG_SUM},
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
        m->rules[i].gave_up = 0;
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

#define NS__ACC(s) (s)->set->n

static double ns__now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Match rule i on line; a --metric rule (no hint) is timed against its
 * budget. */
static int ns__match(ns_metric_stream *s, int i, const char *line, size_t len, regmatch_t *g) {
    const ns_metric_rule *r = &s->set->rules[i];
    if (r->hint) return regexec(&r->re, line, 10, g, 0);
    if (s->gave_up[i] || len > NS_METRIC_USER_LINE_MAX) return REG_NOMATCH;
    double t0 = ns__now();
    int rc = regexec(&r->re, line, 10, g, 0);
    s->spent_s[i] += ns__now() - t0;
    if (s->spent_s[i] > NS_METRIC_BUDGET_S) {
        s->gave_up[i] = 1;
        ns_warn_at(NULL, 0,
                   "--metric %s: matching took over %.0f s on this run's output (a regex that "
                   "starts with a repetition is tried at every position of every line); the "
                   "rest was not searched and the run has no %s: start the regex with fixed "
                   "text",
                   r->name, NS_METRIC_BUDGET_S, r->name);
        return REG_NOMATCH;
    }
    return rc;
}

/* Rule i on one line (a C string of len bytes, NULs made blanks). */
static void ns__rule_line(ns_metric_stream *s, int i, const char *line, size_t len) {
    const ns_metric_rule *r = &s->set->rules[i];
    regmatch_t g[10];
    if (ns__match(s, i, line, len, g) != 0) return;
    int k = 1;
    while (k < 10 && (size_t)k <= r->re.re_nsub && g[k].rm_so < 0) k++;
    if (k >= 10 || (size_t)k > r->re.re_nsub) return;
    char num[64];
    size_t nlen = (size_t)(g[k].rm_eo - g[k].rm_so);
    if (nlen == 0 || nlen >= sizeof num) return;
    memcpy(num, line + g[k].rm_so, nlen);
    num[nlen] = 0;
    char *end;
    double v = strtod(num, &end); /* C locale: npuscope never calls setlocale */
    if (end == num) return;
    double *acc = &s->value[i];
    switch (r->agg) {
    case NS_AGG_LAST: *acc = v; break;
    case NS_AGG_SUM: *acc = s->count[i] ? *acc + v : v; break;
    case NS_AGG_MAX: *acc = (!s->count[i] || v > *acc) ? v : *acc; break;
    }
    s->count[i]++;
}

/* Every rule on one whole line held in s->line. */
static void ns__line(ns_metric_stream *s) {
    if (s->skipping) return;
    s->line[s->len] = 0;
    for (int i = 0; i < NS__ACC(s); i++) {
        const char *hint = s->set->rules[i].hint;
        if (hint && !strstr(s->line, hint)) continue;
        ns__rule_line(s, i, s->line, s->len);
    }
}

/* Append bytes [p, p + n) to s->line, NULs as blanks (a line is a C string
 * for regexec); past NS__METRIC_LINE_MAX the line is dropped. */
static void ns__line_add(ns_metric_stream *s, const char *p, size_t n) {
    if (s->skipping) return;
    if (n > NS__METRIC_LINE_MAX - s->len) {
        s->skipping = 1;
        return;
    }
    char *d = s->line + s->len;
    memcpy(d, p, n);
    for (char *z = d; (z = memchr(z, 0, n - (size_t)(z - d))) != NULL;) *z++ = ' ';
    s->len += n;
}

/* The complete lines in [p, end) (end is just after a '\n'), rule by rule:
 * the hinted ones find their text with memmem and look at those lines
 * only; each rule sees its lines in order, which is all "last", "sum" and
 * "max" need. */
static void ns__block(ns_metric_stream *s, const char *p, const char *end) {
    for (int i = 0; i < NS__ACC(s); i++) {
        const char *hint = s->set->rules[i].hint;
        if (!hint) { /* a --metric rule: every line */
            for (const char *q = p; q < end;) {
                const char *nl = memchr(q, '\n', (size_t)(end - q));
                s->len = 0;
                s->skipping = 0;
                ns__line_add(s, q, (size_t)(nl - q));
                if (!s->skipping) {
                    s->line[s->len] = 0;
                    ns__rule_line(s, i, s->line, s->len);
                }
                q = nl + 1;
            }
            continue;
        }
        size_t hl = strlen(hint);
        for (const char *q = p; q < end;) {
            const char *hit = memmem(q, (size_t)(end - q), hint, hl);
            if (!hit) break;
            const char *ls = hit;
            while (ls > p && ls[-1] != '\n') ls--;
            const char *nl = memchr(hit, '\n', (size_t)(end - hit));
            s->len = 0;
            s->skipping = 0;
            ns__line_add(s, ls, (size_t)(nl - ls));
            if (!s->skipping) {
                s->line[s->len] = 0;
                /* a NUL before the text hid it from the line-wise strstr:
                 * the same rule here, on the line as regexec sees it */
                if (strstr(s->line, hint)) ns__rule_line(s, i, s->line, s->len);
            }
            q = nl + 1;
        }
    }
    s->len = 0;
    s->skipping = 0;
}

void ns_metrics_stream_init(ns_metric_stream *s, const ns_metric_set *m) {
    memset(s, 0, sizeof *s);
    s->set = m;
    s->line = ns_xmalloc(NS__METRIC_LINE_MAX + 1);
    size_t n = (size_t)(m->n ? m->n : 1);
    s->value = ns_xcalloc(n, sizeof *s->value);
    s->count = ns_xcalloc(n, sizeof *s->count);
    s->spent_s = ns_xcalloc(n, sizeof *s->spent_s);
    s->gave_up = ns_xcalloc(n, sizeof *s->gave_up);
}

void ns_metrics_feed(ns_metric_stream *s, const char *buf, size_t n) {
    const char *end = buf + n;
    const char *first = memchr(buf, '\n', n);
    if (!first) {
        ns__line_add(s, buf, n);
        return;
    }
    /* the line the previous piece cut, completed */
    ns__line_add(s, buf, (size_t)(first - buf));
    ns__line(s);
    s->len = 0;
    s->skipping = 0;
    const char *last = first;
    for (const char *q = end; q > first + 1;) { /* memrchr is GNU: walk back */
        if (q[-1] == '\n') {
            last = q - 1;
            break;
        }
        q--;
    }
    if (last > first) ns__block(s, first + 1, last + 1);
    ns__line_add(s, last + 1, (size_t)(end - (last + 1)));
}

void ns_metrics_stream_end(ns_metric_stream *s, ns_metric_set *m) {
    if (s->len && !s->skipping) ns__line(s);
    for (int i = 0; i < m->n && i < NS__ACC(s); i++) {
        ns_metric_rule *r = &m->rules[i];
        if (s->gave_up[i]) r->gave_up = 1;
        if (!s->count[i] || s->gave_up[i]) continue;
        double v = s->value[i];
        switch (r->agg) {
        case NS_AGG_LAST: r->value = v; break;
        case NS_AGG_SUM: r->value = r->count ? r->value + v : v; break;
        case NS_AGG_MAX: r->value = (!r->count || v > r->value) ? v : r->value; break;
        }
        r->count += s->count[i];
    }
    free(s->line);
    free(s->value);
    free(s->count);
    free(s->spent_s);
    free(s->gave_up);
    memset(s, 0, sizeof *s);
}

void ns_metrics_scan_file(ns_metric_set *m, const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return;
    ns_metric_stream s;
    ns_metrics_stream_init(&s, m);
    char *buf = ns_xmalloc(1u << 16);
    size_t n;
    while ((n = fread(buf, 1, 1u << 16, f)) > 0) ns_metrics_feed(&s, buf, n);
    ns_metrics_stream_end(&s, m);
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
        if (!rule->count || rule->gave_up) continue;
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
