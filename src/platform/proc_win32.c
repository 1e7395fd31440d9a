/* proc_win32.c -- proc.h and watchdog.h on Windows: CreateProcessW in a
 * Job Object, pipes drained at the handle level, times, exit code.
 *
 * How it works, against proc_posix.c:
 *   - the command line is built from argv by the quoting rules that
 *     CommandLineToArgvW and the C runtimes undo (backslashes doubled
 *     before a quote, an argument with a blank or a quote in quotes), in
 *     UTF-16; no shell (cmd.exe) ever sees it; CreateProcessW looks the
 *     program up (the folder of npuscope, the current one, PATH) and adds
 *     ".exe";
 *   - the child gets NUL as stdin, two anonymous pipes as stdout and
 *     stderr, and no other handle: PROC_THREAD_ATTRIBUTE_HANDLE_LIST names
 *     the three it inherits, so neither the logs nor the output folder's
 *     lock leak into the compile;
 *   - it starts suspended, goes into a Job Object with
 *     JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE and only then runs: everything it
 *     starts is in the job too, and the job's last handle closing -- when
 *     npuscope ends, however it ends -- ends them all (the Windows form of
 *     watchdog.h's guarantee; the job of the last run stays open until the
 *     next run or ns_watchdog_stop, as the POSIX watchdog watches the
 *     group of the last run);
 *   - the environment block is ours with opts->env on top (names compare
 *     without case, as Windows does), sorted as CreateProcess wants it;
 *   - one loop drains both pipes: PeekNamedPipe says how much is waiting,
 *     ReadFile takes it, each chunk goes to its log at once; between two
 *     turns it waits on the process handle (10 ms at most), so the exit is
 *     seen the moment it happens and the wall time holds no idle wait;
 *   - the child runs in a process group of its own (CREATE_NEW_PROCESS_GROUP)
 *     so a Ctrl-C at the console reaches npuscope only; a timeout or an
 *     interrupt sends the group CTRL_BREAK_EVENT (the nearest thing to
 *     SIGTERM a console program gets), and after the grace period
 *     TerminateJobObject ends the whole job (SIGKILL's place): such a run
 *     records signal 9, and a program that ended on the Ctrl-Break itself
 *     (STATUS_CONTROL_C_EXIT) signal 2;
 *   - times: the job's accounting (user and kernel time of every process
 *     that ran in it, ended ones included), never less than the first
 *     process's own (GetProcessTimes); peak memory: the first process's
 *     peak working set (K32GetProcessMemoryInfo), the resident set as
 *     ru_maxrss is on Linux -- what the command's children used is not in
 *     it (a job has no peak working set, only peak commit).
 * A process the command started that keeps the pipes open after the
 * command has ended is read for 2 s more, then left, as on POSIX.
 */
#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN 1
#include "platform/proc.h"

#include "base/path.h"
#include "platform/plat.h"
#include "platform/watchdog.h"

#include <windows.h>
#include <psapi.h>

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NS__CHUNK (256u << 10)    /* bytes read from a pipe at a time */
#define NS__PIPE_SIZE (1u << 20)  /* the pipes' buffer size */
#define NS__DRAIN_AFTER_EXIT 2.0  /* seconds to keep reading after exit */
#define NS__STATUS_CONTROL_C_EXIT 0xC000013Au

/* ====== Stopping ====== */

static volatile sig_atomic_t ns__stop_sig;

static void ns__on_stop(int sig) { ns__stop_sig = sig; }

void ns_capture_install_signals(void) { ns_plat_on_stop(ns__on_stop); }

int ns_capture_stop_requested(void) { return ns__stop_sig; }

/* ====== The watchdog: the last run's job ====== */

static HANDLE ns__last_job; /* closing it ends what the last command left running */

int ns_watchdog_start(void) { return 0; }

void ns_watchdog_watch(pid_t pgid) { (void)pgid; }

void ns_watchdog_stop(void) {
    if (ns__last_job) CloseHandle(ns__last_job);
    ns__last_job = NULL;
}

void ns_watchdog_child(pid_t parent) { (void)parent; }

/* ====== Helpers ====== */

