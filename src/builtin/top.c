/* cmd_top.c -- `npuscope top`: the heaviest passes summed across every
 * report of the input, or their time by stage (--by stage), or the passes
 * that raised the NPU compiler's peak memory most (--by memory, from its
 * memory-usage-collector lines: npu/memory.h), as a table, JSON or CSV.
 *
 * Every report is read with a stage map (--stages, automatic by default:
 * vpux for NPU compiler reports, mlir for the rest), so pass rows carry
 * their stage in JSON and CSV ("mixed" when their occurrences differ), and
 * --by stage lists the map's stages in declaration order, then Rest: the
 * stages' self times and Rest add up to the summed totals (stages.h).
 */
#include "builtin/builtin.h"
#include "base/display.h"
#include "cli/cli.h"
#include "base/jsonw.h"
#include "npu/npu.h"
#include "model/stages.h"
#include "analyse/top.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef enum { NS__TOP_TEXT, NS__TOP_JSON, NS__TOP_CSV } ns__top_fmt;

static void ns__headers(ns_buf *b, const ns_top *t, ns__top_fmt f);

typedef struct {
    ns_strmap kinds;   /* --by submodel: kind -> index */
    double *wall;      /* summed report totals per kind */
    long *reports;     /* reports per kind */
    size_t cap;        /* room in wall and reports */
} ns__kinds;

typedef struct {
    ns_top *t;         /* the sums */
    ns_stage_sel *sel; /* the stage map of each report */
    ns__kinds *k;      /* sub-model kinds (summed for --by submodel) */
    long want;         /* --report N (1-based), 0 for every report */
    long seen;         /* reports seen so far */
    int mem_reports;   /* reports with per-pass memory */
    int by_kind;       /* --by submodel: sum the kinds (no other view shows
                        * them, and each "#N" label would be a kind) */
} ns__top_ctx;

static void ns__kind_add(ns__kinds *k, const ns_report *r) {
    /* a breakdown table's time is already in its compile's main report */
    if (!ns_report_is_main(r)) return;
    char *kind = ns_submodel_kind_new(r->label);
    int added;
    size_t i = ns_strmap_intern(&k->kinds, kind, &added);
    free(kind);
    if (added) {
        if (i >= k->cap) { /* doubling: every report of a log can be a kind of its own */
            k->cap = k->cap ? 2 * k->cap : 16;
            k->wall = ns_xrealloc(k->wall, sizeof *k->wall * k->cap);
            k->reports = ns_xrealloc(k->reports, sizeof *k->reports * k->cap);
        }
        k->wall[i] = 0;
        k->reports[i] = 0;
    }
    double t = ns_stage_report_total(r);
    if (isfinite(t)) k->wall[i] += t;
    k->reports[i]++;
}

static void ns__kinds_render(ns_buf *b, const ns__kinds *k, double total, ns__top_fmt f) {
    if (f == NS__TOP_JSON) ns_buf_puts(b, "{\"rows\":[");
    else if (f == NS__TOP_CSV) ns_buf_puts(b, "submodel,reports,wall_s,share\n");
    else ns_buf_printf(b, "%11s  %7s  %7s  %s\n", "wall s", "share", "reports", "sub-model kind");
    for (size_t i = 0; i < k->kinds.count; i++) {
        double share = total > 0 ? k->wall[i] / total : NAN;
        if (f == NS__TOP_JSON) {
            ns_buf_puts(b, i ? ",\n{\"submodel\":" : "\n{\"submodel\":");
            ns_json_str(b, k->kinds.keys[i]);
            ns_buf_printf(b, ",\"reports\":%ld,\"wall_s\":", k->reports[i]);
            ns_put_json_double(b, k->wall[i], 4);
            ns_buf_puts(b, ",\"share\":");
            ns_put_json_double(b, share, 6);
            ns_buf_putc(b, '}');
        } else if (f == NS__TOP_CSV) {
            ns_csv_field(b, k->kinds.keys[i]);
            ns_buf_printf(b, ",%ld,", k->reports[i]);
            ns_put_json_double(b, k->wall[i], 4);
            ns_buf_putc(b, ',');
            ns_put_json_double(b, share, 6);
            ns_buf_putc(b, '\n');
        } else {
            ns_buf_printf(b, "%11.4f  %6.1f%%  %7ld  %s\n", k->wall[i],
                          isfinite(share) ? 100 * share : 0.0, k->reports[i], k->kinds.keys[i]);
        }
    }
    if (f == NS__TOP_JSON) ns_buf_puts(b, "\n]}\n");
}

