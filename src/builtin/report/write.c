/* write.c -- where the page of `npuscope report` goes (report.h lists the
 * files of the command): one HTML file, or standard output with -o -, and
 * with --svg-dir every figure again as a standalone .svg file that a paper
 * can include (the same drawing, with an XML declaration).
 *
 * Each file is written whole from a buffer into a temporary file beside it
 * (.NAME.XXXXXX), synced, and renamed over the name only once complete: a
 * failed write (a full disk), a crash or a signal leaves the old file as it
 * was, never a truncated page, and the temporary file is removed (by the
 * signal handler too).  Before anything is read, -o is held against the
 * inputs: a page never replaces a log or a run.json it was made from
 * (ns__report_out_refused).  This file must not change what it writes.
 */
#define _XOPEN_SOURCE 700 /* realpath() is XSI */
#include "builtin/report/report.h"
#include "platform/plat.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ====== -o against the inputs ====== */

/* The folder holding path, resolved (NULL when it cannot be). */
static char *ns__dir_real_new(const char *path) {
    char *copy = ns_strdup(path), *slash = strrchr(copy, '/');
    const char *dir = slash ? (slash == copy ? "/" : (*slash = 0, copy)) : ".";
    char *real = ns_plat_realpath(dir);
    free(copy);
    return real;
}

int ns__report_out_refused(const char *out, char **inputs, int ninputs) {
    struct stat os, is;
    if (!strcmp(out, "-") || stat(out, &os) != 0) return 0; /* nothing there to lose */
    const char *base = strrchr(out, '/');
    base = base ? base + 1 : out;
    size_t bl = strlen(base);
    int page = (bl > 5 && !strcmp(base + bl - 5, ".html")) || (bl > 4 && !strcmp(base + bl - 4, ".htm"));
    char *out_dir = ns__dir_real_new(out);
    int refused = 0;
    for (int i = 0; i < ninputs && !refused; i++) {
        if (!strcmp(inputs[i], "-") || stat(inputs[i], &is) != 0) continue;
        if (is.st_dev == os.st_dev && is.st_ino == os.st_ino) {
            ns_error("-o %s: that is an input of this report; it is not overwritten", out);
            refused = 1;
        } else if (S_ISDIR(is.st_mode) && !page && out_dir) {
            /* inside a run folder or a folder of runs: only a page is replaced */
            char *in = ns_plat_realpath(inputs[i]);
            size_t n = in ? strlen(in) : 0;
            if (in && !strncmp(out_dir, in, n) && (out_dir[n] == '/' || out_dir[n] == 0)) {
                ns_error("-o %s: a file inside the input %s that is not a page (.html); it is "
                         "not overwritten",
                         out, inputs[i]);
                refused = 1;
            }
            free(in);
        }
    }
    free(out_dir);
    return refused ? -1 : 0;
}

/* ====== Writing a file whole ====== */

static char ns__tmp_path[PATH_MAX + 32]; /* the file being written, for the handler */

/* SIGINT/SIGTERM/SIGHUP while a file is written: no temporary file left,
 * then end as the signal ends a process.  Async-signal-safe. */
static void ns__on_signal(int sig) {
    if (ns__tmp_path[0]) unlink(ns__tmp_path);
    ns_plat_die_by(sig);
}

static int ns__write_file(const char *path, const char *pre, const char *data, size_t len) {
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path + 1) : 0;
    if (strlen(path) + 16 > sizeof ns__tmp_path) {
        ns_error("%s: %s", path, strerror(ENAMETOOLONG));
        return -1;
    }
    snprintf(ns__tmp_path, sizeof ns__tmp_path, "%.*s.%s.XXXXXX", (int)dl, path, path + dl);
    ns_plat_hold_stop(ns__on_signal);
    int fd = mkstemp(ns__tmp_path), err = 0;
    if (fd < 0) {
        err = errno;
        ns__tmp_path[0] = 0;
    } else {
        if (ns_plat_fd_usual_mode(fd) != 0) err = errno;
        FILE *f = err ? NULL : fdopen(fd, "wb");
        if (!f && !err) err = errno;
        if (f) {
            if ((pre && fputs(pre, f) == EOF) || (len && fwrite(data, 1, len, f) != len) ||
                fflush(f) != 0 || fsync(fileno(f)) != 0)
                err = errno ? errno : EIO;
            if (fclose(f) != 0 && !err) err = errno;
        } else {
            close(fd);
        }
        if (!err && ns_plat_rename_over(ns__tmp_path, path) != 0) err = errno;
        if (err) unlink(ns__tmp_path);
        ns__tmp_path[0] = 0;
    }
    ns_plat_release_stop();
    if (err) {
        ns_error("%s: %s (nothing written; what was there is as it was)", path, strerror(err));
        return -1;
    }
    return 0;
}

int ns__report_write_page(const char *out, const ns_buf *html) {
    if (strcmp(out, "-") == 0) {
        if ((html->len && fwrite(html->data, 1, html->len, stdout) != html->len) || fflush(stdout)) {
            ns_error("error writing the output");
            return -1;
        }
        return 0;
    }
    if (ns__write_file(out, NULL, html->data, html->len) < 0) return -1;
    fprintf(stderr, "npuscope: wrote %s\n", out);
    return 0;
}

int ns__report_write_svgs(const char *dir, const ns_page *p) {
    if (ns_plat_mkdir(dir, 0777) != 0 && errno != EEXIST) {
        ns_error("%s: %s", dir, strerror(errno));
        return -1;
    }
    ns_buf path = {0};
    int rc = 0;
    for (int i = 0; i < p->nfigs && rc == 0; i++) {
        path.len = 0;
        ns_buf_printf(&path, "%s/%s.svg", dir, p->figs[i].id);
        rc = ns__write_file(path.data, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
                            p->figs[i].svg, strlen(p->figs[i].svg));
    }
    ns_buf_free(&path);
    return rc;
}
