/* npu.c -- NPU compile facts and NPUW labels (see npu.h).
 *
 * Facts are found by the fixed text of the message, wherever it sits in the
 * line, so the vpux logger's "[INFO] hh:mm:ss.mmm [name] " prefix, the
 * plugin's colour codes and any indentation do not matter.  Message texts
 * are those of the NPU compiler sources (npu_compiler 2024-2026): see
 * docs/npu.md.
 */
#include "npu/npu.h"

#include "npu/failure.h"
#include "npu/logline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ====== Facts ====== */

static const struct {
    const char *text;   /* fixed text just before the number */
    const char *name;   /* fact name */
    ns_fact_side side;  /* which report it belongs to */
} ns__facts[] = {
    /* VmPeak of /proc/self/status (virtual memory, not RSS): the absolute
     * value at the end of the compile (INFO in 2024, DEBUG from 2025 on),
     * and from 2025 on at INFO the growth during this compile only, which
     * is 0 for a later compile of one process that stays below the peak an
     * earlier one reached (NPUW).  The DEBUG "Start of ..." line is left. */
    {"End of compilation memory usage: Peak ", "compiler_vmpeak_kb", NS_FACT_PREV},
    {"Compilation memory usage: Peak ", "compiler_vmpeak_delta_kb", NS_FACT_PREV},
    {"Compile net time: ", "compile_net_ms", NS_FACT_PREV},
    /* the driver's compiler library (VCL) at LOG_INFO: the model's
     * deserialisation before the compile, the blob's after it */
    {"The time to convert data to model: ", "vcl_convert_ms", NS_FACT_NEXT},
    {"getCompiledNetwork time: ", "vcl_get_blob_ms", NS_FACT_PREV},
    {"exportNetwork time: ", "vcl_export_ms", NS_FACT_PREV},
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

/* ====== What a line must hold to matter ====== */

void ns_npu_needles(ns_needles *nd) {
    /* the facts first, in their order, then the IE statistics: the bits
     * ns_npu_fact_in reads */
    static const char *const others[] = {
        "[dump-statistics-of-ie-ops]",             /* ie_ops (below) */
        "Total number of Inits: ", "Compile Init[", /* weights separation (ns_npu_ws_line), */
        "Compile Main",                             /* and memory.c's Init marker */
        "[ NPUW:",                                  /* the trace, subgraph names */
        "Final strategies for output pipelining:",  /* the strategy dump (hook.c) */
        "Peak memory usage after '",                /* the memory collector (memory.c) */
    };
    ns_needles_init(nd);
    for (size_t i = 0; i < sizeof ns__facts / sizeof ns__facts[0]; i++)
        ns_needles_add(nd, ns__facts[i].text);
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) ns_needles_add(nd, others[i]);
    ns_npu_load_needles(nd); /* failures and environment (failure.h) */
}

/* Digits (and a '.') at p, up to end: their count, the value in *v. */
static size_t ns__number(const char *p, const char *end, double *v) {
    char num[40];
    size_t k = 0;
    while (p + k < end && k + 1 < sizeof num && ((p[k] >= '0' && p[k] <= '9') || p[k] == '.')) {
        num[k] = p[k];
        k++;
    }
    num[k] = 0;
    if (k) *v = strtod(num, NULL);
    return k;
}

/* The IE dialect statistics' top counter, "IE - N (P%)" (2025+:
 * dump_statistics_of_ie_ops.cpp prints every counter as "{0} - {1}
 * ({2:P})"); a bare "IE - N" is taken too.  "IE - " is too short a text to
 * look for anywhere, so only on the lines of its own logger (the last such
 * line before a report, the end-of-pipeline count, wins). */
