/* plat_win32.c -- plat.h on Windows (the Win32 API, built with mingw-w64).
 *
 * The same answers as plat_posix.c, from the documented Win32 calls:
 *   - the command line comes from GetCommandLineW and CommandLineToArgvW,
 *     converted to UTF-8, so a name in any script reaches npuscope whole
 *     (the C runtime's argv is in the ANSI code page); paths go back to
 *     UTF-16 at every call made here (the "W" functions);
 *   - the standard streams are switched to binary mode: npuscope writes
 *     "\n" on both systems, so its output is byte for byte the Linux one
 *     (every file is opened binary too: the build links binmode.o);
 *   - colour is the console's virtual-terminal mode
 *     (ENABLE_VIRTUAL_TERMINAL_PROCESSING), asked for once at start;
 *   - the output folder's lock is LockFileEx on one byte far past the
 *     note, so that the note stays readable by the one refused (a Windows
 *     lock is mandatory: a locked byte cannot be read by another handle);
 *     the system drops it when the handle closes, however npuscope ends;
 *   - a run folder is published with MoveFileExW without
 *     MOVEFILE_REPLACE_EXISTING: it fails when the name exists;
 *   - a file is mapped with CreateFileMapping and MapViewOfFile; pages
 *     read are given back with VirtualUnlock (a view cannot be unmapped in
 *     part); a mapped file cannot be shrunk on Windows, so there is no
 *     fault to catch;
 *   - Ctrl-C and Ctrl-Break reach a console control handler, which runs on
 *     a thread of its own: it only sets the flag the caller's function
 *     sets, and returns TRUE so that the process is not ended for it;
 *   - "is someone still writing this file?" is asked by opening it with
 *     FILE_SHARE_READ only: that fails with a sharing violation while
 *     another handle has it open for writing.
 */
#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN 1
#include "platform/plat.h"

#include <windows.h>
#include <shellapi.h>

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef ENABLE_VIRTUAL_TERMINAL_PROCESSING
#define ENABLE_VIRTUAL_TERMINAL_PROCESSING 0x0004
#endif

#define NS__LOCK_AT 0x40000000u /* the locked byte: far past the note */

/* ====== UTF-8 and UTF-16 ====== */

/* s in UTF-16 (malloc'd), or NULL with errno */
static wchar_t *ns__wide(const char *s) {
    int n = MultiByteToWideChar(CP_UTF8, 0, s, -1, NULL, 0);
    if (n <= 0) {
        errno = EINVAL;
        return NULL;
    }
    wchar_t *w = malloc(sizeof *w * (size_t)n);
    if (!w) return NULL;
    MultiByteToWideChar(CP_UTF8, 0, s, -1, w, n);
    return w;
}

static char *ns__utf8(const wchar_t *w) {
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
    if (n <= 0) return NULL;
    char *s = malloc((size_t)n);
    if (!s) return NULL;
    WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
    return s;
}

/* errno for the last Win32 error */
static int ns__errno(DWORD e) {
    switch (e) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_NAME:
        return ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
        return EACCES;
    case ERROR_ALREADY_EXISTS:
    case ERROR_FILE_EXISTS:
        return EEXIST;
    case ERROR_DIR_NOT_EMPTY:
        return ENOTEMPTY;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
        return ENOMEM;
    case ERROR_DISK_FULL:
        return ENOSPC;
    default:
        return EIO;
    }
}

/* ====== Start ====== */

static void ns__vt(DWORD which) {
    HANDLE h = GetStdHandle(which);
    DWORD mode;
    if (h != INVALID_HANDLE_VALUE && GetConsoleMode(h, &mode))
        SetConsoleMode(h, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING);
}

void ns_plat_init(int *argc, char ***argv) {
    _setmode(0, _O_BINARY);
    _setmode(1, _O_BINARY);
    _setmode(2, _O_BINARY);
    SetConsoleOutputCP(CP_UTF8);
    ns__vt(STD_OUTPUT_HANDLE);
    ns__vt(STD_ERROR_HANDLE);
    int n = 0;
    wchar_t **w = CommandLineToArgvW(GetCommandLineW(), &n);
    if (!w || n < 1) return; /* keep the runtime's argv */
    char **v = calloc((size_t)n + 1, sizeof *v);
    if (!v) return;
    for (int i = 0; i < n; i++)
        if (!(v[i] = ns__utf8(w[i]))) return;
    LocalFree(w);
    *argc = n;
    *argv = v; /* lives as long as the process */
}

/* ====== Files ====== */

long ns_plat_pid(void) { return (long)GetCurrentProcessId(); }