static double ns__now(void) {
    static LARGE_INTEGER f;
    LARGE_INTEGER c;
    if (!f.QuadPart) QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (double)c.QuadPart / (double)f.QuadPart;
}

static wchar_t *ns__wide(const char *s) {
    int n = MultiByteToWideChar(CP_UTF8, 0, s, -1, NULL, 0);
    if (n <= 0) return NULL;
    wchar_t *w = ns_xmalloc(sizeof *w * (size_t)n);
    MultiByteToWideChar(CP_UTF8, 0, s, -1, w, n);
    return w;
}

/* One argument, quoted so that CommandLineToArgvW gives it back as is. */
static void ns__quote(ns_buf *b, const char *a) {
    if (*a && !strpbrk(a, " \t\n\v\"")) {
        ns_buf_puts(b, a);
        return;
    }
    ns_buf_putc(b, '"');
    for (const char *p = a;; p++) {
        size_t slashes = 0;
        while (*p == '\\') {
            p++;
            slashes++;
        }
        if (!*p) { /* before the closing quote: every backslash doubled */
            for (size_t i = 0; i < slashes * 2; i++) ns_buf_putc(b, '\\');
            break;
        }
        size_t n = *p == '"' ? slashes * 2 + 1 : slashes;
        for (size_t i = 0; i < n; i++) ns_buf_putc(b, '\\');
        ns_buf_putc(b, *p);
    }
    ns_buf_putc(b, '"');
}

static int ns__env_cmp(const void *a, const void *b) {
    const wchar_t *x = *(wchar_t *const *)a, *y = *(wchar_t *const *)b;
    /* by name: up to the '=' that is not the first character */
    for (size_t i = 0;; i++) {
        wchar_t cx = x[i] == L'=' && i ? 0 : towupper(x[i]);
        wchar_t cy = y[i] == L'=' && i ? 0 : towupper(y[i]);
        if (cx != cy) return cx < cy ? -1 : 1;
        if (!cx) return 0;
    }
}

/* Does "NAME=..." have the name key (no case)? */
static int ns__env_is(const wchar_t *entry, const wchar_t *key) {
    size_t n = wcslen(key);
    return _wcsnicmp(entry, key, n) == 0 && entry[n] == L'=';
}

/* Our environment with env on top, as a sorted block (malloc'd). */
static wchar_t *ns__env_block(const ns_kvlist *env) {
    wchar_t *ours = GetEnvironmentStringsW();
    size_t n = 0, cap = 64;
    wchar_t **v = ns_xmalloc(sizeof *v * cap);
    wchar_t **keys = ns_xcalloc((size_t)(env ? env->n : 0) + 1, sizeof *keys);
    for (int i = 0; env && i < env->n; i++) keys[i] = ns__wide(env->items[i].key);
    for (const wchar_t *e = ours; e && *e; e += wcslen(e) + 1) {
        int over = 0;
        for (int i = 0; env && i < env->n; i++)
            if (keys[i] && ns__env_is(e, keys[i])) over = 1;
        if (over) continue;
        if (n == cap) v = ns_xrealloc(v, sizeof *v * (cap *= 2));
        v[n++] = _wcsdup(e);
    }
    for (int i = 0; env && i < env->n; i++) {
        ns_buf kv = {0};
        ns_buf_printf(&kv, "%s=%s", env->items[i].key, env->items[i].value);
        if (n == cap) v = ns_xrealloc(v, sizeof *v * (cap *= 2));
        v[n++] = ns__wide(kv.data);
        ns_buf_free(&kv);
        free(keys[i]);
    }
    free(keys);
    if (ours) FreeEnvironmentStringsW(ours);
    qsort(v, n, sizeof *v, ns__env_cmp);
    size_t len = 1;
    for (size_t i = 0; i < n; i++) len += wcslen(v[i]) + 1;
    wchar_t *block = ns_xmalloc(sizeof *block * (len + 1)), *at = block;
    for (size_t i = 0; i < n; i++) {
        size_t l = wcslen(v[i]) + 1;
        memcpy(at, v[i], sizeof *at * l);
        at += l;
        free(v[i]);
    }
    *at++ = 0;
    *at = 0;
    free(v);
    return block;
}