static int ns__top_sink(ns_report *r, void *vctx) {
    ns__top_ctx *c = vctx;
    if (c->want && ++c->seen != c->want) {
        ns_report_free(r);
        return 0;
    }
    /* one report taken alone is its own whole: its total, its shares */
    if (c->want) r->group = r->parent = -1;
    const ns_stage_map *m = ns_stage_sel_pick(c->sel, r);
    long n;
    ns_stage_of *of = m ? ns_stage_assign_new(m, r, &n) : NULL;
    ns_top_add_staged(c->t, r, m, of);
    if (c->by_kind) ns__kind_add(c->k, r);
    if (r->cols & NS_COLBIT(NS_COL_MEM_INC)) c->mem_reports++;
    free(of);
    ns_report_free(r);
    return c->want != 0;
}

/* The sums of a row as JSON members, and the closing brace: count, wall,
 * user (null when no occurrence had one), user_count, self, share. */
static void ns__json_sums(ns_buf *b, const ns_top_row *row, double share, int dec) {
    ns_buf_printf(b, ",\"count\":%ld,\"wall_s\":", row->count);
    ns_put_json_double(b, row->wall, dec);
    ns_buf_puts(b, ",\"user_s\":");
    if (row->user_count) ns_put_json_double(b, row->user, dec);
    else ns_buf_puts(b, "null");
    ns_buf_printf(b, ",\"user_count\":%ld,\"self_s\":", row->user_count);
    ns_put_json_double(b, row->self, dec);
    ns_buf_puts(b, ",\"share\":");
    ns_put_json_double(b, share, 6);
    ns_buf_putc(b, '}');
}

/* The stage of a pass row as JSON / CSV / text: a name, "mixed" or none. */
static const char *ns__row_stage(const ns_top *t, const ns_top_row *row) {
    if (row->stage == NS_TOP_MIXED_STAGE) return "mixed";
    return row->stage >= 0 ? t->stages.keys[row->stage] : NULL;
}

static void ns__maps_json(ns_buf *b, const ns_top *t) {
    ns_buf_puts(b, ",\"stage_maps\":[");
    for (size_t i = 0; i < t->maps.count; i++) {
        if (i) ns_buf_putc(b, ',');
        ns_json_str(b, t->maps.keys[i]);
    }
    ns_buf_putc(b, ']');
}

/* A row's sums after its name, kind and stage, in CSV: the columns of the
 * header "count,wall_s,user_s,user_count,self_s,share" and the newline. */
static void ns__csv_sums(ns_buf *b, const ns_top_row *row, double share, int dec) {
    ns_buf_printf(b, ",%ld,", row->count);
    ns_put_json_double(b, row->wall, dec);
    ns_buf_putc(b, ',');
    if (row->user_count) ns_put_json_double(b, row->user, dec);
    ns_buf_printf(b, ",%ld,", row->user_count);
    ns_put_json_double(b, row->self, dec);
    ns_buf_putc(b, ',');
    ns_put_json_double(b, share, 6);
    ns_buf_putc(b, '\n');
}

