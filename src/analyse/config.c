/* config.c -- runs grouped into configurations, and the labels that tell
 * apart configurations whose tags are the same (rules in dataset.h,
 * "Configurations").
 *
 * Why the command and the environment count: a run folder recorded
 * without tags says what it measured only through its command.  Two
 * folders of different pass pipelines, or of one command under different
 * `record --env`, given to `table` together, were one row with the median
 * of both -- a number about nothing.  A run's identity is therefore its
 * tags, its mode, its argv and the environment npuscope set for it, minus
 * the NPUSCOPE_* variables npuscope sets for every run (they are the mode,
 * the tags again, or a folder of the run's own).
 *
 * A row must also say which it is.  Tags already do; for configurations
 * that share their tags, the label is made of the words that differ: the
 * argv tokens and K=V pairs that not every configuration of the same tags
 * has.  The label is a pseudo-tag (a key of its own, shown, sorted and
 * compared like a tag), so every view that shows tags -- table columns,
 * report rows and figure legends, advise cases, tree --merge labels --
 * shows it without knowing of it, and cold/warm pairing and baseline
 * partners keep working (the label is the same in every mode and for
 * every value of another tag when the same words differ there).
 *
 * Deterministic: the variants of a group of tags are ordered by their
 * identity's bytes before anything is said about them, so the reading
 * order of the runs changes no label.  Left out: a command that differs
 * only by the order of its words is another configuration (argv order can
 * matter), labelled by a hash when its words are the same.
 */
#include "analyse/dataset.h"

#include "base/strmap.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ====== Identity ====== */

/* Does the environment variable `k` (as run.json keeps what npuscope set)
 * define the configuration?  Not the NPUSCOPE_* variables npuscope sets
 * for every run: MODE is the mode, PARAM_* the tags, RUN_DIR and
 * CACHE_DIR a run's own folders. */
static int ns__env_defines(const char *k) {
    if (strncmp(k, "NPUSCOPE_", 9) != 0) return 1;
    k += 9;
    return strcmp(k, "MODE") && strcmp(k, "RUN_DIR") && strcmp(k, "CACHE_DIR") &&
           strncmp(k, "PARAM_", 6);
}

static int ns__cmp_kvp(const void *a, const void *b) {
    return strcmp((*(const ns_kv *const *)a)->key, (*(const ns_kv *const *)b)->key);
}

/* The defining variables of r, sorted by key, into a new array. */
static const ns_kv **ns__env_sorted_new(const ns_run *r, int *n) {
    const ns_kv **e = ns_xcalloc((size_t)r->env.n + 1, sizeof *e);
    *n = 0;
    for (int i = 0; i < r->env.n; i++)
        if (ns__env_defines(r->env.items[i].key)) e[(*n)++] = &r->env.items[i];
    qsort(e, (size_t)*n, sizeof *e, ns__cmp_kvp);
    return e;
}

/* r's command and defining environment as one string, each word length-
 * prefixed (a word may hold any byte, so no separator could be trusted). */
static char *ns__ident_new(const ns_run *r) {
    ns_buf b = {0};
    ns_buf_puts(&b, "argv");
    for (int i = 0; r->argv && r->argv[i]; i++)
        ns_buf_printf(&b, " %zu:%s", strlen(r->argv[i]), r->argv[i]);
    ns_buf_puts(&b, " env");
    int ne;
    const ns_kv **e = ns__env_sorted_new(r, &ne);
    for (int i = 0; i < ne; i++)
        ns_buf_printf(&b, " %zu:%s=%zu:%s", strlen(e[i]->key), e[i]->key, strlen(e[i]->value),
                      e[i]->value);
    free(e);
    return b.data;
}

/* Same tags as tags[0..ntags), sorted by key like c's? */
static int ns__same_tags(const ns_config *c, const ns_kv **tags, int ntags) {
    if (c->ntags != ntags) return 0;
    for (int i = 0; i < ntags; i++)
        if (strcmp(c->tags[i]->key, tags[i]->key) || strcmp(c->tags[i]->value, tags[i]->value))
            return 0;
    return 1;
}

/* tags[0..nt) (sorted by key) as one string, each word length-prefixed:
 * the key configurations are grouped by in a hash map. */
static void ns__put_tags_key(ns_buf *b, const ns_kv *const *tags, int nt) {
    for (int i = 0; i < nt; i++)
        ns_buf_printf(b, "%zu:%s=%zu:%s;", strlen(tags[i]->key), tags[i]->key,
                      strlen(tags[i]->value), tags[i]->value);
}

