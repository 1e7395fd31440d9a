/* watchdog.h -- a compile never outlives npuscope.
 *
 * A compile runs in a process group of its own (so a timeout or Ctrl-C
 * reaches all it started), which also means that when npuscope itself is
 * killed -- kill -9, an OOM kill, a CI job cancelled -- nothing takes the
 * compile down with it: it runs on as an orphan, competing with the resumed
 * sweep and, in warm mode, writing into the cache folder the next run
 * reads.  Two guards, because either alone has a hole:
 *
 *   - the child asks the kernel for SIGKILL when its parent dies
 *     (PR_SET_PDEATHSIG, Linux); that reaches the compile's first process
 *     only, not what it started;
 *   - a watchdog process, started once per npuscope in a session of its own
 *     (so a signal to npuscope's group does not reach it), holds the read
 *     end of a pipe only npuscope writes to.  npuscope tells it the
 *     process group of the compile now running; when the pipe closes --
 *     which the kernel does however npuscope ends -- the watchdog kills that
 *     group and exits.
 * A normal end tells the watchdog "none" (group 0) before the pipe closes.
 */
#ifndef NPUSCOPE_WATCHDOG_H
#define NPUSCOPE_WATCHDOG_H

#include <sys/types.h>

/* Start the watchdog if it is not running; returns 0, or -1 (errno set):
 * the caller goes on without it, the child's PDEATHSIG still guards. */
int ns_watchdog_start(void);
/* The process group that must die with npuscope (0: none). */
void ns_watchdog_watch(pid_t pgid);
/* A normal end: close the pipe -- processes the last command left running
 * in its group are killed, as on any end -- and wait for the watchdog, so
 * it leaves no zombie for init to reap. */
void ns_watchdog_stop(void);
/* The watchdog's pid, or 0: a child of npuscope that is not the command's. */
pid_t ns_watchdog_pid(void);
/* In the forked child, before exec: SIGKILL when the parent dies.  parent
 * is the pid of npuscope (a parent that is already gone means exit now). */
void ns_watchdog_child(pid_t parent);

#endif
