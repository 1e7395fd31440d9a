/* times.c -- the time and the compile markers of a log line (times.h). */
#include "npu/times.h"

#include "npu/logline.h"

#include <string.h>

static int ns__has(const char *s, size_t n, const char *text) {
    size_t k = strlen(text);
    for (size_t i = 0; i + k <= n; i++)
        if (s[i] == text[0] && !memcmp(s + i, text, k)) return 1;
    return 0;
}

/* "HH:MM:SS.m" to "HH:MM:SS.mmm" (one to three digits: the plugin does not
 * pad) in [p, e), with nothing else: 1 and *sec, else 0. */
static int ns__clock(const char *p, const char *e, double *sec) {
    int d[6], k = 0;
    if (e - p < 10) return 0;
    for (int i = 0; i < 8; i++) {
        if (i == 2 || i == 5) {
            if (p[i] != ':') return 0;
            continue;
        }
        if (p[i] < '0' || p[i] > '9') return 0;
        d[k++] = p[i] - '0';
    }
    if (p[8] != '.') return 0;
    long ms = 0;
    const char *q = p + 9;
    if (q >= e || e - q > 3) return 0;
    for (; q < e; q++) {
        if (*q < '0' || *q > '9') return 0;
        ms = ms * 10 + (*q - '0');
    }
    int h = d[0] * 10 + d[1], m = d[2] * 10 + d[3], s = d[4] * 10 + d[5];
    if (h > 23 || m > 59 || s > 60) return 0; /* 60: a leap second */
    *sec = h * 3600.0 + m * 60.0 + s + ms / 1000.0;
    return 1;
}

/* The loggers of the plugin, the driver and NPUW: a line of one of them is
 * not the compiler at work. */
static int ns__plugin_logger(const char *name, size_t n) {
    static const char *const plugin[] = {
        "PluginCompilerAdapter", "DriverCompilerAdapter", "serializeConfig", "ZeGraphExtWrappers",
        "NPUZeroInitStructsHolder", "Config", "OptionsDesc", "Graph", "VCLCompilerImpl",
        "NPUBackend", "NPUPlugin", "ZeroDevice", "ZeroEngineBackend", NULL};
    for (int i = 0; plugin[i]; i++)
        if (strlen(plugin[i]) == n && !memcmp(plugin[i], name, n)) return 1;
    return 0;
}

void ns_npu_time_line(const char *s, size_t n, ns_time_line *out) {
    memset(out, 0, sizeof *out);
    ns_logline l;
    if (!ns_logline_parse(s, n, &l)) {
        /* MLIR's echo of an error diagnostic has no prefix */
        out->fail = n > 4 && !memcmp(s, "loc(", 4) && ns__has(s, n, ": error: ");
        return;
    }
    /* the time sits between "] " after the level and " [" before the name */
    const char *p = l.level + l.level_len + 2, *e = l.logger - 2;
    out->timed = p <= e && ns__clock(p, e, &out->sec) ? NS_TIME_OK : NS_TIME_BAD;
    out->compiler = !ns__plugin_logger(l.logger, l.logger_len);
    const char *m = l.msg;
    size_t mn = l.msg_len;
    static const char *const opens[] = {
        "getSupportedOpsetVersion", "config: ", "Total number of threads available for compilation",
        "Created an MLIR thread pool", NULL};
    for (int i = 0; opens[i]; i++)
        if (ns__has(m, mn, opens[i])) out->open |= 1u << i;
    static const char *const closes[] = {"Compilation memory usage: Peak ", "Compile net time: ",
                                         "getCompiledNetwork time: ", "exportNetwork time: ", NULL};
    for (int i = 0; closes[i]; i++)
        if (ns__has(m, mn, closes[i])) out->close = 1;
    if (ns__has(m, mn, "Failed Pass ") ||
        (l.level_len == 5 && !memcmp(l.level, "ERROR", 5) && ns__has(m, mn, "Got Diagnostic at ")))
        out->fail = 1;
}
