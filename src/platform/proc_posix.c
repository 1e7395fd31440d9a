/* proc_posix.c -- fork, exec, drain, measure (see proc.h).
 *
 * How it works:
 *   - three pipes: the child's stdout, its stderr, and a close-on-exec pipe
 *     on which the child writes errno if execvp fails (so "command not found"
 *     is told apart from a command that exits 127);
 *   - the child makes its own process group, gets /dev/null as stdin, the
 *     variables of opts->env on top of ours, and execvp's the argv as is: no
 *     shell ever sees an argument;
 *   - the parent polls both pipes and writes each chunk to its log at once,
 *     so nothing is lost at any output rate and a crash of npuscope leaves
 *     the logs as far as they got;
 *   - timeouts and interrupts go to the whole group: SIGTERM (or the signal
 *     npuscope got), then SIGKILL after the grace period;
 *   - wait4 gives the child's resource usage, which includes its waited-for
 *     descendants: user and system time summed, ru_maxrss the largest
 *     resident set among them (what /usr/bin/time reports).
 * If a background process inherits the pipes and keeps them open after the
 * command exits, we stop reading 2 s later rather than hang, and say so.
 *
 * Job control.  The command runs in its own process group, so Ctrl-Z (the
 * terminal's SIGTSTP to npuscope's group) would stop npuscope alone while
 * the compile ran on and its wall time absorbed the pause.  npuscope's
 * SIGTSTP handler stops the command's group first, then itself; on SIGCONT
 * it resumes the group, and the time stopped is left out of the wall time
 * and the timeout's clock.  SIGSTOP cannot be caught: the command runs on
 * while npuscope is stopped.  When it continues, the SIGCONT that ended no
 * stop of ours (or a turn of the capture loop NS__GAP_S longer than its
 * poll: starved) marks the run `disturbed`: its wall time holds the pause,
 * so the analyses leave it out.
 *
 * Detached descendants.  A process the command starts that leaves its
 * group (double fork and setsid: a daemon, a compile server) escapes the
 * group's signals.  On Linux npuscope is a child subreaper
 * (PR_SET_CHILD_SUBREAPER), so such an orphan becomes npuscope's child
 * instead of init's: once the command has exited it is found, reported
 * (`detached`), sent SIGTERM and then SIGKILL, and reaped.  Elsewhere it
 * cannot be found.  The OS-specific pieces are small functions below, each
 * named for what it does, ready for a platform layer.
 */
/* wait4() is BSD and Linux, not POSIX; it is the only way to get the
 * resource usage (peak RSS above all) of one child rather than of all
 * children so far.  F_SETPIPE_SZ (the pipes' size) is Linux's, declared
 * for _GNU_SOURCE, which includes the rest. */
#ifndef _WIN32 /* Windows: proc_win32.c */
#define _GNU_SOURCE 1
#include "platform/proc.h"

#include "platform/watchdog.h"
#include "base/path.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#define NS__CHUNK (256u << 10)    /* bytes read from a pipe at a time (stays in L2) */
#define NS__PIPE_SIZE (1u << 20)  /* the pipes' capacity, where it can be set */
#define NS__DRAIN_AFTER_EXIT 2.0  /* seconds to keep reading after exit */
#define NS__GAP_S 5.0             /* a turn of the loop this late: npuscope was
                                   * stopped or starved while the command ran */
#define NS__DETACHED_GRACE_S 2.0  /* SIGTERM -> SIGKILL for a detached process */

/* ====== Signals ====== */

static volatile sig_atomic_t ns__stop_sig;

static void ns__on_stop(int sig) { ns__stop_sig = sig; }

/* SIGCHLD writes a byte here so that poll() wakes the moment the child
 * exits: the wall time must not include a poll timeout. */
static int ns__chld_pipe[2] = {-1, -1};

static void ns__on_chld(int sig) {
    (void)sig;
    int e = errno;
    char c = 0;
    ssize_t w = write(ns__chld_pipe[1], &c, 1);
    (void)w;
    errno = e;
}

/* ====== Job control ====== */

static volatile pid_t ns__run_group;         /* the command's group while it runs, or 0 */
static volatile sig_atomic_t ns__paused_ms;  /* time stopped by our own SIGTSTP, summed */
static volatile sig_atomic_t ns__conts;      /* SIGCONTs received */
static volatile sig_atomic_t ns__own_conts;  /* ... that ended our own SIGTSTP stop */

