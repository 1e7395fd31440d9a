/* group.c -- the tables of one compile and what each breaks down (group.h).
 *
 * Why here: only the reader sees the tables in the order and with the line
 * numbers they were printed, and only that order tells one process's tables
 * from the next one's; every command after it (top, advise, tree, the page)
 * then reads the decision from the report (model/report.h) instead of
 * guessing again.
 *
 * What the real outputs show (tests/fixtures: clang 14 and 22, flang 22,
 * opt 14 and 22, llc 22 -- the rules below are read off them):
 *   - A run of tables: LLVM TimerGroup tables, and flang's MLIR-style
 *     "Flang execution timing report", each starting at most NS_GROUP_GAP
 *     lines after the last one ended (flang leaves two blank lines).
 *   - The front end's report covers the whole compile: "Clang time report"
 *     (clang 21+), "Clang front-end time report" (clang 14-19), "Flang
 *     execution timing report".  clang prints it last; flang in the middle,
 *     followed only by the code generator's breakdowns (instruction
 *     selection, register allocation, DWARF).  opt and llc print none; they
 *     end with "LLVM IR Parsing".
 *   - "Pass execution timing report" breaks down the front end's pass
 *     manager rows: clang 22 prints one table for "Optimizer" and "Machine
 *     code generation", flang two (the new pass manager's for "LLVM IR
 *     optimizations", the legacy code generator's for "Assembly/Object code
 *     generation"), clang 14 two, both inside the "Code Generation Time" of
 *     its "Miscellaneous Ungrouped Timers", which breaks down the one row
 *     "Clang front-end timer".  Without a front end (opt, llc) the pass
 *     tables are the main reports, and so is "LLVM IR Parsing" (it runs
 *     before any pass).
 *   - "Analysis execution timing report" (LLVM 16+): new-pass-manager
 *     analyses, timed on their own stack while their pass's timer runs
 *     (llvm/lib/IR/PassTimingInfo.cpp), so inside the new pass manager's
 *     table -- the one whose rows are class names ("InstCombinePass").
 *   - "Instruction Selection and Scheduling" breaks down the pass row "...
 *     Instruction Selection", "Register Allocation" the "... Register
 *     Allocator" rows, "DWARF Emission" the "... Assembly Printer".
 *   - Any other table under a front end is inside it (its report is the
 *     whole compile); without one it counts as a phase of its own.
 * Splitting a run into compiles: a table after a clang front end's report,
 * a table after flang's that is not a code generator breakdown, a table
 * after "LLVM IR Parsing", and a title the compile already has (but for
 * the pass table, printed twice) each start a new compile.
 */
#include "parse/group.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ====== What a table is, by its title ====== */

typedef enum {
    NS__T_OTHER,    /* a table of no known place */
    NS__T_CLANG,    /* clang's front-end report: the compile, printed last */
    NS__T_FLANG,    /* flang's: the compile, code generator tables after it */
    NS__T_PASS,     /* Pass execution timing report */
    NS__T_ANALYSIS, /* Analysis execution timing report */
    NS__T_ISEL,     /* Instruction Selection and Scheduling */
    NS__T_RA,       /* Register Allocation */
    NS__T_DWARF,    /* DWARF Emission */
    NS__T_MISC,     /* Miscellaneous Ungrouped Timers */
    NS__T_PARSING,  /* LLVM IR Parsing: opt and llc print it last */
} ns__tkind;

static const char *const ns__flang_title = "Flang execution timing report";

static ns__tkind ns__kind(const ns_report *r) {
    const char *t = r->title ? r->title : "";
    if (r->producer != NS_PROD_LLVM) return strcmp(t, ns__flang_title) ? NS__T_OTHER : NS__T_FLANG;
    if (!strcmp(t, "Clang time report") || !strcmp(t, "Clang front-end time report"))
        return NS__T_CLANG;
    if (strstr(t, "Pass execution timing report")) return NS__T_PASS;
    if (strstr(t, "Analysis execution timing report")) return NS__T_ANALYSIS;
    if (!strcmp(t, "Instruction Selection and Scheduling")) return NS__T_ISEL;
    if (!strcmp(t, "Register Allocation")) return NS__T_RA;
    if (!strcmp(t, "DWARF Emission")) return NS__T_DWARF;
    if (!strcmp(t, "Miscellaneous Ungrouped Timers")) return NS__T_MISC;
    if (!strcmp(t, "LLVM IR Parsing")) return NS__T_PARSING;
    return NS__T_OTHER;
}

static int ns__groupable(const ns_report *r) {
    return r->producer == NS_PROD_LLVM ||
           (r->producer == NS_PROD_MLIR_TEXT && r->title && !strcmp(r->title, ns__flang_title));
}

/* ====== Rows ====== */

