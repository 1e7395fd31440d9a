/* unit_table.c -- unit tests of the grid of a sweep (src/analyse/table.c)
 * and of the text grid writer (src/render/grid.c), on runs built here.
 *
 * The table: rows are configuration x mode, sorted with numbers as
 * numbers, statistics only over counted runs, cold/warm cache x on both
 * rows, baseline ratios and their summary, the median run; two tables built
 * with different key orders in one program do not see each other's order
 * (the sort reads no global).  The grid: alignment, no padding at a line's
 * end, control characters blanked, Markdown escaping and its rule; fitted
 * to a width (render/width.h): names shortened in the middle, a column of
 * lower priority left out with a note, numbers whole, wrapping at blanks.
 *
 * Prints one line per failure and ends with "unit_table: N passed, N failed". */
#include "check.h"

#include "analyse/table.h"
#include "render/grid.h"
#include "render/width.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ====== Runs ====== */

/* A run with tags "k=v,k=v", a mode and a wall time; ok unless `bad`. */
static void run_make(ns_run *r, const char *tags, const char *mode, double wall, int bad) {
    memset(r, 0, sizeof *r);
    r->id = ns_strdup("r");
    r->mode = ns_strdup(mode);
    r->wall_s = wall;
    r->user_s = wall;
    r->peak_rss_mb = 100;
    r->exit_code = bad ? 1 : 0;
    char *t = ns_strdup(tags);
    for (char *s = strtok(t, ","); s; s = strtok(NULL, ",")) ns_kv_parse(&r->tags, s);
    free(t);
}

/* The row with tags/mode, or NULL. */
static const ns_table_row *row_of(const ns_table *t, const char *window, const char *prec,
                                  const char *mode) {
    for (int i = 0; i < t->nrows; i++) {
        const ns_table_row *x = &t->rows[i];
        const char *w = ns_table_tag(x, "window"), *p = ns_table_tag(x, "precision");
        if (w && p && !strcmp(w, window) && !strcmp(p, prec) && !strcmp(x->cfg.mode, mode)) return x;
    }
    return NULL;
}