static long ns__ms_between(const struct timespec *a, const struct timespec *b) {
    return (long)(b->tv_sec - a->tv_sec) * 1000 + (long)(b->tv_nsec - a->tv_nsec) / 1000000;
}

/* SIGTSTP: the command's group stops with us, and goes on with us.
 * Async-signal-safe (kill, raise, clock_gettime); SIGCONT is blocked while
 * it runs, so the SIGCONT handler runs after it has counted its own. */
static void ns__on_tstp(int sig) {
    (void)sig;
    int e = errno;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    pid_t g = ns__run_group;
    if (g > 0) kill(-g, SIGSTOP);
    raise(SIGSTOP); /* here until SIGCONT */
    if (g > 0) kill(-g, SIGCONT);
    clock_gettime(CLOCK_MONOTONIC, &b);
    if (g > 0) ns__paused_ms += (sig_atomic_t)ns__ms_between(&a, &b);
    ns__own_conts++;
    errno = e;
}

/* SIGCONT: counted (one that ends no stop of ours ended a SIGSTOP), and
 * the group resumed in case it was stopped with us. */
static void ns__on_cont(int sig) {
    (void)sig;
    int e = errno;
    ns__conts++;
    pid_t g = ns__run_group;
    if (g > 0) kill(-g, SIGCONT);
    errno = e;
}

static void ns__job_control_install(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGCONT);
    sa.sa_handler = ns__on_tstp;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGTSTP, &sa, NULL);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = ns__on_cont;
    sigaction(SIGCONT, &sa, NULL);
}

/* SIGCONTs that ended a stop which was not ours (SIGSTOP) so far. */
static int ns__foreign_conts(void) { return (int)(ns__conts - ns__own_conts); }

void ns_capture_install_signals(void) {
    struct sigaction sa, was;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = ns__on_stop;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: poll() must return at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* the terminal went away: stop as for SIGTERM, and say so (nohup: ignored) */
    if (sigaction(SIGHUP, NULL, &was) == 0 && was.sa_handler != SIG_IGN)
        sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN); /* a full or limited disk is an error to report */
    ns__job_control_install();
}

/* ====== Detached descendants ====== */

/* Orphans of the command's tree become our children (Linux), not init's. */
static void ns__subreaper_on(void) {
#ifdef __linux__
    (void)prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
}

/* Our children other than `except` (the watchdog), from /proc: up to max
 * pids into out, their process groups into pgrp, 1 in zombie for those
 * that have exited.  Returns how many (0 where /proc cannot tell). */
static int ns__children(pid_t except, pid_t *out, pid_t *pgrp, int *zombie, int max) {
    DIR *d = opendir("/proc");
    if (!d) return 0;
    pid_t self = getpid();
    int n = 0;
    struct dirent *e;
    char path[64], buf[512];
    while (n < max && (e = readdir(d))) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
        snprintf(path, sizeof path, "/proc/%.20s/stat", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        ssize_t got = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (got <= 0) continue;
        buf[got] = 0;
        /* "pid (comm) S ppid pgrp ...": comm may hold anything, so from its last ')' */
        const char *rp = strrchr(buf, ')');
        char state;
        long ppid, pg;
        if (!rp || sscanf(rp + 1, " %c %ld %ld", &state, &ppid, &pg) != 3) continue;
        pid_t pid = (pid_t)atol(e->d_name);
        if (ppid != self || pid == except) continue;
        out[n] = pid;
        pgrp[n] = (pid_t)pg;
        zombie[n] = state == 'Z';
        n++;
    }
    closedir(d);
    return n;
}

/* After the command exited: its descendants that left its group and are
 * now ours are reported, ended (SIGTERM, SIGKILL after a grace) and reaped;
 * exited ones are reaped.  Returns how many were detached and alive. */
