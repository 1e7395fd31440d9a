/* unit_npu_skip.c -- the skip past the NPU hook's texts loses nothing.
 *
 * With the NPU hook installed, the scanner skips the lines between
 * reports that hold none of the texts the hook looks for (scan.h,
 * ns_scan_hook.needles; parse/scan.c, "Skipping lines between reports"),
 * found by a vector search of the buffer (base/needles.h,
 * ns_needles_next).  A line the skip drops that the hook would have acted
 * on is a fact, a label or a memory line lost without a word.  So the same
 * inputs are scanned with the hook reading every line (every_line: no
 * skip, no filter) and with the skip, under each vector code the CPU has
 * (NS_SIMD_NONE, SSE2, AVX2; the last two also with the skip's two-pass
 * way, ns_scan_one_pass(0), which a CPU without SSSE3 runs), whole, from a file (reads of 256 KiB, so
 * lines are cut by refills), and pushed in pieces of 1 byte up to 64 KiB
 * and of random sizes, in each of the hook's modes (facts; facts and an
 * NPUW layout; detection): the reports, as run.json writes them with
 * their labels, facts, lines and memory columns, must be the same bytes.
 *
 * The inputs: every fixture, and generated NPU-style logs (a seeded
 * generator) that hold every line kind the hook reads -- facts, weights
 * separation, the NPUW trace, a strategy dump, memory-collector lines --
 * behind log prefixes, with ANSI colour, a colour code inside a text (only
 * the cleaned line holds it), CR before LF, CRs inside lines, texts cut by
 * a CR, and noise lines of every length, shifted by 0..63 bytes so that
 * texts fall across 64-byte blocks and the reader's refills.  Then the
 * search itself: ns_needles_next finds the first text (or an escape
 * before it), and ns_needles_which what the line holds, at every offset
 * and every vector level, as one text at a time does.  And texts put at
 * every offset of a 64-byte block (across its end) and cut by a line's end.
 *
 * Run from the repository's top folder (it reads tests/fixtures).
 * Prints "unit_npu_skip: N passed, M failed". */
#include "check.h"
#include "check_scan.h"

#include "npu/hook.h"
#include "npu/npu.h"
#include "parse/scan.h"
#include "render/tree_json.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ====== Reports, written down ====== */

/* How an input is read: whole from memory, from a file, or pushed. */
enum { NS__WHOLE, NS__FILE };

/* The reports of data scanned with the hook in `mode` (0: facts, 1: facts
 * and an NPUW layout, 2: detection); every_line: the reference; how:
 * NS__WHOLE, NS__FILE (path holds the same bytes), or a piece size (> 1:
 * pieces of how - 1 bytes; < 0: random pieces up to -how bytes, seeded);
 * level: the vector code (the scanner's and the hook's). */
static char *ns__reports(const char *data, size_t len, const char *path, long how, int mode,
                         int every_line, int level, int *found) {
    ns_scanner sc;
    ns_scanner_init(&sc);
    ns_npu_hook npu;
    const char *layout = mode == 1 ? "generate:3,prefill:3,lm_head:1" : NULL;
    if (mode == 2) ns_npu_hook_init_detect(&npu, layout, NULL);
    else ns_npu_hook_init(&npu, layout, NULL);
    npu.every_line = every_line;
    npu.needles.level = npu.log_needles.level = level;
    sc.hook = &npu.ops;
    ns_buf b = {0};
    ns_buf_puts(&b, "");
    if (how == NS__WHOLE) {
        *found = ns_scan_buffer(&sc, "t.log", data, len, check_write_report, &b);
    } else if (how == NS__FILE) {
        *found = ns_scan_path(&sc, path, check_write_report, &b);
    } else {
        unsigned seed = 7u + (unsigned)len;
        ns_scan_stream *ss = ns_scan_stream_new(&sc, "t.log", check_write_report, &b);
        for (size_t at = 0; at < len;) {
            size_t n = how > 0 ? (size_t)how - 1 : 1 + (size_t)(rand_r(&seed) % (unsigned)-how);
            if (n > len - at) n = len - at;
            char *p = malloc(n); /* a buffer of its own: a read past it is ASan's */
            memcpy(p, data + at, n);
            ns_scan_stream_feed(ss, p, n);
            free(p);
            at += n;
        }
        *found = ns_scan_stream_end(ss);
    }
    ns_npu_hook_free(&npu);
    ns_scanner_free(&sc);
    return b.data; /* the caller frees it */
}

