/* report.h -- the model: one timing report as a tree of nodes.
 *
 * Every producer npuscope reads (MLIR text and JSON, LLVM timer groups,
 * Chrome traces) becomes the same thing: a report whose root is the "Total"
 * row and whose children are the printed rows, in the order printed, nested by
 * indentation.  "Rest" stays a child of its own (it can be negative).  Values
 * are kept exactly as printed (see num.h), including the printed percentages,
 * so that a report can be printed back byte for byte -- which is also how the
 * tests prove that parsing lost nothing.
 *
 * Ownership: a report owns every node and string reachable from it through an
 * arena; ns_report_free releases all of it at once.  Nodes are never freed
 * one by one.  The scanner hands each finished report to a sink callback,
 * which may keep it (and free it later) or free it at once -- that is what
 * lets a 1 GB log be summarised in a few megabytes.
 */
#ifndef NPUSCOPE_REPORT_H
#define NPUSCOPE_REPORT_H

#include "base/num.h"

/* ====== Columns ====== */
typedef enum {
    NS_COL_WALL,    /* wall-clock seconds */
    NS_COL_USER,    /* user CPU seconds (MLIR: summed over threads) */
    NS_COL_SYS,     /* system CPU seconds (LLVM timer groups) */
    NS_COL_USERSYS, /* user+system seconds (LLVM timer groups) */
    NS_COL_MEM,     /* bytes (LLVM -track-memory) */
    NS_COL_INSTR,   /* retired instructions (LLVM with perf counters) */
    /* Not printed by the report itself: what the NPU compiler's
     * memory-usage-collector logs after a pass that raised the process's
     * peak (npu/memory.h).  A row without such a line has them absent --
     * never 0 -- and re-printing the report leaves them out. */
    NS_COL_MEM_PEAK, /* kB: the process's peak (VmPeak) after the pass */
    NS_COL_MEM_INC,  /* kB: how much the pass raised that peak */
    NS_COL_COUNT
} ns_col;

#define NS_COLBIT(c) (1u << (c))

/* ====== Nodes ====== */
typedef enum {
    NS_KIND_SCOPE,    /* a named region of the tool: Parser, Compile network */
    NS_KIND_PASS,     /* a compiler pass */
    NS_KIND_PIPELINE, /* 'func.func' Pipeline, Pipeline Collection : [...] */
    NS_KIND_ANALYSIS, /* (A) DominanceInfo */
    NS_KIND_REST,     /* the Rest row: total minus the top-level rows */
    NS_KIND_TOTAL,    /* the root */
} ns_kind;

typedef struct ns_node {
    const char *name;          /* as printed (arena) */
    const char *detail;        /* trace events' args.detail, else NULL */
    ns_num val[NS_COL_COUNT];  /* values by column; absent ones are marked */
    ns_num pct[NS_COL_COUNT];  /* percentages as printed (text reports) */
    ns_kind kind;              /* classification, see ns_kind_of_name */
    int depth;                 /* 0 for top-level rows; the root is -1 */
    long line;                 /* input line the row came from (0: none) */
    struct ns_node *parent;    /* NULL for the root */
    struct ns_node *child;     /* first child, in report order */
    struct ns_node *last;      /* last child, for O(1) append */
    struct ns_node *next;      /* next sibling */
    int nchild;                /* number of children */
    unsigned char split;       /* report groups: NS_SPLIT_*, what another
                                * table of the compile makes of this row */
    unsigned char beside;      /* trace: a row of a track that ran beside the
                                * compile's own (clang's asynchronous Source
                                * spans, another thread of clang): its time
                                * overlaps the others', so it is in no stage
                                * sum and ranked as no pass (parse/trace.c) */
} ns_node;

/* ns_node.split: a row that a breakdown table of its compile breaks down
 * (model/report.h, "Report groups"; set by the reader). */
enum {
    NS_SPLIT_NONE,   /* no table breaks it down */
    NS_SPLIT_PASSES, /* a phase whose passes another table lists ("Optimizer") */
    NS_SPLIT_STEPS,  /* a pass whose steps another table lists (instruction
                      * selection, register allocation): still a pass */
};

