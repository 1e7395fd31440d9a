/* dataset.h -- the numbers `fit` and `diff` analyse: runs read from their
 * folders, the ones that count, chosen by tags, and one value per run; and
 * the configurations `table` and `report` group runs into.
 *
 * An analysis asks three questions of a sweep: which runs (a folder, or the
 * runs of a folder whose tags match "precision=int8"), which of them count
 * (ok, neither warmups nor cache primers -- the same rule as `table`), and
 * what number each run gives (its wall time, a pass's time, a metric).  This
 * file answers them once for every analysing command.  `fit` also reads
 * plain CSV tables (a study's published figures, `table --format csv`
 * output), so the CSV reader lives here too.
 *
 * Fields (what a number of a run is), as written on the command line:
 *   wall, user, sys      the run's wall / user CPU / system CPU seconds
 *   peak                 its peak resident memory, MiB
 *   metric:NAME          a metric of the run (record --metric, built-ins)
 *   pass:NAME            wall seconds of every row named NAME in every
 *                        report of the run, summed: an NPUW compile prints
 *                        one report per sub-model, and a pass's cost is its
 *                        cost over all of them (Total and Rest are never
 *                        rows; a row inside a same-named row is not counted
 *                        twice)
 *   stage:NAME           a stage's time (stages.h: self times of its rows)
 *                        over the run's reports, each under the map the
 *                        command's stage selection gives it (--stages;
 *                        automatic by default: vpux or mlir per report)
 *   total                the run's report totals, summed (the compiler's
 *                        own time of every sub-model compile)
 *   fact:NAME            a fact the compiler logged about a compile
 *                        (report facts, run.json's reports[].metrics, e.g.
 *                        vpuip_tasks), summed over the run's reports
 *   AXIS                 (fit's x only) a tag whose values are numbers, or
 *                        a derived tag (below)
 * Derived tags: size_b (also as params) and family, read off the `model`
 * tag (analyse/model_name.h) when the run has no tag of that name: a tag
 * the run has always wins.  ns_run_tag is the one place they are made.
 * The environment facts of run.json (driver_l0_minor, npu_platform, ...:
 * model/load.h) are derived tags too, under their own names.
 * A value a run does not have is NaN, never 0.
 *
 * Ownership: an ns_runset owns its runs; ns_selection holds borrowed
 * pointers into a runset; an ns_config borrows its tags from the runs and
 * owns its arrays and its label; an ns_csv owns its cells.
 * Deliberately left out: recursion into nested folders (parse/run_read.h looks
 * one level deep), and CSV dialects other than RFC 4180 with commas.
 */
#ifndef NPUSCOPE_DATASET_H
#define NPUSCOPE_DATASET_H

#include "model/runs.h"
#include "parse/run_read.h"
#include "model/stages.h"
#include "base/strmap.h"

/* ====== Fields ====== */

typedef enum {
    NS_FIELD_WALL,   /* wall_s */
    NS_FIELD_USER,   /* user_s */
    NS_FIELD_SYS,    /* sys_s */
    NS_FIELD_PEAK,   /* peak_rss_mb */
    NS_FIELD_METRIC, /* metric:NAME */
    NS_FIELD_PASS,   /* pass:NAME, summed over the run's reports */
    NS_FIELD_TAG,    /* a tag read as a number (an axis) */
    NS_FIELD_STAGE,  /* stage:NAME, the stage's time over the run's reports */
    NS_FIELD_FACT,   /* fact:NAME, a compiler-logged number of each report */
    NS_FIELD_TOTAL,  /* total, the report totals */
} ns_field_kind;

typedef struct {
    ns_field_kind kind;    /* what the value is */
    const char *name;      /* metric, pass, stage or tag name (points into spec) */
    const char *spec;      /* the field as written (borrowed) */
    ns_stage_sel *stages;  /* stage:NAME: the maps each report is read with
                            * (the command's --stages, borrowed); NULL: a
                            * stage has no value */
} ns_field;

