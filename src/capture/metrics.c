/* metrics.c -- metric rules and the scan of the output logs (see metrics.h). */
/* memmem() is GNU and BSD (POSIX only from 2024): the search of a rule's
 * fixed text over a whole piece of output, at memory speed. */
#define _GNU_SOURCE 1
#include "capture/metrics.h"
#include "platform/plat.h"

#include "base/regex_guard.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

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
        ns_regex_error(rc, &re, msg, sizeof msg);
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

/* ====== Anchors ======
 * An anchor is the first bytes of a rule's fixed text (up to
 * NS__ANCHOR_MAX): every line that holds the text holds its anchor, so
 * the lines found by an anchor are all its rules need, and rules whose
 * texts begin alike ("Compile model took", "Compile net time:") share one.
 * Candidates are found as in Wojciech Mula's SIMD substring search: the
 * anchor's first byte at position i and its last byte at i + len - 1,
 * compared for 64 positions a step; the bytes between are compared only
 * where both match. */

#define NS__ANCHOR_MAX 8

struct ns_metric_anchor {
    char text[NS__ANCHOR_MAX]; /* the first bytes of the rules' text */
    size_t len;                /* how many (2..NS__ANCHOR_MAX) */
    size_t skip_to;            /* offset in the block where its next line starts */
};

/* The anchor of rule i: a new one or one that an earlier rule has. */
static void ns__anchor_add(ns_metric_stream *s, int i) {
    const char *hint = s->set->rules[i].hint;
    size_t len = strlen(hint);
    if (len > NS__ANCHOR_MAX) len = NS__ANCHOR_MAX;
    if (len < 2) { /* too short to anchor: the rule looks at every line */
        s->anchor_of[i] = -1;
        return;
    }
    for (int a = 0; a < s->nanchors; a++)
        if (s->anchors[a].len == len && !memcmp(s->anchors[a].text, hint, len)) {
            s->anchor_of[i] = a;
            return;
        }
    struct ns_metric_anchor *an = &s->anchors[s->nanchors];
    memcpy(an->text, hint, len);
    an->len = len;
    s->anchor_of[i] = s->nanchors++;
}

/* Anchor a matched at p + pos (p is the start of the block, end just after
 * a '\n'): the rules of a on that line, then the anchor skips to the next
 * line (a rule looks at a line once). */
static void ns__anchor_line(ns_metric_stream *s, int a, const char *p, const char *end,
                            size_t pos) {
    const char *hit = p + pos, *ls = hit;
    while (ls > p && ls[-1] != '\n') ls--;
    const char *nl = memchr(hit, '\n', (size_t)(end - hit));
    s->len = 0;
    s->skipping = 0;
    ns__line_add(s, ls, (size_t)(nl - ls));
    if (!s->skipping) {
        s->line[s->len] = 0;
        for (int i = 0; i < NS__ACC(s); i++)
            /* the rule's whole text, on the line as regexec sees it */
            if (s->anchor_of[i] == a && strstr(s->line, s->set->rules[i].hint))
                ns__rule_line(s, i, s->line, s->len);
    }
    s->anchors[a].skip_to = (size_t)(nl + 1 - p);
}

/* Positions [from, len) of the block for anchor a, with memmem: the tail
 * the vector loop leaves, or the whole block without one. */
static void ns__anchor_rest(ns_metric_stream *s, int a, const char *p, const char *end,
                            size_t from) {
    size_t len = (size_t)(end - p);
    struct ns_metric_anchor *an = &s->anchors[a];
    size_t at = from > an->skip_to ? from : an->skip_to;
    while (at < len) {
        const char *hit = memmem(p + at, len - at, an->text, an->len);
        if (!hit) break;
        ns__anchor_line(s, a, p, end, (size_t)(hit - p));
        at = an->skip_to;
    }
}

/* The vector loops: each returns where the positions it did not look at
 * start (the tail, for memmem).  SSE2 takes one anchor at a time, so that
 * its two broadcast bytes stay in registers (the block is in the cache
 * from the read), 64 positions a step, so that a step without a candidate
 * is one branch; AVX2 takes four at a time. */
#if defined(__SSE2__)
/* A candidate of anchor a at p + pos, where its first and last bytes match. */
static inline void ns__anchor_try(ns_metric_stream *s, int a, const char *p, const char *end,
                                  size_t pos) {
    const struct ns_metric_anchor *an = &s->anchors[a];
    if (pos < an->skip_to || memcmp(p + pos + 1, an->text + 1, an->len - 2)) return;
    ns__anchor_line(s, a, p, end, pos);
}