static int ns__end_detached(pid_t group, pid_t watchdog, const char *cmd) {
    enum { MAX = 64 };
    pid_t pids[MAX], pgrp[MAX];
    int zombie[MAX], detached = 0;
    int n = ns__children(watchdog, pids, pgrp, zombie, MAX);
    for (int i = 0; i < n; i++) {
        if (zombie[i]) {
            while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR) {}
            continue;
        }
        if (pgrp[i] == group) continue; /* a stray in the group: the watchdog's */
        detached++;
        ns_warn_at(NULL, 0, "%s: a process it started (pid %ld) left its process group and "
                            "outlived it; ended with the run",
                   cmd, (long)pids[i]);
        /* its own group, if it leads one (setsid), else itself */
        pid_t target = pgrp[i] == pids[i] ? -pids[i] : pids[i];
        kill(target, SIGTERM);
        kill(pids[i], SIGCONT);
        struct timespec nap = {0, 20 * 1000000L};
        int gone = 0;
        for (int k = 0; k < (int)(NS__DETACHED_GRACE_S * 50) && !gone; k++) {
            pid_t w = waitpid(pids[i], NULL, WNOHANG);
            if (w == pids[i] || (w < 0 && errno == ECHILD)) gone = 1;
            else nanosleep(&nap, NULL);
        }
        if (!gone) {
            kill(target, SIGKILL);
            while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR) {}
        }
    }
    return detached;
}

int ns_capture_stop_requested(void) { return ns__stop_sig; }

/* ====== Helpers ====== */

static double ns__now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int ns__cloexec(int fd) {
    int fl = fcntl(fd, F_GETFD);
    return fl < 0 ? -1 : fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
}

