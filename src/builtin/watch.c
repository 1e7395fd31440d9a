/* watch.c -- `npuscope watch`: a log still being written, watched.
 *
 * A compile started by hand, by an IDE or by a CI job writes its log to a
 * file (or a pipe); watch follows it from the start with the status line
 * record shows (capture/live.h: elapsed time, the sub-model compile, the
 * pass running now, and progress against a profile if one is given), and
 * when the log is finished prints its reports as `npuscope tree` would --
 * the very same bytes, because it is the same scan of the same file.  With
 * --format json it writes instead a stream of events (one JSON object a
 * line: pass, report, end) for other tools.
 *
 * When is a file finished?  A pipe ends when its writer closes it.  A file
 * has no end of its own: at the end of what is there, watch waits, reading
 * again four times a second, and ends once no process has the file open
 * for writing (platform/plat.h: /proc on Linux; on Windows, the file
 * cannot be opened denying others write access) -- or never, with
 * --follow, until it is interrupted.  Where that cannot be told, the end
 * of the file ends it.
 * Standard input is copied to a temporary file as it is read (and removed
 * at once), so that the final tree can be the tree of all of it.
 */
#include "builtin/builtin.h"
#include "capture/live.h"
#include "cli/cli.h"
#include "parse/run_read.h"
#include "platform/plat.h"
#include "render/export.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NS__WATCH_POLL_MS 250 /* reading again at the end of the file */
#define NS__WRITERS_EVERY 4   /* polls between two looks into /proc */

static volatile sig_atomic_t ns__watch_stop;
static void ns__on_int(int sig) { (void)sig; ns__watch_stop = 1; }

/* ====== Following ====== */

typedef struct {
    int in;          /* what is read */
    int copy;        /* standard input's copy, or -1 */
    int is_file;     /* in is a regular file (it may grow) */
    int follow;      /* --follow */
    dev_t dev;       /* the file, for the writers' look-up */
    ino_t ino;       /* likewise */
} ns__watch_src;

/* Read in until it is finished, feeding the live line.  Returns 0, or -1
 * after a read error (message printed). */
static int ns__follow(ns__watch_src *src, ns_live *live, const char *name) {
    char *buf = ns_xmalloc(1u << 16);
    int polls = 0, rc = 0;
    for (;;) {
        ssize_t n = read(src->in, buf, 1u << 16);
        if (n < 0 && errno == EINTR && !ns__watch_stop) continue;
        if (n < 0 && errno != EINTR) {
            ns_error_at(name, 0, "%s", strerror(errno));
            rc = -1;
            break;
        }
        if (n > 0) {
            ns_live_feed(live, 0, buf, (size_t)n);
            if (src->copy >= 0 && write(src->copy, buf, (size_t)n) != n) {
                ns_error("watch: cannot keep a copy of standard input: %s", strerror(errno));
                rc = -1;
                break;
            }
            ns_live_tick(live, 0);
            polls = 0;
            continue;
        }
        if (ns__watch_stop) break;
        if (!src->is_file) break; /* a pipe's end is its writer's */
        if (!src->follow && polls++ % NS__WRITERS_EVERY == 0 &&
            ns_plat_writers(name, src->in) != 1) {
            /* nobody writes any more: what came in since the last read, then stop */
            n = read(src->in, buf, 1u << 16);
            if (n > 0) {
                ns_live_feed(live, 0, buf, (size_t)n);
                polls = 0;
                continue;
            }
            break;
        }
        ns_live_tick(live, 0);
        ns_plat_sleep_ms(NS__WATCH_POLL_MS);
    }
    free(buf);
    return rc;
}

/* ====== The final tree ====== */

typedef struct {
    ns_exporter *ex; /* the tree's exporter */
    int werr;        /* a write failed */
} ns__watch_tree;

static int ns__watch_sink(ns_report *r, void *vctx) {
    ns__watch_tree *t = vctx;
    if (ns_exporter_add(t->ex, r) != 0) t->werr = 1;
    ns_report_free(r);
    return t->werr;
}

/* ====== The command ====== */

