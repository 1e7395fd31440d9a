/* outdir.c -- the output folder's lock and its stale temporary folders
 * (outdir.h says why).  Failure reasons are returned, never printed: the
 * command decides what a busy folder means. */
#include "capture/outdir.h"

#include "base/common.h"
#include "capture/rundir.h" /* ns_rmtree: never follows a link */
#include "platform/plat.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NS__LOCK_NAME ".npuscope.lock"

/* ====== The lock ====== */

int ns_outdir_lock_take(ns_outdir_lock *l, const char *dir, const char **why) {
    static char msg[512];
    l->fd = -1;
    size_t n = strlen(dir) + sizeof NS__LOCK_NAME + 1;
    char *path = ns_xmalloc(n);
    snprintf(path, n, "%s/%s", dir, NS__LOCK_NAME);
    int fd = -1;
    char owner[128] = "";
    int took = ns_plat_lock(path, &fd, owner, sizeof owner);
    if (took < 0) {
        snprintf(msg, sizeof msg, "%.400s: %s", path, strerror(errno));
        free(path);
        *why = msg;
        return -1;
    }
    free(path);
    if (took == 1) {
        owner[strcspn(owner, "\n")] = 0;
        snprintf(msg, sizeof msg, "in use by another npuscope (%s)", *owner ? owner : "pid unknown");
        *why = msg;
        return 1;
    }
    /* "pid 123 since 2026-12-01T09:00:00Z": for the next one's message */
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    char when[32];
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(owner, sizeof owner, "pid %ld since %s\n", ns_plat_pid(), when);
    ns_plat_lock_note(fd, owner);
    l->fd = fd;
    return 0;
}

void ns_outdir_lock_release(ns_outdir_lock *l) {
    if (l->fd < 0) return;
    ns_plat_unlock(l->fd);
    l->fd = -1;
}

/* ====== Stale temporary folders ====== */

/* Bytes under path (not following links); best effort. */
static unsigned long long ns__du(const char *path) {
    struct stat st;
    if (ns_plat_lstat(path, &st) != 0) return 0;
    unsigned long long sum = (unsigned long long)st.st_size;
    if (!S_ISDIR(st.st_mode)) return sum;
    DIR *d = opendir(path);
    if (!d) return sum;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        size_t n = strlen(path) + strlen(e->d_name) + 2;
        char *p = ns_xmalloc(n);
        snprintf(p, n, "%s/%s", path, e->d_name);
        sum += ns__du(p);
        free(p);
    }
    closedir(d);
    return sum;
}

int ns_outdir_clean_stale(const char *dir, unsigned long long *bytes, const char **why) {
    static char msg[512];
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(msg, sizeof msg, "%.400s: %s", dir, strerror(errno));
        *why = msg;
        return -1;
    }
    int removed = 0, failed = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, ".tmp-", 5) != 0) continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *p = ns_xmalloc(n);
        snprintf(p, n, "%s/%s", dir, e->d_name);
        struct stat st;
        if (ns_plat_lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            unsigned long long b = ns__du(p);
            if (ns_rmtree(p) == 0) {
                removed++;
                *bytes += b;
            } else if (!failed++) {
                snprintf(msg, sizeof msg, "%.400s: cannot remove: %s", p, strerror(errno));
            }
        }
        free(p);
    }
    closedir(d);
    if (failed) {
        *why = msg;
        return -1;
    }
    return removed;
}
