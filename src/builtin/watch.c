/* watch.c -- `npuscope watch`: a log still being written, watched.
 *
 * A compile started by hand, by an IDE or by a CI job writes its log to a
 * file (or a pipe); watch follows it from the start with the status line
 * record shows (capture/live.h: elapsed time, the sub-model compile, the
 * pass running now, and progress against a profile if one is given), and
 * when the log is finished prints its reports as `npuscope tree` would.
 * With --format json it writes instead a stream of events (one JSON object
 * a line: pass, report, end) for other tools.
 *
 * A stream is a stream.  Every byte read goes once to the status line and
 * once to a pushed scan (parse/scan.h, "Pushed streams"), which keeps
 * the reports it finds and nothing else: no copy of the input is made, and
 * nothing is read twice, so an endless pipe costs no disk and bounded
 * memory (the reports, the line being cut -- at most NS_LINE_MAX -- and the
 * status line's 1 KiB per line; a Chrome trace document, one JSON value,
 * is the exception the scanner documents).  The tree is the tree of what
 * was read from the open descriptor, never of the path opened again.
 *
 * When is a log finished?  A pipe or a FIFO ends when its writer closes it
 * (the FIFO is opened once).  A file has no end of its own: at the end of
 * what is there, watch waits, reading again four times a second, and ends
 * once no process has the file open for writing (platform/plat.h: /proc
 * on Linux; on Windows, the file cannot be opened denying others write
 * access) -- or never, with --follow, until it is interrupted.  Where that
 * cannot be told, the end of the file ends it.  While it waits it looks at the
 * path too, as `tail -F` does (--follow=name, the default): a file
 * truncated under it (copy-and-truncate rotation) is read again from its
 * start, and when the path names another file (rename and recreate) the
 * old one is read to its end and the new one from its start.
 * --follow=descriptor stays with the file first opened.  A log that does not
 * exist yet is waited for, until it appears or watch is interrupted.
 *
 * SIGINT, SIGTERM and SIGHUP stop it at once: the tree of what was read so
 * far is printed, and the exit status says which signal (130, 143, 129).
 */
#include "builtin/builtin.h"
#include "capture/live.h"
#include "cli/cli.h"
#include "npu/hook.h"
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
#define NS__GONE_POLLS 8      /* polls a vanished path is waited for (a rotation's
                               * rename before its create) before the end */
#define NS__WATCH_CHUNK (1u << 16) /* bytes read at a time */

static volatile sig_atomic_t ns__watch_stop; /* the signal that stops watch, or 0 */
static void ns__on_stop(int sig) { ns__watch_stop = sig; }

static void ns__nap(void) {
    struct timespec ts = {0, NS__WATCH_POLL_MS * 1000000L};
    nanosleep(&ts, NULL); /* a signal cuts it short */
}

/* ====== Following ====== */

enum { NS__FOLLOW_NONE, NS__FOLLOW_NAME, NS__FOLLOW_DESCRIPTOR };

typedef struct {
    int in;          /* what is read: the descriptor opened once (per file) */
    int is_file;     /* in is a regular file (it may grow) */
    int follow;      /* NS__FOLLOW_*: --follow, and how */
    const char *path; /* the name, looked at for rotations (NULL: standard input) */
    const char *name; /* for messages */
    dev_t dev;       /* the file now read, for the writers' look-up */
    ino_t ino;       /* likewise */
    off_t pos;       /* bytes read from it: a smaller size means truncated */
    int gone;        /* polls the path has been missing */
} ns__watch_src;

typedef struct {
    ns_live *live;         /* the status line and the events */
    ns_scan_stream *scan;  /* the reports, found as the bytes arrive */
} ns__watch_readers;

static void ns__feed(ns__watch_readers *rd, const char *buf, size_t n) {
    ns_live_feed(rd->live, 0, buf, n);
    ns_scan_stream_feed(rd->scan, buf, n);
}

/* The path at a rotation, checked at the end of the file: 1 when it names
 * another file than the one read (the old one is read to its end), which
 * is then opened in its place; 0 when not (or while it is missing). */
