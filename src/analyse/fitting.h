/* fitting.h -- the points of `fit`: observations read from run folders or
 * CSV tables, sorted into groups (a --by value and a cache mode), one
 * power law per group (analyse/fit.h does the arithmetic).
 *
 * Moved out of builtin/fit.c so that `fit` and `predict` share one reading
 * of a sweep: which runs count, what x and y a run gives, how the runs at
 * one x make a point (their median), and what is left out and said so.
 * builtin/fit.c keeps the command line and the three renderings.
 *
 *   - Run folders: the counted runs (ok, neither warmups nor primers) that
 *     match --where and --mode.  x is a tag read as a number (--x window)
 *     or a metric; y is a field of dataset.h (wall, pass:NAME, ...).  One
 *     point per group and x: the median y of the runs there, with their
 *     count, min and max.  Runs of different cache modes are never mixed
 *     in a point.  Runs at one point that differ in another tag are mixed
 *     by the median, and a warning names the tag.
 *   - --per report: each timing report is a point, x and y both from it.
 *   - CSV: --x, --y and --by name columns; each record is a point.
 *
 * Ownership: an ns_fitset owns its observations, groups (and their fits)
 * and derived --by values; names it is given (xname, yname, byname) are
 * borrowed.  An ns_fit_reader owns its digests; its runset is the caller's.
 * Left out: printing (builtin/fit.c), and the fit's arithmetic (fit.h).
 */
#ifndef NPUSCOPE_FITTING_H
#define NPUSCOPE_FITTING_H

#include "analyse/dataset.h"
#include "analyse/fit.h"
#include "base/common.h"
#include "base/strmap.h"

/* ====== Groups ====== */

typedef struct {
    const char *group; /* --by value (borrowed), NULL without --by */
    const char *mode;  /* cache mode of its runs (borrowed), NULL for CSV */
    double x;          /* x of the run or record */
    double y;          /* y of it */
    const ns_run *run; /* the run (NULL for CSV) */
    long line;         /* CSV: line of the record; --per report: the report's index */
} ns_fit_obs;

typedef struct {
    const char *group; /* --by value (borrowed), NULL without --by */
    const char *mode;  /* cache mode (borrowed), NULL for CSV */
    ns_fit fit;        /* its points and fit */
} ns_fit_group;

typedef struct {
    const char *xname;  /* --x as given */
    const char *yname;  /* --y as given */
    const char *byname; /* --by, or NULL */
    int csv;            /* inputs are CSV tables */
    int per_report;     /* --per report: a point per timing report */
    ns_strmap names;    /* derived --by values (family), owning their text */
    int y_time;         /* y is seconds (text headers say " s") */
    ns_fit_obs *obs;       /* observations, then sorted into groups */
    int nobs;           /* entries in obs */
    ns_fit_group *groups;  /* fits, in output order */
    int ngroups;        /* entries in groups */
    int total;          /* runs read / records read */
    int counted;        /* counted runs that matched (run folders) */
    int nmodes;         /* distinct modes among the counted runs */
    int total_reports;  /* --per report: reports of the counted runs */
} ns_fitset;

/* Sort the observations and make one fit per group: for run folders one
 * point per x (the median of its runs), for CSV and --per report one point
 * per observation.  The fits are not made yet (ns_fit_power). */
void ns_fitset_build(ns_fitset *s);
/* "model=m1, mode cold" (or "all runs"), for people: appended to b. */
void ns_fitset_label(ns_buf *b, const ns_fitset *s, const ns_fit_group *g);
/* Free what s owns (its groups' fits too); the names stay the caller's. */
void ns_fitset_free(ns_fitset *s);

/* ====== Reading ====== */

/* What a fit needs of one run's reports, taken as the run is read so that
 * its trees can be freed at once (a history of 100,000 runs does not fit
 * in memory with them): x and y of the run, or, --per report, each
 * report's point. */
typedef struct {
    double x, y; /* the report's x and y (NaN where it has none) */
    int code;    /* ns_report_point: 0 both, 1 no x, 2 no y */
} ns_fit_pt;

typedef struct {
    double x, y;  /* ns_run_value of --x and --y (not --per report) */
    ns_fit_pt *pts;  /* --per report: a point per report, in report order (owned) */
    int npts;     /* entries in pts: the run's reports */
} ns_fit_digest;

typedef struct {
    ns_runset *set;      /* the runs, trees freed */
    int cap;             /* allocated entries of set->runs and dig */
    ns_fit_digest *dig;     /* per run of set (owned) */
    const ns_field *fx;  /* --x */
    const ns_field *fy;  /* --y */
    int per_report;      /* --per report */
} ns_fit_reader;

/* An ns_run_fn for ns_runs_each (ctx: an ns_fit_reader): keeps the run
 * in rd->set without its trees, and its digest. */
void ns_fit_reader_take(ns_run *r, void *ctx);
void ns_fit_reader_free(ns_fit_reader *rd);
/* Run folders: observations of the counted runs of rd that match `where`
 * and `mode` (NULL: any); what is left out is one warning per cause. */
void ns_fitset_from_runs(ns_fitset *s, const ns_fit_reader *rd, const ns_kvlist *where,
                         const char *mode, const ns_field *fx);
/* A CSV table: one observation per record.  Returns -1 when a named
 * column is missing (error printed). */
int ns_fitset_from_csv(ns_fitset *s, const ns_csv *t);

#endif
