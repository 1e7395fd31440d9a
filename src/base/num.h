/* num.h -- numbers exactly as a compiler printed them.
 *
 * A timing report prints "%8.4f"; npuscope must hand back that number and
 * nothing else ("3.8142", never "3.8141999999"), so every parsed value keeps
 * the count of decimals it was printed with.  Parsing is done by hand: it is
 * locale-independent (a German locale's "3,8142" never creeps in), it reads
 * "-0.0000" as a negative zero, and it is several times faster than strtod on
 * the short fixed-point numbers that make up a report.
 */
#ifndef NPUSCOPE_NUM_H
#define NPUSCOPE_NUM_H

#include "base/common.h"

#define NS_DEC_ABSENT (-1) /* no such column in this report */
#define NS_DEC_WORD (-2)   /* printed as nan / inf */

typedef struct {
    double v;              /* the value; NaN when absent */
    signed char dec;       /* decimals printed, or NS_DEC_ABSENT / NS_DEC_WORD */
    unsigned char inexact; /* the printed digits did not survive the trip
                              through a double: printing v with dec decimals
                              gives other digits (ns_num_parse) */
} ns_num;

/* The value of an absent column (inline: every row starts with six). */
static inline ns_num ns_num_absent(void) {
    ns_num n = {__builtin_nan(""), NS_DEC_ABSENT, 0};
    return n;
}
static inline int ns_num_present(ns_num n) { return n.dec != NS_DEC_ABSENT; }

/* Parse [-|+]DIGITS[.DIGITS][e[-+]DIGITS] or [-]nan / [-]inf starting at *p
 * (no leading blanks skipped); on success store it, advance *p past it and
 * return 0.  Returns -1 (and leaves *p) when no number starts there.
 * A number without exponent that printf("%.*f") of a double could not have
 * printed (more significant digits than a double holds, or beyond its
 * range) is still read, as the nearest double, with out->inexact set: the
 * parsers warn, so that no re-printed or exported digit differs silently. */
int ns_num_parse(const char **p, const char *end, ns_num *out);

/* Append n printed as printf("%*.*f", width, n.dec, n.v) would, words as
 * glibc prints them ("nan", "-nan", "inf"). */
void ns_num_put(ns_buf *b, ns_num n, int width);

/* Append n for JSON: the printed digits, or null for absent/nan/inf. */
void ns_num_put_json(ns_buf *b, ns_num n);

/* Append a computed value (not from the input) with `dec` decimals, JSON-safe
 * (null when not finite). */
void ns_put_json_double(ns_buf *b, double v, int dec);

/* Decimals needed to print a difference of a and b without inventing digits. */
int ns_num_dec_max(ns_num a, ns_num b);

#endif
