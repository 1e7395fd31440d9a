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

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The fixtures a reader is held to over all of tests/fixtures: call with
 * the folder opened by check_fixtures_open; each call gives the path of the
 * next .txt, .log or .json file in path[cap] and returns 1, or closes the
 * folder and returns 0.  check_fixtures_open counts a folder it cannot open
 * as a failed check (a loop over no fixtures would prove nothing). */
static inline DIR *check_fixtures_open(void) {
    DIR *d = opendir("tests/fixtures");
    CHECK(d != NULL);
    if (!d) printf("  cannot read tests/fixtures (run from the repository's top folder)\n");
    return d;
}
static inline int check_fixtures_next(DIR *d, char *path, size_t cap) {
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t k = strlen(e->d_name);
        if (k < 5 || !(strcmp(e->d_name + k - 4, ".txt") == 0 ||
                       strcmp(e->d_name + k - 4, ".log") == 0 ||
                       strcmp(e->d_name + k - 5, ".json") == 0))
            continue;
        snprintf(path, cap, "tests/fixtures/%s", e->d_name);
        return 1;
    }
    if (d) closedir(d);
    return 0;
}

/* Print the summary line of the program `name`; returns its exit status
 * (1 when a check failed). */
static inline int check_summary(const char *name) {
    printf("%s: %d passed, %d failed\n", name, passed, failed);
    return failed ? 1 : 0;
}

#endif
