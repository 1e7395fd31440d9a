/* help.c -- the help texts, in one place so they stay consistent with the
 * man page (docs/npuscope.1).  Exit codes are listed here and nowhere else
 * in the code. */
#include "cli.h"

#include <string.h>

static const char ns__general[] =
    "npuscope " NS_VERSION " -- where does compile time go, and what to change\n"
    "\n"
    "usage: npuscope COMMAND [OPTIONS] [INPUT...]\n"
    "\n"
    "commands:\n"
    "  tree     show each timing report as a tree, or export it\n"
    "           (json, csv, folded, chrome, speedscope, original)\n"
    "  top      the heaviest passes, summed across all reports of the input\n"
    "\n"
    "INPUT is a log file (any text holding MLIR --mlir-timing reports, LLVM\n"
    "-time-passes / -ftime-report tables, MLIR JSON timing output) or a Chrome\n"
    "trace JSON (clang -ftime-trace); '-' or no INPUT reads standard input.\n"
    "\n"
    "exit codes:\n"
    "  0  success\n"
    "  1  no timing report found in the input (or a requested one is missing)\n"
    "  2  usage error, unreadable input or unwritable output\n"
    "\n"
    "Messages go to standard error as 'npuscope: FILE:LINE: message'.\n"
    "'npuscope COMMAND --help' describes a command; see also npuscope(1).\n";

static const char ns__tree[] =
    "usage: npuscope tree [OPTIONS] [FILE... | -]\n"
    "\n"
    "Print every timing report found in the input as a tree: wall time as the\n"
    "compiler printed it, share of the report's total with a bar, user time\n"
    "when the report has it, and the row name indented by depth.\n"
    "\n"
    "options:\n"
    "  --format F         text (default), json, csv, folded, chrome, speedscope,\n"
    "                     original (each report re-printed in its own layout)\n"
    "  --depth N          show rows down to depth N (0 = top-level rows only)\n"
    "  --min-ms X         elide rows below X milliseconds; text output says how\n"
    "                     many were elided and their summed time\n"
    "  --report N         only the N-th report of the input (1-based)\n"
    "  --time wall|user   time used for shares, elision and exports (default wall)\n"
    "  --label-regex RE   label each report from the nearest preceding line that\n"
    "                     matches the POSIX extended regex RE (its first capture\n"
    "                     group if it has one); default labels are #1, #2, ...\n"
    "  --color WHEN       always, never or auto (default: auto = on a terminal\n"
    "                     and NO_COLOR unset)\n"
    "  -q, --quiet        no warnings\n";

static const char ns__top[] =
    "usage: npuscope top [OPTIONS] [INPUT...]\n"
    "\n"
    "Sum every row by name across all reports of the input (an NPUW LLM compile\n"
    "prints one report per sub-model) and rank them by total wall time.\n"
    "Columns: wall time, share of the summed report totals, occurrences, user\n"
    "time, self time (the row minus its children).  Containers (scopes and\n"
    "pipelines with children) are left out unless --all; Rest and Total never\n"
    "appear.\n"
    "\n"
    "options:\n"
    "  -n N               show the N heaviest (default 20; 0 = all)\n"
    "  --format F         text (default), json or csv\n"
    "  --by pass          group by pass name (the default; stage maps come later)\n"
    "  --all              include container rows\n"
    "  --label-regex RE   as for tree\n"
    "  -q, --quiet        no warnings\n";

void ns_help(const char *cmd) {
    const char *text = ns__general;
    if (cmd && strcmp(cmd, "tree") == 0) text = ns__tree;
    else if (cmd && strcmp(cmd, "top") == 0) text = ns__top;
    fputs(text, stdout);
}
