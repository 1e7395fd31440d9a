/* timeline.c -- the timeline's text, JSON and Chrome trace (timeline.h).
 *
 * Every number is the one analyse/timeline.c computed, to the millisecond
 * the log's clock has; the three formats differ in layout only.  In the
 * Chrome trace each input is a process, the phases around the compiles
 * are its first thread and each lane of compiles (a compile overlapping
 * another goes to the next lane) a thread of its own, so parallel compiles
 * show side by side.
 */
#include "render/timeline.h"

#include "base/jsonw.h"

#include <math.h>
#include <stdio.h>

void ns_clock_text(char *buf, size_t len, double sec) {
    long ms = lround(fmod(sec, 86400) * 1000);
    if (ms < 0) ms += 86400000L;
    snprintf(buf, len, "%02ld:%02ld:%02ld.%03ld", ms / 3600000, ms / 60000 % 60, ms / 1000 % 60,
             ms % 1000);
}

static void ns__num(ns_buf *b, double v) {
    if (isfinite(v)) ns_buf_printf(b, "%.3f", v == 0 ? 0.0 : v);
    else ns_buf_puts(b, "null");
}

/* ====== Text ====== */

static void ns__text(ns_buf *b, const ns_timeline *t) {
    if (!t->timed) {
        ns_buf_printf(b, "%s: no line has a time: no timeline\n", t->source);
        return;
    }
    char from[16], to[16];
    ns_clock_text(from, sizeof from, t->origin);
    ns_clock_text(to, sizeof to, t->origin + t->span);
    int failed = 0;
    for (int i = 0; i < t->nph; i++) failed += t->ph[i].kind == NS_PH_FAILED;
    ns_buf_printf(b, "%s: %.3f s, %s to %s; %d compile%s", t->source, t->span, from, to,
                  t->compiles, t->compiles == 1 ? "" : "s");
    if (failed) ns_buf_printf(b, " (%d failed)", failed);
    ns_buf_printf(b, ", %d report%s\n", t->reports, t->reports == 1 ? "" : "s");
    ns_buf_printf(b, "  %-14s %9s %9s %9s %9s  %s\n", "phase", "start s", "end s", "length s",
                  "report s", "label");
    for (int i = 0; i < t->nph; i++) {
        const ns_phase *p = &t->ph[i];
        ns_buf_printf(b, "  %-14s %9.3f %9.3f %9.3f ", ns_phase_kind_name(p->kind), p->start,
                      p->end, p->end - p->start);
        if (isfinite(p->total)) ns_buf_printf(b, "%9.4f", p->total);
        else ns_buf_printf(b, "%9s", "-");
        if (p->label) ns_buf_printf(b, "  %s", p->label);
        if (p->lane) ns_buf_puts(b, " (parallel)");
        ns_buf_putc(b, '\n');
    }
    ns_buf_printf(b, "  unaccounted %.3f s: the span minus the summed report totals\n",
                  t->unaccounted);
    if (t->overlap > 0)
        ns_buf_printf(b, "  overlap %.3f s: compiles running at once\n", t->overlap);
}

/* ====== JSON ====== */

static void ns__json(ns_buf *b, const ns_timeline *t) {
    ns_buf_puts(b, "{\"source\":");
    ns_json_str(b, t->source);
    ns_buf_puts(b, ",\"span_s\":");
    ns__num(b, t->timed ? t->span : NAN);
    ns_buf_puts(b, ",\"start_clock\":");
    if (t->timed) {
        char from[16];
        ns_clock_text(from, sizeof from, t->origin);
        ns_json_str(b, from);
    } else {
        ns_buf_puts(b, "null");
    }
    ns_buf_puts(b, ",\"phases\":[");
    for (int i = 0; i < t->nph; i++) {
        const ns_phase *p = &t->ph[i];
        ns_buf_printf(b, "%s\n{\"kind\":\"%s\",\"start_s\":", i ? "," : "",
                      ns_phase_kind_name(p->kind));
        ns__num(b, p->start);
        ns_buf_puts(b, ",\"end_s\":");
        ns__num(b, p->end);
        ns_buf_puts(b, ",\"label\":");
        if (p->label) ns_json_str(b, p->label);
        else ns_buf_puts(b, "null");
        ns_buf_puts(b, ",\"report_total_s\":");
        if (isfinite(p->total)) ns_buf_printf(b, "%.10g", p->total);
        else ns_buf_puts(b, "null");
        ns_buf_printf(b, ",\"lane\":%d}", p->lane);
    }
    ns_buf_puts(b, "],\n\"unaccounted_s\":");
    ns__num(b, t->timed ? t->unaccounted : NAN);
    ns_buf_puts(b, ",\"overlap_s\":");
    ns__num(b, t->timed ? t->overlap : NAN);
    ns_buf_printf(b, ",\"compiles\":%d,\"reports\":%d,\"untimed_lines\":%ld,"
                     "\"malformed_times\":%ld,\"midnights\":%d,\"clock_back_steps\":%d,"
                     "\"unplaced_reports\":%d}",
                  t->compiles, t->reports, t->untimed, t->malformed, t->clock.wraps,
                  t->clock.backs, t->unplaced);
}

/* ====== Chrome trace ====== */

static void ns__chrome(ns_buf *b, const ns_timeline *t, int pid, int *first) {
    ns_buf_printf(b, "%s\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":0,"
                     "\"args\":{\"name\":", *first ? "" : ",", pid);
    ns_json_str(b, t->source);
    ns_buf_puts(b, "}}");
    *first = 0;
    for (int i = 0; i < t->nph; i++) {
        const ns_phase *p = &t->ph[i];
        int compile = p->kind == NS_PH_COMPILE || p->kind == NS_PH_FAILED;
        ns_buf_puts(b, ",\n{\"name\":");
        ns_json_str(b, p->label ? p->label : ns_phase_kind_name(p->kind));
        ns_buf_printf(b, ",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%.0f,\"dur\":%.0f,\"pid\":%d,"
                         "\"tid\":%d}",
                      ns_phase_kind_name(p->kind), p->start * 1e6, (p->end - p->start) * 1e6,
                      pid, compile ? 1 + p->lane : 0);
    }
}

void ns_timeline_render(ns_buf *b, const ns_timeline *tl, int n, ns_tl_format f) {
    if (f == NS_TL_TEXT) {
        for (int i = 0; i < n; i++) ns__text(b, &tl[i]);
        return;
    }
    if (f == NS_TL_JSON) {
        ns_buf_puts(b, "{\"format\":\"npuscope-timeline\",\"version\":1,\"timelines\":[");
        for (int i = 0; i < n; i++) {
            ns_buf_puts(b, i ? ",\n" : "\n");
            ns__json(b, &tl[i]);
        }
        ns_buf_puts(b, "\n]}\n");
        return;
    }
    ns_buf_puts(b, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[");
    int first = 1;
    for (int i = 0; i < n; i++)
        if (tl[i].timed) ns__chrome(b, &tl[i], i + 1, &first);
    ns_buf_puts(b, "\n]}\n");
}
