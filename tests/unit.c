/* unit.c -- unit tests of the pieces below the command line: exact numbers,
 * banner and header recognition, the scanner's cleaning (CRLF, ANSI, log
 * prefixes, foreign lines, truncation), that readers print nothing (their
 * messages reach the caller's sink, their failure reasons the caller),
 * JSON escaping and the string map.
 * Whole-program behaviour is tested by tests/run.sh on real fixtures.
 *
 * Prints one line per failure and ends with "unit: N passed, N failed". */
#include "check.h"

#include "base/jsonw.h"
#include "base/num.h"
#include "base/regex_guard.h"
#include "capture/metrics.h"
#include "parse/parse.h"
#include "model/report.h"
#include "parse/run_read.h"
#include "parse/scan.h"
#include "base/strmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ====== Numbers ====== */

static ns_num parse(const char *s, int *ok, const char **rest) {
    ns_num n = ns_num_absent();
    const char *p = s;
    *ok = ns_num_parse(&p, s + strlen(s), &n) == 0;
    if (rest) *rest = p;
    return n;
}

static int reprints(const char *s, int width) {
    int ok;
    const char *digits = s;
    while (*digits == ' ') digits++;
    ns_num n = parse(digits, &ok, NULL);
    if (!ok) return 0;
    ns_buf b = {0};
    ns_num_put(&b, n, width);
    int same = b.data && strcmp(b.data, s) == 0;
    if (!same) printf("  reprint '%s' -> '%s'\n", s, b.data ? b.data : "");
    ns_buf_free(&b);
    return same;
}

static void test_numbers(void) {
    int ok;
    const char *rest;
    ns_num n = parse("3.8142 seconds", &ok, &rest);
    CHECK(ok && n.dec == 4 && n.v == 3.8142 && strcmp(rest, " seconds") == 0);
    n = parse("-0.0000", &ok, NULL);
    CHECK(ok && n.v == 0 && signbit(n.v) && n.dec == 4);
    n = parse("nan", &ok, NULL);
    CHECK(ok && isnan(n.v) && n.dec == NS_DEC_WORD);
    n = parse("-inf", &ok, NULL);
    CHECK(ok && isinf(n.v) && n.v < 0);
    parse("abc", &ok, NULL);
    CHECK(!ok);
    parse("-", &ok, NULL);
    CHECK(!ok);
    parse(".", &ok, NULL);
    CHECK(!ok);
    n = parse("1e-3", &ok, NULL);
    CHECK(ok && n.v == 1e-3);
    /* every printed value comes back as printed */
    CHECK(reprints("  0.2912", 8));
    CHECK(reprints(" -0.0658", 8));
    CHECK(reprints("1234.5678", 8));
    CHECK(reprints("   -0.0000", 10));
    CHECK(reprints("100.0", 5));
    CHECK(reprints("  nan", 5));
    CHECK(reprints(" -nan", 5));
    CHECK(reprints("123456789012.1234", 8)); /* 16 digits: strtod path */
    /* what printf of a double prints is exact, however long; what it
     * cannot have printed is read, but marked inexact */
    n = parse("123456789012.1234", &ok, NULL);
    CHECK(ok && !n.inexact);
    n = parse("100000000000000000000.0000", &ok, NULL); /* printf("%.4f", 1e20) */
    CHECK(ok && !n.inexact && n.v == 1e20);
    n = parse("-0000012345678901234567.0", &ok, NULL);   /* leading zeros, sign */
    CHECK(ok && n.inexact && n.v == -12345678901234567.0); /* 17 digits: ...68 */
    n = parse("99999999999999999999.0000", &ok, NULL);
    CHECK(ok && n.inexact && n.v == 1e20);
    n = parse("3.8142", &ok, NULL);
    CHECK(ok && !n.inexact);
    {
        char big[420] = "1";
        memset(big + 1, '0', 400);
        strcpy(big + 401, ".0"); /* 10^400: once cut to 127 digits, now inf */
        n = parse(big, &ok, &rest);
        CHECK(ok && n.inexact && isinf(n.v) && *rest == 0);
    }
    char tmp[32];
    int all = 1;
    for (int i = 0; i < 100000 && all; i += 7) {
        snprintf(tmp, sizeof tmp, "%8.4f", i / 10000.0 * (i % 2 ? -1 : 1));
        all = reprints(tmp, 8);
    }
    CHECK(all);
    /* JSON: printed digits, null for nan */
    ns_buf b = {0};
    n = parse("0.2519", &ok, NULL);
    ns_num_put_json(&b, n);
    ns_buf_putc(&b, ' ');
    n = parse("nan", &ok, NULL);
    ns_num_put_json(&b, n);
    ns_buf_putc(&b, ' ');
    ns_put_json_double(&b, -1e-12, 4);
    CHECK(strcmp(b.data, "0.2519 null 0.0000") == 0);
    ns_buf_free(&b);
}

