/* unit_sweep.c -- unit tests of the sweep plan (src/sweep_plan.c): axis
 * lists and ranges, the configuration product, run order, shards,
 * placeholder substitution and run ids.  Nothing here runs a process; the
 * sweep command itself is tested by tests/run.sh.
 *
 * Every error case also checks that exactly one "npuscope: ..." message was
 * printed and that it names what was wrong (stderr is captured for that).
 *
 * Prints one line per failure and ends with "unit_sweep: N passed, N failed". */
#include "check.h"

#include "capture/sweep_plan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ====== Captured messages ====== */

static FILE *cap_file;
static int cap_saved = -1;

static void cap_begin(void) {
    fflush(stderr);
    cap_file = tmpfile();
    cap_saved = dup(2);
    if (cap_file) dup2(fileno(cap_file), 2);
}

/* The text written to stderr since cap_begin (to free). */
static char *cap_end(void) {
    fflush(stderr);
    if (cap_saved >= 0) {
        dup2(cap_saved, 2);
        close(cap_saved);
        cap_saved = -1;
    }
    ns_buf b = {0};
    if (cap_file) {
        rewind(cap_file);
        char chunk[4096];
        size_t n;
        while ((n = fread(chunk, 1, sizeof chunk, cap_file)) > 0)
            ns_buf_add(&b, chunk, n);
        fclose(cap_file);
        cap_file = NULL;
    }
    return b.data ? b.data : ns_strdup("");
}

static int count_lines(const char *s) {
    int n = 0;
    for (; *s; s++)
        if (*s == '\n') n++;
    return n;
}

/* expr must be true (it tests for the failure return), exactly one message
 * must have been printed, starting "npuscope: " and containing needle. */
