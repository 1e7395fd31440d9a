/* dataset.c -- runs, selections, values of a run, and CSV tables for the
 * analysing commands (see dataset.h for the field names and the rules).
 *
 * Everything here is reading and choosing; nothing computes a statistic
 * (stats.c), fits (fit.c) or compares (diff.c).  Nothing is remembered
 * between calls either: the stage maps a field is read with come with the
 * field (ns_field.stages), chosen by the command.
 */
#include "analyse/dataset.h"
#include "analyse/model_name.h"

#include "base/num.h"
#include "base/strmap.h"
#include "model/report.h"
#include "parse/run_read.h"

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== Fields ====== */

int ns_field_parse(const char *spec, int as_axis, ns_field *f, const char **why) {
    static const char axis_why[] = "expected a tag whose values are numbers (AXIS), metric:NAME or fact:NAME";
    static const char y_why[] =
        "expected wall, user, sys, peak, total, pass:NAME, stage:NAME, fact:NAME or metric:NAME";
    f->spec = spec;
    f->name = NULL;
    f->stages = NULL;
    if (strncmp(spec, "metric:", 7) == 0 && spec[7]) {
        f->kind = NS_FIELD_METRIC;
        f->name = spec + 7;
        return 0;
    }
    if (strncmp(spec, "fact:", 5) == 0 && spec[5]) {
        f->kind = NS_FIELD_FACT;
        f->name = spec + 5;
        return 0;
    }
    if (strncmp(spec, "stage:", 6) == 0 && !as_axis) {
        if (!spec[6]) {
            *why = "stage:NAME needs the name of a stage (see 'npuscope stages')";
            return -1;
        }
        f->kind = NS_FIELD_STAGE;
        f->name = spec + 6;
        return 0;
    }
    if (as_axis) {
        if (!*spec || strchr(spec, ':')) {
            *why = axis_why;
            return -1;
        }
        f->kind = NS_FIELD_TAG;
        f->name = spec;
        return 0;
    }
    if (strncmp(spec, "pass:", 5) == 0 && spec[5]) {
        f->kind = NS_FIELD_PASS;
        f->name = spec + 5;
        return 0;
    }
    static const struct {
        const char *word;   /* as written */
        ns_field_kind kind; /* what it is */
    } words[] = {{"wall", NS_FIELD_WALL},
                 {"user", NS_FIELD_USER},
                 {"sys", NS_FIELD_SYS},
                 {"peak", NS_FIELD_PEAK},
                 {"total", NS_FIELD_TOTAL}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(spec, words[i].word) == 0) {
            f->kind = words[i].kind;
            return 0;
        }
    *why = y_why;
    return -1;
}

int ns_field_is_time(const ns_field *f) {
    return f->kind == NS_FIELD_WALL || f->kind == NS_FIELD_USER || f->kind == NS_FIELD_SYS ||
           f->kind == NS_FIELD_PASS || f->kind == NS_FIELD_STAGE || f->kind == NS_FIELD_TOTAL;
}

/* A row that is not a pass of its own: Total, Rest, and the hidden root
 * timer of MLIR's list display (the total again). */
static int ns__not_a_row(const ns_report *rep, const ns_node *n) {
    if (n->kind == NS_KIND_REST || n->kind == NS_KIND_TOTAL) return 1;
    return ns_node_is_list_root(rep, n);
}

double ns_run_pass_wall(const ns_run *r, const char *name, int *found) {
    double sum = 0;
    int k = 0;
    for (int i = 0; i < r->nreports; i++) {
        const ns_report *rep = r->reports[i];
        if (!rep || !rep->root) continue;
        const ns_node *n = rep->root->child;
        while (n) {
            if (!ns__not_a_row(rep, n) && strcmp(n->name, name) == 0) {
                ns_num w = n->val[NS_COL_WALL];
                if (ns_num_present(w) && isfinite(w.v)) {
                    sum += w.v;
                    k++;
                }
                /* a same-named row below is part of this one */
                n = ns_node_skip((ns_node *)n, rep->root);
            } else {
                n = ns_node_next((ns_node *)n, rep->root);
            }
        }
    }
    *found = k;
    return sum;
}