/* ====== Banner and header ====== */

static void test_banner(void) {
    const char *ban = "===-------------------------------------------------------------------------===";
    CHECK(ns_banner_at(ban, strlen(ban)) == 0);
    char pre[200];
    snprintf(pre, sizeof pre, "[INFO] 12:00:00.123 [vpux-compiler] %s  ", ban);
    CHECK(ns_banner_at(pre, strlen(pre)) == 36);
    CHECK(ns_banner_at("=== compiling ===", 17) < 0);
    CHECK(ns_banner_at("===---===", 9) < 0);
    char tail[200];
    snprintf(tail, sizeof tail, "%s and more", ban);
    CHECK(ns_banner_at(tail, strlen(tail)) < 0);

    ns_hdr h;
    ns_hdr_begin(&h, 1);
    const char *mlir[] = {"                         ... Execution time report ...",
                          ban, "  Total Execution Time: 4.7896 seconds", "",
                          "  ----User Time----  ----Wall Time----  ----Name----"};
    for (int i = 0; i < 5; i++) ns_hdr_feed(&h, mlir[i], strlen(mlir[i]));
    CHECK(h.state == NS_HDR_DONE && !h.llvm && h.ncols == 2 && h.cols[0] == NS_COL_USER &&
          h.cols[1] == NS_COL_WALL && h.total.v == 4.7896);
    CHECK(strcmp(h.title, "... Execution time report ...") == 0);
    ns_hdr_free(&h);

    ns_hdr_begin(&h, 1);
    const char *llvm[] = {"   Pass execution timing report", ban,
                          "  Total Execution Time: 6.5828 seconds (6.5731 wall clock)", "",
                          "   ---User Time---   --System Time--   --User+System--   ---Wall "
                          "Time---  ---Mem---  --- Name ---"};
    for (int i = 0; i < 5; i++) ns_hdr_feed(&h, llvm[i], strlen(llvm[i]));
    CHECK(h.state == NS_HDR_DONE && h.llvm && h.ncols == 5 && h.cols[4] == NS_COL_MEM &&
          h.wall_clock.v == 6.5731);
    ns_hdr_free(&h);

    ns_hdr_begin(&h, 1);
    ns_hdr_feed(&h, "title", 5);
    ns_hdr_feed(&h, "not a banner", 12);
    CHECK(h.state == NS_HDR_FAILED);
    ns_hdr_free(&h);
}

/* ====== Scanner ====== */

typedef struct {
    ns_report *r[16]; /* reports kept */
    int n;            /* how many */
} sink_t;

static int keep(ns_report *r, void *ctx) {
    sink_t *s = ctx;
    if (s->n < 16) s->r[s->n++] = r;
    else ns_report_free(r);
    return 0;
}

static void drop(sink_t *s) {
    for (int i = 0; i < s->n; i++) ns_report_free(s->r[i]);
    s->n = 0;
}

static int scan(const char *text, sink_t *s, const char *label_re) {
    ns_scanner sc;
    ns_scanner_init(&sc);
    if (label_re) ns_scanner_set_label_regex(&sc, label_re);
    int n = ns_scan_buffer(&sc, "t.log", text, strlen(text), keep, s);
    ns_scanner_free(&sc);
    return n;
}

#define BAN "===-------------------------------------------------------------------------===\n"
#define HDR(total, cols)                                                              \
    BAN "                         ... Execution time report ...\n" BAN                 \
        "  Total Execution Time: " total " seconds\n\n" cols "\n"

static const char *small_report =
    HDR("0.0100", "  ----Wall Time----  ----Name----")
    "    0.0060 ( 60.0%)  Parser\n"
    "    0.0030 ( 30.0%)  'func.func' Pipeline\n"
    "    0.0020 ( 20.0%)    CSE\n"
    "    0.0001 (  1.0%)      (A) DominanceInfo\n"
    "    0.0010 ( 10.0%)  Output\n"
    "   -0.0000 ( -0.0%)  Rest\n"
    "    0.0100 (100.0%)  Total\n";

