/* stages.c -- stage maps: parsing the rules file, giving every row of a
 * report its stage, and summing self times per stage (see stages.h; the
 * file format is docs/stages.md).
 *
 * How a map is kept: stages in declaration order; name rules split into
 * exact names (a hash map, so the common case is one lookup) and globs
 * (tried in file order after the exact names); marker rules in blocks, one
 * per group of `scope` lines, each block an ordered list.  A report is
 * walked once, in pre-order, without recursion: a node's parent is always
 * the last node seen one level up, so per-level arrays (stage of the last
 * node at each level, the marker scan its children belong to) carry
 * everything the rules need.
 *
 * Marker scans, exactly: the children of a row that a scope names are read
 * in order, with pipeline rows ('func.func' Pipeline, Pipeline Collection)
 * looked through as if their children were siblings (MLIR groups
 * consecutive function passes into such a row; which passes end up inside
 * one differs between compiler versions).  The scan remembers the position
 * of the last marker that fired; a row fires the first marker *after* that
 * position that matches its name, so a scan only moves forward and a name
 * that appears again later (EfficientIROrder, Canonicalizer) cannot send it
 * back.  A row that a scope names starts a scan of its own instead of being
 * looked through.
 *
 * Deliberately left out: regular expressions (globs are enough for pass
 * names and cannot go wrong in surprising ways), rules on anything but the
 * name (kind, depth, producer), and include files.
 */
#include "model/stages.h"

#include "base/strmap.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NS__MAP_MAX (16u << 20) /* bytes; a larger file is not a stage map */

/* ====== The map ====== */

typedef struct {
    char *name; /* stage name */
    char *desc; /* description, "" when none */
    int line;   /* line of its `stage` rule */
} ns__stage;

typedef struct {
    char *pattern; /* exact name (escapes resolved) or glob (as written) */
    int glob;      /* pattern has an unescaped '*' or '?' */
    int stage;     /* index into stages (unused for scope patterns) */
    int line;      /* line of the rule */
} ns__rule;

typedef struct {
    ns__rule *scopes;  /* parent-name patterns of this block (none: the unscoped block) */
    int nscopes;       /* entries in scopes */
    ns__rule *markers; /* marker rules, in file order */
    int nmarkers;      /* entries in markers */
    int line;          /* line of the first scope rule */
} ns__block;

/* A log repeats the same few hundred row names in thousands of reports:
 * what depends on the name alone (its name rule, its scope block) is
 * looked up once per name.  The memo lives behind a pointer so that a map
 * passed const can fill it; it stops growing at NS__MEMO_MAX names, past
 * which names are matched every time (a hostile log of unique names costs
 * no memory). */
#define NS__MEMO_MAX 65536

typedef struct {
    ns_strmap names; /* names seen -> index into the arrays below */
    int *rule;       /* index into the map's names, -1 for none */
    int *block;      /* index into the map's blocks, -1 for none */
    size_t cap;      /* entries allocated in rule and block */
} ns__memo;

struct ns_stage_map {
    char *label;        /* "vpux", "mlir" or the file name */
    char *text;         /* the text parsed, NUL-terminated */
    ns__stage *stages;  /* in declaration order */
    int nstages;        /* entries in stages */
    ns__rule *names;    /* name rules, in file order */
    int nnames;         /* entries in names */
    ns_strmap exact;    /* exact names -> index into exact_rule */
    int *exact_rule;    /* exact map index -> index into names */
    int nglobs;         /* name rules that are globs */
    ns__block *blocks;  /* scope blocks, in file order */
    int nblocks;        /* entries in blocks */
    ns__block any;      /* markers before any scope line: every other parent */
    int dflt;           /* stage of the default rule, -1 before it is read */
    int dflt_line;      /* its line */
    ns__memo *memo;     /* what each row name decides, filled as names are seen */
};

static void ns__rules_free(ns__rule *r, int n) {
    for (int i = 0; i < n; i++) free(r[i].pattern);
    free(r);
}

void ns_stage_map_free(ns_stage_map *m) {
    if (!m) return;
    for (int i = 0; i < m->nstages; i++) {
        free(m->stages[i].name);
        free(m->stages[i].desc);
    }
    free(m->stages);
    ns__rules_free(m->names, m->nnames);
    ns_strmap_free(&m->exact);
    free(m->exact_rule);
    for (int i = 0; i < m->nblocks; i++) {
        ns__rules_free(m->blocks[i].scopes, m->blocks[i].nscopes);
        ns__rules_free(m->blocks[i].markers, m->blocks[i].nmarkers);
    }
    free(m->blocks);
    ns__rules_free(m->any.markers, m->any.nmarkers);
    free(m->label);
    free(m->text);
    if (m->memo) {
        ns_strmap_free(&m->memo->names);
        free(m->memo->rule);
        free(m->memo->block);
        free(m->memo);
    }
    free(m);
}