void ns_run_pass_names(const ns_run *r, ns_strmap *names) {
    for (int i = 0; i < r->nreports; i++) {
        const ns_report *rep = r->reports[i];
        if (!rep || !rep->root) continue;
        for (const ns_node *x = rep->root->child; x; x = ns_node_next((ns_node *)x, rep->root)) {
            if (ns__not_a_row(rep, x)) continue;
            if (x->child && (x->kind == NS_KIND_SCOPE || x->kind == NS_KIND_PIPELINE)) continue;
            if (rep->list_mode && x->kind == NS_KIND_PIPELINE) continue;
            int added;
            ns_strmap_intern(names, x->name, &added);
        }
    }
}

/* Is n inside a row of the same name?  (Then that row's time holds it.) */
static int ns__inside_same_name(const ns_node *n, const ns_node *root) {
    for (const ns_node *p = n->parent; p && p != root; p = p->parent)
        if (strcmp(p->name, n->name) == 0) return 1;
    return 0;
}

int ns_report_row_flags(const ns_report *rep, const ns_node *n) {
    if (ns__not_a_row(rep, n)) return NS_ROW_NOT;
    int f = 0;
    if (!(n->child && (n->kind == NS_KIND_SCOPE || n->kind == NS_KIND_PIPELINE)) &&
        !(rep->list_mode && n->kind == NS_KIND_PIPELINE))
        f |= NS_ROW_PASS;
    if (ns__inside_same_name(n, rep->root)) f |= NS_ROW_INSIDE;
    return f;
}

void ns_run_pass_sums(const ns_run *r, const ns_strmap *names, double *sums, int *found) {
    for (size_t k = 0; k < names->count; k++) {
        sums[k] = 0;
        found[k] = 0;
    }
    for (int i = 0; i < r->nreports; i++) {
        const ns_report *rep = r->reports[i];
        if (!rep || !rep->root) continue;
        for (const ns_node *n = rep->root->child; n; n = ns_node_next((ns_node *)n, rep->root)) {
            if (ns__not_a_row(rep, n)) continue;
            size_t k = ns_strmap_find(names, n->name);
            if (k == (size_t)-1 || ns__inside_same_name(n, rep->root)) continue;
            ns_num w = n->val[NS_COL_WALL];
            if (ns_num_present(w) && isfinite(w.v)) {
                sums[k] += w.v;
                found[k]++;
            }
        }
    }
}

/* ====== Stages ======
 * stage:NAME is the stage's time (self times of its rows, see stages.h)
 * summed over the run's reports, each report under the map the selection
 * gives it (the command's --stages: one map, or the automatic choice of
 * vpux for NPU compiler reports and mlir for the rest); NaN when no
 * report's map has a stage of that name.  The selection is the caller's,
 * handed in with the field: nothing here remembers a map between calls. */
static double ns__report_stage(const ns_report *rep, const char *name, ns_stage_sel *sel) {
    if (!sel || !rep || !rep->root) return NAN;
    const ns_stage_map *m = ns_stage_sel_pick(sel, rep);
    int k = ns_stage_find(m, name);
    if (k < 0) return NAN;
    long n;
    ns_stage_of *of = ns_stage_assign_new(m, rep, &n);
    double *self = ns_xcalloc((size_t)ns_stage_count(m) + 1, sizeof *self);
    ns_stage_sums ss;
    ss.self = self;
    ns_stage_sum(m, rep, of, &ss);
    double v = isfinite(self[k]) ? self[k] : 0;
    free(self);
    free(of);
    return v;
}

static double ns__run_stage(const ns_run *r, const char *name, ns_stage_sel *sel) {
    double sum = 0;
    int found = 0;
    for (int i = 0; i < r->nreports; i++) {
        if (!ns_report_is_main(r->reports[i])) continue; /* inside a main report */
        double v = ns__report_stage(r->reports[i], name, sel);
        if (isnan(v)) continue;
        sum += v;
        found = 1;
    }
    return found ? sum : NAN;
}

/* ====== One report ====== */

static double ns__report_fact(const ns_report *rep, const char *name) {
    for (int i = 0; rep && i < rep->nfacts; i++)
        if (strcmp(rep->facts[i].name, name) == 0) return rep->facts[i].value;
    return NAN;
}

