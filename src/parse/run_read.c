/* run_read.c -- run.json files and run folders read into ns_run (see
 * run_read.h for what is read and what is forgiven).
 *
 * jansson parses the file; a value of the wrong type is caught here, and to
 * say on which line it is (jansson keeps no positions for values) the raw
 * text is walked once more by ns__key_line, a few lines of bracket counting
 * that know where strings start and end.  That is all the JSON knowledge
 * this file has of its own.
 *
 * One report at a time: jansson builds a whole document, and a run.json of
 * 100,000 reports took about 20 times its size as one DOM.  So the span
 * scanner (base/jsonscan.h) finds the elements of "reports"; jansson parses
 * the rest of the document with "reports" emptied (its line breaks kept,
 * so every line stays where it was), then each element alone, which is
 * made a report and freed before the next.  The outcome must be the one a
 * whole parse gives, messages included: warnings about reports are held
 * until every element has parsed, and any failure before that (a broken
 * element, a field error, the scanner's doubt) parses the whole document
 * again the old way, for jansson's own words (tests/unit_jsonscan.c holds
 * the two paths against each other).
 *
 * Each field is read by a small getter that returns 0 when the member is
 * absent (the default stays), 1 when it was read, and -1 after recording
 * the failure reason that skips the run (ns_why); ns__load stops at the
 * first -1.  The folder reader hands that reason on as a warning ("...;
 * run skipped"), and every other message to the caller's sink: nothing
 * here prints.
 */
#include "parse/run_read.h"
#include "parse/group.h"

#include "base/jsonscan.h"
#include "model/load.h"
#include "model/report.h"
#include "parse/tree_read.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ====== Where a member is written ====== */

/* The line on which the top-level member `key` is written (sub == NULL), or
 * the member `sub` of the object that is key's value; the line of `key`
 * when sub is not there, 0 when key is not either.  Keys are compared byte
 * for byte as written, so a key spelled with escapes is not found; for a
 * repeated key the last one counts, as in jansson. */
static long ns__key_line(const char *s, size_t n, const char *key, const char *sub) {
    long line = 1, found = 0, str_line = 0;
    const char *str = NULL; /* the last string seen */
    size_t str_len = 0;     /* its length between the quotes */
    int depth = 0, in_key = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '\n') {
            line++;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            depth--;
        } else if (c == '"') {
            str = s + i + 1;
            str_line = line;
            for (i++; i < n && s[i] != '"'; i++) {
                if (s[i] == '\\' && i + 1 < n) i++;
                if (s[i] == '\n') line++;
            }
            str_len = (size_t)(s + i - str);
        } else if (c == ':' && str) {
            int match_key = str_len == strlen(key) && memcmp(str, key, str_len) == 0;
            if (depth == 1) {
                in_key = match_key;
                if (in_key) found = str_line;
            } else if (depth == 2 && in_key && sub && str_len == strlen(sub) &&
                       memcmp(str, sub, str_len) == 0) {
                found = str_line;
            }
            str = NULL;
        }
    }
    return found;
}

/* ====== Typed members ====== */

typedef struct {
    const char *path;    /* run.json, for messages */
    const char *text;    /* its bytes */
    size_t len;          /* their count */
    const ns_diag *diag; /* where a warning that keeps the run goes */
    ns_why *why;         /* why the run is skipped, when it is */
    long reports_line;   /* line of "reports", found on the first warning
                            about one (-1: not looked up yet): a run.json of
                            100,000 broken reports is read in one walk of
                            the text, not one per report */
    const ns_jspan *spans; /* the "reports" elements in text, parsed one at
                              a time (NULL: the document was parsed whole) */
    long nspans;           /* their number */
    ns_buf held;           /* warnings about reports, '\0'-ended, said
                              once every element has parsed */
    int said;              /* they have been said */
} ns__src;

static const char *ns__type_name(const json_t *v) {
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "true/false";
    default: return "null";
    }
}

