/* cli.h -- what the subcommands share: argument matching, reading every
 * input through the scanner, colour decisions, and the help texts.
 *
 * Each subcommand lives in its own cmd_*.c with one entry point
 * `int ns_cmd_NAME(int argc, char **argv)` returning an ns_exit code;
 * main.c only dispatches.
 */
#ifndef NPUSCOPE_CLI_H
#define NPUSCOPE_CLI_H

#include "cli/options.h"
#include "npu/npu.h"
#include "parse/scan.h"

typedef struct {
    int argc;        /* arguments of the subcommand (argv[0] is its name) */
    char **argv;     /* the arguments */
    int i;           /* next argument to look at */
    const char *cmd; /* subcommand name, for messages */
    int only_inputs; /* a "--" was seen: the rest are inputs */
} ns_args;

void ns_args_init(ns_args *a, int argc, char **argv);
/* If argv[i] is the option `name` (e.g. "--depth" or "-n"), store its value
 * ("--depth 3" or "--depth=3") and return 1; print an error and return -1 if
 * the value is missing; return 0 if it is another argument. */
int ns_args_value(ns_args *a, const char *name, const char **val);
/* If argv[i] is the flag `name`, consume it and return 1. */
int ns_args_flag(ns_args *a, const char *name);
/* Parse numbers for options; print "npuscope CMD: --opt: ..." on error. */
int ns_args_int(ns_args *a, const char *opt, const char *s, long lo, long hi, long *out);
int ns_args_double(ns_args *a, const char *opt, const char *s, double lo, double *out);
int ns_args_usage(ns_args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Options every reading subcommand takes. */
typedef struct {
    const char *label_regex; /* --label-regex */
    int quiet;               /* -q: no warnings */
    int npu;                 /* --npu: attach the NPU compiler's facts */
    const char *npuw;        /* --npuw[=LAYOUT]: NPUW sub-model labels */
} ns_read_opts;

/* The read options as option-table entries (cli/options.h), for a
 * command's table: --label-regex RE, --npu, --npuw[=LAYOUT], -q. */
#define NS_OPT_READ(ro)                                                                       \
    NS_OPT_STRING(0, "label-regex", &(ro)->label_regex, "RE"),                                \
    NS_OPT_FLAG(0, "npu", &(ro)->npu),                                                        \
    NS_OPT_CALL_EQ("npuw", "LAYOUT", ns_cli_opt_npuw, (ro), NS_NPUW_DEFAULT_LAYOUT),          \
    NS_OPT_QUIET(&(ro)->quiet)
struct ns_option;
/* --npuw's handler: checks the layout, stores it in the ns_read_opts ctx. */
int ns_cli_opt_npuw(const struct ns_option *opt, const char *arg, const char **why);

/* The arguments every subcommand accepts, tried after its own options:
 * "--" (what follows is inputs), --help/-h, -q/--quiet (sets *quiet), and
 * inputs (appended to `inputs`, which has room for argc); an unknown "-x"
 * is a usage error.  Returns NS_ARGS_TAKEN, NS_ARGS_HELP (help printed:
 * exit 0) or NS_ARGS_ERROR (message printed: exit 2). */
enum { NS_ARGS_TAKEN = 1, NS_ARGS_HELP = 2, NS_ARGS_ERROR = -1 };
int ns_args_rest(ns_args *a, int *quiet, char **inputs, int *ninputs);
/* The same for a subcommand that reads logs: --label-regex RE, --npu and
 * --npuw[=LAYOUT] too, and -q goes to ro->quiet. */
int ns_args_common(ns_args *a, ns_read_opts *ro, char **inputs, int *ninputs);
/* If argv[i] is --format, store the index of its value in `names` (a NULL
 * ended list: "text", "csv", ...) in *fmt and return 1; print an error that
 * lists the names and return -1 when the value is missing or not one of
 * them; return 0 for another argument. */
int ns_args_format(ns_args *a, const char *const *names, int *fmt);

/* Say that the inputs held no timing report: "FILE: no timing report found"
 * for one input ("<stdin>" for standard input), "no timing report found in
 * the N inputs" for more. */
void ns_cli_none_found(char **inputs, int ninputs);

/* Scan every input (stdin when there are none) into sink.  Returns the
 * number of reports found, or -1 if an input could not be read. */
long ns_cli_scan(char **inputs, int ninputs, const ns_read_opts *o, ns_sink sink,
                 void *ctx);

/* Colour on stdout?  Only on a terminal, never with NO_COLOR set. */
int ns_cli_color(int fd);

/* Print the help of a subcommand ("tree", "top", ... or NULL for general). */
void ns_help(const char *cmd);

#endif