/* ====== Words of a label ====== */

/* The words of a run: argv tokens, then K=V of the defining variables. */
typedef struct {
    char **w;  /* words (owned) */
    int n;     /* entries in w */
} ns__words;

static void ns__words_of(const ns_run *r, ns__words *out) {
    memset(out, 0, sizeof *out);
    int na = 0, ne;
    while (r->argv && r->argv[na]) na++;
    const ns_kv **e = ns__env_sorted_new(r, &ne);
    out->w = ns_xcalloc((size_t)(na + ne) + 1, sizeof *out->w);
    for (int i = 0; i < na; i++) out->w[out->n++] = ns_strdup(r->argv[i]);
    for (int i = 0; i < ne; i++) {
        ns_buf b = {0};
        ns_buf_printf(&b, "%s=%s", e[i]->key, e[i]->value);
        out->w[out->n++] = b.data;
    }
    free(e);
}

static void ns__words_free(ns__words *w) {
    for (int i = 0; i < w->n; i++) free(w->w[i]);
    free(w->w);
}

/* Characters of s (UTF-8: continuation bytes do not count). */
static size_t ns__chars(const char *s, size_t n) {
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* Byte offset of character `k` of s[0..n) (n when there are fewer). */
static size_t ns__char_at(const char *s, size_t n, size_t k) {
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80 && c++ == k) return i;
    return n;
}

#define NS__ELLIPSIS "\xe2\x80\xa6" /* U+2026 */

/* Characters at which a shared part of a flag's value may be cut: the
 * label keeps whole words of a pipeline, a path or a list. */
static int ns__sep(char c) { return strchr("(),;:/ .=+", c) != NULL && c; }

#define NS__SNAP 6 /* characters a cut may move to fall at a separator */

/* s[0..n) into b, its middle replaced by an ellipsis when it has more than
 * max characters (the head one longer than the tail); each cut moves, by
 * up to NS__SNAP characters inwards, to a separator, so whole words show
 * ("inline,…,cse)", not "inline,…e,cse)"). */
static void ns__put_short(ns_buf *b, const char *s, size_t n, size_t max) {
    size_t c = ns__chars(s, n);
    if (c <= max || max < 3) {
        ns_buf_add(b, s, n);
        return;
    }
    size_t keep = max - 1, head = (keep + 1) / 2, tail = keep - head;
    size_t hb = ns__char_at(s, n, head), tb = ns__char_at(s, n, c - tail);
    for (size_t k = 0, at = hb; k < NS__SNAP && at > 1; k++, at--)
        if (ns__sep(s[at - 1])) { hb = at; break; }  /* the head ends after a separator */
    for (size_t k = 0, at = tb; k < NS__SNAP && at + 1 < n; k++, at++)
        if (ns__sep(s[at])) { tb = at; break; }      /* the tail starts at one */
    while (hb > 0 && ((unsigned char)s[hb] & 0xC0) == 0x80) hb--; /* whole characters */
    while (tb < n && ((unsigned char)s[tb] & 0xC0) == 0x80) tb++;
    ns_buf_add(b, s, hb);
    ns_buf_puts(b, NS__ELLIPSIS);
    ns_buf_add(b, s + tb, n - tb);
}

/* "NAME=" of a word "--NAME=VALUE" or "K=V", its length; 0 when none. */
static size_t ns__flag_len(const char *w) {
    const char *eq = strchr(w, '=');
    return eq && eq > w ? (size_t)(eq - w) + 1 : 0;
}

#define NS__WORD_MAX 48  /* characters of one word of a label */
#define NS__LABEL_MAX 64 /* characters of a label */
#define NS__SHARED_MIN 4 /* a shared part shorter than this is kept */

/* Word w of a label, shortened: the part of its value that every sibling
 * word of the same flag (`sib`, n of them, w among them) shares at its
 * start or end goes (when long enough, cut at a separator), then the
 * middle when it is still too long. */
