/* shrink.c -- an LD_PRELOAD shim for tests/run_mapped.sh: the file a
 * process maps shrinks under it, at once and every time.
 *
 * npuscope reads a regular file through a mapping (parse/scan.c, "Mapped
 * files"); a file that another process truncates meanwhile faults
 * (SIGBUS) where its lost pages were, and npuscope must say so and exit 2,
 * not die.  Waiting for a real race to hit is a flaky test; this makes it
 * certain: after each successful mmap() of a file of at least 1 MiB it
 * truncates that file (found through /proc/self/fd) to NS_SHRINK_TO bytes
 * (default 4096).  Test code only: built by the suite, never installed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    static void *(*real)(void *, size_t, int, int, int, off_t);
    if (!real) *(void **)&real = dlsym(RTLD_NEXT, "mmap");
    void *p = real(addr, len, prot, flags, fd, off);
    struct stat st;
    if (p != MAP_FAILED && fd >= 0 && !(flags & MAP_ANONYMOUS) && fstat(fd, &st) == 0 &&
        S_ISREG(st.st_mode) && st.st_size >= (1 << 20)) {
        char link[64], path[4096];
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(link, path, sizeof path - 1);
        const char *to = getenv("NS_SHRINK_TO");
        if (n > 0) {
            path[n] = 0;
            if (truncate(path, to ? atol(to) : 4096) != 0) perror("shrink.c: truncate");
        }
    }
    return p;
}
