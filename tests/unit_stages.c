/* unit_stages.c -- unit tests of stage maps (src/stages.c): the rules file
 * and its errors, globs, the built-in maps (and that the shipped .stages
 * files are the same text), the stage of every row of the constructed NPU
 * fixtures, both NPU tree shapes (2024: everything under "Compile network";
 * 2025+: "IE to VPUIP pipeline" and "ELF pipeline"), inheritance, the
 * automatic choice on a real mlir-opt report, and the sums.
 *
 * Expected stages are written here by hand from the pass table of the NPU
 * compiler (docs/stages.md, npu-compiler reference section 4), not derived
 * from the map, so the test catches a wrong rule as well as a wrong engine.
 * Run from the repository root (tests/run.sh does).  Prints one line per
 * failure and ends with "unit_stages: N passed, N failed". */
#include "check.h"

#include "model/report.h"
#include "parse/scan.h"
#include "model/stages.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== Helpers ====== */

typedef struct {
    ns_report *r[16]; /* reports kept */
    int n;            /* how many */
} sink_t;

static int keep(ns_report *r, void *ctx) {
    sink_t *s = ctx;
    if (s->n < 16) s->r[s->n++] = r;
    else ns_report_free(r);
    return 0;
}

static void drop(sink_t *s) {
    for (int i = 0; i < s->n; i++) ns_report_free(s->r[i]);
    s->n = 0;
}

static int scan_file(const char *path, sink_t *s) {
    ns_scanner sc;
    ns_scanner_init(&sc);
    int n = ns_scan_path(&sc, path, keep, s);
    ns_scanner_free(&sc);
    return n;
}

static int scan_text(const char *text, sink_t *s) {
    ns_scanner sc;
    ns_scanner_init(&sc);
    int n = ns_scan_buffer(&sc, "t.log", text, strlen(text), keep, s);
    ns_scanner_free(&sc);
    return n;
}

/* Parse a map; the errors (if any) land in *errs (caller frees). */
static ns_stage_map *parse(const char *text, ns_buf *errs) {
    return ns_stage_map_parse_new("t.stages", text, strlen(text), errs);
}

/* Name of the stage row i got ("-" for none). */
static const char *stage_at(const ns_stage_map *m, const ns_stage_of *of, long i) {
    return of[i].stage < 0 ? "-" : ns_stage_name(m, of[i].stage);
}

/* Pre-order position of the k-th node (0-based among rows named `name`). */
static long find_row(const ns_report *r, const char *name, int k) {
    long i = 0;
    for (const ns_node *x = r->root; x; x = ns_node_next((ns_node *)x, r->root), i++)
        if (strcmp(x->name, name) == 0 && k-- == 0) return i;
    return -1;
}

/* ====== Expected stages of the NPU compiler's rows (reference section 4) ====== */

