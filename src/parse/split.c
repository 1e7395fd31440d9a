/* split.c -- a big regular file scanned by several threads (split.h).
 *
 * Why it gives the bytes one scan gives: the scanner between reports, with
 * no --label-regex and no hook, holds nothing that a later line depends on
 * (the next banner sets the prefix, ns__begin every parser field).  So a
 * fresh scanner started at a line where the whole file's scanner is idle
 * finds, from there on, exactly what that scanner finds.  The file is cut
 * at line starts into chunks; a worker scans each from its first byte with
 * a scanner of its own (parse/scan.h, "Scanning a regular file in parts"),
 * keeps what it found, the lines after which it was inside a report, and
 * the last line it said anything on, and at its chunk's end goes on until
 * it is idle.  The calling thread then walks the chunks in order, standing
 * at a point p where the true scan is idle (the file's start, then where
 * the last chunk used stopped):
 *   - chunk k, if its scan was idle at p too and said nothing after p,
 *     gives its reports that begin after p -- lines and numbers fixed by
 *     what came before -- and the true scan is idle again where it stopped;
 *   - otherwise this thread scans on from p itself, to past chunk k's end,
 *     as a scan of the whole file would (its warnings then carry the right
 *     line numbers and report numbers because they are made right here).
 * The reports pass through the report grouper (parse/group.h) on this
 * thread, in order, so report groups form over the whole file.
 *
 * Why the calling thread scans too: --threads N is N threads, N - 1
 * workers and it.  It had only merged, a third thread on two cores, and
 * the machine's cores need not be equal (on the bench machine one ran
 * this scan 1.6x slower than the other): while the next chunk to merge is
 * not done, it takes the next chunk in the window itself, so no thread
 * waits while there is work, and the reports it merges next are in its
 * own cache.  A worker keeps its scanner and part from chunk to chunk
 * (a part per chunk was a 256 KiB buffer and its page faults each time),
 * and notes what the sink asks of every report first and reads cold
 * otherwise (model/stages.h, ns_stage_note_vpux); the arena chunks of the
 * reports it made come back to it through model/report.c's shared pool.
 * Every part reads the file through one mapping when it can be made
 * (scan.h, ns_scan_map), pread() otherwise; the calling thread unmaps the
 * pages two chunks behind the one it merges, so the resident set stays at
 * a few MiB whatever the file's size.  At most
 * `window` chunks are held at a time, so memory stays bounded by them, not
 * by the file.  Every thread is joined on every path; a sink that stops
 * (--report N) cancels the workers' scans.
 */
#include "parse/split.h"
#include "platform/plat.h"

#include "model/stages.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ====== Chunks ====== */

#define NS__UNMAP_STEP (4u << 20) /* bytes merged between two munmap() calls */

typedef struct {
    long a; /* after this line the scan was inside a report (or a banner) */
    long b; /* and after this one idle again (LONG_MAX: not before it ended) */
} ns__span;

typedef struct {
    uint64_t from, to;  /* the chunk: bytes [from, to), both line starts */
    ns_report **reps;   /* the reports its scan found, in order (owned) */
    uint64_t *rep_at;   /* where the line each was handed on at began */
    long *rep_line;     /* that line's number (from the chunk's start) */
    int nreps, caprep;  /* entries in reps, rep_at, rep_line; allocated */
    ns__span *spans;    /* when its scan was not idle, in line order */
    int nspans, capspans; /* entries in spans; allocated */
    long said;          /* the last line it said something after (0: none) */
    long upto_line;     /* lines in [from, to) */
    uint64_t stop;      /* where its scan stopped: idle there, or the end */
    long stop_line;     /* lines in [from, stop) */
    uint64_t bytes;     /* its scanner's byte count */
    int ended;          /* its scan reached the file's end */
    int failed;         /* a read failed or it was cancelled: not usable */
    int done;           /* results are in (under the lock) */
    long lb;            /* lines before the chunk, once lb_known */
    int lb_known;       /* every chunk before it is done (under the lock) */
    int shifted;        /* its worker counted its reports' lines from the
                         * file's start already (while they were in its cache) */
} ns__chunk;

