/* failure.h -- the lines of a failed NPU compile, and the environment the
 * NPU stack logs about itself, read into a load (model/load.h).
 *
 * Failure lines (npu-compiler reference, "Failed compiles"; real lines
 * users posted): the compiler's
 *     [ERROR] hh:mm:ss.mmm [vpux-compiler] Failed Pass P on Operation LOC
 *     [ERROR] ... [vpux-compiler] Got Diagnostic at LOC : P Pass failed : WHY
 * MLIR's own echo of the diagnostic without the logger prefix
 *     LOC: error: P Pass failed : WHY
 * and the exception OpenVINO raises, which alone names the NPUW sub-model:
 *     RuntimeError: Failed to compile NAME for all devices in [NPU]
 * The lines of one failure (same location, the same or no pass) become one
 * failure; the exception names every failure since the last one.  A line cut
 * short keeps what it holds (a location with no closed name is NULL).
 *
 * Environment lines: the plugin's "Plugin L0 API minor version = N, Driver
 * L0 API minor version = M" (plugin_l0_minor, driver_l0_minor; "major"
 * likewise), "Max supported version of opset in CiD: N" (compiler_opset)
 * and the compiler's config line's NPU_PLATFORM="X" (npu_platform).
 */
#ifndef NPUSCOPE_NPU_FAILURE_H
#define NPUSCOPE_NPU_FAILURE_H

#include "base/needles.h"
#include "model/load.h"

#include <stddef.h>

/* Read one (cleaned) line: returns 1 when it was a failure or environment
 * line and went into L, else 0.  file and line say where it is. */
int ns_npu_load_line(ns_load *L, const char *file, long line, const char *s, size_t n);

/* The fixed texts a line must hold for ns_npu_load_line to take it (added
 * to nd: npu.c's set holds them too). */
void ns_npu_load_needles(ns_needles *nd);

/* The location of an MLIR loc(...) text at s: the quoted names of its
 * last bracket list ("main/_part26" for
 * loc(fused<{...}>["main", "_part26"])), else its first quoted name, as a
 * new string; NULL when no name is closed.  *used: bytes of the loc text. */
char *ns_npu_loc_new(const char *s, size_t n, size_t *used);

#endif