/* ====== Reports ====== */
typedef struct ns_arena_chunk ns_arena_chunk;

typedef enum {
    NS_PROD_MLIR_TEXT, /* MLIR DefaultTimingManager, text output */
    NS_PROD_MLIR_JSON, /* MLIR DefaultTimingManager, JSON output (>= 19) */
    NS_PROD_LLVM,      /* llvm::TimerGroup table (-time-passes, -ftime-report) */
    NS_PROD_TRACE,     /* Chrome trace JSON (clang -ftime-trace) */
} ns_producer;

/* A number the compiler logged about this compile (NPU INFO lines such as
 * "Compile net time: N ms"), see npu.c. */
typedef struct {
    char *name;   /* metric name, e.g. "compile_net_ms" (owned) */
    double value; /* the number */
} ns_fact;

typedef struct ns_report {
    int index;               /* 0-based position among the input's reports */
    char *label;             /* "#1", or taken with --label-regex */
    ns_producer producer;    /* which format it came in */
    int list_mode;           /* MLIR --mlir-timing-display=list: flat rows */
    int legacy;              /* MLIR text in its layout before mid-2021 (LLVM's
                              * column header over an MLIR tree: docs/formats.md) */
    int no_banner;           /* a text report read from its column header on:
                              * its banner block was not there */
    char *title;             /* title line, e.g. "... Execution time report ..." */
    char *file;              /* input file name ("<stdin>" for standard input) */
    long line;               /* line of the report's first line */
    long end_line;           /* line of its last line */
    ns_num header_total;     /* "Total Execution Time: X seconds" */
    ns_num header_wall;      /* LLVM: "(Y wall clock)" */
    unsigned cols;           /* NS_COLBIT set of columns the report has */
    int complete;            /* 1 once the Total row was read */
    int width_hint;          /* number column width seen (for re-printing) */
    char *prefix;            /* log prefix seen before the banner, or NULL */
    ns_node *root;           /* the Total row; children are the printed rows */
    long nnodes;             /* rows, root included */
    ns_arena_chunk *arena;   /* all nodes and strings of this report */
    ns_fact *facts;          /* compiler-logged numbers of this compile */
    int nfacts;              /* entries in facts */
    int group;               /* index of the first table of the compile this
                              * report is one table of (see Report groups),
                              * or -1: the report stands alone */
    int parent;              /* index of the report whose time this table
                              * breaks down, or -1: a main report, its total
                              * is part of the compile's */
    char *within;            /* the parent's rows it breaks down, "; "-joined
                              * (owned), or NULL: the parent as a whole */
    signed char vpux;        /* ns_stage_is_vpux's answer when the thread
                              * that built the report noted it (model/stages.h:
                              * 1 no, 2 yes), or 0: not noted, asked each time */
    int tracks;              /* trace: the root's children are its threads
                              * and async tracks, which ran side by side
                              * (their times overlap; the total is the
                              * longest, not their sum) */
} ns_report;

ns_report *ns_report_new(ns_producer producer, const char *file, long line);
void ns_report_free(ns_report *r);
/* A thread keeps a few of the arena chunks its freed reports leave, for
 * the next reports it makes; a thread that ends (a scan worker) frees them
 * with this.  What overflows a thread's few goes to a pool all threads
 * share (the threads of one file's scan make reports on one thread and
 * free them on another); ns_report_pool_free empties it. */
void ns_report_spares_free(void);
void ns_report_pool_free(void);

/* ====== Report groups ======
 * One clang, flang, opt or llc process prints several tables back to back
 * (-ftime-report, -time-passes): a main report that covers the compile
 * ("Clang time report", "Flang execution timing report"; opt and llc have
 * none, their pass table is the main one) and tables whose rows break down
 * rows already inside it ("Pass execution timing report" breaks down
 * "Optimizer" and "Machine code generation", "Instruction Selection and
 * Scheduling" the pass row "X86 DAG->DAG Instruction Selection").  The
 * reader links them (parse/group.c): `group` names the compile, `parent`
 * and `within` what a breakdown table breaks down.  A compile's time is
 * the sum of its main reports' totals; a breakdown table's seconds are
 * already in it, so summing every table would count them twice or more.
 * A report that is no table of such a group (MLIR, a trace) has group and
 * parent -1: it is a compile of its own. */

