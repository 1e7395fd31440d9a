/* findings_rules.c -- what to change: the advice rules of the findings
 * engine (findings.h), each with the condition it tests, the sentence it
 * says and the evidence it quotes, so a reader can check every sentence
 * against the data.
 *
 * The rules follow the published NPU compile-time study: a compile is
 * dominated by one stage (its "regime"), and each regime has its fixes.
 * The cache rules read the cache verdict, never the mere presence of warm
 * runs: a warm run that printed a compile timing report compiled again,
 * so its cache did not hit (`cache-miss`, with the usual causes on the
 * NPU); `warm-cache` fires only on hits worth having.  What npuscope
 * cannot measure it says how to measure (`measure-cache`), never guesses.
 * Ids are stable: scripts and the page key on them.
 */
#include "analyse/findings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NS__CACHE_WORTH 2.0 /* a cache factor worth advising: x2 or more */

static double ns__share(const ns_findings_case *c, const char *stage) {
    if (!c->map) return NAN;
    int i = ns_stage_find(c->map, stage);
    return i >= 0 && i < NS_FINDINGS_MAX_STAGES ? c->share[i] : NAN;
}

typedef struct {
    const char *id;                                      /* rule id (stable) */
    double (*weight)(const ns_findings_case *c);         /* NaN: does not apply */
    void (*say)(ns_buf *b, const ns_findings_case *c);   /* the advice with its numbers */
    const char *stage;                                   /* the regime it fixes, or NULL */
    const char *cause;                                   /* that regime's root cause */
} ns__rule;

/* ====== The cache ====== */

static double ns__w_cache(const ns_findings_case *c) {
    return c->cache == NS_CACHE_HIT && c->cache_x >= NS__CACHE_WORTH ? 1.0 : NAN;
}
static void ns__s_cache(ns_buf *b, const ns_findings_case *c) {
    ns_buf_printf(b, "Serve compiles from a warm blob cache (OpenVINO CACHE_DIR, or ship the "
                     "precompiled blob): measured cold %.2f s vs warm %.2f s, x%.1f.",
                  c->cold_s, c->warm_s, c->cache_x);
}

static double ns__w_miss(const ns_findings_case *c) {
    return c->cache == NS_CACHE_MISS || c->cache == NS_CACHE_MIXED ? 1.0 : NAN;
}
static void ns__s_miss(ns_buf *b, const ns_findings_case *c) {
    ns_buf_printf(b, "The cache did not hit: %d of %d warm runs compiled again (they printed a "
                     "compile timing report)",
                  c->warm_compiled, c->warm_runs);
    if (isfinite(c->cache_x))
        ns_buf_printf(b, "; cold %.2f s vs warm %.2f s, x%.1f", c->cold_s, c->warm_s, c->cache_x);
    ns_buf_puts(b, ". On the NPU a cache misses when CACHE_DIR is not set (or not writable), when "
                   "NPU_BYPASS_UMD_CACHING=YES, when an option that is part of the cache key "
                   "changes between runs, or when NPUW-LLM caches the whole model (NPUW_CACHE_DIR) "
                   "instead of the blob; a compiler that keeps no cache (mlir-opt, clang) always "
                   "compiles.");
}

static double ns__w_measure(const ns_findings_case *c) {
    return c->npu && c->warm_runs == 0 ? 1.0 : NAN;
}
static void ns__s_measure(ns_buf *b, const ns_findings_case *c) {
    ns_buf_printf(b, "Serve compiles from a warm blob cache (OpenVINO CACHE_DIR, or ship the "
                     "precompiled blob); this compile takes %.2f s cold. Measure the factor with "
                     "`npuscope sweep --modes cold,warm ...` (the study saw x20 to x125).",
                  c->total_s);
}

/* ====== The regimes ====== */

static double ns__w_tiling(const ns_findings_case *c) {
    double s = ns__share(c, "tiling-search");
    return isfinite(s) && s >= 0.25 ? s : NAN;
}
static void ns__s_tiling(ns_buf *b, const ns_findings_case *c) {
    ns_buf_printf(b, "Tiling search (MultiClusterStrategyAssignment and the tiling passes) takes "
                     "%.0f%% of %.2f s: write the strategy once (NPU_COMPILATION_MODE_PARAMS="
                     "write-strategy-to-json=true) and reuse it across shapes, or lower the search "
                     "effort; small and short compiles are dominated by it.",
                  100 * ns__share(c, "tiling-search"), c->total_s);
}

