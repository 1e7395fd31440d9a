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
#include <stdlib.h>

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

/* The whole file at path, NUL-terminated, its length in *len (len may be
 * NULL); NULL when it cannot be read.  The caller frees it.  (The unit
 * programs read fixtures with it: tests/fixtures, from the top folder.) */
static inline char *check_slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 65536, n = 0, got;
    char *data = malloc(cap + 1);
    while (data && (got = fread(data + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *bigger = realloc(data, (cap *= 2) + 1);
            if (!bigger) free(data);
            data = bigger;
        }
    }
    fclose(f);
    if (!data) return NULL;
    data[n] = 0;
    if (len) *len = n;
    return data;
}

/* Print the summary line of the program `name`; returns its exit status
 * (1 when a check failed). */
static inline int check_summary(const char *name) {
    printf("%s: %d passed, %d failed\n", name, passed, failed);
    return failed ? 1 : 0;
}

#endif
