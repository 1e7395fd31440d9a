/* scan_file.c -- the scanner's inputs as bytes: opening a file, mapping
 * it, and the reader's fills (read(), pread() for a part, or a mapping's
 * window moved on).
 *
 * Every call the scanner makes to the operating system is in this file,
 * so that a platform layer can take them over in one place; the rest of
 * the scanner (scan_int.h) sees a reader's window of bytes and asks for
 * more with ns__fill.  Why a regular file is mapped, and how the window
 * of a mapping imitates read() so that the two ways scan alike, is said
 * below.  Left out: any other way in (sockets, compressed files).
 */
#include "parse/scan_int.h"
#include "platform/plat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* NPUSCOPE_NO_MMAP=1: every file read with read() (the tests compare the
 * two ways) */
static int ns__no_map(void) {
    const char *v = getenv("NPUSCOPE_NO_MMAP");
    return v && *v && strcmp(v, "0") != 0;
}

/* ====== Mapped files ======
 * A regular file is read through a mapping, not read(): the kernel's copy
 * of every byte into a buffer was a quarter of the time of a log's scan
 * (23% of `top` on an NPU log, `perf record`), and the lines are looked at
 * where they lie.  What the scan sees is what reads would give it: the
 * window grows a MiB at a time to at most NS_LINE_MAX bytes past the
 * first unread byte, so a line is cut where read() cuts it (at
 * NS_LINE_MAX, with the same warning), and the pages already read are
 * unmapped as the window moves on, so the resident set stays at a few
 * MiB, not the file.  A file that
 * shrinks while it is mapped would fault (SIGBUS) past its new end: the
 * scan names the file in ns_scan_mapped_name while it reads one, for a
 * handler that says so and exits (cli/cli.c).  If the mapping cannot be
 * made, the file is read as a pipe is. */

#define NS__MAP_STEP (1u << 20)   /* bytes a "read" adds to the window */
#define NS__GIVE_BACK (4u << 20)  /* bytes read between two munmap() calls */

static const char *volatile ns__mapped_name; /* the file being read mapped, or NULL */

const char *ns_scan_mapped_name(void) { return ns__mapped_name; }

/* Map the regular file fd of `size` bytes for rd; 0, or -1 (then rd is
 * as it was, and the file is read with read()).  The vector loops may load
 * a few bytes past the end (never more than NS__MAP_SLACK): the rest of
 * the file's last page is zeros, but a page past it would fault, so a
 * file that ends within NS__MAP_SLACK bytes of a page's end is read. */
#define NS__MAP_SLACK 128

/* The mapping of regular file fd of `size` bytes, or NULL (read it). */
static char *ns__map_file(int fd, uint64_t size) {
    size_t pg = ns_plat_page();
    if (size == 0 || size > SIZE_MAX / 2 || ns__no_map()) return NULL;
    size_t tail = (size_t)(size % (uint64_t)pg);
    if (tail == 0 || tail > pg - NS__MAP_SLACK) return NULL;
    return ns_plat_map(fd, (size_t)size);
}

static int ns__map(ns__reader *rd, int fd, size_t size) {
    char *at = ns__map_file(fd, size);
    if (!at) return -1;
    rd->buf = at;
    rd->cap = size; /* the whole file is the buffer */
    rd->mapped = 1;
    return 0;
}

static void ns__unmap(ns__reader *rd) {
    ns_plat_unmap(rd->buf, rd->cap, rd->given_back, rd->cap);
    rd->buf = NULL;
    rd->mapped = 0;
}

const char *ns_scan_map(int fd, uint64_t size, const char *name) {
    char *at = ns__map_file(fd, size);
    if (at) ns__mapped_name = name;
    return at;
}

void ns_scan_unmap(const char *map, uint64_t size, uint64_t from, uint64_t to) {
    uint64_t pg = ns_plat_page();
    if (!map) return;
    uint64_t a = (from + pg - 1) / pg * pg;
    uint64_t b = to >= size ? size : to / pg * pg;
    if (b > a) ns_plat_unmap((char *)(uintptr_t)map, (size_t)size, (size_t)a, (size_t)b);
    if (from == 0 && to >= size) ns__mapped_name = NULL;
}

/* The mapped file's next "read": the window NS__MAP_STEP further, but not
 * past NS_LINE_MAX bytes from rd->start (where a read() fill stops, so a
 * long line is cut at the same byte), nor past the end; eof when there is
 * no more.  Then the pages well before the last line returned are
 * unmapped: a read() fill moves everything before rd->start away, so
 * nothing points there after one (a margin of NS__MAP_STEP all the same). */
