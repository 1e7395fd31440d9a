/* load_baseline.c -- the floor for loading run folders: every DIR/<id>/run.json
 * read into memory and parsed by jansson, then freed, nothing else.
 *
 *   load_baseline DIR...
 *
 * tests/bench/load.sh builds it (cc -O2, -ljansson) and times `npuscope
 * table` over the same folders against it: what npuscope adds on top of a
 * bare JSON load is the price of its checks, trees and statistics.  It
 * reads the files the way parse/run_read.c does (the whole file into a
 * buffer, json_loadb with no flags), so the ratio compares like with like.
 * Prints the number of files parsed and the bytes read; exits 1 when a
 * file does not parse.  Not part of npuscope.
 */
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ====== One file ====== */

/* Parse path; adds its size to *bytes.  0, or -1 when it is not JSON. */
static int load_one(const char *path, unsigned long long *bytes, char **buf, size_t *cap) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0; /* not a run folder */
    size_t len = 0, got;
    for (;;) {
        if (*cap - len < 8192) {
            *cap = *cap ? *cap * 2 : 65536;
            *buf = realloc(*buf, *cap);
            if (!*buf) exit(2);
        }
        got = fread(*buf + len, 1, *cap - len, f);
        if (!got) break;
        len += got;
    }
    fclose(f);
    *bytes += len;
    json_error_t err;
    json_t *root = json_loadb(*buf, len, 0, &err);
    if (!root) {
        fprintf(stderr, "load_baseline: %s:%d: %s\n", path, err.line, err.text);
        return -1;
    }
    json_decref(root);
    return 1;
}

/* ====== Folders ====== */

int main(int argc, char **argv) {
    unsigned long long bytes = 0;
    long files = 0;
    int bad = 0;
    char *buf = NULL, path[4096];
    size_t cap = 0;
    for (int a = 1; a < argc; a++) {
        DIR *d = opendir(argv[a]);
        if (!d) {
            perror(argv[a]);
            return 2;
        }
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            snprintf(path, sizeof path, "%s/%s/run.json", argv[a], e->d_name);
            int rc = load_one(path, &bytes, &buf, &cap);
            if (rc < 0) bad = 1;
            else files += rc;
        }
        closedir(d);
    }
    free(buf);
    printf("%ld files, %llu bytes\n", files, bytes);
    return bad;
}
