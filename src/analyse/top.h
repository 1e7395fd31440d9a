/* top.h -- the heaviest passes, summed by name across every report, and
 * the same time grouped by stage.
 *
 * An NPUW LLM compile is seven compiles; a sweep is hundreds.  `top` adds
 * each name's time over all of them ("sets": occurrences, total wall, total
 * user, self time) and ranks them.  Container rows (scopes and pipelines
 * with children) are left out by default because their time is their
 * children's; --all keeps them.  Rest and Total are never rows.
 *
 * A compile that prints several tables (clang/flang -ftime-report, opt
 * and llc -time-passes, model/report.h "Report groups") counts once: the
 * total sums only main reports, so shares are of the compile's own total
 * (the printed percentages, for a main report's rows).  Rows of breakdown
 * tables are still ranked -- they are the passes a reader looks for -- but
 * carry what they are inside (`within`), and add nothing to the total or
 * to the stages.  A main report's phase whose passes such a table lists
 * ("Optimizer", ns_node.split) is a container like a pipeline: left out
 * unless `all`.
 *
 * With a stage map (stages.h) every report also adds to one row per stage:
 * count, wall and user over the same rows a pass row sums (so the stage
 * rows are the pass rows grouped by stage), and self over *every* row of
 * the stage, containers included -- the stage's time, which with Rest adds
 * up to the total.  Each pass row remembers its stage, or "mixed" when its
 * occurrences fall in different stages (Canonicalizer does).  Stages are
 * kept by name in the order the maps declare them, so reports read with
 * different maps (auto: vpux for one report, mlir for another) still give
 * one list.
 *
 * Rows of a trace's side tracks (ns_node.beside: clang's asynchronous
 * Source spans) overlap the compile's own time: they add to no stage and
 * are ranked as no pass.  clang's Source spans are header parsing, one per
 * included file: they are summed by file instead (`headers`, the time of
 * a header including the headers it includes), so `top` and `advise` can
 * name the costliest headers.
 */
#ifndef NPUSCOPE_TOP_H
#define NPUSCOPE_TOP_H

#include "model/report.h"
#include "model/stages.h"
#include "base/strmap.h"

#define NS_TOP_NO_STAGE (-1)    /* ns_top_row.stage: no map was given */
#define NS_TOP_MIXED_STAGE (-2) /* occurrences in different stages */

typedef struct {
    ns_kind kind;    /* kind of the first occurrence */
    long count;      /* occurrences */
    double wall;     /* summed wall seconds */
    double user;     /* summed user seconds (where printed) */
    double self;     /* summed wall self time */
    long user_count; /* occurrences that had a user value */
    int dec;         /* most decimals among the summed values */
    int stage;       /* pass rows: stage index into ns_top.stages, or NS_TOP_*_STAGE */
    int within;      /* rows of breakdown tables: what they are inside, an
                      * index into ns_top.withins; NS_TOP_MAIN for a main
                      * report's row; NS_TOP_MIXED_WITHIN when occurrences
                      * differ */
    long mem_count;  /* occurrences with a memory-usage-collector value */
    double mem_inc;  /* their summed increase of the peak, kB */
    double mem_peak; /* the largest peak after one of them, kB */
} ns_top_row;

#define NS_TOP_MAIN (-1)         /* ns_top_row.within: a row of a main report */
#define NS_TOP_MIXED_WITHIN (-2) /* occurrences inside different rows, or both */

/* A row name is hashed once per row: the stage map's memo has already
 * given it an id (ns_stage_of.name_id), and the row it sums into is found
 * by that id -- per map, for the ids are the map's. */
typedef struct {
    const ns_stage_map *map; /* a map reports were added with (it outlives the ns_top) */
    size_t *row;             /* per name id: its row index + 1, 0 not yet known */
    size_t n;                /* entries in row */
    int *slot;               /* per stage of the map: its index in ns_top.stages
                              * (interned once, at the map's first report) */
} ns_top_ids;

typedef struct {
    ns_strmap names;   /* name -> row index */
    ns_top_ids *ids;   /* per stage map used: name ids -> rows */
    int nids;          /* entries in ids */
    ns_top_row *rows;  /* rows by index */
    size_t cap;        /* allocated rows */
    double total_wall; /* summed totals (wall) of the main reports: each
                        * second of a compile once (model/report.h) */
    int reports;       /* reports added, breakdown tables included */
    int compiles;      /* compiles among them (report groups) */
    int breakdowns;    /* breakdown tables among them */
    long phases_left_out; /* rows left out as phases split into passes */
    ns_strmap withins; /* what breakdown rows are inside: the parent's rows,
                        * or "#N" for the parent report as a whole */
    int all;           /* keep container rows too */
    ns_strmap stages;  /* stage names, in the maps' order of declaration */
    char **stage_desc; /* description of each stage (owned) */
    ns_top_row *srows; /* per stage: the pass rows grouped; self over every row */
    size_t scap;       /* allocated stage_desc and srows */
    ns_strmap maps;    /* labels of the stage maps used, in order of first use */
    ns_top_row rest;   /* the Rest rows, summed (count, wall = self) */
    ns_strmap headers; /* files of clang's Source spans (args.detail) */
    double *header_s;  /* per file: its Source spans' summed wall */
    long *header_n;    /* per file: how many spans (inclusions parsed) */
    size_t header_cap; /* allocated entries of both */
} ns_top;

void ns_top_init(ns_top *t, int all);
/* Add a report's rows without stages (every pass row's stage stays none). */
void ns_top_add(ns_top *t, const ns_report *r);
/* Add a report's rows and its stages: `of` is ns_stage_assign_new(m, r). */
void ns_top_add_staged(ns_top *t, const ns_report *r, const ns_stage_map *m,
                       const ns_stage_of *of);
/* Row indices sorted by wall descending, ties by name; caller frees. */
size_t *ns_top_order_new(const ns_top *t);
/* The rows with per-pass memory (mem_count > 0) by summed increase
 * descending, ties by name; their number in *n.  Caller frees. */
size_t *ns_top_order_mem_new(const ns_top *t, size_t *n);
/* The headers (ns_top.headers) by summed time descending, ties by name;
 * caller frees.  NULL when there are none. */
size_t *ns_top_headers_order_new(const ns_top *t);
void ns_top_free(ns_top *t);

#endif