static int ns__rotated(ns__watch_src *src) {
    struct stat st;
    if (!src->path || src->follow == NS__FOLLOW_DESCRIPTOR) return 0;
    if (stat(src->path, &st) != 0) {
        src->gone++;
        return 0;
    }
    src->gone = 0;
    if (st.st_dev == src->dev && st.st_ino == src->ino) return 0;
    int fd = open(src->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0; /* gone again meanwhile: the next look */
    struct stat now;
    if (fstat(fd, &now) != 0 || !S_ISREG(now.st_mode)) {
        close(fd);
        return 0;
    }
    close(src->in);
    src->in = fd;
    src->dev = now.st_dev;
    src->ino = now.st_ino;
    src->pos = 0;
    return 1;
}

/* Truncated under us (copy-and-truncate): read it again from its start. */
static int ns__truncated(ns__watch_src *src) {
    struct stat st;
    if (fstat(src->in, &st) != 0 || st.st_size >= src->pos) return 0;
    if (lseek(src->in, 0, SEEK_SET) != 0) return 0;
    src->pos = 0;
    return 1;
}

/* Read src until it is finished (or a signal stops it), feeding the
 * readers.  Returns 0, or -1 after a read error (message printed). */
static int ns__follow(ns__watch_src *src, ns__watch_readers *rd) {
    char *buf = ns_xmalloc(NS__WATCH_CHUNK);
    int polls = 0, rc = 0;
    while (!ns__watch_stop) {
        ssize_t n = read(src->in, buf, NS__WATCH_CHUNK);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            ns_error_at(src->name, 0, "%s", strerror(errno));
            rc = -1;
            break;
        }
        if (n > 0) {
            ns__feed(rd, buf, (size_t)n);
            src->pos += n;
            ns_live_tick(rd->live, 0);
            polls = 0;
            continue;
        }
        if (!src->is_file) break; /* a pipe's end is its writer's */
        if (ns__truncated(src) || ns__rotated(src)) {
            polls = 0;
            continue;
        }
        /* nobody writes any more (and the path is not being rotated) */
        if (src->follow == NS__FOLLOW_NONE && polls++ % NS__WRITERS_EVERY == 0 &&
            (src->gone == 0 || src->gone > NS__GONE_POLLS) &&
            ns_plat_writers(src->name, src->in) != 1) {
            /* what came in since the last read, then stop */
            n = read(src->in, buf, NS__WATCH_CHUNK);
            if (n > 0) {
                ns__feed(rd, buf, (size_t)n);
                src->pos += n;
                polls = 0;
                continue;
            }
            break;
        }
        ns_live_tick(rd->live, 0);
        ns__nap();
    }
    free(buf);
    return rc;
}

/* Open the log, waiting for it while it does not exist yet (said once).
 * Returns the descriptor, or -1: an error (printed) or a stop signal. */
static int ns__open_waiting(const char *path, int quiet) {
    int said = 0;
    for (;;) {
        int fd = open(path, O_RDONLY | O_CLOEXEC); /* a FIFO: blocks until its writer */
        if (fd >= 0) return fd;
        if (errno == EINTR && ns__watch_stop) return -1;
        if (errno != ENOENT && errno != EINTR) {
            ns_error_at(path, 0, "%s", strerror(errno));
            return -1;
        }
        if (ns__watch_stop) return -1;
        if (!said && !quiet)
            fprintf(stderr, "npuscope: %s: waiting for the file to be created "
                            "(Ctrl-C to stop)\n", path);
        said = 1;
        ns__nap();
    }
}

/* ====== The reports kept ====== */

typedef struct {
    ns_report **r; /* the reports, in order */
    int n;         /* how many */
} ns__watch_kept;

static int ns__keep(ns_report *r, void *vctx) {
    ns__watch_kept *k = vctx;
    k->r = ns_xrealloc(k->r, sizeof *k->r * (size_t)(k->n + 1));
    k->r[k->n++] = r;
    return 0;
}

