/* rundir.h -- write-once run folders and run.json.
 *
 * A run is built in DIR/.tmp-<id>-<pid>-<n>/ and, once run.json is written
 * and synced, renamed to DIR/<id> with renameat2(RENAME_NOREPLACE) where the
 * kernel has it.  Elsewhere plain rename() keeps the same promise: it can
 * only replace an *empty* directory, and a published run folder is never
 * empty.  Readers skip names that start with '.', so they never see a run
 * being written; a crash leaves only a .tmp folder behind.
 */
#ifndef NPUSCOPE_RUNDIR_H
#define NPUSCOPE_RUNDIR_H

#include "model/report.h"
#include "model/runs.h"

/* mkdir -p; returns 0 or -1 with a message. */
int ns_mkdirs(const char *path);
/* Does DIR/id exist (as anything)? */
int ns_run_exists(const char *dir, const char *id);
/* Create a fresh temporary folder for run `id` in dir; NULL with a message. */
char *ns_run_tmpdir_new(const char *dir, const char *id);
/* Move tmp to dir/id without replacing anything.  Returns 0; 1 when dir/id
 * appeared meanwhile (tmp is left alone); -1 on another error (message). */
int ns_run_publish(const char *tmp, const char *dir, const char *id);
/* Remove a folder and everything in it (used for temporary folders and
 * cold-run caches).  Returns 0 or -1. */
int ns_rmtree(const char *path);
/* Write dir/run.json for run r with its reports, and fsync it.  Returns 0,
 * or an errno value (nothing is published then). */
int ns_run_write_json(const char *dir, const ns_run *r, ns_report *const *reports,
                      int nreports);

#endif