/* One stage row (or Rest) in every format; share is self / total. */
static void ns__stage_row(ns_buf *b, const ns_top *t, const ns_top_row *row, const char *name,
                          const char *desc, size_t k, ns__top_fmt f, int *partial) {
    double share = t->total_wall > 0 ? row->self / t->total_wall : NAN;
    int dec = row->dec > 0 ? row->dec : 4;
    int rest = desc == NULL;
    if (f == NS__TOP_JSON) {
        ns_buf_puts(b, k ? ",\n{\"name\":" : "\n{\"name\":");
        ns_json_str(b, name);
        ns_buf_printf(b, ",\"kind\":\"%s\",\"stage\":", rest ? "rest" : "stage");
        if (rest) ns_buf_puts(b, "null");
        else ns_json_str(b, name);
        if (!rest) {
            ns_buf_puts(b, ",\"description\":");
            ns_json_str(b, desc);
        }
        ns__json_sums(b, row, share, dec);
    } else if (f == NS__TOP_CSV) {
        ns_csv_field(b, name);
        ns_buf_printf(b, ",%s,", rest ? "rest" : "stage");
        if (!rest) ns_csv_field(b, name);
        ns__csv_sums(b, row, share, dec);
    } else {
        if (rest) ns_buf_printf(b, "%4s  ", "");
        else ns_buf_printf(b, "%4zu  ", k + 1);
        ns_buf_printf(b, "%11.*f  %6.1f%%  %6ld  %11.*f  ", dec,
                      fabs(row->self) < 0.5e-9 ? 0.0 : row->self,
                      isfinite(share) ? share * 100 : 0.0, row->count, dec, row->wall);
        if (row->user_count == row->count && row->count)
            ns_buf_printf(b, "%11.*f  ", dec, row->user);
        else if (row->user_count)
            ns_buf_printf(b, "%10.*f*  ", dec, row->user), *partial = 1;
        else
            ns_buf_printf(b, "%11s  ", "-");
        ns_display_name(b, name);
        ns_buf_putc(b, '\n');
    }
}

/* "5 reports" -- or, when some are breakdown tables, "1 compile: 1 main
 * report and 4 breakdown tables" (their time is in the main report's). */
static void ns__top_head(ns_buf *b, const ns_top *t) {
    if (!t->breakdowns && t->compiles == t->reports) {
        ns_buf_printf(b, "%d report%s", t->reports, t->reports == 1 ? "" : "s");
        return;
    }
    int mains = t->reports - t->breakdowns;
    ns_buf_printf(b, "%d compile%s: %d main report%s and %d breakdown table%s", t->compiles,
                  t->compiles == 1 ? "" : "s", mains, mains == 1 ? "" : "s", t->breakdowns,
                  t->breakdowns == 1 ? "" : "s");
}

/* JSON: the counts before the total. */
static void ns__top_head_json(ns_buf *b, const ns_top *t) {
    ns_buf_printf(b, "{\"reports\":%d,\"compiles\":%d,\"breakdown_tables\":%d,\"total_wall_s\":",
                  t->reports, t->compiles, t->breakdowns);
    ns_put_json_double(b, t->total_wall, 4);
}

/* What a row of breakdown tables is inside, or NULL for a main row. */
static const char *ns__row_within(const ns_top *t, const ns_top_row *row) {
    if (row->within == NS_TOP_MAIN) return NULL;
    if (row->within == NS_TOP_MIXED_WITHIN) return "different rows by report";
    return t->withins.keys[row->within];
}

/* --by stage: the stages in the maps' order, then Rest. */
static void ns__top_render_stages(ns_buf *b, const ns_top *t, ns__top_fmt f, int color) {
    int partial = 0;
    if (f == NS__TOP_JSON) {
        ns__top_head_json(b, t);
        ns_buf_puts(b, ",\"by\":\"stage\"");
        ns__maps_json(b, t);
        ns_buf_puts(b, ",\"rows\":[");
    } else if (f == NS__TOP_CSV) {
        ns_buf_puts(b, "name,kind,stage,count,wall_s,user_s,user_count,self_s,share\n");
    } else {
        ns_buf_puts(b, color ? "\033[1m" : "");
        ns__top_head(b, t);
        ns_buf_printf(b, ", %.4f s wall in total; stage map%s ", t->total_wall,
                      t->maps.count == 1 ? "" : "s");
        for (size_t i = 0; i < t->maps.count; i++)
            ns_buf_printf(b, "%s%s", i ? ", " : "", t->maps.keys[i]);
        ns_buf_printf(b, "%s\n", color ? "\033[0m" : "");
        ns_buf_printf(b, "%4s  %11s  %7s  %6s  %11s  %11s  %s\n", "#", "self s", "share", "count",
                      "wall s", "user s", "stage");
    }
    size_t k;
    for (k = 0; k < t->stages.count; k++)
        ns__stage_row(b, t, &t->srows[k], t->stages.keys[k], t->stage_desc[k], k, f, &partial);
    ns__stage_row(b, t, &t->rest, "Rest", NULL, k, f, &partial);
    if (f == NS__TOP_JSON) {
        ns_buf_puts(b, "\n]}\n");
    } else if (f == NS__TOP_TEXT) {
        ns_buf_puts(b, "      self s: every row's own time (its wall minus its children's), "
                       "summed by stage;\n"
                       "      the stages and Rest add up to the total.  count, wall s, user s: "
                       "the rows\n"
                       "      --by pass ranks, grouped by stage\n");
        if (partial)
            ns_buf_puts(b, "      * user time summed over the occurrences whose report has a "
                           "User column only\n");
    }
}

