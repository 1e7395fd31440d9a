/* status.c -- the status line's text (status.h). */
#include "render/status.h"

#include "base/display.h"

#include <math.h>
#include <string.h>

/* Characters in s (UTF-8 continuation bytes do not count). */
static int ns__cols(const char *s, size_t n) {
    int c = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) c++;
    return c;
}

/* A part, appended when it fits in width (with its separator). */
static int ns__part(ns_buf *b, int *used, int width, const char *text) {
    /* names come from the compile: shown as everywhere (base/display.h),
     * so no control or bidi character reaches the terminal */
    ns_buf shown = {0};
    ns_display_name(&shown, text);
    const char *t = shown.data ? shown.data : "";
    int sep = b->len ? 3 : 0; /* " · " */
    int n = ns__cols(t, strlen(t));
    int fits = *used + sep + n <= width;
    if (fits) {
        if (sep) ns_buf_puts(b, " \xc2\xb7 ");
        ns_buf_puts(b, t);
        *used += sep + n;
    }
    ns_buf_free(&shown);
    return fits;
}

static void ns__dur(char *buf, size_t n, double s) {
    if (!isfinite(s) || s < 0) snprintf(buf, n, "?");
    else if (s < 60) snprintf(buf, n, "%.1fs", s);
    else if (s < 3600) snprintf(buf, n, "%dm%02ds", (int)(s / 60), (int)fmod(s, 60));
    else snprintf(buf, n, "%dh%02dm", (int)(s / 3600), (int)fmod(s / 60, 60));
}

void ns_status_format(ns_buf *out, const ns_status *st, int width) {
    ns_buf b = {0};
    int used = 10; /* "npuscope: " */
    char tmp[256], d[32];
    if (width < 20) width = 20;
    if (st->run) ns__part(&b, &used, width, st->run);
    ns__dur(d, sizeof d, st->elapsed_s);
    ns__part(&b, &used, width, d);
    if (st->compile > 0) {
        if (st->ncompiles > 0) snprintf(tmp, sizeof tmp, "%d/%d", st->compile, st->ncompiles);
        else snprintf(tmp, sizeof tmp, "compile %d", st->compile);
        if (st->label && *st->label) {
            size_t k = strlen(tmp);
            snprintf(tmp + k, sizeof tmp - k, " %.120s", st->label);
        }
        ns__part(&b, &used, width, tmp);
    }
    if (st->pass) {
        snprintf(tmp, sizeof tmp, "%.200s", st->pass);
        ns__part(&b, &used, width, tmp);
    }
    if (st->slower > 0) {
        snprintf(tmp, sizeof tmp, "%.1fx the last run at this pass", st->slower);
        ns__part(&b, &used, width, tmp);
    } else if (st->share >= 0) {
        ns__dur(d, sizeof d, st->left_s);
        if (st->left_s >= 0) snprintf(tmp, sizeof tmp, "%.0f%% of the last run, ~%s left", st->share * 100, d);
        else snprintf(tmp, sizeof tmp, "%.0f%% of the last run", st->share * 100);
        if (!ns__part(&b, &used, width, tmp)) {
            snprintf(tmp, sizeof tmp, "%.0f%%", st->share * 100);
            ns__part(&b, &used, width, tmp);
        }
    }
    if (st->last_report) ns__part(&b, &used, width, st->last_report);
    ns_buf_puts(out, "npuscope: ");
    if (b.len) ns_buf_add(out, b.data, b.len);
    ns_buf_free(&b);
}