static void test_table(void) {
    ns_run runs[12];
    int n = 0;
    run_make(&runs[n++], "window=1024,precision=int8", "cold", 8, 0);
    run_make(&runs[n++], "window=128,precision=int8", "cold", 3, 0);
    run_make(&runs[n++], "window=128,precision=int8", "cold", 1, 0);
    run_make(&runs[n++], "window=128,precision=int8", "cold", 2, 0);
    run_make(&runs[n++], "window=128,precision=int8", "cold", 50, 1); /* failed: not counted */
    run_make(&runs[n++], "window=128,precision=int8", "warm", 0.5, 0);
    run_make(&runs[n++], "window=128,precision=int4", "cold", 1.5, 0);
    run_make(&runs[n++], "window=1024,precision=int4", "cold", 4, 0);
    runs[n - 1].warmup = 1; /* a warmup: counted apart */
    run_make(&runs[n++], "window=1024,precision=int4", "cold", 6, 0);

    ns_table t;
    ns_table_init(&t);
    ns_table_opts o = {NULL, "precision", "int8"};
    ns_table_build(&t, runs, n, &o);
    CHECK(t.nrows == 5);
    CHECK(t.nkeys == 2 && !strcmp(t.keys[0], "window")); /* first appearance */
    /* numbers as numbers: 128 before 1024; then by precision; cold before warm */
    CHECK(!strcmp(ns_table_tag(&t.rows[0], "window"), "128"));
    CHECK(!strcmp(ns_table_tag(&t.rows[0], "precision"), "int4"));
    CHECK(!strcmp(t.rows[2].cfg.mode, "warm"));
    CHECK(!strcmp(ns_table_tag(&t.rows[4], "window"), "1024"));

    const ns_table_row *c = row_of(&t, "128", "int8", "cold"), *w = row_of(&t, "128", "int8", "warm");
    CHECK(c && w);
    if (c && w) {
        CHECK(c->n == 3 && c->failures == 1); /* the failed run is counted apart */
        CHECK(c->median == 2 && c->min == 1 && c->max == 3);
        CHECK(c->cache_x == 4 && w->cache_x == 4); /* median cold / median warm, on both */
        CHECK(runs[c->median_run].wall_s == 2);
        CHECK(isnan(c->base_ratio) || c->base_ratio == 1); /* the baseline's own row */
    }
    const ns_table_row *b = row_of(&t, "128", "int4", "cold");
    CHECK(b && b->base_ratio == 0.75); /* 1.5 / 2 */
    const ns_table_row *d = row_of(&t, "1024", "int4", "cold");
    CHECK(d && d->n == 1 && d->warmups == 1 && d->base_ratio == 0.75); /* 6 / 8 */
    CHECK(d && isnan(d->cache_x));
    CHECK(!ns_table_any_regime(&t)); /* no stage selection, no shares */

    int ng;
    ns_table_base_group *g = ns_table_base_groups_new(&t, NULL, &ng);
    CHECK(ng == 1);
    if (ng == 1) CHECK(!strcmp(g[0].value, "int4") && g[0].n == 2 && g[0].median == 0.75 && !g[0].by);
    free(g);
    g = ns_table_base_groups_new(&t, "window", &ng);
    CHECK(ng == 2 && g && !strcmp(g[0].by, "128") && !strcmp(g[1].by, "1024"));
    free(g);

    /* a second table with the caller's key order: its own order, not the first's */
    ns_table t2;
    ns_table_init(&t2);
    ns_key_add(&t2.keys, &t2.nkeys, "precision");
    ns_table_opts o2 = {NULL, NULL, NULL};
    ns_table_build(&t2, runs, n, &o2);
    CHECK(!strcmp(t2.keys[0], "precision") && !strcmp(t2.keys[1], "window"));
    CHECK(!strcmp(ns_table_tag(&t2.rows[0], "precision"), "int4"));
    CHECK(!strcmp(ns_table_tag(&t2.rows[1], "window"), "1024"));
    CHECK(isnan(t2.rows[0].base_ratio));
    ns_table_free(&t2);
    ns_table_free(&t);
    for (int i = 0; i < n; i++) ns_run_free(&runs[i]);
}

/* ====== Grids ====== */

static void test_grid(void) {
    ns_buf b = {0};
    ns_grid g = {NULL, 0, 3, "lrl", NULL, 0};
    const char *cells[] = {"name", "s", "verdict", "a\tb", "1.5", "same", "Canonicalizer", "12.25", ""};
    for (int i = 0; i < 9; i++) ns_grid_add(&g, cells[i]);
    ns_grid_write(&b, &g);
    /* a control in a cell is shown as its escape (base/display.h) */
    CHECK(!strcmp(b.data, "name               s  verdict\n"
                          "a\\x09b           1.5  same\n"
                          "Canonicalizer  12.25\n"));
    CHECK(g.ncells == 0 && g.cells == NULL);

    /* every column right-aligned, an indent, widths in characters */
    b.len = 0;
    ns_grid h = {NULL, 0, 2, NULL, "  ", 0};
    ns_grid_add(&h, "R\xc2\xb2");
    ns_grid_add(&h, "x");
    ns_grid_add(&h, "0.99");
    ns_grid_add(&h, "");
    ns_grid_write(&b, &h);
    CHECK(!strcmp(b.data, "    R\xc2\xb2  x\n  0.99\n"));

    /* Markdown: '|' escaped, every column at least 3 wide, the rule */
    b.len = 0;
    ns_grid m = {NULL, 0, 2, "lr", NULL, 1};
    ns_grid_add(&m, "k");
    ns_grid_add(&m, "n");
    ns_grid_add(&m, "a|b");
    ns_grid_add(&m, "5");
    ns_grid_write(&b, &m);
    CHECK(!strcmp(b.data, "| k    |   n |\n| ---- | --: |\n| a\\|b |   5 |\n"));

    /* ns_grid_take moves a buffer's text in and empties it */
    ns_buf c = {0};
    ns_grid one = {NULL, 0, 1, NULL, NULL, 0};
    ns_buf_printf(&c, "%d", 42);
    ns_grid_take(&one, &c);
    CHECK(c.len == 0 && c.data && c.data[0] == 0 && one.ncells == 1 && !strcmp(one.cells[0], "42"));
    b.len = 0;
    ns_grid_write(&b, &one);
    CHECK(!strcmp(b.data, "42\n"));
    ns_buf_free(&c);
    ns_buf_free(&b);
}

