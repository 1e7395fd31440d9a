/* plat.h -- the operating system, asked one way on POSIX and on Windows.
 *
 * Everything npuscope does that POSIX and Win32 do differently is a
 * function here, with one implementation in plat_posix.c and one in
 * plat_win32.c (each compiled on its own system only; the other is an
 * empty unit).  Above this layer no file forks, maps, locks, handles a
 * signal or asks the terminal itself (tools/layers.sh refuses it), so a
 * port is this folder and nothing else.  The process runner has a header
 * of its own (proc.h) because it is a whole job, not a call.
 *
 * Conventions: strings are UTF-8 (the Windows side converts to UTF-16 at
 * the API); functions return 0 or -1 with errno set, unless said.
 *
 * What it leaves out: what both systems' C libraries already give the same
 * way (stdio, open/read/write/close, stat, opendir), which mingw-w64 maps
 * onto Win32 for us; the Windows build opens every file in binary mode, so
 * the bytes read and written are the bytes on disk on both.
 */
#ifndef NPUSCOPE_PLAT_H
#define NPUSCOPE_PLAT_H

#include <stddef.h>
#include <sys/stat.h>

/* ====== Start ====== */

/* Called first in main: on Windows, argv again from GetCommandLineW in
 * UTF-8, the standard streams in binary mode, and the console's
 * virtual-terminal mode for colour; on POSIX nothing. */
void ns_plat_init(int *argc, char ***argv);

/* ====== Files ====== */

long ns_plat_pid(void);                                /* this process */
int ns_plat_mkdir(const char *path, int mode);          /* mode: POSIX only */
int ns_plat_lstat(const char *path, struct stat *st);   /* no link followed */
int ns_plat_is_link(const struct stat *st);             /* S_ISLNK, or 0 */
/* The absolute path with links resolved (malloc'd; '/' as separator on
 * both systems), or NULL with errno. */
char *ns_plat_realpath(const char *path);
/* Rename a folder into place without replacing anything: 0, 1 when `to`
 * exists, -1 with errno. */
int ns_plat_rename_new(const char *from, const char *to);
/* Rename, replacing `to` if it is a file (Windows: MoveFileExW). */
int ns_plat_rename_over(const char *from, const char *to);
/* Does name match the shell pattern pat (*, ?, [...]; a leading '.' only
 * by a '.' of the pattern)?  1 or 0. */
int ns_plat_fnmatch(const char *pat, const char *name);
/* The host's name and "system release machine", into the buffers. */
void ns_plat_host(char *name, size_t nname, char *os, size_t nos);
long ns_plat_cpus(void); /* processors online */
const char *ns_plat_signame(int sig); /* "SIGTERM", or NULL */

/* ====== The output folder's lock ====== */

/* Take the lock of the file at path (made if missing), not waiting: 0 and
 * *fd held until ns_plat_unlock; 1 when another process holds it (owner
 * gets the note it left, "" if none); -1 with errno. */
int ns_plat_lock(const char *path, int *fd, char *owner, size_t nowner);
/* Leave a note in the held lock file for the next one's message. */
void ns_plat_lock_note(int fd, const char *text);
void ns_plat_unlock(int fd);

/* ====== Mapping a file to read it ====== */

size_t ns_plat_page(void); /* the mapping's page size */
/* The regular file fd of size bytes mapped read-only, or NULL. */
void *ns_plat_map(int fd, size_t size);
/* Give back the pages [from, to) of a mapping of size bytes (page-aligned
 * offsets); a range that reaches size releases what is left of it. */
void ns_plat_unmap(void *base, size_t size, size_t from, size_t to);
/* While a file is read mapped: a file that shrinks under the mapping
 * (POSIX: SIGBUS) is said as "npuscope: NAME: the file shrank while it was
 * read" and the process exits with code; name() names the file (NULL: not
 * ours, the fault is what it was).  Windows refuses to shrink a mapped
 * file, so there is nothing to catch. */
