/* plat_posix.c -- plat.h on POSIX (Linux first: /proc, renameat2).
 *
 * Each function is what the caller did itself before the platform layer
 * existed, moved here unchanged in what it does: the output folder's lock
 * is an flock (dropped by the kernel however npuscope ends), a run folder
 * is published with renameat2(RENAME_NOREPLACE) where the kernel has it,
 * a mapped file that shrinks is caught as SIGBUS, and watch asks /proc
 * which processes hold a file open for writing.  Windows: plat_win32.c.
 */
#ifndef _WIN32
#define _GNU_SOURCE 1 /* flock, syscall, realpath, lstat, fnmatch */
#include "platform/plat.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

void ns_plat_init(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
}

/* ====== Files ====== */

long ns_plat_pid(void) { return (long)getpid(); }
int ns_plat_mkdir(const char *path, int mode) { return mkdir(path, (mode_t)mode); }
int ns_plat_lstat(const char *path, struct stat *st) { return lstat(path, st); }
int ns_plat_is_link(const struct stat *st) { return S_ISLNK(st->st_mode); }
char *ns_plat_realpath(const char *path) { return realpath(path, NULL); }

int ns_plat_rename_new(const char *from, const char *to) {
#if defined(SYS_renameat2)
    long r = syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 1 /* RENAME_NOREPLACE */);
    if (r == 0) return 0;
    if (errno == EEXIST) return 1;
    if (errno != ENOSYS && errno != EINVAL) return -1;
#endif
    /* rename() replaces only an empty directory, never a run */
    if (rename(from, to) == 0) return 0;
    return errno == EEXIST || errno == ENOTEMPTY ? 1 : -1;
}

int ns_plat_rename_over(const char *from, const char *to) { return rename(from, to); }

int ns_plat_fnmatch(const char *pat, const char *name) {
    return fnmatch(pat, name, FNM_PERIOD) == 0;
}

void ns_plat_host(char *name, size_t nname, char *os, size_t nos) {
    struct utsname u;
    snprintf(name, nname, "?");
    snprintf(os, nos, "?");
    if (uname(&u) == 0) {
        snprintf(name, nname, "%s", u.nodename);
        snprintf(os, nos, "%s %s %s", u.sysname, u.release, u.machine);
    }
}