static const char *const npu_expected[][2] = {
    {"Import network", "frontend"}, {"Common nGraph passes", "frontend"},
    {"Add NetworkInfo Operation", "frontend"}, {"Add CNNNetwork Operation", "frontend"},
    {"Import nGraph function", "frontend"}, {"Validate MLIR module", "frontend"},
    {"Compile network", "other"}, {"IE to VPUIP pipeline", "other"},
    {"ELF pipeline", "serialization"},
    /* init */
    {"InitResources", "other"}, {"SetupPipelineOptions", "other"},
    {"SetTargetIndependentPassOptions", "other"}, {"SetupMaxKernelSize", "other"},
    {"SetupNpuConstraint", "other"}, {"SetupTilingConstraint", "other"},
    /* IE and its lowering */
    {"DumpStatisticsOfIeOps", "frontend"}, {"ConvertShapeTo4D", "frontend"},
    {"FuseQuantizedOps", "frontend"}, {"ConvertToMixedPrecision", "frontend"},
    {"AdjustLayouts", "frontend"}, {"OptimizeReorders", "frontend"},
    {"ExpandActivationChannels", "frontend"}, {"ConvertFCToConv", "frontend"},
    {"ConvertIEToVPUNCE", "frontend"}, {"ConvertLayers2VPU", "frontend"},
    /* VPU preparation */
    {"ConcatRepeatingBlocksOutlining", "other"}, {"ConvertOpToDMAForPerformantExecution", "other"},
    {"SparsifyWeights", "other"},
    /* strategy and tiling */
    {"CostModelAnalysisConstruct", "tiling-search"}, {"MultiClusterStrategyAssignment", "tiling-search"},
    {"ManualStrategyUtils", "tiling-search"}, {"FlashSDPATilingStrategyEstimation", "tiling-search"},
    {"TilingStrategyAssignment", "tiling-search"}, {"ConvolutionSplitOverInputChannel", "tiling-search"},
    {"OutputPipelineTiling", "tiling-search"},
    {"ApplyTiling", "tiling-search"},
    /* vertical fusion */
    {"WrapVerticalFusionRegion", "vertical-fusion"}, {"MoveViewOpsToVF", "vertical-fusion"},
    {"MergeVfSubgraphs", "vertical-fusion"}, {"UnrollUnusedVerticalFusionRegion", "vertical-fusion"},
    {"VfTiling", "vertical-fusion"},
    /* multi-cluster, workloads, bufferization, VPUIP */
    {"MakeOpsWithDistributedTensor", "other"}, {"AdjustDistributedTensorAroundOps", "other"},
    {"SplitNCEOpsOntoWorkloads", "other"}, {"CorrectNCEWorkloads", "other"},
    {"InPlaceBufferizationAnalyze", "other"}, {"OneShotBufferizeVPU2VPUIP", "other"},
    {"UngroupBoundedBuffersAsFuncArgs", "other"}, {"AddBuffersForNetResults", "other"},
    {"ConvertTransferOpsToDMAs", "other"}, {"ConvWeightsCompression", "other"},
    {"Swizzling", "other"}, {"FuseConstants", "other"}, {"OptimizeConvertDMAOp", "other"},
    /* scheduling and memory */
    {"MoveDeclarationsToTop", "memory-scheduling"}, {"WrapIntoAsyncRegions", "memory-scheduling"},
    {"MoveViewOpsIntoAsyncRegions", "memory-scheduling"},
    {"MoveWaitResultToAsyncBlockArgs", "memory-scheduling"},
    {"CalculateAsyncRegionCycleCost", "memory-scheduling"}, {"FeasibleAllocation", "memory-scheduling"},
    {"AdjustSpillSize", "memory-scheduling"}, {"QueryArgsAllocationAnalysis", "memory-scheduling"},
    {"UngroupBoundedBuffers", "memory-scheduling"}, {"StaticAllocation", "memory-scheduling"},
    {"OptimizeAsyncDeps", "memory-scheduling"},
    /* VPUIP lowering, barriers, statistics */
    {"PatchWeightsTable", "other"}, {"BreakDataFlow", "other"},
    {"ConvertAllocationsToDeclarations", "other"}, {"ConvertAsyncOpsToTasks", "other"},
    {"UnrollSwKernel", "other"}, {"UnrollDistributedOps", "other"}, {"NNDMATiling", "other"},
    {"SplitControlGraph", "other"}, {"DMABarrierOptimization", "other"}, {"SimplifySchedule", "other"},
    {"AddFinalBarrier", "other"}, {"SplitExceedingVariantCountBarriers", "other"},
    {"SatisfyOneWaitBarrierPerTask", "other"}, {"ReduceExceedingActiveCountBarriers", "other"},
    {"AddStartBarrier", "other"}, {"AssignPhysicalBarriers", "other"}, {"BarrierSimulation", "other"},
    {"InferenceExecutionAnalysis", "other"}, {"CostModelAnalysisDestroy", "other"},
    {"DumpStatisticsOfTaskOpsPass", "other"},
    /* ELF */
    {"AddPlatformInfo", "serialization"}, {"ConvertVPUIP2VPUMI40XX", "serialization"},
    {"SetupProfilingVPUMI40XX", "serialization"}, {"AddABIVersion", "serialization"},
    {"BarrierComputation", "serialization"}, {"ReorderMPIOps", "serialization"},
    {"ConvertVPUMI40XX2VPUASM", "serialization"}, {"ExpandDPUConfig", "serialization"},
    {"ConvertVPUASM2NPUReg50XX", "serialization"}, {"ConvertVPUIPDPU2NPUReg50XX", "serialization"},
    {"SetOpOffsets", "serialization"}, {"AddELFRelocations", "serialization"},
    {"RemoveEmptyELFSections", "serialization"}, {"MoveOpsIntoSections", "serialization"},
    {"AddELFSymbolTable", "serialization"},
};

static const char *npu_expected_stage(const char *name) {
    for (size_t i = 0; i < sizeof npu_expected / sizeof npu_expected[0]; i++)
        if (strcmp(npu_expected[i][0], name) == 0) return npu_expected[i][1];
    return NULL;
}

/* Passes the compiler runs in more than one part of its pipeline
 * (tests/stagemap, from its pipeline builders): the map gives them no name
 * rule, their range decides (EfficientIROrder runs in the tiling and in the
 * vertical fusion pipeline, MoveDeclarationsToTop in async scheduling and in
 * the lowering to tasks, ...). */
static int multi_range(const char *name) {
    static const char *const names[] = {"CostModelAnalysisConstruct", "EfficientIROrder",
        "ManualStrategyUtils", "EnsureNCEOpsSizeRequirements", "OptimizeConcat",
        "PrintNNCacheStatistics", "MoveDeclarationsToTop", "UngroupBoundedBuffers"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i], name) == 0) return 1;
    return 0;
}

/* Rows whose stage is where they sit, not who they are. */
static int contextual(const ns_node *x) {
    return strcmp(x->name, "Canonicalizer") == 0 || strcmp(x->name, "CSE") == 0 ||
           strcmp(x->name, "EfficientIROrder") == 0 ||
           x->kind == NS_KIND_PIPELINE || x->kind == NS_KIND_ANALYSIS ||
           strcmp(x->name, "Build compilation pipeline") == 0;
}

/* Check every row of an NPU report: named rows against the table above;
 * contextual rows against an independent oracle -- an (A) row or a row
 * under a pipeline row or ELF pipeline takes its parent's expected stage,
 * any other takes the expected stage of the nearest named row before it
 * among its siblings (pipelines looked through).  Also: no pass that runs
 * in several ranges was decided by a name rule, and nothing was left
 * without a stage.  Returns the number of rows checked. */