int ns_plat_mkdir(const char *path, int mode) {
    (void)mode;
    wchar_t *w = ns__wide(path);
    if (!w) return -1;
    BOOL ok = CreateDirectoryW(w, NULL);
    DWORD e = GetLastError();
    free(w);
    if (ok) return 0;
    errno = ns__errno(e);
    return -1;
}

int ns_plat_lstat(const char *path, struct stat *st) { return stat(path, st); }
int ns_plat_is_link(const struct stat *st) {
    (void)st;
    return 0;
}

char *ns_plat_realpath(const char *path) {
    wchar_t *w = ns__wide(path);
    if (!w) return NULL;
    DWORD attr = GetFileAttributesW(w);
    if (attr == INVALID_FILE_ATTRIBUTES) {
        errno = ns__errno(GetLastError());
        free(w);
        return NULL;
    }
    DWORD n = GetFullPathNameW(w, 0, NULL, NULL);
    wchar_t *full = n ? malloc(sizeof *full * n) : NULL;
    if (!full || !GetFullPathNameW(w, n, full, NULL)) {
        free(full);
        free(w);
        errno = ENOMEM;
        return NULL;
    }
    free(w);
    char *s = ns__utf8(full);
    free(full);
    if (!s) return NULL;
    for (char *p = s; *p; p++)
        if (*p == '\\') *p = '/';
    return s;
}

static int ns__move(const char *from, const char *to, DWORD flags) {
    wchar_t *a = ns__wide(from), *b = ns__wide(to);
    BOOL ok = a && b && MoveFileExW(a, b, flags);
    DWORD e = GetLastError();
    free(a);
    free(b);
    if (ok) return 0;
    errno = ns__errno(e);
    return -1;
}

int ns_plat_rename_new(const char *from, const char *to) {
    if (ns__move(from, to, 0) == 0) return 0;
    return errno == EEXIST || errno == ENOTEMPTY ? 1 : -1;
}

int ns_plat_rename_over(const char *from, const char *to) {
    return ns__move(from, to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH);
}

/* *, ? and [...] ([!...] negated, a-z ranges), as fnmatch without flags
 * but FNM_PERIOD; names on Windows are matched as they are spelt. */
static int ns__match(const char *p, const char *s) {
    for (; *p; p++, s++) {
        if (*p == '*') {
            while (p[1] == '*') p++;
            if (!p[1]) return 1;
            for (; *s; s++)
                if (ns__match(p + 1, s)) return 1;
            return 0;
        }
        if (!*s) return 0;
        if (*p == '?') continue;
        if (*p == '[') {
            const char *q = p + 1;
            int neg = *q == '!' || *q == '^', hit = 0;
            if (neg) q++;
            do {
                if (q[1] == '-' && q[2] && q[2] != ']') {
                    if ((unsigned char)*s >= (unsigned char)q[0] && (unsigned char)*s <= (unsigned char)q[2]) hit = 1;
                    q += 3;
                } else if (*q++ == *s) hit = 1;
            } while (*q && *q != ']');
            if (!*q) return *s == '[' && ns__match(p + 1, s + 1); /* no ']': a literal '[' */
            if (hit == neg) return 0;
            p = q;
            continue;
        }
        if (*p == '\\' && p[1]) p++;
        if (*p != *s) return 0;
    }
    return !*s;
}

int ns_plat_fnmatch(const char *pat, const char *name) {
    if (name[0] == '.' && pat[0] != '.') return 0;
    return ns__match(pat, name);
}

void ns_plat_host(char *name, size_t nname, char *os, size_t nos) {
    wchar_t w[MAX_COMPUTERNAME_LENGTH + 1];
    DWORD n = MAX_COMPUTERNAME_LENGTH + 1;
    snprintf(name, nname, "?");
    if (GetComputerNameW(w, &n)) {
        char *s = ns__utf8(w);
        if (s) snprintf(name, nname, "%s", s);
        free(s);
    }
    /* GetVersionEx answers what the manifest declares; RtlGetVersion the
     * system's own numbers */
    OSVERSIONINFOW v;
    memset(&v, 0, sizeof v);
    v.dwOSVersionInfoSize = sizeof v;
    typedef LONG(WINAPI * rtl_fn)(OSVERSIONINFOW *);
    HMODULE nt = GetModuleHandleW(L"ntdll.dll");
    rtl_fn rtl = nt ? (rtl_fn)(void (*)(void))GetProcAddress(nt, "RtlGetVersion") : NULL;
    SYSTEM_INFO si;
    GetNativeSystemInfo(&si);
    const char *arch = si.wProcessorArchitecture == PROCESSOR_ARCHITECTURE_AMD64 ? "x86_64"
                       : si.wProcessorArchitecture == PROCESSOR_ARCHITECTURE_ARM64 ? "aarch64"
                                                                                    : "unknown";
    if (rtl && rtl(&v) == 0)
        snprintf(os, nos, "Windows %lu.%lu.%lu %s", (unsigned long)v.dwMajorVersion,
                 (unsigned long)v.dwMinorVersion, (unsigned long)v.dwBuildNumber, arch);
    else snprintf(os, nos, "Windows %s", arch);
}