typedef struct {
    pthread_mutex_t mu;  /* guards next, merged, done */
    pthread_cond_t cv;   /* any of them changed */
    ns__chunk *ch;       /* the chunks, in file order */
    int nch;             /* entries in ch */
    int next;            /* the next chunk a worker takes */
    int merged;          /* chunks the calling thread is done with */
    int lb_next;         /* the first chunk whose lb is not known */
    int window;          /* chunks taken but not merged, at most */
    atomic_int cancel;   /* stop: the sink wants no more, or an error */
    int fd;              /* the file (pread: no shared offset) */
    const char *name;    /* its name for messages */
    uint64_t size;       /* its size */
    const char *map;     /* the file mapped for every part to read, or NULL
                          * (pread); the calling thread unmaps behind it */
} ns__split;

/* A worker: its scanner and its part, kept from chunk to chunk (a part
 * per chunk cost a 256 KiB read buffer and its page faults each time). */
typedef struct {
    ns__split *sp;      /* the whole */
    ns__chunk *c;       /* the chunk it scans now */
    ns_scanner sc;      /* its scanner (number_late: numbered when merged) */
    ns_scan_part *part; /* its scan, idle between chunks; NULL until the first
                         * and after one that did not end idle */
} ns__job;

static void ns__said(void *ctx, ns_diag_kind kind, const char *file, long line,
                     const char *msg) {
    (void)kind, (void)file, (void)line, (void)msg;
    ns__job *j = ctx;
    if (!j->c) return; /* an idle part's end says nothing; but never a NULL */
    /* what matters is when it was said: a report's warnings come when it
     * ends, about its first line */
    long at = ns_scan_part_line(j->part);
    if (at < 1) at = 1;
    if (at > j->c->said) j->c->said = at;
}

static int ns__keep(ns_report *r, void *ctx) {
    ns__job *j = ctx;
    ns__chunk *c = j->c;
    if (atomic_load(&j->sp->cancel)) {
        ns_report_free(r);
        return 1;
    }
    if (c->nreps == c->caprep) {
        c->caprep = c->caprep ? c->caprep * 2 : 16;
        c->reps = ns_xrealloc(c->reps, sizeof *c->reps * (size_t)c->caprep);
        c->rep_at = ns_xrealloc(c->rep_at, sizeof *c->rep_at * (size_t)c->caprep);
        c->rep_line = ns_xrealloc(c->rep_line, sizeof *c->rep_line * (size_t)c->caprep);
    }
    ns_stage_note_vpux(r); /* here, while r is in this thread's cache */
    c->reps[c->nreps] = r;
    c->rep_at[c->nreps] = ns_scan_part_line_at(j->part);
    c->rep_line[c->nreps] = ns_scan_part_line(j->part);
    c->nreps++;
    return 0;
}

static void ns__turn(void *ctx, long line, int idle) {
    ns__chunk *c = ((ns__job *)ctx)->c;
    if (!idle) {
        if (c->nspans == c->capspans) {
            c->capspans = c->capspans ? c->capspans * 2 : 16;
            c->spans = ns_xrealloc(c->spans, sizeof *c->spans * (size_t)c->capspans);
        }
        c->spans[c->nspans++] = (ns__span){line, LONG_MAX};
    } else if (c->nspans) {
        c->spans[c->nspans - 1].b = line;
    }
}

/* Scan one chunk with the worker's scanner, from its first byte.  The
 * part is idle where the last chunk's scan stopped, so it can start over
 * at this chunk's first line (ns_scan_part_at); one that ended or stopped
 * is not used again. */
static void ns__scan_chunk(ns__job *j, ns__chunk *c) {
    ns__split *sp = j->sp;
    j->c = c;
    if (!j->part) {
        j->part = ns_scan_part_new(&j->sc, sp->fd, sp->name, sp->size, 0, ns__keep, j);
        if (sp->map) ns_scan_part_map(j->part, sp->map);
        ns_scan_part_watch(j->part, ns__turn, j);
    }
    uint64_t bytes0 = j->sc.bytes;
    ns_scan_part_at(j->part, c->from, 0);
    int rc = ns_scan_part_run(j->part, c->to);
    c->upto_line = ns_scan_part_upto_line(j->part);
    c->stop = rc == NS_PART_ENDED ? sp->size : ns_scan_part_pos(j->part);
    c->stop_line = ns_scan_part_line(j->part);
    c->ended = rc == NS_PART_ENDED;
    c->failed = rc == NS_PART_STOPPED;
    if (rc != NS_PART_IDLE) {
        if (ns_scan_part_free(j->part) < 0) c->failed = 1;
        j->part = NULL;
    }
    c->bytes = j->sc.bytes - bytes0;
}