static void test_scan_basic(void) {
    sink_t s = {0};
    CHECK(scan(small_report, &s, NULL) == 1);
    ns_report *r = s.r[0];
    CHECK(r->complete && r->producer == NS_PROD_MLIR_TEXT && !r->list_mode);
    CHECK(r->nnodes == 7 && r->root->nchild == 4);
    ns_node *p = r->root->child->next;
    CHECK(strcmp(p->name, "'func.func' Pipeline") == 0 && p->kind == NS_KIND_PIPELINE);
    CHECK(p->child && strcmp(p->child->name, "CSE") == 0 && p->child->kind == NS_KIND_PASS);
    CHECK(p->child->child->kind == NS_KIND_ANALYSIS && p->child->child->depth == 2);
    CHECK(r->root->child->kind == NS_KIND_SCOPE); /* Parser */
    ns_node *rest = r->root->last;
    CHECK(rest->kind == NS_KIND_REST && signbit(rest->val[NS_COL_WALL].v));
    CHECK(!ns_num_present(r->root->val[NS_COL_USER]));
    CHECK(fabs(ns_node_self(p, NS_COL_WALL) - 0.001) < 1e-12);
    CHECK(strcmp(r->label, "#1") == 0 && r->line == 1 && r->end_line == 13);
    drop(&s);
}

static char *replace_all(const char *s, const char *from, const char *to) {
    ns_buf b = {0};
    size_t fl = strlen(from);
    for (const char *p = s; *p;) {
        if (strncmp(p, from, fl) == 0) {
            ns_buf_puts(&b, to);
            p += fl;
        } else {
            ns_buf_putc(&b, *p++);
        }
    }
    return b.data;
}

static void test_scan_dirty(void) {
    sink_t s = {0};
    /* CRLF and colour */
    char *crlf = replace_all(small_report, "\n", "\r\n");
    char *ansi = replace_all(crlf, "CSE", "\033[36mCSE\033[0m");
    CHECK(scan(ansi, &s, NULL) == 1 && s.r[0]->complete && s.r[0]->nnodes == 7);
    CHECK(strcmp(s.r[0]->root->child->next->child->name, "CSE") == 0);
    drop(&s);
    free(crlf);
    free(ansi);

    /* logger prefix on every line, with changing timestamps */
    ns_buf b = {0};
    int i = 0;
    for (const char *p = small_report; *p; i++) {
        const char *nl = strchr(p, '\n');
        ns_buf_printf(&b, "[INFO] 12:00:%02d.%03d [vpux-compiler] ", i % 60, i * 37 % 1000);
        ns_buf_add(&b, p, (size_t)(nl - p + 1));
        p = nl + 1;
    }
    CHECK(scan(b.data, &s, NULL) == 1 && s.r[0]->complete && s.r[0]->nnodes == 7);
    CHECK(s.r[0]->prefix && strncmp(s.r[0]->prefix, "[INFO]", 6) == 0);
    drop(&s);
    ns_buf_free(&b);

    /* a timestamp prefix of another shape */
    i = 0;
    for (const char *p = small_report; *p; i++) {
        const char *nl = strchr(p, '\n');
        ns_buf_printf(&b, "2026-11-29T10:%02d:%02dZ | ", i, i * 7 % 60);
        ns_buf_add(&b, p, (size_t)(nl - p + 1));
        p = nl + 1;
    }
    CHECK(scan(b.data, &s, NULL) == 1 && s.r[0]->complete && s.r[0]->nnodes == 7);
    drop(&s);
    ns_buf_free(&b);

    /* a foreign line in the middle is skipped, the report still complete */
    char *foreign = replace_all(small_report, "    0.0010 ( 10.0%)  Output\n",
                                "[heartbeat 219]\n    0.0010 ( 10.0%)  Output\n");
    CHECK(scan(foreign, &s, NULL) == 1 && s.r[0]->complete && s.r[0]->nnodes == 7);
    drop(&s);
    free(foreign);

    /* truncated: kept, marked incomplete, rows so far intact */
    char *cut = ns_strndup(small_report, strstr(small_report, "    0.0010") - small_report);
    CHECK(scan(cut, &s, NULL) == 1 && !s.r[0]->complete && s.r[0]->nnodes == 5);
    drop(&s);
    /* truncated then another report: two reports */
    ns_buf_puts(&b, cut);
    ns_buf_puts(&b, small_report);
    CHECK(scan(b.data, &s, NULL) == 2 && !s.r[0]->complete && s.r[1]->complete);
    drop(&s);
    ns_buf_free(&b);
    free(cut);

    /* labels from the nearest preceding matching line */
    ns_buf_puts(&b, "=== compiling model_a ===\n");
    ns_buf_puts(&b, small_report);
    ns_buf_puts(&b, "noise\n=== compiling model_b ===\nmore noise\n");
    ns_buf_puts(&b, small_report);
    CHECK(scan(b.data, &s, "compiling ([a-z_]+)") == 2 &&
          strcmp(s.r[0]->label, "model_a") == 0 && strcmp(s.r[1]->label, "model_b") == 0);
    drop(&s);
    ns_buf_free(&b);
}

