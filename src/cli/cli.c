/* cli.c -- argument matching and input reading shared by the subcommands.
 *
 * The commands' one way to read logs: ns_cli_scan builds the scanner from
 * ns_read_opts -- the printing diagnostics sink (ns_diag_stderr), the
 * --label-regex, and for --npu / --npuw the NPU layer's scanner hook --
 * and reads run folders through their reports.  The layers below only
 * offer the pieces (a scanner that knows no NPU compiler, a hook that
 * knows no options); this file is where they are put together for the
 * commands, and so decides, for them, that a reader's messages are printed.
 */
#include "cli/cli.h"

#include "analyse/dataset.h"
#include "npu/hook.h"
#include "npu/npu.h"
#include "cli/options.h"
#include "parse/run_read.h"
#include "base/exit.h"
#include "platform/plat.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ns_cli_opt_npuw(const ns_option *opt, const char *arg, const char **why) {
    char tmp[64];
    /* a k past every layout walks all of it: -2 if any part is malformed */
    if (ns_npuw_label(arg, 1 << 30, tmp, sizeof tmp) == -2) {
        *why = "a layout is STAGE:COUNT[,STAGE:COUNT...], e.g. " NS_NPUW_DEFAULT_LAYOUT;
        return -1;
    }
    ((ns_read_opts *)opt->ctx)->npuw = arg;
    return 0;
}

/* A run folder or a folder of runs: the reports kept in run.json, labelled
 * "<run-id>/<label>", in run order.  From a folder of runs only the
 * counted ones (ns_run_counted: not warmups, cache primers or failed runs),
 * as every analysis reads them; a run folder named itself is read whatever
 * it is. */
static int ns__scan_runs(ns_scanner *sc, const char *dir, ns_load *load, ns_sink sink,
                         void *ctx) {
    ns_run *runs = NULL;
    int nruns = 0;
    if (ns_runs_read(dir, &runs, &nruns) < 0) return -1;
    ns_buf own = {0};
    ns_buf_printf(&own, "%s/run.json", dir);
    int one = access(own.data, F_OK) == 0;
    ns_buf_free(&own);
    int left_out = 0;
    for (int i = 0; i < nruns; i++) {
        ns_run *r = &runs[i];
        if (!one && !ns_run_counted(r)) {
            left_out++;
            ns_run_free(r);
            continue;
        }
        if (load) { /* what the run's output said of failures and environment */
            if (r->failure) ns_failure_copy(ns_load_add_failure(load, NULL, 0), r->failure);
            load->open = load->nfail;
            for (int e = 0; e < r->environment.n; e++)
                ns_load_env_set(load, r->environment.items[e].key, r->environment.items[e].value);
        }
        for (int k = 0; k < r->nreports && !sc->stopped; k++) {
            ns_report *rep = r->reports[k];
            r->reports[k] = NULL;
            size_t n = strlen(r->id) + strlen(rep->label) + 2;
            char *label = ns_xmalloc(n);
            snprintf(label, n, "%s/%s", r->id, rep->label);
            free(rep->label);
            rep->label = label;
            rep->index = sc->next_index++;
            if (sink(rep, ctx) != 0) sc->stopped = 1;
        }
        ns_run_free(r);
    }
    free(runs);
    if (left_out)
        ns_note_at(dir, "%d run%s left out: warmups, cache primers and failed runs (name a run "
                        "folder to read one)",
                   left_out, left_out == 1 ? "" : "s");
    return 0;
}

/* Is the input an NPU log?  1 when its head holds a line of the NPU stack,
 * 0 when it does not, -1 when it cannot be looked at before it is read
 * (standard input, a pipe): then the hook watches its lines.  The head is
 * the first NS__SNIFF bytes: an NPU log's plugin and compiler lines come
 * before its first report. */
#define NS__SNIFF (256u << 10)
static int ns__npu_sniff(const char *path) {
    if (!strcmp(path, "-")) return -1;
    struct stat st;
    if (stat(path, &st) != 0) return 0; /* the scanner says why */
    if (!S_ISREG(st.st_mode)) return -1;
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    char *buf = ns_xmalloc(NS__SNIFF);
    size_t n = fread(buf, 1, NS__SNIFF, f);
    fclose(f);
    int yes = ns_npu_log_sniff(buf, n);
    free(buf);
    return yes;
}

void ns_cli_none_found(char **inputs, int ninputs) {
    if (ninputs > 1) {
        ns_error("no timing report found in the %d inputs", ninputs);
        return;
    }
    const char *in = ninputs == 1 && strcmp(inputs[0], "-") != 0 ? inputs[0] : "<stdin>";
    ns_error_at(in, 0, "no timing report found");
}

