/* cmd_record.c -- `npuscope record` and `npuscope sweep`: run the user's
 * compile, many times and over many configurations, into run folders.
 *
 * Both commands share their options (the record options are sweep's too)
 * and their loop: build a plan (sweep_plan.c), skip ids that already exist,
 * hand each run to the runner, print progress, stop cleanly on SIGINT.
 * record is a sweep with no axes whose repeat numbers continue after the
 * runs already in the folder; a sweep's ids are fixed by the plan, which is
 * what makes it resumable and shardable.
 *
 * Exit status (base/exit.h): NS_EXIT_OK every run recorded and ok;
 * NS_EXIT_RUN_FAILED some run failed (non-zero exit, signal, timeout,
 * command not found) -- the failures are recorded too; NS_EXIT_USAGE,
 * NS_EXIT_IO; NS_EXIT_INTERRUPTED.
 */
#include "platform/proc.h"
#include "capture/collect.h"
#include "capture/live.h"
#include "parse/run_read.h"
#include "capture/outdir.h"
#include "platform/watchdog.h"
#include "platform/plat.h"
#include "npu/npu.h"
#include "builtin/builtin.h"
#include "cli/cli.h"
#include "capture/rundir.h"
#include "capture/runner.h"
#include "capture/sweep_plan.h"
#include "capture/adaptive.h"
#include "capture/sweep_grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    const char *out_dir;   /* -o */
    long repeats;          /* -n */
    long warmups;          /* --warmup */
    const char *modes[3];  /* --mode / --modes */
    int nmodes;            /* entries in modes */
    const char *preset;    /* --preset */
    ns_kvlist env;         /* --env (templates in a sweep) */
    ns_kvlist tags;        /* --tag */
    double timeout_s;      /* --timeout */
    double grace_s;        /* --grace */
    int show_output;       /* --show-output */
    int quiet;             /* -q */
    ns_axes axes;          /* sweep: -L / -P */
    ns_order order;        /* sweep: --order */
    int shard_k, shard_n;  /* sweep: --shard K/N */
    int dry_run;           /* sweep: --dry-run */
    char **cmd;            /* the command template, NULL-terminated */
    ns_metric_set metrics; /* built-in and --metric rules */
    char **collect;        /* --collect FILE (argv pointers) */
    int ncollect;          /* entries in collect */
    const char *npuw;      /* --npuw[=LAYOUT] */
    int no_npu;            /* --no-npu */
    int sweep;             /* 1 for sweep, 0 for record (which takes one --mode) */
    long adaptive;         /* sweep: --adaptive N (0: the whole grid) */
    double target_error;   /* sweep: --target-error PCT (0: none) */
} ns__rec_opts;

/* ====== Options ====== */

static int ns__mode_ok(const char *m) {
    return !strcmp(m, "cold") || !strcmp(m, "warm") || !strcmp(m, "none");
}

/* The handlers of the options that do more than store a value; each gets
 * the options (opt->ctx).  Their reasons are printed by the parser as
 * "npuscope record: --opt: REASON"; the axis and shard readers of
 * capture/sweep_plan.c print their own (and leave *why NULL). */

static int ns__opt_mode(const ns_option *opt, const char *v, const char **why) {
    ns__rec_opts *o = opt->ctx;
    static char msg[160];
    o->nmodes = 0;
    char *copy = ns_strdup(v), *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (!ns__mode_ok(t) || o->nmodes == 3) {
            snprintf(msg, sizeof msg, "cold, warm or none, not '%.100s'", v);
            free(copy);
            *why = msg;
            return -1;
        }
        for (int i = 0; i < o->nmodes; i++)
            if (!strcmp(o->modes[i], t)) t = NULL;
        if (t) o->modes[o->nmodes++] = !strcmp(t, "cold") ? "cold" : !strcmp(t, "warm") ? "warm" : "none";
    }
    free(copy);
    if (!o->nmodes) *why = "needs a value";
    else if (!o->sweep && o->nmodes > 1) *why = "takes one mode (sweep takes --modes cold,warm)";
    else return 0;
    return -1;
}

