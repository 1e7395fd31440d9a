/* stages_int.h -- the private half of the stage-map module.
 *
 * The module is broken out into two files for easier editing (as sqlite's
 * whereInt.h is for where.c):
 *   stages.c        the map's accessors, patterns, giving every row of a
 *                   report its stage, stage sums;
 *   stages_parse.c  reading a rules file (and the built-in maps) into a map,
 *                   and choosing the map for a report (--stages auto).
 * They share the types below; only stages.h is public.  stages_parse.c
 * calls into stages.c (the pattern helpers), never the other way.
 */
#ifndef NPUSCOPE_STAGES_INT_H
#define NPUSCOPE_STAGES_INT_H

#include "model/stages.h"

#include "base/strmap.h"

#define NS__MAP_MAX (16u << 20) /* bytes; a larger file is not a stage map */

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
 * looked up once per name.  And the same reports, rows in the same
 * order: the name seen last time after the same three names at the same
 * depth is compared first, and only when it is another is the name
 * hashed and looked up.  The three names and the depth, not one name:
 * names repeat inside a report (Canonicalizer, CSE, a pipeline row) with
 * other names after them, and on the bench's dense log (three kinds of
 * report, mixed) the name before alone guessed 70% of the rows, these
 * 97% (a miss costs a compare, a hash and a branch the CPU mispredicts).
 * The guesses are a direct-mapped table, NS__GUESS entries by a hash of
 * the four: a collision costs a miss, never a wrong stage (the guess is
 * compared).  The memo lives behind a pointer so that a map
 * passed const can fill it; it stops growing at NS__MEMO_MAX names, past
 * which names are matched every time (a hostile log of unique names costs
 * no memory). */
#define NS__MEMO_MAX 65536
#define NS__GUESS_BITS 12
#define NS__GUESS (1 << NS__GUESS_BITS)

/* The markers too are matched once per name: per name and block (the
 * map's blocks, then `any`), bit j is set when marker j matches it, so a
 * row's marker is a look at one word (a block of more than
 * NS__MARKS_MAX markers is matched row by row). */
#define NS__MARKS_MAX 64

typedef struct {
    ns_strmap names; /* names seen -> index into the arrays below */
    int *rule;       /* index into the map's names, -1 for none */
    int *block;      /* index into the map's blocks, -1 for none */
    unsigned long long *marks; /* per name, nblocks + 1 words: the markers it matches */
    size_t cap;      /* entries allocated in rule and block (names in marks) */
    int guess[NS__GUESS]; /* by a hash of the three names before a row and its
                           * depth: the id + 1 of the name seen there last
                           * time (0: none yet), tried before the hash */
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
    ns_strmap loggers;  /* `logger` rules: logger name -> index into logger_pass */
    char **logger_pass; /* the pass each logger is ("" for a logger of no pass) */
    int *logger_line;   /* the line of each logger rule */
    size_t logger_cap;  /* entries allocated in logger_pass and logger_line */
};

/* stages.c: rule helpers the parser uses. */
void ns_stages__rules_free(ns__rule *r, int n);
void ns_stages__rule_set(ns__rule *r, const char *pattern, int stage, int line);

#endif