long ns_cli_scan(char **inputs, int ninputs, const ns_read_opts *o, ns_sink sink,
                 void *ctx) {
    ns_scanner sc;
    ns_scanner_init(&sc);
    sc.diag = ns_diag_stderr; /* what the scanner says, printed */
    ns_diag_quiet(o->quiet);
    if (o->label_regex && ns_scanner_set_label_regex(&sc, o->label_regex) != 0) {
        ns_scanner_free(&sc);
        return -1;
    }
    /* --npu and --npuw: the NPU layer's hook feeds on the lines between
     * reports (--npuw implies --npu); without them, on the inputs that
     * show themselves NPU logs, unless --no-npu */
    ns_npu_hook npu;
    int asked = o->npu || o->npuw, detect = !asked && !o->no_npu;
    if (asked || detect) ns_npu_hook_init(&npu, o->npuw, &sc.diag);
    if (asked || detect) npu.load = o->load;
    /* a big regular file: read by several threads (parse/split.h);
     * NPUSCOPE_SPLIT_CHUNK (bytes) splits any file, for the tests */
    sc.threads = o->threads ? o->threads : 1; /* one unless asked: see the option */
    sc.flat = o->flat;
    const char *chunk = getenv("NPUSCOPE_SPLIT_CHUNK");
    if (chunk && *chunk) {
        char *end;
        unsigned long long v = strtoull(chunk, &end, 10);
        if (!*end && v > 0) sc.split_chunk = v;
    }
    static char *dash[] = {"-"};
    if (ninputs == 0) {
        inputs = dash;
        ninputs = 1;
    }
    /* A file read through a mapping (parse/scan.c, "Mapped files") that
     * shrinks meanwhile faults where its lost pages were: say which and
     * exit as for an unreadable input, never a crash (platform/plat.h). */
    ns_plat_catch_shrink(ns_scan_mapped_name, NS_EXIT_IO);
    int failed = 0;
    for (int i = 0; i < ninputs && !sc.stopped; i++) {
        struct stat st;
        if (strcmp(inputs[i], "-") != 0 && stat(inputs[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            if (ns__scan_runs(&sc, inputs[i], o->load, sink, ctx) < 0) failed = 1;
            continue;
        }
        /* a person at a terminal who gave no input waits for nothing: say
         * what is read (a pipe or a file says nothing) */
        if (!strcmp(inputs[i], "-") && isatty(STDIN_FILENO))
            fprintf(stderr, "npuscope: reading a log from standard input (a terminal): paste it "
                            "and end with Ctrl-D, or give a file (npuscope --help)\n");
        sc.hook = asked ? &npu.ops : NULL;
        if (detect) {
            int kind = ns__npu_sniff(inputs[i]);
            npu.detect = kind < 0; /* cannot look first: watch its lines */
            if (kind) sc.hook = &npu.ops;
        }
        if (ns_scan_input(&sc, inputs[i], sink, ctx) < 0) failed = 1;
    }
    long found = sc.next_index;
    if (asked || detect) ns_npu_hook_free(&npu);
    sc.hook = NULL;
    ns_scanner_free(&sc);
    ns_diag_summary();
    ns_plat_release_shrink();
    return failed ? -1 : found;
}

int ns_cli_color(int fd) {
    const char *nc = getenv("NO_COLOR");
    if (nc && *nc) return 0;
    return ns_plat_isatty(fd);
}

int ns_cli_width(int fd) {
    const char *c = getenv("COLUMNS");
    if (c && *c) {
        char *end;
        errno = 0;
        long v = strtol(c, &end, 10);
        if (!*end && !errno && v >= 1 && v <= 100000) return (int)v;
    }
    return ns_plat_isatty(fd) ? ns_plat_term_width(fd) : 0;
}

/* ====== The process: standard descriptors and signals ======
 * What every command needs before it opens anything: descriptors 0, 1 and
 * 2 open (a closed one would be taken by the next open(), so that a lock
 * file or a log became "standard error" and collected progress text), and
 * a word when the terminal goes away.  The long-running commands (record,
 * sweep, watch, report) install handlers of their own that stop them at
 * the next safe point; these are the defaults under them. */

void ns_cli_process_init(void) {
    ns_plat_std_fds_open();
    ns_plat_on_hangup_say();
}

int ns_cli_signal_exit(int sig) {
    switch (sig) {
    case SIGHUP: return NS_EXIT_HANGUP;
    case SIGTERM: return NS_EXIT_TERMINATED;
    default: return NS_EXIT_INTERRUPTED;
    }
}

const char *ns_cli_signal_says(int sig) {
    switch (sig) {
    case SIGHUP: return "hangup (SIGHUP): the terminal or session went away";
    case SIGTERM: return "stopped by SIGTERM";
    default: return "interrupted (SIGINT)";
    }
}

int ns_cli_stop_signals(void (*handler)(int)) {
    ns_plat_on_stop(handler);
    return 0;
}
