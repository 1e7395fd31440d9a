/* run_read.h -- run folders read back: run.json into ns_run.
 *
 * `table` (and later `fit`, `diff`, `report`) take a run folder or a folder
 * of run folders and need the runs in it.  This is the reading half of the
 * run folder contract in runs.h; `record` owns the writing half.
 *
 * A folder is a run folder when it holds a run.json; otherwise each of its
 * subfolders that holds one is a run, in the order of their names (run ids),
 * except names starting with '.', which are runs still being written
 * (record builds a run under a temporary dot-name and renames it into
 * place).  Only one level is looked at.
 *
 * Reading is lenient about what it can do without and strict about what it
 * cannot: a run.json that is not JSON, or whose fields have the wrong type,
 * is one warning to the caller's sink (printed by the commands as
 * "npuscope: DIR/ID/run.json:LINE: warning: ...; run skipped", the line of
 * the offending member where it can be found) and the run is skipped;
 * the other runs are read.  Missing optional fields take defaults (no tags,
 * mode "none", user/sys/RSS unknown = NaN); missing "wall_s" or
 * "exit_code" is an error of the run, because without them a run cannot be
 * counted or judged; so is a "version" other than 1 or 2 (a later format may
 * mean other things by the same names; 2 is 1 with a deep report's rows
 * written flat).  "ok" is not trusted: ns_run_ok
 * recomputes it from the fields it is made of; one that is not true/false
 * skips the run, one that contradicts them is a warning.  "reports" (an
 * array or null) are read back into ns_report trees (a malformed one is a
 * warning and is left out); "host" becomes one line, ns_run.host;
 * "signal_name" and the other informational members are ignored.
 *
 * Every step is linear in the file: a warning's line is looked up once per
 * member, not once per entry of it (100,000 broken reports).  The reports
 * are parsed one at a time (base/jsonscan.h), so reading costs the text and
 * the reports made, not a JSON DOM of all of them.
 */
#ifndef NPUSCOPE_RUN_READ_H
#define NPUSCOPE_RUN_READ_H

/* run.json is parsed by jansson, which follows JSON nesting to 2048 levels
 * (JSON_PARSER_MAX_DEPTH); a report's rows take two levels each below six
 * of the document's own, so a report nested about 1,021 rows deep is the
 * deepest a run.json can hold as nested rows.  `record` writes the rows
 * below depth 64 flat (render/tree_json.h), read back by tree_read.c; a
 * deeper nested one, written by another tool, is skipped with a warning
 * that says so (never "not valid JSON"). */
#define NS_RUN_JSON_MAX_DEPTH 2048
#define NS_RUN_JSON_MAX_ROWS 1021

#include "model/runs.h"

/* Append the runs of `dir` (a run folder, or a folder of run folders) to
 * *runs / *nruns (the array is grown with realloc to powers of two, so it
 * must be NULL/0 or one these readers grew; free each run with
 * ns_run_free, then the array).  A run that cannot be read is a warning to
 * d ("...; run skipped") and is left out.  Returns the number of runs
 * appended, or -1 (an error to d) when dir does not exist, is not a folder
 * or cannot be listed.  The commands read through ns_runs_read
 * (analyse/dataset.h), which prints. */
int ns_run_folder_read(const char *dir, ns_run **runs, int *nruns, const ns_diag *d);

/* Runs one at a time: fn is called with each run read, in the order above,
 * and owns it from then on (it frees it with ns_run_free or keeps it).  A
 * command that needs only summaries of the runs keeps what it needs of
 * each and frees the trees before the next is read, so its memory does not
 * grow with the trees of a 100,000-run history.  Returns as
 * ns_run_folder_read. */
typedef void (*ns_run_fn)(ns_run *r, void *ctx);
int ns_run_folder_each(const char *dir, ns_run_fn fn, void *ctx, const ns_diag *d);

/* Read one run.json at `path` into *r, naming the run `id`.  Returns 0
 * (warnings about reports left out go to d), or -1 with the reason in
 * *why and *r left empty. */
int ns_run_load(const char *path, const char *id, ns_run *r, const ns_diag *d, ns_why *why);

#endif