int ns_report_point(const ns_report *rep, const ns_field *fx, const ns_field *fy, double *x,
                    double *y) {
    if (isnan(*x = ns_report_value(rep, fx))) return 1;
    if (isnan(*y = ns_report_value(rep, fy))) return 2;
    return 0;
}

double ns_report_value(const ns_report *rep, const ns_field *f) {
    double v = NAN;
    if (!rep) return NAN;
    switch (f->kind) {
    case NS_FIELD_FACT: v = ns__report_fact(rep, f->name); break;
    case NS_FIELD_TOTAL: v = ns_stage_report_total(rep); break;
    case NS_FIELD_STAGE: v = ns__report_stage(rep, f->name, f->stages); break;
    case NS_FIELD_PASS: {
        ns_run one;
        memset(&one, 0, sizeof one);
        ns_report *reps[1] = {(ns_report *)rep};
        one.reports = reps;
        one.nreports = 1;
        int found;
        v = ns_run_pass_wall(&one, f->name, &found);
        if (!found) v = NAN;
        break;
    }
    default: break;
    }
    return isfinite(v) ? v : NAN;
}

/* ====== Derived tags ====== */

const char *ns_run_tag(const ns_run *r, const char *key, char *buf, size_t len) {
    const char *v = ns_kv_get(&r->tags, key);
    if (v) return v;
    /* what the NPU stack logged about itself (model/load.h): a tag where
     * the run has no tag of that name, so --a driver_l0_minor=9 and
     * --by npu_platform select by it */
    if ((v = ns_kv_get(&r->environment, key))) return v;
    int size = !strcmp(key, "size_b") || !strcmp(key, "params");
    if (!size && strcmp(key, "family") != 0) return NULL;
    const char *model = ns_kv_get(&r->tags, "model");
    if (!model || len == 0) return NULL;
    if (size) {
        double b;
        if (!ns_model_size_b(model, &b, NULL, NULL)) return NULL;
        snprintf(buf, len, "%.10g", b);
        return buf;
    }
    char *fam = ns_model_family_new(model);
    snprintf(buf, len, "%s", fam);
    free(fam);
    return buf;
}

double ns_run_value(const ns_run *r, const ns_field *f) {
    double v = NAN;
    int found;
    switch (f->kind) {
    case NS_FIELD_WALL: v = r->wall_s; break;
    case NS_FIELD_USER: v = r->user_s; break;
    case NS_FIELD_SYS: v = r->sys_s; break;
    case NS_FIELD_PEAK: v = r->peak_rss_mb; break;
    case NS_FIELD_METRIC:
        for (int i = 0; i < r->nmetrics; i++)
            if (strcmp(r->metrics[i].name, f->name) == 0) v = r->metrics[i].value;
        break;
    case NS_FIELD_PASS:
        v = ns_run_pass_wall(r, f->name, &found);
        if (!found) v = NAN;
        break;
    case NS_FIELD_STAGE:
        v = ns__run_stage(r, f->name, f->stages);
        break;
    case NS_FIELD_FACT:
    case NS_FIELD_TOTAL: {
        int any = 0;
        double sum = 0;
        for (int i = 0; i < r->nreports; i++) {
            /* a breakdown table's total is inside its main report's */
            if (f->kind == NS_FIELD_TOTAL && !ns_report_is_main(r->reports[i])) continue;
            double x = ns_report_value(r->reports[i], f);
            if (isnan(x)) continue;
            sum += x;
            any = 1;
        }
        if (any) v = sum;
        break;
    }
    case NS_FIELD_TAG: {
        char buf[256];
        const char *s = ns_run_tag(r, f->name, buf, sizeof buf);
        if (!s || !ns_text_number(s, &v)) v = NAN;
        break;
    }
    }
    return isfinite(v) ? v : NAN;
}

/* ====== Values written as text ====== */

int ns_text_number(const char *s, double *v) {
    const char *p = s, *end = s + strlen(s);
    ns_num n;
    if (ns_num_parse(&p, end, &n) != 0 || p != end || n.dec == NS_DEC_WORD) return 0;
    *v = n.v;
    return 1;
}

