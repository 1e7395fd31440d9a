/* path.c -- file names built from parts (see path.h).
 *
 * One join, kept byte for byte as the run folder code always wrote it
 * ("a/b", a trailing '/' of a kept), so that no message or recorded path
 * changes with its move here.  No file system calls: callers open what
 * they build.
 */
#include "base/path.h"

#include "base/common.h"

#include <string.h>

char *ns_path_join_new(const char *a, const char *b) {
    size_t n = strlen(a) + strlen(b) + 2;
    char *p = ns_xmalloc(n);
    snprintf(p, n, "%s/%s", a, b);
    return p;
}