static int ns__write_all(int fd, const char *buf, size_t n) {
    while (n) {
        int w = _write(fd, buf, n > 0x40000000u ? 0x40000000u : (unsigned)n);
        if (w < 0) return errno;
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

static int ns__open_log(const char *dir, const char *name) {
    char *path = ns_path_join_new(dir, name);
    int fd = _open(path, _O_WRONLY | _O_CREAT | _O_EXCL | _O_TRUNC | _O_BINARY | _O_NOINHERIT,
                   0644);
    if (fd < 0) ns_error("%s: %s", path, strerror(errno));
    free(path);
    return fd;
}

static double ns__ft(FILETIME t) {
    ULARGE_INTEGER u;
    u.LowPart = t.dwLowDateTime;
    u.HighPart = t.dwHighDateTime;
    return (double)u.QuadPart / 1e7;
}

static int ns__start_errno(DWORD e) {
    switch (e) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_NAME:
        return ENOENT;
    case ERROR_ACCESS_DENIED:
        return EACCES;
    case ERROR_BAD_EXE_FORMAT:
    case ERROR_EXE_MACHINE_TYPE_MISMATCH:
        return ENOEXEC;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
        return ENOMEM;
    default:
        return EINVAL;
    }
}

/* ====== Starting ====== */

typedef struct {
    HANDLE job;      /* the job the command runs in */
    HANDLE proc;     /* its first process */
    DWORD pid;       /* ...whose id names its process group */
    HANDLE out, err; /* our ends of its stdout and stderr */
} ns__child;

/* Start o->argv in a new job; 0, or the errno of why it could not start
 * (res->exec_errno), or -1 when a pipe or the job could not be made. */
static int ns__start(const ns_capture_opts *o, ns__child *c) {
    int rc = -1;
    SECURITY_ATTRIBUTES inherit = {sizeof inherit, NULL, TRUE};
    HANDLE out_w = NULL, err_w = NULL, nul = INVALID_HANDLE_VALUE;
    wchar_t *cmd = NULL, *envb = NULL;
    LPPROC_THREAD_ATTRIBUTE_LIST attrs = NULL;
    memset(c, 0, sizeof *c);
    if (!CreatePipe(&c->out, &out_w, &inherit, NS__PIPE_SIZE) ||
        !CreatePipe(&c->err, &err_w, &inherit, NS__PIPE_SIZE)) {
        ns_error("CreatePipe: error %lu", (unsigned long)GetLastError());
        goto out;
    }
    SetHandleInformation(c->out, HANDLE_FLAG_INHERIT, 0); /* our ends stay ours */
    SetHandleInformation(c->err, HANDLE_FLAG_INHERIT, 0);
    nul = CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit,
                      OPEN_EXISTING, 0, NULL);
    c->job = CreateJobObjectW(NULL, NULL);
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION lim;
    memset(&lim, 0, sizeof lim);
    lim.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
    if (!c->job ||
        !SetInformationJobObject(c->job, JobObjectExtendedLimitInformation, &lim, sizeof lim)) {
        ns_error("CreateJobObject: error %lu", (unsigned long)GetLastError());
        goto out;
    }
    ns_buf line = {0};
    for (int i = 0; o->argv[i]; i++) {
        if (i) ns_buf_putc(&line, ' ');
        ns__quote(&line, o->argv[i]);
    }
    cmd = ns__wide(line.data);
    ns_buf_free(&line);
    envb = ns__env_block(o->env);
    /* the child inherits these three handles and no other */
    HANDLE pass[3];
    int npass = 0;
    if (nul != INVALID_HANDLE_VALUE) pass[npass++] = nul;
    pass[npass++] = out_w;
    pass[npass++] = err_w;
    SIZE_T asz = 0;
    InitializeProcThreadAttributeList(NULL, 1, 0, &asz);
    attrs = ns_xmalloc(asz);
    if (!cmd || !InitializeProcThreadAttributeList(attrs, 1, 0, &asz) ||
        !UpdateProcThreadAttribute(attrs, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, pass,
                                   sizeof pass[0] * (size_t)npass, NULL, NULL)) {
        free(attrs);
        attrs = NULL;
        ns_error("InitializeProcThreadAttributeList: error %lu", (unsigned long)GetLastError());
        goto out;
    }
    STARTUPINFOEXW si;
    memset(&si, 0, sizeof si);
    si.StartupInfo.cb = sizeof si;
    si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    si.StartupInfo.hStdInput = nul;
    si.StartupInfo.hStdOutput = out_w;
    si.StartupInfo.hStdError = err_w;
    si.lpAttributeList = attrs;
    PROCESS_INFORMATION pi;
    memset(&pi, 0, sizeof pi);
    DWORD flags = CREATE_UNICODE_ENVIRONMENT | CREATE_NEW_PROCESS_GROUP | CREATE_SUSPENDED |
                  EXTENDED_STARTUPINFO_PRESENT;
    if (!CreateProcessW(NULL, cmd, NULL, NULL, TRUE, flags, envb, NULL, &si.StartupInfo, &pi)) {
        rc = ns__start_errno(GetLastError());
        goto out;
    }
    /* into the job before it runs a single instruction of its own */
    if (!AssignProcessToJobObject(c->job, pi.hProcess)) {
        ns_error("AssignProcessToJobObject: error %lu", (unsigned long)GetLastError());
        TerminateProcess(pi.hProcess, 1);
        CloseHandle(pi.hThread);
        CloseHandle(pi.hProcess);
        goto out;
    }
    ResumeThread(pi.hThread);
    CloseHandle(pi.hThread);
    c->proc = pi.hProcess;
    c->pid = pi.dwProcessId;
    rc = 0;
out:
    if (attrs) {
        DeleteProcThreadAttributeList(attrs);
        free(attrs);
    }
    free(cmd);
    free(envb);
    if (out_w) CloseHandle(out_w); /* the child's ends: its copies remain */
    if (err_w) CloseHandle(err_w);
    if (nul != INVALID_HANDLE_VALUE) CloseHandle(nul);
    if (rc != 0) {
        if (c->out) CloseHandle(c->out);
        if (c->err) CloseHandle(c->err);
        if (c->job) CloseHandle(c->job);
        memset(c, 0, sizeof *c);
    }
    return rc;
}

