/* stages_parse.c -- reading a stage map's rules file (docs/stages.md) and
 * the built-in maps; the map it builds is stages.c's (stages_int.h).
 *
 * One line at a time, every problem collected with its line number and
 * reported together, sorted, so that a user fixes a whole file in one go;
 * a map with any problem is not used at all (a half-read map would give
 * silently wrong stages).
 */
#include "model/stages.h"

#include "model/stages_int.h"

#include "base/suggest.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ====== Parsing ====== */

typedef struct {
    int line;  /* where (0: the whole file, reported last) */
    int seq;   /* order found, to keep problems of one line in order */
    char *msg; /* "FILE:LINE: message\n" (owned) */
} ns__problem;

typedef struct {
    ns_stage_map *m;     /* map being built */
    const char *file;    /* name for messages */
    ns__problem *errs;   /* problems, reported in line order at the end */
    int nerr;            /* problems so far */
    int line;            /* current line */
    int open;            /* block taking scope lines (no marker yet), or -1 */
    int cur;             /* block taking marker lines (-1: the unscoped block) */
    int saw_default;     /* a default line was read (even a wrong one) */
} ns__parser;

static void ns__err(ns__parser *p, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void ns__err(ns__parser *p, int line, const char *fmt, ...) {
    va_list ap;
    ns_buf b = {0};
    if (line > 0) ns_buf_printf(&b, "%s:%d: ", p->file, line);
    else ns_buf_printf(&b, "%s: ", p->file);
    va_start(ap, fmt);
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ns_buf_puts(&b, msg);
    ns_buf_putc(&b, '\n');
    p->errs = ns_xrealloc(p->errs, sizeof *p->errs * (size_t)(p->nerr + 1));
    p->errs[p->nerr] = (ns__problem){line, p->nerr, b.data};
    p->nerr++;
}

/* By line, the whole-file problems last; a line's problems in the order found. */
static int ns__cmp_problem(const void *a, const void *b) {
    const ns__problem *x = a, *y = b;
    int kx = x->line > 0 ? x->line : INT_MAX, ky = y->line > 0 ? y->line : INT_MAX;
    if (kx != ky) return kx < ky ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static int ns__space(char c) { return c == ' ' || c == '\t'; }

static char *ns__trim(char *s) {
    while (ns__space(*s)) s++;
    size_t n = strlen(s);
    while (n && ns__space(s[n - 1])) s[--n] = 0;
    return s;
}

static int ns__stage_name_ok(const char *s) {
    if (!*s) return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '-' || *s == '_' || *s == '.'))
            return 0;
    return 1;
}

/* A STAGE word: declared, one word.  Returns its index or -1 (reported). */
static int ns__stage_ref(ns__parser *p, const char *what, char *s) {
    s = ns__trim(s);
    if (!*s) {
        ns__err(p, p->line, "%s: a stage name is needed after '->'", what);
        return -1;
    }
    for (const char *c = s; *c; c++)
        if (ns__space(*c)) {
            ns__err(p, p->line, "%s: one stage name after '->', not '%s'", what, s);
            return -1;
        }
    int i = ns_stage_find(p->m, s);
    if (i < 0)
        ns__err(p, p->line, "unknown stage '%s' (declare it with 'stage %s' before this line)",
                s, s);
    return i;
}

/* "PATTERN -> STAGE": split at the last "->" (names such as "X86 DAG->DAG
 * Instruction Selection" hold one).  Returns 0 and sets *pattern, *stage. */
static int ns__arrow(ns__parser *p, const char *what, char *rest, char **pattern, int *stage) {
    char *arrow = NULL;
    for (char *a = strstr(rest, "->"); a; a = strstr(a + 1, "->")) arrow = a;
    if (!arrow) {
        ns__err(p, p->line, "%s: expected '%s PATTERN -> STAGE'", what, what);
        return -1;
    }
    *arrow = 0;
    *pattern = ns__trim(rest);
    if (!**pattern) {
        ns__err(p, p->line, "%s: the pattern before '->' is empty", what);
        return -1;
    }
    *stage = ns__stage_ref(p, what, arrow + 2);
    return *stage < 0 ? -1 : 0;
}

static void ns__add_rule(ns__rule **v, int *n, const char *pattern, int stage, int line) {
    *v = ns_xrealloc(*v, sizeof **v * (size_t)(*n + 1));
    ns_stages__rule_set(&(*v)[(*n)++], pattern, stage, line);
}

