/* fuzz_metric.c -- libFuzzer target: a --metric NAME=REGEX rule
 * (ns_metrics_add) applied to a fixed output.
 *
 * The input (at most 256 bytes; longer inputs are ignored, and fuzz.mk runs
 * this target with -max_len=256) is the NAME=REGEX text, cut at its first
 * NUL as a command-line argument would be.  glibc's regcomp/regexec can take
 * exponential time or memory on hostile patterns: regcomp copies the
 * subtree under every '+' and every {m,n}, so "x=n++++++++++++++++++++++"
 * (22 '+') needs over 4 GB (tests/bad/cases/fuzz-fuzz_metric-1.in).  Since
 * that finding ns_metrics_add refuses such patterns itself
 * (ns_regex_refusal, common.c), so the target relies on that guard and
 * tests it: a pattern it lets through that still blows up is a finding
 * (-rss_limit_mb, -timeout).  With the length cap this keeps the fuzzer on
 * npuscope's code (name checks, capture-group choice, number parsing,
 * aggregation, replacing a built-in of the same name).
 *
 * The rule set starts with the built-in rules, gets the input's rule, and
 * reads a fixed log as one output stream (ns_metrics_stream_*), fed in one
 * piece; the result is copied into a run with ns_metrics_to_run, the set
 * reset, and the same log fed again in pieces of 1 to 7 bytes (lengths
 * drawn from the input, so a line and an anchor are cut at every place),
 * then the set freed.  Checked: the two readings give the same metrics --
 * the pieces a pipe delivers must not change a value -- every metric has a
 * name and a count >= 1, and no name appears twice in the run.
 */
#include "capture/metrics.h"
#include "base/regex_guard.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NSF_MAX_INPUT 256

static const char nsf_log[] =
    "[INFO] 12:00:00.000 [vpux-compiler] Compile network\n"
    "Compile model took 1234.5 ms\n"
    "Compilation memory usage: Peak 204800 KB\n"
    "compilation memory usage: Peak 409600 KB\n"
    "Compile net time: 512.25 ms\n"
    "Compile net time: 100 ms\n"
    "Compile net time: 1e400 ms\n"
    "42.5 tokens per second\n"
    "Throughput: 12.34 \xc2\xb1 0.56 tokens/s\n"
    "Throughput: 99 tokens/s\n"
    "latency: -3.5e-2 s, value=0x1f, count=000123, nan inf NAN -inf\n"
    "a=1 b=22 c=333 d=4444 e=55555 f=666666 g=7777777 h=88888888 i=999999999\n"
    "\x1b[32mcoloured 17 ms\x1b[0m\r\n"
    "tab\tseparated\t3.25\t\n"
    "bytes \xff\xfe\x80 7\n"
    "  12345678901234567890123456789012345678901234567890123456789012345678901234567890 long\n"
    "\n"
    "x\0y 5 nul inside\n"
    "last line without newline 9.75";

/* Feed the log to a new stream of m in pieces: all of it at once when
 * `seed` is 0, else of 1..7 bytes drawn from `seed` (a small LCG: the same
 * input cuts the same way, so a finding replays). */
static void nsf_read(ns_metric_set *m, uint32_t seed) {
    ns_metric_stream s;
    ns_metrics_stream_init(&s, m);
    size_t at = 0, n = sizeof nsf_log - 1;
    while (at < n) {
        size_t piece = n - at;
        if (seed) {
            seed = seed * 1103515245u + 12345u;
            size_t want = 1 + (seed >> 16) % 7;
            if (want < piece) piece = want;
        }
        ns_metrics_feed(&s, nsf_log + at, piece);
        at += piece;
    }
    ns_metrics_stream_end(&s, m);
}

static void nsf_check(const ns_run *r) {
    for (int i = 0; i < r->nmetrics; i++) {
        if (!r->metrics[i].name || !r->metrics[i].name[0] || r->metrics[i].count < 1) abort();
        for (int j = 0; j < i; j++)
            if (strcmp(r->metrics[i].name, r->metrics[j].name) == 0) abort();
    }
}

static int nsf_same(double a, double b) {
    return a == b || (a != a && b != b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > NSF_MAX_INPUT) return 0;
    char spec[NSF_MAX_INPUT + 1];
    memcpy(spec, data, size);
    spec[size] = 0;

    ns_metric_set m;
    ns_metrics_init(&m);
    int builtins = m.n;
    if (ns_metrics_add(&m, spec) == 0 && (m.n < 1 || m.n > builtins + 1)) abort();

    ns_run r1, r2;
    memset(&r1, 0, sizeof r1);
    memset(&r2, 0, sizeof r2);
    uint32_t seed = 2166136261u; /* FNV-1a of the input, never 0 */
    for (size_t i = 0; i < size; i++) seed = (seed ^ data[i]) * 16777619u;
    nsf_read(&m, 0);
    ns_metrics_to_run(&m, &r1);
    ns_metrics_reset(&m);
    nsf_read(&m, seed | 1u);
    ns_metrics_to_run(&m, &r2);
    ns_metrics_to_run(&m, &r2); /* replacing the list must not leak */

    nsf_check(&r1);
    if (r1.nmetrics != r2.nmetrics) abort();
    for (int i = 0; i < r1.nmetrics; i++)
        if (strcmp(r1.metrics[i].name, r2.metrics[i].name) != 0 ||
            r1.metrics[i].count != r2.metrics[i].count ||
            !nsf_same(r1.metrics[i].value, r2.metrics[i].value))
            abort();

    ns_run_free(&r1);
    ns_run_free(&r2);
    ns_metrics_free(&m);
    return 0;
}