const char *ns_stage_map_label(const ns_stage_map *m) { return m->label; }
const char *ns_stage_map_text(const ns_stage_map *m) { return m->text; }
int ns_stage_count(const ns_stage_map *m) { return m->nstages; }
const char *ns_stage_name(const ns_stage_map *m, int i) { return m->stages[i].name; }
const char *ns_stage_desc(const ns_stage_map *m, int i) { return m->stages[i].desc; }
int ns_stage_default(const ns_stage_map *m) { return m->dflt; }

int ns_stage_find(const ns_stage_map *m, const char *name) {
    for (int i = 0; i < m->nstages; i++)
        if (strcmp(m->stages[i].name, name) == 0) return i;
    return -1;
}

void ns_stage_map_summary(ns_buf *b, const ns_stage_map *m) {
    int nscopes = 0, nmarkers = m->any.nmarkers;
    for (int i = 0; i < m->nblocks; i++) {
        nscopes += m->blocks[i].nscopes;
        nmarkers += m->blocks[i].nmarkers;
    }
    ns_buf_printf(b, "%d stage%s, %d name rule%s (%d glob%s), %d scope block%s (%d scope%s) "
                     "with %d marker%s, default '%s'",
                  m->nstages, m->nstages == 1 ? "" : "s", m->nnames, m->nnames == 1 ? "" : "s",
                  m->nglobs, m->nglobs == 1 ? "" : "s", m->nblocks, m->nblocks == 1 ? "" : "s",
                  nscopes, nscopes == 1 ? "" : "s", nmarkers, nmarkers == 1 ? "" : "s",
                  m->stages[m->dflt].name);
}

/* ====== Patterns ====== */

int ns_stage_glob(const char *p, const char *s) {
    const char *star_p = NULL, *star_s = NULL; /* where to resume after the last '*' */
    while (*s) {
        if (*p == '*') {
            star_p = ++p;
            star_s = s;
            continue;
        }
        if (*p == '?') {
            p++;
            s++;
            continue;
        }
        const char *lit = p, *after = p + 1;
        if (*p == '\\' && p[1]) lit = p + 1, after = p + 2;
        if (*p && *lit == *s) {
            p = after;
            s++;
            continue;
        }
        if (!star_p) return 0;
        p = star_p; /* let the last '*' take one more byte */
        s = ++star_s;
    }
    while (*p == '*') p++;
    return *p == 0;
}

static int ns__is_glob(const char *p) {
    for (; *p; p++) {
        if (*p == '\\' && p[1]) p++;
        else if (*p == '*' || *p == '?') return 1;
    }
    return 0;
}

/* An exact name as written, with its escapes resolved. */
static char *ns__unescape_dup(const char *p) {
    char *out = ns_xmalloc(strlen(p) + 1), *o = out;
    for (; *p; p++) {
        if (*p == '\\' && p[1]) p++;
        *o++ = *p;
    }
    *o = 0;
    return out;
}

static void ns__rule_set(ns__rule *r, const char *pattern, int stage, int line) {
    r->glob = ns__is_glob(pattern);
    r->pattern = r->glob ? ns_strdup(pattern) : ns__unescape_dup(pattern);
    r->stage = stage;
    r->line = line;
}

static int ns__rule_match(const ns__rule *r, const char *name) {
    return r->glob ? ns_stage_glob(r->pattern, name) : strcmp(r->pattern, name) == 0;
}

/* The name rule for `name`: an exact name first, then the first glob. */
static const ns__rule *ns__name_rule(const ns_stage_map *m, const char *name) {
    size_t k = ns_strmap_find(&m->exact, name);
    if (k != (size_t)-1) return &m->names[m->exact_rule[k]];
    if (m->nglobs)
        for (int i = 0; i < m->nnames; i++)
            if (m->names[i].glob && ns_stage_glob(m->names[i].pattern, name))
                return &m->names[i];
    return NULL;
}

