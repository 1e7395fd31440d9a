/* scan.h -- find every timing report in a stream of log lines.
 *
 * The scanner is the only module that reads input.  It streams a file line
 * by line in a bounded buffer, cleans each line (CR, ANSI colour, per-report
 * log prefixes), recognises where a report begins, hands its lines to the
 * format's parser, and passes every finished report to a sink.  The sink
 * owns the report from then on, so memory is bounded by the largest report,
 * not by the size of the log.  What else a log says (an NPU compiler's
 * facts, an NPUW compile's labels) a hook adds; the scanner only calls it.
 */
#ifndef NPUSCOPE_SCAN_H
#define NPUSCOPE_SCAN_H

#include "base/needles.h"
#include "model/report.h"

#include <regex.h>
#include <stdint.h>

/* Receives each finished report and owns it.  Return 0 to go on, non-zero
 * to stop scanning (e.g. --report N was found). */
typedef int (*ns_sink)(ns_report *r, void *ctx);

#define NS_LINE_MAX (16u << 20) /* longer lines are cut, with a warning */
#define NS_FOREIGN_RUN_MAX 64   /* this many non-rows in a row end a report */

/* ====== Hooks ======
 * A hook sees what the scanner reads and may add to the reports it finds,
 * without the scanner knowing what it adds: the NPU layer's hook
 * (npu/hook.h) turns the compiler's INFO lines between reports into facts
 * of the reports and labels an NPUW compile's reports by their order.  The
 * caller that builds the scanner installs it (the commands, from their
 * options); the hook's state is its own (ctx), and any callback may be
 * NULL.  The scanner calls, for each input:
 *   line       every line between reports, cleaned (CR, colour), from its
 *              last CR on;
 *   begin      a report begins (r is new: no rows, no number, no label
 *              yet); the hook may set facts of r, and returns a report it
 *              held back (see finish) to be handed on first, or NULL;
 *   label_new  a report needs a label and --label-regex gave none: a new
 *              string the report takes, or NULL for "#N"; nth counts the
 *              reports of this input before it;
 *   finish     a report is complete: the hook returns the report to hand
 *              to the sink now -- r itself, or one it held back before
 *              while it keeps r (lines after a report can still belong to
 *              it) -- or NULL;
 *   at         called just before line: the input's name and the line's
 *              number, for a hook that says where a line was;
 *   end        the input ends: the report still held back, or NULL; the
 *              hook forgets what it knew of this input.
 *   needles    the texts the line callback looks for now: while it
 *              returns a set, line does nothing with a line that holds
 *              none of them (once cleaned), so the scanner may leave such
 *              lines out and hands on only the lines that hold one (or
 *              may: the search is a superset) and those it must look at
 *              itself; NULL: line needs every line.  Asked again before
 *              every run of lines the scanner skips, so the answer may
 *              change with what line has seen (NPU: a strategy dump
 *              begins, detection ends).
 * Every report a hook holds comes back through begin, finish or end, so
 * the sink still sees each report once, in order.  A hook with a line
 * callback and no needles makes the scanner look at every line (no noise
 * skipping). */
typedef struct {
    void *ctx;                                                 /* the hook's state */
    void (*line)(void *ctx, const char *s, size_t n);          /* a line between reports */
    ns_report *(*begin)(void *ctx, ns_report *r);              /* a report begins */
    char *(*label_new)(void *ctx, const ns_report *r, int nth); /* its label, or NULL */
    ns_report *(*finish)(void *ctx, ns_report *r);             /* a report is complete */
    ns_report *(*end)(void *ctx);                              /* the input ends */
    const ns_needles *(*needles)(void *ctx);                   /* what line needs now, or NULL */
    void (*at)(void *ctx, const char *file, long line);        /* where the line that line gets
                                                                * next is (input, 1-based), or NULL */
} ns_scan_hook;

struct ns_scan_part;

