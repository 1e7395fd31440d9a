/* timeline.c -- `npuscope timeline`: the whole load in time, from the
 * NPU stack's timestamps (analyse/timeline.h says what the phases are,
 * cli/timeline.c how a log or a run is read into them).  An input is a log
 * or a run folder (or a folder of runs: a timeline per run).
 */
#include "builtin/builtin.h"
#include "analyse/dataset.h"
#include "base/path.h"
#include "cli/timeline.h"
#include "render/timeline.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ====== The command ====== */

int ns_cmd_timeline(int argc, char **argv) {
    ns_read_opts ro = {0};
    int format = 0;
    static const char *const formats[] = {"text", "json", "chrome", NULL};
    const ns_option own[] = {
        NS_OPT_CHOICE(0, "format", &format, "F", formats),
        NS_OPT_READ(&ro),
        NS_OPT_END(),
    };
    const ns_option *const tables[] = {own, NULL};
    char **inputs = ns_xcalloc((size_t)argc + 1, sizeof *inputs);
    int ninputs = 0, rc = NS_EXIT_OK;
    switch (ns_options_parse("timeline", argc, argv, tables, inputs, &ninputs)) {
    case NS_OPTIONS_HELP: goto out;
    case NS_OPTIONS_ERROR: rc = NS_EXIT_USAGE; goto out;
    }
    if (ninputs == 0) {
        rc = ns_options_usage("timeline", "give a log or a run folder (standard input is read "
                                          "twice, so it cannot be one)");
        goto out;
    }
    ns_diag_quiet(ro.quiet);
    ns_timeline *tl = NULL;
    int ntl = 0, timed = 0, failed = 0;
    for (int i = 0; i < ninputs; i++) {
        struct stat st;
        if (stat(inputs[i], &st) != 0) {
            ns_error_at(inputs[i], 0, "cannot be read");
            failed = 1;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            tl = ns_xrealloc(tl, sizeof *tl * (size_t)(ntl + 1));
            if (ns_timeline_of_log(inputs[i], &ro, &tl[ntl]) != 0) {
                failed = 1;
                continue;
            }
            ns_timeline_say(&tl[ntl], ro.quiet);
            timed += tl[ntl++].timed;
            continue;
        }
        ns_run *runs = NULL;
        int nruns = 0;
        if (ns_runs_read(inputs[i], &runs, &nruns) < 0) {
            failed = 1;
            continue;
        }
        ns_buf own_json = {0};
        ns_buf_printf(&own_json, "%s/run.json", inputs[i]);
        int one = access(own_json.data, F_OK) == 0;
        ns_buf_free(&own_json);
        for (int k = 0; k < nruns; k++) {
            char *dir = one ? ns_strdup(inputs[i]) : ns_path_join_new(inputs[i], runs[k].id);
            tl = ns_xrealloc(tl, sizeof *tl * (size_t)(ntl + 1));
            if (ns_timeline_of_run(dir, &runs[k], &ro, &tl[ntl]) == 0) {
                ns_timeline_say(&tl[ntl], ro.quiet);
                timed += tl[ntl++].timed;
            } else {
                failed = 1;
            }
            free(dir);
            ns_run_free(&runs[k]);
        }
        free(runs);
    }
    ns_buf b = {0};
    ns_timeline_render(&b, tl, ntl, format == 0 ? NS_TL_TEXT : format == 1 ? NS_TL_JSON
                                                                          : NS_TL_CHROME);
    if (ns_buf_flush(&b, stdout) || fflush(stdout)) {
        ns_error("error writing the output");
        rc = NS_EXIT_USAGE;
    }
    ns_buf_free(&b);
    for (int i = 0; i < ntl; i++) ns_timeline_free(&tl[i]);
    free(tl);
    ns_diag_summary();
    if (rc == NS_EXIT_OK) rc = failed ? NS_EXIT_USAGE : timed ? NS_EXIT_OK : NS_EXIT_NOTHING;
out:
    free(inputs);
    return rc;
}
