/* scan_int.h -- the private half of the log scanner (scan.h).
 *
 * The scanner, once one file of 1,650 lines, is broken out into files of
 * one job each for easier editing (as sqlite's whereInt.h is for where.c);
 * this header is shared by them, and only scan.h is public:
 *   scan_file.c   opening an input, mapped files and the read()/pread()
 *                 fills of the reader: every call to the OS is here;
 *   scan_skip.c   skipping the noise between reports: the SIMD newline
 *                 skip, the needle sieve, the choice of SIMD level;
 *   scan_line.c   reading lines: a line's end, cleaning, the line loop
 *                 every input runs, whole inputs (a path, a buffer);
 *   scan.c        the report state machine: banners, prefixes, numbering,
 *                 handing reports on, the scanner's options;
 *   scan_part.c   parts of a file (threads) and pushed streams (capture).
 * The calls go one way, down this list read from its end: scan_part.c
 * calls the others, scan_line.c calls scan.c, scan_skip.c and
 * scan_file.c, and those three call none of the others (tools/layers.sh
 * refuses a loop).  Hot paths stay within one file (the line loop, its
 * line reader and cleaner are all in scan_line.c), since the build has no
 * link-time inlining.
 */
#ifndef NPUSCOPE_SCAN_INT_H
#define NPUSCOPE_SCAN_INT_H

#include "parse/group.h"
#include "parse/parse.h"
#include "parse/scan.h"

#include <stdint.h>
#include <string.h>

/* ====== Line reader ====== */

typedef struct {
    int fd;              /* input, or -1 for an in-memory buffer */
    char *buf;           /* window of the input */
    size_t cap;          /* bytes allocated in buf */
    size_t start;        /* first unread byte in buf */
    size_t end;          /* end of valid bytes in buf */
    int eof;             /* no more bytes to read */
    int skipping;        /* discarding the rest of an over-long line */
    long lineno;         /* number of the line last returned */
    const char *name;    /* input name for messages */
    const ns_diag *diag; /* where they go (the scanner's sink) */
    int io_error;        /* a read failed */
    int push;            /* bytes are pushed in (ns_scan_stream): a line not yet
                          * complete waits for the next piece, not for read() */
    int part;            /* a part of a regular file (scan.h): read with pread()
                          * at off, up to lim */
    int paused;          /* part: the reads reached lim before the file's end */
    uint64_t off;        /* part: file offset of the next read */
    uint64_t lim;        /* part: reads stop here */
    uint64_t size;       /* part: the file's size (reading up to it is the end) */
    size_t last;         /* offset in buf of the line last returned */
    unsigned marks;      /* NS__HAS_* of the line last returned */
    int mapped;          /* buf is the file itself, mapped (below): cap is its
                          * size, and a "read" moves end, copying nothing */
    size_t given_back;   /* the pages before this offset are unmapped */
} ns__reader;

/* Bytes asked of read() at a time.  Between reports the scan runs near
 * memory speed, so the cost of each read() call shows: with 8 KiB chunks
 * a quarter of the time over a 1 GB log went to them.  256 KiB still
 * stays in the L2 cache of most CPUs. */
#define NS__READ_CHUNK (256u << 10)

/* How far ahead the vector loops prefetch: a page, since mapped pages
 * start cold and the hardware prefetcher stops at each page's end
 * (measured: 1 and 2 KiB no better, 8 and 16 KiB worse) */
#define NS__PREFETCH 4096

/* Marks of a line (ns__line_end, scan_line.c) */
enum {
    NS__HAS_ESC = 1, /* a 0x1b byte */
    NS__HAS_NUL = 2, /* a 0 byte */
};

/* NS_SIMD_* in use, -1 until chosen (scan_skip.c; ns_scan_simd) */
extern int ns__simd;

/* ====== Skipping (scan_skip.c) ====== */

/* Bytes that, last on a line, make it worth a closer look ('[', '=', 'm',
 * a blank, a tab, a CR; '-' and 'l' for a column header or a Total row
 * without the banner before them). */
extern const unsigned char ns__end_byte[256];

/* A line between reports that no report can start on (ns__end_byte) */
static inline int ns__boring(const char *s, size_t n) {
    if (!n || !ns__end_byte[(unsigned char)s[n - 1]]) return 1;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
    if (!n) return 1;
    char last = s[n - 1];
    if (last == '[' || last == '=') return 0;
    /* "...===\033[0m": a colour code at the end hides the real last byte */
    if (last == 'm' && memchr(s, 0x1b, n)) return 0;
    /* a column header without its banner, a Total row without its report */
    if (last == '-') return n < 12 || (memcmp(s + n - 4, "----", 4) && memcmp(s + n - 4, " ---", 4));
    if (last == 'l') return !ns_total_row_end(s, n);
    return 1;
}