void ns_plat_catch_shrink(const char *(*name)(void), int code);
void ns_plat_release_shrink(void);

/* ====== The terminal ====== */

int ns_plat_isatty(int fd);      /* a terminal or console (not a file, pipe or NUL) */
int ns_plat_term_width(int fd);  /* its columns, or 0 when unknown */

/* ====== Stopping ====== */

/* fn(signal) on SIGINT, SIGTERM and SIGHUP -- SIGHUP left ignored when
 * npuscope was started with it ignored (nohup) -- (Windows: Ctrl-C or
 * Ctrl-Break give SIGINT, closing the console SIGTERM); no call is
 * restarted. */
void ns_plat_on_stop(void (*fn)(int));

/* The same for a while (a file being written whole): fn on the three
 * signals, and a file-size limit (SIGXFSZ) made a write error rather than a
 * death; ns_plat_release_stop puts back what was.  One hold at a time. */
void ns_plat_hold_stop(void (*fn)(int));
void ns_plat_release_stop(void);

/* From a handler: end this process as signal `sig` ends one (its default
 * action, raised again), so a shell sees 128 + sig.  Async-signal-safe. */
void ns_plat_die_by(int sig);

/* A file mkstemp() made (mode 0600) given the mode a file created with
 * open() would have: 0666 less the umask.  Windows: nothing to change. */
int ns_plat_fd_usual_mode(int fd);

/* Windows has no sockets among files (a file is a file, a folder, a pipe
 * or a device): the test POSIX gives them is never true there. */
#if defined(_WIN32) && !defined(S_ISSOCK)
#define S_ISSOCK(m) 0
#endif

/* Windows' C runtime calls close-on-exec "no inherit". */
#if defined(_WIN32) && !defined(O_CLOEXEC)
#define O_CLOEXEC _O_NOINHERIT
#endif

/* ====== The process ====== */

/* Descriptors 0-2 open: a closed one gets the null device, so that the
 * next open() (a lock file, a log) cannot become standard error.  On
 * Windows the C runtime gives no closed standard descriptor to reuse. */
void ns_plat_std_fds_open(void);

/* A hangup that nothing else handles says so on standard error before it
 * ends the process (exit 129); left alone when ignored (nohup).  Windows
 * has no hangup signal. */
void ns_plat_on_hangup_say(void);

/* Windows' C runtime has no SIGHUP: the number POSIX gives it, so that the
 * code above this layer can name it on both (nothing raises it there). */
#if defined(_WIN32) && !defined(SIGHUP)
#define SIGHUP 1
#endif

/* ====== Watching a file ====== */

/* Has another process the file open for writing?  1, 0, or -1 when that
 * cannot be told (POSIX: /proc/PID/fdinfo of every process; Windows: the
 * file cannot be opened denying others write access). */
int ns_plat_writers(const char *path, int fd);
void ns_plat_sleep_ms(int ms);

/* ====== What mingw-w64's C library lacks ====== */

#ifdef _WIN32
#include <sys/types.h>
/* POSIX pread (without moving the file offset the others use: an
 * overlapped ReadFile at the offset), fsync (FlushFileBuffers) and GNU's
 * memmem, which the readers use; on POSIX the C library's. */
ssize_t pread(int fd, void *buf, size_t n, off_t at);
/* stat() of "dir/" fails in Microsoft's runtime (ENOENT); npuscope's
 * stat() (with _FILE_OFFSET_BITS=64, mingw's _stat64) drops the trailing
 * separators first.  The Windows build includes this header in every file
 * (-include, Makefile), so each stat() is this one. */
int ns_plat_stat64(const char *path, struct _stat64 *st);
#define _stat64(path, st) ns_plat_stat64((path), (st))
int fsync(int fd);
void *memmem(const void *hay, size_t nhay, const void *needle, size_t nneedle);
/* and two the unit tests use: POSIX rand_r and mkdtemp */
int rand_r(unsigned *seed);
char *mkdtemp(char *tmpl);
#endif

#endif
