/* runner.c -- one run from start to published folder (see runner.h).
 *
 * Caches by mode, the part of the NPU story that npuscope cannot do for the
 * user (cache settings are OpenVINO properties only the compile script can
 * apply), so it hands the script a directory and a mode instead:
 *   cold  NPUSCOPE_CACHE_DIR is a fresh empty folder inside the run's
 *         temporary folder, deleted before the run is published (blobs are
 *         large); the script bypasses the driver cache too;
 *   warm  one persistent folder per configuration, DIR/.cache/<key>/; the
 *         first run that finds it unfilled is the "primer": it is kept, but
 *         marked, because it is a cold compile that fills the cache;
 *   none  no cache folder at all.
 *
 * The run folder is also the command's: NPUSCOPE_RUN_DIR names it, and a
 * script may write what it likes there.  So npuscope's own files never
 * share it while the command runs: the logs are written in a private
 * subfolder (.npuscope/), and once the command has exited, a file it wrote
 * under one of npuscope's names (stdout.log, stderr.log, run.json) is kept
 * as command-NAME, with a warning, before npuscope's are moved into place.
 */
#include "capture/runner.h"

#include "base/path.h"
#include "capture/collect.h"
#include "capture/live.h"

#include "platform/proc.h"
#include "platform/plat.h"
#include "model/load.h"
#include "npu/hook.h"
#include "npu/npu.h"
#include "npu/files.h"
#include "capture/rundir.h"
#include "parse/scan.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ====== Reports in the output ====== */

typedef struct {
    ns_report **r; /* reports found */
    int n;         /* how many */
} ns__found;

static int ns__collect(ns_report *r, void *ctx) {
    ns__found *f = ctx;
    f->r = ns_xrealloc(f->r, sizeof *f->r * (size_t)(f->n + 1));
    f->r[f->n++] = r;
    return 0;
}

/* Warnings about the output's reports are not printed while a run is
 * recorded (an incomplete report is marked in run.json, and the compile's
 * own output may be on the screen); errors are. */
static void ns__scan_diag(void *ctx, ns_diag_kind kind, const char *file, long line,
                          const char *msg) {
    if (kind != NS_DIAG_WARNING) ns_diag_print(ctx, kind, file, line, msg);
}

/* ====== Collected files ====== */

/* Copy src into dir under its base name; 0 or an errno. */
static int ns__copy_into(const char *src, const char *dir) {
    const char *base = strrchr(src, '/');
    base = base ? base + 1 : src;
    char *dst = ns_path_join_new(dir, base);
    int in = open(src, O_RDONLY), out = -1, err = 0;
    if (in < 0) err = errno;
    else if ((out = open(dst, O_WRONLY | O_CREAT | O_EXCL, 0644)) < 0) err = errno;
    char buf[1 << 16];
    while (!err) {
        ssize_t n = read(in, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) err = errno;
        if (n <= 0) break;
        for (ssize_t off = 0; off < n && !err;) {
            ssize_t w = write(out, buf + off, (size_t)(n - off));
            if (w < 0 && errno != EINTR) err = errno;
            else if (w > 0) off += w;
        }
    }
    if (in >= 0) close(in);
    if (out >= 0 && close(out) != 0 && !err) err = errno;
    free(dst);
    return err;
}

/* The compiler overwrites its files on every compile: collect those this
 * run wrote (modified since it started), and only those. */
static void ns__collect_files(const ns_runner *rn, const char *tmp, time_t started) {
    for (int i = 0; i < rn->ncollect; i++) {
        char **names;
        int nnames = ns_collect_expand(rn->collect[i], &names); /* a wildcard: each match */
        for (int k = 0; k < nnames; k++) {
            const char *why = NULL;
            /* the name passed ns_collect_refusal; where it leads is checked now */
            char *real = ns_collect_resolve_new(names[k], &why);
            if (!real) {
                ns_warn_at(NULL, 0, "--collect %s: %s; not collected", names[k], why);
            } else {
                struct stat st;
                if (stat(real, &st) == 0 && st.st_mtime >= started) { /* else: an earlier compile's */
                    int err = ns__copy_into(real, tmp);
                    if (err) ns_error("--collect %s: %s", names[k], strerror(err));
                }
                free(real);
            }
            free(names[k]);
        }
        free(names);
    }
}

