/* stages.h -- stage maps: which stage of a compile each row of a report
 * belongs to, and how much time each stage took.
 *
 * A timing report answers "which pass was slow"; the question behind it is
 * usually "which part of the compiler": tiling search, memory scheduling,
 * ELF serialization.  The NPU compiler does not say: its passes sit flat
 * under one "IE to VPUIP pipeline" row, and Canonicalizer or CSE run in
 * every part of it.  A stage map is a small rules file (docs/stages.md)
 * that names the stages and says which rows belong to which:
 *
 *   stage NAME [description]      declares a stage (display order)
 *   name PATTERN -> STAGE         rows with this name, anywhere
 *   scope PATTERN                 the next markers apply to this parent's children
 *   marker PATTERN -> STAGE       from this row on (among its siblings), STAGE
 *   default STAGE                 top-level rows that no rule names
 *
 * A row's stage is decided in this order: a name rule; else the marker range
 * it sits in; else its parent's stage; else (a top-level row) the default.
 * So Canonicalizer, CSE, 'func.func' Pipeline and (A) analysis rows belong
 * to wherever they sit, unless a map names them.
 *
 * Two maps are built in (stages_builtin.c; the same text ships as
 * stages/vpux.stages and stages/mlir.stages for people to copy and edit):
 * "vpux" for the OpenVINO NPU compiler, "mlir" for any other MLIR tool (and
 * LLVM/clang reports).  The automatic choice takes vpux for a report that
 * has a row named "IE to VPUIP pipeline" or "Compile network" at depth 0 or
 * 1, and mlir otherwise.
 *
 * Accounting (the one rule every view follows): the time of a stage is the
 * sum of the *self* times (wall minus the children's wall) of its rows, so
 * no second is counted twice.  Summed over every row of a tree report, self
 * times give the top-level rows' total, so
 *     sum over stages + Rest = Total        (exactly, up to rounding)
 * Rest (the report's time outside every row, negative when MLIR timed a
 * nested pipeline twice) belongs to no stage; views show it as its own row.
 * Negative self times (children timed on parallel threads can add up to more
 * than their parent's wall) are kept as they are, never clamped: clamping
 * would break the sum.  List displays (--mlir-timing-display=list) repeat
 * each pipeline's passes flat: their pipeline rows and their "root" row are
 * left out of the sums (ns_stage_counted).
 *
 * Nothing here changes a report: the stage of each row lives in a side array
 * in pre-order position (the order ns_node_next visits, root first).  Every
 * walk is iterative; trees may be 10,000 deep.
 *
 * Ownership: maps and assignment arrays returned by *_new are the caller's
 * (ns_stage_map_free, free); names returned by the accessors are borrowed
 * from the map.
 */
#ifndef NPUSCOPE_STAGES_H
#define NPUSCOPE_STAGES_H

#include "base/common.h"
#include "model/report.h"

/* ====== Maps ====== */
typedef struct ns_stage_map ns_stage_map;

/* Parse a map from text.  `file` names it in messages ("vpux" for a
 * built-in).  On any error returns NULL and appends one line per problem to
 * errs: "FILE:LINE: message\n" (or "FILE: message\n" for the whole file). */
ns_stage_map *ns_stage_map_parse_new(const char *file, const char *text, size_t len,
                                     ns_buf *errs);
/* The text of a built-in map ("vpux", "mlir"), or NULL. */
const char *ns_stage_builtin_text(const char *name);
/* A built-in map parsed ("vpux" or "mlir"); NULL for another name. */
ns_stage_map *ns_stage_map_builtin_new(const char *name);
/* "vpux", "mlir" -> the built-in; anything else is a file to read.  Every
 * problem is printed ("npuscope: FILE:LINE: message"); NULL then. */
ns_stage_map *ns_stage_map_load_new(const char *spec);
void ns_stage_map_free(ns_stage_map *m);

const char *ns_stage_map_label(const ns_stage_map *m); /* "vpux", "mlir" or the file */
/* The pass a logger of the NPU compiler belongs to, by the map's `logger`
 * rules: the pass's name, "" for a logger of no pass, NULL when the map
 * has no rule for it (docs/stages.md). */