static void test_scan_edge(void) {
    sink_t s = {0};
    CHECK(scan("", &s, NULL) == 0);
    CHECK(scan("just a log\nwith lines\n", &s, NULL) == 0);
    /* header only */
    CHECK(scan(HDR("1.0000", "  ----Wall Time----  ----Name----"), &s, NULL) == 1 &&
          !s.r[0]->complete && s.r[0]->nnodes == 1);
    drop(&s);
    /* widened column (>= 1000 s) and nan percentages */
    const char *wide = HDR("1234.5000", "  ----Wall Time----  ----Name----")
        " 1234.0000 (100.0%)  Big\n"
        "    0.5000 (  0.0%)  Rest\n"
        " 1234.5000 (100.0%)  Total\n";
    CHECK(scan(wide, &s, NULL) == 1 && s.r[0]->complete &&
          s.r[0]->root->child->val[NS_COL_WALL].v == 1234.0);
    drop(&s);
    const char *zero = HDR("0.0000", "  ----Wall Time----  ----Name----")
        "    0.0000 (  nan%)  Parser\n"
        "    0.0000 (  nan%)  Rest\n"
        "    0.0000 (  nan%)  Total\n";
    CHECK(scan(zero, &s, NULL) == 1 && s.r[0]->complete &&
          isnan(s.r[0]->root->child->pct[NS_COL_WALL].v));
    drop(&s);
    /* an indentation jump is attached one level down, not lost */
    const char *jump = HDR("0.0100", "  ----Wall Time----  ----Name----")
        "    0.0060 ( 60.0%)  A\n"
        "    0.0010 ( 10.0%)        B\n"
        "    0.0100 (100.0%)  Total\n";
    CHECK(scan(jump, &s, NULL) == 1 && s.r[0]->root->child->child &&
          s.r[0]->root->child->child->depth == 1);
    drop(&s);
    /* MLIR JSON with a quote in a name (not escaped by MLIR) */
    const char *json =
        "[\n"
        "{\"wall\": {\"duration\":   0.0060, \"percentage\":  60.0}, \"name\": \"say \"hi\"\", \"passes\": [\n"
        "  {\"wall\": {\"duration\":   0.0010, \"percentage\":  10.0}, \"name\": \"X\", \"passes\": [\n"
        "  {}]},\n"
        "{}]},\n"
        "{\"wall\": {\"duration\":   0.0040, \"percentage\":  40.0}, \"name\": \"Rest\"},\n"
        "{\"wall\": {\"duration\":   0.0100, \"percentage\": 100.0}, \"name\": \"Total\"}\n"
        "]\n";
    CHECK(scan(json, &s, NULL) == 1 && s.r[0]->complete && s.r[0]->nnodes == 4 &&
          strcmp(s.r[0]->root->child->name, "say \"hi\"") == 0 &&
          strcmp(s.r[0]->root->child->child->name, "X") == 0);
    drop(&s);
    /* a lone "[" in a log is not a report */
    CHECK(scan("[\n1, 2\n]\n", &s, NULL) == 0);
    /* LLVM table with the ----- placeholder */
    const char *llvm =
        BAN "                        Miscellaneous Ungrouped Timers\n" BAN "\n"
        "   ---Wall Time---  --- Name ---\n"
        "        -----       A\n"
        "        -----       Total\n\n";
    CHECK(scan(llvm, &s, NULL) == 1 && s.r[0]->complete && s.r[0]->producer == NS_PROD_LLVM &&
          !ns_num_present(s.r[0]->root->child->val[NS_COL_WALL]));
    drop(&s);
}

/* Noise lines are skipped in bulk: reports whose first line ends in blanks,
 * a CR, a colour reset or "[" must still be found after lots of noise, and
 * line numbers must stay exact. */
