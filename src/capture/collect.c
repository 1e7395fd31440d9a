/* collect.c -- the --collect rule (collect.h). */
#include "capture/collect.h"

#include "base/common.h"
#include "platform/plat.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Names a run folder uses for itself. */
static const char *const ns__reserved[] = {"run.json", "stdout.log", "stderr.log", NULL};

/* The working directory, resolved; NULL if it cannot be had. */
static char *ns__cwd_new(void) {
    char *cwd = getcwd(NULL, 0);
    if (!cwd) return NULL;
    char *real = ns_plat_realpath(cwd);
    free(cwd);
    return real;
}

/* Is path (resolved) dir itself or below it? */
static int ns__below(const char *path, const char *dir) {
    size_t n = strlen(dir);
    if (strncmp(path, dir, n) != 0) return 0;
    return path[n] == '/' || (n == 1 && dir[0] == '/');
}

const char *ns_collect_refusal(const char *name) {
    static char msg[600];
    if (!*name) return "a file name is needed";
    size_t len = strlen(name);
    if (name[len - 1] == '/') return "names a folder; give the files in it one by one";
    /* no '..' component anywhere */
    for (const char *p = name; *p;) {
        size_t seg = strcspn(p, "/");
        if (seg == 2 && p[0] == '.' && p[1] == '.')
            return "may not climb out of the working directory with '..'";
        p += seg;
        while (*p == '/') p++;
    }
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    if (!strcmp(base, ".")) return "names a folder; give the files in it one by one";
    if (strcspn(name, "*?[") < (size_t)(base - name))
        return "wildcards ('*', '?', '[') may stand in the file name only, not in its folder";
    for (int i = 0; ns__reserved[i]; i++)
        if (!strcmp(base, ns__reserved[i])) {
            snprintf(msg, sizeof msg,
                     "'%s' is a name the run folder uses itself; copy the file under another name "
                     "in the command, or write it into NPUSCOPE_RUN_DIR",
                     base);
            return msg;
        }
    if (base[0] == '.') return "hidden files (.name) are npuscope's own in a run folder";
    if (name[0] == '/') {
        char *cwd = ns__cwd_new();
        int inside = cwd && ns__below(name, cwd);
        free(cwd);
        if (!inside) return "is outside the working directory (the compile's files are there)";
    }
    return NULL;
}

/* ====== Wildcards ====== */

static int ns__is_glob(const char *s) {
    return s[strcspn(s, "*?[")] != 0;
}

static int ns__cmp_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int ns_collect_expand(const char *name, char ***out) {
    *out = NULL;
    if (!ns__is_glob(name)) {
        *out = ns_xmalloc(sizeof **out);
        (*out)[0] = ns_strdup(name);
        return 1;
    }
    const char *slash = strrchr(name, '/');
    char *dir = slash ? ns_strndup(name, (size_t)(slash - name) + (slash == name)) : ns_strdup(".");
    const char *pat = slash ? slash + 1 : name;
    DIR *d = opendir(dir);
    int n = 0;
    if (d) {
        struct dirent *de;
        while ((de = readdir(d))) {
            const char *b = de->d_name;
            /* hidden names never (FNM_PERIOD), nor the run folder's own */
            if (!ns_plat_fnmatch(pat, b)) continue;
            int reserved = 0;
            for (int i = 0; ns__reserved[i]; i++)
                if (!strcmp(b, ns__reserved[i])) reserved = 1;
            if (reserved) continue;
            *out = ns_xrealloc(*out, sizeof **out * (size_t)(n + 1));
            size_t len = strlen(dir) + strlen(b) + 2;
            char *full = ns_xmalloc(len);
            if (slash) snprintf(full, len, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", b);
            else snprintf(full, len, "%s", b);
            (*out)[n++] = full;
        }
        closedir(d);
    }
    free(dir);
    if (n > 1) qsort(*out, (size_t)n, sizeof **out, ns__cmp_name);
    return n;
}

char *ns_collect_resolve_new(const char *name, const char **why) {
    struct stat st;
    if (ns_plat_lstat(name, &st) != 0) {
        *why = errno == ENOENT ? "no such file after the run" : strerror(errno);
        return NULL;
    }
    char *real = ns_plat_realpath(name), *cwd = ns__cwd_new();
    if (!real || !cwd) {
        *why = strerror(errno);
        free(real);
        free(cwd);
        return NULL;
    }
    int inside = ns__below(real, cwd);
    free(cwd);
    if (!inside) {
        *why = "a link that leads outside the working directory: not followed";
        free(real);
        return NULL;
    }
    if (stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
        *why = "not a regular file";
        free(real);
        return NULL;
    }
    return real;
}
