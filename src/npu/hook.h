/* hook.h -- the scanner hook that feeds the NPU layer: what the compiler's
 * log says between reports becomes facts and labels of the reports.
 *
 * The scanner (parse/scan*.c) finds timing reports and knows nothing of the
 * NPU compiler.  This hook, installed by the caller that builds the
 * scanner (the commands for --npu and --npuw, the runner for the npu
 * preset), watches the lines between reports and adds what belongs to them:
 *   - facts (npu.h): a "Compile net time" or the peak memory logged after
 *     a report belongs to it, so a finished report is held back until the
 *     next one begins or the input ends; the thread pool, task counts and
 *     the like logged before a report are kept for the one that follows;
 *   - the strategy dump (dump-strategy-to-log=true): its tile counts
 *     (files.h) become facts "tiles" and "tiled_ops" of the next report;
 *   - weights separation (one compile, N+1 reports): "Compile Init[i]" and
 *     "Compile Main" label the next report "Init[i]" / "Main", and every
 *     report of that compile gets facts ws_compile (its number in the
 *     input: the reports of one compile share it) and ws_inits (N);
 *   - NPUW's compile trace: "START compiled_model/construct/MODEL" names
 *     the model, "START compiled_model/compile_subgraph[i]" labels the next
 *     report "MODEL/subgraph[i]", and its "END ... (X.XXXs)" gives that
 *     report the fact npuw_compile_s;
 *   - a failed compile's lines and the environment the NPU stack logs
 *     (npu/failure.h) go into h->load when the caller sets it: they belong
 *     to the input, not to a report;
 *   - with an NPUW layout (--npuw), labels: a developer build's "Compiling
 *     Subgraph[i]: NAME" line names the next report, else its place in the
 *     layout does ("prefill/2"), and a warning says when the reports
 *     outnumber the layout.
 * The hook holds at most one report and one input's worth of state; the
 * scanner gets every report back, in order.  It reads no input itself and
 * writes nothing but that one warning, which goes to the sink it is given.
 */
#ifndef NPUSCOPE_NPU_HOOK_H
#define NPUSCOPE_NPU_HOOK_H

#include "base/needles.h"
#include "model/load.h"
#include "npu/memory.h"
#include "parse/scan.h"

#define NS_NPU_NEXT_MAX 16 /* facts kept for the next report */

typedef struct {
    ns_scan_hook ops;          /* what the scanner calls (ops.ctx is this hook) */
    const char *npuw;          /* NPUW layout for labels (borrowed), or NULL */
    int detect;                /* read nothing until a line of the NPU stack
                                * (ns_npu_log_line) shows this is its log */
    int seen;                  /* detect: such a line came in this input */
    int ws_group;              /* weights-separation compiles in this input */
    long ws_inits;             /* their Init count, while one is open, or -1 */
    int ws_first;              /* index of the first report of the compile that
                                * ws_first_of numbers: the group of its parts */
    int ws_first_of;           /* the ws_compile number ws_first belongs to, or 0 */
    char *ws_label;            /* "Init[i]" / "Main" for the next report, or NULL */
    char *trace_model;         /* NPUW trace: the model being built, or NULL */
    char *trace_label;         /* NPUW trace: "MODEL/subgraph[i]" for the next report */
    ns_diag diag;              /* where the layout warning goes */
    ns_report *held;           /* finished report, kept for the facts after it */
    ns_fact next[NS_NPU_NEXT_MAX]; /* facts for the report that comes next */
    int nnext;                 /* entries in next */
    char *subgraph;            /* name from a "Compiling Subgraph" line, or NULL */
    int strat;                 /* 1 after "Final strategies ...", 2 inside its JSON */
    int strat_depth;           /* open braces of that JSON (lines waited, before it) */
    ns_buf strat_json;         /* the JSON collected so far */
    ns_npu_mem mem;            /* memory-usage-collector lines for the next report */
    ns_needles needles;        /* the texts a line must hold to matter (npu.h) */
    ns_needles log_needles;    /* detect: the texts a line of the NPU stack holds */
    uint64_t need_strat;       /* the needles (bits of ns_needles_which) without which */
    uint64_t need_mem;         /* ... the strategy dump's head, the memory collector, */
    uint64_t need_ws;          /* ... weights separation, the NPUW trace and subgraph */
    uint64_t need_npuw;        /* ... lines and the facts (the rest) match nothing: */
    uint64_t need_fact;        /* ... a line goes only to the matchers it can feed */
    int every_line;            /* tests: every line through the matchers, no filter
                                * and no skip */
    ns_load *load;             /* where failures and environment facts go
                                * (npu/failure.h), or NULL: not read */
    const char *at_file;       /* the input of the line being read (borrowed) */
    long at_line;              /* its number */
    uint64_t need_load;        /* the needles of failure and environment lines */
} ns_npu_hook;

/* Facts for every report; labels by `npuw` too when it is not NULL (a
 * layout the command line has checked); the warning that the reports
 * outnumber the layout goes to d.  Install with sc->hook = &h->ops. */
void ns_npu_hook_init(ns_npu_hook *h, const char *npuw, const ns_diag *d);
/* The same, for an input that may not be an NPU log (no --npu, standard
 * input or a pipe that cannot be looked at first): it reads nothing until
 * a line of the NPU stack comes, so nothing NPU is given to another
 * compiler's reports. */
void ns_npu_hook_init_detect(ns_npu_hook *h, const char *npuw, const ns_diag *d);
void ns_npu_hook_free(ns_npu_hook *h);

#endif
