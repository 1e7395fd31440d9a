/* cli.h -- what the commands share below their option tables: the read
 * options every reading command takes (as table entries, NS_OPT_READ),
 * reading every input through the scanner, colour decisions, and the help
 * texts.  Options themselves are parsed by one parser (cli/options.h); the
 * commands live in src/builtin/ (builtin/builtin.h).
 */
#ifndef NPUSCOPE_CLI_H
#define NPUSCOPE_CLI_H

#include "cli/options.h"
#include "npu/npu.h"
#include "parse/scan.h"
#include "parse/split.h"

/* Options every reading subcommand takes. */
typedef struct {
    const char *label_regex; /* --label-regex */
    int quiet;               /* -q: no warnings */
    int npu;                 /* --npu: attach the NPU compiler's facts */
    int no_npu;              /* --no-npu: not unless --npu/--npuw asks (no
                              * recognising of NPU logs by their lines) */
    const char *npuw;        /* --npuw[=LAYOUT]: NPUW sub-model labels */
    int threads;             /* --threads N: threads a big regular file is
                              * scanned with (parse/split.h); 0 (not given):
                              * one -- two cost about 1.5x the CPU time (the
                              * reports cross cores to the sink), which a
                              * busy machine pays without the gain */
    int flat;                /* --flat: an MLIR tree whose indentation is gone
                              * (collapsed blanks) read flat, not refused */
    struct ns_load_s *load;  /* where the inputs' failed compiles and
                              * environment go (model/load.h), or NULL */
} ns_read_opts;

/* The read options as option-table entries (cli/options.h), for a
 * command's table: --label-regex RE, --npu, --no-npu, --npuw[=LAYOUT],
 * --threads N, --flat, -q. */
#define NS_OPT_READ(ro)                                                                       \
    NS_OPT_STRING(0, "label-regex", &(ro)->label_regex, "RE"),                                \
    NS_OPT_FLAG(0, "npu", &(ro)->npu),                                                        \
    NS_OPT_FLAG(0, "no-npu", &(ro)->no_npu),                                                  \
    NS_OPT_CALL_EQ("npuw", "LAYOUT", ns_cli_opt_npuw, (ro), NS_NPUW_DEFAULT_LAYOUT),          \
    NS_OPT_INT(0, "threads", &(ro)->threads, "N", 1, NS_SPLIT_THREADS_MAX),                  \
    NS_OPT_FLAG(0, "flat", &(ro)->flat),                                                      \
    NS_OPT_QUIET(&(ro)->quiet)
struct ns_option;
/* --npuw's handler: checks the layout, stores it in the ns_read_opts ctx. */
int ns_cli_opt_npuw(const struct ns_option *opt, const char *arg, const char **why);

/* Say that the inputs held no timing report: "FILE: no timing report found"
 * for one input ("<stdin>" for standard input), "no timing report found in
 * the N inputs" for more. */
void ns_cli_none_found(char **inputs, int ninputs);
/* A folder given as runs held none: when its sub-folders hold runs (a
 * folder of sweeps), name them into hint ("DIR holds folders of runs, not
 * runs: give them (DIR/a DIR/b)") and return 1; else 0 (cli/hint.c). */
int ns_cli_runs_hint(const char *dir, ns_buf *hint);

/* Scan every input (stdin when there are none) into sink.  Returns the
 * number of reports found, or -1 if an input could not be read.  NPU facts
 * are read with --npu or --npuw, and without them from every input that
 * shows itself an NPU log (ns_npu_log_line), unless --no-npu. */
long ns_cli_scan(char **inputs, int ninputs, const ns_read_opts *o, ns_sink sink,
                 void *ctx);

/* Colour on stdout?  Only on a terminal, never with NO_COLOR set. */
int ns_cli_color(int fd);

/* The width people-facing text on fd fits itself to (render/width.h):
 * $COLUMNS when it is a whole number from 1 to 100000 (so COLUMNS=60
 * works in a pipe, and a script can ask for any width), else the
 * terminal's own width when fd is a terminal (TIOCGWINSZ), else 0: no
 * limit, a pipe or a file gets every column. */
int ns_cli_width(int fd);

/* ====== The process ======
 * ns_cli_process_init runs first in main: it opens /dev/null onto any of
 * descriptors 0-2 that is closed (so nothing npuscope opens later, a lock
 * or a log, becomes standard error), and makes SIGHUP say what happened
 * before it ends the process (exit 129) -- unless SIGHUP was ignored
 * (nohup).  The long-running commands stop on SIGINT, SIGTERM and SIGHUP at
 * their next safe point: ns_cli_stop_signals installs their handler for
 * the three (no SA_RESTART, so a blocked read returns), ns_cli_signal_exit
 * is the exit status that says which one stopped them (130, 143, 129: as a
 * shell reports a process the signal killed), ns_cli_signal_says the words
 * for a message. */
void ns_cli_process_init(void);
int ns_cli_stop_signals(void (*handler)(int));
int ns_cli_signal_exit(int sig);
const char *ns_cli_signal_says(int sig);

/* Print the help of a subcommand ("tree", "top", ... or NULL for general). */
void ns_help(const char *cmd);

#endif
