/* regex_guard.c -- the walk behind ns_regex_refusal (regex_guard.h).
 *
 * One pass over the pattern with a stack of open groups.  Per group it
 * keeps its node count so far (after glibc's copies), whether the current
 * branch and any earlier one can match empty, whether a loop occurs inside
 * it, and the first literal character of each alternative -- what the
 * rules of the header need, and nothing of regex semantics beyond that.
 */
#include "base/regex_guard.h"

#include <stdio.h>
#include <string.h>

/* glibc's compile time grows faster than its node count (a 4,000-node
 * pattern of stacked '+' took 3 s, 12 s under ASan): real metric patterns
 * have tens of nodes, so the budget is far below where that starts. */
#define NS__REGEX_MAX_NODES 2000

/* The guard walks the pattern once, keeping per open group: its nodes so
 * far (after glibc's copies) and whether the current branch, and any
 * earlier one, can match empty. */
typedef struct {
    double nodes;     /* nodes of this group so far (of everything, outermost) */
    int branch_empty; /* the items of this branch before the last all match empty */
    int any_empty;    /* an earlier branch of this group matches empty */
    int has_last;     /* there is an item a repetition would apply to */
    int last_empty;   /* that item matches empty */
    double last;      /* its nodes */
    int loops;        /* a loop occurs in this group (at any depth) */
    int last_loops;   /* the last item holds a loop */
    int alts;         /* alternatives seen in this group */
    int alt_clash;    /* two alternatives may start alike (or one starts
                         with something that is not a literal character) */
    unsigned char firsts[256]; /* first literal characters of the alternatives */
    int branch_first; /* the current alternative has its first item */
    int last_alts;    /* the last item is a group with clashing alternatives */
} ns__re_level;

static void ns__re_branch_start(ns__re_level *l) {
    l->branch_empty = 1;
    l->has_last = 0;
    l->last_empty = 1;
    l->last = 0;
    l->last_loops = 0;
    l->last_alts = 0;
    l->branch_first = 0;
}

/* The first item of an alternative: c its literal character, or -1. */
static void ns__re_first(ns__re_level *l, int c) {
    if (l->branch_first) return;
    l->branch_first = 1;
    if (c < 0 || l->firsts[c]) l->alt_clash = 1;
    else l->firsts[c] = 1;
}

/* A new item of `nodes` nodes becomes the last one. */
static void ns__re_item(ns__re_level *l, double nodes, int empty) {
    if (l->has_last) l->branch_empty = l->branch_empty && l->last_empty;
    l->last = nodes;
    l->nodes += nodes;
    l->has_last = 1;
    l->last_empty = empty;
    l->last_loops = 0;
    l->last_alts = 0;
}

/* A literal character c (or -1: any other atom) as the next item. */
static void ns__re_atom(ns__re_level *l, int c, int empty) {
    ns__re_first(l, c);
    ns__re_item(l, 1, empty);
}

/* The last item repeated: glibc makes `copies` copies of it.  `loop`: the
 * repetition may run more than once.  Returns 1 when it loops over
 * something that can match empty. */
static int ns__re_repeat(ns__re_level *l, double copies, int loop, int may_skip) {
    if (!l->has_last) return 0; /* glibc refuses a repetition of nothing */
    if (loop && l->last_empty) return 1;
    if (loop && l->last_loops) return 2;
    if (loop && l->last_alts) return 3;
    if (loop) l->loops = 1; /* the group holds a loop; a repeated atom (a++) is no worse */
    l->nodes += l->last * (copies - 1);
    l->last *= copies;
    if (may_skip) l->last_empty = 1;
    return 0;
}

