/* options.c -- the one option parser (options.h says what a table holds).
 *
 * One loop over argv: an argument is `--`, an option of one of the tables,
 * or an input.  Each option kind has one way of reading its value and one
 * wording for a bad one, so `npuscope tree --depth x` and `npuscope fit
 * --min-points x` fail alike.  Nothing here knows a command: the tables are
 * the commands' own, declared where their values live.
 */
#include "cli/options.h"

#include "cli/cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ====== Messages ====== */

static int ns__vusage(const char *cmd, const char *fmt, va_list ap) {
    fprintf(stderr, "npuscope %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(see 'npuscope %s --help')\n", cmd);
    return NS_EXIT_USAGE;
}

int ns_options_usage(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ns__vusage(cmd, fmt, ap);
    va_end(ap);
    return NS_EXIT_USAGE;
}

/* "--depth", "-n", or "--depth/-d"'s long form: how a message names opt. */
static const char *ns__name(const ns_option *o, char *buf, size_t n) {
    if (o->long_name) snprintf(buf, n, "--%s", o->long_name);
    else snprintf(buf, n, "-%c", o->short_name);
    return buf;
}

/* ====== Matching ====== */

/* Does arg name o?  On a match, *eq points after '=' for "--name=value"
 * (NULL otherwise). */
static int ns__match(const ns_option *o, const char *arg, const char **eq) {
    *eq = NULL;
    if (arg[0] != '-') return 0;
    if (arg[1] == '-') {
        if (!o->long_name) return 0;
        size_t n = strlen(o->long_name);
        if (strncmp(arg + 2, o->long_name, n) != 0) return 0;
        if (arg[2 + n] == 0) return 1;
        if (arg[2 + n] == '=') {
            *eq = arg + 3 + n;
            return 1;
        }
        return 0;
    }
    return o->short_name && arg[1] == o->short_name && arg[2] == 0;
}

/* May --stages take s as its MAP?  Not an option, not "-" (standard
 * input), not a folder (run folders are inputs, never stage maps). */
static int ns__may_be_stage_map(const char *s) {
    if (s[0] == '-') return 0;
    struct stat st;
    return !(stat(s, &st) == 0 && S_ISDIR(st.st_mode));
}

/* ====== Values ====== */