static double ns__w_memory(const ns_findings_case *c) {
    double s = ns__share(c, "memory-scheduling");
    return isfinite(s) && s >= 0.25 ? s : NAN;
}
static void ns__s_memory(ns_buf *b, const ns_findings_case *c) {
    ns_buf_printf(b, "Memory scheduling (FeasibleAllocation and friends) takes %.0f%% of %.2f s",
                  100 * ns__share(c, "memory-scheduling"), c->total_s);
    if (isfinite(c->tasks)) ns_buf_printf(b, " for %.0f scheduled tasks", c->tasks);
    ns_buf_puts(b, ": fewer, larger tiles cut the task count it has to place (it grows about as "
                   "tasks^0.7 in the study); bound the prompt window; ship a precompiled blob.");
}

static double ns__w_serial(const ns_findings_case *c) {
    double s = ns__share(c, "serialization");
    return isfinite(s) && s >= 0.25 ? s : NAN;
}
static void ns__s_serial(ns_buf *b, const ns_findings_case *c) {
    ns_buf_printf(b, "Serialization (the ELF pipeline) takes %.0f%% of %.2f s: typical of extreme "
                     "prompt windows; ship the precompiled blob instead of compiling on the target.",
                  100 * ns__share(c, "serialization"), c->total_s);
}

static double ns__w_vf(const ns_findings_case *c) {
    double s = ns__share(c, "vertical-fusion");
    return isfinite(s) && s >= 0.20 ? s : NAN;
}
static void ns__s_vf(ns_buf *b, const ns_findings_case *c) {
    ns_buf_printf(b, "Vertical fusion (MergeVfSubgraphs ...) takes %.0f%% of %.2f s: for conv nets "
                     "it replaces tiling as the cost at high input resolution; compare a lower "
                     "resolution or a build with vertical fusion limited.",
                  100 * ns__share(c, "vertical-fusion"), c->total_s);
}

/* ====== One pass ====== */

static double ns__w_pass(const ns_findings_case *c) {
    return c->pass && c->pass_share >= 0.30 ? c->pass_share * 0.9 : NAN;
}
/* The pass's own seconds as its reports printed them (a median over the
 * compiles), and what its share is of: the reports' total, not the
 * process's wall time. */
static void ns__s_pass(ns_buf *b, const ns_findings_case *c) {
    ns_buf_printf(b, "One pass, %s, takes %.4f s, %.0f%% of the %.4f s its timing reports "
                     "total: look at it first "
                     "(`npuscope top`, and `npuscope fit` against the size of its input).",
                  c->pass, c->pass_s, 100 * c->pass_share, c->pass_of_s);
}

static const ns__rule ns__rules[] = {
    {"warm-cache", ns__w_cache, ns__s_cache, NULL, NULL},
    {"cache-miss", ns__w_miss, ns__s_miss, NULL, NULL},
    {"measure-cache", ns__w_measure, ns__s_measure, NULL, NULL},
    {"reuse-strategy", ns__w_tiling, ns__s_tiling, "tiling-search",
     "the strategy search is redone per shape"},
    {"fewer-tasks", ns__w_memory, ns__s_memory, "memory-scheduling",
     "placing many scheduled tasks"},
    {"ship-blob", ns__w_serial, ns__s_serial, "serialization",
     "ELF serialization of a large window"},
    {"vertical-fusion", ns__w_vf, ns__s_vf, "vertical-fusion",
     "fusing subgraphs at high resolution"},
    {"heaviest-pass", ns__w_pass, ns__s_pass, NULL, NULL},
};
#define NS__NRULES (sizeof ns__rules / sizeof ns__rules[0])

const char *ns_findings_fix_of(const char *stage, const char **cause) {
    for (size_t k = 0; k < NS__NRULES; k++)
        if (ns__rules[k].stage && !strcmp(ns__rules[k].stage, stage)) {
            *cause = ns__rules[k].cause;
            return ns__rules[k].id;
        }
    return NULL;
}

