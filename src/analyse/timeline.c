/* timeline.c -- the phases of a load (see timeline.h).
 *
 * One pass over the marks keeps the compiles: the ones still open in the
 * order they opened (a report closes the oldest), the one closed last (the
 * facts logged after its report extend it), and each compile's opening
 * lines seen so far (an opening line it has seen already opens another).
 * Then the compiles, sorted by start, give the gaps between them, the
 * overlap and the lanes a figure draws them in.
 */
#include "analyse/timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== The clock ====== */

double ns_tl_clock_put(ns_tl_clock *c, double sec, long line) {
    if (!c->started) {
        c->started = 1;
        c->first = sec;
        c->last = 0;
        c->day = 0;
        return 0;
    }
    double t = sec - c->first + c->day;
    if (t < c->last - 43200) { /* more than 12 hours back: midnight passed */
        c->day += 86400;
        c->wraps++;
        t += 86400;
    }
    if (t < c->last) { /* the clock went back: held */
        if (!c->backs) c->back_line = line;
        c->backs++;
        if (c->last - t > c->back_max) c->back_max = c->last - t;
        t = c->last;
    }
    c->last = t;
    return t;
}

/* ====== Compiles ====== */

typedef struct {
    double start, end; /* on the clock */
    unsigned seen;     /* opening lines seen */
    int open;          /* not closed yet */
    int failed;        /* failure lines came */
    int has_report;    /* a report closed it */
    double total;      /* its report's total */
    const char *label; /* its report's label, or its failure's */
} ns__comp;

typedef struct {
    ns__comp *c; /* compiles, in the order they opened */
    int n, cap;  /* used, allocated */
} ns__comps;

static ns__comp *ns__new(ns__comps *cs, double t) {
    if (cs->n == cs->cap) {
        cs->cap = cs->cap ? 2 * cs->cap : 16;
        cs->c = ns_xrealloc(cs->c, sizeof *cs->c * (size_t)cs->cap);
    }
    ns__comp *c = &cs->c[cs->n++];
    memset(c, 0, sizeof *c);
    c->start = c->end = t;
    c->open = 1;
    c->total = NAN;
    return c;
}

/* The oldest open compile (failed ones too when `failed`), or NULL. */
static ns__comp *ns__oldest(ns__comps *cs, int failed) {
    for (int i = 0; i < cs->n; i++)
        if (cs->c[i].open && (failed || !cs->c[i].failed)) return &cs->c[i];
    return NULL;
}

static int ns__by_start(const void *a, const void *b) {
    const ns_phase *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return (x->end > y->end) - (x->end < y->end);
}

/* ====== Build ====== */

static void ns__phase(ns_timeline *tl, ns_ph_kind k, double s, double e, const char *label,
                      double total) {
    tl->ph = ns_xrealloc(tl->ph, sizeof *tl->ph * (size_t)(tl->nph + 1));
    tl->ph[tl->nph++] = (ns_phase){k, s, e, label ? ns_strdup(label) : NULL, total, 0};
}

