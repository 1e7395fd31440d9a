/* hint.c -- what to say when a folder given as runs holds none: a folder
 * of run folders' folders (several sweeps side by side, a "runs/" of
 * sweeps) is the usual mistake, so its sub-folders that do hold runs are
 * named, and the reader can pass them.  Looks one level down only (every
 * run folder holds run.json); lists at most a few, sorted.
 */
#include "cli/cli.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NS__HINT_MAX 6 /* sub-folders named */

static int ns__cmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Does folder d hold a run folder (d/X/run.json)? */
static int ns__holds_runs(const char *d) {
    DIR *dp = opendir(d);
    if (!dp) return 0;
    int yes = 0;
    struct dirent *e;
    ns_buf p = {0};
    while (!yes && (e = readdir(dp)) != NULL) {
        if (e->d_name[0] == '.') continue;
        p.len = 0;
        ns_buf_printf(&p, "%s/%s/run.json", d, e->d_name);
        yes = access(p.data, F_OK) == 0;
    }
    ns_buf_free(&p);
    closedir(dp);
    return yes;
}

int ns_cli_runs_hint(const char *dir, ns_buf *hint) {
    DIR *dp = opendir(dir);
    if (!dp) return 0;
    char **found = NULL;
    size_t n = 0;
    struct dirent *e;
    ns_buf p = {0};
    while ((e = readdir(dp)) != NULL) {
        if (e->d_name[0] == '.') continue;
        p.len = 0;
        ns_buf_printf(&p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(p.data, &st) != 0 || !S_ISDIR(st.st_mode) || !ns__holds_runs(p.data)) continue;
        found = ns_xrealloc(found, sizeof *found * (n + 1));
        found[n++] = ns_strdup(p.data);
    }
    closedir(dp);
    ns_buf_free(&p);
    if (n) {
        qsort(found, n, sizeof *found, ns__cmp);
        ns_buf_printf(hint, "%s holds folders of runs, not runs: give them (", dir);
        for (size_t i = 0; i < n && i < NS__HINT_MAX; i++)
            ns_buf_printf(hint, "%s%s", i ? " " : "", found[i]);
        if (n > NS__HINT_MAX) ns_buf_printf(hint, " and %zu more", n - NS__HINT_MAX);
        ns_buf_puts(hint, ")");
    }
    for (size_t i = 0; i < n; i++) free(found[i]);
    free(found);
    return n > 0;
}