static int ns__opt_kv(const ns_option *opt, const char *v, const char **why) {
    static char msg[160];
    if (ns_kv_parse(opt->ctx, v) == 0) return 0;
    snprintf(msg, sizeof msg, "'%.100s': expected K=V", v);
    *why = msg;
    return -1;
}

static int ns__opt_metric(const ns_option *opt, const char *v, const char **why) {
    (void)why; /* ns_metrics_add says what is wrong */
    return ns_metrics_add(&((ns__rec_opts *)opt->ctx)->metrics, v);
}

static int ns__opt_npuw(const ns_option *opt, const char *v, const char **why) {
    char tmp[64];
    if (ns_npuw_label(v, 1 << 30, tmp, sizeof tmp) == -2) {
        *why = "a layout is STAGE:COUNT[,STAGE:COUNT...], e.g. " NS_NPUW_DEFAULT_LAYOUT;
        return -1;
    }
    ((ns__rec_opts *)opt->ctx)->npuw = v;
    return 0;
}

static int ns__opt_collect(const ns_option *opt, const char *v, const char **why) {
    ns__rec_opts *o = opt->ctx;
    if ((*why = ns_collect_refusal(v))) return -1;
    o->collect = ns_xrealloc(o->collect, sizeof *o->collect * (size_t)(o->ncollect + 1));
    o->collect[o->ncollect++] = (char *)v;
    return 0;
}

static int ns__opt_list(const ns_option *opt, const char *v, const char **why) {
    (void)why;
    return ns_axes_add_list(&((ns__rec_opts *)opt->ctx)->axes, v);
}

static int ns__opt_range(const ns_option *opt, const char *v, const char **why) {
    (void)why;
    return ns_axes_add_range(&((ns__rec_opts *)opt->ctx)->axes, v);
}

static int ns__opt_shard(const ns_option *opt, const char *v, const char **why) {
    (void)why;
    ns__rec_opts *o = opt->ctx;
    return ns_shard_parse(v, &o->shard_k, &o->shard_n);
}

/* Parse record's (and, when sweep, sweep's) options; returns -1 after a
 * usage message, 1 after --help, 0 otherwise. */
