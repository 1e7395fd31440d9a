/* builtin.h -- the commands: one file each below src/builtin/ (a big one a
 * folder of its own, like builtin/report/), each an entry point
 * `int ns_cmd_NAME(int argc, char **argv)` that main.c finds by name.
 *
 * Adding a new command
 * --------------------
 *  1. Write src/builtin/NAME.c with `int ns_cmd_NAME(int argc, char **argv)`:
 *     argv[0] is the command's name.  Read the options through an option
 *     table (cli/options.h) and the inputs through cli/cli.h; call the
 *     analyse/ and render/ layers for the work; return an ns_exit code
 *     (base/exit.h).  Print errors here, not in the layers below: they
 *     return a failure reason (base/common.h, ns_failure_reason).
 *  2. Declare it below and add one line to the table in src/main.c.
 *  3. Add its help text to src/cli/help.c and its section to
 *     docs/npuscope.1; the tests check that every option of the table is
 *     in both.
 *  4. Add golden cases (tests/cases/NAME-*.args with a one-line .desc) and
 *     run `make test`.
 * A command may use every layer; nothing below src/builtin/ may use a
 * command (tools/layers.sh checks both).
 */
#ifndef NPUSCOPE_BUILTIN_H
#define NPUSCOPE_BUILTIN_H

#include "base/common.h"

int ns_cmd_tree(int argc, char **argv);
int ns_cmd_top(int argc, char **argv);
int ns_cmd_record(int argc, char **argv);
int ns_cmd_sweep(int argc, char **argv);
int ns_cmd_table(int argc, char **argv);
int ns_cmd_fit(int argc, char **argv);
int ns_cmd_diff(int argc, char **argv);
int ns_cmd_stages(int argc, char **argv);
int ns_cmd_advise(int argc, char **argv);
int ns_cmd_report(int argc, char **argv);
int ns_cmd_watch(int argc, char **argv);
int ns_cmd_predict(int argc, char **argv);
int ns_cmd_timeline(int argc, char **argv);

#endif