/* Parse a field of a run.  as_axis: the x of a fit, "AXIS" (a tag) or
 * "metric:NAME"; otherwise wall, user, sys, peak, metric:NAME, pass:NAME or
 * stage:NAME (then set f->stages: the field leaves it NULL).
 * Returns 0, or -1 with *why set to a static sentence saying what is
 * accepted (stage:NAME gets its own). */
int ns_field_parse(const char *spec, int as_axis, ns_field *f, const char **why);
/* The value of field f for one report (a sub-model compile): pass:NAME,
 * stage:NAME, total and fact:NAME; NaN for what a report does not have
 * (and for the run-level fields). */
double ns_report_value(const struct ns_report *rep, const ns_field *f);
/* The point of one report in a fit a point per report (`fit --per report`,
 * the study's workload fits): x and y both of that report.  Returns 0 with
 * both set, 1 when the report has no x, 2 when it has x but no y. */
int ns_report_point(const struct ns_report *rep, const ns_field *fx, const ns_field *fy,
                    double *x, double *y);
/* The value of tag `key` of r: its own tag, else an environment fact,
 * else a derived one (size_b, params, family from the model tag), written into buf[0..len); NULL when
 * neither.  The result is borrowed from r or is buf. */
const char *ns_run_tag(const ns_run *r, const char *key, char *buf, size_t len);
/* Seconds?  (wall, user, sys, pass:NAME) -- text output prints them %.4f. */
int ns_field_is_time(const ns_field *f);
/* The value of field f for run r; NaN when the run does not have it. */
double ns_run_value(const ns_run *r, const ns_field *f);
/* Wall seconds of the rows named `name` in r's reports, summed; *found
 * receives how many rows were summed (0: the pass is not in any report). */
double ns_run_pass_wall(const ns_run *r, const char *name, int *found);
/* Names of the pass rows of r's reports, added to `names` (each once, in
 * order of first appearance).  Rows as `top` ranks them: containers
 * (scopes and pipelines with children), Total and Rest are not passes. */
void ns_run_pass_names(const ns_run *r, ns_strmap *names);
/* Every pass of `names` at once, in one walk over r's reports:
 * sums[i] = ns_run_pass_wall(r, names->keys[i], &found[i]).  sums and found
 * hold names->count entries (set here). */
void ns_run_pass_sums(const ns_run *r, const ns_strmap *names, double *sums, int *found);
/* How the pass fields see row n of rep, as bits: NS_ROW_NOT (Total, Rest,
 * the hidden root timer: never a row), else NS_ROW_PASS when it counts as
 * a pass name (ns_run_pass_names) and NS_ROW_INSIDE when it is inside a
 * row of the same name (whose time holds it: ns_run_pass_sums skips it).
 * For readers that summarise a run's trees in one walk (analyse/diff.h). */
enum { NS_ROW_NOT = 1, NS_ROW_PASS = 2, NS_ROW_INSIDE = 4 };
int ns_report_row_flags(const struct ns_report *rep, const struct ns_node *n);

/* ====== Values written as text ====== */

/* Is s a decimal number ("128", "-0.5", "1e3"; not "nan", not "12a", no
 * blanks)?  Its value goes to *v.  Locale-independent. */
int ns_text_number(const char *s, double *v);
/* Order of tag values and CSV cells: NULL first, then numbers by value,
 * then other text; ties by bytes.  So window 128 sorts before 1024. */
int ns_text_cmp(const char *a, const char *b);

/* ====== Runs ====== */

typedef struct {
    ns_run *runs; /* every run read, in reading order (owned) */
    int nruns;    /* entries in runs */
} ns_runset;

/* Append the runs of dir (a run folder or a folder of run folders).
 * Returns the number appended, or -1 (error printed) when dir cannot be
 * read.  This and ns_runs_read are the commands' readers of run folders:
 * they print what parse/run_read.c's ns_run_folder_read says (through
 * ns_diag_stderr). */
