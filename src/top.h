/* top.h -- the heaviest passes, summed by name across every report.
 *
 * An NPUW LLM compile is seven compiles; a sweep is hundreds.  `top` adds
 * each name's time over all of them ("sets": occurrences, total wall, total
 * user, self time) and ranks them.  Container rows (scopes and pipelines
 * with children) are left out by default because their time is their
 * children's; --all keeps them.  Rest and Total are never rows.
 */
#ifndef NPUSCOPE_TOP_H
#define NPUSCOPE_TOP_H

#include "report.h"
#include "strmap.h"

typedef struct {
    ns_kind kind;    /* kind of the first occurrence */
    long count;      /* occurrences */
    double wall;     /* summed wall seconds */
    double user;     /* summed user seconds (where printed) */
    double self;     /* summed wall self time */
    long user_count; /* occurrences that had a user value */
    int dec;         /* most decimals among the summed values */
} ns_top_row;

typedef struct {
    ns_strmap names;   /* name -> row index */
    ns_top_row *rows;  /* rows by index */
    size_t cap;        /* allocated rows */
    double total_wall; /* summed report totals (wall) */
    int reports;       /* reports added */
    int all;           /* keep container rows too */
} ns_top;

void ns_top_init(ns_top *t, int all);
void ns_top_add(ns_top *t, const ns_report *r);
/* Row indices sorted by wall descending, ties by name; caller frees. */
size_t *ns_top_order_new(const ns_top *t);
void ns_top_free(ns_top *t);

#endif
