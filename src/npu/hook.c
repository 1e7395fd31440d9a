/* hook.c -- the NPU scanner hook (see hook.h).
 *
 * The lines the hook reads are the scanner's, between reports, already
 * cleaned; the facts and names in them are recognised by npu.c and the
 * strategy dump is counted by files.c, so this file only keeps the state
 * that ties them to reports: the report held back, the facts waiting for
 * the next one, the subgraph name, the strategy JSON being collected, the
 * weights-separation compile open (its number and Init count, the next
 * report's Init[i] / Main label), the NPUW trace's model and subgraph, and
 * in detect mode whether a line of the NPU stack has come yet (before it
 * every line is ignored, so another compiler's log gets nothing).
 * All of it is per input: `end` hands back the held report and forgets the
 * rest.
 * A line that holds none of the matchers' texts (npu.c, ns_npu_needles)
 * is nothing to the hook; it tells the scanner so (ns__needles), which then
 * skips such lines unseen -- except while the hook must see every line:
 * inside a strategy dump, or (detection) until a line of the NPU stack,
 * when the texts are that stack's logger names.
 */
#include "npu/hook.h"

#include "npu/failure.h"
#include "npu/files.h"
#include "npu/memory.h"
#include "npu/npu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ====== Facts for the next report ====== */

/* Set (or replace) fact `name` for the report that comes next; the first
 * NS_NPU_NEXT_MAX names are kept. */
static void ns__next_set(ns_npu_hook *h, const char *name, double value) {
    int i;
    for (i = 0; i < h->nnext; i++)
        if (!strcmp(h->next[i].name, name)) break;
    if (i == h->nnext && h->nnext < NS_NPU_NEXT_MAX) h->next[h->nnext++].name = ns_strdup(name);
    if (i < NS_NPU_NEXT_MAX) h->next[i].value = value;
}

/* ====== The strategy dump ======
 * With dump-strategy-to-log=true the compiler logs a line "Final
 * strategies for output pipelining:", then a message that is a
 * pretty-printed JSON object on lines of its own.  Its tile counts become
 * facts of the next report.  Returns 1 when the line was part of it. */
static int ns__strategy(ns_npu_hook *h, const char *s, size_t n) {
    if (!h->strat) {
        const char *key = "Final strategies for output pipelining:";
        size_t kl = strlen(key);
        for (size_t i = 0; i + kl <= n; i++)
            if (s[i] == 'F' && !memcmp(s + i, key, kl)) {
                h->strat = 1;
                h->strat_json.len = 0;
                return 1;
            }
        return 0;
    }
    if (h->strat == 1) { /* a logger line opens the message; the JSON follows */
        const char *p = s, *end = s + n;
        while (p < end && *p == ' ') p++;
        if (p < end && *p == '{') {
            h->strat = 2;
            h->strat_depth = 0;
        } else if (++h->strat_depth > 3) { /* no JSON came: not a dump */
            h->strat = 0;
            h->strat_depth = 0;
            return 0;
        } else {
            return 1;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '{') h->strat_depth++;
        else if (s[i] == '}') h->strat_depth--;
    }
    ns_buf_add(&h->strat_json, s, n);
    ns_buf_putc(&h->strat_json, '\n');
    if (h->strat_depth <= 0 || h->strat_json.len > (64u << 20)) {
        double tiles, tiled;
        if (ns_npu_strategy_text(h->strat_json.data, h->strat_json.len, &tiles, &tiled) == 0) {
            ns__next_set(h, "tiles", tiles);
            ns__next_set(h, "tiled_ops", tiled);
        }
        h->strat = 0;
        h->strat_depth = 0;
        h->strat_json.len = 0;
    }
    return 1;
}

/* ====== Weights separation and the NPUW compile trace ====== */

/* "Total number of Inits", "Compile Init[i]", "Compile Main": returns 1
 * when the line was one. */