static long check_npu_report(const ns_stage_map *m, const ns_report *r) {
    long n, i = 0, bad = 0, checked = 0;
    ns_stage_of *of = ns_stage_assign_new(m, r, &n);
    const char *prev = NULL; /* expected stage of the last named row in pipeline order */
    const char **expect = calloc((size_t)n, sizeof *expect);
    for (const ns_node *x = r->root; x; x = ns_node_next((ns_node *)x, r->root), i++) {
        if (x == r->root || (x->kind == NS_KIND_REST && x->depth == 0)) {
            if (of[i].stage != -1) bad++;
            continue;
        }
        const char *want = npu_expected_stage(x->name);
        const char *parent = NULL;
        long pi = 0;
        for (const ns_node *y = r->root; y; y = ns_node_next((ns_node *)y, r->root), pi++)
            if (y == x->parent) parent = expect[pi];
        if (!want && contextual(x)) {
            if (x->kind == NS_KIND_ANALYSIS || (x->parent && x->parent->kind == NS_KIND_PIPELINE) ||
                (x->parent && strcmp(x->parent->name, "ELF pipeline") == 0))
                want = parent;
            else
                want = prev;
        }
        if (!want) {
            printf("  no expectation for '%s'\n", x->name);
            bad++;
            continue;
        }
        expect[i] = want;
        if (npu_expected_stage(x->name) && x->depth >= 2) prev = want;
        if (strcmp(stage_at(m, of, i), want) != 0) {
            printf("  %s:%ld '%s': stage %s (%s), expected %s\n", r->file, x->line, x->name,
                   stage_at(m, of, i), ns_stage_by_name(of[i].by), want);
            bad++;
        }
        if (x->kind == NS_KIND_PASS && multi_range(x->name) && of[i].by == NS_STAGE_BY_NAME) {
            printf("  %s:%ld '%s' runs in several ranges but has a name rule\n", r->file, x->line, x->name);
            bad++;
        }
        checked++;
    }
    free(expect);
    free(of);
    CHECK(bad == 0);
    return checked;
}

/* ====== Globs ====== */

static void test_glob(void) {
    CHECK(ns_stage_glob("abc", "abc"));
    CHECK(!ns_stage_glob("abc", "abcd"));
    CHECK(!ns_stage_glob("abc", "ab"));
    CHECK(ns_stage_glob("*", ""));
    CHECK(ns_stage_glob("*", "anything at all"));
    CHECK(ns_stage_glob("Setup*", "SetupNpuConstraint"));
    CHECK(!ns_stage_glob("Setup*", "XSetup"));
    CHECK(ns_stage_glob("*ToLLVM*", "FinalizeMemRefToLLVMConversionPass"));
    CHECK(ns_stage_glob("*ToLLVM*", "ConvertToLLVMPass"));
    CHECK(!ns_stage_glob("*ToLLVM*", "ConvertToLLVPass"));
    CHECK(ns_stage_glob("Unroll*DMA", "UnrollPermuteToNNDMA"));
    CHECK(!ns_stage_glob("Unroll*DMA", "UnrollDMAs"));
    CHECK(ns_stage_glob("a*b*c", "aXXbYYbZc"));
    CHECK(!ns_stage_glob("a*b*c", "aXXbYYbZ"));
    CHECK(ns_stage_glob("?x", "ax"));
    CHECK(!ns_stage_glob("?x", "x"));
    CHECK(ns_stage_glob("(A) *", "(A) DominanceInfo"));
    CHECK(ns_stage_glob("'*' Pipeline", "'func.func' Pipeline"));
    CHECK(ns_stage_glob("Pipeline Collection : *", "Pipeline Collection : ['func.func', 'llvm.func']"));
    CHECK(ns_stage_glob("a\\*", "a*"));
    CHECK(!ns_stage_glob("a\\*", "ab"));
    CHECK(ns_stage_glob("a\\?b", "a?b"));
    CHECK(!ns_stage_glob("a\\?b", "axb"));
    CHECK(ns_stage_glob("**x**", "x"));
    /* a long name and a pathological pattern still finish */
    char big[5001];
    memset(big, 'a', 5000);
    big[5000] = 0;
    CHECK(!ns_stage_glob("*a*a*a*a*a*a*a*a*b", big));
}

/* ====== The rules file ====== */

static void test_parse_ok(void) {
    ns_buf errs = {0};
    const char *text =
        "# a comment\r\n"
        "\r\n"
        "stage one   the first stage  \r\n"
        "\tstage two\r\n"
        "  # an indented comment\n"
        "name   Import network   -> one\n"
        "name X86 DAG->DAG Instruction Selection -> two\n"
        "name Set\\*Up -> two\n"
        "name Setup* -> one\n"
        "marker A -> one\n"
        "scope P\n"
        "scope Q*\n"
        "marker B -> two\n"
        "default two";
    ns_stage_map *m = parse(text, &errs);
    CHECK(m != NULL && errs.len == 0);
    if (!m) {
        printf("  %s", errs.data ? errs.data : "");
        ns_buf_free(&errs);
        return;
    }
    CHECK(ns_stage_count(m) == 2);
    CHECK(strcmp(ns_stage_name(m, 0), "one") == 0 && strcmp(ns_stage_desc(m, 0), "the first stage") == 0);
    CHECK(strcmp(ns_stage_name(m, 1), "two") == 0 && strcmp(ns_stage_desc(m, 1), "") == 0);
    CHECK(ns_stage_default(m) == 1 && ns_stage_find(m, "two") == 1 && ns_stage_find(m, "x") == -1);
    CHECK(strcmp(ns_stage_map_label(m), "t.stages") == 0);
    CHECK(strcmp(ns_stage_map_text(m), text) == 0);
    ns_buf b = {0};
    ns_stage_map_summary(&b, m);
    CHECK(strcmp(b.data, "2 stages, 4 name rules (1 glob), 1 scope block (2 scopes) with 2 markers, "
                         "default 'two'") == 0);
    ns_buf_free(&b);
    ns_stage_map_free(m);
    ns_buf_free(&errs);
}