long ns__skip_noise(ns__reader *rd);
long ns__skip_sieve(ns__reader *rd, const ns_scan_hook *hk);

/* ====== Files (scan_file.c) ====== */

/* Open path ("-": standard input) into rd, mapped or with a buffer for
 * read(); 0, or -1 (said to diag). */
int ns__reader_open(ns__reader *rd, const char *path, const ns_diag *diag);
/* Unmap or free rd's window and close what ns__reader_open opened. */
void ns__reader_close(ns__reader *rd, const char *path);
/* The reader's next bytes: read(), pread() for a part, or the mapping's
 * window moved on; 0, or -1 on a read error (said). */
int ns__fill(ns__reader *rd);

/* ====== Prefixes and the state machine (scan.c) ====== */

typedef enum {
    NS__PFX_NONE,   /* the report's lines start at column 0 */
    NS__PFX_LOGGER, /* "[LEVEL] time [name] " + indent spaces */
    NS__PFX_SHAPE,  /* same length and character classes as the banner's */
} ns__pfx_kind;

typedef struct {
    ns__pfx_kind kind; /* how to strip */
    char *shape;       /* NS__PFX_SHAPE: the prefix, digits turned to '9' */
    size_t len;        /* NS__PFX_SHAPE: its length */
    size_t indent;     /* NS__PFX_LOGGER: spaces after the logger prefix */
    char *raw;         /* the prefix as first seen, or NULL */
} ns__prefix;

typedef enum {
    NS__IDLE,      /* between reports */
    NS__HEADER,    /* inside a banner block */
    NS__TEXT,      /* rows of an MLIR or LLVM text report */
    NS__JSON_OPEN, /* saw "[": an MLIR JSON report may follow */
    NS__JSON,      /* entries of an MLIR JSON report */
} ns__state;

typedef struct {
    ns_scanner *sc;       /* options and counters across inputs */
    const char *name;     /* input name */
    ns_sink sink;         /* receiver of finished reports */
    void *ctx;            /* sink's context */
    ns__state state;      /* where we are */
    ns__prefix pfx;       /* prefix of the current report */
    ns_pstate ps;         /* parser state of the current report */
    long start_line;      /* first line of the current report */
    char *label;          /* label from the nearest --label-regex match */
    ns_buf scratch;       /* cleaned line */
    int found;            /* reports found in this input */
    const ns_scan_hook *hook; /* the caller's hook (scan.h), or NULL */
    ns_group grp;         /* the tables of one compile, linked before the sink
                           * sees them (parse/group.h): sink and ctx are its */
    const char *here;     /* the raw line being scanned, in the reader's window
                           * (set by the line loop), or NULL */
    const char *window;   /* the first byte the reader still holds */
    int window_cut;       /* window may start inside a line */
    long idle_from;       /* the first line after the last report (0: none yet) */
} ns__scan;

void ns__scan_init(ns__scan *st, ns_scanner *sc, const char *name, ns_sink sink, void *ctx);
void ns__line(ns__scan *st, const char *raw, size_t rawn, long line, int has_nul);
void ns__end(ns__scan *st, long last_line);
void ns__emit(ns__scan *st, ns_report *r);
char *ns__hash_label(char *tmp, int n);
int ns__trace(ns__scan *st, const char *data, size_t len);

/* ====== Lines (scan_line.c) ====== */

int ns__getline(ns__reader *rd, const char **line, size_t *len);
const char *ns__clean(const char *s, size_t *n, unsigned marks, ns_buf *scratch, int *has_nul);
void ns__scan_lines(ns__scan *st, ns__reader *rd);
int ns__sniff(ns_scanner *sc, ns__reader *rd);
void ns__trace_doc(ns__scan *st, ns__reader *rd);

/* ====== Parts (scan_part.c) ====== */

struct ns_scan_part {
    ns__scan st;        /* the scan */
    ns__reader rd;      /* its pread() window */
    ns_scan_turn turn;  /* told when the scan leaves or comes back to idle */
    void *turn_ctx;     /* turn's state */
    uint64_t halt_at;   /* 0, or: stop once idle at a line start from here on */
    int halted;         /* it did */
    int ended;          /* the input ended: ns__end ran */
    long upto_line;     /* lines before the last run's upto */
};

/* Where the reader of a part stands in the file. */
static inline uint64_t ns__part_pos(const ns__reader *rd) { return rd->off - (rd->end - rd->start); }

#endif
