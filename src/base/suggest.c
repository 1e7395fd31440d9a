/* suggest.c -- "did you mean" (suggest.h): the optimal string alignment
 * distance between a word and each candidate, on two rows of a table plus
 * the one before them; words longer than 64 bytes are not compared (a
 * typo is short).  Nothing here allocates.
 */
#include "base/suggest.h"

#include <ctype.h>
#include <string.h>

#define NS__SUGGEST_MAX 64

static int ns__min(int a, int b) { return a < b ? a : b; }

/* The distance between a and b, case ignored (both at most NS__SUGGEST_MAX). */
static int ns__distance(const char *a, size_t la, const char *b, size_t lb) {
    int rows[3][NS__SUGGEST_MAX + 1];
    int *pp = rows[0], *p = rows[1], *c = rows[2];
    for (size_t j = 0; j <= lb; j++) p[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        c[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            c[j] = ns__min(ns__min(p[j] + 1, c[j - 1] + 1), p[j - 1] + !same);
            if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]))
                c[j] = ns__min(c[j], pp[j - 2] + 1);
        }
        int *t = pp;
        pp = p;
        p = c;
        c = t;
    }
    return p[lb];
}

const char *ns_suggest(const char *word, const char *const *cands, size_t n) {
    size_t lw = strlen(word);
    if (!lw || lw > NS__SUGGEST_MAX) return NULL;
    const char *best = NULL;
    int bd = 0;
    for (size_t i = 0; i < n; i++) {
        size_t lc = strlen(cands[i]);
        if (lc > NS__SUGGEST_MAX) continue;
        int d = ns__distance(word, lw, cands[i], lc);
        if (!best || d < bd) best = cands[i], bd = d;
    }
    /* near: one edit for a short word, about a third of a longer one */
    int limit = lw <= 4 ? 1 : (int)(lw + 2) / 3;
    return best && bd > 0 && bd <= limit ? best : NULL;
}
