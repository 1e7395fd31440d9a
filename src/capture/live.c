/* live.c -- the live status (live.h). */
#include "capture/live.h"

#include "base/jsonw.h"
#include "model/stages.h"
#include "npu/logline.h"
#include "npu/npu.h"
#include "render/status.h"
#include "platform/plat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NS__LINE_KEEP 1024   /* the first bytes of a line are all a status needs */
#define NS__REDRAW_S 0.25    /* at most four redraws a second */

struct ns_live {
    int fd;                   /* status line's terminal, or -1 */
    int width;                /* its columns */
    FILE *events;             /* JSON lines, or NULL */
    char line[2][NS__LINE_KEEP]; /* per stream: the line being cut */
    size_t len[2];            /* its kept bytes */
    char *label;              /* the run's label */
    ns_profile *profile;      /* an earlier run's profile (owned), or NULL */
    ns_stage_map *map;        /* the vpux map: which logger is which pass (owned) */
    char *npuw;               /* NPUW layout, or NULL */
    ns_progress pos;          /* where in the profile */
    double entered;           /* run seconds when pos's row was logged; -1: none yet */
    int compiles;             /* reports finished in this run */
    char pass[160];           /* the pass logger seen last ("" none) */
    char sub[160];            /* a developer build's subgraph name ("" none) */
    char last_report[96];     /* "report N: X s" ("" none) */
    double t0;                /* the run's start (monotonic) */
    double drawn_at;          /* last redraw */
    int shown;                /* the line is on the screen */
};

static double ns__now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int ns_live_width(int fd) {
    const char *c = getenv("COLUMNS");
    if (c && atoi(c) > 0) return atoi(c);
    int w = ns_plat_term_width(fd);
    return w > 0 ? w : 80;
}

ns_live *ns_live_new(int fd, int width, FILE *events) {
    ns_live *l = ns_xcalloc(1, sizeof *l);
    l->fd = fd;
    l->width = width;
    l->events = events;
    l->t0 = ns__now();
    l->map = ns_stage_map_builtin_new("vpux");
    return l;
}

void ns_live_free(ns_live *l) {
    if (!l) return;
    ns_live_clear(l);
    ns_profile_free(l->profile);
    ns_stage_map_free(l->map);
    free(l->label);
    free(l->npuw);
    free(l);
}

void ns_live_start(ns_live *l, const char *label, ns_profile *profile, const char *npuw) {
    ns_profile_free(l->profile);
    free(l->label);
    free(l->npuw);
    l->label = label ? ns_strdup(label) : NULL;
    l->profile = profile;
    l->npuw = npuw ? ns_strdup(npuw) : NULL;
    l->pos.report = 0;
    l->pos.row = -1;
    l->entered = -1;
    l->compiles = 0;
    l->pass[0] = l->sub[0] = l->last_report[0] = 0;
    l->len[0] = l->len[1] = 0;
    l->t0 = ns__now();
    l->drawn_at = 0;
}

int ns_live_compiles(const ns_live *l) { return l->compiles; }

/* ====== Events ====== */

static void ns__event(ns_live *l, const char *kind, const char *name, double total) {
    if (!l->events) return;
    ns_buf b = {0};
    ns_buf_printf(&b, "{\"event\":\"%s\",\"t\":%.3f,\"compile\":%d", kind, ns__now() - l->t0,
                  l->compiles + 1);
    if (name) {
        ns_buf_puts(&b, ",\"pass\":");
        ns_json_str(&b, name);
    }
    if (!isnan(total)) ns_buf_printf(&b, ",\"total_s\":%.4f", total);
    ns_buf_puts(&b, "}\n");
    fwrite(b.data, 1, b.len, l->events);
    fflush(l->events);
    ns_buf_free(&b);
}

/* ====== Lines ====== */