static int ns__ws(ns_npu_hook *h, const char *s, size_t n) {
    long v = 0;
    int kind = ns_npu_ws_line(s, n, &v);
    if (!kind) return 0;
    if (kind == 1) { /* a weights-separation compile begins its N+1 reports */
        h->ws_group++;
        h->ws_inits = v;
        return 1;
    }
    char tmp[48];
    if (kind == 2) snprintf(tmp, sizeof tmp, "Init[%ld]", v);
    else snprintf(tmp, sizeof tmp, "Main");
    free(h->ws_label);
    h->ws_label = ns_strdup(tmp);
    return 1;
}

/* NPUW's compile trace: the model being built, the subgraph compile that
 * the next report is, and that compile's own elapsed time.  Returns 1 when
 * the line was a trace line. */
static int ns__trace(ns_npu_hook *h, const char *s, size_t n) {
    ns_npuw_trace_line t;
    if (!ns_npuw_trace(s, n, &t)) return 0;
    static const char construct[] = "compiled_model/construct/", sub[] = "compile_subgraph[";
    const char *end = t.label + t.label_len, *p = NULL;
    for (const char *q = t.label; q + sizeof sub - 1 <= end; q++)
        if (!memcmp(q, sub, sizeof sub - 1)) {
            p = q + 8; /* "subgraph[i]" */
            break;
        }
    int is_construct = t.label_len > sizeof construct - 1 &&
                       !memcmp(t.label, construct, sizeof construct - 1);
    if (t.phase == NS_NPUW_TRACE_START && is_construct) {
        free(h->trace_model);
        h->trace_model = ns_strndup(t.label + sizeof construct - 1,
                                    t.label_len - (sizeof construct - 1));
    } else if (t.phase == NS_NPUW_TRACE_END && is_construct) {
        free(h->trace_model);
        h->trace_model = NULL;
    } else if (t.phase == NS_NPUW_TRACE_START && p) {
        ns_buf b = {0};
        if (h->trace_model) ns_buf_printf(&b, "%s/", h->trace_model);
        ns_buf_add(&b, p, (size_t)(end - p));
        free(h->trace_label);
        h->trace_label = ns_strndup(b.data, b.len);
        ns_buf_free(&b);
    } else if (t.phase == NS_NPUW_TRACE_END && p) {
        if (h->held) ns_report_set_fact(h->held, "npuw_compile_s", t.seconds);
        free(h->trace_label); /* a subgraph compile that printed no report */
        h->trace_label = NULL;
    }
    return 1;
}

/* ====== The scanner's callbacks ====== */

/* Facts and subgraph names on a line between reports. */
static void ns__line(void *ctx, const char *s, size_t n) {
    ns_npu_hook *h = ctx;
    const char *name;
    double value;
    ns_fact_side side;
    if (h->detect && !h->seen) { /* not (yet) known to be an NPU log */
        if (!ns_npu_log_line(s, n)) return;
        h->seen = 1;
    }
    /* one pass for every text below: most lines of a log hold none (a
     * strategy dump's JSON lines are read whole, once it has begun), and
     * a line that holds some goes only to the matchers that look for them
     * (each finds nothing without its texts) */
    uint64_t have = ~(uint64_t)0;
    if (!h->strat && !h->every_line && !(have = ns_needles_which(&h->needles, s, n))) return;
    if ((h->strat || (have & h->need_strat)) && ns__strategy(h, s, n)) return;
    /* a failed compile, the environment: the input's, not a report's */
    if (h->load && (have & h->need_load)) ns_npu_load_line(h->load, h->at_file, h->at_line, s, n);
    /* per-pass memory: npu/memory.h */
    if ((have & h->need_mem) && ns_npu_mem_line(&h->mem, s, n)) return;
    if (((have & h->need_ws) && ns__ws(h, s, n)) || ((have & h->need_npuw) && ns__trace(h, s, n)))
        return;
    if ((have & h->need_fact) && ns_npu_fact_in(s, n, have, &name, &value, &side)) {
        if (side == NS_FACT_NEXT) ns__next_set(h, name, value);
        else if (h->held) ns_report_set_fact(h->held, name, value);
        if (side == NS_FACT_PREV) h->ws_inits = -1; /* the compile has ended */
        return;
    }
    size_t k;
    if (h->npuw && (have & h->need_npuw) && (k = ns_npuw_subgraph(s, n, &name))) {
        free(h->subgraph);
        h->subgraph = ns_strndup(name, k);
    }
}

