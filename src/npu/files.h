/* files.h -- why a compile is costly: the files the NPU compiler leaves.
 *
 * With NPU_COMPILATION_MODE_PARAMS="enable-schedule-trace=true
 * write-strategy-to-json=true" the compiler writes, into its working folder
 * and under fixed names, a Chrome-style trace of the compile-time schedule
 * (compileTimeScheduleTrace.json) and the multi-cluster/tiling strategy of
 * every layer (strategy_out.json).  Every compile overwrites them, so
 * `record --collect FILE` copies each into the run folder right after the
 * run (only when the run wrote it: a stale copy from an earlier compile is
 * left alone), and these readers turn them into run metrics:
 *   tasks, tasks_dma, tasks_dpu, tasks_sw, tasks_m2i   scheduled tasks: "X"
 *        events of those categories, not counting the per-variant copies of
 *        DPU tasks ("/variant_" in the name)
 *   task_us_dma, task_us_dpu, task_us_sw, task_us_m2i   their summed durations
 *   tiles        N*C*H*W of every tiled op's tilingStrategy ("NONE" adds
 *                nothing), an op of a vertical fusion region counted once
 *                per region (by its hash)
 *   tiled_ops    ops whose tiling is more than one tile
 * (a tile count is the product of whatever axes tilingStrategy names:
 * {N,C,H,W} in 2024, also {G,N,C,H,W}, {B,H,OC}, {H,W}, {N} in 2026; SW
 * tasks are "SW" in 2024 traces, "Shave" in 2025+ ones).  With
 * dump-strategy-to-log=true a 2026 compiler also writes
 * strategy_dump_<modelID>.json: one name per compiler process (a static
 * in the pass, named after the first model), so a run of several
 * processes leaves several.
 * so that `fit --x metric:tasks --y pass:FeasibleAllocation` can ask how the
 * memory scheduler grows with the schedule it has to place.
 */
#ifndef NPUSCOPE_NPU_FILES_H
#define NPUSCOPE_NPU_FILES_H

#include "model/runs.h"

/* Add the metrics of the schedule trace / strategy file at path to run r;
 * returns the number of metrics added, or -1 with the reason in *why when
 * the file is not what it should be. */
int ns_npu_schedule_metrics(const char *path, ns_run *r, ns_why *why);
int ns_npu_strategy_metrics(const char *path, ns_run *r, ns_why *why);
/* The same count from a strategy document held in memory (the compiler's
 * dump-strategy-to-log form); 0, or -1 when it is not one. */
int ns_npu_strategy_text(const char *text, size_t len, double *tiles, double *tiled);
/* Is name (a base name) "strategy_dump_<modelID>.json"?  1 or 0. */
int ns_npu_is_strategy_dump(const char *name);
/* Look in run_dir for collected files by their usual names and add what
 * they say to r; a file that is not what it should be is a warning to d.
 * The strategy dumps (strategy_dump_*.json), where there are any, give
 * tiles and tiled_ops summed over them (and strategy_dumps, their count)
 * in place of strategy_out.json's. */
void ns_npu_collected_metrics(const char *run_dir, ns_run *r, const ns_diag *d);

#endif