int ns_runset_read(ns_runset *s, const char *dir);
/* The same into a bare array (ns_run_folder_read's, printing). */
int ns_runs_read(const char *dir, ns_run **runs, int *nruns);
/* Run by run (ns_run_folder_each's, printing): fn owns each run. */
int ns_runs_each(const char *dir, ns_run_fn fn, void *ctx);
/* One run, one count: these three readers hand on a run only the first
 * time they meet it in this process -- a run is its folder name (its id),
 * its start time and its host, so `table runs runs`, a folder and a run
 * inside it, or a copy of a run folder give each run once (a note says how
 * many were left out, the count is the return value's).  Two recordings
 * of one configuration into two folders have the same folder names but
 * not the same start: both count.  ns_runs_forget starts afresh (diff
 * between its two sides: A against A is a comparison, not a duplicate). */
void ns_runs_forget(void);
void ns_runset_free(ns_runset *s);

/* Counted: ok, not a warmup, not a primer, not disturbed (the rule of `table`). */
int ns_run_counted(const ns_run *r);

/* Tag selections "K=V[,K=V]": a run matches when it has every pair; a
 * derived tag (ns_run_tag: size_b, params, family) counts as one it has. */
int ns_select_parse(ns_kvlist *sel, const char *spec); /* -1: malformed */
int ns_select_match(const ns_run *r, const ns_kvlist *sel);

typedef struct {
    const ns_run **runs; /* counted runs that match (borrowed), reading order */
    int n;               /* entries in runs */
    int matched;         /* runs that match, counted or not */
    int failed;          /* matching runs that did not succeed */
    int warmups;         /* matching --warmup runs */
    int primers;         /* matching cache primers */
} ns_selection;

/* The counted runs of s that match sel (NULL or empty: every run) and
 * whose mode is `mode` (NULL: any), and how many matching runs were not
 * counted and why.  Free with ns_selection_free. */
void ns_select_runs(const ns_runset *s, const ns_kvlist *sel, const char *mode,
                    ns_selection *out);
void ns_selection_free(ns_selection *sel);
/* Modes of the selection's runs, in the order cold, warm, none, others by
 * name (borrowed), at most `max`; returns how many there are. */
int ns_selection_modes(const ns_selection *sel, const char **modes, int max);

/* Order of cache modes everywhere: cold, warm, none, then any other (ties
 * by name are the caller's); NULL (no mode: CSV records) before all. */
int ns_mode_rank(const char *mode);

/* ====== Configurations ======
 * A configuration is everything that defines a run: its full set of tags
 * (key and value, byte for byte), its command (argv, word for word) and
 * the environment npuscope gave it (record --env, the preset's variables;
 * not the NPUSCOPE_* ones npuscope sets for every run: MODE is the mode,
 * PARAM_* are the tags again, RUN_DIR and CACHE_DIR are a run's own
 * folders).  `table` makes a row and `report` a group of each
 * configuration and cache mode: two runs are one only when all of that is
 * the same.  Two folders of different pipelines recorded without tags are
 * two rows, never one median of both.
 *
 * Configurations with the same tags but another command or environment
 * get a label, a pseudo-tag under the key ns_config_label_key() gives
 * ("config", or another name when a run has a tag "config"), which is
 * shown, sorted and compared like any tag: the words of the command and
 * the variables that tell them apart (the argv tokens and K=V the others
 * of the same tags do not all have; "without W" when a configuration's
 * own words are the common ones).  A long word loses the part all of its
 * siblings share and its middle, to an ellipsis (…); two labels that would
 * still read the same get " #" and eight hex digits of a hash of the
 * whole command.  Deterministic: the same runs in any reading order give
 * the same labels. */

typedef struct {
    const ns_kv **tags; /* the configuration, sorted by key (borrowed from a run; the
                         * label is among them) */
    int ntags;          /* entries in tags */
    const char *mode;   /* cache mode of its runs (borrowed) */
    int *runs;          /* indices of its runs in the run array, reading order */
    int nruns;          /* entries in runs */
    ns_kv *label;       /* the label pseudo-tag, also in tags (owned, its value owned,
                         * its key static); NULL when the tags tell it apart */
} ns_config;