static void ns__top_render(ns_buf *b, const ns_top *t, long limit, ns__top_fmt f,
                           int color) {
    size_t *ord = ns_top_order_new(t);
    int partial = 0; /* a user sum covers only some occurrences */
    size_t n = t->names.count;
    if (limit > 0 && (size_t)limit < n) n = (size_t)limit;
    int nested = 0; /* a breakdown table's row was shown */
    if (f == NS__TOP_JSON) {
        ns__top_head_json(b, t);
        ns__maps_json(b, t);
        ns_buf_puts(b, ",\"rows\":[");
    } else if (f == NS__TOP_CSV) {
        ns_buf_puts(b, "name,kind,stage,count,wall_s,user_s,user_count,self_s,share,within\n");
    } else {
        ns_buf_puts(b, color ? "\033[1m" : "");
        ns__top_head(b, t);
        ns_buf_printf(b, ", %.4f s wall in total%s\n", t->total_wall, color ? "\033[0m" : "");
        ns_buf_printf(b, "%4s  %11s  %7s  %6s  %11s  %11s  %s\n", "#", "wall s", "share",
                      "count", "user s", "self s", "name");
    }
    for (size_t k = 0; k < n; k++) {
        const ns_top_row *row = &t->rows[ord[k]];
        const char *name = t->names.keys[ord[k]];
        double share = t->total_wall > 0 ? row->wall / t->total_wall : NAN;
        int dec = row->dec > 0 ? row->dec : 4;
        if (f == NS__TOP_JSON) {
            ns_buf_puts(b, k ? ",\n{\"name\":" : "\n{\"name\":");
            ns_json_str(b, name);
            const char *stage = ns__row_stage(t, row);
            ns_buf_printf(b, ",\"kind\":\"%s\",\"stage\":", ns_kind_name(row->kind));
            if (stage) ns_json_str(b, stage);
            else ns_buf_puts(b, "null");
            const char *within = ns__row_within(t, row);
            ns_buf_puts(b, ",\"within\":");
            if (within) ns_json_str(b, within);
            else ns_buf_puts(b, "null");
            ns__json_sums(b, row, share, dec);
        } else if (f == NS__TOP_CSV) {
            const char *stage = ns__row_stage(t, row);
            ns_csv_field(b, name);
            ns_buf_printf(b, ",%s,", ns_kind_name(row->kind));
            if (stage) ns_csv_field(b, stage);
            ns__csv_sums(b, row, share, dec);
            b->len--; /* the newline: within comes last */
            ns_buf_putc(b, ',');
            const char *within = ns__row_within(t, row);
            if (within) ns_csv_field(b, within);
            ns_buf_putc(b, '\n');
        } else {
            ns_buf_printf(b, "%4zu  %11.*f  %6.1f%%  %6ld  ", k + 1, dec, row->wall,
                          isfinite(share) ? share * 100 : 0.0, row->count);
            if (row->user_count == row->count)
                ns_buf_printf(b, "%11.*f  ", dec, row->user);
            else if (row->user_count)
                ns_buf_printf(b, "%10.*f*  ", dec, row->user), partial = 1;
            else
                ns_buf_printf(b, "%11s  ", "-");
            const char *within = ns__row_within(t, row);
            ns_buf_printf(b, "%11.*f  %s%s", dec, fabs(row->self) < 0.5e-9 ? 0.0 : row->self,
                          within ? "  " : "", name);
            if (within) {
                ns_buf_puts(b, "  (in ");
                ns_display_name(b, within);
                ns_buf_putc(b, ')');
                nested = 1;
            }
            ns_buf_putc(b, '\n');
        }
    }
    if (nested)
        ns_buf_puts(b, "      indented: a row of a breakdown table, inside the row(s) named after "
                       "\"in\";\n      its share is of the compile's total, to which it adds "
                       "nothing\n");
    if (f == NS__TOP_TEXT && t->phases_left_out)
        ns_buf_puts(b, "      left out: the phases those tables break into passes (their time "
                       "is the passes'); --all shows them\n");
    if (partial)
        ns_buf_puts(b, "      * user time summed over the occurrences whose report "
                       "has a User column only\n");
    if (f == NS__TOP_TEXT && n < t->names.count)
        ns_buf_printf(b, "      (%zu more; -n 0 shows all)\n", t->names.count - n);
    if (f == NS__TOP_JSON) ns_buf_puts(b, "\n]");
    ns__headers(b, t, f);
    if (f == NS__TOP_JSON) ns_buf_puts(b, "}\n");
    free(ord);
}