int ns_text_cmp(const char *a, const char *b) {
    if (!a || !b) return (a != NULL) - (b != NULL);
    double x, y;
    int na = ns_text_number(a, &x), nb = ns_text_number(b, &y);
    if (na != nb) return nb - na;
    if (na && x != y) return x < y ? -1 : 1;
    return strcmp(a, b);
}

/* ====== Runs ====== */

/* ------ One run, one count ------
 * The runs met so far, by "id\x1fstarted_at\x1fhost" (dataset.h).  The one
 * piece of state this file keeps between calls: de-duplicating across the
 * inputs of one command is its job. */
static ns_strmap ns__seen;
static int ns__seen_init;

void ns_runs_forget(void) {
    if (ns__seen_init) ns_strmap_free(&ns__seen);
    ns__seen_init = 0;
}

typedef struct {
    ns_run_fn fn;  /* the caller's */
    void *ctx;     /* its context */
    int dups;      /* runs left out as met before */
    const char *first; /* the first one's id (for the note) */
    char first_buf[64]; /* its copy */
} ns__dedup;

static void ns__dedup_take(ns_run *r, void *ctx) {
    ns__dedup *dd = ctx;
    if (!ns__seen_init) ns_strmap_init(&ns__seen), ns__seen_init = 1;
    ns_buf key = {0};
    ns_buf_printf(&key, "%s\x1f%s\x1f%s", r->id ? r->id : "", r->started_at,
                  r->host ? r->host : "");
    int added = 0;
    ns_strmap_intern(&ns__seen, key.data, &added);
    ns_buf_free(&key);
    if (added) {
        dd->fn(r, dd->ctx);
        return;
    }
    if (!dd->dups++) {
        snprintf(dd->first_buf, sizeof dd->first_buf, "%s", r->id ? r->id : "");
        dd->first = dd->first_buf;
    }
    ns_run_free(r);
}

static int ns__each_once(const char *dir, ns_run_fn fn, void *ctx) {
    ns__dedup dd = {fn, ctx, 0, NULL, ""};
    int n = ns_run_folder_each(dir, ns__dedup_take, &dd, &ns_diag_stderr);
    if (dd.dups) {
        ns_note_at(dir, "%d run%s already read from an earlier input (%s%s), counted once",
                   dd.dups, dd.dups == 1 ? "" : "s", dd.first, dd.dups > 1 ? ", ..." : "");
    }
    return n < 0 ? n : n - dd.dups;
}

static void ns__append_run(ns_run *r, void *ctx) {
    ns_runset *s = ctx;
    /* capacity is the next power of two, as ns_run_folder_read's */
    int n = s->nruns;
    if (n == 0 || (n & (n - 1)) == 0)
        s->runs = ns_xrealloc(s->runs, sizeof *s->runs * (size_t)(n ? 2 * n : 1));
    s->runs[s->nruns++] = *r;
}

int ns_runs_read(const char *dir, ns_run **runs, int *nruns) {
    ns_runset s = {*runs, *nruns};
    int n = ns__each_once(dir, ns__append_run, &s);
    *runs = s.runs;
    *nruns = s.nruns;
    return n;
}

int ns_runs_each(const char *dir, ns_run_fn fn, void *ctx) {
    return ns__each_once(dir, fn, ctx);
}

int ns_runset_read(ns_runset *s, const char *dir) {
    return ns_runs_read(dir, &s->runs, &s->nruns);
}

void ns_runset_free(ns_runset *s) {
    for (int i = 0; i < s->nruns; i++) ns_run_free(&s->runs[i]);
    free(s->runs);
    s->runs = NULL;
    s->nruns = 0;
}

int ns_run_counted(const ns_run *r) {
    /* a disturbed run's wall time holds a pause of npuscope's (run.json) */
    return ns_run_ok(r) && !r->warmup && !r->primer && !r->disturbed;
}

int ns_select_parse(ns_kvlist *sel, const char *spec) {
    char *copy = ns_strdup(spec);
    int rc = 0;
    for (char *s = copy;;) {
        char *comma = strchr(s, ',');
        if (comma) *comma = 0;
        if (ns_kv_parse(sel, s) < 0) {
            rc = -1;
            break;
        }
        if (!comma) break;
        s = comma + 1;
    }
    free(copy);
    return rc;
}

