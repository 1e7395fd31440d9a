/* npu.h -- what the NPU compiler's log says about each compile, besides
 * its timing tree.
 *
 * At LOG_INFO the vpux compiler and the OpenVINO NPU plugin log lines that
 * belong to one compile: the MLIR thread pool and the estimated inference
 * latency, VPUIP task and IE operation counts before its report, the
 * process's VmPeak (absolute, or its growth during the compile) and the
 * "Compile net time" (which also covers the ELF export that the tree
 * leaves out) after it, and the driver library's (VCL) own timings.  npu.c recognises them (with or without the logger prefix and colour)
 * and says whether a fact belongs to the report before or after the line.
 *
 * An NPUW LLM compile is several sub-model compiles (generate variant(s),
 * prefill, lm_head, each one or more subgraphs) that a release build does
 * not name in its log: they are labelled by their order, following a layout
 * such as "generate:3,prefill:3,lm_head:1"; a developer build's
 * "[ NPUW:INFO ] ... Compiling Subgraph[i]: NAME" lines name them instead.
 */
#ifndef NPUSCOPE_NPU_H
#define NPUSCOPE_NPU_H

#include "base/needles.h"

#include <stddef.h>

typedef enum {
    NS_FACT_NEXT, /* belongs to the report that follows */
    NS_FACT_PREV, /* belongs to the report just finished */
} ns_fact_side;

/* Is the (cleaned) line an NPU compile fact?  Sets *name (static string),
 * *value and *side and returns 1; else 0. */
int ns_npu_fact(const char *s, size_t n, const char **name, double *value, ns_fact_side *side);
/* The same, trying only the facts whose texts the line holds: `have` is
 * what ns_needles_which gives for the set of ns_npu_needles (its first
 * bits are the facts', then the IE statistics'); ~0 tries every one. */
int ns_npu_fact_in(const char *s, size_t n, uint64_t have, const char **name, double *value,
                   ns_fact_side *side);

/* Every fixed text a matcher of this layer looks for on a line between
 * reports (the facts above, the IE statistics, weights separation, the
 * NPUW trace and subgraph lines, the strategy dump's head, the memory
 * collector's lines): a line holding none of them is nothing to the hook,
 * which asks ns_needles_which first (hook.c) and has the scanner skip the
 * lines that hold none (parse/scan.h, ns_scan_hook.needles).  A matcher
 * with a new text adds it here; tests/unit_npu_filter.c holds the hook
 * with and without this filter, and tests/unit_npu_skip.c with and without
 * the skip, to the same output over every fixture. */
void ns_npu_needles(ns_needles *nd);

/* Is the (cleaned) line one that only the NPU stack logs -- a vpux logger
 * line of the compiler ("[vpux-compiler]", "[compiler-threading]"), of the
 * plugin's compiler adapters, its Level Zero setup or of the driver's
 * compiler library (VCL), an NPUW line ("[ NPUW:"), or OpenVINO's "Failed
 * to compile NAME for all devices in [NPU]"?  Such a line tells an NPU log from any other:
 * MLIR, LLVM and clang print none of them. */
int ns_npu_log_line(const char *s, size_t n);
/* The texts a line must hold for ns_npu_log_line to take it, as a needle
 * set: the hook in detect mode skips the lines without one (hook.c). */
void ns_npu_log_needles(ns_needles *nd);
/* Does a buffer (the head of an input) hold such a line?  1 or 0. */
int ns_npu_log_sniff(const char *buf, size_t len);

/* Weights separation (compiler.cpp, 2025+): one compile prints N+1
 * reports, announced by vpux-compiler lines.  Returns 1 for "Total number
 * of Inits: N" (*value = N), 2 for "Compile Init[i]" (*value = i), 3 for
 * "Compile Main", else 0. */
int ns_npu_ws_line(const char *s, size_t n, long *value);

/* NPUW's compile trace (OPENVINO_NPUW_COMPILE_TRACE=YES with
 * OPENVINO_NPUW_LOG_LEVEL=INFO; npuw/logging.cpp of a 2026 plugin):
 * "[ NPUW:INFO ] START LABEL", "[ NPUW:INFO ] RUN   LABEL (X.XXXs elapsed)"
 * every heartbeat, "[ NPUW:INFO ] END   LABEL (X.XXXs)". */
typedef enum { NS_NPUW_TRACE_START, NS_NPUW_TRACE_RUN, NS_NPUW_TRACE_END } ns_npuw_phase;
typedef struct {
    ns_npuw_phase phase; /* which of the three lines */
    const char *label;   /* the scope's label (points into the line) */
    size_t label_len;    /* its bytes */
    double seconds;      /* elapsed seconds (RUN, END), else -1 */
} ns_npuw_trace_line;
/* 1 and *t for a compile-trace line, else 0. */
int ns_npuw_trace(const char *s, size_t n, ns_npuw_trace_line *t);

/* A developer build's NPUW subgraph line: returns the length of NAME and
 * sets *name to it, or 0. */
size_t ns_npuw_subgraph(const char *s, size_t n, const char **name);

/* The default NPUW LLM layout: generate (head, repeated block, tail),
 * prefill (the same three), and the shared lm_head. */
#define NS_NPUW_DEFAULT_LAYOUT "generate:3,prefill:3,lm_head:1"

/* Label of the k-th (0-based) report of an NPUW compile with the layout;
 * writes e.g. "prefill/2" into buf.  Returns 0, or -1 when k is past the
 * layout (buf then says "extra/N").  A malformed layout returns -2. */
int ns_npuw_label(const char *layout, int k, char *buf, size_t bufsize);

/* The sub-model kind of a report label: its last part that is not a number
 * -- "generate" for "generate/2" and for "<run-id>/generate/2", "lm_head",
 * or the whole last part ("#1") when there is no better one.  New string. */
char *ns_submodel_kind_new(const char *label);

#endif
