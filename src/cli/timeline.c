/* timeline.c -- a log's or a run's timeline, read (cli/timeline.h).
 *
 * A log is read twice: once line by line here, for the times and the
 * compile markers of its lines (npu/times.h), once through the scanner
 * (ns_cli_scan: with the NPU hook, for the reports, their labels and the
 * failures), and the reports' last lines put among the lines.  A run gives
 * its stdout.log, then its stderr.log, read the same way (run.json keeps no
 * report's file), and its process's start (the "started_clock" record
 * writes) and end.  What the clock did is counted in the timeline;
 * ns_timeline_say says it.
 */
#include "cli/timeline.h"

#include "analyse/dataset.h"
#include "base/path.h"
#include "model/load.h"
#include "npu/times.h"
#include "render/page_load.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ====== Marks ====== */

typedef struct {
    ns_tl_mark *m;  /* marks, in input order */
    long n, cap;    /* used, allocated */
    ns_buf labels;  /* "PASS (SUBMODEL)" of failures: NUL-separated strings */
} ns__marks;

static void ns__mark(ns__marks *ms, ns_tl_mark k) {
    if (ms->n == ms->cap) {
        ms->cap = ms->cap ? 2 * ms->cap : 256;
        ms->m = ns_xrealloc(ms->m, sizeof *ms->m * (size_t)ms->cap);
    }
    ms->m[ms->n++] = k;
}

/* A report, as the timeline needs it. */
typedef struct {
    long end_line;  /* its last line */
    double total;   /* its total, seconds */
    char *label;    /* its label (owned) */
    char *file;     /* its input (owned) */
} ns__rep;

typedef struct {
    ns__rep *r; /* reports, in order */
    int n;      /* entries */
} ns__reps;

static int ns__rep_sink(ns_report *r, void *ctx) {
    ns__reps *rs = ctx;
    if (ns_report_is_main(r)) {
        rs->r = ns_xrealloc(rs->r, sizeof *rs->r * (size_t)(rs->n + 1));
        double total = ns_num_present(r->root->val[NS_COL_WALL]) ? r->root->val[NS_COL_WALL].v
                                                                 : NAN;
        rs->r[rs->n++] = (ns__rep){r->end_line, total, ns_strdup(r->label ? r->label : "?"),
                                   ns_strdup(r->file ? r->file : "")};
    }
    ns_report_free(r);
    return 0;
}

static void ns__reps_free(ns__reps *rs) {
    for (int i = 0; i < rs->n; i++) free(rs->r[i].label), free(rs->r[i].file);
    free(rs->r);
    memset(rs, 0, sizeof *rs);
}

/* The name a failed compile is shown by: "PASS (SUBMODEL)", interned in
 * ms->labels; its offset + 1, or 0. */
static size_t ns__fail_label(ns__marks *ms, const ns_failure *f) {
    if (!f->pass && !f->submodel) return 0;
    size_t at = ms->labels.len + 1;
    ns_buf_printf(&ms->labels, "failed %s%s%s%s", f->pass ? f->pass : "", f->pass && f->submodel ? " (" : "",
                  f->submodel ? f->submodel : "", f->pass && f->submodel ? ")" : "");
    ns_buf_putc(&ms->labels, 0);
    return at;
}

/* ====== Reading lines ====== */

typedef struct {
    ns_timeline *tl;       /* its counts (clock, untimed, malformed) */
    int quiet;             /* -q */
    const char *name;      /* input name, for messages */
    int said_bad;          /* malformed times reported */
} ns__reader;

/* The next line of f into *line (grown as needed, NUL-terminated; a NUL
 * byte inside stays), its length with the newline, or -1 at the end.
 * getline() without POSIX 2008: the Windows C runtime has none. */
static long ns__next_line(FILE *f, char **line, size_t *cap) {
    size_t n = 0;
    int c;
    while ((c = getc(f)) != EOF) {
        if (n + 2 > *cap) {
            *cap = *cap ? 2 * *cap : 256;
            *line = ns_xrealloc(*line, *cap);
        }
        (*line)[n++] = (char)c;
        if (c == '\n') break;
    }
    if (n == 0) return -1;
    (*line)[n] = 0;
    return (long)n;
}

/* One file's lines into marks, with the reports of that file (reps whose
 * file is `file`) and its failures placed at their lines. */
