/* capture.c -- fork, exec, drain, measure (see capture.h).
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
 */
/* wait4() is BSD and Linux, not POSIX; it is the only way to get the
 * resource usage (peak RSS above all) of one child rather than of all
 * children so far.  F_SETPIPE_SZ (the pipes' size) is Linux's, declared
 * for _GNU_SOURCE, which includes the rest. */
#define _GNU_SOURCE 1
#include "capture/capture.h"

#include "capture/watchdog.h"
#include "base/path.h"

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

#define NS__CHUNK (256u << 10)    /* bytes read from a pipe at a time (stays in L2) */
#define NS__PIPE_SIZE (1u << 20)  /* the pipes' capacity, where it can be set */
#define NS__DRAIN_AFTER_EXIT 2.0  /* seconds to keep reading after exit */

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

void ns_capture_install_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = ns__on_stop;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: poll() must return at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN); /* a full or limited disk is an error to report */
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

    for (;;) {
        int open_fds = (fds[0] >= 0) + (fds[1] >= 0);
        double now = ns__now();
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
            }
        }
    }
    free(buf);
    if (!reaped) { /* poll failed: do not leave the child behind */
        kill(-pid, SIGKILL);
        while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {}
        t_end = ns__now();
    }
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
