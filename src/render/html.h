/* render_html.h -- the page of `npuscope report`: one self-contained HTML
 * file.
 *
 * What a person shares with their team is one file that opens anywhere:
 * from file://, with no network (a Content-Security-Policy meta tag forbids
 * every request, so the page cannot even try), in a light or dark scheme,
 * and on paper.  So the page carries everything: its CSS and JS (web/,
 * turned into C strings at build time by tools/embed.sh), its figures as
 * inline SVG (render_svg.c), its tables as HTML, and its timing trees as
 * JSON in a <script type="application/json"> block that the JS reads and
 * renders lazily.  Everything but the tree explorer is static HTML, so the
 * page reads and prints without JavaScript (with it, the figures and
 * tables are built from that same HTML after the first paint: html.c).
 *
 * Safety: every name from a log is text, never markup.  Here every string
 * goes through ns_xml_text; in the JSON block ns_json_str escapes '<' (so
 * "</script>" in a pass name cannot close the block); the JS only ever sets
 * textContent.
 *
 * This file lays out a page from an ns_page that render/page.c fills in
 * from the page model (analyse/page.h): it computes nothing.  Output is deterministic (no time, no locale, no
 * addresses), so the same input gives the same bytes.
 */
#ifndef NPUSCOPE_RENDER_HTML_H
#define NPUSCOPE_RENDER_HTML_H

#include "base/common.h"

/* ====== Embedded assets ======
 * Generated from web/report.css, web/report.js and web/picker.js (the
 * explorer's two parts, written into one function) and web/later.js (the
 * parts below the explorer built after the first paint, a function of its
 * own before them; tools/embed.sh, run by
 * make into $(BUILD)/web_assets.c).  Declared weak so that a program that
 * links the src/ files without the generated one (the fuzz targets) still
 * links; the report then stops with a message instead of writing a page
 * without them. */
extern const char ns_web_report_css[] __attribute__((weak));
extern const char ns_web_report_js[] __attribute__((weak));
extern const char ns_web_picker_js[] __attribute__((weak));
extern const char ns_web_later_js[] __attribute__((weak));

/* ====== Tables ====== */
typedef struct {
    char *id;        /* element id (owned) */
    char *caption;   /* table caption (owned) */
    char *note;      /* a sentence under the table, or NULL (owned) */
    int ncols;       /* columns */
    char **head;     /* column headers (owned) */
    unsigned char *num; /* per column: 1 = a number (right-aligned) (owned) */
    char **cells;    /* nrows x ncols, plain text; NULL = empty (owned) */
    char **cls;      /* nrows: a class for the row, or NULL (owned, may be NULL) */
    int nrows;       /* rows */
} ns_html_table;

/* Start a table with `ncols` columns named by the NULL-terminated list. */
void ns_html_table_init(ns_html_table *t, const char *id, const char *caption,
                        const char *const *head, const unsigned char *num);
/* Append a row; returns its cells (ncols, NULL) to fill with owned strings. */
char **ns_html_table_row(ns_html_table *t, const char *cls);
void ns_html_table_free(ns_html_table *t);

/* ====== Figures ====== */
typedef struct {
    char *id;       /* element id, also the standalone file's name stem (owned) */
    char *caption;  /* what the figure shows and how it was made (owned) */
    char *svg;      /* the SVG text (owned) */
    char *section;  /* "figures" or "passes": where it goes (static) */
} ns_html_figure;

/* ====== Method ====== */
typedef struct {
    char *term;  /* e.g. "commands" (owned) */
    char **vals; /* values, one per line (owned) */
    int nvals;   /* entries in vals */
    int code;    /* values are commands / settings: shown as code */
} ns_html_fact;

/* ====== Sections ======
 * A section of its own (What to change, and any a new part of the page
 * adds: one call of ns_page_section each), laid out after the key findings
 * in the order added, with a link in the table of contents. */
typedef struct {
    char *id;    /* element id (owned) */
    char *title; /* heading (owned) */
    ns_buf html; /* the body: markup whose every text went through ns_xml_text (owned) */
} ns_html_section;

/* ====== The page ====== */
typedef struct ns_page_s {
    char *title;               /* <title> and heading (owned) */
    char *subtitle;            /* what was read (owned) */
    char **findings;           /* key findings, one sentence each (owned) */
    int nfindings;             /* entries */
    ns_buf data;               /* the JSON of the data block (owned) */
    int nreports;              /* reports in the data block */
    char *tree_note;           /* which reports the explorer holds (owned, or NULL) */
    ns_html_table *tables;     /* cold/warm, diff (owned) */
    int ntables;               /* entries */
    ns_html_figure *figs;      /* figures, in page order (owned) */
    int nfigs;                 /* entries */
    char *figs_note;           /* why some figures are missing (owned, or NULL) */
    ns_html_fact *facts;       /* method & reproducibility (owned) */
    int nfacts;                /* entries */
    ns_html_section *sections; /* sections after the key findings (owned) */
    int nsections;             /* entries */
    ns_buf findings_json;      /* `advise --format json` of the same inputs, embedded
                                * as is (owned; empty: no block) */
} ns_page;

/* Add a figure (takes ownership of svg); returns it. */
ns_html_figure *ns_page_figure(ns_page *p, const char *id, const char *section,
                               const char *caption, char *svg);
/* Add a table (zeroed, to initialise with ns_html_table_init). */
ns_html_table *ns_page_table(ns_page *p);
/* Add a finding (printf-style sentence). */
void ns_page_finding(ns_page *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Add a section (after the key findings, in the order added); returns it
 * to write its body into. */
ns_html_section *ns_page_section(ns_page *p, const char *id, const char *title);
/* Add a method fact; returns it for ns_page_fact_add. */
ns_html_fact *ns_page_fact(ns_page *p, const char *term, int code);
void ns_page_fact_add(ns_html_fact *f, const char *value);
void ns_page_free(ns_page *p);

/* Write the whole document into b.  Returns 0, or -1 when the program was
 * built without the web assets (message printed). */
int ns_html_page(ns_buf *b, const ns_page *p);

#endif
