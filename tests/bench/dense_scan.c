/* dense_scan.c -- the floor for `top` on a report-dense log: a hand-written,
 * single-pass scanner of MLIR text timing reports (bench.sh's dense bench).
 *
 * It does what a person would write for one format and one job: read the
 * file in big chunks, look at each line once, and inside a report parse the
 * numbers in the same pass and hash each row name once into an open
 * addressing table of wall-time sums.  Rows of a pipeline that has rows
 * below it are not summed (top sums passes, not their containers), nor
 * "Rest" and "Total".  No prefixes, colours, CRs, other formats, exact
 * digits or warnings: it is a baseline of speed, not a second npuscope.
 * It prints the reports, the distinct names, and the five heaviest rows
 * ("%.4f name"), so that bench.sh can check that both read the same log.
 *
 * Usage: dense_scan FILE */
/* memmem() is GNU and BSD: the header lines are searched with it */
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK (256u << 10)
#define SLOTS (1u << 16) /* power of two; far more than the distinct names */

typedef struct { char *name; size_t len; double wall; } slot_t; /* name, its bytes, summed wall */
static slot_t tab[SLOTS];
static long nreports, nnames;

static slot_t *intern(const char *s, size_t n) {
    unsigned h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    for (unsigned i = h & (SLOTS - 1);; i = (i + 1) & (SLOTS - 1)) {
        if (!tab[i].name) {
            tab[i].name = memcpy(malloc(n + 1), s, n);
            tab[i].name[n] = 0;
            tab[i].len = n;
            nnames++;
            return &tab[i];
        }
        if (tab[i].len == n && !memcmp(tab[i].name, s, n)) return &tab[i];
    }
}

/* "  0.0379 ( 13.6%)": the number, p moved past the group; -1e300 if none */
static double group(const char **pp, const char *e) {
    const char *p = *pp;
    while (p < e && *p == ' ') p++;
    int neg = p < e && *p == '-';
    p += neg;
    if (p == e || *p < '0' || *p > '9') return -1e300;
    double v = 0, scale = 1;
    for (; p < e && *p >= '0' && *p <= '9'; p++) v = v * 10 + (*p - '0');
    if (p < e && *p == '.')
        for (p++; p < e && *p >= '0' && *p <= '9'; p++) v += (*p - '0') * (scale *= 0.1);
    while (p < e && *p != ')') p++;
    *pp = p + 1;
    return neg ? -v : v;
}

int main(int argc, char **argv) {
    int fd = argc > 1 ? open(argv[1], O_RDONLY) : -1;
    if (fd < 0) return perror(argc > 1 ? argv[1] : "usage: dense_scan FILE"), 2;
    char *buf = malloc(CHUNK * 2);
    size_t have = 0;
    int state = 0, cols = 0, wcol = 0, pdepth = -1, ppipe = 0; /* 0 idle, 1 header, 2 rows */
    slot_t *prev = NULL;
    double pwall = 0;
    for (;;) {
        ssize_t got = read(fd, buf + have, CHUNK);
        if (got <= 0) break;
        have += (size_t)got;
        const char *p = buf, *end = buf + have, *nl;
        for (; (nl = memchr(p, '\n', (size_t)(end - p))); p = nl + 1) {
            if (state == 0) {
                if (nl - p >= 4 && !memcmp(p, "===-", 4)) state = 1, cols = 0;
            } else if (state == 1) {
                const char *t = memmem(p, (size_t)(nl - p), "----Name----", 12);
                if (!t) continue;
                for (const char *q = p; (q = memmem(q, (size_t)(t - q), "Time----", 8)); q += 8, cols++)
                    if (q - p >= 4 && !memcmp(q - 5, "Wall ", 5)) wcol = cols;
                state = 2, prev = NULL, pdepth = -1;
            } else {
                const char *q = p;
                double wall = 0;
                for (int c = 0; c < cols; c++) {
                    double v = group(&q, nl);
                    if (c == wcol) wall = v;
                }
                if (wall == -1e300 || nl - q < 3) continue; /* not a row */
                q += 2;
                const char *name = q;
                while (name < nl && *name == ' ') name++;
                int depth = (int)(name - q) / 2;
                size_t n = (size_t)(nl - name);
                /* the previous row is summed unless it is a pipeline with rows below */
                if (prev && !(ppipe && depth > pdepth)) prev->wall += pwall;
                prev = NULL;
                if (depth == 0 && n == 5 && !memcmp(name, "Total", 5)) {
                    nreports++, state = 0;
                    continue;
                }
                if (n == 4 && !memcmp(name, "Rest", 4)) continue;
                prev = intern(name, n), pwall = wall, pdepth = depth;
                ppipe = (n >= 9 && !memcmp(name + n - 9, " Pipeline", 9)) ||
                        (n >= 19 && !memcmp(name, "Pipeline Collection", 19));
            }
        }
        have = (size_t)(end - p);
        memmove(buf, p, have);
    }
    close(fd);
    printf("reports=%ld names=%ld\n", nreports, nnames);
    for (int k = 0; k < 5; k++) { /* the five heaviest, ties by name */
        slot_t *best = NULL;
        for (unsigned i = 0; i < SLOTS; i++)
            if (tab[i].name && tab[i].len && (!best || tab[i].wall > best->wall ||
                                              (tab[i].wall == best->wall && strcmp(tab[i].name, best->name) < 0)))
                best = &tab[i];
        if (!best) break;
        printf("%.4f %s\n", best->wall, best->name);
        best->len = 0; /* taken */
    }
    return 0;
}
