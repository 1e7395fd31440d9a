/* logline.h -- what a line of the NPU compiler's log says about where the
 * compile is.
 *
 * At LOG_INFO every pass of the vpux compiler logs through a logger named
 * after its pass argument, and the logger prefixes each line
 *     [INFO] 09:41:01.021 [feasible-allocation]   message
 * (level, local time, logger name, two spaces per nesting level; the
 * OpenVINO plugin colours the line on a terminal).  So the last such line
 * names the pass running now -- the only live progress a compile gives.
 * A logger name is the pass's argument (feasible-allocation), while the
 * timing report prints the pass's class name (FeasibleAllocation, or
 * FuseClampPass): both become the same key by keeping letters and digits,
 * lower-cased, with a trailing "pass" dropped.  Where that is not enough,
 * the stage map says so as data: `logger NAME -> PASS`, and `logger NAME
 * -> -` for the loggers that are no pass (vpux-compiler, compiler-threading,
 * the plugin's adapters), so they never pose as the pass running now.
 */
#ifndef NPUSCOPE_LOGLINE_H
#define NPUSCOPE_LOGLINE_H

#include <stddef.h>

typedef struct {
    const char *level;  /* "INFO", "DEBUG", ... (points into the line) */
    size_t level_len;   /* its bytes */
    const char *logger; /* the logger name, inside the brackets */
    size_t logger_len;  /* its bytes */
    const char *msg;    /* the message after the prefix and its indentation */
    size_t msg_len;     /* its bytes */
} ns_logline;

/* Parse a vpux or plugin logger line (an ANSI colour prefix is skipped).
 * Returns 1 and fills *l, or 0 when the line has no logger prefix. */
int ns_logline_parse(const char *s, size_t n, ns_logline *l);

/* The pass a logger belongs to, by the stage map's `logger` rules (data:
 * stages/vpux.stages): the pass name to key, the logger's own name when the
 * map has no rule for it, or NULL for a logger of no pass (the compiler's,
 * the plugin's, the threading one).  m may be NULL (no rules). */
struct ns_stage_map;
const char *ns_logger_pass(const struct ns_stage_map *m, const char *name);

/* The key a pass is matched by: letters and digits lower-cased, a trailing
 * "pass" dropped ("feasible-allocation", "FeasibleAllocation" and
 * "FeasibleAllocationPass" all give "feasibleallocation").  Writes at most
 * size-1 bytes and a NUL; returns the key's length. */
size_t ns_pass_key(const char *name, size_t n, char *key, size_t size);

#endif
