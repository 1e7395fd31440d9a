/* collect.h -- which files `record --collect` may copy into a run folder.
 *
 * --collect exists for the compiler's debug files, which it writes under
 * fixed names into its working directory.  So a name is a path inside the
 * working directory npuscope and the compile share (relative, or absolute
 * below it), never one that climbs out with '..', never a folder, never a
 * link that leads out; and its base name may not be one the run folder
 * already uses (run.json, stdout.log, stderr.log) or a hidden one.  A name
 * that breaks the rule is refused when the options are read, before any
 * compile runs; a link that leads out is refused when the file is copied.
 * A name may hold wildcards ('*', '?', '[...]', as fnmatch reads them) in
 * its file name, not in its folder: `--collect 'strategy_dump_*.json'`
 * takes every file of that name pattern the run wrote (the compiler names
 * its strategy dump after the model), each under the same rules; hidden
 * names and the run folder's own never match.
 * Nothing here prints: each check returns a reason.
 */
#ifndef NPUSCOPE_COLLECT_H
#define NPUSCOPE_COLLECT_H

/* Is NAME acceptable for --collect?  Returns NULL, or why not. */
const char *ns_collect_refusal(const char *name);
/* The names NAME stands for now: NAME itself when it has no wildcard
 * (whether or not it exists), else the matching entries of its folder in
 * name order (none: 0).  *out is a new array of new strings. */
int ns_collect_expand(const char *name, char ***out);
/* Where NAME really is, if that is inside the working directory: the
 * resolved path (free it), or NULL with *why ("no such file", "outside the
 * working directory", "not a regular file"). */
char *ns_collect_resolve_new(const char *name, const char **why);

#endif