static void ns__rule_stage(ns__parser *p, char *rest) {
    char *name = rest, *desc = rest;
    while (*desc && !ns__space(*desc)) desc++;
    if (*desc) *desc++ = 0;
    desc = ns__trim(desc);
    ns_stage_map *m = p->m;
    if (!*name) {
        ns__err(p, p->line, "stage: a name is needed ('stage NAME [description]')");
    } else if (!ns__stage_name_ok(name)) {
        ns__err(p, p->line, "stage name '%s': only letters, digits, '-', '_' and '.'", name);
    } else if (ns_stage_find(m, name) >= 0) {
        ns__err(p, p->line, "stage '%s' is already declared (line %d)", name,
                m->stages[ns_stage_find(m, name)].line);
    } else {
        m->stages = ns_xrealloc(m->stages, sizeof *m->stages * (size_t)(m->nstages + 1));
        m->stages[m->nstages++] = (ns__stage){ns_strdup(name), ns_strdup(desc), p->line};
    }
}

static void ns__rule_name(ns__parser *p, char *rest) {
    char *pattern;
    int stage;
    if (ns__arrow(p, "name", rest, &pattern, &stage) < 0) return;
    ns_stage_map *m = p->m;
    ns__rule probe;
    ns_stages__rule_set(&probe, pattern, stage, p->line);
    int dup = -1;
    if (probe.glob) {
        for (int i = 0; i < m->nnames && dup < 0; i++)
            if (m->names[i].glob && strcmp(m->names[i].pattern, probe.pattern) == 0) dup = i;
    } else {
        size_t k = ns_strmap_find(&m->exact, probe.pattern);
        if (k != (size_t)-1) dup = m->exact_rule[k];
    }
    if (dup >= 0) {
        ns__err(p, p->line, "'%s' already has a name rule (line %d)", pattern,
                m->names[dup].line);
        free(probe.pattern);
        return;
    }
    m->names = ns_xrealloc(m->names, sizeof *m->names * (size_t)(m->nnames + 1));
    m->names[m->nnames] = probe;
    if (probe.glob) {
        m->nglobs++;
    } else {
        int added;
        size_t k = ns_strmap_intern(&m->exact, probe.pattern, &added);
        m->exact_rule = ns_xrealloc(m->exact_rule, sizeof *m->exact_rule * (k + 1));
        m->exact_rule[k] = m->nnames;
    }
    m->nnames++;
}

static void ns__rule_marker(ns__parser *p, char *rest) {
    char *pattern;
    int stage;
    if (ns__arrow(p, "marker", rest, &pattern, &stage) < 0) return;
    ns__block *b = p->cur >= 0 ? &p->m->blocks[p->cur] : &p->m->any;
    ns__add_rule(&b->markers, &b->nmarkers, pattern, stage, p->line);
    p->open = -1; /* the next scope line starts a new block */
}

static void ns__rule_scope(ns__parser *p, char *rest) {
    ns_stage_map *m = p->m;
    if (!*rest) {
        ns__err(p, p->line, "scope: a row name or pattern is needed ('scope PATTERN')");
        return;
    }
    for (int i = 0; i < m->nblocks; i++)
        for (int k = 0; k < m->blocks[i].nscopes; k++) {
            ns__rule probe;
            ns_stages__rule_set(&probe, rest, -1, p->line);
            int same = strcmp(probe.pattern, m->blocks[i].scopes[k].pattern) == 0;
            free(probe.pattern);
            if (same) {
                ns__err(p, p->line, "scope '%s' is already declared (line %d)", rest,
                        m->blocks[i].scopes[k].line);
                return;
            }
        }
    if (p->open < 0) {
        m->blocks = ns_xrealloc(m->blocks, sizeof *m->blocks * (size_t)(m->nblocks + 1));
        p->open = m->nblocks++;
        memset(&m->blocks[p->open], 0, sizeof *m->blocks);
        m->blocks[p->open].line = p->line;
    }
    p->cur = p->open;
    ns__block *b = &m->blocks[p->open];
    ns__add_rule(&b->scopes, &b->nscopes, rest, -1, p->line);
}

static void ns__rule_default(ns__parser *p, char *rest) {
    p->saw_default = 1;
    if (p->m->dflt >= 0) {
        ns__err(p, p->line, "default is already set (line %d)", p->m->dflt_line);
        return;
    }
    rest = ns__trim(rest);
    if (!*rest) {
        ns__err(p, p->line, "default: a stage name is needed ('default STAGE')");
        return;
    }
    for (const char *c = rest; *c; c++)
        if (ns__space(*c)) {
            ns__err(p, p->line, "default: one stage name, not '%s'", rest);
            return;
        }
    int i = ns_stage_find(p->m, rest);
    if (i < 0) {
        ns__err(p, p->line, "unknown stage '%s' (declare it with 'stage %s' before this line)",
                rest, rest);
        return;
    }
    p->m->dflt = i;
    p->m->dflt_line = p->line;
}