int ns_select_match(const ns_run *r, const ns_kvlist *sel) {
    if (!sel) return 1;
    char buf[256];
    for (int i = 0; i < sel->n; i++) { /* derived tags select too: --where family=qwen2 */
        const char *v = ns_run_tag(r, sel->items[i].key, buf, sizeof buf);
        if (!v || strcmp(v, sel->items[i].value) != 0) return 0;
    }
    return 1;
}

void ns_select_runs(const ns_runset *s, const ns_kvlist *sel, const char *mode,
                    ns_selection *out) {
    memset(out, 0, sizeof *out);
    out->runs = ns_xcalloc((size_t)s->nruns + 1, sizeof *out->runs);
    for (int i = 0; i < s->nruns; i++) {
        const ns_run *r = &s->runs[i];
        if (!ns_select_match(r, sel) || (mode && strcmp(r->mode, mode) != 0)) continue;
        out->matched++;
        if (r->warmup) out->warmups++;
        else if (r->primer) out->primers++;
        else if (!ns_run_ok(r)) out->failed++;
        if (ns_run_counted(r)) out->runs[out->n++] = r;
    }
}

void ns_selection_free(ns_selection *sel) {
    free(sel->runs);
    memset(sel, 0, sizeof *sel);
}

int ns_mode_rank(const char *m) {
    if (!m) return -1;
    if (strcmp(m, "cold") == 0) return 0;
    if (strcmp(m, "warm") == 0) return 1;
    return strcmp(m, "none") == 0 ? 2 : 3;
}

static int ns__cmp_mode(const void *pa, const void *pb) {
    const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
    int c = ns_mode_rank(a) - ns_mode_rank(b);
    return c ? c : strcmp(a, b);
}

int ns_selection_modes(const ns_selection *sel, const char **modes, int max) {
    const char **all = ns_xcalloc((size_t)sel->n + 1, sizeof *all);
    int n = 0;
    for (int i = 0; i < sel->n; i++) {
        int seen = 0;
        for (int k = 0; k < n && !seen; k++) seen = strcmp(all[k], sel->runs[i]->mode) == 0;
        if (!seen) all[n++] = sel->runs[i]->mode;
    }
    qsort(all, (size_t)n, sizeof *all, ns__cmp_mode);
    for (int k = 0; k < n && k < max; k++) modes[k] = all[k];
    free(all);
    return n;
}

/* ====== Configurations ======
 * In config.c (grouping and labelling runs into configurations). */

/* ====== CSV tables ====== */

/* The whole file in memory (a table of figures is small). */
static char *ns__slurp_new(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        ns_error("%s: %s", path, strerror(errno));
        return NULL;
    }
    ns_buf b = {0};
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) ns_buf_add(&b, chunk, n);
    int bad = ferror(f);
    int saved = errno;
    fclose(f);
    if (bad) {
        ns_error("%s: read error: %s", path, strerror(saved));
        ns_buf_free(&b);
        return NULL;
    }
    ns_buf_puts(&b, ""); /* always allocated */
    *len = b.len;
    return b.data;
}

/* One record starting at *pp: fields appended to *fields / *nf (owned),
 * *pp moved past its line end.  *line counts line breaks.  Returns 0, or -1
 * when a quoted field is never closed. */