/* Each bad file, with the exact messages it must give. */
static void test_parse_errors(void) {
    static const char *const cases[][2] = {
        {"stage a\nstage a\ndefault a\n", "t.stages:2: stage 'a' is already declared (line 1)\n"},
        {"stage a\nfoo bar\ndefault a\n",
         "t.stages:2: unknown rule 'foo' (a line is 'stage', 'name', 'marker', 'scope', "
         "'default' or 'logger', or a '#' comment)\n"},
        {"stage a\nname X\ndefault a\n", "t.stages:2: name: expected 'name PATTERN -> STAGE'\n"},
        {"stage a\nlogger x\ndefault a\n",
         "t.stages:2: logger: expected 'logger NAME -> PASS' (or '-> -' for no pass)\n"},
        {"stage a\nlogger x -> A\nlogger x -> B\ndefault a\n",
         "t.stages:3: logger 'x' already has a rule (line 2)\n"},
        {"stage a\nmarker X a\ndefault a\n",
         "t.stages:2: marker: expected 'marker PATTERN -> STAGE'\n"},
        {"stage a\nname   -> a\ndefault a\n",
         "t.stages:2: name: the pattern before '->' is empty\n"},
        {"stage a\nname X ->\ndefault a\n",
         "t.stages:2: name: a stage name is needed after '->'\n"},
        {"stage a\nname X -> b\ndefault a\n",
         "t.stages:2: unknown stage 'b' (declare it with 'stage b' before this line)\n"},
        {"name X -> a\nstage a\ndefault a\n",
         "t.stages:1: unknown stage 'a' (declare it with 'stage a' before this line)\n"},
        {"stage a\nname X -> a b\ndefault a\n",
         "t.stages:2: name: one stage name after '->', not 'a b'\n"},
        {"stage a\nname X -> a\nname X -> a\ndefault a\n",
         "t.stages:3: 'X' already has a name rule (line 2)\n"},
        {"stage a\nname X* -> a\nname X* -> a\ndefault a\n",
         "t.stages:3: 'X*' already has a name rule (line 2)\n"},
        {"stage a:b\nstage a\ndefault a\n",
         "t.stages:1: stage name 'a:b': only letters, digits, '-', '_' and '.'\n"},
        {"stage\nstage a\ndefault a\n",
         "t.stages:1: stage: a name is needed ('stage NAME [description]')\n"},
        {"stage a\ndefault\n", "t.stages:2: default: a stage name is needed ('default STAGE')\n"},
        {"stage a\ndefault a b\n", "t.stages:2: default: one stage name, not 'a b'\n"},
        {"stage a\ndefault b\n",
         "t.stages:2: unknown stage 'b' (declare it with 'stage b' before this line)\n"},
        {"stage a\ndefault a\ndefault a\n", "t.stages:3: default is already set (line 2)\n"},
        {"stage a\nscope\ndefault a\n",
         "t.stages:2: scope: a row name or pattern is needed ('scope PATTERN')\n"},
        {"stage a\nscope X\nscope Y\ndefault a\n",
         "t.stages:2: scope 'X' has no marker rule after it\n"},
        {"stage a\nscope X\nmarker M -> a\nscope X\nmarker N -> a\ndefault a\n",
         "t.stages:4: scope 'X' is already declared (line 2)\n"},
        {"stage a\n", "t.stages: no 'default STAGE' line (the stage of top-level rows no rule names)\n"},
        {"", "t.stages: no stage declared ('stage NAME [description]')\n"},
        {"# only comments\n\n", "t.stages: no stage declared ('stage NAME [description]')\n"},
        /* several problems: every one, in order */
        {"stage a\nbogus\nname Y -> zz\nstage a\ndefault a\n",
         "t.stages:2: unknown rule 'bogus' (a line is 'stage', 'name', 'marker', 'scope', "
         "'default' or 'logger', or a '#' comment)\n"
         "t.stages:3: unknown stage 'zz' (declare it with 'stage zz' before this line)\n"
         "t.stages:4: stage 'a' is already declared (line 1)\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ns_buf errs = {0};
        ns_stage_map *m = parse(cases[i][0], &errs);
        int ok = m == NULL && errs.data && strcmp(errs.data, cases[i][1]) == 0;
        if (!ok)
            printf("  case %zu: got '%s', wanted '%s'\n", i, errs.data ? errs.data : "(none)",
                   cases[i][1]);
        CHECK(ok);
        ns_stage_map_free(m);
        ns_buf_free(&errs);
    }
    /* a NUL byte in the text */
    ns_buf errs = {0};
    const char nul[] = "stage a\ndefault a\nname x\0y -> a\n";
    ns_stage_map *m = ns_stage_map_parse_new("t.stages", nul, sizeof nul - 1, &errs);
    CHECK(m == NULL && errs.data && strcmp(errs.data, "t.stages:3: NUL byte: this is not a text file\n") == 0);
    ns_buf_free(&errs);
}

/* ====== Built-in maps and the shipped files ====== */

static void test_builtins(void) {
    static const char *const names[] = {"vpux", "mlir"};
    for (int k = 0; k < 2; k++) {
        ns_buf errs = {0};
        const char *text = ns_stage_builtin_text(names[k]);
        CHECK(text != NULL);
        ns_stage_map *m = ns_stage_map_parse_new(names[k], text, strlen(text), &errs);
        CHECK(m != NULL && errs.len == 0);
        if (errs.data) printf("  %s", errs.data);
        ns_stage_map_free(m);
        ns_buf_free(&errs);
        /* the shipped file is the same text, byte for byte */
        char path[64];
        snprintf(path, sizeof path, "stages/%s.stages", names[k]);
        char *file = check_slurp(path, NULL);
        if (!file) printf("  cannot read %s (run from the repository root)\n", path);
        CHECK(file && text && strcmp(file, text) == 0);
        free(file);
    }
    CHECK(ns_stage_builtin_text("other") == NULL);
    ns_stage_map *v = ns_stage_map_builtin_new("vpux");
    static const char *const vpux_stages[] = {"frontend", "tiling-search", "vertical-fusion",
                                              "memory-scheduling", "serialization", "other"};
    CHECK(v && ns_stage_count(v) == 6);
    for (int i = 0; v && i < 6 && i < ns_stage_count(v); i++)
        CHECK(strcmp(ns_stage_name(v, i), vpux_stages[i]) == 0);
    CHECK(v && strcmp(ns_stage_name(v, ns_stage_default(v)), "other") == 0);
    ns_stage_map_free(v);
    ns_stage_map *m = ns_stage_map_builtin_new("mlir");
    static const char *const mlir_stages[] = {"parse", "frontend", "passes", "lowering",
                                              "analysis", "output", "other"};
    CHECK(m && ns_stage_count(m) == 7);
    for (int i = 0; m && i < 7 && i < ns_stage_count(m); i++)
        CHECK(strcmp(ns_stage_name(m, i), mlir_stages[i]) == 0);
    ns_stage_map_free(m);
    CHECK(ns_stage_map_builtin_new("nope") == NULL);
}

/* ====== The constructed NPU fixtures (2025+ shape) ====== */

static void test_npu_fixtures(void) {
    sink_t s = {0};
    ns_stage_sel sel;
    CHECK(ns_stage_sel_init(&sel, "auto") == 0);

    CHECK(scan_file("tests/fixtures/constructed-npu-2025.log", &s) == 1);
    if (s.n == 1) {
        ns_report *r = s.r[0];
        CHECK(ns_stage_is_vpux(r));
        const ns_stage_map *m = ns_stage_sel_pick(&sel, r);
        CHECK(m && strcmp(ns_stage_map_label(m), "vpux") == 0);
        CHECK(check_npu_report(m, r) == r->nnodes - 2); /* all but the root and Rest */
        /* a few rows by hand, with how they were decided */
        long n;
        ns_stage_of *of = ns_stage_assign_new(m, r, &n);
        CHECK(n == r->nnodes);
        long i = find_row(r, "Canonicalizer", 0); /* after ConvertToMixedPrecision's pipeline */
        CHECK(i > 0 && strcmp(stage_at(m, of, i), "frontend") == 0 && of[i].by == NS_STAGE_BY_MARKER);
        i = find_row(r, "Canonicalizer", 3); /* after ApplyTiling */
        CHECK(i > 0 && strcmp(stage_at(m, of, i), "tiling-search") == 0 && of[i].by == NS_STAGE_BY_MARKER);
        i = find_row(r, "Canonicalizer", 4); /* after AddBuffersForNetResults */
        CHECK(i > 0 && strcmp(stage_at(m, of, i), "other") == 0);
        i = find_row(r, "(A) DominanceInfo", 1); /* under MergeVfSubgraphs */
        CHECK(i > 0 && strcmp(stage_at(m, of, i), "vertical-fusion") == 0 && of[i].by == NS_STAGE_BY_PARENT);
        i = find_row(r, "CSE", 0); /* inside a 'func.func' Pipeline, looked through by the scan */
        CHECK(i > 0 && strcmp(stage_at(m, of, i), "frontend") == 0 && of[i].by == NS_STAGE_BY_MARKER);
        i = find_row(r, "Build compilation pipeline", 0);
        CHECK(i > 0 && strcmp(stage_at(m, of, i), "serialization") == 0 && of[i].by == NS_STAGE_BY_PARENT);
        i = find_row(r, "Compile network", 0);
        CHECK(i > 0 && strcmp(stage_at(m, of, i), "other") == 0 && of[i].by == NS_STAGE_BY_DEFAULT);
        i = find_row(r, "Rest", 0);
        CHECK(i > 0 && of[i].stage == -1 && of[i].by == NS_STAGE_BY_NONE);

        /* sums: stages + Rest = Total; the known shares of this report */
        double self[8];
        ns_stage_sums ss = {self, 0, 0};
        ns_stage_sum(m, r, of, &ss);
        double sum = ss.rest;
        for (int k = 0; k < ns_stage_count(m); k++) sum += self[k];
        CHECK(fabs(sum - ss.total) < 1e-9 && ss.total == 62.5888 && ss.rest == 0.25);
        CHECK(fabs(self[ns_stage_find(m, "serialization")] - 3.3114) < 1e-9); /* ELF pipeline */
        CHECK(fabs(self[ns_stage_find(m, "memory-scheduling")] - 18.1812) < 1e-9);
        int regime = 0;
        for (int k = 1; k < ns_stage_count(m); k++)
            if (self[k] > self[regime]) regime = k;
        CHECK(strcmp(ns_stage_name(m, regime), "memory-scheduling") == 0);
        free(of);
    }
    drop(&s);

    CHECK(scan_file("tests/fixtures/constructed-npuw-7.log", &s) == 7);
    long rows = 0;
    for (int k = 0; k < s.n; k++) {
        const ns_stage_map *m = ns_stage_sel_pick(&sel, s.r[k]);
        CHECK(m && strcmp(ns_stage_map_label(m), "vpux") == 0);
        rows += check_npu_report(m, s.r[k]);
    }
    CHECK(rows > 500);
    drop(&s);
    ns_stage_sel_free(&sel);
}

/* ====== The 2024 shape: passes and ELF lowering flat under Compile network ====== */

#define BAN "===-------------------------------------------------------------------------===\n"
#define HDR(total)                                                                    \
    BAN "                         ... Execution time report ...\n" BAN                 \
        "  Total Execution Time: " total " seconds\n\n  ----Wall Time----  ----Name----\n"

static const char *nc2024 =
    HDR("10.0000")
    "    0.5000 (  5.0%)  Import network\n"
    "    0.3000 (  3.0%)    Common nGraph passes\n"
    "    0.1000 (  1.0%)    Add CNNNetwork Operation\n"
    "    0.1000 (  1.0%)    Import nGraph function\n"
    "    0.1000 (  1.0%)  Build compilation pipeline\n"
    "    9.3000 ( 93.0%)  Compile network\n"
    "    0.0100 (  0.1%)    InitResources\n"
    "    0.0100 (  0.1%)    SetupTilingConstraint\n"
    "    0.2000 (  2.0%)    'func.func' Pipeline\n"
    "    0.2000 (  2.0%)      ConvertShapeTo4D\n"
    "    0.1000 (  1.0%)    Canonicalizer\n"
    "    0.1000 (  1.0%)    SomeNewIEPass\n"
    "    0.2000 (  2.0%)    ConvertLayers2VPU\n"
    "    2.0000 ( 20.0%)    MultiClusterStrategyAssignment\n"
    "    0.1000 (  1.0%)    Canonicalizer\n"
    "    1.0000 ( 10.0%)    MergeVfSubgraphs\n"
    "    0.1000 (  1.0%)    Canonicalizer\n"
    "    0.2000 (  2.0%)    ApplyTiling\n"
    "    0.1000 (  1.0%)    OneShotBufferizeVPU2VPUIP\n"
    "    0.0500 (  0.5%)    Canonicalizer\n"
    "    3.0000 ( 30.0%)    FeasibleAllocation\n"
    "    0.1000 (  1.0%)      (A) SomeAnalysis\n"
    "    0.0500 (  0.5%)    Canonicalizer\n"
    "    0.1000 (  1.0%)    PatchWeightsTable\n"
    "    0.1000 (  1.0%)    CSE\n"
    "    0.1000 (  1.0%)    AddPlatformInfo\n"
    "    1.0000 ( 10.0%)    ConvertVPUIP2VPUMI40XX\n"
    "    0.0500 (  0.5%)    SetupProfilingVPUMI40XX\n"
    "    0.5000 (  5.0%)    SomeNewELFPass\n"
    "    0.1000 (  1.0%)    Canonicalizer\n"
    "    0.2000 (  2.0%)    AddELFSymbolTable\n"
    "    0.1000 (  1.0%)  Rest\n"
    "   10.0000 (100.0%)  Total\n";

static void test_nc2024(void) {
    sink_t s = {0};
    CHECK(scan_text(nc2024, &s) == 1);
    if (s.n != 1) {
        drop(&s);
        return;
    }
    ns_report *r = s.r[0];
    ns_stage_sel sel;
    ns_stage_sel_init(&sel, NULL);
    const ns_stage_map *m = ns_stage_sel_pick(&sel, r);
    CHECK(ns_stage_is_vpux(r) && m && strcmp(ns_stage_map_label(m), "vpux") == 0);
    long n;
    ns_stage_of *of = ns_stage_assign_new(m, r, &n);
    static const char *const want[][2] = {
        {"Import network", "frontend"},  {"Common nGraph passes", "frontend"},
        {"Add CNNNetwork Operation", "frontend"}, {"Import nGraph function", "frontend"},
        {"Build compilation pipeline", "other"}, /* top level: the default */
        {"Compile network", "other"},    {"InitResources", "other"},
        {"SetupTilingConstraint", "other"}, /* the Setup* glob */
        {"'func.func' Pipeline", "frontend"}, {"ConvertShapeTo4D", "frontend"},
        {"Canonicalizer", "frontend"},   {"SomeNewIEPass", "frontend"}, /* unknown: its range */
        {"ConvertLayers2VPU", "frontend"},
        {"MultiClusterStrategyAssignment", "tiling-search"}, {"Canonicalizer", "tiling-search"},
        {"MergeVfSubgraphs", "vertical-fusion"}, {"Canonicalizer", "vertical-fusion"},
        {"ApplyTiling", "tiling-search"}, {"OneShotBufferizeVPU2VPUIP", "other"},
        {"Canonicalizer", "other"},      {"FeasibleAllocation", "memory-scheduling"},
        {"(A) SomeAnalysis", "memory-scheduling"}, /* inherits its pass */
        {"Canonicalizer", "memory-scheduling"}, {"PatchWeightsTable", "other"}, {"CSE", "other"},
        {"AddPlatformInfo", "serialization"}, {"ConvertVPUIP2VPUMI40XX", "serialization"},
        {"SetupProfilingVPUMI40XX", "serialization"}, /* exact name beats the Setup* glob */
        {"SomeNewELFPass", "serialization"}, {"Canonicalizer", "serialization"},
        {"AddELFSymbolTable", "serialization"}, {"Rest", "-"},
    };
    long i = 1;
    size_t k = 0;
    for (const ns_node *x = r->root->child; x; x = ns_node_next((ns_node *)x, r->root), i++, k++) {
        if (k >= sizeof want / sizeof want[0]) break;
        int ok = strcmp(x->name, want[k][0]) == 0 && strcmp(stage_at(m, of, i), want[k][1]) == 0;
        if (!ok)
            printf("  2024 row %ld '%s': %s, expected '%s' %s\n", i, x->name, stage_at(m, of, i),
                   want[k][0], want[k][1]);
        CHECK(ok);
    }
    CHECK(k == sizeof want / sizeof want[0] && i == n);
    double self[8];
    ns_stage_sums ss = {self, 0, 0};
    ns_stage_sum(m, r, of, &ss);
    CHECK(fabs(self[ns_stage_find(m, "serialization")] - 1.95) < 1e-9);
    CHECK(fabs(self[ns_stage_find(m, "memory-scheduling")] - 3.05) < 1e-9);
    /* Compile network's own time (9.3 minus its rows) goes to the default */
    double sum = ss.rest;
    for (int j = 0; j < ns_stage_count(m); j++) sum += self[j];
    CHECK(fabs(sum - 10.0) < 1e-9);
    free(of);
    ns_stage_sel_free(&sel);
    drop(&s);
}

/* ====== Rules: scopes, markers, precedence, inheritance ====== */

static const char *tiny_map =
    "stage s1\nstage s2\nstage s3\nstage dflt\n"
    "default dflt\n"
    "name Named -> s3\n"
    "name Star* -> s1\n"
    "name StarExact -> s2\n" /* exact beats the glob, whatever the order */
    "name G* -> s1\n"
    "name Gx* -> s2\n"       /* the first glob wins */
    "scope Pipe\n"
    "marker M1 -> s1\n"
    "marker M2 -> s2\n"
    "marker M1 -> s3\n";     /* M1 again, later: only after M2 */

static const char *tiny_report =
    HDR("1.0000")
    "    0.9000 ( 90.0%)  Pipe\n"
    "    0.0100 (  1.0%)    Before\n"        /* no marker yet: the parent's stage */
    "    0.0100 (  1.0%)    M1\n"            /* s1 */
    "    0.0100 (  1.0%)    Other\n"         /* s1 */
    "    0.0100 (  1.0%)    'func.func' Pipeline\n"
    "    0.0100 (  1.0%)      M2\n"          /* a pipeline is looked through: s2 */
    "    0.0100 (  1.0%)    After\n"         /* s2 */
    "    0.0100 (  1.0%)    M1\n"            /* the third marker: s3 */
    "    0.0100 (  1.0%)    M2\n"            /* cannot go back: s3 */
    "    0.0100 (  1.0%)    Named\n"         /* a name rule beats the range */
    "    0.0100 (  1.0%)    StarExact\n"
    "    0.0100 (  1.0%)    Gxy\n"
    "    0.0100 (  1.0%)    Kid\n"
    "    0.0100 (  1.0%)      Leaf\n"        /* not a pipeline: the parent's stage */
    "    0.0100 (  1.0%)    Pipe\n"          /* a nested scope: a scan of its own */
    "    0.0100 (  1.0%)      X\n"
    "    0.0100 (  1.0%)      M2\n"
    "    0.0100 (  1.0%)  M1\n"              /* top level: no scope here */
    "    0.0100 (  1.0%)  Top\n"
    "    0.0100 (  1.0%)    TopKid\n"
    "   -0.0100 ( -1.0%)  Rest\n"
    "    1.0000 (100.0%)  Total\n";

static void test_rules(void) {
    ns_buf errs = {0};
    ns_stage_map *m = parse(tiny_map, &errs);
    CHECK(m != NULL);
    if (!m) {
        printf("  %s", errs.data ? errs.data : "");
        ns_buf_free(&errs);
        return;
    }
    sink_t s = {0};
    CHECK(scan_text(tiny_report, &s) == 1);
    if (s.n == 1) {
        ns_report *r = s.r[0];
        long n;
        ns_stage_of *of = ns_stage_assign_new(m, r, &n);
        static const char *const want[] = {"dflt", "dflt", "s1", "s1", "s1", "s2", "s2", "s3",
                                           "s3",   "s3",   "s2", "s1", "s3", "s3", "s3", "s3",
                                           "s2",   "dflt", "dflt", "dflt", "-"};
        static const ns_stage_by how[] = {
            NS_STAGE_BY_DEFAULT, NS_STAGE_BY_PARENT, NS_STAGE_BY_MARKER, NS_STAGE_BY_MARKER,
            NS_STAGE_BY_MARKER,  NS_STAGE_BY_MARKER, NS_STAGE_BY_MARKER, NS_STAGE_BY_MARKER,
            NS_STAGE_BY_MARKER,  NS_STAGE_BY_NAME,   NS_STAGE_BY_NAME,   NS_STAGE_BY_NAME,
            NS_STAGE_BY_MARKER,  NS_STAGE_BY_PARENT, NS_STAGE_BY_MARKER, NS_STAGE_BY_PARENT,
            NS_STAGE_BY_MARKER,  NS_STAGE_BY_DEFAULT, NS_STAGE_BY_DEFAULT, NS_STAGE_BY_PARENT,
            NS_STAGE_BY_NONE};
        CHECK(n == 22);
        for (long i = 1; i < n && i <= 21; i++) {
            int ok = strcmp(stage_at(m, of, i), want[i - 1]) == 0 && of[i].by == how[i - 1];
            if (!ok)
                printf("  rules row %ld: %s by %s, expected %s by %s\n", i, stage_at(m, of, i),
                       ns_stage_by_name(of[i].by), want[i - 1], ns_stage_by_name(how[i - 1]));
            CHECK(ok);
        }
        /* the deciding rule's line: "marker M1 -> s3" is line 14 of the map */
        CHECK(of[8].line == 14 && of[3].line == 12 && of[10].line == 6 && of[2].line == 0);
        free(of);
    }
    drop(&s);
    ns_stage_map_free(m);

    /* markers before any scope line apply under every parent, the top level too */
    m = parse("stage a\nstage b\ndefault a\nmarker Go -> b\n", &errs);
    CHECK(m != NULL);
    CHECK(scan_text(HDR("1.0000") "    0.1000 ( 10.0%)  X\n    0.1000 ( 10.0%)  Go\n"
                                  "    0.1000 ( 10.0%)    Y\n    0.1000 ( 10.0%)  Z\n"
                                  "    0.7000 ( 70.0%)  Rest\n    1.0000 (100.0%)  Total\n",
                    &s) == 1);
    if (m && s.n == 1) {
        long n;
        ns_stage_of *of = ns_stage_assign_new(m, s.r[0], &n);
        CHECK(n == 6 && strcmp(stage_at(m, of, 1), "a") == 0 && strcmp(stage_at(m, of, 2), "b") == 0 &&
              strcmp(stage_at(m, of, 3), "b") == 0 && strcmp(stage_at(m, of, 4), "b") == 0);
        free(of);
    }
    drop(&s);
    ns_stage_map_free(m);
    ns_buf_free(&errs);
}

/* ====== A real mlir-opt report: the automatic choice takes mlir ====== */

static void test_mlir_auto(void) {
    sink_t s = {0};
    CHECK(scan_file("tests/fixtures/mlir22-tree-mt.txt", &s) == 1);
    if (s.n != 1) {
        drop(&s);
        return;
    }
    ns_report *r = s.r[0];
    ns_stage_sel sel;
    ns_stage_sel_init(&sel, "auto");
    CHECK(!ns_stage_is_vpux(r));
    const ns_stage_map *m = ns_stage_sel_pick(&sel, r);
    CHECK(m && strcmp(ns_stage_map_label(m), "mlir") == 0);
    long n, i = 0;
    ns_stage_of *of = ns_stage_assign_new(m, r, &n);
    static const char *const npu_only[] = {"tiling-search", "vertical-fusion", "memory-scheduling",
                                           "serialization"};
    int clean = 1;
    for (const ns_node *x = r->root; x; x = ns_node_next((ns_node *)x, r->root), i++)
        for (int k = 0; k < 4; k++)
            if (strcmp(stage_at(m, of, i), npu_only[k]) == 0) clean = 0;
    CHECK(clean);
    for (int k = 0; k < 4; k++) CHECK(ns_stage_find(m, npu_only[k]) < 0);
    static const char *const want[][2] = {
        {"Parser", "parse"}, {"Inliner", "passes"}, {"(A) CallGraph", "analysis"},
        {"'func.func' Pipeline", "passes"}, {"Canonicalizer", "passes"},
        {"Pipeline Collection : ['func.func', 'llvm.func']", "passes"},
        {"ArithToLLVMConversionPass", "lowering"}, {"FinalizeMemRefToLLVMConversionPass", "lowering"},
        {"(A) DataLayoutAnalysis", "analysis"}, {"ConvertFuncToLLVMPass", "lowering"},
        {"ConvertControlFlowToLLVMPass", "lowering"}, {"ReconcileUnrealizedCastsPass", "lowering"},
        {"SCFToControlFlowPass", "passes"}, {"SymbolDCE", "passes"}, {"Output", "output"},
        {"Rest", "-"}};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        long at = find_row(r, want[k][0], 0);
        int ok = at > 0 && strcmp(stage_at(m, of, at), want[k][1]) == 0;
        if (!ok) printf("  mlir '%s': %s, expected %s\n", want[k][0], at > 0 ? stage_at(m, of, at) : "?", want[k][1]);
        CHECK(ok);
    }
    /* negative Rest: the stages add up to Total minus Rest, i.e. more than Total */
    double self[8];
    ns_stage_sums ss = {self, 0, 0};
    ns_stage_sum(m, r, of, &ss);
    double sum = ss.rest;
    for (int k = 0; k < ns_stage_count(m); k++) sum += self[k];
    CHECK(ss.rest == -0.0252 && fabs(sum - ss.total) < 1e-9);
    free(of);
    /* --stages vpux on it: every row falls to the vpux default, nothing lost */
    ns_stage_sel fixed;
    CHECK(ns_stage_sel_init(&fixed, "vpux") == 0);
    const ns_stage_map *v = ns_stage_sel_pick(&fixed, r);
    CHECK(v && strcmp(ns_stage_map_label(v), "vpux") == 0);
    ns_stage_sel_free(&fixed);
    ns_stage_sel_free(&sel);
    drop(&s);
}