/* logger NAME -> PASS: the NPU compiler's pass logger NAME (its pass's
 * argument, as the log prints it) belongs to the pass PASS (as the timing
 * report prints it); "-> -": NAME is the logger of no pass (vpux-compiler,
 * compiler-threading).  The live status reads these; stages do not. */
static void ns__rule_logger(ns__parser *p, char *rest) {
    char *arrow = NULL;
    for (char *a = strstr(rest, "->"); a; a = strstr(a + 1, "->")) arrow = a;
    if (!arrow) {
        ns__err(p, p->line, "logger: expected 'logger NAME -> PASS' (or '-> -' for no pass)");
        return;
    }
    *arrow = 0;
    char *name = ns__trim(rest), *pass = ns__trim(arrow + 2);
    if (!*name || !*pass || strpbrk(name, " \t")) {
        ns__err(p, p->line, "logger: expected 'logger NAME -> PASS' (or '-> -' for no pass)");
        return;
    }
    ns_stage_map *m = p->m;
    int added;
    size_t k = ns_strmap_intern(&m->loggers, name, &added);
    if (!added) {
        ns__err(p, p->line, "logger '%s' already has a rule (line %d)", name, m->logger_line[k]);
        return;
    }
    if (k >= m->logger_cap) {
        m->logger_cap = m->logger_cap ? m->logger_cap * 2 : 32;
        m->logger_pass = ns_xrealloc(m->logger_pass, sizeof *m->logger_pass * m->logger_cap);
        m->logger_line = ns_xrealloc(m->logger_line, sizeof *m->logger_line * m->logger_cap);
    }
    m->logger_pass[k] = ns_strdup(strcmp(pass, "-") ? pass : "");
    m->logger_line[k] = p->line;
}

static void ns__parse_line(ns__parser *p, char *s) {
    s = ns__trim(s);
    if (!*s || *s == '#') return;
    char *kw = s, *rest = s;
    while (*rest && !ns__space(*rest)) rest++;
    if (*rest) *rest++ = 0;
    rest = ns__trim(rest);
    if (strcmp(kw, "stage") == 0) ns__rule_stage(p, rest);
    else if (strcmp(kw, "name") == 0) ns__rule_name(p, rest);
    else if (strcmp(kw, "marker") == 0) ns__rule_marker(p, rest);
    else if (strcmp(kw, "scope") == 0) ns__rule_scope(p, rest);
    else if (strcmp(kw, "default") == 0) ns__rule_default(p, rest);
    else if (strcmp(kw, "logger") == 0) ns__rule_logger(p, rest);
    else
        ns__err(p, p->line, "unknown rule '%s' (a line is 'stage', 'name', 'marker', "
                            "'scope', 'default' or 'logger', or a '#' comment)", kw);
}

ns_stage_map *ns_stage_map_parse_new(const char *file, const char *text, size_t len,
                                     ns_buf *errs) {
    ns_stage_map *m = ns_xcalloc(1, sizeof *m);
    m->memo = ns_xcalloc(1, sizeof *m->memo);
    m->label = ns_strdup(file);
    m->text = ns_strndup(text, len);
    m->dflt = -1;
    ns_strmap_init(&m->exact);
    ns_strmap_init(&m->loggers);
    ns__parser p = {m, file, NULL, 0, 0, -1, -1, 0};
    ns_buf line = {0};
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
        p.line++;
        if (n && text[at + n - 1] == '\r') n--;
        if (memchr(text + at, 0, n)) {
            ns__err(&p, p.line, "NUL byte: this is not a text file");
        } else {
            line.len = 0;
            ns_buf_add(&line, text + at, n); /* allocates and terminates, even for n = 0 */
            ns__parse_line(&p, line.data);
        }
        at += (nl ? (size_t)(nl - (text + at)) + 1 : len - at);
    }
    ns_buf_free(&line);
    for (int i = 0; i < m->nblocks; i++)
        if (m->blocks[i].nmarkers == 0)
            ns__err(&p, m->blocks[i].line, "scope '%s' has no marker rule after it",
                    m->blocks[i].scopes[0].pattern);
    if (m->nstages == 0) ns__err(&p, 0, "no stage declared ('stage NAME [description]')");
    else if (!p.saw_default)
        ns__err(&p, 0, "no 'default STAGE' line (the stage of top-level rows no rule names)");
    if (p.nerr) {
        qsort(p.errs, (size_t)p.nerr, sizeof *p.errs, ns__cmp_problem);
        for (int i = 0; i < p.nerr; i++) {
            ns_buf_puts(errs, p.errs[i].msg);
            free(p.errs[i].msg);
        }
        free(p.errs);
        ns_stage_map_free(m);
        return NULL;
    }
    return m;
}

/* ====== Built-in maps and files ====== */

extern const char ns_stages_vpux_text[]; /* stages_builtin.c */
extern const char ns_stages_mlir_text[];