/* Is the report a main one (its total counts toward its compile's)? */
int ns_report_is_main(const ns_report *r);
/* Is n MLIR list display's hidden root timer (the total again): the row
 * "root" at depth 0 of a list report, wherever it stands (it is first when
 * its wall time is the largest, not always)? */
int ns_node_is_list_root(const ns_report *r, const ns_node *n);
/* Is the report the first table of a compile (or a compile of its own)?
 * Counting these counts compiles, not tables. */
int ns_report_starts_compile(const ns_report *r);

/* Weights separation (npu/hook.h): the N+1 reports of one compile carry
 * the same fact ws_compile; they are one compile, each a main report (an
 * Init part's time is its own work, not inside Main's).  Sets the group
 * of each report r[0..n) that has the fact and no group yet to the index
 * of the first one with the same value -- for reports read back from
 * run.json; the NPU hook sets it as the reports are found. */
void ns_report_group_ws(ns_report **r, int n);
/* The value of fact `name` of the report, or NaN. */
double ns_report_fact(const ns_report *r, const char *name);

/* Set fact `name` of the report to value (replacing an earlier one). */
void ns_report_set_fact(ns_report *r, const char *name, double value);

/* Copy n bytes into the report's arena, NUL-terminated. */
char *ns_report_strdup(ns_report *r, const char *s, size_t n);
/* A zeroed node from the report's arena, all values absent. */
ns_node *ns_report_node(ns_report *r);
/* Append child as the last child of parent. */
void ns_node_append(ns_node *parent, ns_node *child);

/* ====== Building from indented rows ======
 * Rows arrive in print order with a depth (indent / 2).  The builder keeps
 * the path from the root to the last row, so each row finds its parent in
 * O(1).  A row deeper than its predecessor + 1 is attached one level below
 * the predecessor and reported (the text said something the tree cannot). */
typedef struct {
    ns_report *r;   /* report being built */
    ns_node **path; /* path[d] = last row at depth d */
    int cap;        /* allocated entries of path */
    int depth;      /* depth of the last row, -1 before the first */
} ns_builder;

void ns_builder_init(ns_builder *b, ns_report *r);
/* Adds node at `depth`; returns the depth actually used. */
int ns_builder_add(ns_builder *b, ns_node *node, int depth);
void ns_builder_free(ns_builder *b);

/* ====== Naming ====== */
ns_kind ns_kind_of_name(const char *name, int depth);
const char *ns_kind_name(ns_kind k);
const char *ns_producer_name(const ns_report *r); /* "mlir-text-tree", ... */
const char *ns_col_name(ns_col c);                  /* "wall", "user", ... */
/* A row's key for column c in the tree JSON (docs/formats.md): "wall_s",
 * "user_s", "sys_s", "user_sys_s", "mem_bytes", "instructions",
 * "mem_peak_kb", "mem_increase_kb" -- one
 * table for its writer (render/tree_json.c) and its reader
 * (parse/tree_read.c). */
const char *ns_col_json_key(ns_col c);
/* The columns in the order the producers print them (user, sys,
 * user+sys, wall, mem, instr), then the logged memory columns (peak,
 * increase): re-printing (which skips the logged ones, ns_col_printed)
 * and the JSON "columns" list. */
extern const ns_col ns_col_print_order[NS_COL_COUNT];
/* Is column c one the timing report prints (not one logged beside it)? */
int ns_col_printed(ns_col c);

/* ====== Walking ======
 * Pre-order traversal without recursion (trees may be 10,000 deep):
 *   for (ns_node *n = root; n; n = ns_node_next(n, root)) ...   */
ns_node *ns_node_next(ns_node *n, const ns_node *root);
/* Like ns_node_next but does not descend into n's children. */
ns_node *ns_node_skip(ns_node *n, const ns_node *root);

/* Self time of a node in column c: its value minus its children's (NaN if
 * the column is absent). */
double ns_node_self(const ns_node *n, ns_col c);

#endif