/* Say that member key (or key.sub) is not what it must be; returns -1. */
static int ns__bad(const ns__src *src, const char *key, const char *sub, const char *want,
                   const json_t *v) {
    long line = ns__key_line(src->text, src->len, key, sub);
    if (sub)
        return ns_fail(src->why, line, "\"%s\" member \"%s\" must be %s, not %s", key, sub,
                       want, ns__type_name(v));
    return ns_fail(src->why, line, "\"%s\" must be %s, not %s", key, want, ns__type_name(v));
}

/* A number; null gives NaN when null_ok. */
static int ns__get_double(const ns__src *src, const json_t *o, const char *key, int null_ok,
                          double *out) {
    const json_t *v = json_object_get(o, key);
    if (!v) return 0;
    if (json_is_null(v) && null_ok) {
        *out = NAN;
        return 1;
    }
    if (!json_is_number(v))
        return ns__bad(src, key, NULL, null_ok ? "a number or null" : "a number", v);
    *out = json_number_value(v);
    return 1;
}

/* A whole number in [lo, hi]; null gives null_value when null_ok. */
static int ns__get_int(const ns__src *src, const json_t *o, const char *key, long long lo,
                       long long hi, int null_ok, long long null_value, long long *out) {
    const json_t *v = json_object_get(o, key);
    if (!v) return 0;
    if (json_is_null(v) && null_ok) {
        *out = null_value;
        return 1;
    }
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
        char want[96];
        snprintf(want, sizeof want, "a whole number from %lld to %lld%s", lo, hi,
                 null_ok ? " or null" : "");
        long line = ns__key_line(src->text, src->len, key, NULL);
        if (json_is_integer(v))
            return ns_fail(src->why, line, "\"%s\" must be %s, not %lld", key, want,
                           (long long)json_integer_value(v));
        if (json_is_real(v))
            return ns_fail(src->why, line, "\"%s\" must be %s, not %g", key, want,
                           json_real_value(v));
        return ns__bad(src, key, NULL, want, v);
    }
    *out = (long long)json_integer_value(v);
    return 1;
}

static int ns__get_bool(const ns__src *src, const json_t *o, const char *key, int *out) {
    const json_t *v = json_object_get(o, key);
    if (!v) return 0;
    if (!json_is_boolean(v)) return ns__bad(src, key, NULL, "true or false", v);
    *out = json_is_true(v);
    return 1;
}

/* A string (copied into *out, replacing it); null leaves *out when null_ok. */
static int ns__get_str(const ns__src *src, const json_t *o, const char *key, int null_ok,
                       char **out) {
    const json_t *v = json_object_get(o, key);
    if (!v) return 0;
    if (json_is_null(v) && null_ok) return 1;
    if (!json_is_string(v))
        return ns__bad(src, key, NULL, null_ok ? "a string or null" : "a string", v);
    free(*out);
    *out = ns_strdup(json_string_value(v));
    return 1;
}

/* An object of strings, in the file's order (jansson keeps it).  Tags may
 * also be whole numbers, kept as their decimal text. */
/* key=value into l: appended when l holds only unique keys so far
 * (`fresh`), else through ns_kv_set (which replaces). */
static void ns__kv_put(ns_kvlist *l, const char *key, const char *value, int fresh) {
    if (!fresh) {
        ns_kv_set(l, key, value);
        return;
    }
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 8;
        l->items = ns_xrealloc(l->items, sizeof *l->items * (size_t)l->cap);
    }
    l->items[l->n].key = ns_strdup(key);
    l->items[l->n].value = ns_strdup(value);
    l->n++;
}