/* The block of the first scope that names `name`, or NULL. */
static const ns__block *ns__scope_block(const ns_stage_map *m, const char *name) {
    for (int i = 0; i < m->nblocks; i++)
        for (int k = 0; k < m->blocks[i].nscopes; k++)
            if (ns__rule_match(&m->blocks[i].scopes[k], name)) return &m->blocks[i];
    return NULL;
}

/* The name rule and scope block of `name`, through the memo. */
static void ns__name_facts(const ns_stage_map *m, const char *name, const ns__rule **rule,
                           const ns__block **block) {
    ns__memo *mo = m->memo;
    size_t k = ns_strmap_find(&mo->names, name);
    if (k == (size_t)-1) {
        *rule = ns__name_rule(m, name);
        *block = ns__scope_block(m, name);
        if (mo->names.count >= NS__MEMO_MAX) return;
        int added;
        k = ns_strmap_intern(&mo->names, name, &added);
        if (k >= mo->cap) {
            mo->cap = mo->cap ? mo->cap * 2 : 256;
            mo->rule = ns_xrealloc(mo->rule, sizeof *mo->rule * mo->cap);
            mo->block = ns_xrealloc(mo->block, sizeof *mo->block * mo->cap);
        }
        mo->rule[k] = *rule ? (int)(*rule - m->names) : -1;
        mo->block[k] = *block ? (int)(*block - m->blocks) : -1;
        return;
    }
    *rule = mo->rule[k] >= 0 ? &m->names[mo->rule[k]] : NULL;
    *block = mo->block[k] >= 0 ? &m->blocks[mo->block[k]] : NULL;
}

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
    ns__rule_set(&(*v)[(*n)++], pattern, stage, line);
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
    ns__rule_set(&probe, pattern, stage, p->line);
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
            ns__rule_set(&probe, rest, -1, p->line);
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
    else
        ns__err(p, p->line, "unknown rule '%s' (a line is 'stage', 'name', 'marker', "
                            "'scope' or 'default', or a '#' comment)", kw);
}