/* Its reports and lists; what later chunks' line counts need stays. */
static void ns__chunk_free(ns__chunk *c) {
    for (int i = 0; i < c->nreps; i++) ns_report_free(c->reps[i]);
    free(c->reps);
    free(c->rep_at);
    free(c->rep_line);
    free(c->spans);
    c->reps = NULL;
    c->rep_at = NULL;
    c->rep_line = NULL;
    c->spans = NULL;
    c->nreps = c->caprep = c->nspans = c->capspans = 0;
}

/* Was the chunk's scan idle after `lp` lines of it? */
static int ns__idle_after(const ns__chunk *c, long lp) {
    for (int i = 0; i < c->nspans; i++)
        if (c->spans[i].a <= lp && lp < c->spans[i].b) return 0;
    return 1;
}

/* ====== Workers ====== */

/* A chunk's lines were counted from its start: count them from the file's. */
static void ns__shift_lines(ns_report *r, long by) {
    r->line += by;
    r->end_line += by;
    for (ns_node *n = r->root; n;) {
        if (n->line > 0) n->line += by;
        if (n->child) n = n->child;
        else {
            while (n && !n->next) n = n->parent;
            if (n) n = n->next;
        }
    }
}

/* Under the lock: the lines before each chunk whose predecessors are done. */
static void ns__lines_before(ns__split *sp) {
    int j = sp->lb_next;
    while (j < sp->nch && sp->ch[j - 1].done && !sp->ch[j - 1].failed) {
        sp->ch[j].lb = sp->ch[j - 1].lb + sp->ch[j - 1].upto_line;
        sp->ch[j].lb_known = 1;
        j++;
    }
    sp->lb_next = j;
}

static void ns__job_init(ns__job *j, ns__split *sp) {
    memset(j, 0, sizeof *j);
    j->sp = sp;
    ns_scanner_init(&j->sc);
    j->sc.number_late = 1;
    j->sc.diag = (ns_diag){ns__said, j};
}

static void ns__job_end(ns__job *j) {
    j->c = NULL;
    ns_scan_part_free(j->part); /* idle: it finds nothing more */
    j->part = NULL;
    ns_scanner_free(&j->sc);
}

/* Under the lock: the next chunk to scan, if one is left and in the
 * window (at most `window` chunks taken and not merged), else NULL. */
static ns__chunk *ns__take(ns__split *sp) {
    if (atomic_load(&sp->cancel) || sp->next >= sp->nch || sp->next >= sp->merged + sp->window)
        return NULL;
    return &sp->ch[sp->next++];
}

/* Scan chunk c (taken, not under the lock) and say that it is done. */
static void ns__do_chunk(ns__job *j, ns__chunk *c) {
    ns__split *sp = j->sp;
    ns__scan_chunk(j, c);
    pthread_mutex_lock(&sp->mu);
    ns__lines_before(sp);
    int known = c->lb_known;
    long lb = c->lb;
    pthread_mutex_unlock(&sp->mu);
    if (known && !c->failed) {
        for (int i = 0; i < c->nreps; i++) ns__shift_lines(c->reps[i], lb);
        c->shifted = 1;
    }
    pthread_mutex_lock(&sp->mu);
    c->done = 1;
    ns__lines_before(sp);
    pthread_cond_broadcast(&sp->cv);
    pthread_mutex_unlock(&sp->mu);
}

static void *ns__worker(void *arg) {
    ns__split *sp = arg;
    ns__job j;
    ns__job_init(&j, sp);
    for (;;) {
        pthread_mutex_lock(&sp->mu);
        ns__chunk *c;
        while (!(c = ns__take(sp)) && !atomic_load(&sp->cancel) && sp->next < sp->nch)
            pthread_cond_wait(&sp->cv, &sp->mu);
        pthread_mutex_unlock(&sp->mu);
        if (!c) break;
        ns__do_chunk(&j, c);
    }
    ns__job_end(&j);
    ns_report_spares_free(); /* the arena chunks this thread kept */
    return NULL;
}