/* Put each of runs[0..nruns) in its configuration and mode, made on first
 * sight (so in order of first appearance), and label the configurations
 * that share their tags.  Returns how many, the array in *out (free each
 * with ns_config_free, then the array).  Every tag key is added to keys
 * (ns_key_add), in the order the runs have them, then the label key when
 * any configuration has a label. */
int ns_configs_new(const ns_run *runs, int nruns, ns_config **out, const char ***keys,
                   int *nkeys);
void ns_config_free(ns_config *c);
/* Append key to keys[0..*nkeys) unless it is there (names borrowed). */
void ns_key_add(const char ***keys, int *nkeys, const char *key);
/* The value of the tag `key` in c (the label under its key), or NULL. */
const char *ns_config_tag(const ns_config *c, const char *key);
/* c's label ("--pass-pipeline=…cse)", "FOO=1"), or NULL. */
const char *ns_config_label(const ns_config *c);
/* The key c's label is shown under, or NULL when c has no label. */
const char *ns_config_label_key(const ns_config *c);
/* The same configuration: the same tags and label?  (The modes are not
 * compared.) */
int ns_config_same_tags(const ns_config *a, const ns_config *b);
/* Is b the baseline partner of a: the same mode, and the same tags (and
 * label) but `key`, which both have and b has with `value`
 * ("precision=int8")? */
int ns_config_partner(const ns_config *a, const ns_config *b, const char *key, const char *value);
/* The same questions for many configurations at once, in linear time (a
 * hash map; pairwise questions over 20,000 configurations were minutes):
 * ns_config_groups_new gives each of cfg[0..n) the number of its tags
 * (and label) in order of first appearance -- equal numbers, same tags --
 * and *ngroups; ns_config_put_key writes c's mode (when with_mode) and
 * tags but `skip` (NULL: none) as one string, equal exactly when those are
 * (a baseline partner: the same key with_mode, skip = the baseline tag). */
int *ns_config_groups_new(const ns_config *const *cfg, int n, int *ngroups);
void ns_config_put_key(ns_buf *b, const ns_config *c, int with_mode, const char *skip);
/* The one order of configurations everywhere (`table` rows, `report`
 * groups, `advise` cases, `tree --merge` groups): tag by tag in the order
 * of keys (ns_text_cmp: missing first, numbers as numbers, so 2000 before
 * 16000), then by mode (cold, warm, none, others by name). */
int ns_config_cmp(const ns_config *a, const ns_config *b, const char *const *keys, int nkeys);

/* ====== CSV tables ======
 * RFC 4180: a header row, then records; fields separated by commas;
 * quoted fields may hold commas, doubled quotes and line breaks; CRLF or
 * LF line ends; a UTF-8 byte order mark is skipped; blank lines are
 * skipped.  Numbers are read by ns_text_number (C locale, "3.5"). */
typedef struct {
    char *file;    /* its name, for messages (owned) */
    char **head;   /* column names (owned) */
    int ncols;     /* entries in head */
    char **cells;  /* nrows x ncols, row-major; NULL where a record was short */
    long *lines;   /* line on which each record starts */
    int nrows;     /* records after the header */
} ns_csv;

/* Read the CSV file at path.  Returns 0, or -1 (error printed: unreadable,
 * empty, a quote never closed).  A record with more fields than the header
 * is a warning with its line; the extra fields are ignored. */
int ns_csv_read(const char *path, ns_csv *t);
/* Column index of `name`, or -1. */
int ns_csv_col(const ns_csv *t, const char *name);
/* Cell of record r in column c (NULL when the record was short). */
const char *ns_csv_cell(const ns_csv *t, int r, int c);
void ns_csv_free(ns_csv *t);

#endif
