/* watchdog_posix.c -- the guards of watchdog.h.  The watchdog is a fork of
 * npuscope that execs nothing: it closes every descriptor it inherited
 * (the run's logs, the output folder's lock) but its pipe, and waits. */
#ifndef _WIN32 /* Windows: proc_win32.c */
#define _DEFAULT_SOURCE 1
#include "platform/watchdog.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

static int ns__wd_fd = -1;  /* write end of the watchdog's pipe; -1: none */
static pid_t ns__wd_pid = 0; /* the watchdog, for ns_watchdog_stop */

/* ====== The watchdog process ====== */

/* Close every descriptor but KEEP.  Linux (5.9 on) does it in two calls,
 * close_range; elsewhere, or on an older kernel, one close() for each
 * descriptor the limit allows.  With a limit of 20000 that loop was most
 * of what a short recorded run cost: 20000 failing calls, tens of
 * milliseconds of CPU, in every run of every sweep. */
static void ns__close_all_but(int keep) {
#if defined(__linux__) && defined(SYS_close_range)
    if ((keep == 0 || syscall(SYS_close_range, 0u, (unsigned)keep - 1, 0u) == 0) &&
        syscall(SYS_close_range, (unsigned)keep + 1, ~0u, 0u) == 0)
        return;
#endif
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536) max = 65536;
    for (int fd = 0; fd < max; fd++)
        if (fd != keep) close(fd);
}

static void ns__watchdog_main(int rd) {
    setsid();
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    ns__close_all_but(rd);
    int devnull = open("/dev/null", O_RDWR); /* 0, 1, 2: nothing to say, nowhere */
    if (devnull >= 0) {
        dup2(devnull, 1);
        dup2(devnull, 2);
    }
    int32_t pgid = 0, msg;
    for (;;) {
        ssize_t got = read(rd, &msg, sizeof msg);
        if (got == (ssize_t)sizeof msg) {
            pgid = msg;
            continue;
        }
        if (got < 0 && errno == EINTR) continue;
        break; /* EOF (or an error): npuscope is gone */
    }
    if (pgid > 0) kill(-(pid_t)pgid, SIGKILL);
    _exit(0);
}

/* ====== npuscope's side ====== */

int ns_watchdog_start(void) {
    if (ns__wd_fd >= 0) return 0;
    int p[2];
    if (pipe(p) != 0) return -1;
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(p[0]);
        close(p[1]);
        errno = e;
        return -1;
    }
    if (pid == 0) {
        close(p[1]);
        ns__watchdog_main(p[0]);
    }
    close(p[0]);
    fcntl(p[1], F_SETFD, FD_CLOEXEC); /* no compile holds it open */
    ns__wd_fd = p[1];
    ns__wd_pid = pid;
    return 0;
}

void ns_watchdog_watch(pid_t pgid) {
    if (ns__wd_fd < 0) return;
    int32_t msg = (int32_t)pgid;
    ssize_t w;
    do w = write(ns__wd_fd, &msg, sizeof msg);
    while (w < 0 && errno == EINTR);
}

void ns_watchdog_stop(void) {
    if (ns__wd_fd < 0) return;
    close(ns__wd_fd); /* a group still watched (strays of the last run) dies now */
    ns__wd_fd = -1;
    while (waitpid(ns__wd_pid, NULL, 0) < 0 && errno == EINTR) {}
    ns__wd_pid = 0;
}

pid_t ns_watchdog_pid(void) { return ns__wd_pid; }

void ns_watchdog_child(pid_t parent) {
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() != parent) _exit(127); /* npuscope died before we got here */
}

#else
typedef int ns__watchdog_posix_unused; /* ISO C: a unit is never empty */
#endif