/* Where the next line is (scan.h, at). */
static void ns__at(void *ctx, const char *file, long line) {
    ns_npu_hook *h = ctx;
    h->at_file = file;
    h->at_line = line;
}

/* A report begins: the facts logged before it are its own, and the report
 * held back can get no more facts. */
static ns_report *ns__begin(void *ctx, ns_report *r) {
    ns_npu_hook *h = ctx;
    for (int i = 0; i < h->nnext; i++) {
        ns_report_set_fact(r, h->next[i].name, h->next[i].value);
        free(h->next[i].name);
    }
    h->nnext = 0;
    if (h->ws_inits >= 0) { /* a report of a weights-separation compile */
        ns_report_set_fact(r, "ws_compile", h->ws_group);
        ns_report_set_fact(r, "ws_inits", (double)h->ws_inits);
    }
    ns_report *done = h->held;
    h->held = NULL;
    return done;
}

/* Compiles in an NPUW layout ("generate:3,prefill:3,lm_head:1" -> 7). */
static int ns__npuw_total(const char *layout) {
    int total = 0;
    for (const char *p = strchr(layout, ':'); p; p = strchr(p + 1, ':')) total += atoi(p + 1);
    return total;
}

/* A developer build's subgraph name, else the report's place in the NPUW
 * layout. */
static char *ns__label_new(void *ctx, const ns_report *r, int nth) {
    ns_npu_hook *h = ctx;
    /* the log named it: the trace's subgraph scope (kept for every report
     * of a weights-separation compile inside it), else a developer build's
     * "Compiling Subgraph" line */
    char *name = NULL;
    if (h->trace_label) {
        name = h->ws_inits >= 0 ? ns_strdup(h->trace_label) : h->trace_label;
        if (h->ws_inits < 0) h->trace_label = NULL;
        free(h->subgraph);
        h->subgraph = NULL;
    } else if (h->subgraph) {
        name = h->subgraph;
        h->subgraph = NULL;
    }
    if (h->ws_label) { /* "Init[i]" / "Main", after the name if there is one */
        char *ws = h->ws_label;
        h->ws_label = NULL;
        if (!name) return ws;
        ns_buf b = {0};
        ns_buf_printf(&b, "%s/%s", name, ws);
        free(name);
        free(ws);
        char *both = ns_strndup(b.data, b.len);
        ns_buf_free(&b);
        return both;
    }
    if (name) return name;
    if (!h->npuw) return NULL;
    char tmp[128];
    int rc = ns_npuw_label(h->npuw, nth, tmp, sizeof tmp);
    if (rc == -2) /* a malformed layout (the command line checks it) */
        snprintf(tmp, sizeof tmp, "#%d", r->index + 1);
    if (rc == -1 && nth == ns__npuw_total(h->npuw))
        ns_diag_say(&h->diag, NS_DIAG_WARNING, r->file, r->line,
                    "more reports than the NPUW layout '%s' has compiles; the "
                    "rest are labelled extra/N", h->npuw);
    return ns_strdup(tmp);
}

/* "Compile net time" and the peak memory come after the report: keep it
 * until the next report begins or the input ends. */