static void test_scan_after_noise(void) {
    sink_t s = {0};
    ns_buf b = {0};
    for (int i = 0; i < 1000; i++)
        ns_buf_printf(&b, "[INFO] 12:00:00.%03d [vpux-compiler] noise line %d of the log\n", i % 1000, i);
    size_t noise_len = b.len;
    const char *variants[] = {"", "  ", "\r", "\033[0m"};
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        b.len = noise_len;
        ns_buf_puts(&b, BAN);
        b.len--; /* drop the banner's newline to add the variant */
        ns_buf_puts(&b, variants[v]);
        ns_buf_puts(&b, "\n                         ... Execution time report ...\n" BAN);
        ns_buf_puts(&b, strstr(small_report, "  Total Execution Time"));
        CHECK(scan(b.data, &s, NULL) == 1 && s.r[0]->complete && s.r[0]->line == 1001 &&
              s.r[0]->nnodes == 7);
        drop(&s);
    }
    b.len = noise_len;
    ns_buf_puts(&b, "[\r\n{\"wall\": {\"duration\":   0.0100, \"percentage\": 100.0}, \"name\": \"Total\"}\n]\n");
    CHECK(scan(b.data, &s, NULL) == 1 && s.r[0]->producer == NS_PROD_MLIR_JSON &&
          s.r[0]->line == 1001 && s.r[0]->complete);
    drop(&s);
    ns_buf_free(&b);
}

/* Noise lines of every length, the report starting at every offset of a
 * 64-byte block: the vector skip must stop exactly before the banner, and
 * count every line before it (empty lines, lines ending in a blank or '='
 * that need a look but are noise, lines longer than a block). */
static void test_scan_noise_offsets(void) {
    sink_t s = {0};
    ns_buf b = {0};
    int all = 1;
    for (int shift = 0; shift < 64; shift++) {
        b.len = 0;
        ns_buf_pad(&b, 'x', (size_t)shift);
        ns_buf_putc(&b, '\n');
        long lines = 1;
        for (int i = 0; i < 300; i++, lines++) {
            ns_buf_pad(&b, (char)('a' + i % 26), (size_t)(i * 37 % 150));
            ns_buf_puts(&b, i % 11 == 0 ? " =\n" : i % 13 == 0 ? " \n" : "\n");
        }
        ns_buf_puts(&b, HDR("0.0100", "   ----Wall Time----  ----Name----"));
        ns_buf_puts(&b, "   0.0100 (100.0%)  Total\n");
        all &= scan(b.data, &s, NULL) == 1 && s.n == 1 && s.r[0]->line == lines + 1 &&
               s.r[0]->complete;
        drop(&s);
    }
    CHECK(all);
    ns_buf_free(&b);
}

/* Rows of every length with an escape sequence or a NUL at every place,
 * the row followed by another line, or last with and without its newline:
 * the line finder's blocks (scan.c, "Finding a line's end") end
 * everywhere in them, and the last block overlaps the one before.  An
 * escape is cleaned away; a NUL makes the row a line that is not a row. */
static void test_scan_line_ends(void) {
    sink_t s = {0};
    ns_buf b = {0}, want = {0};
    int all = 1, cases = 0;
    for (int len = 1; len <= 70; len++)
        for (int at = -1; at <= len; at++)
            for (int kind = 0; kind < 2; kind++)
                for (int end = 0; end < 3; end++) {
                    if (at < 0 && kind) continue;
                    b.len = want.len = 0;
                    ns_buf_puts(&b, HDR("0.0100", "  ----Wall Time----  ----Name----"));
                    ns_buf_puts(&b, "    0.0100 (100.0%)  ");
                    ns_buf_puts(&want, "");
                    for (int i = 0; i <= len; i++) {
                        if (i == at) {
                            if (kind) ns_buf_add(&b, "\0", 1);
                            else ns_buf_puts(&b, "\033[1m");
                        }
                        if (i == len) break;
                        ns_buf_putc(&b, (char)('a' + i % 26));
                        ns_buf_putc(&want, (char)('a' + i % 26));
                    }
                    if (end == 0) ns_buf_puts(&b, "\n    0.0100 (100.0%)  Total\n");
                    else if (end == 1) ns_buf_putc(&b, '\n');
                    ns_scanner sc;
                    ns_scanner_init(&sc);
                    int n = ns_scan_buffer(&sc, "t.log", b.data, b.len, keep, &s);
                    ns_scanner_free(&sc);
                    const ns_report *r = n == 1 ? s.r[0] : NULL;
                    int ok = r && r->complete == (end == 0);
                    if (ok && kind) ok = r->nnodes == 1;
                    else if (ok) ok = r->nnodes == 2 && strcmp(r->root->child->name, want.data) == 0;
                    if (!ok && all)
                        printf("  line ends: len %d, %s at %d, end %d: wrong\n", len,
                               kind ? "NUL" : "escape", at, end);
                    all &= ok;
                    cases++;
                    drop(&s);
                }
    CHECK(all && cases > 10000);
    ns_buf_free(&b);
    ns_buf_free(&want);
}

/* ====== JSON strings, strmap ====== */

