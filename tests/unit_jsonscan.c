/* unit_jsonscan.c -- unit tests of the JSON span scanner (base/jsonscan.h)
 * and of the run.json reader that parses "reports" one element at a time
 * with it (parse/run_read.c).
 *
 * The reader must say of every document exactly what parsing it whole
 * said: the same failure reason and line, the same warnings, the same
 * reports.  The reference is the same document with a first member whose
 * key has an escape ("\u0078"): the scanner refuses such a document, so it
 * is parsed whole, and the member is one no reader looks at.
 *
 * Prints one line per failure and ends with "unit_jsonscan: N passed, N
 * failed". */
#include "check.h"

#include "base/jsonscan.h"
#include "parse/run_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ====== The scanner ====== */

static void test_scanner(void) {
    const char *why = NULL;
    ns_jspan v, *el = NULL;
    const char *doc = " {\"a\": \"x}\\\"]\", \"reports\" : [ {\"b\":[1,{\"c\":\"]\"}]} , 2,\"s\\\\\",null ] ,\"z\":{}}";
    CHECK(ns_jscan_member(doc, strlen(doc), "reports", &v, &why) == 1);
    CHECK(doc[v.off] == '[' && doc[v.off + v.len - 1] == ']');
    long n = ns_jscan_elements(doc, v, &el, &why);
    CHECK(n == 4);
    if (n == 4) {
        CHECK(el[0].len == 19 && !strncmp(doc + el[0].off, "{\"b\":[1,{\"c\":\"]\"}]}", 19));
        CHECK(el[1].len == 1 && doc[el[1].off] == '2');
        CHECK(el[2].len == 5 && !strncmp(doc + el[2].off, "\"s\\\\\"", 5));
        CHECK(el[3].len == 4 && !strncmp(doc + el[3].off, "null", 4));
    }
    free(el);
    CHECK(ns_jscan_member(doc, strlen(doc), "nope", &v, &why) == 0);
    static const char *const refused[][2] = {
        {"[1]", "not an object"},
        {"{\"reports\":[1],\"reports\":[2]}", "the key twice"},
        {"{\"rep\\u006frts\":[1]}", "a key with escapes"},
        {"{\"reports\":[1,{\"a\":2}", "brackets not closed"},
        {"{\"reports\" [1]}", "':' expected"},
        {"{\"reports\":[1] \"x\":2}", "',' or '}' expected"},
        {"{\"x\":\"abc", "a string not closed"},
        {"{\"reports\":}", "a value expected"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        why = NULL;
        int rc = ns_jscan_member(refused[i][0], strlen(refused[i][0]), "reports", &v, &why);
        CHECK(rc == -1 && why && !strcmp(why, refused[i][1]));
        if (rc != -1 || !why || strcmp(why, refused[i][1]))
            printf("  %s: %d, %s\n", refused[i][0], rc, why ? why : "(no reason)");
    }
    static const char *const bad_arrays[] = {"[1,]", "[,1]", "[1 2]", "[1,,2]", "{}"};
    for (size_t i = 0; i < sizeof bad_arrays / sizeof *bad_arrays; i++) {
        ns_jspan a = {0, strlen(bad_arrays[i])};
        CHECK(ns_jscan_elements(bad_arrays[i], a, &el, &why) == -1 && el == NULL);
    }
    ns_jspan empty = {0, 4};
    CHECK(ns_jscan_elements("[ \n]", empty, &el, &why) == 0 && el == NULL);
}

/* ====== One element at a time, as if whole ====== */

typedef struct {
    char text[8192]; /* every message, "LINE: message\n" */
    size_t len;      /* its bytes */
} said;

static void collect(void *ctx, ns_diag_kind kind, const char *file, long line, const char *msg) {
    said *s = ctx;
    (void)file;
    int n = snprintf(s->text + s->len, sizeof s->text - s->len, "%d %ld: %s\n", (int)kind, line, msg);
    if (n > 0 && (size_t)n < sizeof s->text - s->len) s->len += (size_t)n;
}

typedef struct {
    int rc;          /* ns_run_load's */
    ns_why why;      /* its reason */
    said msgs;       /* what it said */
    int nreports;    /* reports read */
    char mode[16];   /* the run's mode */
} outcome;

static void load(const char *doc, const char *path, outcome *o) {
    memset(o, 0, sizeof *o);
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fputs(doc, f);
    fclose(f);
    ns_diag d = {collect, &o->msgs};
    ns_run r;
    o->rc = ns_run_load(path, "id", &r, &d, &o->why);
    if (o->rc == 0) {
        o->nreports = r.nreports;
        snprintf(o->mode, sizeof o->mode, "%s", r.mode);
        ns_run_free(&r);
    }
}

static void test_as_whole(void) {
#define HEAD "{\"format\":\"npuscope-run\",\"version\":1,\"wall_s\":1,\"exit_code\":0,\n"
#define REP "{\"root\":{\"name\":\"Total\",\"wall_s\":1,\"children\":[{\"name\":\"P\",\"wall_s\":1}]}}"
    static const char *const docs[] = {
        HEAD "\"reports\":[\n" REP ",\n" REP "\n]}\n",                     /* good */
        HEAD "\"reports\":[\n" REP ",\n{\"x\":1},\n" REP ",7\n]}\n",          /* two not reports */
        HEAD "\"mode\":\"bogus\",\"reports\":[\n" REP ",{\"x\":1}\n]}\n",      /* bad field first */
        HEAD "\"reports\":[\n" REP ",\n{\"root\":tru}\n]}\n",                /* broken element */
        HEAD "\"mode\":\"bogus\",\"reports\":[\n{\"x\":1},\n{\"root\":01}\n]}\n", /* both */
        HEAD "\"reports\":[\n{\"x\":1},\n{\"root\":01}\n]}\n",               /* warned, broken */
        HEAD "\"reports\":[\n" REP ",\n{\"root\":{\"na",                     /* cut short */
        HEAD "\"reports\":[\n" REP "\n]} x\n",                              /* after the end */
        HEAD "\"reports\":[\n" REP "\n],\n\"wall_s\":null}\n",              /* fails after */
        HEAD "\"reports\":[\n{\"x\":1}\n],\n\"wall_s\":null}\n",            /* warned, then fails */
        HEAD "\"reports\":[\n{\"root\":{\"name\":\"\xff\"}}\n]}\n",          /* invalid UTF-8 */
        HEAD "\"reports\":[\n{\"root\":{\"name\":\"a\tb\"}}\n]}\n",          /* raw control byte */
        HEAD "\"reports\":[\n" REP "\n],\"reports\":[" REP "," REP "]}\n",   /* the key twice */
        HEAD "\"rep\\u006frts\":[\n" REP "," REP "\n]}\n",                   /* escaped key */
        HEAD "\"reports\":[\n" REP ",\n" REP "\n]}\n\n",                     /* good */
    };
    char path[256];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/unit_jsonscan_XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
        CHECK(!"mkstemp");
        return;
    }
    close(fd);
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
        static char whole[16384];
        snprintf(whole, sizeof whole, "{\"\\u0078\":0,%s", docs[i] + 1);
        outcome a, b;
        load(docs[i], path, &a);
        load(whole, path, &b);
        int same = a.rc == b.rc && !strcmp(a.why.text, b.why.text) && a.why.line == b.why.line &&
                   !strcmp(a.msgs.text, b.msgs.text) && a.nreports == b.nreports &&
                   !strcmp(a.mode, b.mode);
        CHECK(same);
        if (!same)
            printf("  doc %zu: rc %d/%d, %ld: %s / %ld: %s\n  said:\n%s  whole said:\n%s", i, a.rc,
                   b.rc, a.why.line, a.why.text, b.why.line, b.why.text, a.msgs.text, b.msgs.text);
    }
    /* and they read what they should */
    outcome o;
    load(docs[1], path, &o);
    CHECK(o.rc == 0 && o.nreports == 2 && strstr(o.msgs.text, "report 2: ") &&
          strstr(o.msgs.text, "report 4: "));
    load(docs[3], path, &o);
    CHECK(o.rc < 0 && o.why.line == 4 && !strncmp(o.why.text, "not valid JSON", 14));
    load(docs[12], path, &o);
    CHECK(o.rc == 0 && o.nreports == 2); /* the last "reports", as jansson keeps it */
    unlink(path);
#undef HEAD
#undef REP
}

int main(void) {
    test_scanner();
    test_as_whole();
    printf("unit_jsonscan: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