/* What the scanner says, printed where the status line was. */
static void ns__watch_diag(void *ctx, ns_diag_kind kind, const char *file, long line,
                           const char *msg) {
    ns_live_clear(ctx);
    ns_diag_print(NULL, kind, file, line, msg);
}

/* The tree of the reports kept, as `npuscope tree` prints it.  Returns 0,
 * or -1 when the output could not be written (message printed). */
static int ns__print_tree(ns__watch_kept *k) {
    ns_export_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.format = NS_FMT_TEXT;
    ns_view_init(&eo.view);
    eo.color = ns_cli_color(STDOUT_FILENO);
    eo.width = ns_cli_width(STDOUT_FILENO); /* as tree fits a terminal */
    ns_exporter *ex = ns_exporter_new(&eo, stdout);
    int werr = 0;
    for (int i = 0; i < k->n; i++)
        if (!werr && ns_exporter_add(ex, k->r[i]) != 0) werr = 1;
    if (ns_exporter_end(ex) != 0 || werr) {
        ns_error("error writing the output");
        return -1;
    }
    return 0;
}

/* ====== The command ====== */

static int ns__load_profile(const char *profile_dir, ns_profile **profile) {
    ns_buf p = {0};
    struct stat st;
    int rc = 0;
    if (stat(profile_dir, &st) == 0 && S_ISDIR(st.st_mode)) ns_buf_printf(&p, "%s/run.json", profile_dir);
    else ns_buf_puts(&p, profile_dir);
    ns_run run;
    ns_why why;
    if (ns_run_load(p.data, profile_dir, &run, &ns_diag_stderr, &why) == 0) {
        if (run.nreports > 0) *profile = ns_profile_new(run.reports, run.nreports);
        else ns_warn_at(p.data, 0, "the run has no timing report: no progress to show");
        ns_run_free(&run);
    } else {
        ns_diag_why(&ns_diag_stderr, NS_DIAG_ERROR, p.data, &why, "");
        rc = -1;
    }
    ns_buf_free(&p);
    return rc;
}