static void test_json_and_map(void) {
    ns_buf b = {0};
    ns_json_str(&b, "a\"b\\c\n</script>\x01");
    CHECK(strcmp(b.data, "\"a\\\"b\\\\c\\n\\u003c/script>\\u0001\"") == 0);
    b.len = 0;
    ns_json_strn(&b, "ok\xff\xc3\xa9", 5);
    CHECK(strcmp(b.data, "\"ok\\ufffd\xc3\xa9\"") == 0);
    b.len = 0;
    ns_csv_field(&b, "a,\"b\"");
    CHECK(strcmp(b.data, "\"a,\"\"b\"\"\"") == 0);
    ns_buf_free(&b);

    ns_strmap m;
    ns_strmap_init(&m);
    char key[32];
    int added, all = 1;
    for (int i = 0; i < 5000; i++) {
        snprintf(key, sizeof key, "k%d", i);
        all &= ns_strmap_intern(&m, key, &added) == (size_t)i && added;
    }
    CHECK(all);
    CHECK(ns_strmap_find(&m, "k4321") == 4321 && ns_strmap_find(&m, "nope") == (size_t)-1);
    CHECK(ns_strmap_intern(&m, "k7", &added) == 7 && !added);
    ns_strmap_free(&m);
}

/* The guard in front of regcomp for patterns from the command line: real
 * metric and --label patterns pass; patterns that make glibc's compiler
 * copy subtrees without bound, loops over what can match empty and
 * back-references are refused (most refused ones here were fuzz_metric
 * findings; tests/bad/cases/fuzz-fuzz_metric-*). */
static void test_regex_guard(void) {
    static const char *const fine[] = {
        "Compile model took ([0-9]+([.][0-9]+)?) ms",
        "Throughput ?: ([0-9]+([.][0-9]+)?)( [^ ]+ [0-9.]+)? tokens/s",
        "([[:digit:]]+) KB", "a{2,5}b+c*", "(x|y)+z?", ")+", "\\(+", "[]]+", "",
        "^ *([0-9]+) ms$", ".*a.*b.*c", "x{0,}y{2,}", "(x?)?", "(a|)?b", "(x*){0,1}",
        "^\\s*(\\w+)=([0-9]+)", ".*?x", "\\d++",
    };
    for (size_t i = 0; i < sizeof fine / sizeof *fine; i++) CHECK(!ns_regex_refusal(fine[i]));
    char stacked[300] = "n", groups[300] = "(((())()))", paren[300] = ")";
    memset(stacked + 1, '+', 22);
    memset(groups + 10, '+', 120);
    memset(paren + 1, '+', 64);
    const char *why;
    const char *const too_big[] = {
        "a{1000}{1000}", "(a{50}){50}", "((a+)+)+b{99}{99}", stacked, paren,
    };
    for (size_t i = 0; i < sizeof too_big / sizeof *too_big; i++) {
        why = ns_regex_refusal(too_big[i]);
        /* (a{50}){50} and ((a+)+)+... are nested quantifiers too: refused
         * for that as soon as the walk sees it */
        CHECK(why && (strstr(why, "too deeply") || strstr(why, "nested quantifier")));
    }
    /* loops over what can match empty: 20 of "(x?)+" after '^' took 7 s to
     * compile; one "(...|||x)?+" took over a minute to match */
    static const char *const empty_loop[] = {
        "x**", "(x?)+", "(a|)*", "(|a)+", "(^)*", "($|x)+", "(x*){2}", "(\\b)+", "((x?))*",
        "(a|b|)*", "an=(\xd1\xd1|\\\\||||x)?+", "NP=%***/*********^.*****",
    };
    for (size_t i = 0; i < sizeof empty_loop / sizeof *empty_loop; i++) {
        why = ns_regex_refusal(empty_loop[i]);
        CHECK(why && strstr(why, "can match nothing"));
    }
    why = ns_regex_refusal(groups); /* "(((())()))+++...": empty, and copied 2^120 times */
    CHECK(why && strstr(why, "can match nothing"));
    why = ns_regex_refusal("(a)\\1");
    CHECK(why && strstr(why, "back-reference"));
    /* a loop over a group that loops itself, or over alternatives that may
     * start alike: (a+)+b took 8 s on a 50,000-character line */
    static const char *const nested[] = {
        "(a+)+b", "([a-z]+)*[0-9]", "(\\w+\\s?)*$", "((ab)+c)+", "(x{2,})+", "(a(b*))*c",
    };
    for (size_t i = 0; i < sizeof nested / sizeof *nested; i++) {
        why = ns_regex_refusal(nested[i]);
        CHECK(why && strstr(why, "nested quantifier"));
    }
    static const char *const overlap[] = {"(a|aa)+$", "(ab|a)*c", "(.|x)+", "([0-9]|1)+", "((a)|b)+"};
    for (size_t i = 0; i < sizeof overlap / sizeof *overlap; i++) {
        why = ns_regex_refusal(overlap[i]);
        CHECK(why && strstr(why, "alternatives can start alike"));
    }
    /* what stays allowed: distinct first characters, loops not repeated */
    static const char *const still_fine[] = {"(foo|bar)+x", "([0-9]+)x", "(ab){3}", "(a|b|c)*d",
                                             "x([0-9]+\\.)?y", "a++"};
    for (size_t i = 0; i < sizeof still_fine / sizeof *still_fine; i++)
        CHECK(!ns_regex_refusal(still_fine[i]));
}