const char *ns_plat_signame(int sig) {
    static const struct { int sig; const char *name; } t[] = {
        {SIGHUP, "SIGHUP"}, {SIGINT, "SIGINT"}, {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},
        {SIGABRT, "SIGABRT"}, {SIGFPE, "SIGFPE"}, {SIGKILL, "SIGKILL"}, {SIGSEGV, "SIGSEGV"},
        {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGBUS, "SIGBUS"},
        {SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"}, {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].sig == sig) return t[i].name;
    return NULL;
}

long ns_plat_cpus(void) { return sysconf(_SC_NPROCESSORS_ONLN); }

/* ====== The lock ====== */

int ns_plat_lock(const char *path, int *fd, char *owner, size_t nowner) {
    *fd = -1;
    if (nowner) owner[0] = 0;
    int f = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (f < 0) return -1;
    if (flock(f, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        if (nowner) {
            ssize_t got = pread(f, owner, nowner - 1, 0);
            owner[got > 0 ? got : 0] = 0;
        }
        close(f);
        errno = e;
        return e == EWOULDBLOCK ? 1 : -1;
    }
    *fd = f;
    return 0;
}

void ns_plat_lock_note(int fd, const char *text) {
    size_t len = strlen(text);
    if (ftruncate(fd, 0) != 0 || pwrite(fd, text, len, 0) != (ssize_t)len) {
        /* the lock holds without the note; the next one's message says less */
    }
}

void ns_plat_unlock(int fd) {
    if (fd >= 0) close(fd); /* closing drops the flock */
}

/* ====== Mapping ====== */

size_t ns_plat_page(void) {
    long pg = sysconf(_SC_PAGESIZE);
    return pg > 0 ? (size_t)pg : 4096;
}

void *ns_plat_map(int fd, size_t size) {
    void *at = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (at == MAP_FAILED) return NULL;
    posix_madvise(at, size, POSIX_MADV_SEQUENTIAL); /* read ahead far; a hint */
    return at;
}

void ns_plat_unmap(void *base, size_t size, size_t from, size_t to) {
    if (to > size) to = size;
    if (base && to > from) munmap((char *)base + from, to - from);
}

static const char *(*ns__shrink_name)(void);
static int ns__shrink_code;
static struct sigaction ns__was_bus;

/* Only async-signal-safe calls: write, _exit, signal, raise. */
static void ns__on_sigbus(int sig) {
    const char *name = ns__shrink_name ? ns__shrink_name() : NULL;
    if (name) {
        static const char pre[] = "npuscope: ", post[] = ": the file shrank while it was read\n";
        size_t n = 0;
        while (name[n]) n++;
        ssize_t w = write(2, pre, sizeof pre - 1);
        w = write(2, name, n);
        w = write(2, post, sizeof post - 1);
        (void)w;
        _exit(ns__shrink_code);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void ns_plat_catch_shrink(const char *(*name)(void), int code) {
    ns__shrink_name = name;
    ns__shrink_code = code;
    struct sigaction bus;
    memset(&bus, 0, sizeof bus);
    bus.sa_handler = ns__on_sigbus;
    sigemptyset(&bus.sa_mask);
    sigaction(SIGBUS, &bus, &ns__was_bus);
}

void ns_plat_release_shrink(void) { sigaction(SIGBUS, &ns__was_bus, NULL); }

/* ====== The terminal ====== */

int ns_plat_isatty(int fd) { return isatty(fd); }

int ns_plat_term_width(int fd) {
#ifdef TIOCGWINSZ
    struct winsize ws;
    if (fd >= 0 && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
#else
    (void)fd;
#endif
    return 0;
}

/* ====== Stopping ====== */

/* fn on SIGINT, SIGTERM and (unless ignored) SIGHUP; what was, into was[] */
static void ns__stop_install(void (*fn)(int), struct sigaction was[3]) {
    struct sigaction sa, hup;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: a blocking call must return at once */
    sigaction(SIGINT, &sa, &was[0]);
    sigaction(SIGTERM, &sa, &was[1]);
    /* a SIGHUP npuscope was started with ignored (nohup) stays ignored */
    if (sigaction(SIGHUP, NULL, &hup) == 0 && hup.sa_handler != SIG_IGN)
        sigaction(SIGHUP, &sa, &was[2]);
    else
        was[2] = hup;
}

void ns_plat_on_stop(void (*fn)(int)) {
    struct sigaction was[3];
    ns__stop_install(fn, was);
}

static struct sigaction ns__held[3], ns__held_xfsz; /* what a hold replaced */

void ns_plat_hold_stop(void (*fn)(int)) {
    ns__stop_install(fn, ns__held);
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN; /* a file size limit is a write error, not a death */
    sigaction(SIGXFSZ, &ign, &ns__held_xfsz);
}

void ns_plat_release_stop(void) {
    static const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++) sigaction(sigs[i], &ns__held[i], NULL);
    sigaction(SIGXFSZ, &ns__held_xfsz, NULL);
}

void ns_plat_die_by(int sig) {
    signal(sig, SIG_DFL);
    raise(sig);
}

int ns_plat_fd_usual_mode(int fd) {
    mode_t mask = umask(0);
    umask(mask);
    return fchmod(fd, 0666 & ~mask);
}

/* ====== The process ====== */

void ns_plat_std_fds_open(void) {
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
        int nul = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (nul >= 0 && nul != fd) { /* lower ones are open: nul is fd */
            dup2(nul, fd);
            close(nul);
        }
    }
}

/* SIGHUP for a command that installs nothing of its own: say it, then end
 * as the signal ends a process (a shell sees 129).  Async-signal-safe. */
static void ns__on_hup_default(int sig) {
    static const char msg[] = "npuscope: hangup (SIGHUP): the terminal or session went away; "
                              "stopped\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    ns_plat_die_by(sig);
}

void ns_plat_on_hangup_say(void) {
    struct sigaction sa, was;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = ns__on_hup_default;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGHUP, NULL, &was) == 0 && was.sa_handler != SIG_IGN)
        sigaction(SIGHUP, &sa, NULL);
}

/* ====== Watching ====== */

/* 1: a process other than us has the file (dev, ino) open for writing;
 * 0: none; -1: /proc cannot tell. */
static int ns__writers(dev_t dev, ino_t ino) {
    DIR *proc = opendir("/proc");
    if (!proc) return -1;
    int found = 0, looked = 0;
    pid_t self = getpid();
    struct dirent *p;
    char path[300], info[600], buf[256];
    while (!found && (p = readdir(proc))) {
        if (p->d_name[0] < '1' || p->d_name[0] > '9' || atol(p->d_name) == self) continue;
        snprintf(path, sizeof path, "/proc/%s/fd", p->d_name);
        DIR *fds = opendir(path);
        if (!fds) continue;
        looked = 1;
        struct dirent *f;
        while (!found && (f = readdir(fds))) {
            if (f->d_name[0] == '.') continue;
            snprintf(info, sizeof info, "%s/%s", path, f->d_name);
            struct stat st;
            if (stat(info, &st) != 0 || st.st_dev != dev || st.st_ino != ino) continue;
            /* the open mode: fdinfo's "flags:" in octal, O_ACCMODE its last bits */
            snprintf(info, sizeof info, "/proc/%s/fdinfo/%s", p->d_name, f->d_name);
            int fd = open(info, O_RDONLY);
            if (fd < 0) continue;
            ssize_t n = read(fd, buf, sizeof buf - 1);
            close(fd);
            if (n <= 0) continue;
            buf[n] = 0;
            const char *fl = strstr(buf, "flags:");
            if (fl && (strtol(fl + 6, NULL, 8) & O_ACCMODE) != O_RDONLY) found = 1;
        }
        closedir(fds);
    }
    closedir(proc);
    return found ? 1 : looked ? 0 : -1;
}

int ns_plat_writers(const char *path, int fd) {
    (void)path;
    struct stat st;
    if (fstat(fd, &st) != 0) return -1;
    return ns__writers(st.st_dev, st.st_ino);
}

void ns_plat_sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

#else
typedef int ns__plat_posix_unused; /* ISO C: a unit is never empty */
#endif