/* ====== Cutting the file ====== */

/* The first line start at or after x (the size if there is none). */
static uint64_t ns__line_start(int fd, uint64_t x, uint64_t size) {
    char buf[4096];
    uint64_t at = x - 1; /* a line starts at x if the byte before is '\n' */
    while (at < size) {
        ssize_t n = pread(fd, buf, sizeof buf, (off_t)at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return size; /* the scan of the last chunk says why */
        const char *nl = memchr(buf, '\n', (size_t)n);
        if (nl) return at + (uint64_t)(nl - buf) + 1;
        at += (uint64_t)n;
    }
    return size;
}

/* Chunks of about `step` bytes from `start`; returns how many. */
static int ns__cut(int fd, uint64_t start, uint64_t size, uint64_t step, ns__chunk **out) {
    int n = 0, cap = 0;
    ns__chunk *ch = NULL;
    for (uint64_t from = start; from < size;) {
        uint64_t to = size - from > step ? ns__line_start(fd, from + step, size) : size;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            ch = ns_xrealloc(ch, sizeof *ch * (size_t)cap);
        }
        memset(&ch[n], 0, sizeof ch[n]);
        ch[n].from = from;
        ch[n].to = to;
        n++;
        from = to;
    }
    *out = ch;
    return n;
}

/* ====== Merging ====== */

/* The whole file with the threads: returns the reports found, or -1. */
static int ns__split_scan(ns_scanner *sc, ns__split *sp, ns_scan_part *m, uint64_t start) {
    /* the calling thread is one of the threads: it scans a chunk itself
     * whenever the next one to merge is not done (so no thread waits while
     * there is work, and the reports it made are merged from its cache) */
    int nthr = sc->threads - 1 < sp->nch ? sc->threads - 1 : sp->nch;
    pthread_t thr[NS_SPLIT_THREADS_MAX];
    int started = 0;
    ns__job mine;
    ns__job_init(&mine, sp);
    sp->window = 2 * sc->threads;
    sp->ch[0].lb_known = 1;
    sp->lb_next = 1;
    for (int i = 0; i < nthr; i++)
        if (pthread_create(&thr[started], NULL, ns__worker, sp) == 0) started++;
    uint64_t p = start; /* the true scan is idle here, */
    long lp = 0;        /* after this many lines */
    long lb = 0;        /* lines before chunk k */
    int lines_known = 1, ended = 0;
    uint64_t unmapped = 0; /* the mapping's pages before this are gone (rounded in) */
    for (int k = 0; k < sp->nch && !ended && !sc->stopped; k++) {
        ns__chunk *c = &sp->ch[k];
        if (lines_known) {
            pthread_mutex_lock(&sp->mu);
            while (!c->done) {
                ns__chunk *t = ns__take(sp);
                if (!t) {
                    pthread_cond_wait(&sp->cv, &sp->mu);
                    continue;
                }
                pthread_mutex_unlock(&sp->mu);
                ns__do_chunk(&mine, t);
                pthread_mutex_lock(&sp->mu);
            }
            pthread_mutex_unlock(&sp->mu);
            if (c->failed) lines_known = 0;
        }
        long at = lp - lb; /* p, in the chunk's lines */
        if (lines_known && p >= c->stop && !c->ended) {
            /* the scan before went past all this chunk's scan saw */
        } else if (lines_known && ns__idle_after(c, at) && c->said <= at) {
            for (int i = 0; i < c->nreps; i++) {
                ns_report *r = c->reps[i];
                c->reps[i] = NULL;
                long line = c->shifted ? r->line - lb : r->line;
                if (line <= at || sc->stopped) { /* the scan before had it */
                    ns_report_free(r);
                    continue;
                }
                if (!c->shifted) ns__shift_lines(r, lb);
                ns_scan_part_hand_on(m, r);
                /* what the scanner does after the report it stopped on:
                 * the rest of that line (a banner there is said to be cut) */
                if (sc->stopped) ns_scan_part_last_line(m, c->rep_at[i], lb + c->rep_line[i]);
            }
            sc->bytes += c->bytes - (p - c->from);
            sc->lines += lb + c->stop_line - lp;
            p = c->stop;
            lp = lb + c->stop_line;
            ended = c->ended;
        } else {
            /* scanned on here from p, as one scan would */
            ns_scan_part_at(m, p, lp);
            int rc = ns_scan_part_run(m, c->to);
            p = ns_scan_part_pos(m);
            lp = ns_scan_part_line(m);
            ended = rc == NS_PART_ENDED;
        }
        lb += c->upto_line;
        /* the pages two chunks back are read by no one any more (every
         * scan goes forward from where it is, and the true one stands at
         * or after this chunk's start): unmapped, a few MiB at a time */
        if (sp->map && k >= 2 && sp->ch[k - 1].from >= unmapped + NS__UNMAP_STEP) {
            ns_scan_unmap(sp->map, sp->size, unmapped, sp->ch[k - 1].from);
            unmapped = sp->ch[k - 1].from;
        }
        pthread_mutex_lock(&sp->mu);
        ns__chunk_free(c);
        sp->merged = k + 1;
        pthread_cond_broadcast(&sp->cv);
        pthread_mutex_unlock(&sp->mu);
    }
    if (!ended && !sc->stopped) { /* cannot happen; but never a report lost */
        ns_scan_part_at(m, p, lp);
        ns_scan_part_run(m, sp->size);
    }
    atomic_store(&sp->cancel, 1);
    pthread_mutex_lock(&sp->mu);
    pthread_cond_broadcast(&sp->cv);
    pthread_mutex_unlock(&sp->mu);
    for (int i = 0; i < started; i++) pthread_join(thr[i], NULL);
    ns__job_end(&mine);
    for (int k = 0; k < sp->nch; k++) ns__chunk_free(&sp->ch[k]);
    ns_report_pool_free(); /* what the threads' reports left there */
    return 0;
}

