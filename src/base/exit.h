/* exit.h -- npuscope's exit codes: one name per meaning, in one table.
 *
 * The process exit status is a contract (DESIGN.md, docs/npuscope.1): 0 ok,
 * 1 nothing usable or a check that failed, 2 usage or I/O error, 128 + the
 * signal when stopped by one (129 SIGHUP, 130 SIGINT, 143 SIGTERM), as a
 * shell reports a process killed by it.  Several meanings share a status -- a shell script sees "1"
 * whether no report was found or the diff gate tripped -- but the code
 * names the meaning it has in mind (NS_EXIT_GATE, not NS_EXIT_NOTHING), so
 * a reader knows why a command returns what it returns, and a status can be
 * split later without hunting for every "1".
 *
 * NS_EXIT_TABLE is the only list: the enum below, the general --help text
 * (cli/help.c prints it) and the test that holds the man page's EXIT STATUS
 * section against it (tests/cases help-exit) all come from it.  Add a
 * meaning here, never a bare number or a private #define in a command.
 */
#ifndef NPUSCOPE_EXIT_H
#define NPUSCOPE_EXIT_H

/*     name                 status  what it means (the --help line) */
#define NS_EXIT_TABLE(X)                                                                      \
    X(NS_EXIT_OK,           0,   "success")                                                   \
    X(NS_EXIT_NOTHING,      1,   "no timing report or run found (or a requested one is "      \
                                 "missing)")                                                  \
    X(NS_EXIT_RUN_FAILED,   1,   "record/sweep: a recorded run failed, timed out or was "     \
                                 "killed (it is kept)")                                       \
    X(NS_EXIT_GATE,         1,   "a gate tripped: diff --fail-if-slower found a slowdown")    \
    X(NS_EXIT_USAGE,        2,   "usage error: unknown option, bad value")                    \
    X(NS_EXIT_IO,           2,   "unreadable input or unwritable output")                     \
    X(NS_EXIT_BUSY,         2,   "record/sweep: the output folder is in use by another "      \
                                 "npuscope")                                                  \
    X(NS_EXIT_NOMEM,        2,   "out of memory")                                             \
    X(NS_EXIT_HANGUP,       129, "stopped by SIGHUP (the terminal went away); finished work " \
                                 "is kept, as for 130")                                       \
    X(NS_EXIT_INTERRUPTED,  130, "interrupted (SIGINT, Ctrl-C): record/sweep keep finished "  \
                                 "runs, watch prints the tree of what it read")               \
    X(NS_EXIT_TERMINATED,   143, "stopped by SIGTERM; finished work is kept, as for 130")

typedef enum {
#define NS__EXIT_ENUM(name, status, what) name = status,
    NS_EXIT_TABLE(NS__EXIT_ENUM)
#undef NS__EXIT_ENUM
} ns_exit;

#endif