int ns_cmd_watch(int argc, char **argv) {
    int format = 0;
    const char *follow_s = NULL;
    const char *profile_dir = NULL;
    ns_read_opts ro = {0};
    static const char *const formats[] = {"text", "json", NULL};
    const ns_option own[] = {
        NS_OPT_STRING_EQ("follow", &follow_s, "HOW", "name"),
        NS_OPT_CHOICE(0, "format", &format, "text|json", formats),
        NS_OPT_STRING(0, "profile", &profile_dir, "RUN"),
        NS_OPT_READ(&ro),
        NS_OPT_END(),
    };
    const ns_option *const tables[] = {own, NULL};
    char **inputs = ns_xcalloc((size_t)argc, sizeof *inputs);
    int ninputs = 0, rc = NS_EXIT_OK, hooked = 0;
    ns_live *live = NULL;
    ns_profile *profile = NULL;
    ns_scanner sc;
    ns_npu_hook npu;
    ns__watch_kept kept = {NULL, 0};
    ns__watch_src src = {-1, 0, NS__FOLLOW_NONE, NULL, NULL, 0, 0, 0, 0};
    ns_scanner_init(&sc);
    switch (ns_options_parse("watch", argc, argv, tables, inputs, &ninputs)) {
    case NS_OPTIONS_HELP: goto out;
    case NS_OPTIONS_ERROR: rc = NS_EXIT_USAGE; goto out;
    }
    if (ninputs > 1) {
        rc = ns_options_usage("watch", "one log at a time (got '%s' as a second)", inputs[1]);
        goto out;
    }
    if (follow_s) {
        if (!strcmp(follow_s, "name")) src.follow = NS__FOLLOW_NAME;
        else if (!strcmp(follow_s, "descriptor")) src.follow = NS__FOLLOW_DESCRIPTOR;
        else {
            rc = ns_options_usage("watch", "--follow is 'name' or 'descriptor', not '%s'", follow_s);
            goto out;
        }
    }
    const char *path = ninputs ? inputs[0] : "-";
    int from_stdin = !strcmp(path, "-");
    ns_diag_quiet(ro.quiet);
    if (profile_dir && ns__load_profile(profile_dir, &profile) != 0) {
        rc = NS_EXIT_IO;
        goto out;
    }
    /* stop at once on SIGINT, SIGTERM, SIGHUP: also a blocked open or read */
    ns__watch_stop = 0;
    ns_cli_stop_signals(ns__on_stop);
    src.name = from_stdin ? "<stdin>" : path;
    src.path = from_stdin ? NULL : path;
    src.in = from_stdin ? 0 : ns__open_waiting(path, ro.quiet);
    if (src.in < 0) {
        rc = ns__watch_stop ? ns_cli_signal_exit(ns__watch_stop) : NS_EXIT_IO;
        goto out;
    }
    /* a file named is followed; standard input ends where it ends, whatever it is */
    struct stat st;
    if (!from_stdin && fstat(src.in, &st) == 0 && S_ISREG(st.st_mode)) {
        src.is_file = 1;
        src.dev = st.st_dev;
        src.ino = st.st_ino;
    }
    const char *term = getenv("TERM"), *nc = getenv("NO_COLOR");
    int show = ns_plat_isatty(2) && !ro.quiet && !(term && !strcmp(term, "dumb")) && !(nc && *nc);
    live = ns_live_new(show ? 2 : -1, ns_live_width(2), format == 1 ? stdout : NULL);
    ns_live_start(live, NULL, profile, ro.npuw);
    profile = NULL; /* the live line owns it now */

    /* the scanner of `tree`: its label regex, and the NPU hook as asked
     * (or watching the lines for the NPU stack, unless --no-npu) */
    sc.diag = (ns_diag){ns__watch_diag, live};
    if (ro.label_regex && ns_scanner_set_label_regex(&sc, ro.label_regex) != 0) {
        rc = NS_EXIT_USAGE;
        goto out;
    }
    if (ro.npu || ro.npuw) ns_npu_hook_init(&npu, ro.npuw, &sc.diag);
    else if (!ro.no_npu) ns_npu_hook_init_detect(&npu, ro.npuw, &sc.diag);
    hooked = ro.npu || ro.npuw || !ro.no_npu;
    if (hooked) sc.hook = &npu.ops;
    ns__watch_readers rd = {live, ns_scan_stream_new(&sc, src.name, ns__keep, &kept)};
    if (ns__follow(&src, &rd) < 0) rc = NS_EXIT_IO;
    ns_scan_stream_end(rd.scan);
    ns_diag_summary();
    ns_live_clear(live);
    int stop = ns__watch_stop;
    if (stop && !ro.quiet) fprintf(stderr, "npuscope: %s: %s; what was read so far follows\n",
                                   src.name, ns_cli_signal_says(stop));
    if (format == 1) {
        printf("{\"event\":\"end\",\"reports\":%d}\n", ns_live_compiles(live));
        if (fflush(stdout) != 0) rc = NS_EXIT_IO;
        if (rc == NS_EXIT_OK && ns_live_compiles(live) == 0 && !stop) rc = NS_EXIT_NOTHING;
    } else {
        if (ns__print_tree(&kept) != 0) rc = NS_EXIT_IO;
        else if (kept.n == 0 && rc == NS_EXIT_OK && !stop) {
            ns_cli_none_found(from_stdin ? NULL : inputs, from_stdin ? 0 : 1);
            rc = NS_EXIT_NOTHING;
        }
    }
    if (stop && rc != NS_EXIT_IO) rc = ns_cli_signal_exit(stop);
out:
    if (hooked) ns_npu_hook_free(&npu);
    sc.hook = NULL;
    ns_scanner_free(&sc);
    for (int i = 0; i < kept.n; i++) ns_report_free(kept.r[i]);
    free(kept.r);
    ns_live_free(live);
    ns_profile_free(profile);
    if (src.in > 0) close(src.in);
    free(inputs);
    return rc;
}