/* The costliest headers of clang traces (analyse/top.h: Source spans by
 * file, each with the headers it includes; not in the stages or the
 * passes, whose time they overlap): the first ten in text, all in JSON
 * ("headers", only when there are some). */
static void ns__headers(ns_buf *b, const ns_top *t, ns__top_fmt f) {
    size_t *o = ns_top_headers_order_new(t);
    if (!o) return;
    size_t n = t->headers.count;
    if (f == NS__TOP_JSON) {
        ns_buf_puts(b, ",\"headers\":[");
        for (size_t k = 0; k < n; k++) {
            ns_buf_puts(b, k ? ",\n{\"file\":" : "\n{\"file\":");
            ns_json_str(b, t->headers.keys[o[k]]);
            ns_buf_puts(b, ",\"wall_s\":");
            ns_put_json_double(b, t->header_s[o[k]], 6);
            ns_buf_printf(b, ",\"count\":%ld}", t->header_n[o[k]]);
        }
        ns_buf_puts(b, "\n]");
    } else if (f == NS__TOP_TEXT) {
        ns_buf_puts(b, "costliest headers (clang Source spans: parsing each file with what it "
                       "includes; their time is inside Frontend, not added again):\n");
        ns_buf_printf(b, "%4s  %11s  %6s  %s\n", "#", "wall s", "count", "file");
        for (size_t k = 0; k < n && k < 10; k++)
            ns_buf_printf(b, "%4zu  %11.6f  %6ld  %s\n", k + 1, t->header_s[o[k]],
                          t->header_n[o[k]], t->headers.keys[o[k]]);
        if (n > 10) ns_buf_printf(b, "      (%zu more headers: --format json lists all)\n", n - 10);
    }
    free(o);
}

/* ====== --by memory ======
 * The pass rows --by pass sums (by name over every report), ranked by the
 * kB the memory-usage-collector says they raised the compiler's peak
 * (VmPeak), summed over their occurrences; only rows with at least one
 * such line are listed (none is not 0: the pass did not raise the peak, or
 * the collector was off).  share: of the summed increase of all rows. */