const char *ns_stage_builtin_text(const char *name) {
    if (strcmp(name, "vpux") == 0) return ns_stages_vpux_text;
    if (strcmp(name, "mlir") == 0) return ns_stages_mlir_text;
    return NULL;
}

static void ns__print_errs(const ns_buf *errs) {
    for (const char *s = errs->data; s && *s;) {
        const char *nl = strchr(s, '\n');
        int n = nl ? (int)(nl - s) : (int)strlen(s);
        ns_error("%.*s", n, s);
        s += n + (nl != NULL);
    }
}

ns_stage_map *ns_stage_map_builtin_new(const char *name) {
    const char *text = ns_stage_builtin_text(name);
    if (!text) return NULL;
    ns_buf errs = {0};
    ns_stage_map *m = ns_stage_map_parse_new(name, text, strlen(text), &errs);
    ns__print_errs(&errs); /* never, unless the built-in text is broken */
    ns_buf_free(&errs);
    return m;
}

ns_stage_map *ns_stage_map_load_new(const char *spec) {
    if (ns_stage_builtin_text(spec)) return ns_stage_map_builtin_new(spec);
    ns_stage_map *m = NULL;
    ns_buf text = {0}, errs = {0};
    struct stat st;
    FILE *f = fopen(spec, "rb");
    if (!f) {
        static const char *const maps[] = {"vpux", "mlir", "auto"};
        const char *near = errno == ENOENT && !strchr(spec, '/') ? ns_suggest(spec, maps, 3) : NULL;
        if (near)
            ns_error("--stages %s: no built-in stage map and no such file; did you mean %s? "
                     "(built in: vpux, mlir, auto)", spec, near);
        else if (errno == ENOENT)
            ns_error("--stages %s: no built-in stage map (vpux, mlir, auto) and no such file", spec);
        else
            ns_error("%s: %s", spec, strerror(errno));
        goto out;
    }
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        ns_error("%s: a folder, not a stage map (a file, or vpux, mlir or auto)", spec);
        goto out;
    }
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (text.len + got > NS__MAP_MAX) {
            ns_error("%s: larger than %u MiB: not a stage map", spec, NS__MAP_MAX >> 20);
            goto out;
        }
        ns_buf_add(&text, chunk, got);
    }
    if (ferror(f)) {
        ns_error("%s: %s", spec, strerror(errno));
        goto out;
    }
    m = ns_stage_map_parse_new(spec, text.data ? text.data : "", text.len, &errs);
    ns__print_errs(&errs);
out:
    if (f) fclose(f);
    ns_buf_free(&text);
    ns_buf_free(&errs);
    return m;
}

/* ====== Choosing a map ====== */

/* One of the two names that make a report an NPU compiler's?  (Every
 * report's top two levels come here: the first bytes rule most out.) */
static int ns__vpux_name(const char *s) {
    return (s[0] == 'I' && s[1] == 'E' && strcmp(s, "IE to VPUIP pipeline") == 0) ||
           (s[0] == 'C' && s[1] == 'o' && strcmp(s, "Compile network") == 0);
}

static int ns__is_vpux(const ns_report *r) {
    for (const ns_node *a = r->root->child; a; a = a->next) {
        if (ns__vpux_name(a->name)) return 1;
        for (const ns_node *b = a->child; b; b = b->next)
            if (ns__vpux_name(b->name)) return 1;
    }
    return 0;
}

int ns_stage_is_vpux(const ns_report *r) { return r->vpux ? r->vpux == 2 : ns__is_vpux(r); }

void ns_stage_note_vpux(ns_report *r) { r->vpux = ns__is_vpux(r) ? 2 : 1; }

int ns_stage_sel_init(ns_stage_sel *s, const char *spec) {
    memset(s, 0, sizeof *s);
    if (!spec || strcmp(spec, "auto") == 0) return 0;
    if (!*spec) {
        ns_error("--stages: a stage map is needed (a file, or vpux, mlir or auto)");
        return -1;
    }
    s->fixed = ns_stage_map_load_new(spec);
    return s->fixed ? 0 : -1;
}

const ns_stage_map *ns_stage_sel_pick(ns_stage_sel *s, const ns_report *r) {
    if (s->fixed) return s->fixed;
    if (ns_stage_is_vpux(r)) {
        if (!s->vpux) s->vpux = ns_stage_map_builtin_new("vpux");
        return s->vpux;
    }
    if (!s->mlir) s->mlir = ns_stage_map_builtin_new("mlir");
    return s->mlir;
}

void ns_stage_sel_free(ns_stage_sel *s) {
    ns_stage_map_free(s->fixed);
    ns_stage_map_free(s->vpux);
    ns_stage_map_free(s->mlir);
    memset(s, 0, sizeof *s);
}
