/* rundir.c -- run folders on disk (see rundir.h). */
#include "capture/rundir.h"

#include "base/jsonw.h"
#include "base/path.h"
#include "platform/plat.h"
#include "render/tree_json.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ====== Folders ====== */

int ns_mkdirs(const char *path) {
    char *p = ns_strdup(path);
    int rc = 0;
    for (char *s = p + 1;; s++) {
        if (*s != '/' && *s) continue;
        char c = *s;
        *s = 0;
        if (ns_plat_mkdir(p, 0755) != 0 && errno != EEXIST) {
            ns_error("%s: %s", p, strerror(errno));
            rc = -1;
            break;
        }
        *s = c;
        if (!c) break;
    }
    if (rc == 0) {
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
            ns_error("%s: not a directory", path);
            rc = -1;
        }
    }
    free(p);
    return rc;
}

int ns_run_exists(const char *dir, const char *id) {
    char *p = ns_path_join_new(dir, id);
    struct stat st;
    int e = ns_plat_lstat(p, &st) == 0;
    free(p);
    return e;
}

char *ns_run_tmpdir_new(const char *dir, const char *id) {
    static unsigned counter;
    char name[512];
    for (int tries = 0; tries < 100; tries++) {
        snprintf(name, sizeof name, ".tmp-%.400s-%ld-%u", id, ns_plat_pid(), counter++);
        char *p = ns_path_join_new(dir, name);
        if (ns_plat_mkdir(p, 0755) == 0) return p;
        int e = errno;
        free(p);
        if (e != EEXIST) {
            ns_error("%s/%s: %s", dir, name, strerror(e));
            return NULL;
        }
    }
    ns_error("%s: cannot find a free temporary name", dir);
    return NULL;
}

int ns_run_publish(const char *tmp, const char *dir, const char *id) {
    char *final = ns_path_join_new(dir, id);
    int rc = ns_plat_rename_new(tmp, final); /* never replaces anything */
    if (rc < 0) ns_error("%s: %s", final, strerror(errno));
    free(final);
    return rc;
}

int ns_rmtree(const char *path) {
    struct stat st;
    if (ns_plat_lstat(path, &st) != 0) return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(st.st_mode)) return unlink(path);
    DIR *d = opendir(path);
    if (!d) return -1;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char *p = ns_path_join_new(path, e->d_name);
        if (ns_rmtree(p) != 0) rc = -1;
        free(p);
    }
    closedir(d);
    if (rmdir(path) != 0) rc = -1;
    return rc;
}

/* ====== run.json ====== */

static void ns__num(ns_buf *b, double v, int dec) {
    if (!isfinite(v)) ns_buf_puts(b, "null");
    else ns_buf_printf(b, "%.*f", dec, v);
}

static void ns__kv_obj(ns_buf *b, const ns_kvlist *l) {
    ns_buf_putc(b, '{');
    for (int i = 0; i < l->n; i++) {
        if (i) ns_buf_putc(b, ',');
        ns_json_str(b, l->items[i].key);
        ns_buf_putc(b, ':');
        ns_json_str(b, l->items[i].value);
    }
    ns_buf_putc(b, '}');
}

