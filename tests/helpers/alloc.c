/* alloc.c -- test helper: allocate and touch N MiB, hold them briefly, exit.
 * Gives record's peak-RSS measurement a known, repeatable target. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv) {
    size_t mb = argc > 1 ? (size_t)atol(argv[1]) : 100;
    char *p = malloc(mb << 20);
    if (!p) return 1;
    memset(p, 1, mb << 20);
    /* use the memory, so no compiler may drop the allocation */
    volatile char sink = 0;
    for (size_t i = 0; i < (mb << 20); i += 4096) sink ^= p[i];
    (void)sink;
    struct timespec ts = {0, 200000000};
    nanosleep(&ts, NULL);
    free(p);
    return 0;
}
