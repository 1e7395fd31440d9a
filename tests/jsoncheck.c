/* jsoncheck.c -- is every document strict JSON?  (tests only)
 *
 * npuscope writes JSON with its own escaping (src/jsonw.c), and report
 * names are whatever a compiler printed: invalid UTF-8, control bytes,
 * quotes, NUL.  jq is a convenient checker but a lenient one (it takes
 * `nan` and, depending on its version, invalid UTF-8), so the tests also
 * hand every JSON export to jansson, which refuses what RFC 8259 refuses:
 * NaN and Infinity, invalid UTF-8, raw control characters in strings,
 * "\u0000", duplicate keys in an object (JSON_REJECT_DUPLICATES), trailing
 * garbage.  Each argument is a file, or "-" for standard input; the whole
 * input must be exactly one document.
 *
 * Exit: 0 all valid, 1 one or more invalid (each said as
 * "jsoncheck: FILE:LINE:COLUMN: reason"), 2 usage or unreadable file.
 * jansson refuses documents nested deeper than 2048 levels; the tests check
 * their 10,000-deep tree by other means.
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

static int check_one(const char *path) {
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        perror(path);
        return 2;
    }
    json_error_t err;
    json_t *doc = json_loadf(f, JSON_REJECT_DUPLICATES, &err);
    if (f != stdin) fclose(f);
    if (!doc) {
        fprintf(stderr, "jsoncheck: %s:%d:%d: %s\n", path, err.line, err.column, err.text);
        return 1;
    }
    json_decref(doc);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs("usage: jsoncheck FILE|- ...\n", stderr);
        return 2;
    }
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        int r = check_one(argv[i]);
        if (r > rc) rc = r;
    }
    return rc;
}
