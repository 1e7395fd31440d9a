/* page_fighelp.c -- what the figure writers of the report page share
 * (page_int.h lists the module's files): a stage's colour, a figure's id
 * unique on the page, the page's stage names as an array.  It calls no
 * other file of the page, so page_figures.c and page_study.c both may.
 */
#include "render/page_int.h"

#include "render/svg.h"

#include <string.h>

/* ====== Colours, ids, labels ====== */

int ns__page_stage_color(const ns_page_figs *f, const char *name) {
    size_t k = ns_strmap_find(&f->m->table.stages, name);
    return k == (size_t)-1 ? NS_SVG_GREY : f->color[k];
}

/* A name usable as an element id and a file name: [A-Za-z0-9_-] kept,
 * anything else '_'. */
static void ns__put_ident(ns_buf *b, const char *s) {
    for (; *s; s++) {
        char c = *s;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '_' || c == '-';
        ns_buf_putc(b, ok ? c : '_');
    }
}

/* An id "PREFIX-NAME[-NAME2]" not yet used on the page (caller frees). */
char *ns__page_fig_id_new(const ns_page *p, const char *prefix, const char *a, const char *b) {
    ns_buf id = {0};
    ns_buf_puts(&id, prefix);
    if (a) {
        ns_buf_putc(&id, '-');
        ns__put_ident(&id, a);
    }
    if (b) {
        ns_buf_putc(&id, '-');
        ns__put_ident(&id, b);
    }
    size_t base = id.len;
    for (int k = 2;; k++) {
        int used = 0;
        for (int i = 0; i < p->nfigs && !used; i++) used = strcmp(p->figs[i].id, id.data) == 0;
        if (!used) break;
        id.len = base;
        ns_buf_printf(&id, "-%d", k);
    }
    return id.data;
}

/* The page's stage names, as an array for the drawings (caller frees). */
const char **ns__page_stage_names_new(const ns_page_model *m) {
    const ns_strmap *st = &m->table.stages;
    const char **names = ns_xcalloc(st->count + 1, sizeof *names);
    for (size_t k = 0; k < st->count; k++) names[k] = st->keys[k];
    return names;
}