/* ====== npuscope's files apart from the command's ====== */

#define NS__OWN_DIR ".npuscope" /* the logs' folder while the command runs */

/* The command wrote dir/name: keep it as dir/command-name (or
 * command-N-name if that is taken too), saying so. */
static void ns__keep_commands(const char *dir, const char *name) {
    char *have = ns_path_join_new(dir, name);
    struct stat st;
    if (ns_plat_lstat(have, &st) != 0) {
        free(have);
        return;
    }
    char alt[300];
    for (int k = 1; k < 1000; k++) {
        if (k == 1) snprintf(alt, sizeof alt, "command-%s", name);
        else snprintf(alt, sizeof alt, "command-%d-%s", k, name);
        char *to = ns_path_join_new(dir, alt);
        int free_name = ns_plat_lstat(to, &st) != 0 && errno == ENOENT;
        int moved = free_name && rename(have, to) == 0;
        free(to);
        if (moved) {
            ns_warn_at(NULL, 0, "%s: the command wrote %s in its run folder "
                                "(NPUSCOPE_RUN_DIR), a name of npuscope's: kept as %s",
                       dir, name, alt);
            break;
        }
        if (free_name) break; /* rename failed: leave it; our move below says why */
    }
    free(have);
}

/* After the command: its files keep their data under other names, and
 * npuscope's logs move from own/ into dir.  Returns 0, or an errno. */
static int ns__own_files_in_place(const char *dir, const char *own) {
    static const char *const ours[] = {"stdout.log", "stderr.log", "run.json"};
    for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++) ns__keep_commands(dir, ours[i]);
    int err = 0;
    for (size_t i = 0; i < 2 && !err; i++) {
        char *from = ns_path_join_new(own, ours[i]), *to = ns_path_join_new(dir, ours[i]);
        if (rename(from, to) != 0) err = errno;
        free(from);
        free(to);
    }
    if (!err && rmdir(own) != 0) err = errno;
    return err;
}

/* ====== Environment ====== */

static void ns__build_env(ns_kvlist *env, const ns_runner *rn, const ns_run_spec *s) {
    if (rn->preset && strcmp(rn->preset, "npu") == 0) {
        /* the NPU compiler prints its timing tree at INFO; the filter keeps
         * the report and drops per-pass loggers in developer builds */
        ns_kv_set(env, "OV_NPU_LOG_LEVEL", "LOG_INFO");
        ns_kv_set(env, "IE_NPU_LOG_FILTER", "vpux-compiler");
    }
    if (s->env)
        for (int i = 0; i < s->env->n; i++)
            ns_kv_set(env, s->env->items[i].key, s->env->items[i].value);
    if (s->params)
        for (int i = 0; i < s->params->n; i++) {
            char key[300];
            snprintf(key, sizeof key, "NPUSCOPE_PARAM_%s", s->params->items[i].key);
            ns_kv_set(env, key, s->params->items[i].value);
        }
    ns_kv_set(env, "NPUSCOPE_MODE", s->mode);
}

static char *ns__abs_new(const char *path) {
    char *r = ns_plat_realpath(path);
    return r ? r : ns_strdup(path);
}

/* ====== The run ====== */

/* What capture hands the output to: the metric streams, the report
 * scanners and the status line.  Each stream has a scanner of its own (and
 * an NPU hook of its own): the two are read at the same time, and a
 * scanner reads one input at a time. */
typedef struct {
    ns_metric_stream streams[2]; /* stdout's and stderr's metric rules */
    ns_scanner sc[2];            /* stdout's and stderr's report scanners */
    ns_npu_hook npu[2];          /* their NPU hooks, when hooked */
    int hooked;                  /* the scanners have the NPU hooks */
    ns_scan_stream *scan[2];     /* the scans in progress, or NULL once ended */
    ns__found found[2];          /* the reports each found */
    ns_live *live;               /* the status line, or NULL */
    ns_load load;                /* failures and environment of both streams: one,
                                  * as the exception on stderr names the failure
                                  * logged on stdout */
} ns__readers;

