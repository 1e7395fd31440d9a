/* model_name.c -- the rules of model_name.h. */
#include "analyse/model_name.h"

#include "base/common.h"

#include <stdlib.h>
#include <string.h>

static int ns__sep(char c) { return c == '-' || c == '_' || c == '.' || c == '/' || c == ' '; }
static int ns__digit(char c) { return c >= '0' && c <= '9'; }

typedef struct {
    double value; /* billions */
    size_t at;    /* offset of the word */
    size_t len;   /* its length */
    int billions; /* the unit was b */
} ns__cand;

/* A candidate starting at i (a digit after a separator or the start):
 * returns 1 and fills c. */
static int ns__candidate(const char *s, size_t i, ns__cand *c) {
    size_t j = i;
    double v = 0;
    while (ns__digit(s[j])) v = v * 10 + (s[j++] - '0');
    if ((s[j] == '.' || s[j] == '_') && ns__digit(s[j + 1])) {
        double scale = 0.1;
        j++;
        while (ns__digit(s[j])) {
            v += (s[j++] - '0') * scale;
            scale /= 10;
        }
    }
    char u = s[j];
    if (u != 'b' && u != 'B' && u != 'm' && u != 'M') return 0;
    if (s[j + 1] && !ns__sep(s[j + 1])) return 0;
    if (v <= 0) return 0;
    c->billions = u == 'b' || u == 'B';
    c->value = c->billions ? v : v / 1000;
    c->at = i;
    c->len = j + 1 - i;
    return 1;
}

int ns_model_size_b(const char *name, double *size_b, size_t *at, size_t *len) {
    ns__cand found[16];
    int n = 0;
    for (size_t i = 0; name[i] && n < 16; i++) {
        if (!ns__digit(name[i]) || (i > 0 && !ns__sep(name[i - 1]))) continue;
        /* the decimal part of a number before it (2.5, v1.5b) starts nothing;
         * '_' between digits is a separator here (qwen25_1_5b: 1_5b) */
        if (i > 1 && name[i - 1] == '.' && ns__digit(name[i - 2])) continue;
        ns__cand c;
        if (ns__candidate(name, i, &c)) {
            found[n++] = c;
            i = c.at + c.len - 1; /* past the whole word */
        }
        while (ns__digit(name[i + 1])) i++; /* the rest of this number */
    }
    if (n == 0) return 0;
    int pick = -1, nb = 0;
    for (int k = 0; k < n; k++)
        if (found[k].billions) {
            if (nb++ && found[k].value != found[pick].value) return 0; /* they disagree */
            if (pick < 0) pick = k;
        }
    if (pick < 0) {
        if (n > 1) return 0; /* several sizes in millions: which one? */
        pick = 0;
    }
    *size_b = found[pick].value;
    if (at) *at = found[pick].at;
    if (len) *len = found[pick].len;
    return 1;
}

char *ns_model_family_new(const char *name) {
    double v;
    size_t at, len;
    if (!ns_model_size_b(name, &v, &at, &len)) return ns_strdup(name);
    size_t n = strlen(name);
    size_t cut = at, end = at + len;
    if (cut > 0 && ns__sep(name[cut - 1])) cut--; /* the separator before the size */
    else if (end < n && ns__sep(name[end])) end++; /* a size first: the one after */
    char *f = ns_xmalloc(n + 1);
    memcpy(f, name, cut);
    memcpy(f + cut, name + end, n - end);
    f[cut + n - end] = 0;
    if (!*f) {
        free(f);
        return ns_strdup(name);
    }
    return f;
}