static int ns__top_render_memory(ns_buf *b, const ns_top *t, int mem_reports, long limit,
                                 ns__top_fmt f, int color) {
    size_t total_rows;
    size_t *ord = ns_top_order_mem_new(t, &total_rows);
    double sum = 0;
    for (size_t k = 0; k < total_rows; k++) sum += t->rows[ord[k]].mem_inc;
    size_t n = total_rows;
    if (limit > 0 && (size_t)limit < n) n = (size_t)limit;
    if (f == NS__TOP_JSON) {
        ns_buf_printf(b, "{\"reports\":%d,\"mem_reports\":%d,\"total_wall_s\":", t->reports,
                      mem_reports);
        ns_put_json_double(b, t->total_wall, 4);
        ns_buf_puts(b, ",\"total_increase_kb\":");
        ns_put_json_double(b, sum, 0);
        ns_buf_puts(b, ",\"by\":\"memory\"");
        ns__maps_json(b, t);
        ns_buf_puts(b, ",\"rows\":[");
    } else if (f == NS__TOP_CSV) {
        ns_buf_puts(b, "name,kind,stage,count,mem_count,mem_increase_kb,mem_peak_kb,share,wall_s\n");
    } else {
        ns_buf_printf(b, "%s%d report%s, %d with per-pass memory; %.0f kB of peak increase in "
                         "total%s\n",
                      color ? "\033[1m" : "", t->reports, t->reports == 1 ? "" : "s",
                      mem_reports, sum, color ? "\033[0m" : "");
        ns_buf_printf(b, "%4s  %10s  %7s  %6s  %11s  %6s  %11s  %s\n", "#", "+kB", "share",
                      "logged", "peak kB", "count", "wall s", "name");
    }
    for (size_t k = 0; k < n; k++) {
        const ns_top_row *row = &t->rows[ord[k]];
        const char *name = t->names.keys[ord[k]];
        double share = sum > 0 ? row->mem_inc / sum : NAN;
        int dec = row->dec > 0 ? row->dec : 4;
        const char *stage = ns__row_stage(t, row);
        if (f == NS__TOP_JSON) {
            ns_buf_puts(b, k ? ",\n{\"name\":" : "\n{\"name\":");
            ns_json_str(b, name);
            ns_buf_printf(b, ",\"kind\":\"%s\",\"stage\":", ns_kind_name(row->kind));
            if (stage) ns_json_str(b, stage);
            else ns_buf_puts(b, "null");
            ns_buf_printf(b, ",\"count\":%ld,\"mem_count\":%ld,\"mem_increase_kb\":", row->count,
                          row->mem_count);
            ns_put_json_double(b, row->mem_inc, 0);
            ns_buf_puts(b, ",\"mem_peak_kb\":");
            ns_put_json_double(b, row->mem_peak, 0);
            ns_buf_puts(b, ",\"share\":");
            ns_put_json_double(b, share, 6);
            ns_buf_puts(b, ",\"wall_s\":");
            ns_put_json_double(b, row->wall, dec);
            ns_buf_putc(b, '}');
        } else if (f == NS__TOP_CSV) {
            ns_csv_field(b, name);
            ns_buf_printf(b, ",%s,", ns_kind_name(row->kind));
            if (stage) ns_csv_field(b, stage);
            ns_buf_printf(b, ",%ld,%ld,", row->count, row->mem_count);
            ns_put_json_double(b, row->mem_inc, 0);
            ns_buf_putc(b, ',');
            ns_put_json_double(b, row->mem_peak, 0);
            ns_buf_putc(b, ',');
            ns_put_json_double(b, share, 6);
            ns_buf_putc(b, ',');
            ns_put_json_double(b, row->wall, dec);
            ns_buf_putc(b, '\n');
        } else {
            ns_buf_printf(b, "%4zu  %10.0f  %6.1f%%  %6ld  %11.0f  %6ld  %11.*f  ", k + 1,
                          row->mem_inc, isfinite(share) ? share * 100 : 0.0, row->mem_count,
                          row->mem_peak, row->count, dec, row->wall);
            ns_display_name(b, name);
            ns_buf_putc(b, '\n');
        }
    }
    if (f == NS__TOP_JSON) {
        ns_buf_puts(b, "\n]}\n");
    } else if (f == NS__TOP_TEXT) {
        if (n < total_rows)
            ns_buf_printf(b, "      (%zu more; -n 0 shows all)\n", total_rows - n);
        ns_buf_puts(b, "      +kB: how much the pass raised the compiler's peak memory (VmPeak), "
                       "summed over the\n"
                       "      lines the memory-usage-collector logged after it; logged: its "
                       "occurrences with\n"
                       "      such a line; peak kB: the highest peak after one of them; count, "
                       "wall s: all\n"
                       "      its occurrences.  Passes without a line are not listed.\n");
    }
    free(ord);
    return (int)total_rows;
}