static int ns__parse(ns__rec_opts *o, int argc, char **argv, int sweep) {
    static const char *const presets[] = {"none", "npu", "mlir", NULL};
    static const char *const orders[] = {"interleave", "grouped", NULL}; /* ns_order */
    int preset = 0, order = 0;
    o->sweep = sweep;
    const ns_option rec[] = {
        NS_OPT_STRING('o', NULL, &o->out_dir, "DIR"),
        NS_OPT_INT('n', NULL, &o->repeats, "RUNS", 1, 100000),
        NS_OPT_INT(0, "warmup", &o->warmups, "N", 0, 1000),
        NS_OPT_CALL(0, "mode", "cold|warm|none", ns__opt_mode, o),
        NS_OPT_CHOICE(0, "preset", &preset, "npu|mlir|none", presets),
        NS_OPT_CALL(0, "env", "K=V", ns__opt_kv, &o->env),
        NS_OPT_CALL(0, "tag", "K=V", ns__opt_kv, &o->tags),
        NS_OPT_CALL(0, "metric", "NAME=REGEX", ns__opt_metric, o),
        NS_OPT_DOUBLE(0, "timeout", &o->timeout_s, "SEC", 0),
        NS_OPT_DOUBLE(0, "grace", &o->grace_s, "SEC", 0),
        NS_OPT_CALL_EQ("npuw", "LAYOUT", ns__opt_npuw, o, NS_NPUW_DEFAULT_LAYOUT),
        NS_OPT_CALL(0, "collect", "FILE", ns__opt_collect, o),
        NS_OPT_FLAG(0, "no-npu", &o->no_npu),
        NS_OPT_FLAG(0, "show-output", &o->show_output),
        NS_OPT_QUIET(&o->quiet),
        NS_OPT_END(),
    };
    const ns_option swp[] = {
        NS_OPT_CALL(0, "modes", "LIST", ns__opt_mode, o),
        NS_OPT_CALL('L', NULL, "NAME=v1,v2,...", ns__opt_list, o),
        NS_OPT_CALL('P', NULL, "NAME=LO:HI:STEP", ns__opt_range, o),
        NS_OPT_CHOICE(0, "order", &order, "interleave|grouped", orders),
        NS_OPT_CALL(0, "shard", "K/N", ns__opt_shard, o),
        NS_OPT_FLAG(0, "dry-run", &o->dry_run),
        NS_OPT_INT(0, "adaptive", &o->adaptive, "N", 1, 1000000),
        NS_OPT_DOUBLE(0, "target-error", &o->target_error, "PCT", 0),
        NS_OPT_END(),
    };
    const ns_option *const tables[] = {rec, sweep ? swp : NULL, NULL};
    const char *cmd = sweep ? "sweep" : "record";
    for (int i = 0; presets[i]; i++) /* a preset given before stays unless --preset */
        if (!strcmp(o->preset, presets[i])) preset = i;
    int at = argc;
    int p = ns_options_parse_until_command(cmd, argc, argv, tables, &at);
    if (p != NS_OPTIONS_OK) return p == NS_OPTIONS_HELP ? 1 : -1;
    o->preset = presets[preset];
    o->order = order ? NS_ORDER_GROUPED : NS_ORDER_INTERLEAVE;
    if (o->target_error > 0 && !o->adaptive) {
        ns_options_usage(cmd, "--target-error goes with --adaptive N");
        return -1;
    }
    /* an adaptive sweep measures a configuration at a time (capture/adaptive.h) */
    if (o->adaptive) o->order = NS_ORDER_GROUPED;
    /* a tag that names an axis would overwrite the axis value of every run
     * (sweep --tag x=9 -L x=1,2 recorded x=9 throughout): refused */
    for (int i = 0; i < o->tags.n; i++)
        if (ns_axes_find(&o->axes, o->tags.items[i].key) >= 0) {
            ns_options_usage(cmd, "--tag %s=%s: '%s' is an axis of this sweep (-L/-P); a tag "
                                  "cannot also set it",
                             o->tags.items[i].key, o->tags.items[i].value, o->tags.items[i].key);
            return -1;
        }
    if (at >= argc) {
        ns_options_usage(cmd, "no command to run (give it after '--')");
        return -1;
    }
    o->cmd = argv + at;
    return 0;
}

/* ====== Progress ====== */