/* A new-pass-manager pass is named by its class: one word ending in
 * "Pass" before any template arguments or " #N" ("InstCombinePass",
 * "RequireAnalysisPass<...>"); a legacy pass by a phrase ("Loop Strength
 * Reduction", "Machine Copy Propagation Pass"). */
static int ns__class_named(const char *name) {
    size_t n = strcspn(name, "<");
    const char *sp = memchr(name, ' ', n);
    if (sp) {
        /* "InstCombinePass #2": only a " #digits" suffix may follow */
        const char *q = sp + 1;
        if (*q++ != '#' || !isdigit((unsigned char)*q)) return 0;
        while (isdigit((unsigned char)*q)) q++;
        if (q != name + n) return 0;
        n = (size_t)(sp - name);
    }
    return n > 4 && !memcmp(name + n - 4, "Pass", 4);
}

static int ns__class_rows(const ns_report *r) {
    int k = 0;
    for (const ns_node *c = r->root->child; c; c = c->next) k += ns__class_named(c->name);
    return k;
}

/* The top-level rows of r whose name is one of names (a NULL-ended list)
 * or, with sub, contains sub: "; "-joined in print order (new), or NULL. */
static char *ns__rows_new(const ns_report *r, const char *const *names, const char *sub) {
    ns_buf b = {0};
    for (const ns_node *c = r->root->child; c; c = c->next) {
        if (c->kind == NS_KIND_REST) continue;
        int hit = sub && strstr(c->name, sub);
        for (int i = 0; names && names[i] && !hit; i++) hit = !strcmp(c->name, names[i]);
        if (!hit) continue;
        if (b.len) ns_buf_puts(&b, "; ");
        ns_buf_puts(&b, c->name);
    }
    return b.len ? b.data : NULL;
}

/* ====== Linking one compile ====== */

/* The front end's rows a pass table breaks down: the optimizer's, the
 * code generator's, or clang 14's one timer for both. */
static const char *const ns__opt_rows[] = {"Optimizer", "LLVM IR optimizations",
                                           "Code Generation Time", NULL};
static const char *const ns__cg_rows[] = {"Machine code generation",
                                          "Assembly/Object code generation",
                                          "Code Generation Time", NULL};
static const char *const ns__all_rows[] = {"Optimizer", "LLVM IR optimizations",
                                           "Machine code generation",
                                           "Assembly/Object code generation",
                                           "Code Generation Time", NULL};

static void ns__set(ns_report *r, const ns_report *parent, char *within) {
    r->parent = parent ? parent->index : -1;
    free(r->within);
    r->within = parent ? within : NULL;
    if (!parent) free(within);
}

/* Mark the top-level rows of parent that r breaks down (its within). */
static void ns__mark(const ns_report *r, ns_report *parent, unsigned char how) {
    if (!r->within) return;
    for (ns_node *c = parent->root->child; c; c = c->next) {
        size_t n = strlen(c->name);
        for (const char *w = r->within; w; w = strstr(w, "; ")) {
            if (w != r->within) w += 2;
            if (!strncmp(w, c->name, n) && (w[n] == 0 || !strncmp(w + n, "; ", 2))) {
                c->split = how;
                break;
            }
        }
    }
}

/* Point r at the first of the candidates that has rows matching names or
 * sub, and mark those rows split `how`; else at fallback (NULL: r is a
 * main report). */
static void ns__link_rows(ns_report *r, ns_report *const *cand, int ncand,
                          const char *const *names, const char *sub, ns_report *fallback,
                          unsigned char how) {
    for (int i = 0; i < ncand; i++) {
        if (cand[i] == r) continue;
        char *w = ns__rows_new(cand[i], names, sub);
        if (w) {
            ns__set(r, cand[i], w);
            ns__mark(r, cand[i], how);
            return;
        }
    }
    ns__set(r, fallback, NULL);
}