static int ns__ie_ops(const char *s, size_t n, double *value) {
    const char *p = ns__find(s, n, "[dump-statistics-of-ie-ops]"), *end = s + n;
    if (!p) return 0;
    while (p < end && *p == ' ') p++;
    if (end - p <= 5 || memcmp(p, "IE - ", 5) != 0) return -1;
    p += 5;
    double v = 0;
    size_t k = ns__number(p, end, &v);
    if (!k || memchr(p, '.', k)) return -1;
    p += k;
    if (p < end && !(end - p >= 4 && p[0] == ' ' && p[1] == '(' && end[-1] == ')' && end[-2] == '%'))
        return -1;
    *value = v;
    return 1;
}

#define NS__NFACTS (sizeof ns__facts / sizeof ns__facts[0])

int ns_npu_fact(const char *s, size_t n, const char **name, double *value, ns_fact_side *side) {
    return ns_npu_fact_in(s, n, ~(uint64_t)0, name, value, side);
}

int ns_npu_fact_in(const char *s, size_t n, uint64_t have, const char **name, double *value,
                   ns_fact_side *side) {
    if (n < 12) return 0;
    int ie = have >> NS__NFACTS & 1 ? ns__ie_ops(s, n, value) : 0;
    if (ie) {
        if (ie < 0) return 0; /* another line of that logger */
        *name = "ie_ops";
        *side = NS_FACT_NEXT;
        return 1;
    }
    for (size_t i = 0; i < NS__NFACTS; i++) {
        if (!(have >> i & 1)) continue; /* the line does not hold its text */
        const char *p = ns__find(s, n, ns__facts[i].text);
        if (!p || !ns__number(p, s + n, value)) continue;
        *name = ns__facts[i].name;
        *side = ns__facts[i].side;
        return 1;
    }
    return 0;
}

/* ====== Whose log it is ====== */

/* Loggers that only the NPU stack has: the compiler's own, its threading
 * setup, the plugin's compiler adapters and the driver's compiler library
 * (2024 "VCL", 2026 "NPU_VCL"). */
static const char *const ns__npu_loggers[] = {
    "[vpux-compiler]", "[compiler-threading]", "[DriverCompilerAdapter]",
    "[PluginCompilerAdapter]", "[VCL]", "[NPU_VCL]", "[NPUZeroInitStructsHolder]",
    NULL}; /* in their brackets */

/* OpenVINO's exception when no device compiled a (sub-)model for the NPU:
 * the only line that names an NPUW sub-model in a release build (see
 * failure.h); it comes on stderr, often with no logger line before it. */
static const char ns__npu_exception[] = " for all devices in [NPU";

/* The exception's line: "Failed to compile NAME for all devices in [NPU]"
 * at the line's start, or after an exception's name ("RuntimeError: ",
 * "Exception: "), ending in "[NPU]" -- not a line that quotes it. */
static int ns__npu_exception_line(const char *s, size_t n) {
    static const char fc[] = "Failed to compile ";
    const char *p = s, *end = s + n;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    if ((size_t)(end - p) >= sizeof fc - 1 && memcmp(p, fc, sizeof fc - 1) != 0) {
        const char *q = p; /* a word ending in "Error" or "Exception", then ": " */
        while (q < end && ((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z') || *q == '.' ||
                           *q == '_' || (*q >= '0' && *q <= '9')))
            q++;
        int named = (q - p >= 5 && !memcmp(q - 5, "Error", 5)) ||
                    (q - p >= 9 && !memcmp(q - 9, "Exception", 9));
        if (!named || end - q < 2 || q[0] != ':' || q[1] != ' ') return 0;
        p = q + 2;
    }
    if ((size_t)(end - p) < sizeof fc - 1 || memcmp(p, fc, sizeof fc - 1) != 0) return 0;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '.')) end--;
    size_t k = sizeof ns__npu_exception - 1;
    return (size_t)(end - p) > k + 1 && !memcmp(end - k - 1, ns__npu_exception, k) && end[-1] == ']';
}