static double ns__mono(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void ns__fmt_dur(char *buf, size_t n, double s) {
    if (!isfinite(s) || s < 0) snprintf(buf, n, "?");
    else if (s < 60) snprintf(buf, n, "%.1fs", s);
    else if (s < 3600) snprintf(buf, n, "%dm%02ds", (int)(s / 60), (int)fmod(s, 60));
    else snprintf(buf, n, "%dh%02dm", (int)(s / 3600), (int)fmod(s / 60, 60));
}

static const char *ns__verdict(const ns_run *r) {
    static char buf[64];
    if (r->error) return "did not start";
    if (r->timed_out) return "timed out";
    if (r->interrupted) return "interrupted";
    if (r->signal) {
        snprintf(buf, sizeof buf, "killed by signal %d", r->signal);
        return buf;
    }
    if (r->exit_code) {
        snprintf(buf, sizeof buf, "exit %d", r->exit_code);
        return buf;
    }
    /* its wall time holds the pause: kept, not counted (run.json "disturbed") */
    if (r->disturbed) return "ok, but disturbed: npuscope was stopped (SIGSTOP) while the "
                             "command ran on; not counted";
    return "ok";
}

/* ====== The live line ====== */

/* The profile of the latest earlier counted run of the same configuration
 * and mode: the same id with a smaller repeat number ("...-r03" for
 * "...-r04"), the nearest one that exists and ran ok.  A lookup by name,
 * not a listing of the folder, so a study of 10,000 runs pays nothing. */
static ns_profile *ns__profile_for(const char *dir, const char *id) {
    size_t n = strlen(id);
    if (n < 4 || id[n - 3] != 'r' || id[n - 4] != '-') return NULL;
    int repeat = atoi(id + n - 2);
    ns_buf path = {0};
    ns_profile *p = NULL;
    for (int r = repeat - 1; r >= 1 && !p; r--) {
        path.len = 0;
        ns_buf_printf(&path, "%s/%.*s%02d/run.json", dir, (int)(n - 2), id, r);
        if (access(path.data, R_OK) != 0) continue;
        ns_run run;
        ns_diag silent = {NULL, NULL}; /* a broken earlier run is table's to report */
        ns_why why;
        if (ns_run_load(path.data, id, &run, &silent, &why) != 0) continue;
        if (ns_run_ok(&run) && run.nreports > 0) p = ns_profile_new(run.reports, run.nreports);
        ns_run_free(&run);
    }
    ns_buf_free(&path);
    return p;
}

/* A status line only where a person watches: stderr a terminal, not -q,
 * not --show-output (the compile's own lines go there), not TERM=dumb or
 * NO_COLOR (plain output asked for). */
static ns_live *ns__live_new(const ns__rec_opts *o) {
    const char *term = getenv("TERM"), *nc = getenv("NO_COLOR");
    if (o->quiet || o->show_output || !ns_plat_isatty(2) || (term && !strcmp(term, "dumb")) || (nc && *nc))
        return NULL;
    return ns_live_new(2, ns_live_width(2), NULL);
}

/* ====== The loop ====== */

/* Median wall time of finished runs of each configuration, for the ETA. */
typedef struct {
    double *wall;  /* finished wall times, per config */
    int *n;        /* how many per config */
    int cap;       /* per config capacity (repeats + warmups + 1) */
} ns__eta;

static double ns__median_of(double *v, int n) {
    if (n == 0) return NAN;
    double *c = ns_xmalloc(sizeof *c * (size_t)n);
    memcpy(c, v, sizeof *c * (size_t)n);
    for (int i = 1; i < n; i++) /* tiny arrays: insertion sort */
        for (int j = i; j > 0 && c[j - 1] > c[j]; j--) {
            double t = c[j];
            c[j] = c[j - 1];
            c[j - 1] = t;
        }
    double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    free(c);
    return m;
}

static int ns__run_plan(ns__rec_opts *o, int sweep) {
    int rc = NS_EXIT_OK;
    size_t nconf = ns_axes_configs(&o->axes);
    int *idx = ns_xcalloc((size_t)(o->axes.naxes + 1), sizeof *idx);
    ns_plan plan = {0};
    /* warm mode needs a run that fills the cache and is not counted: the
     * first warmup is that "primer" (the runner marks it when the cache was
     * empty), so warm sweeps get at least one warmup */
    long warmups = o->warmups;
    for (int i = 0; i < o->nmodes; i++)
        if (!strcmp(o->modes[i], "warm") && warmups < 1) warmups = 1;
    if (ns_plan_build(&plan, &o->axes, o->nmodes, (int)o->repeats, (int)warmups, o->order,
                      o->shard_k, o->shard_n)) {
        free(idx);
        return NS_EXIT_USAGE;
    }
    int ncmd = 0;
    while (o->cmd[ncmd]) ncmd++;
    if (warmups > o->warmups) { /* the extra warmup is for warm mode only */
        size_t keep = 0;
        for (size_t k = 0; k < plan.n; k++) {
            const ns_plan_item *it = &plan.items[k];
            if (it->warmup && it->repeat > o->warmups && strcmp(o->modes[it->mode], "warm"))
                continue;
            plan.items[keep++] = *it;
        }
        plan.n = keep;
    }
    /* what else names a configuration, for the ids' hash: the tags, and the
     * command and --env templates (a changed command is a new configuration,
     * not a finished one) */
    int nextra = 0;
    char **extra = ns_xcalloc((size_t)(o->tags.n + ncmd + o->env.n) + 1, sizeof *extra);
    for (int i = 0; i < o->tags.n; i++) {
        size_t n = strlen(o->tags.items[i].key) + strlen(o->tags.items[i].value) + 2;
        extra[nextra] = ns_xmalloc(n);
        snprintf(extra[nextra++], n, "%s=%s", o->tags.items[i].key, o->tags.items[i].value);
    }
    for (int i = 0; i < ncmd; i++) {
        size_t n = strlen(o->cmd[i]) + 6;
        extra[nextra] = ns_xmalloc(n);
        snprintf(extra[nextra++], n, "argv=%s", o->cmd[i]);
    }
    for (int i = 0; i < o->env.n; i++) {
        size_t n = strlen(o->env.items[i].key) + strlen(o->env.items[i].value) + 6;
        extra[nextra] = ns_xmalloc(n);
        snprintf(extra[nextra++], n, "env:%s=%s", o->env.items[i].key, o->env.items[i].value);
    }

    ns_outdir_lock lock = {-1};
    if (!o->dry_run) {
        const char *why = NULL;
        if (ns_mkdirs(o->out_dir) != 0) {
            rc = NS_EXIT_IO;
            goto done;
        }
        int held = ns_outdir_lock_take(&lock, o->out_dir, &why);
        if (held != 0) {
            ns_error("%s: %s%s", o->out_dir, why,
                     held == 1 ? "; two recordings into one folder would measure each other's "
                                 "load: wait for it to finish, or give another -o"
                               : "");
            rc = held == 1 ? NS_EXIT_BUSY : NS_EXIT_IO;
            goto done;
        }
        /* with the folder held, every .tmp-* in it is an npuscope's that died */
        unsigned long long freed = 0;
        int stale = ns_outdir_clean_stale(o->out_dir, &freed, &why);
        if (stale < 0) ns_warn_at(NULL, 0, "%s", why);
        else if (stale > 0 && !o->quiet)
            fprintf(stderr, "npuscope: %s: removed %d unfinished run folder%s (%.1f MB) left by "
                            "an npuscope that was killed\n",
                    o->out_dir, stale, stale == 1 ? "" : "s", (double)freed / 1e6);
    }
    /* the grid asked for, beside the runs: predict --grid's cells */
    if (sweep && !o->dry_run && o->axes.naxes) ns_sweep_grid_write(o->out_dir, &o->axes);
    ns_runner rn = {o->out_dir, o->preset,     o->timeout_s, o->grace_s,
                    o->show_output, o->metrics, o->collect, o->ncollect, o->npuw,
                    o->dry_run ? NULL : ns__live_new(o), o->no_npu};
    double t_start = ns__mono();
    ns__eta eta = {ns_xcalloc(nconf * (size_t)(o->repeats + o->warmups + 1), sizeof(double)),
                   ns_xcalloc(nconf, sizeof(int)), (int)(o->repeats + o->warmups + 1)};
    long done = 0, skipped = 0, failed = 0;
    if (!o->dry_run) ns_capture_install_signals();

    ns_adaptive ad = {o->out_dir, &o->axes, (int)o->adaptive, o->target_error, o->modes[0],
                      o->quiet};
    for (size_t k = 0; k < plan.n; k++) {
        /* --adaptive: before each configuration, choose which one */
        if (o->adaptive && (k == 0 || plan.items[k].config != plan.items[k - 1].config) &&
            !ns_adaptive_next(&ad, &plan, k)) {
            plan.n = k;
            break;
        }
        const ns_plan_item *it = &plan.items[k];
        ns_axes_config(&o->axes, it->config, idx);
        const char *mode = o->modes[it->mode];
        int repeat = it->repeat;
        char *id = ns_run_id_new(&o->axes, idx, (const char *const *)extra, nextra, mode,
                                 repeat, it->warmup);
        if (!sweep) { /* record: continue after the runs already there */
            while (ns_run_exists(o->out_dir, id)) {
                free(id);
                id = ns_run_id_new(&o->axes, idx, (const char *const *)extra, nextra, mode,
                                   ++repeat, it->warmup);
            }
        }
        /* substitute placeholders into argv and --env values */
        char **argv = ns_xcalloc((size_t)ncmd + 1, sizeof *argv);
        ns_kvlist env = {0}, params = {0}, tags = {0};
        int bad = 0;
        /* record has no axes and substitutes nothing: its command is run
         * exactly as given */
        for (int i = 0; i < ncmd && !bad; i++)
            if (!(argv[i] = sweep ? ns_axes_subst_new(&o->axes, idx, o->cmd[i])
                                  : ns_strdup(o->cmd[i])))
                bad = 1;
        for (int i = 0; i < o->env.n && !bad; i++) {
            char *val = sweep ? ns_axes_subst_new(&o->axes, idx, o->env.items[i].value)
                              : ns_strdup(o->env.items[i].value);
            if (!val) bad = 1;
            else ns_kv_set(&env, o->env.items[i].key, val);
            free(val);
        }
        for (int i = 0; i < o->axes.naxes; i++) {
            ns_kv_set(&params, o->axes.axes[i].name, o->axes.axes[i].values[idx[i]]);
            ns_kv_set(&tags, o->axes.axes[i].name, o->axes.axes[i].values[idx[i]]);
        }
        for (int i = 0; i < o->tags.n; i++)
            ns_kv_set(&tags, o->tags.items[i].key, o->tags.items[i].value);

        if (bad) {
            rc = NS_EXIT_USAGE;
        } else if (o->dry_run) {
            ns_buf b = {0};
            ns_buf_printf(&b, "%s%s\t", id, ns_run_exists(o->out_dir, id) ? " (done)" : "");
            if (!strcmp(o->preset, "npu"))
                ns_buf_puts(&b, "OV_NPU_LOG_LEVEL=LOG_INFO IE_NPU_LOG_FILTER=vpux-compiler ");
            ns_buf_printf(&b, "NPUSCOPE_MODE=%s ", mode);
            for (int i = 0; i < params.n; i++)
                ns_buf_printf(&b, "NPUSCOPE_PARAM_%s=%s ", params.items[i].key, params.items[i].value);
            for (int i = 0; i < env.n; i++)
                ns_buf_printf(&b, "%s=%s ", env.items[i].key, env.items[i].value);
            for (int i = 0; argv[i]; i++) {
                ns_buf_puts(&b, i ? " " : "");
                /* show arguments unambiguously, never for a shell to run */
                if (strpbrk(argv[i], " \t\n'\"\\$`;&|<>()*?[]{}") || !*argv[i]) {
                    ns_buf_putc(&b, '\'');
                    for (const char *c = argv[i]; *c; c++) {
                        if (*c == '\'') ns_buf_puts(&b, "'\\''");
                        else ns_buf_putc(&b, *c);
                    }
                    ns_buf_putc(&b, '\'');
                } else {
                    ns_buf_puts(&b, argv[i]);
                }
            }
            ns_buf_putc(&b, '\n');
            ns_buf_flush(&b, stdout);
            ns_buf_free(&b);
        } else {
            char *cache_key = ns_run_id_new(&o->axes, idx, (const char *const *)extra,
                                            nextra, "warm", 0, 0);
            ns_run_spec spec = {id, argv, &env, o->axes.naxes ? &params : NULL, &tags, mode,
                                cache_key, repeat, it->warmup};
            ns_run run;
            if (rn.live && !ns_run_exists(o->out_dir, id)) {
                /* the current run on the status line, overwritten by its result line */
                char label[600];
                snprintf(label, sizeof label, "%zu/%zu %.500s", k + 1, plan.n, id);
                const char *npuw = o->npuw;
                const char *llm = ns_kv_get(&tags, "NPUW_LLM");
                if (!npuw && llm && (!strcmp(llm, "YES") || !strcmp(llm, "yes")))
                    npuw = NS_NPUW_DEFAULT_LAYOUT;
                ns_live_start(rn.live, label, ns__profile_for(o->out_dir, id), npuw);
                ns_live_tick(rn.live, 1);
            }
            ns_run_outcome out = ns_runner_run(&rn, &spec, &run);
            free(cache_key);
            if (out == NS_RUN_EXISTS) {
                skipped++;
            } else if (out == NS_RUN_FAILED) {
                rc = NS_EXIT_IO;
            } else {
                if (out == NS_RUN_DONE) done++;
                if (!ns_run_ok(&run) && !run.interrupted) failed++;
                if (ns_run_ok(&run) && it->config < nconf) {
                    int *cn = &eta.n[it->config];
                    if (*cn < eta.cap) eta.wall[it->config * (size_t)eta.cap + (size_t)(*cn)++] = run.wall_s;
                }
                if (run.error) ns_error("%s: %s", id, run.error);
                /* a line per finished run, on a terminal or not: a sweep under
                 * nohup, in CI or piped to a file shows its progress as it goes */
                if (!o->quiet || out == NS_RUN_INTERRUPTED) {
                    /* ETA: remaining runs times the median of their configs */
                    double left = 0;
                    for (size_t j = k + 1; j < plan.n; j++) {
                        size_t c = plan.items[j].config;
                        double med = ns__median_of(&eta.wall[c * (size_t)eta.cap], eta.n[c]);
                        if (!isfinite(med)) med = run.wall_s;
                        left += med;
                    }
                    char el[32], et[32];
                    ns__fmt_dur(el, sizeof el, ns__mono() - t_start);
                    ns__fmt_dur(et, sizeof et, left);
                    char bar[21];
                    size_t fill = (k + 1) * 20 / plan.n;
                    for (size_t b = 0; b < 20; b++) bar[b] = b < fill ? '#' : '.';
                    bar[20] = 0;
                    fprintf(stderr, "npuscope: [%s] %zu/%zu %s: %.3f s, %s%s (elapsed %s, ETA %s)\n",
                            bar, k + 1, plan.n, id, run.wall_s, ns__verdict(&run),
                            run.primer ? ", cache primer" : run.warmup ? ", warmup" : "",
                            el, et);
                }
                ns_run_free(&run);
            }
        }
        free(id);
        for (int i = 0; i < ncmd; i++) free(argv[i]);
        free(argv);
        ns_kv_free(&env);
        ns_kv_free(&params);
        ns_kv_free(&tags);
        if (rc == NS_EXIT_IO) break;
        if (ns_capture_stop_requested()) {
            int sig = ns_capture_stop_requested();
            fprintf(stderr, "npuscope: %s; finished runs are kept in %s, the "
                            "interrupted one as .interrupted-*; run the same command again "
                            "to resume\n",
                    ns_cli_signal_says(sig), o->out_dir);
            rc = ns_cli_signal_exit(sig);
            break;
        }
    }
    ns_live_free(rn.live);
    if (!o->dry_run && rc != NS_EXIT_IO && rc != NS_EXIT_USAGE && !o->quiet)
        fprintf(stderr, "npuscope: %ld run%s recorded in %s (%ld failed), %ld already there\n",
                done, done == 1 ? "" : "s", o->out_dir, failed, skipped);
    if (rc == NS_EXIT_OK && failed) rc = NS_EXIT_RUN_FAILED;
    free(eta.wall);
    free(eta.n);
done:
    ns_watchdog_stop();
    ns_outdir_lock_release(&lock);
    for (int i = 0; i < nextra; i++) free(extra[i]);
    free(extra);
    ns_plan_free(&plan);
    free(idx);
    return rc;
}

static int ns__record_main(int argc, char **argv, int sweep) {
    ns__rec_opts o;
    memset(&o, 0, sizeof o);
    o.out_dir = "runs";
    o.repeats = 1;
    o.modes[0] = "none";
    o.nmodes = 1;
    o.preset = "none";
    o.grace_s = 10;
    o.shard_n = 1;
    ns_metrics_init(&o.metrics);
    int rc;
    int p = ns__parse(&o, argc, argv, sweep);
    if (p < 0) rc = NS_EXIT_USAGE;
    else if (p > 0) rc = NS_EXIT_OK;
    else {
        ns_diag_quiet(o.quiet);
        rc = ns__run_plan(&o, sweep);
    }
    ns_metrics_free(&o.metrics);
    ns_kv_free(&o.env);
    ns_kv_free(&o.tags);
    ns_axes_free(&o.axes);
    free(o.collect);
    return rc;
}

int ns_cmd_record(int argc, char **argv) { return ns__record_main(argc, argv, 0); }
int ns_cmd_sweep(int argc, char **argv) { return ns__record_main(argc, argv, 1); }