static int ns__get_kv(const ns__src *src, const json_t *o, const char *key, int ints_ok,
                      ns_kvlist *out) {
    const json_t *v = json_object_get(o, key);
    if (!v) return 0;
    if (!json_is_object(v)) return ns__bad(src, key, NULL, "an object", v);
    const char *k;
    json_t *e;
    /* a JSON object's keys are unique (jansson keeps the last of a repeated
     * one): into an empty list they are appended, not looked up one by one
     * (100,000 tags were 100,000^2 comparisons) */
    int fresh = out->n == 0;
    json_object_foreach((json_t *)v, k, e) {
        char num[32];
        if (json_is_string(e)) {
            ns__kv_put(out, k, json_string_value(e), fresh);
        } else if (ints_ok && json_is_integer(e)) {
            snprintf(num, sizeof num, "%lld", (long long)json_integer_value(e));
            ns__kv_put(out, k, num, fresh);
        } else {
            return ns__bad(src, key, k, ints_ok ? "a string or a whole number" : "a string", e);
        }
    }
    return 1;
}

static int ns__get_argv(const ns__src *src, const json_t *o, const char *key, char ***out) {
    const json_t *v = json_object_get(o, key);
    if (!v) return 0;
    if (!json_is_array(v)) return ns__bad(src, key, NULL, "an array of strings", v);
    size_t n = json_array_size(v);
    for (size_t i = 0; i < n; i++)
        if (!json_is_string(json_array_get(v, i)))
            return ns__bad(src, key, NULL, "an array of strings", json_array_get(v, i));
    *out = ns_xcalloc(n + 1, sizeof **out);
    for (size_t i = 0; i < n; i++) (*out)[i] = ns_strdup(json_string_value(json_array_get(v, i)));
    return 1;
}

/* "metrics": {NAME: number or null} with "metric_counts": {NAME: count};
 * a null metric (declared, never matched) is not stored. */
static int ns__get_metrics(const ns__src *src, const json_t *o, ns_run *r) {
    const json_t *m = json_object_get(o, "metrics");
    const json_t *c = json_object_get(o, "metric_counts");
    if (m && !json_is_null(m) && !json_is_object(m))
        return ns__bad(src, "metrics", NULL, "an object or null", m);
    if (c && !json_is_null(c) && !json_is_object(c))
        return ns__bad(src, "metric_counts", NULL, "an object or null", c);
    if (!json_is_object(m)) return 0;
    const char *k;
    json_t *e;
    /* one allocation for all of them: growing by one per metric costs a
     * copy of the array each time on a run.json of 100,000 metrics */
    r->metrics = ns_xcalloc(json_object_size(m) + 1, sizeof *r->metrics);
    json_object_foreach((json_t *)m, k, e) {
        if (json_is_null(e)) continue;
        if (!json_is_number(e)) return ns__bad(src, "metrics", k, "a number or null", e);
        const json_t *ce = c ? json_object_get(c, k) : NULL;
        if (ce && !json_is_integer(ce))
            return ns__bad(src, "metric_counts", k, "a whole number", ce);
        ns_metric *x = &r->metrics[r->nmetrics++];
        x->name = ns_strdup(k);
        x->value = json_number_value(e);
        x->count = ce ? (long)json_integer_value(ce) : 1;
    }
    return 1;
}

/* "host": {"name", "os", "cpus"} as one line, "name, os, N cpus" (the
 * page tallies the hosts of a sweep); a host that is not an object is
 * wrong, one without a name is "?". */
static int ns__get_host(const ns__src *src, const json_t *o, ns_run *r) {
    const json_t *h = json_object_get(o, "host");
    if (!h || json_is_null(h)) return 0;
    if (!json_is_object(h)) return ns__bad(src, "host", NULL, "an object or null", h);
    const char *name = json_string_value(json_object_get(h, "name"));
    const char *os = json_string_value(json_object_get(h, "os"));
    const json_t *cpus = json_object_get(h, "cpus");
    ns_buf b = {0};
    ns_buf_printf(&b, "%s%s%s", name ? name : "?", os ? ", " : "", os ? os : "");
    if (json_is_integer(cpus)) ns_buf_printf(&b, ", %lld cpus", (long long)json_integer_value(cpus));
    free(r->host);
    r->host = b.data;
    return 1;
}

/* "failure": {"pass", "location", "submodel", "message" (strings or
 * null), "line" (a whole number or null), "file"} (model/load.h), or
 * absent / null: no failure was seen. */