/* capture's on_output: a piece of stdout (0) or stderr (1) to each reader */
static void ns__on_output(void *ctx, int stream, const char *buf, size_t n) {
    ns__readers *rd = ctx;
    ns_metrics_feed(&rd->streams[stream], buf, n);
    ns_scan_stream_feed(rd->scan[stream], buf, n);
    if (rd->live) ns_live_feed(rd->live, stream, buf, n);
}

/* The report scanners, set up before the command starts: facts with the
 * npu preset, labels for an NPUW compile. */
static void ns__scans_begin(ns__readers *rd, const ns_runner *rn, const ns_run_spec *s) {
    int facts = rn->preset && !strcmp(rn->preset, "npu"); /* facts per compile */
    /* an NPUW LLM compile: --npuw, or a tag NPUW_LLM=YES says so */
    const char *npuw = rn->npuw;
    const char *llm = s->tags ? ns_kv_get(s->tags, "NPUW_LLM") : NULL;
    if (!npuw && llm && (!strcmp(llm, "YES") || !strcmp(llm, "yes") || !strcmp(llm, "true") ||
                         !strcmp(llm, "1")))
        npuw = NS_NPUW_DEFAULT_LAYOUT;
    /* without the preset or npuw, an output is still read for an NPU
     * compile's facts once a line of the NPU stack shows it one (the
     * hook's detection, as tree and top read a log), unless --no-npu:
     * run folders are not read again, so facts not taken now are lost */
    int detect = !facts && !npuw && !rn->no_npu;
    rd->hooked = facts || npuw || detect;
    memset(&rd->load, 0, sizeof rd->load);
    static const char *const names[2] = {"stdout.log", "stderr.log"};
    for (int i = 0; i < 2; i++) {
        ns_scanner_init(&rd->sc[i]);
        rd->sc[i].diag = (ns_diag){ns__scan_diag, NULL};
        /* stderr's reports come after stdout's, as in a scan of stdout.log
         * and then stderr.log: numbered once stdout has ended */
        rd->sc[i].number_late = i == 1;
        if (rd->hooked) {
            if (detect) ns_npu_hook_init_detect(&rd->npu[i], npuw, &rd->sc[i].diag);
            else ns_npu_hook_init(&rd->npu[i], npuw, &rd->sc[i].diag);
            rd->sc[i].hook = &rd->npu[i].ops;
            rd->npu[i].load = &rd->load;
        }
        rd->found[i] = (ns__found){0};
        rd->scan[i] = ns_scan_stream_new(&rd->sc[i], names[i], ns__collect, &rd->found[i]);
    }
}

/* What the output said of a failed compile and the NPU stack, into the
 * run: its first failure, and the environment with the host's OS. */
static void ns__take_load(ns__readers *rd, ns_run *out) {
    if (rd->load.nfail) {
        out->failure = ns_xcalloc(1, sizeof *out->failure);
        ns_failure_copy(out->failure, &rd->load.fail[0]);
    }
    for (int i = 0; i < rd->load.env.n; i++)
        ns_kv_set(&out->environment, rd->load.env.items[i].key, rd->load.env.items[i].value);
    ns_load_free(&rd->load);
}

/* The output has ended: the last lines, then stdout's reports and
 * stderr's after them, into *all. */
