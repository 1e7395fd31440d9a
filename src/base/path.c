/* path.c -- file names built from parts (see path.h). */
#include "base/path.h"

#include "base/common.h"

#include <string.h>

char *ns_path_join_new(const char *a, const char *b) {
    size_t n = strlen(a) + strlen(b) + 2;
    char *p = ns_xmalloc(n);
    snprintf(p, n, "%s/%s", a, b);
    return p;
}