static int ns__nonblock(int fd) {
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/* Write all of buf; returns 0 or an errno. */
static int ns__write_all(int fd, const char *buf, size_t n) {
    while (n) {
        ssize_t w = write(fd, buf, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

static int ns__open_log(const char *dir, const char *name) {
    char *path = ns_path_join_new(dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC, 0644);
    if (fd < 0) ns_error("%s: %s", path, strerror(errno));
    else ns__cloexec(fd);
    free(path);
    return fd;
}

/* ====== The child ====== */

static void ns__child(const ns_capture_opts *o, int out_w, int err_w, int exc_w, pid_t parent) {
    ns_watchdog_child(parent);
    setpgid(0, 0);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGXFSZ, SIG_DFL);
    signal(SIGTSTP, SIG_DFL);
    signal(SIGCONT, SIG_DFL);
    /* SIGHUP: exec resets our handler, and keeps nohup's SIG_IGN */
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0 && devnull != 0) {
        dup2(devnull, 0);
        close(devnull);
    }
    dup2(out_w, 1);
    dup2(err_w, 2);
    if (out_w > 2) close(out_w);
    if (err_w > 2) close(err_w);
    if (o->env)
        for (int i = 0; i < o->env->n; i++)
            setenv(o->env->items[i].key, o->env->items[i].value, 1);
    execvp(o->argv[0], o->argv);
    int e = errno;
    ssize_t w = write(exc_w, &e, sizeof e);
    (void)w;
    _exit(127);
}

/* ====== The parent ====== */

int ns_capture_run(const ns_capture_opts *o, ns_capture_result *res) {
    memset(res, 0, sizeof *res);
    res->exit_code = -1;
    int logs[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, exc[2] = {-1, -1};
    int rc = -1;
    logs[0] = ns__open_log(o->dir, "stdout.log");
    logs[1] = ns__open_log(o->dir, "stderr.log");
    if (logs[0] < 0 || logs[1] < 0) goto cleanup;
    if (pipe(out) || pipe(err) || pipe(exc)) {
        ns_error("pipe: %s", strerror(errno));
        goto cleanup;
    }
    /* A bigger pipe (Linux: up to /proc/sys/fs/pipe-max-size, 1 MiB by
     * default) lets a fast writer go on while we write the log: fewer
     * turns of writer, reader and poll per megabyte.  Where it cannot
     * grow, the default size is only slower. */
#ifdef F_SETPIPE_SZ
    (void)fcntl(out[1], F_SETPIPE_SZ, (int)NS__PIPE_SIZE);
    (void)fcntl(err[1], F_SETPIPE_SZ, (int)NS__PIPE_SIZE);
#endif
    ns__cloexec(out[0]);
    ns__cloexec(err[0]);
    ns__cloexec(exc[0]);
    ns__cloexec(exc[1]);

    time_t wall_now = time(NULL);
    struct tm tm;
    gmtime_r(&wall_now, &tm);
    strftime(res->started_at, sizeof res->started_at, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (ns__chld_pipe[0] < 0) {
        if (pipe(ns__chld_pipe) != 0) {
            ns_error("pipe: %s", strerror(errno));
            goto cleanup;
        }
        for (int i = 0; i < 2; i++) {
            ns__cloexec(ns__chld_pipe[i]);
            ns__nonblock(ns__chld_pipe[i]);
        }
    }
    struct sigaction chld, old_chld;
    memset(&chld, 0, sizeof chld);
    chld.sa_handler = ns__on_chld;
    sigemptyset(&chld.sa_mask);
    chld.sa_flags = SA_NOCLDSTOP;
    sigaction(SIGCHLD, &chld, &old_chld);
    /* without a watchdog the compile's first process still dies with us
     * (PDEATHSIG); what it started might not: worth a word, not a stop */
    if (ns_watchdog_start() != 0)
        ns_warn_at(NULL, 0, "cannot start the watchdog (%s): if npuscope is killed, processes "
                            "the command started may outlive it", strerror(errno));
    pid_t self = getpid();
    ns__subreaper_on();
    int foreign0 = ns__foreign_conts();
    int paused0 = ns__paused_ms;
    struct timespec rt; /* the log lines' clock (local time of day, ms), read */
    clock_gettime(CLOCK_REALTIME, &rt); /* with t0: the same start on both clocks */
    double t0 = ns__now();
    struct tm lt;
    localtime_r(&rt.tv_sec, &lt);
    snprintf(res->started_clock, sizeof res->started_clock, "%02d:%02d:%02d.%03d",
             lt.tm_hour % 24, lt.tm_min % 60, lt.tm_sec % 61, (int)(rt.tv_nsec / 1000000) % 1000);
    pid_t pid = fork();
    if (pid < 0) {
        ns_error("fork: %s", strerror(errno));
        sigaction(SIGCHLD, &old_chld, NULL);
        goto cleanup;
    }
    if (pid == 0) ns__child(o, out[1], err[1], exc[1], self);
    setpgid(pid, pid); /* both sides set it: no race with a fast signal */
    ns__run_group = pid;
    ns_watchdog_watch(pid);
    close(out[1]);
    close(err[1]);
    close(exc[1]);
    out[1] = err[1] = exc[1] = -1;

    /* exec succeeded when the close-on-exec pipe closes without data */
    int child_errno = 0;
    ssize_t got;
    do got = read(exc[0], &child_errno, sizeof child_errno);
    while (got < 0 && errno == EINTR);
    if (got == (ssize_t)sizeof child_errno) {
        int st;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
        res->exec_errno = child_errno;
        res->wall_s = ns__now() - t0;
        ns_watchdog_watch(0);
        rc = 0;
        sigaction(SIGCHLD, &old_chld, NULL);
        goto cleanup;
    }

    int fds[2] = {out[0], err[0]};
    ns__nonblock(fds[0]);
    ns__nonblock(fds[1]);
    char *buf = ns_xmalloc(NS__CHUNK);
    double deadline = o->timeout_s > 0 ? t0 + o->timeout_s : 0;
    double kill_at = 0, reaped_at = 0, t_end = 0;
    int reaped = 0, forwarded = 0, killed = 0, status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    double prev_now = t0, prev_wait = 0; /* the last turn: when, and poll's timeout */
    int conts_seen = foreign0;

    for (;;) {
        int open_fds = (fds[0] >= 0) + (fds[1] >= 0);
        double now = ns__now();
        /* stopped with the command (SIGTSTP): the clocks move on by the pause */
        int pm = ns__paused_ms;
        if (pm != paused0 && !reaped) {
            double d = (pm - paused0) / 1000.0;
            t0 += d;
            if (deadline) deadline += d;
            if (kill_at) kill_at += d;
            res->paused_s += d;
            prev_now += d;
            paused0 = pm;
        }
        /* in the last turn npuscope was stopped (SIGSTOP: a SIGCONT that
         * ended no stop of ours came), or it took far longer than its poll
         * (starved): if the command still ran then, the run is disturbed */
        int fc = ns__foreign_conts();
        double late = now - prev_now - prev_wait;
        if ((!reaped || reaped_at >= prev_now) && (late > NS__GAP_S || fc != conts_seen))
            res->disturbed = 1;
        conts_seen = fc;
        prev_now = now;
        if (reaped && (open_fds == 0 || now - reaped_at > NS__DRAIN_AFTER_EXIT)) break;

        /* stop requests, timeout, escalation */
        if (!reaped && ns__stop_sig && !forwarded) {
            kill(-pid, ns__stop_sig);
            forwarded = 1;
            res->interrupted = 1;
            kill_at = now + o->grace_s;
        }
        if (!reaped && deadline && now >= deadline && !res->timed_out) {
            kill(-pid, SIGTERM);
            res->timed_out = 1;
            kill_at = now + o->grace_s;
        }
        if (!reaped && kill_at && now >= kill_at && !killed) {
            kill(-pid, SIGKILL);
            killed = 1;
        }

        if (o->on_tick && !reaped) o->on_tick(o->ctx);
        /* how long poll may sleep: until the next thing to do, 100 ms max */
        double wait = 0.1;
        if (deadline && !res->timed_out && deadline - now < wait) wait = deadline - now;
        if (kill_at && !killed && kill_at - now < wait) wait = kill_at - now;
        if (wait < 0) wait = 0;
        prev_wait = wait;
        struct pollfd pfd[3];
        int np = 0;
        pfd[np].fd = ns__chld_pipe[0];
        pfd[np].events = POLLIN;
        pfd[np].revents = 0;
        np++;
        for (int i = 0; i < 2; i++)
            if (fds[i] >= 0) {
                pfd[np].fd = fds[i];
                pfd[np].events = POLLIN;
                pfd[np].revents = 0;
                np++;
            }
        int pr = poll(pfd, (nfds_t)np, (int)(wait * 1000) + (reaped ? 0 : 1));
        if (pr < 0 && errno != EINTR) {
            ns_error("poll: %s", strerror(errno));
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i] < 0) continue;
            for (;;) {
                ssize_t n = read(fds[i], buf, NS__CHUNK);
                if (n < 0 && errno == EINTR) continue;
                if (n < 0) break; /* EAGAIN: nothing more now */
                if (n == 0) {
                    close(fds[i]);
                    fds[i] = -1;
                    break;
                }
                if (i == 0) res->out_bytes += (unsigned long long)n;
                else res->err_bytes += (unsigned long long)n;
                if (!res->io_errno) res->io_errno = ns__write_all(logs[i], buf, (size_t)n);
                if (o->show_output) (void)ns__write_all(i == 0 ? 1 : 2, buf, (size_t)n);
                if (o->on_output) o->on_output(o->ctx, i, buf, (size_t)n);
            }
        }
        char drain[64];
        while (read(ns__chld_pipe[0], drain, sizeof drain) > 0) {}
        if (!reaped) {
            pid_t w = wait4(pid, &status, WNOHANG, &ru);
            if (w == pid) {
                reaped = 1;
                reaped_at = t_end = ns__now();
                ns__run_group = 0;
            }
        }
    }
    free(buf);
    if (!reaped) { /* poll failed: do not leave the child behind */
        kill(-pid, SIGKILL);
        while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {}
        t_end = ns__now();
    }
    ns__run_group = 0;
    res->detached = ns__end_detached(pid, ns_watchdog_pid(), o->argv[0]);
    if (fds[0] >= 0 || fds[1] >= 0)
        ns_error("%s: a process started by the command kept its output open after it "
                 "exited; output after that was not captured",
                 o->argv[0]);
    for (int i = 0; i < 2; i++)
        if (fds[i] >= 0) close(fds[i]);
    out[0] = err[0] = -1;
    /* the group is gone: nothing for the watchdog to kill; processes the
     * command left running stay watched, so they end with npuscope */
    if (kill(-pid, 0) != 0) ns_watchdog_watch(0);

    res->wall_s = t_end - t0;
    res->user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
    res->sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    res->peak_rss_mb = (double)ru.ru_maxrss / 1024.0; /* Linux: KiB */
    if (WIFEXITED(status)) res->exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) res->signal = WTERMSIG(status);
    rc = 0;
    sigaction(SIGCHLD, &old_chld, NULL);

cleanup:
    for (int i = 0; i < 2; i++) {
        if (logs[i] >= 0 && close(logs[i]) != 0 && !res->io_errno) res->io_errno = errno;
    }
    int *all[] = {out, err, exc};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++)
            if (all[i][j] >= 0) close(all[i][j]);
    return rc;
}

#else
typedef int ns__proc_posix_unused; /* ISO C: a unit is never empty */
#endif