int ns_run_write_json(const char *dir, const ns_run *r, ns_report *const *reports,
                      int nreports) {
    ns_buf b = {0};
    ns_view v;
    ns_view_init(&v);
    /* version 2 only when a report is deep enough to have rows written
     * flat (render/tree_json.h): an npuscope that reads version 1 alone
     * then refuses the run by its version, rather than read the tree cut
     * short at the flat rows it does not know */
    int version = 1;
    for (int i = 0; i < nreports && version == 1; i++)
        if (ns_tree_json_flattens(reports[i], &v, NS_TREE_JSON_FLAT)) version = 2;
    ns_buf_printf(&b, "{\"format\":\"npuscope-run\",\"version\":%d,\"id\":", version);
    ns_json_str(&b, r->id);
    ns_buf_puts(&b, ",\n\"command\":[");
    for (int i = 0; r->argv && r->argv[i]; i++) {
        if (i) ns_buf_putc(&b, ',');
        ns_json_str(&b, r->argv[i]);
    }
    ns_buf_puts(&b, "],\n\"env\":");
    ns__kv_obj(&b, &r->env);
    ns_buf_puts(&b, ",\n\"tags\":");
    ns__kv_obj(&b, &r->tags);
    ns_buf_puts(&b, ",\n\"mode\":");
    ns_json_str(&b, r->mode ? r->mode : "none");
    ns_buf_printf(&b, ",\"repeat\":%d,\"warmup\":%s,\"primer\":%s,\"started_at\":\"%s\",\n",
                  r->repeat, r->warmup ? "true" : "false", r->primer ? "true" : "false",
                  r->started_at);
    /* a warm run's cache verdict: it compiled again (printed a compile
     * timing report), or not (docs/formats.md 2.13) */
    if (r->mode && !strcmp(r->mode, "warm") && !r->primer && !r->warmup) {
        int compiled = 0;
        for (int i = 0; i < nreports; i++) compiled += ns_report_starts_compile(reports[i]);
        ns_buf_printf(&b, "\"cache\":\"%s\",\n", compiled ? "miss" : "hit");
    }
    if (r->started_clock[0]) ns_buf_printf(&b, "\"started_clock\":\"%s\",", r->started_clock);
    ns_buf_puts(&b, "\"wall_s\":");
    ns__num(&b, r->wall_s, 6);
    ns_buf_puts(&b, ",\"user_s\":");
    ns__num(&b, r->user_s, 6);
    ns_buf_puts(&b, ",\"sys_s\":");
    ns__num(&b, r->sys_s, 6);
    ns_buf_puts(&b, ",\"peak_rss_mb\":");
    ns__num(&b, r->peak_rss_mb, 3);
    if (r->exit_code >= 0) ns_buf_printf(&b, ",\n\"exit_code\":%d", r->exit_code);
    else ns_buf_puts(&b, ",\n\"exit_code\":null");
    if (r->signal) {
        ns_buf_printf(&b, ",\"signal\":%d,\"signal_name\":", r->signal);
        const char *sn = ns_plat_signame(r->signal);
        if (sn) ns_json_str(&b, sn);
        else ns_buf_puts(&b, "null");
    } else {
        ns_buf_puts(&b, ",\"signal\":null,\"signal_name\":null");
    }
    ns_buf_printf(&b, ",\"timed_out\":%s,\"interrupted\":%s,\"ok\":%s,\"error\":",
                  r->timed_out ? "true" : "false", r->interrupted ? "true" : "false",
                  ns_run_ok(r) ? "true" : "false");
    if (r->error) ns_json_str(&b, r->error);
    else ns_buf_puts(&b, "null");
    /* only when they happened: a reader that does not know them loses nothing */
    if (r->disturbed) ns_buf_puts(&b, ",\"disturbed\":true");
    if (r->detached) ns_buf_printf(&b, ",\"detached\":%d", r->detached);
    ns_buf_puts(&b, ",\n\"metrics\":{");
    for (int i = 0; i < r->nmetrics; i++) {
        if (i) ns_buf_putc(&b, ',');
        ns_json_str(&b, r->metrics[i].name);
        ns_buf_printf(&b, ":%.15g", r->metrics[i].value);
    }
    ns_buf_puts(&b, "},\"metric_counts\":{");
    for (int i = 0; i < r->nmetrics; i++) {
        if (i) ns_buf_putc(&b, ',');
        ns_json_str(&b, r->metrics[i].name);
        ns_buf_printf(&b, ":%ld", r->metrics[i].count);
    }
    ns_buf_printf(&b, "},\n\"stdout_bytes\":%llu,\"stderr_bytes\":%llu,", r->stdout_bytes,
                  r->stderr_bytes);
    char host[256], os[300];
    ns_plat_host(host, sizeof host, os, sizeof os);
    ns_buf_puts(&b, "\"host\":{\"name\":");
    ns_json_str(&b, host);
    ns_buf_puts(&b, ",\"os\":");
    ns_json_str(&b, os);
    ns_buf_printf(&b, ",\"cpus\":%ld},\"npuscope_version\":\"%s\",\n",
                  ns_plat_cpus(), NS_VERSION);
    /* what the output said of a failed compile and of the NPU stack
     * (model/load.h); the host's OS is part of the environment too */
    if (r->failure) {
        ns_buf_puts(&b, "\"failure\":");
        ns_failure_json(&b, r->failure);
        ns_buf_puts(&b, ",\n");
    }
    ns_kvlist environment = {0};
    if (strcmp(os, "?") != 0) ns_kv_set(&environment, "host_os", os);
    for (int i = 0; i < r->environment.n; i++)
        ns_kv_set(&environment, r->environment.items[i].key, r->environment.items[i].value);
    ns_buf_puts(&b, "\"environment\":");
    ns__kv_obj(&b, &environment);
    ns_kv_free(&environment);
    ns_buf_puts(&b, ",\n\"reports\":[");
    for (int i = 0; i < nreports; i++) {
        ns_buf_puts(&b, i ? ",\n" : "\n");
        ns_json_report_flat(&b, reports[i], &v, NS_TREE_JSON_FLAT);
    }
    ns_buf_puts(&b, "]}\n");

    char *path = ns_path_join_new(dir, "run.json");
    int err = 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) err = errno;
    for (size_t off = 0; !err && off < b.len;) {
        ssize_t w = write(fd, b.data + off, b.len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) err = errno;
        else off += (size_t)w;
    }
    if (fd >= 0) {
        if (!err && fsync(fd) != 0) err = errno;
        if (close(fd) != 0 && !err) err = errno;
    }
    free(path);
    ns_buf_free(&b);
    return err;
}