static void ns__line(ns_live *l, const char *s, size_t n) {
    ns_logline ll;
    const char *name;
    size_t k;
    if (ns_logline_parse(s, n, &ll)) {
        char logger[160];
        size_t m = ll.logger_len < sizeof logger - 1 ? ll.logger_len : sizeof logger - 1;
        memcpy(logger, ll.logger, m);
        logger[m] = 0;
        const char *pass = ns_logger_pass(l->map, logger);
        if (pass && strcmp(logger, l->pass) != 0) {
            memcpy(l->pass, logger, m + 1);
            char key[128];
            ns_pass_key(pass, strlen(pass), key, sizeof key);
            if (ns_progress_pass(l->profile, &l->pos, l->compiles, key))
                l->entered = ns__now() - l->t0;
            else if (l->pos.row < 0)
                l->entered = -1; /* a new compile, none of its passes known yet */
            ns__event(l, "pass", l->pass, NAN);
        }
        return;
    }
    if ((k = ns_npuw_subgraph(s, n, &name)) > 0) {
        size_t m = k < sizeof l->sub - 1 ? k : sizeof l->sub - 1;
        memcpy(l->sub, name, m);
        l->sub[m] = 0;
        return;
    }
    /* "  Total Execution Time: 4.7896 seconds": a report is being printed,
     * so its compile is done (MLIR prints it at the end) */
    const char *t = memchr(s, 'T', n < 64 ? n : 64);
    if (t && (size_t)(s + n - t) > 22 && memcmp(t, "Total Execution Time: ", 22) == 0) {
        double total = strtod(t + 22, NULL);
        ns__event(l, "report", NULL, total);
        l->compiles++;
        snprintf(l->last_report, sizeof l->last_report, "report %d: %.4f s", l->compiles, total);
        ns_progress_report_done(&l->pos);
        l->entered = -1;
        l->pass[0] = l->sub[0] = 0;
    }
}

void ns_live_feed(ns_live *l, int stream, const char *buf, size_t n) {
    stream = stream ? 1 : 0;
    const char *p = buf, *end = buf + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        size_t take = (size_t)(stop - p), room = NS__LINE_KEEP - l->len[stream];
        if (take > room) take = room;
        memcpy(l->line[stream] + l->len[stream], p, take);
        l->len[stream] += take;
        if (!nl) break;
        size_t len = l->len[stream];
        if (len && l->line[stream][len - 1] == '\r') len--;
        ns__line(l, l->line[stream], len);
        l->len[stream] = 0;
        p = nl + 1;
    }
}

/* ====== Drawing ====== */

void ns_live_clear(ns_live *l) {
    if (l->fd < 0 || !l->shown) return;
    ssize_t w = write(l->fd, "\r\033[K", 4);
    (void)w;
    l->shown = 0;
}

void ns_live_tick(ns_live *l, int force) {
    if (l->fd < 0) return;
    double now = ns__now();
    if (!force && now - l->drawn_at < NS__REDRAW_S) return;
    l->drawn_at = now;
    double elapsed = now - l->t0;
    ns_status st = {l->label, elapsed, 0, 0, NULL, l->pass[0] ? l->pass : NULL, -1, -1, 0,
                    l->last_report[0] ? l->last_report : NULL};
    char label[64] = "";
    int expect = l->profile ? l->profile->nreports : 0;
    if (!expect && l->npuw) {
        /* the layout's length: the first k past it */
        while (ns_npuw_label(l->npuw, expect, label, sizeof label) == 0 && expect < 10000) expect++;
    }
    if (l->npuw) ns_npuw_label(l->npuw, l->compiles, label, sizeof label);
    if (expect > 1 || l->sub[0] || l->npuw) {
        st.compile = l->compiles + 1;
        st.ncompiles = expect;
        st.label = l->sub[0] ? l->sub : label[0] ? label : NULL;
    }
    if (l->profile && l->profile->total_s > 0) {
        double done = ns_progress_done_s(l->profile, &l->pos);
        double total = l->profile->total_s;
        st.share = done / total;
        if (st.share > 1) st.share = 1;
        st.slower = ns_progress_slower(elapsed, l->entered, done,
                                       ns_progress_end_s(l->profile, &l->pos));
        if (!st.slower) {
            double pace = done > 1 ? elapsed / done : 1;
            st.left_s = (total - done) * pace;
            if (done <= 1 && elapsed < total) st.left_s = total - elapsed;
            if (st.left_s < 0) st.left_s = 0;
        }
    }
    ns_buf b = {0};
    ns_buf_puts(&b, "\r");
    ns_status_format(&b, &st, l->width - 1);
    ns_buf_puts(&b, "\033[K");
    ssize_t w = write(l->fd, b.data, b.len);
    (void)w;
    ns_buf_free(&b);
    l->shown = 1;
}