static size_t ns__anchor_sse2(ns_metric_stream *s, int a, const char *p, const char *end) {
    const struct ns_metric_anchor *an = &s->anchors[a];
    const __m128i first = _mm_set1_epi8(an->text[0]), last = _mm_set1_epi8(an->text[an->len - 1]);
    const size_t len = (size_t)(end - p), off = an->len - 1;
    size_t i = 0;
    for (; i + 64 + NS__ANCHOR_MAX <= len; i += 64) {
        uint64_t m = 0;
        for (int k = 0; k < 4; k++) {
            __m128i f = _mm_loadu_si128((const __m128i *)(const void *)(p + i + 16 * k));
            __m128i l = _mm_loadu_si128((const __m128i *)(const void *)(p + i + 16 * k + off));
            m |= (uint64_t)(uint32_t)_mm_movemask_epi8(
                     _mm_and_si128(_mm_cmpeq_epi8(f, first), _mm_cmpeq_epi8(l, last)))
                 << (16 * k);
        }
        for (; m; m &= m - 1) ns__anchor_try(s, a, p, end, i + (size_t)__builtin_ctzll(m));
    }
    return i;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NS__HAVE_AVX2 1
/* Four anchors of NS__ANCHOR_MAX bytes in one pass (all the built-in
 * rules' are that long): their last bytes are all at i + 7, so a step is
 * two loads and eight compares for the four, in registers.  `a` are the
 * anchors (a group of fewer repeats one); a candidate is checked whole
 * against each. */
__attribute__((target("avx2"))) static size_t ns__anchor4_avx2(ns_metric_stream *s, const int a[4],
                                                                const char *p, const char *end) {
    __m256i f[4], l[4];
    for (int k = 0; k < 4; k++) {
        f[k] = _mm256_set1_epi8(s->anchors[a[k]].text[0]);
        l[k] = _mm256_set1_epi8(s->anchors[a[k]].text[NS__ANCHOR_MAX - 1]);
    }
    const __m256i f0 = f[0], f1 = f[1], f2 = f[2], f3 = f[3], l0 = l[0], l1 = l[1], l2 = l[2],
                  l3 = l[3];
    const size_t len = (size_t)(end - p);
    size_t i = 0;
    for (; i + 32 + NS__ANCHOR_MAX <= len; i += 32) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
        __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(p + i + NS__ANCHOR_MAX - 1));
        __m256i m = _mm256_or_si256(
            _mm256_or_si256(_mm256_and_si256(_mm256_cmpeq_epi8(x, f0), _mm256_cmpeq_epi8(y, l0)),
                            _mm256_and_si256(_mm256_cmpeq_epi8(x, f1), _mm256_cmpeq_epi8(y, l1))),
            _mm256_or_si256(_mm256_and_si256(_mm256_cmpeq_epi8(x, f2), _mm256_cmpeq_epi8(y, l2)),
                            _mm256_and_si256(_mm256_cmpeq_epi8(x, f3), _mm256_cmpeq_epi8(y, l3))));
        unsigned bits = (unsigned)_mm256_movemask_epi8(m);
        for (; bits; bits &= bits - 1) {
            size_t pos = i + (size_t)__builtin_ctz(bits);
            for (int k = 0; k < 4; k++) {
                if (k && a[k] == a[0]) break; /* the padding of a short group */
                const struct ns_metric_anchor *an = &s->anchors[a[k]];
                if (pos >= an->skip_to && !memcmp(p + pos, an->text, NS__ANCHOR_MAX))
                    ns__anchor_line(s, a[k], p, end, pos);
            }
        }
    }
    return i;
}
#endif
#endif

static int ns__simd = -1; /* NS_SIMD_* in use; -1 until chosen */

int ns_metrics_simd(int want) {
    int best = ns_simd_best(); /* the same build conditions as this file's loops */
    if (best > NS_SIMD_AVX2) best = NS_SIMD_AVX2; /* this file's widest */
    ns__simd = want < 0 || want > best ? best : want;
    return ns__simd;
}

/* Every anchor over the block: the vector loop chosen, then the tail. */
static void ns__anchors(ns_metric_stream *s, const char *p, const char *end) {
    if (ns__simd < 0) ns_metrics_simd(-1);
    for (int a = 0; a < s->nanchors; a++) s->anchors[a].skip_to = 0;
#if defined(NS__HAVE_AVX2)
    if (ns__simd == NS_SIMD_AVX2) {
        /* the full-length anchors four at a time, then each one's tail */
        int group[4], ng = 0;
        for (int a = 0; a <= s->nanchors; a++) {
            if (a < s->nanchors && s->anchors[a].len == NS__ANCHOR_MAX) group[ng++] = a;
            if (ng == 4 || (a == s->nanchors && ng)) {
                for (int k = ng; k < 4; k++) group[k] = group[0];
                size_t from = ns__anchor4_avx2(s, group, p, end);
                for (int k = 0; k < ng; k++) ns__anchor_rest(s, group[k], p, end, from);
                ng = 0;
            }
        }
    }
#endif
    for (int a = 0; a < s->nanchors; a++) {
#if defined(NS__HAVE_AVX2)
        if (ns__simd == NS_SIMD_AVX2 && s->anchors[a].len == NS__ANCHOR_MAX) continue; /* done */
#endif
        size_t from = 0;
        switch (ns__simd) {
#if defined(__SSE2__)
        case NS_SIMD_AVX2: /* a short anchor (none of the built-ins'): as SSE2 */
        case NS_SIMD_SSE2: from = ns__anchor_sse2(s, a, p, end); break;
#endif
        default: break; /* NS_SIMD_NONE: memmem */
        }
        ns__anchor_rest(s, a, p, end, from);
    }
}

/* The complete lines in [p, end) (end is just after a '\n'): the rules
 * with a fixed text through their anchors, each --metric rule on every
 * line; each rule sees its lines in order, which is all "last", "sum" and
 * "max" need. */
static void ns__block(ns_metric_stream *s, const char *p, const char *end) {
    ns__anchors(s, p, end);
    for (int i = 0; i < NS__ACC(s); i++) {
        if (s->anchor_of[i] >= 0) continue;
        for (const char *q = p; q < end;) { /* a --metric rule: every line */
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
    s->anchors = ns_xcalloc(n, sizeof *s->anchors);
    s->anchor_of = ns_xcalloc(n, sizeof *s->anchor_of);
    for (int i = 0; i < m->n; i++) {
        if (m->rules[i].hint) ns__anchor_add(s, i);
        else s->anchor_of[i] = -1;
    }
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
    free(s->anchors);
    free(s->anchor_of);
    memset(s, 0, sizeof *s);
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