const char *ns_regex_refusal(const char *re) {
    static const char *const too_big =
        "repeats repetitions too deeply to compile in reasonable time and memory";
    static const char *const why_loop[] = {
        NULL,
        "repeats something that can match nothing (as x** or (x?)+ do), which glibc's regex "
        "engine can take minutes over",
        "repeats a group that repeats something itself (a nested quantifier, as (a+)+ or "
        "(\\w+\\s?)* are), which glibc's regex engine can take minutes over; write the "
        "inner repetition once, as a+ or [\\w\\s]*",
        "repeats a group whose alternatives can start alike (as (a|aa)+ does), which glibc's "
        "regex engine can take minutes over; make the alternatives start with different "
        "characters"};
    int why;
    ns__re_level st[65];
    int sp = 0;
    ns__re_level *l = &st[0];
    memset(l, 0, sizeof *l);
    ns__re_branch_start(l);
    for (const char *p = re; *p; p++) {
        switch (*p) {
        case '\\':
            if (!p[1]) {
                ns__re_atom(l, '\\', 0);
                break;
            }
            p++;
            if (*p >= '1' && *p <= '9')
                return "has a back-reference (\\1 to \\9), which glibc's regex engine can take "
                       "exponential time over";
            /* GNU's word and buffer anchors match empty; \w, \s are classes */
            ns__re_atom(l, strchr("bB<>`'wWsS", *p) ? -1 : (unsigned char)*p,
                        strchr("bB<>`'", *p) != NULL);
            break;
        case '^':
        case '$':
            ns__re_atom(l, -1, 1);
            break;
        case '[': { /* a bracket expression is one atom */
            const char *q = p + 1;
            if (*q == '^') q++;
            if (*q == ']') q++;
            while (*q && *q != ']') q++;
            p = *q ? q : q - 1;
            ns__re_atom(l, -1, 0);
            break;
        }
        case '(':
            if (sp == 64) return too_big;
            ns__re_first(l, -1); /* a group first: its alternatives are not looked into */
            l = &st[++sp];
            memset(l, 0, sizeof *l);
            ns__re_branch_start(l);
            break;
        case ')': {
            if (sp == 0) { /* glibc takes an unmatched ')' as a literal */
                ns__re_atom(l, ')', 0);
                break;
            }
            /* the group is a node of its own, even when empty: "(())+++..."
             * doubles a subtree that counting only atoms would call 0 */
            int empty = l->any_empty || (l->branch_empty && l->last_empty);
            double nodes = l->nodes + 1;
            int loops = l->loops, clash = l->alts > 0 && l->alt_clash;
            l = &st[--sp];
            ns__re_item(l, nodes, empty);
            l->last_loops = loops;
            l->last_alts = clash;
            if (loops) l->loops = 1;
            break;
        }
        case '|':
            l->any_empty = l->any_empty || (l->branch_empty && l->last_empty);
            if (!l->branch_first) l->alt_clash = 1; /* an empty alternative */
            l->alts++;
            ns__re_branch_start(l);
            break;
        case '*':
            if ((why = ns__re_repeat(l, 1, 1, 1))) return why_loop[why];
            break;
        case '+': /* glibc copies X for X+ */
            if ((why = ns__re_repeat(l, 2, 1, 0))) return why_loop[why];
            break;
        case '?':
            ns__re_repeat(l, 1, 0, 1);
            break;
        case '{': {
            long m = 0, n = 0;
            int comma = 0, upper = 0;
            const char *q = p + 1;
            while (*q >= '0' && *q <= '9' && m < 100000) m = m * 10 + (*q++ - '0');
            if (*q == ',') {
                comma = 1;
                q++;
                while (*q >= '0' && *q <= '9' && n < 100000) n = n * 10 + (*q++ - '0'), upper = 1;
            }
            long most = comma ? (upper ? n : -1) : m; /* -1: unbounded */
            if ((why = ns__re_repeat(l, (double)(m > n ? m : n) + 1, most < 0 || most > 1, m == 0)))
                return why_loop[why];
            while (*q && *q != '}') q++;
            p = *q ? q : q - 1;
            break;
        }
        case '.':
            ns__re_atom(l, -1, 0);
            break;
        default:
            ns__re_atom(l, (unsigned char)*p, 0);
        }
        double nodes = 0;
        for (int i = 0; i <= sp; i++) nodes += st[i].nodes;
        if (nodes > NS__REGEX_MAX_NODES || l->last > NS__REGEX_MAX_NODES) return too_big;
    }
    return NULL;
}

void ns_regex_error(int rc, const regex_t *re, char *msg, size_t n) {
    static const struct { int rc; const char *text; } t[] = {
        {REG_NOMATCH, "No match"},
        {REG_BADPAT, "Invalid regular expression"},
        {REG_ECOLLATE, "Invalid collation character"},
        {REG_ECTYPE, "Invalid character class name"},
        {REG_EESCAPE, "Trailing backslash"},
        {REG_ESUBREG, "Invalid back reference"},
        {REG_EBRACK, "Unmatched [, [^, [:, [., or [="},
        {REG_EPAREN, "Unmatched ( or \\("},
        {REG_EBRACE, "Unmatched \\{"},
        {REG_BADBR, "Invalid content of \\{\\}"},
        {REG_ERANGE, "Invalid range end"},
        {REG_ESPACE, "Memory exhausted"},
        {REG_BADRPT, "Invalid preceding regular expression"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].rc == rc) {
            snprintf(msg, n, "%s", t[i].text);
            return;
        }
    regerror(rc, re, msg, n);
}