static void ns__put_word(ns_buf *b, const char *w, const char *const *sib, int n) {
    size_t fl = ns__flag_len(w), len = strlen(w);
    if (ns__chars(w, len) <= NS__WORD_MAX) { /* short enough: as it is, no sibling read */
        ns_buf_add(b, w, len);
        return;
    }
    const char *v = w + fl;
    size_t vl = len - fl, pre = vl, suf = vl;
    int others = 0;
    for (int i = 0; i < n; i++) {
        if (strncmp(sib[i], w, fl) != 0 || strcmp(sib[i], w) == 0) continue;
        others++;
        const char *o = sib[i] + fl;
        size_t ol = strlen(o), k = 0;
        while (k < pre && k < ol && o[k] == v[k]) k++;
        pre = k;
        k = 0;
        while (k < suf && k < ol && o[ol - 1 - k] == v[vl - 1 - k]) k++;
        suf = k;
    }
    if (!fl || !others) pre = suf = 0;
    while (pre && !ns__sep(v[pre - 1])) pre--;       /* cut after a separator */
    while (suf && !ns__sep(v[vl - suf])) suf--;      /* and before one */
    if (pre < NS__SHARED_MIN) pre = 0;
    if (suf < NS__SHARED_MIN) suf = 0;
    if (pre + suf >= vl) pre = suf = 0;
    ns_buf s = {0};
    ns_buf_add(&s, w, fl);
    if (pre) ns_buf_puts(&s, NS__ELLIPSIS);
    ns_buf_add(&s, v + pre, vl - pre - suf);
    if (suf) ns_buf_puts(&s, NS__ELLIPSIS);
    ns_buf_puts(&s, "");
    ns__put_short(b, s.data, s.len, NS__WORD_MAX);
    ns_buf_free(&s);
}

/* ====== Labels ====== */

static uint32_t ns__fnv1a(const char *s) {
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        h ^= *p;
        h *= 16777619u;
    }
    return h;
}

/* A variant of a group of tags: one command and environment. */
typedef struct {
    const char *ident; /* its identity (borrowed) */
    int seen;          /* its place in the order its group first met it */
    const ns_run *run; /* a run of it (borrowed) */
    ns__words words;   /* its words (owned) */
    char *label;       /* its label (owned) */
} ns__variant;

static int ns__cmp_variant(const void *a, const void *b) {
    return strcmp(((const ns__variant *)a)->ident, ((const ns__variant *)b)->ident);
}

/* Labels sorted, to find the ones that read the same. */
static int ns__cmp_label(const void *a, const void *b) {
    const ns__variant *x = *(const ns__variant *const *)a, *y = *(const ns__variant *const *)b;
    int c = strcmp(x->label, y->label);
    return c ? c : strcmp(x->ident, y->ident);
}

#define NS__LABEL_WORK (4 * NS__LABEL_MAX) /* bytes of a label before it is cut */

/* The labels of the variants v[0..n) (n >= 2, sorted by identity).
 * Linear in the words: a map counts in how many variants each word is,
 * and a label stops growing once it is longer than it will be shown. */
