/* proc.h -- run one command and keep everything it says.
 *
 * The NPU compiler prints its timing report from native code on stdout, so
 * the only reliable place to catch it is the file descriptor: the child's
 * stdout and stderr are pipes that npuscope drains with poll() and writes to
 * stdout.log / stderr.log as the bytes arrive.  The command runs without a
 * shell, in its own process group, so a timeout or an interrupt reaches
 * everything it started.
 *
 * Two implementations: proc_posix.c (fork, exec, poll, wait4; the
 * watchdog of watchdog.h) and proc_win32.c (CreateProcessW in a Job
 * Object, pipes drained with PeekNamedPipe, a console control handler).
 */
#ifndef NPUSCOPE_PROC_H
#define NPUSCOPE_PROC_H

#include "base/common.h"
#include "base/kv.h"

typedef struct {
    char *const *argv;     /* the command; argv[0] is looked up in PATH */
    const ns_kvlist *env;  /* variables set for the child, on top of ours */
    const char *dir;       /* folder for stdout.log and stderr.log */
    double timeout_s;      /* 0: none; then SIGTERM to the group */
    double grace_s;        /* after SIGTERM, SIGKILL this much later */
    int show_output;       /* also copy the output to our stdout/stderr */
    /* Each piece of output as it is drained, after it is written to its log
     * (stream 0 stdout, 1 stderr), or NULL: what reads the output does so
     * while the compile runs, and nothing is read again after it ends. */
    void (*on_output)(void *ctx, int stream, const char *buf, size_t n);
    void *ctx;             /* on_output's and on_tick's context */
    /* Called on every turn of the loop (at least ten times a second while
     * the command runs), or NULL: a status line redraws from here. */
    void (*on_tick)(void *ctx);
} ns_capture_opts;

typedef struct {
    double wall_s;         /* monotonic, from fork to reaping the child */
    double user_s;         /* user CPU of the child and its waited-for children */
    double sys_s;          /* system CPU, likewise */
    double peak_rss_mb;    /* largest resident set among them (ru_maxrss) */
    int exit_code;         /* -1 when killed or not started */
    int signal;            /* the signal that ended the child, or 0 */
    int timed_out;         /* the timeout fired */
    int interrupted;       /* npuscope was asked to stop during the run */
    int exec_errno;        /* the command could not be started: errno */
    int io_errno;          /* writing a log failed: errno (output lost!) */
    char started_at[32];   /* ISO 8601 UTC, second precision */
    char started_clock[24]; /* local time of day at the start, "HH:MM:SS.mmm"
                             * (the clock the NPU stack's log lines use) */
    unsigned long long out_bytes; /* bytes read from the child's stdout */
    unsigned long long err_bytes; /* bytes read from the child's stderr */
    double paused_s;       /* npuscope and the command stopped together (SIGTSTP,
                            * Ctrl-Z): left out of wall_s and of the timeout */
    int disturbed;         /* npuscope was stopped (SIGSTOP) or stalled while the
                            * command ran on: wall_s holds the pause */
    int detached;          /* processes the command started that left its process
                            * group and outlived it (Linux: ended with the run) */
} ns_capture_result;

/* Install SIGINT/SIGTERM/SIGHUP handlers that make ns_capture_run forward
 * the signal to the child's group and return with `interrupted` set, and
 * the job control ones: SIGTSTP (Ctrl-Z) stops the command's group with
 * npuscope, SIGCONT resumes it, and the time stopped is left out of the
 * run's wall time and timeout.  npuscope stopped by SIGSTOP (which cannot
 * be caught) while the command ran on is seen when it continues: the run is
 * marked `disturbed`. */
void ns_capture_install_signals(void);
/* Was a stop requested (SIGINT/SIGTERM/SIGHUP) since the handlers were installed?
 * Returns the signal number, or 0. */
int ns_capture_stop_requested(void);

/* Run the command; returns 0 when it ran (whatever its exit status), -1 when
 * the logs could not be created (message printed). */
int ns_capture_run(const ns_capture_opts *o, ns_capture_result *res);

#endif