ns_stage_map *ns_stage_map_parse_new(const char *file, const char *text, size_t len,
                                     ns_buf *errs) {
    ns_stage_map *m = ns_xcalloc(1, sizeof *m);
    m->memo = ns_xcalloc(1, sizeof *m->memo);
    m->label = ns_strdup(file);
    m->text = ns_strndup(text, len);
    m->dflt = -1;
    ns_strmap_init(&m->exact);
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

/* ====== Assigning stages ====== */

const char *ns_stage_by_name(ns_stage_by by) {
    switch (by) {
    case NS_STAGE_BY_NONE: return "none";
    case NS_STAGE_BY_NAME: return "name";
    case NS_STAGE_BY_MARKER: return "marker";
    case NS_STAGE_BY_PARENT: return "parent";
    case NS_STAGE_BY_DEFAULT: return "default";
    }
    return "?";
}

static int ns__is_rest(const ns_node *n) { return n->kind == NS_KIND_REST && n->depth == 0; }

int ns_stage_counted(const ns_report *r, const ns_node *n) {
    if (n == r->root || ns__is_rest(n) || n->kind == NS_KIND_TOTAL) return 0;
    if (r->list_mode) {
        if (n->depth == 0 && n == r->root->child && strcmp(n->name, "root") == 0) return 0;
        if (n->kind == NS_KIND_PIPELINE) return 0;
    }
    return 1;
}

/* State of one marker scan: the block and how far it got. */
typedef struct {
    const ns__block *block; /* the markers read */
    int pos;                /* index of the last marker fired, -1 before the first */
    int stage;              /* its stage, -1 before the first */
    int line;               /* its line */
} ns__scan;

static void ns__scan_start(ns__scan *s, const ns__block *b) {
    s->block = b;
    s->pos = s->stage = -1;
    s->line = 0;
}

/* A row seen by the scan: fire the first matching marker after pos. */
static void ns__scan_row(ns__scan *s, const char *name) {
    for (int j = s->pos + 1; j < s->block->nmarkers; j++)
        if (ns__rule_match(&s->block->markers[j], name)) {
            s->pos = j;
            s->stage = s->block->markers[j].stage;
            s->line = s->block->markers[j].line;
            return;
        }
}

ns_stage_of *ns_stage_assign_new(const ns_stage_map *m, const ns_report *r, long *np) {
    const ns_node *root = r->root;
    long n = 0;
    int maxd = 0;
    for (const ns_node *x = root; x; x = ns_node_next((ns_node *)x, root)) {
        n++;
        if (x->depth > maxd) maxd = x->depth;
    }
    /* level L = depth + 1 (the root is level 0); for the last node seen at
     * each level: its stage, and the level whose scan its children join */
    size_t nl = (size_t)maxd + 2;
    int *stg = ns_xmalloc(sizeof *stg * nl);
    int *scan = ns_xmalloc(sizeof *scan * nl);
    ns__scan *sc = ns_xmalloc(sizeof *sc * nl);
    ns_stage_of *of = ns_xcalloc((size_t)n + 1, sizeof *of);
    const ns__block *any = m->any.nmarkers ? &m->any : NULL;

    of[0] = (ns_stage_of){-1, 0, NS_STAGE_BY_NONE};
    stg[0] = -1;
    const ns__rule *rule;
    const ns__block *b;
    ns__name_facts(m, root->name, &rule, &b);
    if (!b) b = any;
    scan[0] = b ? 0 : -1;
    if (b) ns__scan_start(&sc[0], b);

    long i = 0;
    for (const ns_node *x = root->child; x; x = ns_node_next((ns_node *)x, root)) {
        i++;
        int d = x->depth + 1;
        if (d < 1) d = 1;
        if ((size_t)d >= nl) d = (int)nl - 1;
        if (ns__is_rest(x)) {
            of[i] = (ns_stage_of){-1, 0, NS_STAGE_BY_NONE};
            stg[d] = -1;
            scan[d] = -1;
            continue;
        }
        int s = scan[d - 1];
        if (s >= 0) ns__scan_row(&sc[s], x->name);
        ns__name_facts(m, x->name, &rule, &b);
        if (rule) of[i] = (ns_stage_of){rule->stage, rule->line, NS_STAGE_BY_NAME};
        else if (s >= 0 && sc[s].stage >= 0)
            of[i] = (ns_stage_of){sc[s].stage, sc[s].line, NS_STAGE_BY_MARKER};
        else if (d >= 2 && stg[d - 1] >= 0)
            of[i] = (ns_stage_of){stg[d - 1], 0, NS_STAGE_BY_PARENT};
        else of[i] = (ns_stage_of){m->dflt, m->dflt_line, NS_STAGE_BY_DEFAULT};
        stg[d] = of[i].stage;
        /* the scan x's children join: its own (a scope names it), the one x
         * sits in (a pipeline row is looked through), or the unscoped one */
        if (b) {
            scan[d] = d;
            ns__scan_start(&sc[d], b);
        } else if (x->kind == NS_KIND_PIPELINE && s >= 0) {
            scan[d] = s;
        } else if (any) {
            scan[d] = d;
            ns__scan_start(&sc[d], any);
        } else {
            scan[d] = -1;
        }
    }
    free(stg);
    free(scan);
    free(sc);
    *np = n;
    return of;
}

/* ====== Sums ====== */

double ns_stage_report_total(const ns_report *r) {
    ns_num t = r->root->val[NS_COL_WALL];
    if (ns_num_present(t) && isfinite(t.v)) return t.v;
    if (ns_num_present(r->header_total) && isfinite(r->header_total.v)) return r->header_total.v;
    return NAN;
}

void ns_stage_sum(const ns_stage_map *m, const ns_report *r, const ns_stage_of *of,
                  ns_stage_sums *s) {
    for (int k = 0; k < m->nstages; k++) s->self[k] = 0;
    s->rest = 0;
    s->total = ns_stage_report_total(r);
    long i = 0;
    for (const ns_node *x = r->root; x; x = ns_node_next((ns_node *)x, r->root), i++) {
        if (ns__is_rest(x)) {
            ns_num w = x->val[NS_COL_WALL];
            if (ns_num_present(w) && isfinite(w.v)) s->rest += w.v;
            continue;
        }
        if (!ns_stage_counted(r, x) || of[i].stage < 0) continue;
        double self = ns_node_self(x, NS_COL_WALL);
        if (isfinite(self)) s->self[of[i].stage] += self;
    }
}

/* ====== Choosing a map ====== */

int ns_stage_is_vpux(const ns_report *r) {
    for (const ns_node *a = r->root->child; a; a = a->next) {
        if (strcmp(a->name, "IE to VPUIP pipeline") == 0 || strcmp(a->name, "Compile network") == 0)
            return 1;
        for (const ns_node *b = a->child; b; b = b->next)
            if (strcmp(b->name, "IE to VPUIP pipeline") == 0 ||
                strcmp(b->name, "Compile network") == 0)
                return 1;
    }
    return 0;
}

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