static int ns__get_failure(const ns__src *src, const json_t *o, ns_run *r) {
    const json_t *f = json_object_get(o, "failure");
    if (!f || json_is_null(f)) return 0;
    if (!json_is_object(f)) return ns__bad(src, "failure", NULL, "an object or null", f);
    ns_failure *x = ns_xcalloc(1, sizeof *x);
    r->failure = x;
    static const char *const keys[] = {"pass", "location", "submodel", "message", "file"};
    char **outs[] = {&x->pass, &x->location, &x->submodel, &x->message, &x->file};
    for (int i = 0; i < 5; i++)
        if (ns__get_str(src, f, keys[i], 1, outs[i]) < 0) return -1;
    const json_t *line = json_object_get(f, "line");
    if (line && !json_is_null(line)) {
        if (!json_is_integer(line) || json_integer_value(line) < 0)
            return ns__bad(src, "failure", "line", "a whole number or null", line);
        x->line = (long)json_integer_value(line);
    }
    return 1;
}

/* ====== One run.json ====== */

/* the run.json versions this reader knows: 2 is 1 with deep reports'
 * rows written flat (render/tree_json.h), written only by a run that has
 * such a report */
#define NS__RUN_VERSION 2

/* Every member ns_run keeps; -1 at the first bad one.  r is filled as far
 * as it got (the caller frees it). */