#define FAILS(expr, needle)                                                  \
    do {                                                                     \
        cap_begin();                                                         \
        long e0_ = ns_error_count();                                         \
        int bad_ = (expr);                                                   \
        char *msg_ = cap_end();                                              \
        if (bad_ && ns_error_count() == e0_ + 1 && count_lines(msg_) == 1 && \
            strncmp(msg_, "npuscope: ", 10) == 0 && strstr(msg_, needle))    \
            passed++;                                                        \
        else {                                                               \
            failed++;                                                        \
            printf("FAIL %s:%d: %s fails with \"%s\"; got: %s\n", __FILE__,  \
                   __LINE__, #expr, needle, msg_);                           \
        }                                                                    \
        free(msg_);                                                          \
    } while (0)

/* The values of axis i joined by '|'. */
static int values_are(const ns_axes *a, int i, const char *want) {
    ns_buf b = {0};
    for (int v = 0; v < a->axes[i].nvalues; v++) {
        if (v) ns_buf_putc(&b, '|');
        ns_buf_puts(&b, a->axes[i].values[v]);
    }
    int same = b.data && strcmp(b.data, want) == 0;
    if (!same) printf("  axis %d values '%s', want '%s'\n", i, b.data ? b.data : "", want);
    ns_buf_free(&b);
    return same;
}

/* ====== Lists ====== */

static void test_lists(void) {
    ns_axes a = {0};
    CHECK(ns_axes_configs(&a) == 1);
    CHECK(ns_axes_add_list(&a, "model=qwen1.5b,qwen7b") == 0);
    CHECK(a.naxes == 1 && strcmp(a.axes[0].name, "model") == 0 && a.axes[0].nvalues == 2);
    CHECK(values_are(&a, 0, "qwen1.5b|qwen7b"));
    /* hostile values are bytes, kept verbatim */
    CHECK(ns_axes_add_list(&a, "v=with space,$(rm -rf /),a;b,\"dq\" 'sq',/etc/passwd,..,.hidden,`id`,a=b,*?[x]") == 0);
    CHECK(a.naxes == 2 && a.axes[1].nvalues == 10);
    CHECK(values_are(&a, 1, "with space|$(rm -rf /)|a;b|\"dq\" 'sq'|/etc/passwd|..|.hidden|`id`|a=b|*?[x]"));
    CHECK(ns_axes_add_list(&a, "_x9=only") == 0 && a.naxes == 3 && values_are(&a, 2, "only"));
    CHECK(ns_axes_add_list(&a, "utf=\xc3\xa9t\xc3\xa9,tab\there") == 0 && values_are(&a, 3, "\xc3\xa9t\xc3\xa9|tab\there"));
    CHECK(ns_axes_find(&a, "v") == 1 && ns_axes_find(&a, "nope") == -1 && ns_axes_find(&a, "mode") == -1);
    CHECK(ns_axes_configs(&a) == 2 * 10 * 1 * 2);

    /* bad specs: one message each, and the axes stay as they were */
    FAILS(ns_axes_add_list(&a, "model") < 0, "expected NAME=VALUES");
    FAILS(ns_axes_add_list(&a, "=a,b") < 0, "name is empty");
    FAILS(ns_axes_add_list(&a, "9lives=a") < 0, "'9lives' must match");
    FAILS(ns_axes_add_list(&a, "a-b=1") < 0, "'a-b' must match");
    FAILS(ns_axes_add_list(&a, "a b=1") < 0, "must match");
    FAILS(ns_axes_add_list(&a, "model=x,y") < 0, "'model' is already defined");
    FAILS(ns_axes_add_list(&a, "e=") < 0, "value 1 of axis 'e' is empty");
    FAILS(ns_axes_add_list(&a, "e=a,,b") < 0, "value 2 of axis 'e' is empty");
    FAILS(ns_axes_add_list(&a, "e=a,") < 0, "value 2 of axis 'e' is empty");
    FAILS(ns_axes_add_list(&a, "e=,a") < 0, "value 1 of axis 'e' is empty");
    FAILS(ns_axes_add_list(&a, "e=x,y,x") < 0, "value 'x' of axis 'e' is given twice");
    CHECK(a.naxes == 4 && ns_axes_configs(&a) == 40);
    ns_axes_free(&a);
    CHECK(a.naxes == 0 && a.axes == NULL);
}

static void test_limits(void) {
    ns_axes a = {0};
    ns_buf b = {0};
    ns_buf_puts(&b, "a=");
    for (int i = 0; i < 1000; i++) ns_buf_printf(&b, "%s%d", i ? "," : "", i);
    CHECK(ns_axes_add_list(&a, b.data) == 0);
    b.data[0] = 'b';
    CHECK(ns_axes_add_list(&a, b.data) == 0);
    CHECK(ns_axes_configs(&a) == 1000000);
    CHECK(ns_axes_add_list(&a, "c=one") == 0); /* x1 still fits */
    FAILS(ns_axes_add_list(&a, "d=x,y") < 0, "2000000 configurations");
    FAILS(ns_axes_add_range(&a, "d=1:2:1") < 0, "configurations");
    CHECK(a.naxes == 3);
    ns_axes_free(&a);
    ns_buf_free(&b);
}

/* ====== Ranges ====== */

static void test_ranges(void) {
    ns_axes a = {0};
    CHECK(ns_axes_add_range(&a, "window=128:32768:*2") == 0);
    CHECK(a.axes[0].nvalues == 9 && values_are(&a, 0, "128|256|512|1024|2048|4096|8192|16384|32768"));
    CHECK(ns_axes_add_range(&a, "p=1:2:0.25") == 0 && values_are(&a, 1, "1|1.25|1.5|1.75|2"));
    CHECK(ns_axes_add_range(&a, "f=0.1:0.3:0.1") == 0 && values_are(&a, 2, "0.1|0.2|0.3"));
    CHECK(ns_axes_add_range(&a, "t=0:1:0.1") == 0 &&
          values_are(&a, 3, "0|0.1|0.2|0.3|0.4|0.5|0.6|0.7|0.8|0.9|1"));
    CHECK(ns_axes_add_range(&a, "s=1:10:3") == 0 && values_are(&a, 4, "1|4|7|10"));
    CHECK(ns_axes_add_range(&a, "u=1:9:3") == 0 && values_are(&a, 5, "1|4|7"));
    CHECK(ns_axes_add_range(&a, "n=-1:1:0.5") == 0 && values_are(&a, 6, "-1|-0.5|0|0.5|1"));
    CHECK(ns_axes_add_range(&a, "one=5:5:1") == 0 && values_are(&a, 7, "5"));
    ns_axes_free(&a);

    CHECK(ns_axes_add_range(&a, "g=1:10:*1.5") == 0 && values_are(&a, 0, "1|1.5|2.25|3.375|5.0625|7.59375"));
    CHECK(ns_axes_add_range(&a, "e=1e3:1E4:*10") == 0 && values_are(&a, 1, "1000|10000"));
    CHECK(ns_axes_add_range(&a, "small=0:0.00002:0.00001") == 0 && values_are(&a, 2, "0|0.00001|0.00002"));
    CHECK(ns_axes_add_range(&a, "pos=+2:+3:.5") == 0 && values_are(&a, 3, "2|2.5|3"));
    CHECK(ns_axes_add_range(&a, "neg=-0.3:0:0.1") == 0 && values_are(&a, 4, "-0.3|-0.2|-0.1|0"));
    CHECK(ns_axes_add_range(&a, "z=-0:0:1") == 0 && values_are(&a, 5, "0"));
    CHECK(ns_axes_add_range(&a, "big=1e20:1e21:*10") == 0 && values_are(&a, 6, "1e+20|1e+21"));
    CHECK(ns_axes_add_range(&a, "r=0.5:1:*1.5") == 0 && values_are(&a, 7, "0.5|0.75"));
    ns_axes_free(&a);
    CHECK(ns_axes_add_range(&a, "k=1:100000:1") == 0 && a.axes[0].nvalues == 100000 &&
          strcmp(a.axes[0].values[99999], "100000") == 0);
    ns_axes_free(&a);
    CHECK(ns_axes_add_list(&a, "pad=x") == 0); /* keeps the indices below */
    /* a step finer than the 1e-9 end-point tolerance: LO is still the first value */
    CHECK(ns_axes_add_range(&a, "fg=1:1.0000000001:*1.00000000001") == 0 && a.axes[1].nvalues == 11 &&
          strcmp(a.axes[1].values[0], "1") == 0 && strcmp(a.axes[1].values[1], "1.00000000001") == 0 &&
          strcmp(a.axes[1].values[10], "1.0000000001") == 0);
    CHECK(ns_axes_add_range(&a, "fa=1:1.000000001:0.0000000001") == 0 && a.axes[2].nvalues == 11 &&
          strcmp(a.axes[2].values[0], "1") == 0 && strcmp(a.axes[2].values[1], "1.0000000001") == 0 &&
          strcmp(a.axes[2].values[10], "1.000000001") == 0);
    ns_axes_free(&a);

    FAILS(ns_axes_add_range(&a, "w") < 0, "expected NAME=VALUES");
    FAILS(ns_axes_add_range(&a, "1w=1:2:1") < 0, "must match");
    FAILS(ns_axes_add_range(&a, "w=1:2") < 0, "LO:HI:STEP");
    FAILS(ns_axes_add_range(&a, "w=1:2:3:4") < 0, "LO:HI:STEP");
    FAILS(ns_axes_add_range(&a, "w=a:2:1") < 0, "decimal numbers");
    FAILS(ns_axes_add_range(&a, "w=:2:1") < 0, "decimal numbers");
    FAILS(ns_axes_add_range(&a, "w= 1:2:1") < 0, "decimal numbers");
    FAILS(ns_axes_add_range(&a, "w=1:2:0.5x") < 0, "decimal numbers");
    FAILS(ns_axes_add_range(&a, "w=nan:1:1") < 0, "decimal numbers");
    FAILS(ns_axes_add_range(&a, "w=1:inf:1") < 0, "decimal numbers");
    FAILS(ns_axes_add_range(&a, "w=0x10:20:1") < 0, "decimal numbers");
    FAILS(ns_axes_add_range(&a, "w=1e999:1e999:1") < 0, "decimal numbers");
    FAILS(ns_axes_add_range(&a, "w=1:2:1e") < 0, "decimal numbers");
    FAILS(ns_axes_add_range(&a, "w=1,5:2:1") < 0, "decimal numbers");
    FAILS(ns_axes_add_range(&a, "w=1:2:*") < 0, "decimal numbers");
    FAILS(ns_axes_add_range(&a, "w=1:2:0") < 0, "STEP must be greater than 0");
    FAILS(ns_axes_add_range(&a, "w=1:2:-1") < 0, "STEP must be greater than 0");
    FAILS(ns_axes_add_range(&a, "w=2:1:1") < 0, "LO is greater than HI");
    FAILS(ns_axes_add_range(&a, "w=1:8:*1") < 0, "greater than 1");
    FAILS(ns_axes_add_range(&a, "w=1:8:*0.5") < 0, "greater than 1");
    FAILS(ns_axes_add_range(&a, "w=0:8:*2") < 0, "LO > 0");
    FAILS(ns_axes_add_range(&a, "w=-1:8:*2") < 0, "LO > 0");
    FAILS(ns_axes_add_range(&a, "w=1:2:1e-9") < 0, "more than 100000 values");
    FAILS(ns_axes_add_range(&a, "w=1:100001:1") < 0, "more than 100000 values");
    FAILS(ns_axes_add_range(&a, "w=1:2:*1.0000000001") < 0, "more than 100000 values");
    FAILS(ns_axes_add_range(&a, "w=1e16:1.000000000000001e16:1") < 0, "too small for the precision");
    CHECK(a.naxes == 0);
    CHECK(ns_axes_add_list(&a, "w=1") == 0);
    FAILS(ns_axes_add_range(&a, "w=1:2:1") < 0, "'w' is already defined");
    ns_axes_free(&a);
}

/* ====== Configurations ====== */

static void test_configs(void) {
    ns_axes a = {0};
    int idx[3] = {-1, -1, -1};
    ns_axes_config(&a, 0, idx); /* no axes: nothing written */
    CHECK(idx[0] == -1 && ns_axes_configs(&a) == 1);
    CHECK(ns_axes_add_list(&a, "a=x,y") == 0);
    CHECK(ns_axes_add_list(&a, "b=1,2,3") == 0);
    CHECK(ns_axes_add_list(&a, "c=p,q") == 0);
    CHECK(ns_axes_configs(&a) == 12);
    ns_axes_config(&a, 0, idx);
    CHECK(idx[0] == 0 && idx[1] == 0 && idx[2] == 0);
    ns_axes_config(&a, 1, idx);
    CHECK(idx[0] == 0 && idx[1] == 0 && idx[2] == 1);
    ns_axes_config(&a, 2, idx);
    CHECK(idx[0] == 0 && idx[1] == 1 && idx[2] == 0);
    ns_axes_config(&a, 6, idx);
    CHECK(idx[0] == 1 && idx[1] == 0 && idx[2] == 0);
    ns_axes_config(&a, 11, idx);
    CHECK(idx[0] == 1 && idx[1] == 2 && idx[2] == 1);
    int all = 1;
    for (size_t c = 0; c < 12; c++) {
        ns_axes_config(&a, c, idx);
        if ((size_t)((idx[0] * 3 + idx[1]) * 2 + idx[2]) != c) all = 0;
    }
    CHECK(all);
    ns_axes_free(&a);
}

/* ====== Plans ====== */

static int item_is(const ns_plan_item *it, size_t c, int m, int r, int w) {
    return it->config == c && it->mode == m && it->repeat == r && it->warmup == w;
}

static void test_plan_order(void) {
    ns_axes a = {0};
    CHECK(ns_axes_add_list(&a, "x=p,q") == 0);
    ns_plan p = {0};

    /* interleave: warmups config-major, then repeat-major */
    CHECK(ns_plan_build(&p, &a, 2, 2, 1, NS_ORDER_INTERLEAVE, 0, 1) == 0 && p.n == 12);
    static const int inter[12][4] = {
        {0, 0, 1, 1}, {0, 1, 1, 1}, {1, 0, 1, 1}, {1, 1, 1, 1},
        {0, 0, 1, 0}, {0, 1, 1, 0}, {1, 0, 1, 0}, {1, 1, 1, 0},
        {0, 0, 2, 0}, {0, 1, 2, 0}, {1, 0, 2, 0}, {1, 1, 2, 0}};
    int ok = p.n == 12;
    for (size_t i = 0; ok && i < 12; i++)
        ok = item_is(&p.items[i], (size_t)inter[i][0], inter[i][1], inter[i][2], inter[i][3]);
    CHECK(ok);
    ns_plan_free(&p);
    CHECK(p.n == 0 && p.items == NULL);

    /* grouped: per config and mode, warmups then repeats */
    CHECK(ns_plan_build(&p, &a, 2, 2, 2, NS_ORDER_GROUPED, 0, 1) == 0 && p.n == 16);
    static const int grouped[16][4] = {
        {0, 0, 1, 1}, {0, 0, 2, 1}, {0, 0, 1, 0}, {0, 0, 2, 0},
        {0, 1, 1, 1}, {0, 1, 2, 1}, {0, 1, 1, 0}, {0, 1, 2, 0},
        {1, 0, 1, 1}, {1, 0, 2, 1}, {1, 0, 1, 0}, {1, 0, 2, 0},
        {1, 1, 1, 1}, {1, 1, 2, 1}, {1, 1, 1, 0}, {1, 1, 2, 0}};
    ok = p.n == 16;
    for (size_t i = 0; ok && i < 16; i++)
        ok = item_is(&p.items[i], (size_t)grouped[i][0], grouped[i][1], grouped[i][2], grouped[i][3]);
    CHECK(ok);
    ns_plan_free(&p);

    /* no warmups, one mode, no axes */
    ns_axes none = {0};
    CHECK(ns_plan_build(&p, &none, 1, 3, 0, NS_ORDER_INTERLEAVE, 0, 1) == 0 && p.n == 3 &&
          item_is(&p.items[0], 0, 0, 1, 0) && item_is(&p.items[2], 0, 0, 3, 0));
    ns_plan_free(&p);
    CHECK(ns_plan_build(&p, &none, 1, 0, 0, NS_ORDER_GROUPED, 0, 1) == 0 && p.n == 0);
    ns_plan_free(&p);

    /* bad arguments leave the plan untouched */
    p.n = 77;
    FAILS(ns_plan_build(&p, &a, 0, 1, 0, NS_ORDER_INTERLEAVE, 0, 1) < 0, "at least one mode");
    FAILS(ns_plan_build(&p, &a, 1, -1, 0, NS_ORDER_INTERLEAVE, 0, 1) < 0, "repeats -1");
    FAILS(ns_plan_build(&p, &a, 1, 1, -2, NS_ORDER_INTERLEAVE, 0, 1) < 0, "warmups -2");
    FAILS(ns_plan_build(&p, &a, 1, 1, 0, NS_ORDER_INTERLEAVE, 4, 4) < 0, "shard 4/4");
    FAILS(ns_plan_build(&p, &a, 1, 1, 0, NS_ORDER_INTERLEAVE, 0, 0) < 0, "shard 0/0");
    FAILS(ns_plan_build(&p, &a, 1, 1, 0, NS_ORDER_INTERLEAVE, -1, 2) < 0, "shard -1/2");
    FAILS(ns_plan_build(&p, &a, 1, 1, 0, (ns_order)7, 0, 1) < 0, "unknown order");
    FAILS(ns_plan_build(&p, &a, 1000, 10000, 0, NS_ORDER_INTERLEAVE, 0, 1) < 0, "20000000 runs");
    CHECK(p.n == 77 && p.items == NULL);
    ns_axes_free(&a);
}

static int cmp_item(const void *x, const void *y) {
    const ns_plan_item *a = x, *b = y;
    if (a->config != b->config) return a->config < b->config ? -1 : 1;
    if (a->mode != b->mode) return a->mode - b->mode;
    if (a->warmup != b->warmup) return a->warmup - b->warmup;
    return a->repeat - b->repeat;
}

static void test_shards(void) {
    ns_axes a = {0};
    CHECK(ns_axes_add_list(&a, "m=a,b,c,d,e") == 0);
    CHECK(ns_axes_add_list(&a, "w=1,2") == 0); /* 10 configs, 4 shards: uneven */
    for (int o = 0; o < 2; o++) {
        ns_order order = o ? NS_ORDER_GROUPED : NS_ORDER_INTERLEAVE;
        ns_plan all = {0};
        CHECK(ns_plan_build(&all, &a, 2, 3, 1, order, 0, 1) == 0 && all.n == 10 * 2 * 4);
        ns_plan_item *merged = ns_xmalloc(sizeof *merged * all.n);
        size_t nmerged = 0;
        int owner[10];
        for (int c = 0; c < 10; c++) owner[c] = -1;
        int filtered_same = 1, one_owner = 1;
        for (int k = 0; k < 4; k++) {
            ns_plan sh = {0};
            CHECK(ns_plan_build(&sh, &a, 2, 3, 1, order, k, 4) == 0);
            /* the shard is the unsharded plan filtered, order preserved */
            size_t j = 0;
            for (size_t i = 0; i < all.n; i++) {
                if (all.items[i].config % 4 != (size_t)k) continue;
                if (j >= sh.n || cmp_item(&all.items[i], &sh.items[j]) != 0) filtered_same = 0;
                j++;
            }
            if (j != sh.n) filtered_same = 0;
            for (size_t i = 0; i < sh.n && nmerged < all.n; i++) {
                size_t c = sh.items[i].config;
                if (owner[c] >= 0 && owner[c] != k) one_owner = 0;
                owner[c] = k;
                merged[nmerged++] = sh.items[i];
            }
            ns_plan_free(&sh);
        }
        CHECK(filtered_same);
        CHECK(one_owner);
        int every_config = 1;
        for (int c = 0; c < 10; c++)
            if (owner[c] != c % 4) every_config = 0;
        CHECK(every_config);
        /* the union of the shards is the unsharded plan, as a multiset */
        CHECK(nmerged == all.n);
        qsort(merged, nmerged, sizeof *merged, cmp_item);
        qsort(all.items, all.n, sizeof *all.items, cmp_item);
        int same = nmerged == all.n;
        for (size_t i = 0; same && i < all.n; i++) same = cmp_item(&merged[i], &all.items[i]) == 0;
        CHECK(same);
        free(merged);
        ns_plan_free(&all);
    }
    /* more shards than configurations: the extra shards are empty */
    ns_axes two = {0};
    CHECK(ns_axes_add_list(&two, "x=1,2") == 0);
    ns_plan p = {0};
    CHECK(ns_plan_build(&p, &two, 1, 2, 0, NS_ORDER_INTERLEAVE, 3, 4) == 0 && p.n == 0);
    ns_plan_free(&p);
    CHECK(ns_plan_build(&p, &two, 1, 2, 0, NS_ORDER_INTERLEAVE, 1, 4) == 0 && p.n == 2 &&
          item_is(&p.items[0], 1, 0, 1, 0) && item_is(&p.items[1], 1, 0, 2, 0));
    ns_plan_free(&p);
    ns_axes_free(&two);
    ns_axes_free(&a);

    int k = -1, n = -1;
    CHECK(ns_shard_parse("0/1", &k, &n) == 0 && k == 0 && n == 1);
    CHECK(ns_shard_parse("3/4", &k, &n) == 0 && k == 3 && n == 4);
    CHECK(ns_shard_parse("007/010", &k, &n) == 0 && k == 7 && n == 10);
    k = n = -1;
    FAILS(ns_shard_parse("4/4", &k, &n) < 0, "K must be 0..3");
    FAILS(ns_shard_parse("1/0", &k, &n) < 0, "N must be at least 1");
    FAILS(ns_shard_parse("-1/4", &k, &n) < 0, "expected K/N");
    FAILS(ns_shard_parse("a/b", &k, &n) < 0, "expected K/N");
    FAILS(ns_shard_parse("1/", &k, &n) < 0, "expected K/N");
    FAILS(ns_shard_parse("/2", &k, &n) < 0, "expected K/N");
    FAILS(ns_shard_parse("1/2/3", &k, &n) < 0, "expected K/N");
    FAILS(ns_shard_parse("1 /2", &k, &n) < 0, "expected K/N");
    FAILS(ns_shard_parse("", &k, &n) < 0, "expected K/N");
    FAILS(ns_shard_parse("1", &k, &n) < 0, "expected K/N");
    FAILS(ns_shard_parse("0/99999999999", &k, &n) < 0, "expected K/N");
    CHECK(k == -1 && n == -1);
}

/* ====== Placeholders ====== */

static void test_subst(void) {
    ns_axes a = {0};
    CHECK(ns_axes_add_list(&a, "model=qwen1.5b,qwen7b") == 0);
    CHECK(ns_axes_add_range(&a, "window=128:256:*2") == 0);
    CHECK(ns_axes_add_list(&a, "evil=$(rm -rf /);x,a b") == 0);
    int idx[3] = {1, 0, 0};
    char *s;
#define SUBST_IS(tmpl, want)                                                 \
    do {                                                                     \
        s = ns_axes_subst_new(&a, idx, tmpl);                                \
        CHECK(s && strcmp(s, want) == 0);                                    \
        if (s && strcmp(s, want) != 0) printf("  got '%s'\n", s);            \
        free(s);                                                             \
    } while (0)
    SUBST_IS("{model}", "qwen7b");
    SUBST_IS("--model={model}", "--model=qwen7b");
    SUBST_IS("--window={window}", "--window=128");
    SUBST_IS("out/{model}-w{window}.blob", "out/qwen7b-w128.blob");
    SUBST_IS("{model}{window}{model}", "qwen7b128qwen7b");
    SUBST_IS("{{literal}}", "{literal}");
    SUBST_IS("{{{model}}}", "{qwen7b}");
    SUBST_IS("{{\"w\": {window}}}", "{\"w\": 128}");
    SUBST_IS("plain text", "plain text");
    SUBST_IS("", "");
    SUBST_IS("--x={evil}", "--x=$(rm -rf /);x");
    idx[0] = 0;
    idx[1] = 1;
    idx[2] = 1;
    SUBST_IS("{model} {window} {evil}", "qwen1.5b 256 a b");

    FAILS((s = ns_axes_subst_new(&a, idx, "--p={precision}")) == NULL, "unknown placeholder {precision}");
    FAILS((s = ns_axes_subst_new(&a, idx, "--p={precision}")) == NULL, "template '--p={precision}'");
    /* braces that are not {identifier} are text: MLIR pass options, JSON,
     * awk programs pass through untouched */
    SUBST_IS("{}", "{}");
    FAILS((s = ns_axes_subst_new(&a, idx, "{Model}")) == NULL, "axes: model, window, evil");
    SUBST_IS("--window={window", "--window={window");
    SUBST_IS("{model}{", "qwen1.5b{");
    SUBST_IS("awk '{print $1}'", "awk '{print $1}'");
    SUBST_IS("a}b", "a}b");
    SUBST_IS("builtin.module(canonicalize{max-iterations=3})", "builtin.module(canonicalize{max-iterations=3})");
    SUBST_IS("{\"a\":1}", "{\"a\":1}");
    SUBST_IS("canonicalize{max-iterations={window}}", "canonicalize{max-iterations=256}");

    ns_axes none = {0};
    FAILS((s = ns_axes_subst_new(&none, NULL, "{x}")) == NULL, "axes: none");
    s = ns_axes_subst_new(&none, NULL, "{{x}}");
    CHECK(s && strcmp(s, "{x}") == 0);
    free(s);

    int used[3] = {0, 0, 0};
    CHECK(ns_axes_mark_used(&a, "{evil} and {{model}}", used) == 0 &&
          used[0] == 0 && used[1] == 0 && used[2] == 1);
    CHECK(ns_axes_mark_used(&a, "--m={model}", used) == 0 && used[0] == 1 && used[2] == 1);
    FAILS(ns_axes_mark_used(&a, "{nope}", used) < 0, "{nope}");
#undef SUBST_IS
    ns_axes_free(&a);
}

/* ====== Run ids ====== */

static uint32_t fnv(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* One path component, safe whatever the values were. */
static int id_safe(const char *id) {
    if (!id || !*id || id[0] == '.' || strlen(id) > 160) return 0;
    for (const char *p = id; *p; p++) {
        char c = *p;
        int ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                 (c >= '0' && c <= '9') || c == '.' || c == '+' || c == '-' || c == '_';
        if (!ok) return 0;
    }
    return 1;
}

static int cmp_str(const void *x, const void *y) {
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static void test_run_ids(void) {
    CHECK(fnv("") == 0x811c9dc5u && fnv("a") == 0xe40c292cu); /* reference vectors */
    ns_axes none = {0};
    char *id = ns_run_id_new(&none, NULL, NULL, 0, "cold", 1, 0);
    CHECK(id && strcmp(id, "run-811c9dc5-cold-r01") == 0);
    free(id);
    id = ns_run_id_new(&none, NULL, NULL, 0, NULL, 123, 1);
    CHECK(id && strcmp(id, "run-811c9dc5-none-w123") == 0);
    free(id);

    ns_axes a = {0};
    CHECK(ns_axes_add_list(&a, "model=qwen7b") == 0);
    CHECK(ns_axes_add_range(&a, "window=128:256:*2") == 0);
    int idx[2] = {0, 0};
    char want[128];
    snprintf(want, sizeof want, "model-qwen7b_window-128-%08x-warm-r03",
             (unsigned)fnv("model=qwen7b\nwindow=128\n"));
    id = ns_run_id_new(&a, idx, NULL, 0, "warm", 3, 0);
    CHECK(id && strcmp(id, want) == 0);
    free(id);
    snprintf(want, sizeof want, "model-qwen7b_window-256-%08x-cold-w02",
             (unsigned)fnv("model=qwen7b\nwindow=256\n"));
    idx[1] = 1;
    id = ns_run_id_new(&a, idx, NULL, 0, "cold", 2, 1);
    CHECK(id && strcmp(id, want) == 0);
    free(id);
    /* extra tags change the hash only, deterministically */
    const char *tags[2] = {"host=lab1", "compiler=a/b"};
    snprintf(want, sizeof want, "model-qwen7b_window-256-%08x-cold-r01",
             (unsigned)fnv("model=qwen7b\nwindow=256\ntag:host=lab1\ntag:compiler=a/b\n"));
    id = ns_run_id_new(&a, idx, tags, 2, "cold", 1, 0);
    char *again = ns_run_id_new(&a, idx, tags, 2, "cold", 1, 0);
    CHECK(id && strcmp(id, want) == 0 && again && strcmp(id, again) == 0);
    free(id);
    free(again);
    id = ns_run_id_new(&a, idx, NULL, 0, "a/b c", 1, 0);
    CHECK(id && strstr(id, "-a_b_c-r01") && id_safe(id));
    free(id);
    ns_axes_free(&a);

    /* hostile values: ids stay single safe components, and unique */
    ns_buf longv = {0}, longw = {0};
    ns_buf_puts(&longv, "v=");
    ns_buf_pad(&longv, 'x', 5000);
    ns_buf_puts(&longv, "1,");
    ns_buf_pad(&longv, 'x', 5000);
    ns_buf_puts(&longv, "2,a/b,a_b,..,.,/etc/passwd,../../etc,.hidden,$(rm -rf /),\xc3\xa9,a\nb");
    CHECK(ns_axes_add_list(&a, longv.data) == 0 && a.axes[0].nvalues == 12);
    ns_buf_puts(&longw, "w=");
    ns_buf_pad(&longw, 'y', 300);
    ns_buf_puts(&longw, ",1");
    CHECK(ns_axes_add_list(&a, longw.data) == 0);
    ns_plan p = {0};
    CHECK(ns_plan_build(&p, &a, 2, 2, 1, NS_ORDER_INTERLEAVE, 0, 1) == 0 && p.n == 24 * 2 * 3);
    const char *modes[2] = {"cold", "warm"};
    char **ids = ns_xmalloc(sizeof *ids * p.n);
    int all_safe = 1;
    for (size_t i = 0; i < p.n; i++) {
        ns_axes_config(&a, p.items[i].config, idx);
        ids[i] = ns_run_id_new(&a, idx, NULL, 0, modes[p.items[i].mode],
                               p.items[i].repeat, p.items[i].warmup);
        if (!id_safe(ids[i]) || strcmp(ids[i], ".") == 0 || strcmp(ids[i], "..") == 0 ||
            strchr(ids[i], '/')) {
            all_safe = 0;
            printf("  unsafe id '%s'\n", ids[i]);
        }
    }
    CHECK(all_safe);
    qsort(ids, p.n, sizeof *ids, cmp_str);
    int unique = 1;
    for (size_t i = 1; i < p.n; i++)
        if (strcmp(ids[i - 1], ids[i]) == 0) {
            unique = 0;
            printf("  duplicate id '%s'\n", ids[i]);
        }
    CHECK(unique);
    for (size_t i = 0; i < p.n; i++) free(ids[i]);
    free(ids);
    ns_plan_free(&p);

    /* the slug is cut at 80 bytes; "a/b" and "a_b" share a slug, not an id */
    idx[0] = 0;
    idx[1] = 0;
    id = ns_run_id_new(&a, idx, NULL, 0, "cold", 1, 0);
    CHECK(id && strncmp(id, "v-xxx", 5) == 0 && strlen(id) == 80 + 1 + 8 + 1 + 4 + 4 &&
          id[80] == '-');
    free(id);
    idx[0] = 2;
    char *ab = ns_run_id_new(&a, idx, NULL, 0, "cold", 1, 0);
    idx[0] = 3;
    char *a_b = ns_run_id_new(&a, idx, NULL, 0, "cold", 1, 0);
    CHECK(ab && a_b && strncmp(ab, "v-a_b_w-", 8) == 0 && strncmp(a_b, "v-a_b_w-", 8) == 0 &&
          strcmp(ab, a_b) != 0);
    free(ab);
    free(a_b);
    ns_axes_free(&a);
    ns_buf_free(&longv);
    ns_buf_free(&longw);

    /* an axes object built by hand (not through the parsers) with a dot
     * name still gives no leading '.' */
    char *vals[1] = {(char *)".."};
    ns_axis ax = {(char *)".", vals, 1};
    ns_axes hand = {&ax, 1};
    int zero = 0;
    id = ns_run_id_new(&hand, &zero, NULL, 0, "..", 1, 0);
    CHECK(id && id_safe(id) && strncmp(id, "_-..-", 5) == 0);
    free(id);
}

int main(void) {
    ns_diag_quiet(1);
    test_lists();
    test_limits();
    test_ranges();
    test_configs();
    test_plan_order();
    test_shards();
    test_subst();
    test_run_ids();
    return check_summary("unit_sweep");
}
