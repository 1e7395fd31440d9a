/* outdir.h -- an output folder of record/sweep, held by one npuscope at a
 * time.
 *
 * Two sweeps into one folder do not merely race for run ids (the write-once
 * rename settles that): both run every compile under double load, so what
 * is kept was measured on a machine doing twice the work, and the loser's
 * compiles are thrown away.  So a recording takes the folder first: an
 * flock() on DIR/.npuscope.lock, which the kernel releases however the
 * holder ends (kill -9 included), so a stale lock cannot exist; the file
 * also names the holder's pid and start time for the message.
 *
 * While it holds the folder, a recording knows that any `.tmp-*` run folder
 * in it was left by an npuscope that died mid-run (its cold cache can be
 * gigabytes): it removes them and says how much it freed.  `.interrupted-*`
 * folders are kept, as documented: they are there to be looked at.
 */
#ifndef NPUSCOPE_OUTDIR_H
#define NPUSCOPE_OUTDIR_H

#include <stddef.h>

typedef struct {
    int fd;          /* the open, locked DIR/.npuscope.lock; -1: not held */
} ns_outdir_lock;

/* Lock DIR (which exists).  Returns 0; 1 when another npuscope holds it
 * (*why: "in use by npuscope pid 123 (since ...)", in a buffer of the
 * lock's); -1 on an I/O error (*why: what failed).  The lock's fd is
 * close-on-exec: a compile never holds it. */
int ns_outdir_lock_take(ns_outdir_lock *l, const char *dir, const char **why);
void ns_outdir_lock_release(ns_outdir_lock *l);

/* Remove the .tmp-* folders of DIR (call it with the lock held).  Returns
 * how many were removed, and adds their bytes to *bytes; -1 with *why when
 * one could not be removed (the others are still tried). */
int ns_outdir_clean_stale(const char *dir, unsigned long long *bytes, const char **why);

#endif