static int ns__load(ns__src *src, const json_t *o, ns_run *r) {
    long long x;
    int rc;
    const json_t *fmt = json_object_get(o, "format");
    if (fmt && (!json_is_string(fmt) || strcmp(json_string_value(fmt), "npuscope-run") != 0)) {
        return ns_fail(src->why, ns__key_line(src->text, src->len, "format", NULL),
                       "\"format\" is not \"npuscope-run\"");
    }
    if ((rc = ns__get_int(src, o, "version", 1, 1000000, 0, 0, &x)) < 0) return -1;
    /* a later version may mean other things by the same names: reading it
     * as version 1 could give a silently wrong number */
    if (rc && x > NS__RUN_VERSION)
        return ns_fail(src->why, ns__key_line(src->text, src->len, "version", NULL),
                       "\"version\" is %lld; this npuscope reads versions 1 to %d", x,
                       NS__RUN_VERSION);
    /* id: the folder name is the id (record makes them equal); the member
     * is only checked */
    char *id = NULL;
    rc = ns__get_str(src, o, "id", 0, &id);
    free(id);
    if (rc < 0) return -1;
    if (ns__get_argv(src, o, "command", &r->argv) < 0) return -1;
    if (ns__get_kv(src, o, "env", 0, &r->env) < 0) return -1;
    if (ns__get_kv(src, o, "tags", 1, &r->tags) < 0) return -1;
    if (ns__get_str(src, o, "mode", 0, &r->mode) < 0) return -1;
    if (strcmp(r->mode, "cold") != 0 && strcmp(r->mode, "warm") != 0 &&
        strcmp(r->mode, "none") != 0) {
        return ns_fail(src->why, ns__key_line(src->text, src->len, "mode", NULL),
                       "\"mode\" must be \"cold\", \"warm\" or \"none\", not \"%s\"", r->mode);
    }
    if ((rc = ns__get_int(src, o, "repeat", 0, 1000000000, 0, 0, &x)) < 0) return -1;
    if (rc) r->repeat = (int)x;
    if (ns__get_bool(src, o, "warmup", &r->warmup) < 0) return -1;
    if (ns__get_bool(src, o, "primer", &r->primer) < 0) return -1;
    char *at = NULL;
    rc = ns__get_str(src, o, "started_at", 1, &at);
    if (at) snprintf(r->started_at, sizeof r->started_at, "%s", at);
    free(at);
    if (rc < 0) return -1;
    at = NULL;
    rc = ns__get_str(src, o, "started_clock", 1, &at);
    if (at && strlen(at) < sizeof r->started_clock) memcpy(r->started_clock, at, strlen(at) + 1);
    free(at);
    if (rc < 0) return -1;
    if ((rc = ns__get_double(src, o, "wall_s", 1, &r->wall_s)) <= 0) {
        return rc < 0 ? -1 : ns_fail(src->why, 0, "no \"wall_s\"");
    }
    if (ns__get_double(src, o, "user_s", 1, &r->user_s) < 0) return -1;
    if (ns__get_double(src, o, "sys_s", 1, &r->sys_s) < 0) return -1;
    if (ns__get_double(src, o, "peak_rss_mb", 1, &r->peak_rss_mb) < 0) return -1;
    if ((rc = ns__get_int(src, o, "exit_code", -1000000, 1000000, 1, -1, &x)) <= 0) {
        return rc < 0 ? -1 : ns_fail(src->why, 0, "no \"exit_code\"");
    }
    r->exit_code = (int)x;
    if ((rc = ns__get_int(src, o, "signal", 0, 1000, 1, 0, &x)) < 0) return -1;
    if (rc) r->signal = (int)x;
    if (ns__get_bool(src, o, "timed_out", &r->timed_out) < 0) return -1;
    if (ns__get_bool(src, o, "interrupted", &r->interrupted) < 0) return -1;
    if (ns__get_bool(src, o, "disturbed", &r->disturbed) < 0) return -1; /* kept, not counted */
    if (ns__get_str(src, o, "error", 1, &r->error) < 0) return -1;
    if (ns__get_metrics(src, o, r) < 0) return -1;
    if ((rc = ns__get_int(src, o, "stdout_bytes", 0, INT64_MAX, 0, 0, &x)) < 0) return -1;
    if (rc) r->stdout_bytes = (unsigned long long)x;
    if ((rc = ns__get_int(src, o, "stderr_bytes", 0, INT64_MAX, 0, 0, &x)) < 0) return -1;
    if (rc) r->stderr_bytes = (unsigned long long)x;
    if (ns__get_host(src, o, r) < 0) return -1;
    /* what the output said of a failed compile and the NPU stack */
    if (ns__get_kv(src, o, "environment", 1, &r->environment) < 0) return -1;
    if (ns__get_failure(src, o, r) < 0) return -1;
    /* the reports found in the run's output */
    const json_t *reps = json_object_get(o, "reports");
    if (reps && !json_is_null(reps) && !json_is_array(reps))
        return ns__bad(src, "reports", NULL, "an array or null", reps);
    if (json_is_array(reps)) {
        size_t n = src->spans ? (size_t)src->nspans : json_array_size(reps);
        r->reports = ns_xcalloc(n + 1, sizeof *r->reports);
        for (size_t i = 0; i < n; i++) {
            json_t *own = NULL; /* an element parsed alone: freed at once */
            const json_t *rep;
            if (src->spans) {
                json_error_t err;
                own = json_loadb(src->text + src->spans[i].off, src->spans[i].len,
                                 JSON_DECODE_ANY, &err);
                /* not JSON: the caller parses the whole document, for
                 * jansson's message about it */
                if (!own) return ns_fail(src->why, 0, "report %zu is not JSON", i + 1);
                rep = own;
            } else {
                rep = json_array_get(reps, i);
            }
            const char *why;
            ns_report *rp = ns_report_from_json_new(rep, src->path, &why);
            json_decref(own);
            if (!rp) {
                ns_buf_printf(&src->held, "report %zu: %s; report skipped", i + 1, why);
                ns_buf_putc(&src->held, '\0');
                continue;
            }
            r->reports[r->nreports++] = rp;
        }
        /* every element is JSON: what was wrong with some is said now */
        src->said = 1;
        for (size_t w = 0; w < src->held.len; w += strlen(src->held.data + w) + 1) {
            if (src->reports_line < 0)
                src->reports_line = ns__key_line(src->text, src->len, "reports", NULL);
            ns_diag_say(src->diag, NS_DIAG_WARNING, src->path, src->reports_line, "%s",
                        src->held.data + w);
        }
        /* which of them are one compile's tables (parse/group.h) */
        ns_group_link_all(r->reports, r->nreports);
        ns_report_group_ws(r->reports, r->nreports); /* weights separation: one compile */
        for (int k = 0; k < r->nreports; k++) r->compiles += ns_report_starts_compile(r->reports[k]);
    }
    /* a run that succeeded without a time cannot be counted: say so */
    if (ns_run_ok(r) && !(r->wall_s >= 0)) {
        return ns_fail(src->why, ns__key_line(src->text, src->len, "wall_s", NULL),
                       "\"wall_s\" is %s, but the run succeeded",
                       isnan(r->wall_s) ? "null" : "negative");
    }
    /* "ok" is recomputed, not read; but a hand-edited one that is not
     * true/false, or that says the opposite, is worth a word */
    int ok = -1;
    if (ns__get_bool(src, o, "ok", &ok) < 0) return -1;
    if (ok >= 0 && ok != ns_run_ok(r))
        ns_diag_say(src->diag, NS_DIAG_WARNING, src->path,
                    ns__key_line(src->text, src->len, "ok", NULL),
                    "\"ok\" is %s, but the run's fields say it %s; counted as %s",
                    ok ? "true" : "false", ns_run_ok(r) ? "succeeded" : "failed",
                    ns_run_ok(r) ? "ok" : "failed");
    return 0;
}