static int ns__read_lines(ns__reader *rd, ns__marks *ms, const char *path, const char *file,
                          const ns__reps *rs, const ns_load *L) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    char *line = NULL;
    size_t cap = 0;
    long got;
    long no = 0;
    int next = 0; /* the next report of this file */
    while (next < rs->n && strcmp(rs->r[next].file, file) != 0) next++;
    while ((got = ns__next_line(f, &line, &cap)) >= 0) {
        no++;
        size_t n = (size_t)got;
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) n--;
        const char *s = line;
        const char *cr = memchr(s, '\r', n); /* progress output: its last part */
        if (cr) {
            for (const char *q = cr; (q = memchr(q + 1, '\r', n - (size_t)(q + 1 - s))); ) cr = q;
            n -= (size_t)(cr + 1 - s);
            s = cr + 1;
        }
        ns_time_line tlx;
        ns_npu_time_line(s, n, &tlx);
        ns_tl_mark k = {NS_TL_LINE, NAN, no, 0, NAN, NULL};
        if (tlx.timed == NS_TIME_OK) {
            k.t = ns_tl_clock_put(&rd->tl->clock, tlx.sec, no);
        } else if (tlx.timed == NS_TIME_BAD) {
            if (!rd->tl->malformed) rd->tl->first_bad = no;
            rd->tl->malformed++;
            if (!rd->quiet && rd->said_bad++ < 3)
                ns_warn_at(rd->name, no, "the time of this logger line is malformed; the line "
                                         "has no time");
        } else {
            rd->tl->untimed++;
        }
        if (tlx.fail) {
            k.kind = NS_TL_FAIL;
            for (int i = 0; L && i < L->nfail; i++)
                if (L->fail[i].line == no && L->fail[i].file && !strcmp(L->fail[i].file, file)) {
                    size_t at = ns__fail_label(ms, &L->fail[i]);
                    if (at) k.label = (const char *)(uintptr_t)at; /* fixed below */
                }
        } else if (tlx.open) {
            k.kind = NS_TL_OPEN;
            k.open = tlx.open;
        } else if (tlx.close) {
            k.kind = NS_TL_CLOSE;
        } else if (tlx.compiler && tlx.timed == NS_TIME_OK) {
            k.kind = NS_TL_CLINE;
        }
        if (k.kind != NS_TL_LINE || isfinite(k.t)) ns__mark(ms, k);
        while (next < rs->n && rs->r[next].end_line <= no) {
            if (!strcmp(rs->r[next].file, file))
                ns__mark(ms, (ns_tl_mark){NS_TL_REPORT, NAN, no, 0, rs->r[next].total,
                                          rs->r[next].label});
            next++;
            while (next < rs->n && strcmp(rs->r[next].file, file) != 0) next++;
        }
    }
    free(line);
    int err = ferror(f);
    fclose(f);
    return err ? -1 : 0;
}

/* The failure labels were offsets into a buffer that could move: now
 * pointers. */
static void ns__fix_labels(ns__marks *ms) {
    for (long i = 0; i < ms->n; i++)
        if (ms->m[i].kind == NS_TL_FAIL && ms->m[i].label)
            ms->m[i].label = ms->labels.data + ((uintptr_t)ms->m[i].label - 1);
}

/* What the clock did, said once per input. */
void ns_timeline_say(const ns_timeline *tl, int quiet) {
    if (quiet) return;
    if (!tl->timed) {
        ns_warn_at(tl->source, 0, "no line has a time (the NPU stack's logger lines carry one): "
                                  "no timeline");
        return;
    }
    if (tl->clock.wraps)
        ns_note_at(tl->source, "the clock passed midnight %d time%s: a day added each time",
                   tl->clock.wraps, tl->clock.wraps == 1 ? "" : "s");
    if (tl->clock.backs)
        ns_warn_at(tl->source, tl->clock.back_line,
                   "the clock goes back (%d time%s, at most %.3f s): held at the time before",
                   tl->clock.backs, tl->clock.backs == 1 ? "" : "s", tl->clock.back_max);
    if (tl->malformed > 3)
        ns_warn_at(tl->source, tl->first_bad, "%ld logger lines have a malformed time",
                   tl->malformed);
    if (tl->unplaced)
        ns_warn_at(tl->source, 0, "%d report%s come before any timed line: not on the timeline",
                   tl->unplaced, tl->unplaced == 1 ? "" : "s");
    if (tl->open_at_end)
        ns_warn_at(tl->source, 0, "the input ends inside %d compile%s (no report, no failure)",
                   tl->open_at_end, tl->open_at_end == 1 ? "" : "s");
}

/* ====== A log ====== */

