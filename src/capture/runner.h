/* runner.h -- one planned run, from an id to a published run folder.
 *
 * record and sweep decide *what* to run (ids, argv, tags, modes); the runner
 * does each run the same way: temporary folder, environment (preset, --env,
 * NPUSCOPE_*), cache directory for the mode, capture, metrics, the reports
 * found in the output, run.json, and the rename into place.  A run that was
 * interrupted is kept under a dot-name (.interrupted-...) so that its data
 * survives while a resumed sweep runs it again.
 */
#ifndef NPUSCOPE_RUNNER_H
#define NPUSCOPE_RUNNER_H

#include "capture/metrics.h"
#include "model/runs.h"

typedef struct {
    const char *out_dir;   /* where run folders go */
    const char *preset;    /* "npu", "mlir" or "none" */
    double timeout_s;      /* 0: none */
    double grace_s;        /* SIGTERM -> SIGKILL delay */
    int show_output;       /* copy the command's output to ours */
    ns_metric_set metrics; /* rules applied to every run's output */
    char **collect;        /* --collect FILE: copied into the run folder */
    int ncollect;          /* entries in collect */
    const char *npuw;      /* NPUW layout to label the reports, or NULL */
    struct ns_live *live;  /* the status line the output also goes to, or NULL */
    int no_npu;            /* --no-npu: an output that shows itself an NPU compile's
                            * is not read for its facts unless the npu preset or
                            * npuw asks */
} ns_runner;

typedef struct {
    const char *id;        /* run id (folder name) */
    char **argv;           /* command, NULL-terminated */
    const ns_kvlist *env;  /* --env values (already substituted) */
    const ns_kvlist *params; /* sweep axis values (NPUSCOPE_PARAM_*), or NULL */
    const ns_kvlist *tags; /* axis values and --tag labels */
    const char *mode;      /* "cold", "warm" or "none" */
    const char *cache_key; /* warm mode: names the persistent cache folder */
    int repeat;            /* 1-based */
    int warmup;            /* a --warmup run */
} ns_run_spec;

typedef enum {
    NS_RUN_DONE,        /* published; see the run's ok flag */
    NS_RUN_EXISTS,      /* a run with this id was already there: skipped */
    NS_RUN_INTERRUPTED, /* stopped by SIGINT/SIGTERM: kept as .interrupted-* */
    NS_RUN_FAILED,      /* could not be written (disk full, permissions) */
} ns_run_outcome;

/* Run spec; on NS_RUN_DONE and NS_RUN_INTERRUPTED *out holds the run (the
 * caller frees it with ns_run_free). */
ns_run_outcome ns_runner_run(ns_runner *rn, const ns_run_spec *spec, ns_run *out);

#endif