const char *ns_stage_logger_pass(const ns_stage_map *m, const char *logger);
const char *ns_stage_map_text(const ns_stage_map *m);  /* the text it was parsed from */
int ns_stage_count(const ns_stage_map *m);             /* declared stages */
const char *ns_stage_name(const ns_stage_map *m, int i);
const char *ns_stage_desc(const ns_stage_map *m, int i); /* "" when none */
int ns_stage_find(const ns_stage_map *m, const char *name); /* index or -1 */
int ns_stage_default(const ns_stage_map *m);           /* stage of the default line */
/* A one-line summary: "6 stages, 150 name rules (12 globs), 1 scope block
 * (5 scopes) with 40 markers, default 'other'". */
void ns_stage_map_summary(ns_buf *b, const ns_stage_map *m);

/* ====== Patterns ======
 * '*' any run of bytes (also none), '?' one byte, '\' makes the next byte
 * literal; the pattern must match the whole name. */
int ns_stage_glob(const char *pattern, const char *name);

/* ====== Assigning stages to rows ====== */
typedef enum {
    NS_STAGE_BY_NONE,    /* the root, Rest: no stage */
    NS_STAGE_BY_NAME,    /* a name rule */
    NS_STAGE_BY_MARKER,  /* the range of a marker among its siblings */
    NS_STAGE_BY_PARENT,  /* inherited from the parent row */
    NS_STAGE_BY_DEFAULT, /* a top-level row no rule names */
} ns_stage_by;

typedef struct {
    int stage;    /* index into the map's stages; -1 for the root and Rest */
    int line;     /* line of the deciding rule (name, marker, default); 0 if inherited */
    ns_stage_by by; /* how the stage was decided */
    int name_id;  /* the row name's entry in the map's memo of names: the same
                   * name has the same id in every report the map reads, so
                   * a caller can key by it without hashing the name again
                   * (top does); -1 for none (the memo is full) */
} ns_stage_of;

/* The stage of every row of r, indexed by pre-order position (root = 0);
 * *n receives the number of rows.  Caller frees. */
ns_stage_of *ns_stage_assign_new(const ns_stage_map *m, const ns_report *r, long *n);
/* Does node n enter the sums?  Not the root, not Rest, not a list display's
 * "root" row or its flat pipeline rows (see the essay above). */
int ns_stage_counted(const ns_report *r, const ns_node *n);
const char *ns_stage_by_name(ns_stage_by by); /* "name", "marker", "parent", ... */

/* ====== Stage totals of one report ====== */
typedef struct {
    double *self;   /* per stage (map order): summed wall self time */
    double rest;    /* the Rest row's wall (0 when there is none) */
    double total;   /* the report's Total wall (header total if incomplete; NaN if neither) */
} ns_stage_sums;

/* Sum the self times of r's rows per stage.  s->self must have
 * ns_stage_count(m) entries; it is zeroed first. */
void ns_stage_sum(const ns_stage_map *m, const ns_report *r, const ns_stage_of *of,
                  ns_stage_sums *s);
/* The report's total wall: its Total row, else its header total, else NaN. */
double ns_stage_report_total(const ns_report *r);

/* ====== Choosing a map per report ======
 * `--stages MAP` for the commands: "auto" (or NULL) picks per report, "vpux"
 * and "mlir" are the built-ins, anything else a file. */
typedef struct {
    ns_stage_map *fixed; /* the map given, or NULL for auto */
    ns_stage_map *vpux;  /* built-ins, parsed when auto first needs them */
    ns_stage_map *mlir;  /* ... */
} ns_stage_sel;

/* Returns 0, or -1 with the problems printed (a file that cannot be read or
 * has errors). */
int ns_stage_sel_init(ns_stage_sel *s, const char *spec);
/* The map for report r. */
const ns_stage_map *ns_stage_sel_pick(ns_stage_sel *s, const ns_report *r);
/* Is r an NPU compiler report (the automatic choice's test)?  It reads
 * the names of r's top two levels, unless the answer was noted. */
int ns_stage_is_vpux(const ns_report *r);
/* Note the answer in r (r->vpux): for a report built on one thread and
 * used on another (parse/split.c), asked where its rows are in the cache. */
void ns_stage_note_vpux(ns_report *r);
void ns_stage_sel_free(ns_stage_sel *s);

#endif