int ns_timeline_of_log(const char *path, const ns_read_opts *ro, ns_timeline *tl) {
    ns_load L = {0};
    ns__reps rs = {0};
    ns_read_opts o = *ro;
    o.load = &L;
    char *in[1] = {(char *)path};
    long found = ns_cli_scan(in, 1, &o, ns__rep_sink, &rs);
    ns__marks ms = {0};
    ns__reader rd = {tl, ro->quiet, path, 0};
    memset(tl, 0, sizeof *tl);
    int rc = found < 0 ? -1 : ns__read_lines(&rd, &ms, path, path, &rs, &L);
    if (rc == 0) {
        ns__fix_labels(&ms);
        ns_timeline_build(tl, path, ms.m, ms.n, NAN, NAN);
    } else {
        ns_error_at(path, 0, "cannot be read");
    }
    free(ms.m);
    ns_buf_free(&ms.labels);
    ns__reps_free(&rs);
    ns_load_free(&L);
    return rc;
}

/* ====== Runs ====== */

int ns_timeline_of_run(const char *dir, const ns_run *r, const ns_read_opts *ro, ns_timeline *tl) {
    /* its logs read as logs: their reports, with the lines they end at, and
     * the failure with the line it is on (run.json keeps neither's file) */
    static const char *const files[] = {"stdout.log", "stderr.log"};
    char *paths[2];
    int np = 0;
    for (int i = 0; i < 2; i++) {
        char *path = ns_path_join_new(dir, files[i]);
        if (access(path, F_OK) == 0) paths[np++] = path;
        else free(path);
    }
    ns_load L = {0};
    ns__reps rs = {0};
    ns_read_opts o = *ro;
    o.load = &L;
    o.threads = 1;
    long found = np ? ns_cli_scan(paths, np, &o, ns__rep_sink, &rs) : 0;
    ns__marks ms = {0};
    memset(tl, 0, sizeof *tl);
    ns__reader rd = {tl, ro->quiet, dir, 0};
    double start = NAN, end = NAN;
    int h, m, s, ms3;
    if (sscanf(r->started_clock, "%2d:%2d:%2d.%3d", &h, &m, &s, &ms3) == 4) {
        start = ns_tl_clock_put(&tl->clock, h * 3600.0 + m * 60 + s + ms3 / 1000.0, 0);
        end = start + r->wall_s;
    }
    int rc = found < 0 ? -1 : 0;
    for (int i = 0; i < np && rc == 0; i++) {
        rd.name = paths[i];
        rc = ns__read_lines(&rd, &ms, paths[i], paths[i], &rs, &L);
        if (rc) ns_error_at(paths[i], 0, "cannot be read");
    }
    if (rc == 0) {
        ns__fix_labels(&ms);
        ns_timeline_build(tl, dir, ms.m, ms.n, start, end);
    }
    for (int i = 0; i < np; i++) free(paths[i]);
    free(ms.m);
    ns_buf_free(&ms.labels);
    ns__reps_free(&rs);
    ns_load_free(&L);
    return rc;
}


/* ====== The report page ====== */

void ns_timeline_page(ns_page *p, const char *input, int k) {
    struct stat st;
    if (stat(input, &st) != 0) return;
    ns_read_opts ro = {0};
    ro.quiet = 1;
    ns_timeline tl;
    memset(&tl, 0, sizeof tl);
    if (S_ISREG(st.st_mode)) {
        ns_load L = {0};
        ns__reps rs = {0};
        ro.load = &L;
        char *in[1] = {(char *)input};
        if (ns_cli_scan(in, 1, &ro, ns__rep_sink, &rs) >= 0) ns_page_log_failures(p, &L);
        ns__reps_free(&rs);
        ns_load_free(&L);
        ro.load = NULL;
        if (ns_timeline_of_log(input, &ro, &tl) == 0) ns_page_timeline(p, &tl, k);
    } else if (S_ISDIR(st.st_mode)) {
        ns_buf own = {0};
        ns_buf_printf(&own, "%s/run.json", input);
        int one = access(own.data, F_OK) == 0;
        ns_buf_free(&own);
        ns_run *runs = NULL;
        int nruns = 0;
        ns_runs_forget(); /* the page read this run already: a second reading */
        if (one && ns_runs_read(input, &runs, &nruns) >= 0 && nruns == 1 &&
            ns_timeline_of_run(input, &runs[0], &ro, &tl) == 0)
            ns_page_timeline(p, &tl, k);
        for (int i = 0; i < nruns; i++) ns_run_free(&runs[i]);
        free(runs);
    }
    ns_timeline_free(&tl);
}