/* ====== The run ====== */

int ns_capture_run(const ns_capture_opts *o, ns_capture_result *res) {
    memset(res, 0, sizeof *res);
    res->exit_code = -1;
    int logs[2] = {-1, -1}, rc = -1;
    ns__child c;
    memset(&c, 0, sizeof c);
    logs[0] = ns__open_log(o->dir, "stdout.log");
    logs[1] = ns__open_log(o->dir, "stderr.log");
    if (logs[0] < 0 || logs[1] < 0) goto cleanup;
    ns_watchdog_stop(); /* what the last command left running ends now */

    time_t wall_now = time(NULL);
    struct tm tm;
    gmtime_s(&tm, &wall_now);
    strftime(res->started_at, sizeof res->started_at, "%Y-%m-%dT%H:%M:%SZ", &tm);
    double t0 = ns__now();
    int st = ns__start(o, &c);
    if (st < 0) goto cleanup;
    if (st > 0) {
        res->exec_errno = st;
        res->wall_s = ns__now() - t0;
        rc = 0;
        goto cleanup;
    }

    HANDLE pipes[2] = {c.out, c.err};
    char *buf = ns_xmalloc(NS__CHUNK);
    double deadline = o->timeout_s > 0 ? t0 + o->timeout_s : 0;
    double kill_at = 0, reaped_at = 0, t_end = 0;
    int reaped = 0, forwarded = 0, killed = 0;
    for (;;) {
        int open_pipes = (pipes[0] != NULL) + (pipes[1] != NULL);
        double now = ns__now();
        if (reaped && (open_pipes == 0 || now - reaped_at > NS__DRAIN_AFTER_EXIT)) break;

        /* stop requests, timeout, escalation */
        if (!reaped && ns__stop_sig && !forwarded) {
            GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, c.pid);
            forwarded = 1;
            res->interrupted = 1;
            kill_at = now + o->grace_s;
        }
        if (!reaped && deadline && now >= deadline && !res->timed_out) {
            GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, c.pid);
            res->timed_out = 1;
            kill_at = now + o->grace_s;
        }
        if (!reaped && kill_at && now >= kill_at && !killed) {
            TerminateJobObject(c.job, 1);
            killed = 1;
        }
        if (o->on_tick && !reaped) o->on_tick(o->ctx);

        int got_any = 0;
        for (int i = 0; i < 2; i++) {
            while (pipes[i]) {
                DWORD avail = 0, n = 0;
                if (!PeekNamedPipe(pipes[i], NULL, 0, NULL, &avail, NULL)) {
                    CloseHandle(pipes[i]); /* broken: every writer closed it */
                    pipes[i] = NULL;
                    break;
                }
                if (!avail) break;
                if (!ReadFile(pipes[i], buf, avail < NS__CHUNK ? avail : NS__CHUNK, &n, NULL) || !n)
                    break;
                got_any = 1;
                if (i == 0) res->out_bytes += n;
                else res->err_bytes += n;
                if (!res->io_errno) res->io_errno = ns__write_all(logs[i], buf, n);
                if (o->show_output) (void)ns__write_all(i == 0 ? 1 : 2, buf, n);
                if (o->on_output) o->on_output(o->ctx, i, buf, n);
            }
        }
        if (!reaped) {
            /* until the next thing to do, 10 ms at most: the exit wakes it */
            double wait = got_any ? 0 : 0.01;
            if (deadline && !res->timed_out && deadline - now < wait) wait = deadline - now;
            if (wait < 0) wait = 0;
            if (WaitForSingleObject(c.proc, (DWORD)(wait * 1000)) == WAIT_OBJECT_0) {
                reaped = 1;
                reaped_at = t_end = ns__now();
            }
        } else if (!got_any) Sleep(10);
    }
    free(buf);
    if (pipes[0] || pipes[1])
        ns_error("%s: a process started by the command kept its output open after it "
                 "exited; output after that was not captured",
                 o->argv[0]);
    for (int i = 0; i < 2; i++)
        if (pipes[i]) CloseHandle(pipes[i]);
    c.out = c.err = NULL;

    res->wall_s = t_end - t0;
    FILETIME created, ended, kernel, user;
    if (GetProcessTimes(c.proc, &created, &ended, &kernel, &user)) {
        res->user_s = ns__ft(user);
        res->sys_s = ns__ft(kernel);
    }
    JOBOBJECT_BASIC_ACCOUNTING_INFORMATION acc;
    if (QueryInformationJobObject(c.job, JobObjectBasicAccountingInformation, &acc, sizeof acc,
                                  NULL)) {
        double u = (double)acc.TotalUserTime.QuadPart / 1e7;
        double k = (double)acc.TotalKernelTime.QuadPart / 1e7;
        if (u > res->user_s) res->user_s = u;
        if (k > res->sys_s) res->sys_s = k;
    }
    PROCESS_MEMORY_COUNTERS pm;
    memset(&pm, 0, sizeof pm);
    if (K32GetProcessMemoryInfo(c.proc, &pm, sizeof pm))
        res->peak_rss_mb = (double)pm.PeakWorkingSetSize / (1024.0 * 1024.0);
    DWORD code = 0;
    GetExitCodeProcess(c.proc, &code);
    if (killed) res->signal = 9;
    else if (code == NS__STATUS_CONTROL_C_EXIT) res->signal = SIGINT;
    else res->exit_code = (int)code;
    rc = 0;

cleanup:
    for (int i = 0; i < 2; i++)
        if (logs[i] >= 0 && _close(logs[i]) != 0 && !res->io_errno) res->io_errno = errno;
    if (c.out) CloseHandle(c.out);
    if (c.err) CloseHandle(c.err);
    if (c.proc) CloseHandle(c.proc);
    /* the job stays open: what the command left running ends with
     * npuscope or at the next run, never later */
    if (c.job) ns__last_job = c.job;
    return rc;
}

#else
typedef int ns__proc_win32_unused; /* ISO C: a unit is never empty */
#endif