static int ns__csv_record(const char **pp, const char *end, long *line, char ***fields,
                          int *nf) {
    const char *p = *pp;
    ns_buf f = {0};
    for (;;) {
        ns_buf_puts(&f, "");
        f.len = 0;
        f.data[0] = 0;
        /* blanks before a quote are allowed (not in RFC 4180, but common) */
        const char *q = p;
        while (q < end && (*q == ' ' || *q == '\t')) q++;
        if (q < end && *q == '"') {
            long open_line = *line;
            for (p = q + 1;; p++) {
                if (p >= end) {
                    *line = open_line;
                    ns_buf_free(&f);
                    return -1;
                }
                if (*p == '"') {
                    if (p + 1 < end && p[1] == '"') {
                        ns_buf_putc(&f, '"');
                        p++;
                        continue;
                    }
                    p++;
                    break;
                }
                if (*p == '\n') (*line)++;
                ns_buf_putc(&f, *p);
            }
            while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
            /* anything else before the separator is kept, as text */
            while (p < end && *p != ',' && *p != '\n') ns_buf_putc(&f, *p++);
        } else {
            while (p < end && *p != ',' && *p != '\n') ns_buf_putc(&f, *p++);
            /* trailing CR and blanks are not part of a value */
            while (f.len && (f.data[f.len - 1] == '\r' || f.data[f.len - 1] == ' ' ||
                             f.data[f.len - 1] == '\t'))
                f.data[--f.len] = 0;
            size_t lead = 0;
            while (lead < f.len && (f.data[lead] == ' ' || f.data[lead] == '\t')) lead++;
            if (lead) {
                memmove(f.data, f.data + lead, f.len - lead + 1);
                f.len -= lead;
            }
        }
        *fields = ns_xrealloc(*fields, sizeof **fields * (size_t)(*nf + 1));
        (*fields)[(*nf)++] = ns_strndup(f.data, f.len);
        if (p < end && *p == ',') {
            p++;
            continue;
        }
        if (p < end && *p == '\n') {
            p++;
            (*line)++;
        }
        break;
    }
    ns_buf_free(&f);
    *pp = p;
    return 0;
}

/* A blank line (only blanks and a CR)?  Skipped. */
static int ns__blank_line(const char *p, const char *end, const char **next) {
    const char *q = p;
    while (q < end && (*q == ' ' || *q == '\t' || *q == '\r')) q++;
    if (q < end && *q != '\n') return 0;
    *next = q < end ? q + 1 : q;
    return 1;
}

int ns_csv_read(const char *path, ns_csv *t) {
    memset(t, 0, sizeof *t);
    size_t len = 0;
    char *text = ns__slurp_new(path, &len);
    if (!text) return -1;
    t->file = ns_strdup(path);
    const char *p = text, *end = text + len;
    if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;
    long line = 1;
    int rc = -1;
    while (p < end) {
        const char *next;
        if (ns__blank_line(p, end, &next)) {
            p = next;
            line++;
            continue;
        }
        long at = line;
        char **fields = NULL;
        int nf = 0;
        if (ns__csv_record(&p, end, &line, &fields, &nf) < 0) {
            ns_error_at(path, line, "a quoted field is never closed");
            for (int i = 0; i < nf; i++) free(fields[i]);
            free(fields);
            goto out;
        }
        if (!t->head) {
            t->head = fields;
            t->ncols = nf;
            continue;
        }
        if (nf > t->ncols)
            ns_warn_at(path, at, "%d fields, the header has %d; the extra ones are ignored", nf,
                       t->ncols);
        t->cells = ns_xrealloc(t->cells, sizeof *t->cells * (size_t)(t->nrows + 1) *
                                             (size_t)t->ncols);
        t->lines = ns_xrealloc(t->lines, sizeof *t->lines * (size_t)(t->nrows + 1));
        for (int c = 0; c < t->ncols; c++)
            t->cells[(size_t)t->nrows * (size_t)t->ncols + (size_t)c] = c < nf ? fields[c] : NULL;
        for (int c = t->ncols; c < nf; c++) free(fields[c]);
        free(fields);
        t->lines[t->nrows++] = at;
    }
    if (!t->head) {
        ns_error("%s: empty CSV file (no header row)", path);
        goto out;
    }
    rc = 0;
out:
    free(text);
    if (rc) ns_csv_free(t);
    return rc;
}

int ns_csv_col(const ns_csv *t, const char *name) {
    for (int c = 0; c < t->ncols; c++)
        if (strcmp(t->head[c], name) == 0) return c;
    return -1;
}

const char *ns_csv_cell(const ns_csv *t, int r, int c) {
    if (r < 0 || r >= t->nrows || c < 0 || c >= t->ncols) return NULL;
    return t->cells[(size_t)r * (size_t)t->ncols + (size_t)c];
}

void ns_csv_free(ns_csv *t) {
    for (int c = 0; c < t->ncols; c++) free(t->head[c]);
    free(t->head);
    for (size_t i = 0; i < (size_t)t->nrows * (size_t)t->ncols; i++) free(t->cells[i]);
    free(t->cells);
    free(t->lines);
    free(t->file);
    memset(t, 0, sizeof *t);
}