static int ns__fill_mapped(ns__reader *rd) {
    /* a part (scan.h) of a mapped file reads up to its lim, as pread() */
    size_t size = rd->part ? (size_t)rd->lim : rd->cap;
    if (rd->end >= size) {
        if (rd->part && rd->lim < rd->size) rd->paused = 1;
        else rd->eof = 1;
        return 0;
    }
    size_t to = size - rd->end > NS__MAP_STEP ? rd->end + NS__MAP_STEP : size;
    if (to - rd->start > NS_LINE_MAX && rd->end - rd->start < NS_LINE_MAX)
        to = rd->start + NS_LINE_MAX; /* else a reader of all of it: a trace */
    rd->end = to;
    rd->off = to; /* buf is the file from its start: a part's offsets hold */
    if (rd->part) return 0; /* the mapping is shared: its owner unmaps */
    size_t keep = rd->last < rd->start ? rd->last : rd->start;
    if (keep - rd->given_back >= NS__GIVE_BACK + NS__MAP_STEP) {
        size_t pg = ns_plat_page();
        size_t upto = (keep - NS__MAP_STEP) / pg * pg;
        ns_plat_unmap(rd->buf, rd->cap, rd->given_back, upto);
        rd->given_back = upto;
    }
    return 0;
}

int ns__fill(ns__reader *rd) {
    if (rd->mapped) return ns__fill_mapped(rd);
    if (rd->fd < 0) {
        rd->eof = 1;
        return 0;
    }
    if (rd->start > 0) {
        memmove(rd->buf, rd->buf + rd->start, rd->end - rd->start);
        rd->end -= rd->start;
        rd->start = 0;
    }
    if (rd->end == rd->cap) {
        rd->cap *= 2;
        rd->buf = ns_xrealloc(rd->buf, rd->cap);
    }
    size_t want = rd->cap - rd->end;
    if (rd->part) {
        /* a part reads its window as read() would, but stops at lim: the
         * same buffer sizes, so an over-long line is cut where it is in a
         * whole-file scan (at NS_LINE_MAX bytes) */
        if (rd->off >= rd->lim) {
            if (rd->lim >= rd->size) rd->eof = 1;
            else rd->paused = 1;
            return 0;
        }
        if (want > rd->lim - rd->off) want = (size_t)(rd->lim - rd->off);
    }
    for (;;) {
        ssize_t n = rd->part ? pread(rd->fd, rd->buf + rd->end, want, (off_t)rd->off)
                             : read(rd->fd, rd->buf + rd->end, want);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            ns_diag_say(rd->diag, NS_DIAG_ERROR, rd->name, 0, "read error: %s",
                        strerror(errno));
            rd->io_error = 1;
            rd->eof = 1;
            return -1;
        }
        if (n == 0) rd->eof = 1;
        rd->end += (size_t)n;
        rd->off += (uint64_t)n;
        return 0;
    }
}

int ns__reader_open(ns__reader *rd, const char *path, const ns_diag *diag) {
    int stdin_input = strcmp(path, "-") == 0;
    int fd = stdin_input ? 0 : open(path, O_RDONLY);
    if (fd < 0) {
        ns_diag_say(diag, NS_DIAG_ERROR, path, 0, "%s", strerror(errno));
        return -1;
    }
    struct stat stt;
    if (fstat(fd, &stt) == 0 && S_ISDIR(stt.st_mode)) {
        ns_diag_say(diag, NS_DIAG_ERROR, path, 0, "is a directory");
        close(fd);
        return -1;
    }
    memset(rd, 0, sizeof *rd);
    rd->fd = fd;
    rd->name = stdin_input ? "<stdin>" : path;
    rd->diag = diag;
    if (!stdin_input && S_ISREG(stt.st_mode) && stt.st_size > 0 && !ns__no_map() &&
        ns__map(rd, fd, (size_t)stt.st_size) == 0) {
        ns__mapped_name = path;
    } else {
        rd->cap = NS__READ_CHUNK;
        rd->buf = ns_xmalloc(rd->cap);
    }
    return 0;
}

void ns__reader_close(ns__reader *rd, const char *path) {
    if (rd->mapped) {
        ns__mapped_name = NULL;
        ns__unmap(rd);
    } else {
        free(rd->buf);
    }
    if (strcmp(path, "-") != 0) close(rd->fd);
}
