/* options.h -- every command's options as a table, read by one parser.
 *
 * A command declares what it takes, git parse-options style:
 *
 *     long depth = -1;
 *     int format = 0;
 *     static const char *const formats[] = {"text", "json", NULL};
 *     const ns_option opts[] = {
 *         NS_OPT_INT(0, "depth", &depth, "N", 0, 1000000),
 *         NS_OPT_CHOICE(0, "format", &format, "F", formats),
 *         NS_OPT_QUIET(&quiet),
 *         NS_OPT_END(),
 *     };
 *     switch (ns_options_parse("tree", argc, argv, opts, inputs, &ninputs)) ...
 *
 * and the parser does the rest the same way for all of them: `--name VALUE`
 * and `--name=VALUE`, `-n VALUE`, `--` (the rest are inputs), `-h`/`--help`
 * (prints the command's help), range and choice checks, and one error style
 * ("npuscope CMD: --opt: ..." and a pointer to the help), so no command
 * grows a branch of its own.  The table is also the list the help texts are
 * tested against: `npuscope CMD --completion-helper` prints it (one option
 * a line, as git's --git-completion-helper does), and the test suite holds
 * every entry against `CMD --help` and the man page.
 *
 * Deliberately left out: bundled short flags (-qv), abbreviations of long
 * names, and negations (--no-X) unless a table names them: a compile
 * command line is written once into a script and read many times, so every
 * option is spelled out.
 */
#ifndef NPUSCOPE_OPTIONS_H
#define NPUSCOPE_OPTIONS_H

#include "base/common.h"
#include "base/jsonw.h"

typedef enum {
    NS_OPT_KIND_END = 0, /* the end of a table */
    NS_OPT_KIND_FLAG,    /* no value: *(int *)value = 1 */
    NS_OPT_KIND_STRING,  /* *(const char **)value = the argument (borrowed from argv) */
    NS_OPT_KIND_INT,     /* *(long *)value, a whole number in [lo, hi] */
    NS_OPT_KIND_DOUBLE,  /* *(double *)value, a finite number >= dlo */
    NS_OPT_KIND_CHOICE,  /* *(int *)value = the index of the argument in choices */
    NS_OPT_KIND_CALL,    /* call(opt, arg, ctx): repeatable or composite options */
    NS_OPT_KIND_STAGES,  /* --stages [MAP]: *(const char **)value, see below */
} ns_opt_kind;

enum {
    /* The value comes only after '=' (--npuw=LAYOUT); alone the option
     * takes `def`.  For STRING and CALL. */
    NS_OPTF_EQ_VALUE = 1,
    /* CALL without a value (a flag that does more than set an int). */
    NS_OPTF_NO_VALUE = 2,
    /* Not listed by --completion-helper (an alias kept for old scripts). */
    NS_OPTF_HIDDEN = 4,
};

typedef struct ns_option ns_option;
/* A CALL option's handler: arg is the value (NULL for NS_OPTF_NO_VALUE, or
 * `def` under NS_OPTF_EQ_VALUE).  Returns 0, or -1 with *why set to a
 * reason (static or in a buffer that outlives the call) that the parser
 * prints as "npuscope CMD: --name: WHY".  A handler that calls a lower
 * layer which has printed its own message already leaves *why NULL. */
typedef int (*ns_opt_fn)(const ns_option *opt, const char *arg, const char **why);

struct ns_option {
    ns_opt_kind kind;          /* what the value is */
    char short_name;           /* 'n' for -n; 0: none */
    const char *long_name;     /* "depth" for --depth; NULL: none */
    void *value;               /* where the value goes (see ns_opt_kind) */
    const char *argh;          /* the value's name in help ("N", "DIR"); NULL: no value */
    long lo, hi;               /* INT: the range */
    double dlo;                /* DOUBLE: the least value */
    const char *const *choices;/* CHOICE: the names, NULL-terminated */
    const char *def;           /* STRING/CALL with NS_OPTF_EQ_VALUE: the value when bare */
    ns_opt_fn call;            /* CALL: the handler */
    void *ctx;                 /* CALL: the handler's context (opt->ctx) */
    int flags;                 /* NS_OPTF_* */
};

#define NS_OPT_END() {NS_OPT_KIND_END, 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, NULL, 0}
#define NS_OPT_FLAG(s, l, v)                                                                  \
    {NS_OPT_KIND_FLAG, (s), (l), (v), NULL, 0, 0, 0, NULL, NULL, NULL, NULL, 0}