long ns_plat_cpus(void) {
    DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return n ? (long)n : 1;
}

const char *ns_plat_signame(int sig) {
    switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGABRT: return "SIGABRT";
    case SIGSEGV: return "SIGSEGV";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case 9: return "SIGKILL"; /* what a run ended by its job's termination reports */
    default: return NULL;
    }
}

/* ====== The lock ====== */

int ns_plat_lock(const char *path, int *fd, char *owner, size_t nowner) {
    *fd = -1;
    if (nowner) owner[0] = 0;
    wchar_t *w = ns__wide(path);
    if (!w) return -1;
    HANDLE h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
    DWORD e = GetLastError();
    free(w);
    if (h == INVALID_HANDLE_VALUE) {
        errno = ns__errno(e);
        return -1;
    }
    OVERLAPPED ov;
    memset(&ov, 0, sizeof ov);
    ov.Offset = NS__LOCK_AT;
    if (!LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ov)) {
        e = GetLastError();
        if (nowner) {
            DWORD got = 0;
            if (!ReadFile(h, owner, (DWORD)(nowner - 1), &got, NULL)) got = 0;
            owner[got] = 0;
        }
        CloseHandle(h);
        if (e == ERROR_LOCK_VIOLATION || e == ERROR_IO_PENDING) {
            errno = EWOULDBLOCK;
            return 1;
        }
        errno = ns__errno(e);
        return -1;
    }
    int f = _open_osfhandle((intptr_t)h, _O_RDWR | _O_BINARY | _O_NOINHERIT);
    if (f < 0) {
        CloseHandle(h);
        return -1;
    }
    *fd = f;
    return 0;
}

void ns_plat_lock_note(int fd, const char *text) {
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    DWORD len = (DWORD)strlen(text), put = 0;
    if (h == INVALID_HANDLE_VALUE || SetFilePointer(h, 0, NULL, FILE_BEGIN) != 0) return;
    if (!SetEndOfFile(h) || !WriteFile(h, text, len, &put, NULL)) {
        /* the lock holds without the note; the next one's message says less */
    }
}

void ns_plat_unlock(int fd) {
    if (fd >= 0) _close(fd); /* closing the handle drops the lock */
}

/* ====== Mapping ====== */

size_t ns_plat_page(void) {
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwPageSize ? si.dwPageSize : 4096;
}

void *ns_plat_map(int fd, size_t size) {
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    if (h == INVALID_HANDLE_VALUE) return NULL;
    HANDLE m = CreateFileMappingW(h, NULL, PAGE_READONLY, 0, 0, NULL);
    if (!m) return NULL;
    void *at = MapViewOfFile(m, FILE_MAP_READ, 0, 0, size);
    CloseHandle(m); /* the view keeps the mapping */
    return at;
}

void ns_plat_unmap(void *base, size_t size, size_t from, size_t to) {
    if (!base) return;
    if (to >= size) UnmapViewOfFile(base);
    else if (to > from) VirtualUnlock((char *)base + from, to - from); /* out of the working set */
}

void ns_plat_catch_shrink(const char *(*name)(void), int code) {
    (void)name;
    (void)code;
}

void ns_plat_release_shrink(void) {}

/* ====== The terminal ====== */

int ns_plat_isatty(int fd) {
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    DWORD mode;
    return h != INVALID_HANDLE_VALUE && GetConsoleMode(h, &mode);
}

int ns_plat_term_width(int fd) {
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    CONSOLE_SCREEN_BUFFER_INFO ci;
    if (h == INVALID_HANDLE_VALUE || !GetConsoleScreenBufferInfo(h, &ci)) return 0;
    int w = ci.srWindow.Right - ci.srWindow.Left + 1;
    return w > 0 ? w : 0;
}

/* ====== Stopping ====== */

static void (*ns__stop_fn)(int);

static BOOL WINAPI ns__on_ctrl(DWORD ev) {
    if (!ns__stop_fn) return FALSE;
    switch (ev) {
    case CTRL_C_EVENT:
    case CTRL_BREAK_EVENT:
        ns__stop_fn(SIGINT);
        return TRUE;
    case CTRL_CLOSE_EVENT:
    case CTRL_LOGOFF_EVENT:
    case CTRL_SHUTDOWN_EVENT:
        ns__stop_fn(SIGTERM);
        return TRUE;
    default:
        return FALSE;
    }
}

