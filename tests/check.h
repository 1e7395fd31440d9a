/* check.h -- what every unit test program shares: the counters, CHECK, and
 * the summary line.
 *
 * Each tests/unit*.c is a program of its own, linked with every module, so
 * this is header-only: the counters are static to the program that
 * includes it.  A program's own macros that check more than a condition
 * (unit_stats' NEAR prints both numbers, unit_sweep's FAILS the message)
 * count into the same `passed` and `failed`.
 *
 * The last line a program prints is "NAME: N passed, M failed";
 * tests/run.sh reads the two numbers from it and reports a program that
 * did not print it as one that did not finish.
 */
#ifndef NPUSCOPE_CHECK_H
#define NPUSCOPE_CHECK_H

#include <stdio.h>

static int passed, failed; /* checks that held, checks that did not */

/* Count cond; when it does not hold, print where it is and what it says. */
#define CHECK(cond)                                                          \
    do {                                                                     \
        if (cond) passed++;                                                  \
        else {                                                               \
            failed++;                                                        \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);           \
        }                                                                    \
    } while (0)

/* Print the summary line of the program `name`; returns its exit status
 * (1 when a check failed). */
static inline int check_summary(const char *name) {
    printf("%s: %d passed, %d failed\n", name, passed, failed);
    return failed ? 1 : 0;
}

#endif
