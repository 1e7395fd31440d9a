/* num.c -- exact, locale-independent parsing and printing of report numbers.
 *
 * Up to 15 significant digits and 22 decimals, a value is computed as
 * mantissa / 10^decimals: both operands are exact doubles and IEEE division
 * rounds once, so the result is the double nearest to the printed decimal and
 * printing it back with the same number of decimals reproduces the text.
 * Longer numbers fall back to strtod; npuscope never calls setlocale(), so
 * strtod and printf stay in the "C" locale.
 */
#include "base/num.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const double ns__pow10[] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Case-insensitive match of a three-letter word. */
static int ns__word(const char *s, const char *end, const char *w) {
    if (end - s < 3) return 0;
    return (s[0] | 0x20) == w[0] && (s[1] | 0x20) == w[1] && (s[2] | 0x20) == w[2];
}

/* Skip a sign and the leading zeros of an integer part ("-007.5" -> "7.5",
 * "0.5" stays). */
static const char *ns__digits(const char *s) {
    if (*s == '-' || *s == '+') s++;
    while (s[0] == '0' && s[1] >= '0' && s[1] <= '9') s++;
    return s;
}

/* Does printing v with dec decimals give the digits of text (a number
 * without exponent)?  Signs and leading zeros aside: "-0.0000" and
 * "+007.5" are exact. */
static int ns__reprints(const char *text, double v, int dec) {
    if (!isfinite(v)) return 0;
    ns_buf b = {0};
    ns_buf_printf(&b, "%.*f", dec, v);
    int same = strcmp(ns__digits(b.data), ns__digits(text)) == 0;
    ns_buf_free(&b);
    return same;
}

int ns_num_parse(const char **pp, const char *end, ns_num *out) {
    const char *p = *pp, *start = p;
    int neg = 0;
    if (p < end && (*p == '-' || *p == '+')) neg = (*p++ == '-');
    if (p < end && ((*p | 0x20) == 'n' || (*p | 0x20) == 'i') &&
        (ns__word(p, end, "nan") || ns__word(p, end, "inf"))) {
        out->v = (*p | 0x20) == 'n' ? NAN : INFINITY;
        if (neg) out->v = -out->v;
        out->dec = NS_DEC_WORD;
        out->inexact = 0;
        *pp = p + 3;
        return 0;
    }
    /* Digits go into mant; sig counts significant digits (leading zeros
     * excluded), so mant is exact while sig <= 19. */
    uint64_t mant = 0;
    int sig = 0, dec = 0, digits = 0;
    for (; p < end && (unsigned)(*p - '0') <= 9; p++, digits++) {
        mant = mant * 10 + (uint64_t)(*p - '0');
        if (mant) sig++;
        if (sig > 19) break;
    }
    while (p < end && (unsigned)(*p - '0') <= 9) p++, digits++, sig++;
    if (p < end && *p == '.') {
        for (p++; p < end && (unsigned)(*p - '0') <= 9; p++, dec++, digits++) {
            if (sig >= 19) {
                sig++;
                continue;
            }
            mant = mant * 10 + (uint64_t)(*p - '0');
            if (mant) sig++;
        }
    }
    if (!digits) return -1;
    int has_exp = 0;
    if (p + 1 < end && (*p == 'e' || *p == 'E') &&
        (p[1] == '-' || p[1] == '+' || (p[1] >= '0' && p[1] <= '9'))) {
        has_exp = 1;
        p += 2;
        while (p < end && *p >= '0' && *p <= '9') p++;
    }
    double v;
    out->inexact = 0;
    if (!has_exp && sig <= 15 && dec <= 22) {
        /* at most 15 significant digits: a double holds them exactly
         * enough that printing with dec decimals gives them back */
        v = (double)mant / ns__pow10[dec];
    } else {
        char small[128];
        size_t n = (size_t)(p - start);
        char *tmp = n < sizeof small ? small : ns_xmalloc(n + 1);
        memcpy(tmp, start, n);
        tmp[n] = 0;
        v = strtod(tmp, NULL);
        neg = 0; /* strtod saw the sign */
        if (!has_exp) out->inexact = !ns__reprints(tmp, v, dec > 60 ? 60 : dec);
        if (tmp != small) free(tmp);
    }
    out->v = neg ? -v : v;
    out->dec = (signed char)(has_exp ? 17 : (dec > 60 ? 60 : dec));
    *pp = p;
    return 0;
}

void ns_num_put(ns_buf *b, ns_num n, int width) {
    if (n.dec == NS_DEC_ABSENT) return;
    if (n.dec == NS_DEC_WORD) {
        const char *w = isnan(n.v) ? (signbit(n.v) ? "-nan" : "nan")
                                   : (signbit(n.v) ? "-inf" : "inf");
        int pad = width - (int)strlen(w);
        if (pad > 0) ns_buf_pad(b, ' ', (size_t)pad);
        ns_buf_puts(b, w);
        return;
    }
    /* beyond 1e15 a fixed-point print is hundreds of digits a double does
     * not hold (1e308 was read with a warning): the short exact form */
    if (fabs(n.v) >= 1e15) ns_buf_printf(b, "%*.17g", width, n.v);
    else ns_buf_printf(b, "%*.*f", width, n.dec, n.v);
}

void ns_num_put_json(ns_buf *b, ns_num n) {
    if (n.dec < 0 || !isfinite(n.v)) {
        ns_buf_puts(b, "null");
        return;
    }
    if (fabs(n.v) >= 1e15) ns_buf_printf(b, "%.17g", n.v); /* as ns_num_put */
    else ns_buf_printf(b, "%.*f", n.dec, n.v);
}

void ns_put_json_double(ns_buf *b, double v, int dec) {
    if (!isfinite(v)) {
        ns_buf_puts(b, "null");
        return;
    }
    if (dec < 0) dec = 0;
    /* Avoid "-0.0000" for a computed zero: it is not what anyone printed. */
    if (dec <= 22 && fabs(v) < 0.5 / ns__pow10[dec]) v = 0;
    ns_buf_printf(b, "%.*f", dec, v);
}

int ns_num_dec_max(ns_num a, ns_num b) {
    int d = a.dec > b.dec ? a.dec : b.dec;
    return d < 0 ? 4 : d;
}