/* Running out of descriptors or memory is the machine's state, not the
 * run's: the command stops (exit 2) rather than skip runs and report on
 * the rest as if they were all. */
static int ns__resource_errno(int e) { return e == EMFILE || e == ENFILE || e == ENOMEM; }

/* Parse doc (len bytes) and read it into r.  With spans, doc is the
 * skeleton of text (its "reports" emptied) and the reports are the spans
 * of text: any failure before the reports have been said returns -3, and
 * the caller parses the whole text instead, for the very message a whole
 * parse gives (a broken element, an error after it, and so on).  Else as
 * ns_run_load. */
static int ns__parse(const char *doc, size_t len, const char *text, size_t text_len,
                     const ns_jspan *spans, long nspans, const char *path, const char *id,
                     ns_run *r, const ns_diag *d, ns_why *why) {
    memset(r, 0, sizeof *r);
    int rc = -1;
    json_error_t err;
    ns__src src = {path, text, text_len, d, why, -1, spans, nspans, {0}, 0};
    json_t *root = json_loadb(doc, len, 0, &err);
    if (!root && spans) {
        rc = -3;
    } else if (!root) {
        /* jansson quotes the bytes it stopped at, which may be anything */
        for (char *p = err.text; *p; p++)
            if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f) *p = '?';
        if (json_error_code(&err) == json_error_out_of_memory) {
            /* a valid run that does not fit: not "not valid JSON" */
            ns_fail(why, 0, "out of memory reading %zu bytes of JSON", len);
            rc = -2;
        } else if (strstr(err.text, "maximum parsing depth")) {
            ns_fail(why, err.line, "nested deeper than a reader can follow (%d JSON levels: a "
                                   "report of about %d nested rows)",
                    NS_RUN_JSON_MAX_DEPTH, NS_RUN_JSON_MAX_ROWS);
        } else
            ns_fail(why, err.line, "not valid JSON: %s", err.text);
    } else if (!json_is_object(root)) {
        ns_fail(why, 1, "the document must be an object, not %s", ns__type_name(root));
    } else {
        r->id = ns_strdup(id);
        r->mode = ns_strdup("none");
        r->wall_s = r->user_s = r->sys_s = r->peak_rss_mb = NAN;
        r->exit_code = -1;
        rc = ns__load(&src, root, r);
        if (rc < 0 && spans && !src.said) rc = -3;
    }
    if (rc < 0) ns_run_free(r);
    json_decref(root);
    ns_buf_free(&src.held);
    return rc;
}

/* The skeleton of text: its "reports" value (at arr) emptied to "[]" with
 * the same line breaks inside, so that every other member, and jansson's
 * line of any error in one, stays where it was. */
