/* merge.h -- one timing tree out of many repeats: `tree --merge`.
 *
 * A sweep repeats each configuration a few times, and every repeat leaves
 * its own timing reports in run.json.  One report is one sample; what a
 * person wants to read is the typical tree of the configuration, with a
 * word on how much each row moved.  This file builds it.
 *
 *   - Runs are grouped by configuration and mode exactly as `table`
 *     groups them (analyse/dataset.h, ns_configs_new: tags, command and
 *     environment, and a label where the tags are the same).  Only
 *     counted runs enter (ns_run_counted: ok, neither warmups nor cache
 *     primers).  Within a group runs are taken in run-id order; groups come
 *     in table's order (ns_config_cmp: tag values that are numbers by
 *     value, so funcs=2000 before funcs=16000; then the mode).
 *   - Report k of a run is merged with report k of the other runs of its
 *     group (an NPUW compile prints one report per sub-model, in a fixed
 *     order).  A run with fewer reports simply does not take part in the
 *     higher positions.  The merged report is labelled
 *     "<config> <mode> <label>" ("model=llm cold #1"; "cold #1" without
 *     tags), the label being report k's in the first run that has one.
 *   - Rows are matched by path.  Each step of a path is a name and its
 *     occurrence among the same-named siblings under that parent, so the
 *     third Canonicalizer under "IE to VPUIP pipeline" is matched with the
 *     third in every run, never with the first.  A row some runs lack
 *     still appears, with a smaller n.  Children come in the order of
 *     their first appearance over the runs.
 *   - A merged row's wall value is the median of the runs that have the
 *     row; the other columns (user, and LLVM's sys, user+sys, mem, instr)
 *     are medians too, but only when every one of those runs printed the
 *     value, and only columns every merged report has are kept.  The
 *     root is the Total row like any other: the median of the totals.
 *     Values print with the most decimals any input printed them with, so
 *     a merged tree looks like the compiler's own.
 *   - Beside the tree, per row: n (runs that have it), the smallest and
 *     largest wall, and how many of the walls are outliers by the modified
 *     z-score (ns_outliers: flagged, never dropped).  ns_node has no room
 *     for these, so they live in a side table of the merge, looked up by
 *     node (ns_merge_stat_of).
 *
 * This file builds the merged tree and its side table and writes nothing:
 * the text and JSON of a merged tree are render/merged.c's, above it.
 *
 * Trees can be 10,000 deep: every walk here is iterative.  Everything is
 * deterministic: no hashing order or address ever reaches the output.
 * Ownership: an ns_merged owns its report, names and side table; the
 * inputs are only borrowed while ns_merge_new runs.
 * Deliberately left out: merging reports of different positions or
 * different producers by content (report k is report k), and means or
 * standard deviations (a handful of samples with a slow one: the median).
 */
#ifndef NPUSCOPE_MERGE_H
#define NPUSCOPE_MERGE_H

#include "analyse/dataset.h"
#include "model/report.h"

/* ====== A merged report ====== */

/* What the median hides, per merged row. */
typedef struct {
    int n;        /* runs whose report has this row's path */
    ns_num min;   /* smallest wall among them (decimals of the merged value) */
    ns_num max;   /* largest wall among them */
    int outliers; /* walls among them that are outliers (ns_outliers) */
} ns_merge_stat;

typedef struct ns__merge_side ns__merge_side;

typedef struct {
    ns_report *report;   /* the merged tree, values are medians (owned) */
    int nruns;           /* reports merged */
    char **runs;         /* name of each merged report's run, in merge order (owned) */
    long outlier_rows;   /* rows (Total included) with at least one outlier */
    ns__merge_side *side; /* the per-row side table (private to merge.c) */
} ns_merged;

/* Merge reps[0..n) (borrowed; n >= 1) into one report labelled `label`
 * (copied).  names[i] names the run reps[i] came from (copied; names may be
 * NULL, or an entry NULL, then "#i" is used).  Free with ns_merge_free. */
ns_merged *ns_merge_new(const ns_report *const *reps, const char *const *names, int n,
                        const char *label);
void ns_merge_free(ns_merged *m);
/* The side-table entry of a node of m->report, or NULL for a node of
 * another report. */
const ns_merge_stat *ns_merge_stat_of(const ns_merged *m, const ns_node *node);

/* ====== Groups of runs ====== */

typedef struct {
    char *config;        /* "K=V,K=V" sorted by key, the label among them ("config=..."),
                          * "" without tags (owned) */
    const char *mode;    /* "cold", "warm", "none" (borrowed from a run) */
    const ns_run **runs; /* its counted runs in run-id order (borrowed) */
    int n;               /* entries in runs */
} ns_merge_group;

/* Group the counted runs of s (see the rules above).  Returns the number
 * of groups, in *out (free with ns_merge_groups_free); *skipped receives
 * the number of runs not counted. */
int ns_merge_groups(const ns_runset *s, ns_merge_group **out, int *skipped);
void ns_merge_groups_free(ns_merge_group *g, int n);
/* The merged reports of group g, one per report position that at least one
 * run has, in position order: returns how many, in *out (an array of
 * ns_merge_new results; free each, then the array). */
int ns_merge_group_reports(const ns_merge_group *g, ns_merged ***out);

#endif