static void ns__scans_end(ns__readers *rd, ns__found *all, ns_run *out) {
    for (int i = 0; i < 2; i++) {
        ns_scan_stream_end(rd->scan[i]);
        rd->scan[i] = NULL;
        if (rd->hooked) ns_npu_hook_free(&rd->npu[i]);
        ns_scanner_free(&rd->sc[i]);
    }
    int base = rd->found[0].n;
    if (rd->hooked) ns__take_load(rd, out);
    for (int k = 0; k < rd->found[1].n; k++) ns_scan_number_late(rd->found[1].r[k], base);
    all->n = rd->found[0].n + rd->found[1].n;
    all->r = ns_xmalloc(sizeof *all->r * (size_t)(all->n ? all->n : 1));
    for (int i = 0, at = 0; i < 2; i++) {
        for (int k = 0; k < rd->found[i].n; k++) all->r[at++] = rd->found[i].r[k];
        free(rd->found[i].r);
    }
}

static void ns__on_tick(void *ctx) {
    ns__readers *rd = ctx;
    if (rd->live) ns_live_tick(rd->live, 0);
}

ns_run_outcome ns_runner_run(ns_runner *rn, const ns_run_spec *s, ns_run *out) {
    memset(out, 0, sizeof *out);
    if (ns_run_exists(rn->out_dir, s->id)) return NS_RUN_EXISTS;
    char *tmp = ns_run_tmpdir_new(rn->out_dir, s->id);
    if (!tmp) return NS_RUN_FAILED;
    ns_run_outcome outcome = NS_RUN_FAILED;
    char *abs_tmp = ns__abs_new(tmp);
    char *cache = NULL, *primed = NULL, *own = NULL;
    ns__found found = {0};

    ns_run *r = out;
    r->id = ns_strdup(s->id);
    int argc = 0;
    while (s->argv[argc]) argc++;
    r->argv = ns_xcalloc((size_t)argc + 1, sizeof *r->argv);
    for (int i = 0; i < argc; i++) r->argv[i] = ns_strdup(s->argv[i]);
    if (s->tags)
        for (int i = 0; i < s->tags->n; i++)
            ns_kv_set(&r->tags, s->tags->items[i].key, s->tags->items[i].value);
    r->mode = ns_strdup(s->mode);
    r->repeat = s->repeat;
    r->warmup = s->warmup;
    ns__build_env(&r->env, rn, s);
    ns_kv_set(&r->env, "NPUSCOPE_RUN_DIR", abs_tmp);

    if (strcmp(s->mode, "cold") == 0) {
        cache = ns_path_join_new(abs_tmp, "cache");
        if (ns_mkdirs(cache) != 0) goto out;
    } else if (strcmp(s->mode, "warm") == 0) {
        char *caches = ns_path_join_new(rn->out_dir, ".cache");
        char *c = ns_path_join_new(caches, s->cache_key ? s->cache_key : "default");
        free(caches);
        if (ns_mkdirs(c) != 0) {
            free(c);
            goto out;
        }
        cache = ns__abs_new(c);
        free(c);
        primed = ns_path_join_new(cache, ".primed");
        r->primer = access(primed, F_OK) != 0;
    }
    if (cache) ns_kv_set(&r->env, "NPUSCOPE_CACHE_DIR", cache);

    /* the logs apart from what the command writes in NPUSCOPE_RUN_DIR */
    own = ns_path_join_new(tmp, NS__OWN_DIR);
    if (ns_plat_mkdir(own, 0755) != 0) {
        ns_error("%s: %s", own, strerror(errno));
        goto out;
    }
    ns_capture_opts co = {s->argv, &r->env, own, rn->timeout_s, rn->grace_s, rn->show_output,
                          ns__on_output, NULL, ns__on_tick};
    /* the metric rules read the output as it is drained, one stream each */
    ns_metrics_reset(&rn->metrics);
    ns__readers rd;
    ns_metrics_stream_init(&rd.streams[0], &rn->metrics);
    ns_metrics_stream_init(&rd.streams[1], &rn->metrics);
    /* and the report scanners: nothing is read again after the run */
    ns__scans_begin(&rd, rn, s);
    rd.live = rn->live;
    co.ctx = &rd;
    ns_capture_result cr;
    time_t started = time(NULL) - 1; /* file times have one-second grain */
    int ran = ns_capture_run(&co, &cr);
    ns_metrics_stream_end(&rd.streams[0], &rn->metrics); /* stdout's matches, then stderr's */
    ns_metrics_stream_end(&rd.streams[1], &rn->metrics);
    ns__scans_end(&rd, &found, r);
    if (rd.live) ns_live_clear(rd.live);
    if (ran != 0) goto out;
    memcpy(r->started_at, cr.started_at, sizeof r->started_at);
    memcpy(r->started_clock, cr.started_clock, sizeof r->started_clock);
    r->wall_s = cr.wall_s;
    r->user_s = cr.user_s;
    r->sys_s = cr.sys_s;
    r->peak_rss_mb = cr.peak_rss_mb;
    r->exit_code = cr.exit_code;
    r->signal = cr.signal;
    r->timed_out = cr.timed_out;
    r->interrupted = cr.interrupted;
    /* A stop that reached the command before npuscope saw it: Slurm's
     * scancel, or a terminal's Ctrl-C (on Windows too: a console's
     * Ctrl-C goes to every process on it), signals every process of the
     * job at once, and the command may end in the turn before the stop
     * flag is read.  A command that failed while a stop was asked for
     * ended by the stop: the run is interrupted, not a finished failure
     * (kept, a resumed sweep would skip it and never measure it).  One
     * that exited 0 keeps its run. */
    if (ns_capture_stop_requested() && !r->interrupted && (r->signal || r->exit_code != 0))
        r->interrupted = 1;
    r->disturbed = cr.disturbed;
    r->detached = cr.detached;
    r->stdout_bytes = cr.out_bytes;
    r->stderr_bytes = cr.err_bytes;
    if (cr.exec_errno) {
        char msg[600];
        snprintf(msg, sizeof msg, "cannot run '%.500s': %s", s->argv[0], strerror(cr.exec_errno));
        r->error = ns_strdup(msg);
    }
    if (cr.io_errno) {
        ns_error("%s: writing the command's output failed (%s); the run is not kept",
                 tmp, strerror(cr.io_errno));
        goto out;
    }
    int moved = ns__own_files_in_place(tmp, own);
    if (moved) {
        ns_error("%s: cannot move the logs into place (%s); the run is not kept", tmp,
                 strerror(moved));
        goto out;
    }

    /* what the output says */
    ns_metrics_to_run(&rn->metrics, r);
    ns__collect_files(rn, tmp, started);
    ns_npu_collected_metrics(tmp, r, &ns_diag_stderr);
    if (cache && strcmp(s->mode, "cold") == 0) ns_rmtree(cache);
    int err = ns_run_write_json(tmp, r, found.r, found.n);
    if (err) {
        ns_error("%s/run.json: %s; the run is not kept", tmp, strerror(err));
        goto out;
    }
    if (r->interrupted) {
        char name[512];
        snprintf(name, sizeof name, ".interrupted-%.400s-%ld", s->id, ns_plat_pid());
        char *dst = ns_path_join_new(rn->out_dir, name);
        if (ns_plat_rename_new(tmp, dst) != 0)
            ns_error("%s: %s (the interrupted run stays in %s)", dst, strerror(errno), tmp);
        free(dst);
        free(tmp);
        tmp = NULL; /* kept, not removed */
        outcome = NS_RUN_INTERRUPTED;
        goto out;
    }
    int pub = ns_run_publish(tmp, rn->out_dir, s->id);
    if (pub == 0) {
        free(tmp);
        tmp = NULL;
        outcome = NS_RUN_DONE;
        if (primed && r->primer && ns_run_ok(r)) {
            FILE *f = fopen(primed, "w");
            if (f) fclose(f);
        }
    } else if (pub == 1) {
        outcome = NS_RUN_EXISTS; /* another sweep got there first */
    }

out:
    if (tmp) ns_rmtree(tmp);
    if (outcome == NS_RUN_FAILED || outcome == NS_RUN_EXISTS) ns_run_free(out);
    for (int i = 0; i < found.n; i++) ns_report_free(found.r[i]);
    free(found.r);
    free(tmp);
    free(abs_tmp);
    free(cache);
    free(primed);
    free(own);
    return outcome;
}