int ns_cmd_top(int argc, char **argv) {
    ns_read_opts ro = {0};
    long limit = 20, want = 0; /* want: --report N */
    int all = 0, by = 0; /* by: 0 pass, 1 stage, 2 sub-model kind, 3 memory */
    int fmt = NS__TOP_TEXT;
    const char *spec = NULL; /* --stages */
    ns_stage_sel sel = {0};
    static const char *const formats[] = {"text", "json", "csv", NULL}; /* ns__top_fmt */
    static const char *const bys[] = {"pass", "stage", "submodel", "memory", NULL};
    const ns_option own[] = {
        NS_OPT_INT('n', NULL, &limit, "N", 0, 1L << 30),
        NS_OPT_INT(0, "report", &want, "N", 1, 1L << 30),
        NS_OPT_CHOICE(0, "by", &by, "pass|stage|submodel|memory", bys),
        NS_OPT_STAGES(&spec),
        NS_OPT_FLAG(0, "all", &all),
        NS_OPT_CHOICE(0, "format", &fmt, "F", formats),
        NS_OPT_READ(&ro),
        NS_OPT_CSV_RAW(),
        NS_OPT_END(),
    };
    const ns_option *const tables[] = {own, NULL};
    char **inputs = ns_xcalloc((size_t)argc, sizeof *inputs);
    int ninputs = 0, rc = NS_EXIT_OK;
    switch (ns_options_parse("top", argc, argv, tables, inputs, &ninputs)) {
    case NS_OPTIONS_HELP: goto out;
    case NS_OPTIONS_ERROR: rc = NS_EXIT_USAGE; goto out;
    }
    int by_stage = by;
    if (ns_stage_sel_init(&sel, spec) < 0) {
        rc = NS_EXIT_USAGE;
        goto out;
    }
    ns_top t;
    ns_top_init(&t, all);
    ns__kinds kinds;
    memset(&kinds, 0, sizeof kinds);
    ns_strmap_init(&kinds.kinds);
    ns__top_ctx ctx = {&t, &sel, &kinds, want, 0, 0, by == 2};
    long found = ns_cli_scan(inputs, ninputs, &ro, ns__top_sink, &ctx);
    /* an unreadable input still leaves the others' reports to show */
    if (t.reports > 0) {
        ns_buf b = {0};
        int color = fmt == NS__TOP_TEXT && ns_cli_color(1);
        int mem_rows = -1;
        if (by_stage == 3) mem_rows = ns__top_render_memory(&b, &t, ctx.mem_reports, limit, fmt, color);
        else if (by_stage == 2) ns__kinds_render(&b, &kinds, t.total_wall, fmt);
        else if (by_stage) ns__top_render_stages(&b, &t, fmt, color);
        else ns__top_render(&b, &t, limit, fmt, color);
        if (ns_buf_flush(&b, stdout) || fflush(stdout)) {
            ns_error("error writing the output");
            rc = NS_EXIT_USAGE;
        }
        ns_buf_free(&b);
        if (mem_rows == 0) {
            ns_error("no per-pass memory in the input: the NPU compiler logs it with "
                     "NPU_COMPILATION_MODE_PARAMS=enable-memory-usage-collector=true, and "
                     "npuscope reads it from a log with --npu (docs/npu.md)");
            rc = NS_EXIT_NOTHING;
        }
    }
    if (found < 0) rc = NS_EXIT_USAGE;
    else if (found == 0) {
        ns_cli_none_found(inputs, ninputs);
        rc = NS_EXIT_NOTHING;
    } else if (want && t.reports == 0) {
        ns_error("--report %ld: the input has only %ld report%s", want, found,
                 found == 1 ? "" : "s");
        rc = NS_EXIT_NOTHING;
    }
    ns_top_free(&t);
    ns_strmap_free(&kinds.kinds);
    free(kinds.wall);
    free(kinds.reports);
out:
    ns_stage_sel_free(&sel);
    free(inputs);
    return rc;
}