/* Store value v for o; returns 0 or -1 after printing the message. */
static int ns__store(const char *cmd, const ns_option *o, const char *v) {
    char name[64];
    ns__name(o, name, sizeof name);
    switch (o->kind) {
    case NS_OPT_KIND_FLAG:
        *(int *)o->value = 1;
        return 0;
    case NS_OPT_KIND_STRING:
    case NS_OPT_KIND_STAGES:
        *(const char **)o->value = v;
        return 0;
    case NS_OPT_KIND_INT: {
        char *end;
        errno = 0;
        long x = strtol(v, &end, 10);
        if (errno || end == v || *end || x < o->lo || x > o->hi) {
            ns_options_usage(cmd, "%s: '%s' is not a whole number from %ld to %ld", name, v,
                             o->lo, o->hi);
            return -1;
        }
        *(long *)o->value = x;
        return 0;
    }
    case NS_OPT_KIND_DOUBLE: {
        char *end;
        errno = 0;
        double x = strtod(v, &end);
        if (errno || end == v || *end || !isfinite(x) || x < o->dlo) {
            ns_options_usage(cmd, "%s: '%s' is not a number >= %g", name, v, o->dlo);
            return -1;
        }
        *(double *)o->value = x;
        return 0;
    }
    case NS_OPT_KIND_CHOICE: {
        int n = 0;
        for (; o->choices[n]; n++)
            if (!strcmp(v, o->choices[n])) {
                *(int *)o->value = n;
                return 0;
            }
        /* "text, csv or json, not 'xml'": the list as the help gives it */
        ns_buf list = {0};
        for (int i = 0; i < n; i++)
            ns_buf_printf(&list, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", o->choices[i]);
        ns_options_usage(cmd, "%s: %s, not '%s'", name, list.data ? list.data : "", v);
        ns_buf_free(&list);
        return -1;
    }
    case NS_OPT_KIND_CALL: {
        const char *why = NULL;
        if (o->call(o, v, &why) == 0) return 0;
        if (why) ns_options_usage(cmd, "%s: %s", name, why);
        return -1;
    }
    case NS_OPT_KIND_END:
        break;
    }
    return -1;
}

/* ====== Listing ====== */

/* --completion-helper: every option of the tables, one a line, as
 * "--long ARG" or "-s ARG" (and "-s, --long ARG" when it has both). */
static void ns__list(const ns_option *const *tables) {
    for (int t = 0; tables[t]; t++)
        for (const ns_option *o = tables[t]; o->kind != NS_OPT_KIND_END; o++) {
            if (o->flags & NS_OPTF_HIDDEN) continue;
            if (o->short_name) printf("-%c%s", o->short_name, o->long_name ? ", " : "");
            if (o->long_name) printf("--%s", o->long_name);
            if (o->argh) printf(o->kind == NS_OPT_KIND_STAGES || (o->flags & NS_OPTF_EQ_VALUE)
                                    ? "[=%s]" : " %s", o->argh);
            putchar('\n');
        }
}

/* ====== The parser ====== */

/* The loop of both entry points: with inputs NULL, stop at the first
 * argument that is not an option (or after "--") and set *stop to it. */
static int ns__parse(const char *cmd, int argc, char **argv, const ns_option *const *tables,
                     char **inputs, int *ninputs, int *stop) {
    int only_inputs = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!inputs && (only_inputs || arg[0] != '-' || arg[1] == 0)) {
            *stop = i;
            return NS_OPTIONS_OK;
        }
        if (only_inputs || arg[0] != '-' || arg[1] == 0) {
            inputs[(*ninputs)++] = argv[i];
            continue;
        }
        if (!strcmp(arg, "--")) {
            only_inputs = 1;
            continue;
        }
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            ns_help(cmd);
            return NS_OPTIONS_HELP;
        }
        if (!strcmp(arg, "--completion-helper")) {
            ns__list(tables);
            return NS_OPTIONS_HELP;
        }
        const ns_option *o = NULL;
        const char *eq = NULL;
        for (int t = 0; tables[t] && !o; t++)
            for (const ns_option *p = tables[t]; p->kind != NS_OPT_KIND_END; p++)
                if (ns__match(p, arg, &eq)) {
                    o = p;
                    break;
                }
        if (!o) {
            ns_options_usage(cmd, "unknown option '%s'%s", arg,
                             inputs ? "" : " (the command goes after '--')");
            return NS_OPTIONS_ERROR;
        }
        char name[64];
        ns__name(o, name, sizeof name);
        const char *v = NULL;
        int takes = o->argh != NULL && !(o->flags & NS_OPTF_NO_VALUE);
        if (!takes) {
            if (eq) {
                ns_options_usage(cmd, "%s takes no value", name);
                return NS_OPTIONS_ERROR;
            }
        } else if (o->kind == NS_OPT_KIND_STAGES) {
            if (eq) v = eq;
            else if (i + 1 < argc && ns__may_be_stage_map(argv[i + 1])) v = argv[++i];
            else v = "auto";
        } else if (o->flags & NS_OPTF_EQ_VALUE) {
            v = eq ? eq : o->def;
        } else if (eq) {
            v = eq;
        } else if (i + 1 < argc) {
            v = argv[++i];
        } else {
            ns_options_usage(cmd, "%s needs a value", name);
            return NS_OPTIONS_ERROR;
        }
        if (ns__store(cmd, o, v) < 0) return NS_OPTIONS_ERROR;
    }
    if (stop) *stop = argc;
    return NS_OPTIONS_OK;
}

int ns_options_parse(const char *cmd, int argc, char **argv, const ns_option *const *tables,
                     char **inputs, int *ninputs) {
    return ns__parse(cmd, argc, argv, tables, inputs, ninputs, NULL);
}

int ns_options_parse_until_command(const char *cmd, int argc, char **argv,
                                   const ns_option *const *tables, int *cmd_at) {
    return ns__parse(cmd, argc, argv, tables, NULL, NULL, cmd_at);
}