static void ns__label_variants(ns__variant *v, int n) {
    ns_strmap words;
    ns_strmap_init(&words);
    int *cnt = NULL, *mark = NULL; /* per word: variants that have it; the last to count */
    size_t cap = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < v[i].words.n; k++) {
            int added;
            size_t at = ns_strmap_intern(&words, v[i].words.w[k], &added);
            if (at >= cap) {
                size_t nc = cap ? cap * 2 : 64;
                while (nc <= at) nc *= 2;
                cnt = ns_xrealloc(cnt, sizeof *cnt * nc);
                mark = ns_xrealloc(mark, sizeof *mark * nc);
                for (size_t q = cap; q < nc; q++) cnt[q] = 0, mark[q] = -1;
                cap = nc;
            }
            if (mark[at] != i) cnt[at]++, mark[at] = i;
        }
    /* the words not every variant has, in order of first sight: the
     * siblings a long word is shortened against */
    const char **odd = ns_xcalloc(words.count + 1, sizeof *odd);
    int nodd = 0;
    for (size_t w = 0; w < words.count; w++)
        if (cnt[w] < n) odd[nodd++] = words.keys[w];
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < v[i].words.n; k++) /* mark: the words variant i has */
            mark[ns_strmap_find(&words, v[i].words.w[k])] = n + i;
        ns_buf b = {0};
        int said = 0;
        for (int k = 0; k < v[i].words.n && b.len < NS__LABEL_WORK; k++) {
            const char *w = v[i].words.w[k];
            if (cnt[ns_strmap_find(&words, w)] == n) continue; /* every variant has it */
            if (said++) ns_buf_putc(&b, ' ');
            ns__put_word(&b, w, odd, nodd);
        }
        if (!said) { /* its words are the common ones: say what it lacks */
            ns_buf_puts(&b, "without");
            size_t bare = b.len;
            for (int j = 0; j < nodd && b.len < NS__LABEL_WORK; j++) {
                if (mark[ns_strmap_find(&words, odd[j])] == n + i) continue; /* it has it */
                /* a flag or variable it lacks is named once, without values */
                size_t fl = ns__flag_len(odd[j]);
                int named = 0;
                for (int q = 0; q < j && fl && !named; q++)
                    named = !strncmp(odd[q], odd[j], fl) &&
                            mark[ns_strmap_find(&words, odd[q])] != n + i;
                if (named) continue;
                ns_buf_putc(&b, ' ');
                if (fl) ns_buf_add(&b, odd[j], fl - 1);
                else ns__put_word(&b, odd[j], odd, nodd);
            }
            if (b.len == bare) { /* the same words in another order */
                b.len = 0;
                ns_buf_puts(&b, "command");
            }
        }
        ns_buf_puts(&b, "");
        ns_buf s = {0};
        ns__put_short(&s, b.data, b.len, NS__LABEL_MAX);
        ns_buf_puts(&s, "");
        v[i].label = s.data;
        ns_buf_free(&b);
    }
    free(odd);
    free(cnt);
    free(mark);
    ns_strmap_free(&words);
    /* labels that read the same (words reordered, or cut alike) get a hash */
    ns__variant **by = ns_xcalloc((size_t)n + 1, sizeof *by);
    char *dup = ns_xcalloc((size_t)n + 1, 1);
    for (int i = 0; i < n; i++) by[i] = &v[i];
    qsort(by, (size_t)n, sizeof *by, ns__cmp_label);
    for (int i = 0; i + 1 < n; i++)
        if (!strcmp(by[i]->label, by[i + 1]->label)) dup[by[i] - v] = dup[by[i + 1] - v] = 1;
    for (int i = 0; i < n; i++) {
        if (!dup[i]) continue;
        ns_buf b = {0};
        ns_buf_printf(&b, "%s #%08x", v[i].label, (unsigned)ns__fnv1a(v[i].ident));
        free(v[i].label);
        v[i].label = b.data;
    }
    free(dup);
    free(by);
}

/* The key labels are shown under: "config", unless a run has such a tag. */
static char ns__label_keys[][24] = {"config", "command_config", "npuscope_config"};

static const char *ns__label_key(const ns_run *runs, int nruns) {
    size_t n = sizeof ns__label_keys / sizeof ns__label_keys[0];
    for (size_t k = 0; k < n; k++) {
        int used = 0;
        for (int i = 0; i < nruns && !used; i++)
            used = ns_kv_get(&runs[i].tags, ns__label_keys[k]) != NULL;
        if (!used || k == n - 1) return ns__label_keys[k];
    }
    return ns__label_keys[0];
}

/* Label the configurations cf[0..n) that share their tags with another of
 * another command or environment; ident[i] is cf[i]'s identity.  Linear:
 * the groups of equal tags, and the variants of a group, are found through
 * hash maps (20,000 configurations were 20,000^2 tag comparisons). */
