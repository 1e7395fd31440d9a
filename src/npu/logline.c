/* logline.c -- the vpux logger prefix and pass keys (logline.h). */
#include "npu/logline.h"

#include "model/stages.h"

#include <string.h>

static int ns__is_level(const char *s, size_t n) {
    static const char *const levels[] = {"FATAL", "ERROR", "WARNING", "INFO", "DEBUG", "TRACE",
                                         NULL};
    for (int i = 0; levels[i]; i++)
        if (strlen(levels[i]) == n && memcmp(levels[i], s, n) == 0) return 1;
    return 0;
}

int ns_logline_parse(const char *s, size_t n, ns_logline *l) {
    const char *p = s, *end = s + n;
    /* an ANSI colour first: ESC [ digits ; ... m */
    if (p < end && *p == '\033') {
        const char *m = memchr(p, 'm', (size_t)(end - p));
        if (!m || m - p > 16) return 0;
        p = m + 1;
    }
    if (p >= end || *p != '[') return 0;
    const char *lv = ++p;
    while (p < end && *p >= 'A' && *p <= 'Z') p++;
    if (p >= end || *p != ']' || !ns__is_level(lv, (size_t)(p - lv))) return 0;
    l->level = lv;
    l->level_len = (size_t)(p - lv);
    p++;
    /* " HH:MM:SS.mmm " (or "undefined_time"): up to the next " [" */
    if (p >= end || *p != ' ') return 0;
    const char *br = NULL;
    for (const char *q = p; q + 1 < end && q - p < 32; q++)
        if (q[0] == ' ' && q[1] == '[') {
            br = q + 1;
            break;
        }
    if (!br) return 0;
    const char *name = br + 1, *close = memchr(name, ']', (size_t)(end - name));
    if (!close || close == name || close - name > 128) return 0;
    l->logger = name;
    l->logger_len = (size_t)(close - name);
    p = close + 1;
    while (p < end && *p == ' ') p++;
    l->msg = p;
    l->msg_len = (size_t)(end - p);
    return 1;
}

const char *ns_logger_pass(const ns_stage_map *m, const char *name) {
    const char *pass = m ? ns_stage_logger_pass(m, name) : NULL;
    if (pass) return *pass ? pass : NULL;
    return *name ? name : NULL; /* no rule: the logger's own name gives the key */
}

size_t ns_pass_key(const char *name, size_t n, char *key, size_t size) {
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < size; i++) {
        char c = name[i];
        if (c >= 'A' && c <= 'Z') key[k++] = (char)(c - 'A' + 'a');
        else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) key[k++] = c;
    }
    if (k > 4 && memcmp(key + k - 4, "pass", 4) == 0) k -= 4;
    if (size) key[k] = 0;
    return k;
}