/* The metric rules read output in whatever pieces the capture drains it:
 * every piece size must give what the whole does, and two streams ended
 * stdout first must give what scanning the two files did (stderr's last
 * match wins). */
static void ns__metrics_of(const char *const *parts, const size_t *lens, int nparts, size_t piece,
                           ns_run *run) {
    ns_metric_set m;
    ns_metrics_init(&m);
    CHECK(ns_metrics_add(&m, "late_ms=late ([0-9]+) ms") == 0);
    CHECK(ns_metrics_add(&m, "any=x=([0-9]+)") == 0);
    ns_metric_stream st[2];
    for (int k = 0; k < 2; k++) ns_metrics_stream_init(&st[k], &m);
    for (int k = 0; k < nparts; k++)
        for (size_t off = 0; off < lens[k]; off += piece)
            ns_metrics_feed(&st[k], parts[k] + off, lens[k] - off < piece ? lens[k] - off : piece);
    for (int k = 0; k < 2; k++) ns_metrics_stream_end(&st[k], &m);
    memset(run, 0, sizeof *run);
    ns_metrics_to_run(&m, run);
    ns_metrics_free(&m);
}

static void test_metric_stream(void) {
    static const char out[] =
        "Compile model took 1234.5 ms\n"
        "noise Compilation memory usage: Peak 204800 KB\n"
        "x=7 and \0 x=8 Compile net time: 512.25 ms\n" /* a NUL hides the rest from strstr */
        "Compile net time: 100 ms\nCompile net time: 1 ms\n"
        "late 5 ms\n"
        "last line without newline: Compile model took 99 ms";
    static const char err[] =
        "End of compilation memory usage: Peak 409600 KB\n\n\n"
        "42.5 tokens per second\nlate 6 ms\nThroughput: 12.34 tokens/s";
    const char *parts[] = {out, err};
    size_t lens[] = {sizeof out - 1, sizeof err - 1};
    ns_run whole;
    ns__metrics_of(parts, lens, 2, 1u << 20, &whole);
    /* what the rules must find, whatever the pieces */
    struct { const char *name; double v; long n; } want[] = {
        {"compile_model_ms", 99, 2}, {"compiler_vmpeak_delta_kb", 204800, 1}, {"compiler_vmpeak_kb", 409600, 1}, {"compile_net_ms", 613.25, 3},
        {"tokens_per_s", 12.34, 2}, {"late_ms", 6, 2}, {"any", 7, 1},
    };
    CHECK(whole.nmetrics == (int)(sizeof want / sizeof *want));
    for (size_t w = 0; w < sizeof want / sizeof *want; w++) {
        int found = 0;
        for (int i = 0; i < whole.nmetrics; i++)
            if (!strcmp(whole.metrics[i].name, want[w].name)) {
                found = 1;
                CHECK(fabs(whole.metrics[i].value - want[w].v) < 1e-9);
                CHECK(whole.metrics[i].count == want[w].n);
            }
        CHECK(found);
    }
    for (size_t piece = 1; piece <= 67; piece++) {
        ns_run r;
        ns__metrics_of(parts, lens, 2, piece, &r);
        int same = r.nmetrics == whole.nmetrics;
        for (int i = 0; same && i < r.nmetrics; i++)
            same = !strcmp(r.metrics[i].name, whole.metrics[i].name) &&
                   r.metrics[i].value == whole.metrics[i].value &&
                   r.metrics[i].count == whole.metrics[i].count;
        CHECK(same);
        ns_run_free(&r);
    }
    ns_run_free(&whole);
}

/* ====== Diagnostics ====== */

/* A sink that keeps every message as "FILE:LINE: kind: message\n". */
typedef struct {
    ns_buf text; /* the messages */
    long n[2];   /* how many of each ns_diag_kind */
} said_t;