static void ns__label(const ns_run *runs, int nruns, ns_config *cf, int n, char **ident,
                      const char ***keys, int *nkeys) {
    /* group[i]: cf[i]'s group of tags, numbered by first appearance */
    ns_strmap groups;
    ns_strmap_init(&groups);
    int *group = ns_xcalloc((size_t)n + 1, sizeof *group);
    ns_buf kb = {0};
    for (int i = 0; i < n; i++) {
        kb.len = 0;
        ns_buf_puts(&kb, ""); /* no tags: the empty key, not what the buffer held */
        ns__put_tags_key(&kb, (const ns_kv *const *)cf[i].tags, cf[i].ntags);
        int added;
        group[i] = (int)ns_strmap_intern(&groups, kb.data, &added);
    }
    int ng = (int)groups.count;
    ns_strmap_free(&groups);
    ns_buf_free(&kb);
    /* the members of each group, in configuration order (a counting sort) */
    int *start = ns_xcalloc((size_t)ng + 2, sizeof *start);
    int *members = ns_xcalloc((size_t)n + 1, sizeof *members);
    for (int i = 0; i < n; i++) start[group[i] + 1]++;
    for (int g = 0; g < ng; g++) start[g + 1] += start[g];
    int *fill = ns_xcalloc((size_t)ng + 1, sizeof *fill);
    for (int i = 0; i < n; i++) members[start[group[i]] + fill[group[i]]++] = i;
    free(fill);
    ns__variant *v = ns_xcalloc((size_t)n + 1, sizeof *v);
    int *vof = ns_xcalloc((size_t)n + 1, sizeof *vof); /* member -> its variant (first-seen order) */
    int *pos = ns_xcalloc((size_t)n + 1, sizeof *pos); /* first-seen order -> sorted place */
    const char *key = NULL;
    for (int g = 0; g < ng; g++) {
        const int *m = members + start[g];
        int nm = start[g + 1] - start[g], nv = 0;
        if (nm < 2) continue; /* one configuration: nothing to tell apart */
        ns_strmap ids;
        ns_strmap_init(&ids);
        for (int q = 0; q < nm; q++) {
            int added;
            vof[q] = (int)ns_strmap_intern(&ids, ident[m[q]], &added);
            if (added) v[nv++] = (ns__variant){ident[m[q]], vof[q], &runs[cf[m[q]].runs[0]], {0}, NULL};
        }
        ns_strmap_free(&ids);
        if (nv < 2) continue;
        qsort(v, (size_t)nv, sizeof *v, ns__cmp_variant);
        for (int k = 0; k < nv; k++) pos[v[k].seen] = k;
        for (int k = 0; k < nv; k++) ns__words_of(v[k].run, &v[k].words);
        ns__label_variants(v, nv);
        if (!key) key = ns__label_key(runs, nruns);
        for (int q = 0; q < nm; q++) {
            ns_config *c = &cf[m[q]];
            c->label = ns_xcalloc(1, sizeof *c->label);
            c->label->key = (char *)key; /* one of ns__label_keys: static, never freed */
            c->label->value = ns_strdup(v[pos[vof[q]]].label);
        }
        for (int k = 0; k < nv; k++) {
            ns__words_free(&v[k].words);
            free(v[k].label);
        }
    }
    /* the label joins the tags, in its place by key */
    for (int i = 0; i < n; i++) {
        if (!cf[i].label) continue;
        cf[i].tags = ns_xrealloc(cf[i].tags, sizeof *cf[i].tags * (size_t)(cf[i].ntags + 2));
        cf[i].tags[cf[i].ntags++] = cf[i].label;
        qsort(cf[i].tags, (size_t)cf[i].ntags, sizeof *cf[i].tags, ns__cmp_kvp);
    }
    if (key) ns_key_add(keys, nkeys, key);
    free(pos);
    free(vof);
    free(members);
    free(start);
    free(group);
    free(v);
}

/* ====== Grouping ====== */

/* Entries for an array that holds n: the next power of two (so that
 * growing by one each time copies the array log n times, not n). */
static int ns__grows(int n) { return n == 0 || (n & (n - 1)) == 0; }

int ns_configs_new(const ns_run *runs, int nruns, ns_config **out, const char ***keys,
                   int *nkeys) {
    ns_config *cf = NULL;
    char **ident = NULL; /* per configuration: its identity (owned) */
    int n = 0;
    /* a configuration is found by its mode, tags and identity in a hash
     * map (index = configuration, both in order of first appearance) */
    ns_strmap seen, known; /* configurations; tag keys already in *keys */
    ns_strmap_init(&seen);
    ns_strmap_init(&known);
    int added;
    for (int k = 0; k < *nkeys; k++) ns_strmap_intern(&known, (*keys)[k], &added);
    ns_buf kb = {0};
    for (int i = 0; i < nruns; i++) {
        const ns_run *r = &runs[i];
        int nt = r->tags.n;
        const ns_kv **tags = ns_xcalloc((size_t)nt + 1, sizeof *tags);
        for (int k = 0; k < nt; k++) tags[k] = &r->tags.items[k];
        qsort(tags, (size_t)nt, sizeof *tags, ns__cmp_kvp);
        for (int k = 0; k < nt; k++) { /* a new key joins the list (no scan of it per tag) */
            ns_strmap_intern(&known, r->tags.items[k].key, &added);
            if (!added) continue;
            /* the caller's array is sized exactly (ns_key_add's way) */
            *keys = ns_xrealloc(*keys, sizeof **keys * (size_t)(*nkeys + 1));
            (*keys)[(*nkeys)++] = r->tags.items[k].key;
        }
        char *id = ns__ident_new(r);
        kb.len = 0;
        ns_buf_printf(&kb, "%zu:%s;", strlen(r->mode), r->mode);
        ns__put_tags_key(&kb, tags, nt);
        ns_buf_puts(&kb, id);
        size_t at = ns_strmap_intern(&seen, kb.data, &added);
        ns_config *c;
        if (!added) {
            c = &cf[at];
            free(tags);
            free(id);
        } else {
            if (ns__grows(n)) {
                size_t cap = (size_t)(n ? 2 * n : 1);
                cf = ns_xrealloc(cf, sizeof *cf * cap);
                ident = ns_xrealloc(ident, sizeof *ident * cap);
            }
            ident[n] = id;
            c = &cf[n++];
            memset(c, 0, sizeof *c);
            c->tags = tags;
            c->ntags = nt;
            c->mode = r->mode;
        }
        if (ns__grows(c->nruns))
            c->runs = ns_xrealloc(c->runs, sizeof *c->runs * (size_t)(c->nruns ? 2 * c->nruns : 1));
        c->runs[c->nruns++] = i;
    }
    ns_strmap_free(&seen);
    ns_strmap_free(&known);
    ns_buf_free(&kb);
    ns__label(runs, nruns, cf, n, ident, keys, nkeys);
    for (int k = 0; k < n; k++) free(ident[k]);
    free(ident);
    *out = cf;
    return n;
}

