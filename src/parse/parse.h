/* parse.h -- the contract between the scanner and the format parsers.
 *
 * The scanner (scan*.c, parse/scan_int.h) reads lines, cleans them (CR, ANSI colour, log
 * prefixes) and recognises where a report starts.  A parser then receives the
 * report's lines one at a time and answers whether each was one of its rows,
 * the last row, or a line that does not belong (a foreign line written into
 * the middle of the report by another thread or process).  Parsers never read
 * input themselves, so every format is streamed the same way and tested the
 * same way.  The exception is the Chrome trace, which is one JSON document
 * and is handed to jansson whole (trace.c).
 */
#ifndef NPUSCOPE_PARSE_H
#define NPUSCOPE_PARSE_H

#include "model/report.h"

#include <stdio.h>

/* ====== The banner block shared by MLIR and LLVM text reports ======
 *   ===----...----===
 *            <title>
 *   ===----...----===
 *     Total Execution Time: X seconds [(Y wall clock)]
 *   <blank>
 *     ----User Time----  ----Wall Time----  ----Name----     (MLIR)
 *      ---User Time---   --System Time--  ...  --- Name ---  (LLVM)
 */
typedef enum {
    NS_HDR_TITLE,   /* banner seen, expecting the title */
    NS_HDR_BANNER2, /* expecting the closing banner */
    NS_HDR_BODY,    /* expecting Total Execution Time / blank / columns */
    NS_HDR_DONE,    /* column header read: rows follow */
    NS_HDR_FAILED,  /* not a report after all */
} ns_hdr_state;

typedef struct {
    ns_hdr_state state;       /* where in the banner block we are */
    long line;                /* line of the first banner */
    char *title;              /* title, trimmed */
    ns_num total;             /* Total Execution Time (MLIR: wall; LLVM: user+sys) */
    ns_num wall_clock;        /* LLVM "(Y wall clock)" */
    int llvm;                 /* 1: LLVM TimerGroup layout, 0: MLIR */
    int legacy;               /* MLIR's layout before mid-2021 (LLVM-style
                               * column header, rows nested): banner.c */
    ns_col cols[NS_COL_COUNT];/* columns in print order */
    int ncols;                /* entries in cols */
    int skipped;              /* unexpected lines inside the block */
} ns_hdr;

/* Is this line a "===---...---===" banner?  Returns the offset at which the
 * banner starts (anything before it is a log prefix), or -1. */
long ns_banner_at(const char *s, size_t n);
void ns_hdr_begin(ns_hdr *h, long line);
/* Feed the next line of the block; returns the new state. */
ns_hdr_state ns_hdr_feed(ns_hdr *h, const char *s, size_t n);
void ns_hdr_free(ns_hdr *h);
/* Is s (blanks around it allowed) a column header and nothing else?
 * Then h is begun at line and DONE with its columns, and 1. */
int ns_hdr_columns_at(ns_hdr *h, const char *s, size_t n, long line);
/* Does s look like a row of a text report: one or more "VALUE (PCT%)"
 * groups, blanks, a name? */
int ns_row_shape(const char *s, size_t n);
/* Does s end like a Total row: "%)", blanks, "Total" (blanks after)? */
int ns_total_row_end(const char *s, size_t n);
/* Does the header name no column but User and Wall (as MLIR's layout of
 * 2020 prints them)? */
int ns_hdr_columns_legacy_ok(const ns_hdr *h);

/* ====== Row parsers ====== */
typedef enum {
    NS_FEED_ROW,     /* a row of the report was added */
    NS_FEED_DONE,    /* the last row (Total) was added: the report is complete */
    NS_FEED_FOREIGN, /* not a row of this report */
} ns_feed;

/* State of the report being parsed. */
typedef struct {
    ns_report *r;     /* report being built (owned until handed to the sink) */
    ns_builder b;     /* indentation -> tree */
    ns_hdr hdr;       /* header of text reports */
    ns_node **stack;  /* MLIR JSON: open "passes" arrays */
    int sp;           /* MLIR JSON: entries on stack */
    int cap;          /* MLIR JSON: capacity of stack */
    int rows;         /* rows added so far */
    long foreign;     /* foreign lines skipped inside the report */
    long foreign_run; /* consecutive foreign lines (a long run = truncated) */
    long foreign_first; /* line of the first foreign line */
    const ns_diag *diag; /* where the parsers' warnings go (the scanner's sink) */
    int maybe_legacy; /* a bannerless three-dash User/Wall header: read as
                       * MLIR text, an LLVM table unless a row is indented */
    int indented;     /* MLIR text: a row was indented */
    int seen_root;    /* MLIR text: a row "root" at depth 0 (list display) */
    long collapsed;   /* MLIR text: the line of the first row whose blanks were
                       * collapsed to one (its indentation is gone), or 0 */
    long total_foreign; /* the line of a foreign line that ends like a Total
                         * row (it does not fit the columns), or 0 */
} ns_pstate;

/* mlir_text.c: rows of the MLIR text report (tree or list display). */
ns_feed ns_mlir_text_feed(ns_pstate *st, const char *s, size_t n, long line);

/* mlir_json.c: MLIR --mlir-output-format=json.  A report starts with a
 * line "[" followed by an entry line; ns_mlir_json_entry_line tells whether a
 * line is such an entry.  Parsing is by hand because the format is not strict
 * JSON: names are not escaped and every "passes" array ends in a {} entry. */
int ns_mlir_json_entry_line(const char *s, size_t n);
ns_feed ns_mlir_json_feed(ns_pstate *st, const char *s, size_t n, long line);

/* llvm.c: rows of an llvm::TimerGroup table. */
ns_feed ns_llvm_feed(ns_pstate *st, const char *s, size_t n, long line);

/* trace.c: a Chrome trace JSON document (clang -ftime-trace), already
 * read into memory.  Returns a report (warnings about events it skipped go
 * to d), or NULL with the reason in *why. */
ns_report *ns_trace_report_new(const char *text, size_t len, const char *file,
                               const ns_diag *d, ns_why *why);
/* trace.c: does the start of an input (n bytes of it, a UTF-8 byte order
 * mark allowed) look like a trace-event JSON document -- an object with
 * "traceEvents", or an array whose first element has "ph" and is not an
 * MLIR JSON entry?  The scanner asks before it reads the input as a log. */
int ns_trace_sniff(const char *s, size_t n);

/* Shared by the text parsers: parse "  %N.Mf (%5.1f%%)" at *p; returns 0 and
 * advances, or -1.  Accepts LLVM's "-----" placeholder as an absent value. */
int ns_parse_timepct(const char **p, const char *end, ns_num *val, ns_num *pct);
/* Warn at file:line (to st->diag) when one of the n values or percentages
 * of a row of st->r was read inexactly (ns_num.inexact): re-printed and
 * exported, it shows other digits than the input. */
void ns_parse_warn_inexact(const ns_pstate *st, long line, const ns_num *val, const ns_num *pct,
                           int n);

#endif