/* ====== Public ====== */

int ns_scan_input(ns_scanner *sc, const char *path, ns_sink sink, void *ctx) {
    int threads = sc->threads > NS_SPLIT_THREADS_MAX ? NS_SPLIT_THREADS_MAX : sc->threads;
    int hooked = sc->hook && (sc->hook->line || sc->hook->begin || sc->hook->label_new ||
                              sc->hook->finish || sc->hook->end);
    if (threads < 2 || sc->has_label_re || hooked || !strcmp(path, "-"))
        return ns_scan_path(sc, path, sink, ctx);
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        (!sc->split_chunk && (uint64_t)st.st_size < NS_SPLIT_MIN)) {
        if (fd >= 0) close(fd);
        return ns_scan_path(sc, path, sink, ctx); /* it says why it cannot */
    }
    uint64_t size = (uint64_t)st.st_size, start = 0;
    ns_scan_part *m = ns_scan_part_new(sc, fd, path, size, 1, sink, ctx);
    if (ns_scan_part_sniff(m, &start)) { /* a trace document is one JSON value */
        ns_scan_part_free(m);
        close(fd);
        return ns_scan_path(sc, path, sink, ctx);
    }
    ns__split sp;
    memset(&sp, 0, sizeof sp);
    sp.fd = fd;
    sp.name = path;
    sp.size = size;
    /* mapped, as one thread's scan reads it (scan_file.c, "Mapped files"): no
     * copy of each byte into each part's buffer */
    sp.map = ns_scan_map(fd, size, path);
    if (sp.map) ns_scan_part_map(m, sp.map);
    atomic_init(&sp.cancel, 0);
    sp.nch = ns__cut(fd, start, size, sc->split_chunk ? sc->split_chunk : NS_SPLIT_CHUNK, &sp.ch);
    if (sp.nch < 2) { /* one chunk: the scan of a part is the scan of the file */
        ns_scan_part_at(m, start, 0);
        ns_scan_part_run(m, size);
    } else {
        pthread_mutex_init(&sp.mu, NULL);
        pthread_cond_init(&sp.cv, NULL);
        sc->threads = threads;
        ns__split_scan(sc, &sp, m, start);
        pthread_cond_destroy(&sp.cv);
        pthread_mutex_destroy(&sp.mu);
    }
    free(sp.ch);
    int found = ns_scan_part_free(m);
    if (sp.map) ns_scan_unmap(sp.map, size, 0, size);
    close(fd);
    return found;
}
