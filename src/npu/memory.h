/* memory.h -- per-pass memory: the NPU compiler's memory-usage-collector
 * lines, attached to the rows of the report they belong to.
 *
 * With the compile option enable-memory-usage-collector (on by default in
 * developer builds only: NPU_COMPILATION_MODE_PARAMS=
 * "enable-memory-usage-collector=true" in a release build) the compiler adds
 * a pass instrumentation (src/vpux_compiler/src/utils/memory_usage_collector.cpp,
 * the same in the 2024 and the 2026 sources) that, after every pass, reads
 * the process's VmPeak from /proc/self/status and, only when it grew since
 * the last line, logs at INFO through the logger "memory-usage-collector":
 *     Peak memory usage after '{0}' pass: {1} kB, increase {2} kB
 * with {0} = pass->getName() -- the pass's class name, the very name its
 * row has in the timing report (FeasibleAllocation) -- {1} the process's
 * peak virtual memory after it, {2} the growth since the previous line (or
 * since the pass manager was set up, for the first one).
 *
 * Those lines are logged while the compile runs; the timing report is
 * printed when it ends.  So the lines between one report and the next
 * belong to the next report of the same input: they are collected as they
 * come (ns_npu_mem_line) and attached when that report is complete
 * (ns_npu_mem_attach).  An NPUW run is several compiles in one process,
 * each with its own report and its own lines, so this holds there too; its
 * VmPeak is the process's, so a later compile logs a line only where it
 * pushes the process's peak past every earlier compile's.
 *
 * One exception, weights separation (NC-2025+, compiler.cpp): the main
 * part's IE-to-VPU passes run, and log, before the Init parts are
 * compiled, each announced by "Compile Init[i]" and printing its own report,
 * while the main part's report (holding those passes) comes after them.  So
 * the lines kept when a "Compile Init[" line comes are set aside for the
 * first report that follows no such line.
 *
 * A line goes to the row of that name (see memory.c for which one when the
 * name occurs more than once); a row that gets several lines (a pass run on
 * several functions) keeps the largest peak and the summed increase.  Rows
 * without a line keep both columns absent: no line means the pass did not
 * raise the peak, or the collector was off -- never a measured 0.
 */
#ifndef NPUSCOPE_NPU_MEMORY_H
#define NPUSCOPE_NPU_MEMORY_H

#include "model/report.h"

/* One memory-usage-collector line, waiting for its report. */
typedef struct {
    char *pass;       /* the pass name between the quotes (owned) */
    double peak_kb;   /* {1}: VmPeak after the pass */
    double inc_kb;    /* {2}: growth since the previous line */
} ns_npu_memline;

/* Lines in log order. */
typedef struct {
    ns_npu_memline *lines; /* in log order */
    int n;                 /* entries in lines */
    int cap;               /* allocated entries */
} ns_npu_memlines;

/* The lines of one compile, collected until its report is complete. */
typedef struct {
    ns_npu_memlines next;  /* for the next report */
    ns_npu_memlines later; /* set aside at "Compile Init[": the main part's */
    int init_next;         /* a "Compile Init[" line came since the last report */
} ns_npu_mem;

/* Parse a (cleaned) log line: 1 and the fields (name points into s) when
 * it is a memory-usage-collector line, else 0. */
int ns_npu_memline_parse(const char *s, size_t n, const char **name, size_t *name_len,
                         double *peak_kb, double *inc_kb);

/* A line between reports: kept when it is a memory-usage-collector line
 * (returns 1); a "Compile Init[" line sets the lines kept so far aside
 * (returns 0: it is someone else's too); any other line is ignored (0). */
int ns_npu_mem_line(ns_npu_mem *m, const char *s, size_t n);

/* Report r is complete: give it the lines kept so far and forget them.
 * Returns the number of lines that named no row of r (adaptor lines of
 * MLIR's pass manager are no row and are not counted); when there are
 * such lines a warning goes to d (may be NULL). */
int ns_npu_mem_attach(ns_npu_mem *m, ns_report *r, const ns_diag *d);

/* Forget the lines kept (the input ended without another report). */
void ns_npu_mem_reset(ns_npu_mem *m);

#endif