typedef struct {
    regex_t label_re;     /* --label-regex, compiled */
    const ns_scan_hook *hook; /* what the caller adds to the reports, or NULL */
    ns_diag diag;         /* where warnings and errors about the input go
                           * (base/common.h; the commands: ns_diag_stderr);
                           * ns_scanner_init leaves it dropping them */
    int has_label_re;     /* label_re is set */
    int next_index;       /* reports found so far, across all inputs */
    int number_late;      /* 1: a report the hook does not label is left without
                           * one (NULL) and numbered from 0 here; its place
                           * among other inputs' reports comes later
                           * (ns_scan_number_late) */
    int stopped;          /* the sink asked to stop */
    uint64_t bytes;       /* bytes read, across all inputs */
    long lines;           /* lines read, across all inputs */
    int threads;          /* --threads: a big regular file is scanned by this
                           * many threads (parse/split.h); 0 or 1: one */
    uint64_t split_chunk; /* bytes a thread takes at a time; 0: the default
                           * (and only files of NS_SPLIT_MIN bytes or more
                           * are split); set: any regular file (the tests) */
    struct ns_scan_part *part; /* the part of a file being scanned (below),
                                * or NULL: a whole input */
    int flat;             /* --flat: an MLIR tree whose indentation a page
                           * collapsed is read flat, not refused */
} ns_scanner;

void ns_scanner_init(ns_scanner *sc);
/* Returns 0, or -1 with an error to sc->diag if the regex is refused or
 * does not compile. */
int ns_scanner_set_label_regex(ns_scanner *sc, const char *re);
void ns_scanner_free(ns_scanner *sc);

/* Scan one input: a file name, or "-" for standard input.  Returns the
 * number of reports found in it, or -1 if it could not be read (an error
 * went to sc->diag). */
int ns_scan_path(ns_scanner *sc, const char *path, ns_sink sink, void *ctx);

/* The vector code that skips log noise between reports: the best the CPU
 * has is used unless one is asked for.  ns_scan_simd(want) uses `want`
 * (or the best, when want is -1 or more than the CPU has) from then on,
 * and returns the one in use; the tests run each.  NS_SIMD_AVX512 is
 * AVX2 but for the one-pass skip past a hook's texts, which then takes a
 * 64-byte block in one AVX-512BW vector (scan.c). */
enum { NS_SIMD_NONE, NS_SIMD_SSE2, NS_SIMD_AVX2, NS_SIMD_AVX512 };
int ns_scan_simd(int want);
/* The best vector code this build and this CPU have (the one rule, also
 * for capture's metric search, capture/metrics.h). */
int ns_simd_best(void);
/* The skip past a hook's texts (parse/scan.c) does its newline and text
 * searches in one pass where the CPU has byte shuffles; ns_scan_one_pass(0)
 * makes it use the two-pass way instead (what a CPU with SSE2 but no
 * SSSE3 runs), 1 goes back, so that the tests run both.  Returns the
 * setting before. */
int ns_scan_one_pass(int on);

/* Scan an in-memory buffer as if it were a file named `name`. */
int ns_scan_buffer(ns_scanner *sc, const char *name, const char *data,
                   size_t len, ns_sink sink, void *ctx);

/* ====== Pushed streams ======
 * Output that arrives in pieces (a compile's stdout as capture drains it)
 * is scanned as it arrives: ns_scan_stream_feed takes the bytes in pieces
 * of any size, cut anywhere (inside a line, between a CR and its LF), and
 * finds the reports a scan of the same bytes as a file finds, in the same
 * order, with the same line numbers; the sink gets each when it is
 * complete.  A piece's bytes are not kept once fed (only a line it cuts
 * is, up to NS_LINE_MAX), so memory stays bounded by the largest report --
 * except for a trace document, which is one JSON object and kept whole.
 * Two streams at once (stdout and stderr) take a scanner each: a scanner's
 * hook and numbering belong to one input at a time.  ns_scan_stream_end
 * finishes the last line and the input, frees the stream, and returns the
 * reports found in it. */