static void ns__skeleton(ns_buf *out, const char *text, size_t len, ns_jspan arr) {
    ns_buf_add(out, text, arr.off);
    ns_buf_putc(out, '[');
    for (const char *p = text + arr.off, *e = p + arr.len; (p = memchr(p, '\n', (size_t)(e - p)));
         p++)
        ns_buf_putc(out, '\n');
    ns_buf_putc(out, ']');
    ns_buf_add(out, text + arr.off + arr.len, len - arr.off - arr.len);
}

int ns_run_load(const char *path, const char *id, ns_run *r, const ns_diag *d, ns_why *why) {
    memset(r, 0, sizeof *r);
    int rc = -1;
    ns_buf text = {0}, skel = {0};
    ns_jspan *spans = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        int e = errno;
        ns_fail(why, 0, "%s", strerror(e));
        if (ns__resource_errno(e)) rc = -2;
        goto out;
    }
    char chunk[8192];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) ns_buf_add(&text, chunk, got);
    int read_failed = ferror(f);
    fclose(f);
    if (read_failed) {
        ns_fail(why, 0, "read error");
        goto out;
    }
    const char *t = text.data ? text.data : "";
    /* one report's DOM at a time where the scanner finds the "reports"
     * elements (base/jsonscan.h): a run.json of 100,000 reports parsed
     * whole took about 20 times its size; else, and whenever the pieces
     * do not read, the whole document as before */
    ns_jspan arr;
    const char *scan_why;
    long n = ns_jscan_member(t, text.len, "reports", &arr, &scan_why) == 1
                 ? ns_jscan_elements(t, arr, &spans, &scan_why)
                 : -1;
    if (n > 0) {
        ns__skeleton(&skel, t, text.len, arr);
        rc = ns__parse(skel.data, skel.len, t, text.len, spans, n, path, id, r, d, why);
        ns_buf_free(&skel);
        if (rc != -3) goto out;
        why->text[0] = '\0';
        why->line = 0;
    }
    rc = ns__parse(t, text.len, t, text.len, NULL, 0, path, id, r, d, why);
out:
    free(spans);
    ns_buf_free(&text);
    return rc;
}

/* ====== Run folders ====== */

/* dir + "/" + a [+ "/" + b], without doubling a trailing slash of dir. */
static char *ns__join_new(const char *dir, const char *a, const char *b) {
    ns_buf p = {0};
    ns_buf_puts(&p, dir);
    if (p.len && p.data[p.len - 1] != '/') ns_buf_putc(&p, '/');
    ns_buf_puts(&p, a);
    if (b) {
        ns_buf_putc(&p, '/');
        ns_buf_puts(&p, b);
    }
    return p.data;
}

/* 1 if path is a regular file, 0 if it does not exist, -1 (warned) if it
 * is something else (a FIFO, a folder: never opened, a FIFO would block)
 * or cannot be looked at, -2 (an error said) when the machine is out of
 * descriptors or memory. */
static int ns__is_file(const char *path, const ns_diag *d) {
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISREG(st.st_mode)) return 1;
        const char *what = S_ISFIFO(st.st_mode)  ? "a FIFO"
                           : S_ISDIR(st.st_mode)  ? "a folder"
                           : S_ISSOCK(st.st_mode) ? "a socket"
                           : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                                                                        : "not a regular file";
        ns_diag_say(d, NS_DIAG_WARNING, path, 0, "is %s, not a file; run skipped", what);
        return -1;
    }
    int e = errno;
    if (e == ENOENT || e == ENOTDIR) return 0;
    if (ns__resource_errno(e)) {
        ns_diag_say(d, NS_DIAG_ERROR, path, 0, "%s: stopped, not read as no run", strerror(e));
        return -2;
    }
    ns_diag_say(d, NS_DIAG_WARNING, path, 0, "%s; run skipped", strerror(e));
    return -1;
}

static int ns__cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Load path as run `id` and hand it to fn; 1 if it was read, 0 if skipped
 * (and a warning says why), -1 when the machine ran out of descriptors or
 * memory (an error says so: the caller stops). */