static void say_keep(void *ctx, ns_diag_kind kind, const char *file, long line,
                     const char *msg) {
    said_t *s = ctx;
    s->n[kind]++;
    ns_buf_printf(&s->text, "%s:%ld: %s: %s\n", file ? file : "-", line,
                  kind == NS_DIAG_ERROR ? "error" : "warning", msg);
}

static void test_diag(void) {
    const char *cut = HDR("0.0100", "  ----Wall Time----  ----Name----")
        "    0.0060 ( 60.0%)  Parser\n"
        "a line that is not a row\n"
        "    0.0010 ( 10.0%)  Output\n";
    /* stderr goes to a file while the readers run, with warnings on */
    fflush(stderr);
    FILE *err = tmpfile();
    int saved = dup(2);
    if (!err || saved < 0 || dup2(fileno(err), 2) < 0) {
        CHECK(!"stderr redirected");
        return;
    }
    int was = ns_diag_quiet(0);
    said_t said = {{0}, {0, 0}};
    sink_t s = {0};
    ns_scanner sc;
    ns_scanner_init(&sc);
    int dropped = ns_scan_buffer(&sc, "t.log", cut, strlen(cut), keep, &s); /* no sink */
    drop(&s);
    sc.diag = (ns_diag){say_keep, &said};
    sc.next_index = 0;
    int n = ns_scan_buffer(&sc, "t.log", cut, strlen(cut), keep, &s);
    int missing = ns_scan_path(&sc, "tests/no-such-input.log", keep, &s);
    CHECK(ns_scanner_set_label_regex(&sc, "(") == -1);
    ns_scanner_free(&sc);
    drop(&s);
    /* failure reasons come back to the caller */
    ns_why why = {"", 0};
    CHECK(ns_trace_report_new("{\"traceEvents\": [", 17, "x.json", &sc.diag, &why) == NULL &&
          strncmp(why.text, "not valid trace JSON: ", 22) == 0 && why.line == 1);
    ns_run r;
    why.text[0] = 0;
    CHECK(ns_run_load("tests/no-such-run.json", "r01", &r, &sc.diag, &why) == -1 &&
          strstr(why.text, "No such file") != NULL);
    char *big = ns_xmalloc(3 * NS_WHY_MAX);
    memset(big, 'x', 3 * NS_WHY_MAX - 1);
    big[3 * NS_WHY_MAX - 1] = 0;
    CHECK(ns_fail(&why, 7, "%s", big) == -1 && why.line == 7 &&
          strlen(why.text) == NS_WHY_MAX - 1 && strcmp(why.text + NS_WHY_MAX - 4, "...") == 0);
    CHECK(ns_fail(NULL, 1, "nobody asked") == -1);
    free(big);
    ns_diag_quiet(was);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    CHECK(fseek(err, 0, SEEK_END) == 0 && ftell(err) == 0); /* nothing was printed */
    fclose(err);
    CHECK(dropped == 1 && n == 1 && missing == -1);
    CHECK(said.n[NS_DIAG_WARNING] == 2 && said.n[NS_DIAG_ERROR] == 2);
    CHECK(strstr(said.text.data, "t.log:8: warning: report #1: skipped 1 line that is not a "
                                 "row of it\n") != NULL);
    CHECK(strstr(said.text.data, "t.log:1: warning: report #1 is incomplete") != NULL);
    CHECK(strstr(said.text.data, "tests/no-such-input.log:0: error: No such file") != NULL);
    CHECK(strstr(said.text.data, "-:0: error: --label-regex '(': ") != NULL);
    /* the counting sink */
    long counts[2] = {0, 0};
    ns_diag count = {ns_diag_count, counts};
    ns_diag_say(&count, NS_DIAG_ERROR, "f", 3, "%d", 1);
    ns_diag_say(&count, NS_DIAG_WARNING, NULL, 0, "w");
    ns_diag_say(NULL, NS_DIAG_WARNING, NULL, 0, "to nobody");
    CHECK(counts[NS_DIAG_WARNING] == 1 && counts[NS_DIAG_ERROR] == 1);
    ns_buf_free(&said.text);
}

int main(void) {
    ns_diag_quiet(1);
    test_diag();
    test_regex_guard();
    test_numbers();
    test_banner();
    /* the scanner once with each noise skip the CPU has (scan.c) */
    for (int simd = NS_SIMD_NONE; simd <= NS_SIMD_AVX512; simd++) {
        if (ns_scan_simd(simd) != simd) continue;
        test_scan_basic();
        test_scan_dirty();
        test_scan_edge();
        test_scan_after_noise();
        test_scan_noise_offsets();
        test_scan_line_ends();
    }
    ns_scan_simd(-1);
    test_json_and_map();
    test_metric_stream();
    return check_summary("unit");
}