/* "over N compiles" or "one compile" */
static void ns__over(ns_buf *b, const ns_findings_case *c) {
    if (c->compiles > 1) ns_buf_printf(b, "median over %d compiles", c->compiles);
    else ns_buf_puts(b, "one compile");
}

/* The numbers rule k rests on. */
static void ns__evidence(ns_buf *b, size_t k, const ns_findings_case *c) {
    const ns__rule *r = &ns__rules[k];
    if (r->stage) {
        ns_buf_printf(b, "%s: %.1f%% of the compile's reported total (", r->stage,
                      100 * ns__share(c, r->stage));
        ns__over(b, c);
        ns_buf_puts(b, ")");
    } else if (!strcmp(r->id, "heaviest-pass")) {
        ns_buf_printf(b, "%s: %.4f s, %.1f%% of %.4f s (", c->pass, c->pass_s, 100 * c->pass_share,
                      c->pass_of_s);
        ns__over(b, c);
        if (c->compiles > 1) ns_buf_printf(b, "; the worst compile %.4f s", c->pass_worst_s);
        ns_buf_puts(b, ")");
    } else if (!strcmp(r->id, "measure-cache")) {
        ns_buf_puts(b, "no warm run measured");
    } else {
        ns_buf_printf(b, "%d of %d warm runs compiled; factor ", c->warm_compiled, c->warm_runs);
        if (isfinite(c->cache_x)) ns_buf_printf(b, "x%.1f", c->cache_x);
        else ns_buf_puts(b, "unknown (no cold run)");
    }
}

typedef struct {
    size_t rule;   /* index into ns__rules */
    double weight; /* rank */
} ns__hit;

static int ns__hit_cmp(const void *a, const void *b) {
    const ns__hit *x = a, *y = b;
    if (x->weight != y->weight) return x->weight > y->weight ? -1 : 1;
    return (int)x->rule - (int)y->rule;
}

/* The sentence of what was found, whether or not a rule fired. */
static void ns__found(ns_buf *b, const ns_findings_case *c) {
    if (c->regime >= 0)
        ns_buf_printf(b, "regime %s: %.0f%% of the compile (stage map %s)",
                      ns_stage_name(c->map, c->regime), 100 * c->share[c->regime],
                      ns_stage_map_label(c->map));
    else if (c->map)
        ns_buf_printf(b, "no stage holds a share (stage map %s)", ns_stage_map_label(c->map));
    else
        ns_buf_puts(b, "no timing report kept, so no stage shares");
    if (c->pass)
        ns_buf_printf(b, "; heaviest pass %s, %.1f%% of %.4f s", c->pass, 100 * c->pass_share,
                      c->pass_of_s);
    if (c->cache != NS_CACHE_UNKNOWN || c->warm_runs)
        ns_buf_printf(b, "; cache %s", ns_cache_verdict_name(c->cache));
    if (!c->nadvice)
        ns_buf_puts(b, "; no rule fires: no regime stage of a rule holds 25% (vertical fusion "
                       "20%), no pass 30%, and the cache was not measured to help");
    ns_buf_putc(b, '.');
}

void ns_findings_advise(ns_findings_case *c) {
    ns__hit hits[NS__NRULES];
    int nh = 0;
    for (size_t k = 0; k < NS__NRULES; k++) {
        double w = ns__rules[k].weight(c);
        if (isfinite(w)) hits[nh++] = (ns__hit){k, w};
    }
    qsort(hits, (size_t)nh, sizeof *hits, ns__hit_cmp);
    c->advice = ns_xcalloc((size_t)nh + 1, sizeof *c->advice);
    for (int h = 0; h < nh; h++) {
        ns_advice *a = &c->advice[c->nadvice++];
        ns_buf t = {0}, e = {0};
        ns__rules[hits[h].rule].say(&t, c);
        ns__evidence(&e, hits[h].rule, c);
        a->rule = ns__rules[hits[h].rule].id;
        a->weight = hits[h].weight;
        a->text = t.data;
        a->evidence = e.data;
    }
    ns_buf f = {0};
    ns__found(&f, c);
    c->found = f.data;
}