/* ====== Deep trees: no recursion ====== */

static void test_deep(void) {
    ns_report *r = ns_report_new(NS_PROD_MLIR_TEXT, "deep", 1);
    ns_builder b;
    ns_builder_init(&b, r);
    const int depth = 20000;
    for (int d = 0; d < depth; d++) {
        ns_node *x = ns_report_node(r);
        x->name = d == 0 ? "Compile network" : (d == 1 ? "FeasibleAllocation" : "Canonicalizer");
        x->kind = ns_kind_of_name(x->name, d);
        x->val[NS_COL_WALL] = (ns_num){1.0, 4, 0};
        ns_builder_add(&b, x, d);
    }
    ns_builder_free(&b);
    ns_stage_map *m = ns_stage_map_builtin_new("vpux");
    long n;
    ns_stage_of *of = ns_stage_assign_new(m, r, &n);
    CHECK(n == depth + 1);
    CHECK(strcmp(stage_at(m, of, 1), "other") == 0 && strcmp(stage_at(m, of, 2), "memory-scheduling") == 0);
    CHECK(strcmp(stage_at(m, of, depth), "memory-scheduling") == 0 && of[depth].by == NS_STAGE_BY_PARENT);
    free(of);
    ns_stage_map_free(m);
    ns_report_free(r);
}

int main(void) {
    ns_diag_quiet(1);
    test_glob();
    test_parse_ok();
    test_parse_errors();
    test_builtins();
    test_npu_fixtures();
    test_nc2024();
    test_rules();
    test_mlir_auto();
    test_deep();
    return check_summary("unit_stages");
}