void ns_plat_on_stop(void (*fn)(int)) {
    ns__stop_fn = fn;
    SetConsoleCtrlHandler(ns__on_ctrl, TRUE);
}

static void (*ns__held_fn)(int); /* what a hold replaced */

void ns_plat_hold_stop(void (*fn)(int)) {
    ns__held_fn = ns__stop_fn;
    ns_plat_on_stop(fn);
}

void ns_plat_release_stop(void) { ns__stop_fn = ns__held_fn; }

/* The handler runs on a thread of its own: the process ends with the
 * status a POSIX shell would show for the signal. */
void ns_plat_die_by(int sig) { _exit(128 + sig); }

int ns_plat_fd_usual_mode(int fd) {
    (void)fd;
    return 0;
}

/* ====== The process ====== */

void ns_plat_std_fds_open(void) {}

void ns_plat_on_hangup_say(void) {}

/* ====== Watching ====== */

int ns_plat_writers(const char *path, int fd) {
    (void)fd;
    wchar_t *w = ns__wide(path);
    if (!w) return -1;
    /* our own handle reads only, so denying write sharing fails only for
     * another writer's */
    HANDLE h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING,
                           FILE_ATTRIBUTE_NORMAL, NULL);
    DWORD e = GetLastError();
    free(w);
    if (h != INVALID_HANDLE_VALUE) {
        CloseHandle(h);
        return 0;
    }
    return e == ERROR_SHARING_VIOLATION ? 1 : -1;
}

void ns_plat_sleep_ms(int ms) { Sleep((DWORD)ms); }

/* ====== What mingw-w64's C library lacks ====== */

#undef _stat64
int ns_plat_stat64(const char *path, struct _stat64 *st) {
    size_t n = strlen(path);
    /* "C:/" and "/" keep theirs: the root is a folder only with it */
    while (n > 1 && (path[n - 1] == '/' || path[n - 1] == '\\') && !(n == 3 && path[1] == ':'))
        n--;
    if (path[n] == 0) return _stat64(path, st);
    char *p = malloc(n + 1);
    if (!p) return -1;
    memcpy(p, path, n);
    p[n] = 0;
    int rc = _stat64(p, st);
    free(p);
    return rc;
}

ssize_t pread(int fd, void *buf, size_t n, off_t at) {
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    if (h == INVALID_HANDLE_VALUE) {
        errno = EBADF;
        return -1;
    }
    OVERLAPPED ov;
    memset(&ov, 0, sizeof ov);
    ov.Offset = (DWORD)((unsigned long long)at & 0xffffffffu);
    ov.OffsetHigh = (DWORD)((unsigned long long)at >> 32);
    DWORD got = 0;
    if (n > 0x40000000u) n = 0x40000000u;
    if (!ReadFile(h, buf, (DWORD)n, &got, &ov)) {
        DWORD e = GetLastError();
        if (e == ERROR_HANDLE_EOF) return 0;
        errno = ns__errno(e);
        return -1;
    }
    return (ssize_t)got;
}

int fsync(int fd) {
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    if (h == INVALID_HANDLE_VALUE || !FlushFileBuffers(h)) {
        errno = EIO;
        return -1;
    }
    return 0;
}

int rand_r(unsigned *seed) {
    *seed = *seed * 1103515245u + 12345u; /* the example of POSIX's rand() */
    return (int)((*seed / 65536u) % 32768u);
}

char *mkdtemp(char *tmpl) {
    size_t n = strlen(tmpl);
    if (n < 6 || strcmp(tmpl + n - 6, "XXXXXX") != 0) {
        errno = EINVAL;
        return NULL;
    }
    static unsigned counter;
    for (int tries = 0; tries < 100; tries++) {
        snprintf(tmpl + n - 6, 7, "%06x", (unsigned)((GetCurrentProcessId() * 7919u + counter++ +
                                                      GetTickCount()) & 0xffffffu));
        if (ns_plat_mkdir(tmpl, 0700) == 0) return tmpl;
        if (errno != EEXIST) return NULL;
    }
    return NULL;
}

void *memmem(const void *hay, size_t nhay, const void *needle, size_t nneedle) {
    const char *h = hay, *nd = needle;
    if (!nneedle) return (void *)(uintptr_t)h;
    for (size_t i = 0; nhay >= nneedle && i <= nhay - nneedle; i++)
        if (h[i] == nd[0] && memcmp(h + i, nd, nneedle) == 0) return (void *)(uintptr_t)(h + i);
    return NULL;
}

#else
typedef int ns__plat_win32_unused; /* ISO C: a unit is never empty */
#endif