void ns_config_free(ns_config *c) {
    free(c->tags);
    free(c->runs);
    if (c->label) free(c->label->value);
    free(c->label);
    memset(c, 0, sizeof *c);
}

void ns_key_add(const char ***keys, int *nkeys, const char *key) {
    for (int i = 0; i < *nkeys; i++)
        if (strcmp((*keys)[i], key) == 0) return;
    *keys = ns_xrealloc(*keys, sizeof **keys * (size_t)(*nkeys + 1));
    (*keys)[(*nkeys)++] = key;
}

/* ====== Questions ====== */

const char *ns_config_tag(const ns_config *c, const char *key) {
    /* the tags are sorted by key (and unique): a binary search */
    int lo = 0, hi = c->ntags;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2, d = strcmp(c->tags[mid]->key, key);
        if (d == 0) return c->tags[mid]->value;
        if (d < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

const char *ns_config_label(const ns_config *c) { return c->label ? c->label->value : NULL; }

const char *ns_config_label_key(const ns_config *c) { return c->label ? c->label->key : NULL; }

int ns_config_same_tags(const ns_config *a, const ns_config *b) {
    return ns__same_tags(a, b->tags, b->ntags);
}

void ns_config_put_key(ns_buf *b, const ns_config *c, int with_mode, const char *skip) {
    if (with_mode) ns_buf_printf(b, "%zu:%s;", strlen(c->mode), c->mode);
    for (int i = 0; i < c->ntags; i++)
        if (!skip || strcmp(c->tags[i]->key, skip) != 0)
            ns__put_tags_key(b, (const ns_kv *const *)&c->tags[i], 1);
}

int *ns_config_groups_new(const ns_config *const *cfg, int n, int *ngroups) {
    int *id = ns_xcalloc((size_t)n + 1, sizeof *id);
    ns_strmap m;
    ns_strmap_init(&m);
    ns_buf kb = {0};
    for (int i = 0; i < n; i++) {
        kb.len = 0;
        ns_buf_puts(&kb, "");
        ns_config_put_key(&kb, cfg[i], 0, NULL);
        int added;
        id[i] = (int)ns_strmap_intern(&m, kb.data, &added);
    }
    *ngroups = (int)m.count;
    ns_buf_free(&kb);
    ns_strmap_free(&m);
    return id;
}

int ns_config_partner(const ns_config *a, const ns_config *b, const char *key, const char *value) {
    if (strcmp(a->mode, b->mode) != 0 || a->ntags != b->ntags) return 0;
    const char *av = ns_config_tag(a, key), *bv = ns_config_tag(b, key);
    if (!av || !bv || strcmp(bv, value) != 0) return 0;
    for (int i = 0; i < a->ntags; i++) {
        if (strcmp(a->tags[i]->key, key) == 0) continue;
        const char *o = ns_config_tag(b, a->tags[i]->key);
        if (!o || strcmp(o, a->tags[i]->value) != 0) return 0;
    }
    return 1;
}

int ns_config_cmp(const ns_config *a, const ns_config *b, const char *const *keys, int nkeys) {
    for (int k = 0; k < nkeys; k++) {
        int c = ns_text_cmp(ns_config_tag(a, keys[k]), ns_config_tag(b, keys[k]));
        if (c) return c;
    }
    int c = ns_mode_rank(a->mode) - ns_mode_rank(b->mode);
    return c ? c : strcmp(a->mode, b->mode);
}