int ns_npu_log_line(const char *s, size_t n) {
    if (n >= 8 && ns__find(s, n < 24 ? n : 24, "[ NPUW:")) return 1;
    if (ns__npu_exception_line(s, n)) return 1;
    ns_logline l;
    if (!ns_logline_parse(s, n, &l)) return 0;
    for (int i = 0; ns__npu_loggers[i]; i++)
        if (strlen(ns__npu_loggers[i]) == l.logger_len + 2 &&
            !memcmp(ns__npu_loggers[i] + 1, l.logger, l.logger_len))
            return 1;
    return 0;
}

/* A line ns_npu_log_line takes holds "[ NPUW:" or a logger's name in its
 * brackets (ns_logline_parse reads it between '[' and the first ']'). */
void ns_npu_log_needles(ns_needles *nd) {
    ns_needles_init(nd);
    ns_needles_add(nd, "[ NPUW:");
    for (int i = 0; ns__npu_loggers[i]; i++) ns_needles_add(nd, ns__npu_loggers[i]);
    ns_needles_add(nd, ns__npu_exception);
}

int ns_npu_log_sniff(const char *buf, size_t len) {
    const char *p = buf, *end = buf + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl ? nl : end) - p);
        if (n && p[n - 1] == '\r') n--;
        if (n && ns_npu_log_line(p, n)) return 1;
        if (!nl) break;
        p = nl + 1;
    }
    return 0;
}

/* ====== Weights separation ====== */

/* A whole number of at most 9 digits at p, filling [p, end) exactly. */
static int ns__count(const char *p, const char *end, long *value) {
    if (p >= end || end - p > 9) return 0;
    long v = 0;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9') return 0;
        v = v * 10 + (*p - '0');
    }
    *value = v;
    return 1;
}

int ns_npu_ws_line(const char *s, size_t n, long *value) {
    ns_logline l;
    if (!ns_logline_parse(s, n, &l)) return 0;
    const char *m = l.msg, *end = l.msg + l.msg_len;
    while (end > m && end[-1] == ' ') end--;
    size_t k = (size_t)(end - m);
    static const char inits[] = "Total number of Inits: ", init[] = "Compile Init[";
    if (k > sizeof inits - 1 && !memcmp(m, inits, sizeof inits - 1))
        return ns__count(m + sizeof inits - 1, end, value) ? 1 : 0;
    if (k > sizeof init && !memcmp(m, init, sizeof init - 1) && end[-1] == ']')
        return ns__count(m + sizeof init - 1, end - 1, value) ? 2 : 0;
    if (k == 12 && !memcmp(m, "Compile Main", 12)) return 3;
    return 0;
}

/* ====== The NPUW compile trace ====== */

int ns_npuw_trace(const char *s, size_t n, ns_npuw_trace_line *t) {
    const char *p = ns__find(s, n, "[ NPUW:INFO ] "), *end = s + n;
    if (!p) return 0;
    static const char *const phases[] = {"START ", "RUN   ", "END   "};
    int ph = -1;
    for (int i = 0; i < 3; i++)
        if (end - p > 6 && !memcmp(p, phases[i], 6)) ph = i;
    if (ph < 0) return 0;
    p += 6;
    const char *lend = end;
    t->seconds = -1;
    if (ph > 0) { /* " (X.XXXs)" or " (X.XXXs elapsed)" */
        const char *open = NULL;
        for (const char *q = end; q > p; q--)
            if (q[-1] == '(') {
                open = q - 1;
                break;
            }
        if (!open || open == p || open[-1] != ' ' || end[-1] != ')') return 0;
        double v;
        size_t d = ns__number(open + 1, end, &v);
        if (!d || open[1 + d] != 's') return 0;
        t->seconds = v;
        lend = open - 1;
    }
    if (lend <= p) return 0;
    t->phase = ph == 0 ? NS_NPUW_TRACE_START : ph == 1 ? NS_NPUW_TRACE_RUN : NS_NPUW_TRACE_END;
    t->label = p;
    t->label_len = (size_t)(lend - p);
    return 1;
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