static ns_report *ns__finish(void *ctx, ns_report *r) {
    ns_npu_hook *h = ctx;
    ns_npu_mem_attach(&h->mem, r, &h->diag); /* the lines logged while it compiled */
    /* the N+1 reports of a weights-separation compile are one compile
     * (model/report.h, ns_report_group_ws: the same rule for run.json) */
    double g = ns_report_fact(r, "ws_compile");
    if (isfinite(g) && r->group < 0) {
        if ((int)g != h->ws_first_of) h->ws_first_of = (int)g, h->ws_first = r->index;
        r->group = h->ws_first;
    }
    ns_report *done = h->held;
    h->held = r;
    return done;
}

/* The input ends: hand back the held report, forget the rest. */
static ns_report *ns__end(void *ctx) {
    ns_npu_hook *h = ctx;
    ns_report *done = h->held;
    h->held = NULL;
    for (int i = 0; i < h->nnext; i++) free(h->next[i].name);
    h->nnext = 0;
    free(h->subgraph);
    h->subgraph = NULL;
    free(h->ws_label);
    h->ws_label = NULL;
    free(h->trace_model);
    h->trace_model = NULL;
    free(h->trace_label);
    h->trace_label = NULL;
    h->ws_group = 0;
    h->ws_first_of = 0;
    h->ws_inits = -1;
    h->seen = 0;
    h->strat = h->strat_depth = 0;
    ns_buf_free(&h->strat_json);
    ns_npu_mem_reset(&h->mem); /* lines after the last report: a compile without one */
    return done;
}

/* The texts ns__line needs now (scan.h): none while it reads every line
 * (a strategy dump's JSON, the tests' every_line), the NPU stack's
 * loggers while detection waits for one, else its matchers' texts. */
static const ns_needles *ns__needles(void *ctx) {
    ns_npu_hook *h = ctx;
    if (h->every_line || h->strat) return NULL;
    if (h->detect && !h->seen) return &h->log_needles;
    return &h->needles;
}

/* ====== Public ====== */

void ns_npu_hook_init(ns_npu_hook *h, const char *npuw, const ns_diag *d) {
    memset(h, 0, sizeof *h);
    h->npuw = npuw;
    h->ws_inits = -1;
    ns_npu_needles(&h->needles);
    ns_npu_log_needles(&h->log_needles);
    h->needles.level = h->log_needles.level = ns_simd_best();
    /* each matcher's texts (npu.c, ns_npu_needles); the facts' are the rest */
    const ns_needles *nd = &h->needles;
    h->need_strat = ns_needles_bit(nd, "Final strategies for output pipelining:");
    h->need_mem = ns_needles_bit(nd, "Peak memory usage after '") |
                  ns_needles_bit(nd, "Compile Init["); /* memory.c's Init marker */
    h->need_ws = ns_needles_bit(nd, "Total number of Inits: ") |
                 ns_needles_bit(nd, "Compile Init[") | ns_needles_bit(nd, "Compile Main");
    h->need_npuw = ns_needles_bit(nd, "[ NPUW:");
    static const char *const load_texts[] = {
        "Failed Pass ", "Got Diagnostic at ", ": error: ", "Failed to compile ",
        " L0 API m", "Max supported version of opset in CiD: ", "NPU_PLATFORM=\""};
    for (size_t i = 0; i < sizeof load_texts / sizeof load_texts[0]; i++)
        h->need_load |= ns_needles_bit(nd, load_texts[i]);
    h->need_fact = ~(h->need_strat | ns_needles_bit(nd, "Peak memory usage after '") |
                     h->need_ws | h->need_npuw | h->need_load);
    if (d) h->diag = *d;
    h->ops = (ns_scan_hook){h, ns__line, ns__begin, ns__label_new, ns__finish, ns__end,
                            ns__needles, ns__at};
}

void ns_npu_hook_init_detect(ns_npu_hook *h, const char *npuw, const ns_diag *d) {
    ns_npu_hook_init(h, npuw, d);
    h->detect = 1;
}

void ns_npu_hook_free(ns_npu_hook *h) {
    ns_report *r = ns__end(h); /* an input left unfinished */
    if (r) ns_report_free(r);
    memset(h, 0, sizeof *h);
}
