/* runs.h -- runs of a compile and the write-once folders that keep them.
 *
 * A run is one execution of the user's command.  `record` and `sweep` write
 * each run to DIR/<run-id>/ (run.json, stdout.log, stderr.log, collected
 * files); `table`, `fit`, `diff` and `report` read them back.  The folder is
 * built under a temporary name and renamed into place without replacing
 * anything, so a reader never sees half a run and no run is overwritten.
 *
 * run.json (contract, docs/recording.md):
 *   {"format": "npuscope-run", "version": 1 (2 when a report's rows below
 *    depth 64 are written flat: render/tree_json.h),
 *    "id", "command": [argv...], "env": {K: V set by npuscope},
 *    "tags": {K: V}, "mode": "cold"|"warm"|"none", "repeat": N (1-based),
 *    "warmup": bool, "primer": bool (the warm run that fills the cache),
 *    "started_at": "2026-11-29T16:41:07Z", "started_clock": "17:41:07.125"
 *    (local time of day, the clock of the NPU stack's log lines), "wall_s", "user_s", "sys_s",
 *    "peak_rss_mb", "exit_code" (null if killed), "signal" (null or number),
 *    "signal_name", "timed_out": bool, "interrupted": bool, "ok": bool,
 *    "disturbed": bool (only when true), "detached": N (only when > 0),
 *    "error": null or "why the command did not run",
 *    "metrics": {NAME: number}, "metric_counts": {NAME: matches},
 *    "stdout_bytes", "stderr_bytes", "host": {"name", "os", "cpus"},
 *    "npuscope_version", "reports": [tree JSON reports],
 *    "failure": {...} (only when the output shows a failed compile),
 *    "environment": {K: V} (model/load.h)}
 * A run is "ok" when it started, exited 0, and was neither killed, timed out
 * nor interrupted.  env.NPUSCOPE_RUN_DIR is the folder the run was written
 * in (its temporary name); the published folder is DIR/<id>.
 *
 * Ownership: an ns_run owns all its strings and arrays; ns_run_free frees
 * them.
 */
#ifndef NPUSCOPE_RUNS_H
#define NPUSCOPE_RUNS_H

#include "base/common.h"
#include "base/kv.h"

/* ====== Key/value lists (the type: base/kv.h) ====== */

void ns_kv_set(ns_kvlist *l, const char *key, const char *value); /* replaces */
const char *ns_kv_get(const ns_kvlist *l, const char *key);
void ns_kv_free(ns_kvlist *l);
/* Parse "K=V" into l; returns -1 if there is no '=' or K is empty. */
int ns_kv_parse(ns_kvlist *l, const char *kv);

/* ====== A run ====== */
typedef struct {
    char *name;   /* metric name */
    double value; /* aggregated value (last, sum or max: see metrics.c) */
    long count;   /* matches in the output */
} ns_metric;

typedef struct {
    char *id;              /* folder name */
    char **argv;           /* command, NULL-terminated */
    ns_kvlist env;         /* environment npuscope set */
    ns_kvlist tags;        /* axis values and --tag labels */
    char *mode;            /* "cold", "warm" or "none" */
    int repeat;            /* 1-based */
    int warmup;            /* a --warmup run: kept, not counted */
    int primer;            /* warm mode: the run that fills the cache */
    char started_at[32];   /* ISO 8601 UTC */
    char started_clock[24]; /* local time of day at the start, "HH:MM:SS.mmm", or "" */
    double wall_s;         /* monotonic wall time of the child */
    double user_s;         /* user CPU of the child tree */
    double sys_s;          /* system CPU of the child tree */
    double peak_rss_mb;    /* largest resident set in the tree, MiB */
    int exit_code;         /* -1 when killed or not started */
    int signal;            /* 0, or the signal that ended it */
    int timed_out;         /* --timeout hit */
    int interrupted;       /* npuscope got SIGINT/SIGTERM during the run */
    int disturbed;         /* npuscope was stopped (SIGSTOP) while the command ran
                            * on: wall_s holds the pause; kept, not counted */
    int detached;          /* processes the command left running outside its
                            * process group (reported, ended with the run) */
    char *error;           /* why it did not run, or NULL */
    ns_metric *metrics;    /* metrics found in the output */
    int nmetrics;          /* entries in metrics */
    unsigned long long stdout_bytes; /* bytes the command wrote on stdout */
    unsigned long long stderr_bytes; /* bytes the command wrote on stderr */
    struct ns_report **reports;      /* reports found in its output (read back) */
    int nreports;                    /* entries in reports */
    int compiles;                    /* its reports that start a compile, counted
                                        when read (before a --report N cut): a
                                        warm run that compiled missed its cache */
    char *host;                      /* "name, os, N cpus" as run.json's "host" says,
                                        or NULL (read with the run: the page's
                                        method section tallies hosts) */
    struct ns_failure *failure;      /* the compile's first failure as its log
                                        said it (model/load.h), or NULL */
    ns_kvlist environment;           /* what the NPU stack logged about itself
                                        (model/load.h; not env, what npuscope set) */
} ns_run;

int ns_run_ok(const ns_run *r);
void ns_run_free(ns_run *r);
/* Free r's reports only (reports NULL, nreports 0): a command that keeps
 * the runs but needs only summaries of their trees drops each run's trees
 * once it has what it needs (parse/run_read.h, ns_run_folder_each). */
void ns_run_free_reports(ns_run *r);

/* ====== Metrics of a run ====== */
/* Set metric `name` of r to value (adding it; count 1). */
void ns_run_set_metric(ns_run *r, const char *name, double value);
/* Which way a metric improves, read off its name (rules carry no unit):
 * 1 when a higher value is better -- a rate, whose name ends in _per_s,
 * _per_sec, _per_second, _fps, _tps or _qps, or contains "throughput";
 * 0 when a lower one is -- times, memory, sizes, counts: every other
 * name.  Name a --metric accordingly.  A property of the name alone, so it
 * lives with the run model: capture records metrics, analyse compares
 * them, and both ask the same question here. */
int ns_metric_higher_is_better(const char *name);

#endif
