/* winprog.c -- the Windows programs that tests/run_windows.sh records with
 * npuscope.exe under Wine: what a compile does, one mode an invocation.
 *
 *   winprog report FILE      print FILE on stdout in text mode (so with
 *                            CRLF line ends, as a Windows compiler does)
 *   winprog sleep MS         sleep, then exit 0
 *   winprog grandchild MS PIDFILE
 *                            start `winprog sleep MS` (a grandchild of
 *                            npuscope), write its process id to PIDFILE,
 *                            then sleep MS itself
 *   winprog fail CODE        say so on stderr and exit CODE
 *   winprog both N           N lines, fast, on stdout and stderr in turn
 *   winprog ignore MS        ignore Ctrl-C and Ctrl-Break, sleep MS
 *   winprog ctrlc            send Ctrl-C to every process of the console
 *                            (GenerateConsoleCtrlEvent), as a user's key
 *                            press would, then sleep 10 s
 *   winprog alive PID        exit 0 while process PID runs, 1 once it ended
 *   winprog waitfor FILE MS  exit 0 once FILE exists, 1 after MS
 * Built by the suite with x86_64-w64-mingw32-gcc; not part of npuscope.
 */
#define WIN32_LEAN_AND_MEAN 1
#include <windows.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static BOOL WINAPI ignore_all(DWORD ev) {
    (void)ev;
    return TRUE;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    const char *m = argv[1];
    if (!strcmp(m, "report") && argc == 3) {
        FILE *f = fopen(argv[2], "rb");
        if (!f) return 3;
        char line[65536];
        while (fgets(line, sizeof line, f)) {
            size_t n = strlen(line);
            if (n && line[n - 1] == '\n') line[--n] = 0;
            if (n && line[n - 1] == '\r') line[--n] = 0;
            printf("%s\n", line); /* stdout is in text mode: "\r\n" */
        }
        fclose(f);
        return 0;
    }
    if (!strcmp(m, "sleep") && argc == 3) {
        Sleep((DWORD)atoi(argv[2]));
        return 0;
    }
    if (!strcmp(m, "grandchild") && argc == 4) {
        char self[MAX_PATH], cmd[MAX_PATH + 64];
        GetModuleFileNameA(NULL, self, sizeof self);
        snprintf(cmd, sizeof cmd, "\"%s\" sleep %s", self, argv[2]);
        STARTUPINFOA si;
        PROCESS_INFORMATION pi;
        memset(&si, 0, sizeof si);
        si.cb = sizeof si;
        if (!CreateProcessA(NULL, cmd, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi)) return 4;
        FILE *f = fopen(argv[3], "w");
        if (f) {
            fprintf(f, "%lu\n", (unsigned long)pi.dwProcessId);
            fclose(f);
        }
        puts("started a grandchild");
        fflush(stdout);
        Sleep((DWORD)atoi(argv[2]));
        return 0;
    }
    if (!strcmp(m, "fail") && argc == 3) {
        fprintf(stderr, "winprog: failing on purpose\n");
        return atoi(argv[2]);
    }
    if (!strcmp(m, "both") && argc == 3) {
        int n = atoi(argv[2]);
        for (int i = 0; i < n; i++) {
            fprintf(stdout, "out %d of %d: some compiler chatter to fill the pipe\n", i, n);
            fprintf(stderr, "err %d of %d: some compiler chatter to fill the pipe\n", i, n);
        }
        return 0;
    }
    if (!strcmp(m, "ignore") && argc == 3) {
        SetConsoleCtrlHandler(ignore_all, TRUE);
        Sleep((DWORD)atoi(argv[2]));
        return 0;
    }
    if (!strcmp(m, "ctrlc")) {
        if (!GenerateConsoleCtrlEvent(CTRL_C_EVENT, 0)) return 5;
        Sleep(10000);
        return 0;
    }
    if (!strcmp(m, "alive") && argc == 3) {
        HANDLE h = OpenProcess(SYNCHRONIZE | PROCESS_QUERY_LIMITED_INFORMATION, FALSE,
                               (DWORD)strtoul(argv[2], NULL, 10));
        if (!h) return 1;
        DWORD w = WaitForSingleObject(h, 0);
        CloseHandle(h);
        return w == WAIT_TIMEOUT ? 0 : 1;
    }
    if (!strcmp(m, "waitfor") && argc == 4) {
        for (int t = 0; t < atoi(argv[3]); t += 50) {
            if (GetFileAttributesA(argv[2]) != INVALID_FILE_ATTRIBUTES) return 0;
            Sleep(50);
        }
        return 1;
    }
    return 2;
}