static void ns__link_compile(ns_report **r, int n) {
    if (n < 2) return;
    ns_report *front = NULL, *misc = NULL, *npm = NULL, *pass[NS_GROUP_MAX];
    int npass = 0, best = -1;
    for (int i = 0; i < n; i++) {
        r[i]->group = r[0]->index;
        ns__tkind k = ns__kind(r[i]);
        if (k == NS__T_CLANG || k == NS__T_FLANG) front = r[i];
        else if (k == NS__T_MISC && !misc) misc = r[i];
        else if (k == NS__T_PASS) {
            pass[npass++] = r[i];
            int c = ns__class_rows(r[i]);
            if (c > best) best = c, npm = r[i];
        }
    }
    /* where the front end's phases are printed: its report, or clang
     * 14's ungrouped timers */
    ns_report *phases[2];
    int nphases = 0;
    if (front) phases[nphases++] = front;
    if (front && misc) phases[nphases++] = misc;
    for (int i = 0; i < n; i++) {
        ns_report *t = r[i];
        switch (ns__kind(t)) {
        case NS__T_CLANG:
        case NS__T_FLANG:
            ns__set(t, NULL, NULL);
            break;
        case NS__T_MISC: {
            if (!front || t != misc) {
                ns__set(t, front, NULL);
                break;
            }
            /* the front end's one row, when it has one (clang 14) */
            int rows = 0;
            const ns_node *one = NULL;
            for (const ns_node *c = front->root->child; c; c = c->next)
                if (c->kind != NS_KIND_REST) rows++, one = c;
            ns__set(t, front, rows == 1 ? ns_strdup(one->name) : NULL);
            ns__mark(t, front, NS_SPLIT_PASSES);
            break;
        }
        case NS__T_PASS: {
            if (!front) {
                ns__set(t, NULL, NULL);
                break;
            }
            const char *const *names = npass == 1 ? ns__all_rows : t == npm ? ns__opt_rows : ns__cg_rows;
            ns__link_rows(t, phases, nphases, names, NULL, front, NS_SPLIT_PASSES);
            break;
        }
        case NS__T_ANALYSIS:
            ns__set(t, npm ? npm : front, NULL);
            break;
        case NS__T_ISEL:
            ns__link_rows(t, pass, npass, NULL, "Instruction Selection", front, NS_SPLIT_STEPS);
            break;
        case NS__T_RA:
            ns__link_rows(t, pass, npass, NULL, "Register Allocator", front, NS_SPLIT_STEPS);
            break;
        case NS__T_DWARF:
            ns__link_rows(t, pass, npass, NULL, "Assembly Printer", front, NS_SPLIT_STEPS);
            break;
        case NS__T_OTHER:
        case NS__T_PARSING:
            ns__set(t, front, NULL);
            break;
        }
    }
}

void ns_group_link(ns_report **r, int n) {
    int seg = 0;
    ns__tkind front = NS__T_OTHER; /* the current compile's front end, if seen */
    for (int i = 0; i < n; i++) {
        ns__tkind k = ns__kind(r[i]);
        int split = 0;
        if (front == NS__T_CLANG) split = 1;
        else if (front == NS__T_FLANG) split = k != NS__T_ISEL && k != NS__T_RA && k != NS__T_DWARF;
        else if (k != NS__T_PASS)
            for (int j = seg; j < i && !split; j++)
                split = r[j]->title && r[i]->title && !strcmp(r[j]->title, r[i]->title);
        if (split && i > seg) {
            ns__link_compile(r + seg, i - seg);
            seg = i;
            front = NS__T_OTHER;
        }
        if (k == NS__T_CLANG || k == NS__T_FLANG) front = k;
        if (k == NS__T_PARSING && front == NS__T_OTHER) {
            ns__link_compile(r + seg, i + 1 - seg);
            seg = i + 1;
        }
    }
    ns__link_compile(r + seg, n - seg);
}

/* ====== Holding a run of tables ====== */

void ns_group_init(ns_group *g, ns_sink sink, void *ctx) {
    memset(g, 0, sizeof *g);
    g->sink = sink;
    g->ctx = ctx;
}

static void ns__hand_on(ns_group *g, ns_report *r) {
    if (g->stop) ns_report_free(r);
    else if (g->sink(r, g->ctx) != 0) g->stop = 1;
}

static void ns__flush(ns_group *g) {
    ns_group_link(g->held, g->n);
    for (int i = 0; i < g->n; i++) ns__hand_on(g, g->held[i]);
    g->n = 0;
}

/* Does r continue the run of tables that ends with last? */
static int ns__adjacent(const ns_report *last, const ns_report *r) {
    return ns__groupable(r) && r->line > last->end_line &&
           r->line - last->end_line <= NS_GROUP_GAP && !strcmp(r->file, last->file);
}

int ns_group_sink(ns_report *r, void *ctx) {
    ns_group *g = ctx;
    if (g->n && (!ns__adjacent(g->held[g->n - 1], r) || g->n == NS_GROUP_MAX)) ns__flush(g);
    if (ns__groupable(r) && r->complete) g->held[g->n++] = r;
    else {
        if (g->n) ns__flush(g); /* keep the order they were printed in */
        ns__hand_on(g, r);
    }
    return g->stop;
}

int ns_group_end(ns_group *g) {
    ns__flush(g);
    return g->stop;
}

void ns_group_link_all(ns_report **r, int n) {
    int from = 0;
    for (int i = 0; i <= n; i++) {
        int keep = i < n && i > from && ns__adjacent(r[i - 1], r[i]) && i - from < NS_GROUP_MAX;
        if (keep) continue;
        /* r[from..i) is a run of tables, or one report */
        if (i > from && ns__groupable(r[from])) ns_group_link(r + from, i - from);
        from = i;
    }
}