/* ====== Fitting a width (render/width.h, grid.h) ====== */

/* Longest line of s in characters. */
static size_t widest_line(const char *s) {
    size_t most = 0, w = 0;
    for (; *s; s++) {
        if (*s == '\n') w = 0;
        else if (((unsigned char)*s & 0xC0) != 0x80 && ++w > most) most = w;
    }
    return most;
}

static void test_width(void) {
    ns_buf b = {0};
    ns_width_put_short(&b, "abcdefghij", 5); /* of an odd room the end keeps one more */
    CHECK(strcmp(b.data, "ab\xe2\x80\xa6ij") == 0);
    b.len = 0;
    ns_width_put_short(&b, "abcdefghij", 6);
    CHECK(strcmp(b.data, "ab\xe2\x80\xa6hij") == 0);
    b.len = 0;
    ns_width_put_short(&b, "abc", 5);
    CHECK(strcmp(b.data, "abc") == 0);
    b.len = 0;
    ns_width_wrap(&b, "aaa bbb ccc", 7, 0, 2);
    CHECK(strcmp(b.data, "aaa bbb\n  ccc\n") == 0);
    b.len = 0;
    ns_width_wrap(&b, "x 1234567.89012", 6, 0, 0); /* a number is never cut */
    CHECK(strcmp(b.data, "x\n1234567.89012\n") == 0);
    b.len = 0;
    ns_width_wrap(&b, "x tests/some/long/path.txt:12", 16, 0, 0); /* a path keeps its end */
    CHECK(strcmp(b.data, "x\ntests/s\xe2\x80\xa6h.txt:12\n") == 0);
    b.len = 0;
    ns_width_wrap(&b, "a\x1f" "b c", 0, 0, 0); /* no width: as it is */
    CHECK(strcmp(b.data, "a b c\n") == 0);
    ns_buf_free(&b);

    /* a grid at 24 columns: the name shrinks only as far as its floor,
     * the priority-1 column goes, a note says so; numbers stay whole */
    int prio[] = {0, 0, 1};
    char shrink[] = {1, 0, 0};
    ns_grid g = {NULL, 0, 3, "lrr", NULL, 0};
    const char *cells[] = {"name", "median s", "extra", "a-very-long-configuration-name", "12.3456",
                           "99", "short", "1.0000", "98"};
    for (int i = 0; i < 9; i++) ns_grid_add(&g, cells[i]);
    ns_grid_fit fit = {24, prio, shrink};
    ns_buf o = {0};
    ns_grid_write_fit(&o, &g, &fit);
    CHECK(widest_line(o.data) <= 24 || (printf("%s", o.data), 0));
    CHECK(strstr(o.data, "12.3456") && strstr(o.data, "1.0000") && !strstr(o.data, "99"));
    CHECK(strstr(o.data, "a-very\xe2\x80\xa6on-name   12.3456") && strstr(o.data, "(1 column left out to"));
    CHECK(strstr(o.data, "extra;") != NULL);
    /* wide enough: as without a width */
    o.len = 0;
    for (int i = 0; i < 9; i++) ns_grid_add(&g, cells[i]);
    fit.width = 200;
    ns_grid_write_fit(&o, &g, &fit);
    ns_buf plain = {0};
    for (int i = 0; i < 9; i++) ns_grid_add(&g, cells[i]);
    ns_grid_write(&plain, &g);
    CHECK(strcmp(o.data, plain.data) == 0);
    ns_buf_free(&o);
    ns_buf_free(&plain);
}

int main(void) {
    test_table();
    test_grid();
    test_width();
    return check_summary("unit_table");
}
