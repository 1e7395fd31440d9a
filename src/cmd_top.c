/* cmd_top.c -- `npuscope top`: the heaviest passes summed across every
 * report of the input, as a table, JSON or CSV. */
#include "cli.h"
#include "jsonw.h"
#include "top.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef enum { NS__TOP_TEXT, NS__TOP_JSON, NS__TOP_CSV } ns__top_fmt;

static int ns__top_sink(ns_report *r, void *ctx) {
    ns_top_add(ctx, r);
    ns_report_free(r);
    return 0;
}

static void ns__top_render(ns_buf *b, const ns_top *t, long limit, ns__top_fmt f,
                           int color) {
    size_t *ord = ns_top_order_new(t);
    int partial = 0; /* a user sum covers only some occurrences */
    size_t n = t->names.count;
    if (limit > 0 && (size_t)limit < n) n = (size_t)limit;
    if (f == NS__TOP_JSON) {
        ns_buf_printf(b, "{\"reports\":%d,\"total_wall_s\":", t->reports);
        ns_put_json_double(b, t->total_wall, 4);
        ns_buf_puts(b, ",\"rows\":[");
    } else if (f == NS__TOP_CSV) {
        ns_buf_puts(b, "name,kind,stage,count,wall_s,user_s,user_count,self_s,share\n");
    } else {
        ns_buf_printf(b, "%s%d report%s, %.4f s wall in total%s\n", color ? "\033[1m" : "",
                      t->reports, t->reports == 1 ? "" : "s", t->total_wall,
                      color ? "\033[0m" : "");
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
            ns_buf_printf(b, ",\"kind\":\"%s\",\"stage\":null,\"count\":%ld,\"wall_s\":",
                          ns_kind_name(row->kind), row->count);
            ns_put_json_double(b, row->wall, dec);
            ns_buf_puts(b, ",\"user_s\":");
            if (row->user_count) ns_put_json_double(b, row->user, dec);
            else ns_buf_puts(b, "null");
            ns_buf_printf(b, ",\"user_count\":%ld,\"self_s\":", row->user_count);
            ns_put_json_double(b, row->self, dec);
            ns_buf_puts(b, ",\"share\":");
            ns_put_json_double(b, share, 6);
            ns_buf_putc(b, '}');
        } else if (f == NS__TOP_CSV) {
            ns_csv_field(b, name);
            ns_buf_printf(b, ",%s,,%ld,", ns_kind_name(row->kind), row->count);
            ns_put_json_double(b, row->wall, dec);
            ns_buf_putc(b, ',');
            if (row->user_count) ns_put_json_double(b, row->user, dec);
            ns_buf_printf(b, ",%ld,", row->user_count);
            ns_put_json_double(b, row->self, dec);
            ns_buf_putc(b, ',');
            ns_put_json_double(b, share, 6);
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
            ns_buf_printf(b, "%11.*f  %s\n", dec, fabs(row->self) < 0.5e-9 ? 0.0 : row->self,
                          name);
        }
    }
    if (partial)
        ns_buf_puts(b, "      * user time summed over the occurrences whose report "
                       "has a User column only\n");
    if (f == NS__TOP_JSON) ns_buf_puts(b, "\n]}\n");
    else if (f == NS__TOP_TEXT && n < t->names.count)
        ns_buf_printf(b, "      (%zu more; -n 0 shows all)\n", t->names.count - n);
    free(ord);
}

int ns_cmd_top(int argc, char **argv) {
    ns_args a;
    ns_args_init(&a, argc, argv);
    ns_read_opts ro = {0};
    long limit = 20;
    int all = 0;
    ns__top_fmt fmt = NS__TOP_TEXT;
    char **inputs = ns_xcalloc((size_t)argc, sizeof *inputs);
    int ninputs = 0, rc = NS_EXIT_OK;
    const char *v;
    while (a.i < argc) {
        int m;
        if ((m = ns_args_value(&a, "-n", &v))) {
            if (m < 0 || ns_args_int(&a, "-n", v, 0, 1L << 30, &limit)) { rc = NS_EXIT_USAGE; goto out; }
        } else if ((m = ns_args_value(&a, "--format", &v))) {
            if (m < 0) { rc = NS_EXIT_USAGE; goto out; }
            if (strcmp(v, "text") == 0) fmt = NS__TOP_TEXT;
            else if (strcmp(v, "json") == 0) fmt = NS__TOP_JSON;
            else if (strcmp(v, "csv") == 0) fmt = NS__TOP_CSV;
            else { rc = ns_args_usage(&a, "--format: text, json or csv, not '%s'", v); goto out; }
        } else if ((m = ns_args_value(&a, "--by", &v))) {
            if (m < 0) { rc = NS_EXIT_USAGE; goto out; }
            if (strcmp(v, "pass") != 0) {
                rc = ns_args_usage(&a, "--by: only 'pass' is available in this version "
                                       "(stage maps are not built yet)");
                goto out;
            }
        } else if (ns_args_flag(&a, "--all")) {
            all = 1;
        } else if ((m = ns_args_common(&a, &ro, inputs, &ninputs)) != NS_ARGS_TAKEN) {
            rc = m == NS_ARGS_HELP ? NS_EXIT_OK : NS_EXIT_USAGE;
            goto out;
        }
    }
    ns_top t;
    ns_top_init(&t, all);
    long found = ns_cli_scan(inputs, ninputs, &ro, ns__top_sink, &t);
    /* an unreadable input still leaves the others' reports to show */
    if (t.reports > 0) {
        ns_buf b = {0};
        ns__top_render(&b, &t, limit, fmt, fmt == NS__TOP_TEXT && ns_cli_color(1));
        if (ns_buf_flush(&b, stdout) || fflush(stdout)) {
            ns_error("error writing the output");
            rc = NS_EXIT_USAGE;
        }
        ns_buf_free(&b);
    }
    if (found < 0) rc = NS_EXIT_USAGE;
    else if (found == 0) {
        ns_error("no timing report found in the input");
        rc = NS_EXIT_NOTHING;
    }
    ns_top_free(&t);
out:
    free(inputs);
    return rc;
}