#define NS_OPT_STRING(s, l, v, argh)                                                          \
    {NS_OPT_KIND_STRING, (s), (l), (v), (argh), 0, 0, 0, NULL, NULL, NULL, NULL, 0}
#define NS_OPT_STRING_EQ(l, v, argh, def)                                                     \
    {NS_OPT_KIND_STRING, 0, (l), (v), (argh), 0, 0, 0, NULL, (def), NULL, NULL, NS_OPTF_EQ_VALUE}
#define NS_OPT_INT(s, l, v, argh, lo, hi)                                                     \
    {NS_OPT_KIND_INT, (s), (l), (v), (argh), (lo), (hi), 0, NULL, NULL, NULL, NULL, 0}
#define NS_OPT_DOUBLE(s, l, v, argh, dlo)                                                     \
    {NS_OPT_KIND_DOUBLE, (s), (l), (v), (argh), 0, 0, (dlo), NULL, NULL, NULL, NULL, 0}
#define NS_OPT_CHOICE(s, l, v, argh, choices)                                                 \
    {NS_OPT_KIND_CHOICE, (s), (l), (v), (argh), 0, 0, 0, (choices), NULL, NULL, NULL, 0}
#define NS_OPT_CALL(s, l, argh, fn, ctx)                                                      \
    {NS_OPT_KIND_CALL, (s), (l), NULL, (argh), 0, 0, 0, NULL, NULL, (fn), (ctx), 0}
#define NS_OPT_CALL_FLAG(s, l, fn, ctx)                                                       \
    {NS_OPT_KIND_CALL, (s), (l), NULL, NULL, 0, 0, 0, NULL, NULL, (fn), (ctx), NS_OPTF_NO_VALUE}
#define NS_OPT_CALL_EQ(l, argh, fn, ctx, def)                                                 \
    {NS_OPT_KIND_CALL, 0, (l), NULL, (argh), 0, 0, 0, NULL, (def), (fn), (ctx), NS_OPTF_EQ_VALUE}
/* --stages [MAP], the same in every command: MAP is what follows '=', or
 * the next argument unless that is an option, "-" or a folder (a run
 * folder is an input, never a stage map); otherwise the option stands
 * alone and means "auto".  So `table --stages runs/` turns the stage
 * columns on with the automatic map, and `top --stages my.stages log`
 * reads my.stages.  *(const char **)value: the map, "auto" when bare. */
#define NS_OPT_STAGES(v)                                                                      \
    {NS_OPT_KIND_STAGES, 0, "stages", (v), "MAP", 0, 0, 0, NULL, NULL, NULL, NULL, 0}
/* -q, --quiet: no warnings. */
#define NS_OPT_QUIET(v) NS_OPT_FLAG('q', "quiet", (v))
/* --csv-raw: CSV cells as they are, no formula neutralising (base/jsonw.h) */
#define NS_OPT_CSV_RAW() NS_OPT_FLAG(0, "csv-raw", &ns_csv_raw)

/* What ns_options_parse returns. */
enum {
    NS_OPTIONS_OK = 0,     /* options stored, inputs collected */
    NS_OPTIONS_HELP = 1,   /* -h/--help (or --completion-helper): printed; exit 0 */
    NS_OPTIONS_ERROR = -1, /* a usage error, printed; exit NS_EXIT_USAGE */
};

/* Read argv[1..argc-1] against the tables `tables` (a NULL-terminated list,
 * so a command can add shared tables such as the read options to its own).
 * Arguments that are not options go to inputs (which has room for argc
 * entries) in order, *ninputs counting them; "-" is an input.  Messages go
 * to stderr here: a usage error is the command line's, not a deep layer's. */
int ns_options_parse(const char *cmd, int argc, char **argv, const ns_option *const *tables,
                     char **inputs, int *ninputs);
/* The same for a command that runs another: options end at the first
 * argument that is not one (or at "--"); *cmd_at is set to its index, and
 * argc when there is none. */
int ns_options_parse_until_command(const char *cmd, int argc, char **argv,
                                   const ns_option *const *tables, int *cmd_at);

/* Print "npuscope CMD: MESSAGE" and the pointer to the help, as the
 * parser does, for checks that involve several options; returns
 * NS_EXIT_USAGE. */
int ns_options_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