int ns_timeline_build(ns_timeline *tl, const char *source, const ns_tl_mark *m, long n,
                      double start, double end) {
    ns_tl_clock keep = tl->clock; /* the caller's counts */
    long untimed = tl->untimed, malformed = tl->malformed, first_bad = tl->first_bad;
    memset(tl, 0, sizeof *tl);
    tl->clock = keep;
    tl->untimed = untimed;
    tl->malformed = malformed;
    tl->first_bad = first_bad;
    tl->source = ns_strdup(source);
    tl->origin = keep.first;
    ns__comps cs = {0};
    ns__comp *just = NULL; /* closed by the last report: its facts follow */
    double now = NAN, lo = NAN, hi = NAN;
    for (long i = 0; i < n; i++) {
        const ns_tl_mark *k = &m[i];
        if (isfinite(k->t)) {
            now = k->t;
            if (!isfinite(lo)) lo = now;
            hi = now;
        }
        switch (k->kind) {
        case NS_TL_OPEN: {
            just = NULL;
            if (!isfinite(now)) break;
            ns__comp *c = NULL;
            for (int j = 0; j < cs.n && !c; j++)
                if (cs.c[j].open && !cs.c[j].failed && !(cs.c[j].seen & k->open)) c = &cs.c[j];
            for (int j = 0; j < cs.n; j++) /* a failed compile ends as another opens */
                if (cs.c[j].open && cs.c[j].failed) cs.c[j].open = 0;
            if (!c) c = ns__new(&cs, now);
            c->seen |= k->open;
            break;
        }
        case NS_TL_CLOSE:
            if (just && isfinite(now)) just->end = now;
            break;
        case NS_TL_FAIL: {
            just = NULL;
            ns__comp *c = ns__oldest(&cs, 1);
            if (!c) {
                if (!isfinite(now)) break;
                c = ns__new(&cs, now);
            }
            c->failed = 1;
            if (!c->label) c->label = k->label;
            if (isfinite(now)) c->end = now;
            break;
        }
        case NS_TL_CLINE:
            if (!isfinite(k->t)) break;
            if (just || !ns__oldest(&cs, 1)) { /* the compiler at work, none open */
                just = NULL;
                ns__new(&cs, now);
            }
            break;
        case NS_TL_REPORT: {
            ns__comp *c = ns__oldest(&cs, 1);
            if (!c && !isfinite(now)) {
                tl->unplaced++;
                break;
            }
            if (!c) c = ns__new(&cs, now); /* no line opened it: its span is unknown */
            c->open = 0;
            c->has_report = 1;
            c->failed = 0; /* it printed its report: it ended */
            c->total = k->total;
            c->label = k->label;
            c->end = now;
            just = c;
            tl->reports++;
            break;
        }
        case NS_TL_LINE: break;
        }
    }
    tl->timed = isfinite(lo);
    if (!tl->timed) {
        free(cs.c);
        return 0;
    }
    double s0 = isfinite(start) && start < lo ? start : lo;
    double s1 = isfinite(end) && end > hi ? end : hi;
    tl->span = s1 - s0;
    tl->origin = keep.first + s0;
    /* the compiles, then what lies around them */
    double sum = 0, totals = 0;
    for (int j = 0; j < cs.n; j++) {
        ns__comp *c = &cs.c[j];
        if (c->open && !c->failed) tl->open_at_end++;
        if (c->open && !c->failed) c->end = hi;
        ns__phase(tl, c->failed ? NS_PH_FAILED : NS_PH_COMPILE, c->start - s0, c->end - s0,
                  c->label, c->has_report ? c->total : NAN);
        sum += c->end - c->start;
        if (c->has_report && isfinite(c->total)) totals += c->total;
    }
    tl->compiles = cs.n;
    free(cs.c);
    qsort(tl->ph, (size_t)tl->nph, sizeof *tl->ph, ns__by_start);
    /* lanes: a compile goes in the first lane free at its start */
    double lane_end[64];
    int lanes = 0;
    double covered = 0, reach = 0;
    int ncomp = tl->nph;
    for (int j = 0; j < ncomp; j++) {
        double ps = tl->ph[j].start, pe = tl->ph[j].end; /* ns__phase may move ph */
        int l = 0;
        while (l < lanes && lane_end[l] > ps) l++;
        if (l == lanes && lanes < 64) lanes++;
        if (l >= 64) l = 63;
        lane_end[l] = pe;
        tl->ph[j].lane = l;
        double from = j == 0 || ps > reach ? ps : reach;
        if (pe > from) covered += pe - from;
        if (j == 0 && ps > 0) ns__phase(tl, NS_PH_BEFORE, 0, ps, NULL, NAN);
        else if (j > 0 && ps > reach) ns__phase(tl, NS_PH_GAP, reach, ps, NULL, NAN);
        if (j == 0 || pe > reach) reach = pe;
    }
    if (ncomp == 0) ns__phase(tl, NS_PH_BEFORE, 0, tl->span, NULL, NAN);
    else if (reach < tl->span) ns__phase(tl, NS_PH_AFTER, reach, tl->span, NULL, NAN);
    qsort(tl->ph, (size_t)tl->nph, sizeof *tl->ph, ns__by_start);
    tl->overlap = sum - covered;
    if (tl->overlap < 1e-9) tl->overlap = 0;
    tl->unaccounted = tl->span - totals;
    return 0;
}

void ns_timeline_free(ns_timeline *tl) {
    for (int i = 0; i < tl->nph; i++) free(tl->ph[i].label);
    free(tl->ph);
    free(tl->source);
    memset(tl, 0, sizeof *tl);
}

const char *ns_phase_kind_name(ns_ph_kind k) {
    static const char *const names[] = {"before", "compile", "failed-compile", "gap", "after"};
    return names[k];
}