int ns_cmd_watch(int argc, char **argv) {
    int follow = 0, format = 0;
    const char *profile_dir = NULL;
    ns_read_opts ro = {0};
    static const char *const formats[] = {"text", "json", NULL};
    const ns_option own[] = {
        NS_OPT_FLAG(0, "follow", &follow),
        NS_OPT_CHOICE(0, "format", &format, "text|json", formats),
        NS_OPT_STRING(0, "profile", &profile_dir, "RUN"),
        NS_OPT_READ(&ro),
        NS_OPT_END(),
    };
    const ns_option *const tables[] = {own, NULL};
    char **inputs = ns_xcalloc((size_t)argc, sizeof *inputs);
    int ninputs = 0, rc = NS_EXIT_OK;
    ns_live *live = NULL;
    ns_profile *profile = NULL;
    char tmpname[4200] = "";
    ns__watch_src src = {-1, -1, 0, 0, 0, 0};
    switch (ns_options_parse("watch", argc, argv, tables, inputs, &ninputs)) {
    case NS_OPTIONS_HELP: goto out;
    case NS_OPTIONS_ERROR: rc = NS_EXIT_USAGE; goto out;
    }
    if (ninputs > 1) {
        rc = ns_options_usage("watch", "one log at a time (got '%s' as a second)", inputs[1]);
        goto out;
    }
    const char *path = ninputs ? inputs[0] : "-";
    int from_stdin = !strcmp(path, "-");
    ns_diag_quiet(ro.quiet);
    if (profile_dir) { /* a run folder, or its run.json */
        ns_buf p = {0};
        struct stat st;
        if (stat(profile_dir, &st) == 0 && S_ISDIR(st.st_mode)) ns_buf_printf(&p, "%s/run.json", profile_dir);
        else ns_buf_puts(&p, profile_dir);
        ns_run run;
        ns_why why;
        if (ns_run_load(p.data, profile_dir, &run, &ns_diag_stderr, &why) == 0) {
            if (run.nreports > 0) profile = ns_profile_new(run.reports, run.nreports);
            else ns_warn_at(p.data, 0, "the run has no timing report: no progress to show");
            ns_run_free(&run);
        } else {
            ns_diag_why(&ns_diag_stderr, NS_DIAG_ERROR, p.data, &why, "");
            rc = NS_EXIT_IO;
        }
        ns_buf_free(&p);
        if (rc) goto out;
    }
    src.in = from_stdin ? 0 : open(path, O_RDONLY);
    if (src.in < 0) {
        ns_error_at(path, 0, "%s", strerror(errno));
        rc = NS_EXIT_IO;
        goto out;
    }
    struct stat st;
    if (fstat(src.in, &st) == 0 && S_ISREG(st.st_mode) && !from_stdin) {
        src.is_file = 1;
        src.dev = st.st_dev;
        src.ino = st.st_ino;
    }
    src.follow = follow;
    if (from_stdin) {
        const char *dir = getenv("TMPDIR");
        snprintf(tmpname, sizeof tmpname, "%.4000s/npuscope-watch-XXXXXX", dir && *dir ? dir : "/tmp");
        int fd = mkstemp(tmpname);
        if (fd < 0) {
            ns_error("watch: cannot make a temporary file: %s", strerror(errno));
            rc = NS_EXIT_IO;
            goto out;
        }
        src.copy = fd;
        unlink(tmpname); /* nothing left behind, however watch ends */
        tmpname[0] = 0;
    }
    const char *term = getenv("TERM"), *nc = getenv("NO_COLOR");
    int show = ns_plat_isatty(2) && !ro.quiet && !(term && !strcmp(term, "dumb")) && !(nc && *nc);
    live = ns_live_new(show ? 2 : -1, ns_live_width(2), format == 1 ? stdout : NULL);
    ns_live_start(live, NULL, profile, ro.npuw);
    profile = NULL; /* the live line owns it now */
    ns_plat_on_stop(ns__on_int);
    if (ns__follow(&src, live, from_stdin ? "<stdin>" : path) < 0) rc = NS_EXIT_IO;
    ns_live_clear(live);
    int compiles = ns_live_compiles(live);
    if (format == 1) {
        printf("{\"event\":\"end\",\"reports\":%d}\n", compiles);
        if (fflush(stdout) != 0) rc = NS_EXIT_IO;
        if (rc == NS_EXIT_OK && compiles == 0) rc = NS_EXIT_NOTHING;
        goto out;
    }
    /* the tree of the whole log, as `npuscope tree` prints it; standard
     * input's copy becomes standard input again, so it reads as <stdin> */
    if (from_stdin && (lseek(src.copy, 0, SEEK_SET) != 0 || dup2(src.copy, 0) < 0)) {
        ns_error("watch: cannot read back the copy of standard input: %s", strerror(errno));
        rc = NS_EXIT_IO;
        goto out;
    }
    char *scan[] = {(char *)path};
    ns_export_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.format = NS_FMT_TEXT;
    ns_view_init(&eo.view);
    eo.color = ns_cli_color(STDOUT_FILENO);
    eo.width = ns_cli_width(STDOUT_FILENO); /* as tree fits a terminal */
    ns__watch_tree t = {ns_exporter_new(&eo, stdout), 0};
    long found = ns_cli_scan(scan, 1, &ro, ns__watch_sink, &t);
    if (ns_exporter_end(t.ex) != 0 || t.werr) {
        ns_error("error writing the output");
        rc = NS_EXIT_IO;
    } else if (found < 0) {
        rc = NS_EXIT_IO;
    } else if (found == 0 && rc == NS_EXIT_OK) {
        ns_cli_none_found(from_stdin ? NULL : inputs, from_stdin ? 0 : 1);
        rc = NS_EXIT_NOTHING;
    }
out:
    ns_live_free(live);
    ns_profile_free(profile);
    if (src.copy >= 0) close(src.copy);
    if (src.in > 0) close(src.in);
    free(inputs);
    return rc;
}
