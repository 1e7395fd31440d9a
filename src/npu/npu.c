/* npu.c -- NPU compile facts and NPUW labels (see npu.h).
 *
 * Facts are found by the fixed text of the message, wherever it sits in the
 * line, so the vpux logger's "[INFO] hh:mm:ss.mmm [name] " prefix, the
 * plugin's colour codes and any indentation do not matter.  Message texts
 * are those of the NPU compiler sources (npu_compiler 2024-2026): see
 * docs/npu.md.
 */
#include "npu/npu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ====== Facts ====== */

static const struct {
    const char *text;   /* fixed text just before the number */
    const char *name;   /* fact name */
    ns_fact_side side;  /* which report it belongs to */
} ns__facts[] = {
    {"Compilation memory usage: Peak ", "compiler_peak_kb", NS_FACT_PREV},
    {"compilation memory usage: Peak ", "compiler_peak_kb", NS_FACT_PREV}, /* 2024: "End of ..." */
    {"Compile net time: ", "compile_net_ms", NS_FACT_PREV},
    {"Created an MLIR thread pool with ", "mlir_workers", NS_FACT_NEXT},
    {"Total number of threads available for compilation: ", "threads_available", NS_FACT_NEXT},
    {"Estimated inference latency: ", "est_latency_us", NS_FACT_NEXT},
    {"VPUIP Tasks - ", "vpuip_tasks", NS_FACT_NEXT},
    {"Model preprocessing time: ", "preprocessing_ms", NS_FACT_NEXT},
};

/* A short search for text in [s, s+n). */
static const char *ns__find(const char *s, size_t n, const char *text) {
    size_t k = strlen(text);
    for (size_t i = 0; i + k <= n; i++)
        if (s[i] == text[0] && memcmp(s + i, text, k) == 0) return s + i + k;
    return NULL;
}

int ns_npu_fact(const char *s, size_t n, const char **name, double *value, ns_fact_side *side) {
    if (n < 12) return 0;
    /* IE dialect statistics: "IE - N" is too short to look for anywhere, so
     * only on the lines of its own logger (the last such line before a
     * report, the end-of-pipeline count, wins) */
    const char *ie = ns__find(s, n, "[dump-statistics-of-ie-ops]");
    if (ie) {
        const char *p = ie;
        while (p < s + n && *p == ' ') p++;
        if (s + n - p > 5 && !memcmp(p, "IE - ", 5)) {
            p += 5;
            char *end;
            char num[32];
            size_t k = 0;
            while (p < s + n && k + 1 < sizeof num && *p >= '0' && *p <= '9') num[k++] = *p++;
            num[k] = 0;
            if (k && p == s + n) {
                *value = strtod(num, &end);
                *name = "ie_ops";
                *side = NS_FACT_NEXT;
                return 1;
            }
        }
        return 0;
    }
    for (size_t i = 0; i < sizeof ns__facts / sizeof ns__facts[0]; i++) {
        const char *p = ns__find(s, n, ns__facts[i].text);
        if (!p) continue;
        char num[40];
        size_t k = 0;
        while (p < s + n && k + 1 < sizeof num && ((*p >= '0' && *p <= '9') || *p == '.')) num[k++] = *p++;
        if (!k) continue;
        num[k] = 0;
        *value = strtod(num, NULL);
        *name = ns__facts[i].name;
        *side = ns__facts[i].side;
        return 1;
    }
    return 0;
}

size_t ns_npuw_subgraph(const char *s, size_t n, const char **name) {
    if (!ns__find(s, n, "[ NPUW:")) return 0;
    const char *p = ns__find(s, n, "Compiling Subgraph[");
    if (!p) return 0;
    const char *q = ns__find(p, (size_t)(s + n - p), "]: ");
    if (!q) return 0;
    const char *end = s + n;
    while (end > q && (end[-1] == ' ' || end[-1] == '.')) end--; /* "NAME..." */
    if (end <= q) return 0;
    *name = q;
    return (size_t)(end - q);
}

/* ====== NPUW labels ====== */

int ns_npuw_label(const char *layout, int k, char *buf, size_t bufsize) {
    int seen = 0;
    const char *p = layout;
    while (*p) {
        const char *colon = strchr(p, ':');
        if (!colon || colon == p) return -2;
        char *end;
        long cnt = strtol(colon + 1, &end, 10);
        if (end == colon + 1 || cnt < 1 || cnt > 100000 || (*end && *end != ',')) return -2;
        if (k < seen + cnt) {
            if (cnt == 1) snprintf(buf, bufsize, "%.*s", (int)(colon - p), p);
            else snprintf(buf, bufsize, "%.*s/%d", (int)(colon - p), p, k - seen + 1);
            return 0;
        }
        seen += (int)cnt;
        p = *end ? end + 1 : end;
    }
    snprintf(buf, bufsize, "extra/%d", k - seen + 1);
    return -1;
}

/* ====== Sub-model kinds ====== */

char *ns_submodel_kind_new(const char *label) {
    const char *end = label + strlen(label);
    for (;;) {
        const char *slash = end;
        while (slash > label && slash[-1] != '/') slash--;
        int numeric = slash < end;
        for (const char *p = slash; p < end; p++)
            if (*p < '0' || *p > '9') numeric = 0;
        if (!numeric || slash == label) {
            char *k = malloc((size_t)(end - slash) + 1);
            if (!k) abort();
            memcpy(k, slash, (size_t)(end - slash));
            k[end - slash] = 0;
            return k;
        }
        end = slash - 1;
    }
}