/* A temporary file holding data; its name in path (removed by the caller). */
static int ns__tmpfile(const char *data, size_t len, char *path, size_t size) {
    const char *dir = getenv("TMPDIR");
    snprintf(path, size, "%s/unit_npu_skip.XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) return -1;
    int ok = write(fd, data, len) == (ssize_t)len;
    close(fd);
    return ok ? 0 : -1;
}

/* data read every way at every vector level gives what every_line gives;
 * pieces: also pushed in pieces (slow for big inputs). *facts: whether
 * the reference has facts (the comparison means something). */
static int ns__same(const char *what, const char *data, size_t len, int pieces, int *facts) {
    static const long cuts[] = {2, 3, 4, 8, 65, 66, 4097, 65537, -7, -300, -70000};
    char path[512];
    int have_file = ns__tmpfile(data, len, path, sizeof path) == 0;
    CHECK(have_file);
    int ok = 1;
    for (int mode = 0; mode < 3; mode++) {
        int nref, nfref = 0;
        char *ref = ns__reports(data, len, NULL, NS__WHOLE, mode, 1, NS_SIMD_NONE, &nref);
        /* a file's reports name the file: its own reference */
        char *fref = have_file ? ns__reports(data, len, path, NS__FILE, mode, 1, NS_SIMD_NONE, &nfref)
                               : NULL;
        if (mode == 0 && facts) *facts = strstr(ref, "\"metrics\":{\"") != NULL;
        /* each vector level (AVX-512: the sieve's own); SSE2 and AVX2
         * also with the skip's two passes (ns_scan_one_pass(0), the way of
         * a CPU without SSSE3) */
        for (int lp = 0; lp < 6; lp++) {
            int level = lp < 4 ? lp : lp - 3, passes = lp < 4 ? 1 : 2;
            if (ns_scan_simd(level) != level) continue; /* the CPU has not got it */
            ns_scan_one_pass(passes == 1);
            size_t ncuts = pieces ? sizeof cuts / sizeof cuts[0] : 0;
            for (size_t k = 0; k < 2 + ncuts; k++) {
                long how = k == 0 ? NS__WHOLE : k == 1 ? NS__FILE : cuts[k - 2];
                if (how == NS__FILE && !have_file) continue;
                int n;
                char *got = ns__reports(data, len, path, how, mode, 0, level, &n);
                const char *want = how == NS__FILE ? fref : ref;
                int nwant = how == NS__FILE ? nfref : nref;
                if (n != nwant || strcmp(got, want) != 0) {
                    printf("FAIL %s (mode %d, vector level %d, %d pass(es), %s%ld): %d reports, "
                           "not %d as every line gives, or other bytes\n",
                           what, mode, level, passes,
                           how == NS__WHOLE ? "whole" : how == NS__FILE ? "file" : "pieces ",
                           how > 1 ? how - 1 : how < 0 ? how : 0, n, nwant);
                    ok = 0;
                }
                free(got);
            }
        }
        ns_scan_simd(-1);
        ns_scan_one_pass(1);
        free(ref);
        free(fref);
    }
    if (have_file) unlink(path);
    return ok;
}

/* ====== Every fixture ====== */

static void test_fixtures(void) {
    DIR *d = check_fixtures_open();
    int files = 0, with_facts = 0;
    char path[512];
    while (check_fixtures_next(d, path, sizeof path)) {
        const char *name = path + strlen("tests/fixtures/");
        size_t len;
        char *data = check_slurp(path, &len);
        if (!data) continue;
        files++;
        int facts = 0;
        /* pieces for the NPU logs (the rest the whole and file reads) */
        CHECK(ns__same(name, data, len, strstr(name, "npu") != NULL, &facts));
        with_facts += facts;
        free(data);
    }
    CHECK(files > 25);
    CHECK(with_facts >= 8);
}

/* ====== Generated NPU-style logs ====== */

static unsigned ns__rnd(unsigned *s) {
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xffffff;
}

/* One line the hook reads, or noise, behind the vpux logger's prefix. */
static void ns__line_gen(ns_buf *b, unsigned *seed, int *strat) {
    unsigned r = ns__rnd(seed);
    char pfx[64];
    snprintf(pfx, sizeof pfx, "[INFO] %02u:%02u:%02u.%03u [vpux-compiler] ", r % 24, r % 60,
             (r / 7) % 60, r % 1000);
    if (*strat) { /* a strategy dump's JSON, line by line */
        static const char *const json[] = {"{", "  \"conv_1\": {\"tiles\": [1, 4, 1, 1]},",
                                           "  \"conv_2\": {\"tiles\": [1, 1, 1, 1]}", "}"};
        ns_buf_printf(b, "%s\n", json[*strat - 1]);
        *strat = *strat == 4 ? 0 : *strat + 1;
        return;
    }
    switch (ns__rnd(seed) % 40) {
    case 0: ns_buf_printf(b, "%sCompile net time: %u ms\n", pfx, r % 9000); break;
    case 1: ns_buf_printf(b, "%sCompilation memory usage: Peak %u KB\n", pfx, r); break;
    case 2: /* coloured, as the plugin does on a terminal */
        ns_buf_printf(b, "\033[32m%sCreated an MLIR thread pool with %u workers\033[0m\n", pfx,
                      r % 16);
        break;
    case 3: /* a colour code inside the text: only the cleaned line holds it */
        ns_buf_printf(b, "%sC\033[0mompile net time: %u ms\n", pfx, r % 777);
        break;
    case 4: ns_buf_printf(b, "%sTotal number of threads available for compilation: %u\r\n", pfx,
                          r % 64);
        break;
    case 5: /* progress rewritten with CRs, a fact after the last one */
        ns_buf_printf(b, "50%%\r100%%\r%sVPUIP Tasks - %u ops\n", pfx, r % 5000);
        break;
    case 6: /* a text cut by a CR: the hook sees only what follows it */
        ns_buf_printf(b, "%sCompile net\rtime: %u ms\n", pfx, r % 100);
        break;
    case 7:
        ns_buf_printf(b, "[INFO] 01:02:03.004 [memory-usage-collector] Peak memory usage after "
                         "'Pass%u' pass: %u kB, increase %u kB\n",
                      r % 5, 1000 + r % 90000, r % 900);
        break;
    case 8: ns_buf_printf(b, "%sTotal number of Inits: %u\n", pfx, 1 + r % 3); break;
    case 9: ns_buf_printf(b, "%sCompile Init[%u]\n", pfx, r % 3); break;
    case 10: ns_buf_printf(b, "%sCompile Main\n", pfx); break;
    case 11: ns_buf_printf(b, "[ NPUW:INFO ] START compiled_model/construct/model_%u\n", r % 4); break;
    case 12: ns_buf_printf(b, "[ NPUW:INFO ] START compiled_model/compile_subgraph[%u]\n", r % 9); break;
    case 13:
        ns_buf_printf(b, "[ NPUW:INFO ] END   compiled_model/compile_subgraph[%u] (%u.%03us)\n",
                      r % 9, r % 9, r % 1000);
        break;
    case 14: ns_buf_printf(b, "[ NPUW:INFO ] Compiling Subgraph[%u]: sub_%u...\n", r % 9, r % 50); break;
    case 15:
        ns_buf_printf(b, "[INFO] 01:02:03.004 [dump-statistics-of-ie-ops]     IE - %u (%u%%)\n",
                      r % 900, r % 100);
        break;
    case 16: ns_buf_printf(b, "%sEstimated inference latency: %u us\n", pfx, r % 9999); break;
    case 17: /* the strategy dump begins */
        ns_buf_printf(b, "%sFinal strategies for output pipelining:\n", pfx);
        ns_buf_printf(b, "%sStrategy\n", pfx);
        *strat = 1;
        break;
    case 18: ns_buf_printf(b, "%sThe time to convert data to model: %u.%u ms\n", pfx, r % 99, r % 10); break;
    case 19: ns_buf_printf(b, "%sModel preprocessing time: %u ms\n", pfx, r % 99); break;
    default: { /* noise of every length, sometimes with a head of a text */
        static const char *const words[] = {"Compiling", "Pass", "VPU.NCE", "[dump-other]",
                                            "Tiling", "Peak", "Total", "getCompiled", "Est", "x"};
        ns_buf_puts(b, pfx);
        unsigned k = ns__rnd(seed) % 12;
        for (unsigned i = 0; i < k; i++) ns_buf_printf(b, "%s ", words[ns__rnd(seed) % 10]);
        for (unsigned i = ns__rnd(seed) % 70; i; i--) ns_buf_putc(b, (char)('a' + i % 26));
        ns_buf_puts(b, "ok\n");
    }
    }
}

/* A log of about `bytes`: a shift of 0..63 bytes first, then lines and
 * now and then a report (two fixtures in turn). */
static char *ns__gen_log(unsigned seed, size_t bytes, size_t shift, const char *rep1,
                         const char *rep2, size_t *len) {
    ns_buf b = {0};
    ns_buf_puts(&b, "");
    for (size_t i = 0; i < shift; i++) ns_buf_putc(&b, 'a');
    ns_buf_putc(&b, '\n');
    int strat = 0, nth = 0;
    while (b.len < bytes) {
        ns__line_gen(&b, &seed, &strat);
        if (!strat && ns__rnd(&seed) % 400 == 0) ns_buf_puts(&b, nth++ % 2 ? rep2 : rep1);
    }
    ns_buf_puts(&b, rep1);
    *len = b.len;
    return b.data;
}

static void test_generated(void) {
    char *rep1 = check_slurp("tests/fixtures/constructed-npu-2025.log", NULL);
    char *rep2 = check_slurp("tests/fixtures/mlir22-tree-st.txt", NULL);
    CHECK(rep1 && rep2);
    if (!rep1 || !rep2) return;
    for (unsigned shift = 0; shift < 64; shift += 9) {
        size_t len;
        /* big enough for refills of the 256 KiB reads; pieces on a small one */
        char *big = ns__gen_log(1000u + shift, 900000, shift, rep1, rep2, &len);
        int facts = 0;
        char what[64];
        snprintf(what, sizeof what, "generated log, shift %u", shift);
        CHECK(ns__same(what, big, len, 0, &facts));
        CHECK(facts);
        free(big);
        char *small = ns__gen_log(77u + shift, 60000, shift, rep1, rep2, &len);
        snprintf(what, sizeof what, "small generated log, shift %u", shift);
        CHECK(ns__same(what, small, len, 1, &facts));
        CHECK(facts);
        free(small);
    }
    free(rep1);
    free(rep2);
}

/* ====== Texts at every place in a 64-byte block ======
 * The skip reads the noise 64 bytes at a time from where it starts, the
 * newlines and the places a text may begin from the same loads, and stops
 * at the first text it finds (parse/scan.c, "One pass").  So a fact line
 * is put where its text begins at each of the 64 offsets of a block, and
 * so crosses the block's end at every point, and once cut by its line's
 * end (the text's first part ends one line, the rest begins the next: no
 * fact, as the hook reading every line says); the reports must be what
 * every line gives, with the fact. */

/* A noise line of exactly k bytes (k >= 48), newline included. */
static void ns__noise_of(ns_buf *b, size_t k) {
    size_t at = b->len;
    ns_buf_puts(b, "[INFO] 10:00:00.000 [vpux-compiler] Schedule ");
    while (b->len - at < k - 1) ns_buf_putc(b, 'x');
    ns_buf_putc(b, '\n');
}

static void test_block_edges(void) {
    static const char *const facts[] = {
        "[INFO] 10:00:01.000 [compiler-threading]   Total number of threads available for "
        "compilation: 9\n",
        "[INFO] 10:00:01.000 [inference-execution-analysis]   Estimated inference latency: 5644 us "
        "in dpu frequency 1950 MHz\n",
        "[INFO] 10:00:01.000 [dump-statistics-of-task-ops]     VPUIP Tasks - 1648 ops\n",
    };
    static const char *const texts[] = {"Total number of threads", "Estimated inference latency",
                                        "VPUIP Tasks - "};
    char *rep = check_slurp("tests/fixtures/mlir22-tree-st.txt", NULL);
    CHECK(rep != NULL);
    if (!rep) return;
    int bad = 0, tried = 0, with_facts = 0;
    for (size_t f = 0; f < sizeof facts / sizeof facts[0]; f++) {
        size_t tpos = (size_t)(strstr(facts[f], texts[f]) - facts[f]);
        for (size_t d = 0; d < 64; d++) {
            ns_buf b = {0};
            /* the text split by a line's end, well before the fact line */
            ns_buf_puts(&b, "[INFO] 10:00:00.500 [vpux-compiler] Schedule ");
            ns_buf_add(&b, texts[f], 7);
            ns_buf_puts(&b, "\n");
            ns_buf_add(&b, texts[f] + 7, strlen(texts[f]) - 7);
            ns_buf_puts(&b, " 3\n");
            /* noise up to where the fact's text begins at 64 * 8 + d */
            size_t want = 64 * 8 + d - tpos;
            while (want - b.len > 160) ns__noise_of(&b, 80);
            ns__noise_of(&b, want - b.len);
            ns_buf_puts(&b, facts[f]);
            for (int i = 0; i < 5; i++) ns__noise_of(&b, 60 + (size_t)i * 7);
            ns_buf_puts(&b, rep);
            ns_buf_puts(&b, "[INFO] 10:00:09.000 [vpux-compiler] Compile net time: 62742 ms\n");
            for (int i = 0; i < 3; i++) ns__noise_of(&b, 70);
            char what[96];
            snprintf(what, sizeof what, "text %zu at offset %zu of a block", f, d);
            int has = 0;
            tried++;
            if (!ns__same(what, b.data, b.len, d % 16 == 0, &has)) bad++;
            with_facts += has;
            free(b.data);
        }
    }
    CHECK(tried == 192);
    CHECK(bad == 0);
    CHECK(with_facts == tried);
    free(rep);
}

/* ====== The search ====== */

/* needle set nd's exact answer for [s, s+n), one text at a time: at each
 * byte, memcmp with every text that starts with that byte (by_first: the
 * texts' indices by first byte, -1 ended).  Comparing every text at every
 * byte was nearly all of this program's time (40 s of a core under ASan). */
typedef struct {
    signed char idx[256][NS_NEEDLES_MAX + 1];
} ns__by_first;

static void ns__by_first_make(const ns_needles *nd, ns__by_first *bf) {
    int used[256] = {0};
    for (int c = 0; c < 256; c++) bf->idx[c][0] = -1;
    for (int j = 0; j < nd->n; j++) {
        unsigned char c = (unsigned char)nd->text[j][0];
        bf->idx[c][used[c]++] = (signed char)j;
        bf->idx[c][used[c]] = -1;
    }
}

static uint64_t ns__naive(const ns_needles *nd, const ns__by_first *bf, const char *s, size_t n,
                          size_t *first) {
    uint64_t m = 0;
    *first = n;
    for (size_t i = 0; i < n; i++)
        for (const signed char *j = bf->idx[(unsigned char)s[i]]; *j >= 0; j++)
            if (nd->len[*j] <= n - i && !memcmp(s + i, nd->text[*j], nd->len[*j])) {
                m |= (uint64_t)1 << *j;
                if (i < *first) *first = i;
            }
    return m;
}

static void test_search(void) {
    ns_needles nd;
    ns_npu_needles(&nd);
    ns__by_first bf;
    ns__by_first_make(&nd, &bf);
    unsigned seed = 99;
    char buf[200];
    int bad_next = 0, bad_which = 0, tried = 0;
    for (int level = NS_SIMD_NONE; level <= NS_SIMD_AVX2; level++) {
        nd.level = level;
        for (size_t n = 0; n <= 150; n++)
            for (int j = 0; j < nd.n; j++)
                for (size_t at = 0; at + nd.len[j] <= n; at += 1 + at / 8) {
                    for (size_t i = 0; i < n; i++) buf[i] = (char)(' ' + ns__rnd(&seed) % 90);
                    memcpy(buf + at, nd.text[j], nd.len[j]);
                    size_t first;
                    uint64_t want = ns__naive(&nd, &bf, buf, n, &first);
                    tried++;
                    if (ns_needles_next(&nd, buf, n, 0, level) != first) bad_next++;
                    if (ns_needles_which(&nd, buf, n) != want) bad_which++;
                    /* an escape byte before the text stops the search there */
                    if (at > 0) {
                        size_t e = ns__rnd(&seed) % at;
                        char keep = buf[e];
                        buf[e] = 0x1b;
                        if (ns_needles_next(&nd, buf, n, 1, level) > e) bad_next++;
                        buf[e] = keep;
                    }
                }
        /* nothing to find: the end */
        memset(buf, 'z', sizeof buf);
        CHECK(ns_needles_next(&nd, buf, sizeof buf, 1, level) == sizeof buf);
        CHECK(ns_needles_which(&nd, buf, sizeof buf) == 0);
    }
    CHECK(tried > 10000);
    CHECK(bad_next == 0);
    CHECK(bad_which == 0);
    if (bad_next || bad_which)
        printf("  %d searches found another place than the first text or escape, %d other texts "
               "than one at a time\n",
               bad_next, bad_which);
    /* the bits the hook dispatches by */
    CHECK(ns_needles_bit(&nd, "Compile Main") != 0);
    CHECK(ns_needles_bit(&nd, "not a needle") == 0);
}

int main(void) {
    test_search();
    test_fixtures();
    test_generated();
    test_block_edges();
    return check_summary("unit_npu_skip");
}
