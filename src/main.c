/* main.c -- the command line, and nothing else: find the command and hand
 * it the arguments.  Everything a command does lives in src/builtin/
 * (builtin/builtin.h says how to add one). */
#include "builtin/builtin.h"
#include "cli/cli.h"
#include "platform/plat.h"

#include "base/suggest.h"

#include <string.h>

typedef struct {
    const char *name;             /* subcommand */
    int (*run)(int, char **);     /* its entry point */
} ns__command;

static const ns__command ns__commands[] = {
    {"tree", ns_cmd_tree},
    {"top", ns_cmd_top},
    {"record", ns_cmd_record},
    {"sweep", ns_cmd_sweep},
    {"table", ns_cmd_table},
    {"fit", ns_cmd_fit},
    {"diff", ns_cmd_diff},
    {"stages", ns_cmd_stages},
    {"advise", ns_cmd_advise},
    {"report", ns_cmd_report},
    {"watch", ns_cmd_watch},
    {"predict", ns_cmd_predict},
    {"timeline", ns_cmd_timeline},
};

int main(int argc, char **argv) {
    ns_plat_init(&argc, &argv); /* Windows: argv in UTF-8, binary streams */
    ns_cli_process_init(); /* fds 0-2 open, SIGHUP said (cli/cli.h) */
    if (argc < 2) {
        ns_help(NULL);
        return NS_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        ns_help(argc > 2 ? argv[2] : NULL);
        return NS_EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        puts("npuscope " NS_VERSION);
        return NS_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof ns__commands / sizeof ns__commands[0]; i++)
        if (strcmp(cmd, ns__commands[i].name) == 0)
            return ns__commands[i].run(argc - 1, argv + 1);
    const char *names[sizeof ns__commands / sizeof ns__commands[0]];
    for (size_t i = 0; i < sizeof ns__commands / sizeof ns__commands[0]; i++)
        names[i] = ns__commands[i].name;
    const char *near = ns_suggest(cmd, names, sizeof names / sizeof names[0]);
    if (near)
        fprintf(stderr, "npuscope: unknown command '%s'; did you mean '%s'? (see 'npuscope --help')\n",
                cmd, near);
    else
        fprintf(stderr, "npuscope: unknown command '%s' (see 'npuscope --help')\n", cmd);
    return NS_EXIT_USAGE;
}