static int ns__hand(const char *path, const char *id, ns_run_fn fn, void *ctx,
                    const ns_diag *d) {
    ns_run r;
    ns_why why = {"", 0};
    int rc = ns_run_load(path, id, &r, d, &why);
    if (rc == -2) {
        ns_diag_why(d, NS_DIAG_ERROR, path, &why, "; stopped");
        return -1;
    }
    if (rc < 0) {
        ns_diag_why(d, NS_DIAG_WARNING, path, &why, "; run skipped");
        return 0;
    }
    fn(&r, ctx);
    return 1;
}

int ns_run_folder_each(const char *dir, ns_run_fn fn, void *ctx, const ns_diag *diag) {
    int added = -1;
    char *path = NULL, *id = NULL;
    char **names = NULL;
    size_t nnames = 0, cap = 0;
    DIR *d = NULL;
    struct stat st;
    if (stat(dir, &st) != 0) {
        ns_diag_say(diag, NS_DIAG_ERROR, dir, 0, "%s", strerror(errno));
        goto out;
    }
    if (!S_ISDIR(st.st_mode)) {
        ns_diag_say(diag, NS_DIAG_ERROR, dir, 0,
                    "not a folder (give a run folder or a folder of run folders)");
        goto out;
    }
    path = ns__join_new(dir, "run.json", NULL);
    int single = ns__is_file(path, diag);
    if (single) {
        /* the folder is a run: its name is the id */
        size_t len = strlen(dir);
        while (len > 1 && dir[len - 1] == '/') len--;
        size_t start = len;
        while (start > 0 && dir[start - 1] != '/') start--;
        id = ns_strndup(dir + start, len - start);
        added = single > 0 ? ns__hand(path, id, fn, ctx, diag) : single == -2 ? -1 : 0;
        goto out;
    }
    if (!(d = opendir(dir))) {
        ns_diag_say(diag, NS_DIAG_ERROR, dir, 0, "%s", strerror(errno));
        goto out;
    }
    for (;;) {
        errno = 0;
        struct dirent *e = readdir(d);
        if (!e) break;
        if (e->d_name[0] == '.') continue; /* ".", "..", runs being written */
        if (nnames == cap) {
            cap = cap ? cap * 2 : 64;
            names = ns_xrealloc(names, sizeof *names * cap);
        }
        names[nnames++] = ns_strdup(e->d_name);
    }
    if (errno) {
        ns_diag_say(diag, NS_DIAG_ERROR, dir, 0, "%s", strerror(errno));
        goto out;
    }
    if (nnames) qsort(names, nnames, sizeof *names, ns__cmp_str);
    added = 0;
    for (size_t i = 0; i < nnames; i++) {
        free(path);
        path = ns__join_new(dir, names[i], "run.json");
        int is = ns__is_file(path, diag), got = is > 0 ? ns__hand(path, names[i], fn, ctx, diag) : 0;
        if (is == -2 || got < 0) { /* out of descriptors or memory: stop */
            added = -1;
            goto out;
        }
        added += got;
    }
out:
    if (d) closedir(d);
    for (size_t i = 0; i < nnames; i++) free(names[i]);
    free(names);
    free(path);
    free(id);
    return added;
}

/* ====== Into an array ====== */

typedef struct {
    ns_run **runs; /* the caller's array */
    int *nruns;    /* its entries */
} ns__array;

static void ns__append(ns_run *r, void *ctx) {
    ns__array *a = ctx;
    /* capacity is the next power of two: 100,000 runs are 17 copies of the
     * array, not 100,000 */
    int n = *a->nruns;
    if (n == 0 || (n & (n - 1)) == 0)
        *a->runs = ns_xrealloc(*a->runs, sizeof **a->runs * (size_t)(n ? 2 * n : 1));
    (*a->runs)[(*a->nruns)++] = *r;
}

int ns_run_folder_read(const char *dir, ns_run **runs, int *nruns, const ns_diag *d) {
    ns__array a = {runs, nruns};
    return ns_run_folder_each(dir, ns__append, &a, d);
}