typedef struct ns_scan_stream ns_scan_stream;
ns_scan_stream *ns_scan_stream_new(ns_scanner *sc, const char *name, ns_sink sink, void *ctx);
void ns_scan_stream_feed(ns_scan_stream *ss, const char *buf, size_t n);
int ns_scan_stream_end(ns_scan_stream *ss);
/* A report of a scanner with number_late set, put after `base` reports of
 * the inputs before its own: its index (and the indexes of its report
 * group, parse/group.h) moved up, and "#N" if it has no label. */
void ns_scan_number_late(ns_report *r, int base);

/* The regular file being read through a mapping now (scan.c, "Mapped
 * files"), or NULL: for a SIGBUS handler, which is what a file that shrinks
 * while it is mapped raises when its lost pages are read. */
const char *ns_scan_mapped_name(void);

/* ====== Scanning a regular file in parts ======
 * The pieces parse/split.c builds a threaded scan of one file from (no
 * other caller): a part is the scan of a regular file from a line start
 * where the scanner is idle (between reports, nothing pending), read with
 * pread(), so that several parts of one file can be scanned at once, each
 * with its own scanner.  Its reports go to the sink in order, through the
 * report grouper (parse/group.h) when `group` is set. */
typedef struct ns_scan_part ns_scan_part;
/* Called after line `line` when the scan left the idle state (idle 0) or
 * came back to it (idle 1): the lines a part's scan was inside a report. */
typedef void (*ns_scan_turn)(void *ctx, long line, int idle);
ns_scan_part *ns_scan_part_new(ns_scanner *sc, int fd, const char *name, uint64_t size,
                               int group, ns_sink sink, void *ctx);
void ns_scan_part_watch(ns_scan_part *p, ns_scan_turn turn, void *ctx);
/* Read the file's first bytes as ns_scan_path does: 1 when it is a trace
 * document (not for parts), else 0 and *start is where its first line
 * begins (past a byte order mark). */
int ns_scan_part_sniff(ns_scan_part *p, uint64_t *start);
/* Go on from byte `from` (a line start) as if `line` lines came before;
 * the scanner must be idle. */
void ns_scan_part_at(ns_scan_part *p, uint64_t from, long line);
enum {
    NS_PART_IDLE,    /* idle at a line start at or after `upto` */
    NS_PART_ENDED,   /* the input ended (or could not be read on) */
    NS_PART_STOPPED, /* the sink asked to stop */
};
/* Scan every line before `upto` (a line start, or the file's size), then,
 * unless idle there, on until the scan is idle at a line start (or the
 * input ends).  Returns NS_PART_*. */
int ns_scan_part_run(ns_scan_part *p, uint64_t upto);
uint64_t ns_scan_part_pos(const ns_scan_part *p);  /* where the scan stands */
long ns_scan_part_line(const ns_scan_part *p);     /* lines read before it */
long ns_scan_part_upto_line(const ns_scan_part *p); /* lines before `upto` */
uint64_t ns_scan_part_line_at(const ns_scan_part *p); /* where the line last read began */
/* A report another part's scanner found (with number_late set): numbered
 * here (index, "#N") and handed to the sink as if found here. */
void ns_scan_part_hand_on(ns_scan_part *p, ns_report *r);
/* Scan the one line at `from`, line number `line` (the sink stopped on a
 * report another part found on that line: what the scanner does after it
 * is done here). */
void ns_scan_part_last_line(ns_scan_part *p, uint64_t from, long line);
/* The regular file fd of `size` bytes mapped for parts to read (NULL
 * when it cannot or should not be: then they pread()), named `name` for
 * the SIGBUS of a file that shrinks (ns_scan_mapped_name).  Parts read it
 * after ns_scan_part_map; ns_scan_unmap gives back the whole pages in
 * [from, to) of it (all of it, and the name, from 0 to size). */
const char *ns_scan_map(int fd, uint64_t size, const char *name);
void ns_scan_unmap(const char *map, uint64_t size, uint64_t from, uint64_t to);
void ns_scan_part_map(ns_scan_part *p, const char *map);
/* Finish (the input's end, if not reached: as after a stop) and free.
 * Returns the reports found, or -1 after a read error. */
int ns_scan_part_free(ns_scan_part *p);

#endif
