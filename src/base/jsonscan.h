/* jsonscan.h -- where a JSON document's top-level member and the elements
 * of an array lie, without building the document.
 *
 * jansson has no streaming parser: json_loadb of a run.json of 100,000
 * reports builds one DOM of all of them, about 20 times the file.  This
 * scanner finds the byte spans instead, so that a reader can parse one
 * element at a time with jansson and free it before the next (the run.json
 * reader, parse/run_read.c).  It is not a parser and vouches for no value:
 * it follows strings (with their escapes) and brackets, and checks only the
 * commas, colons and whitespace between the pieces it hands out.  Every
 * byte of a span is still parsed by jansson; whatever the scanner cannot be
 * sure of (the document is not an object, is cut short, the key is written
 * twice or some key uses escapes and might spell it) is a -1 and a short
 * failure reason, and the reader then parses the whole document as before,
 * so a broken document gets jansson's own message.
 */
#ifndef NPUSCOPE_JSONSCAN_H
#define NPUSCOPE_JSONSCAN_H

#include <stddef.h>

typedef struct {
    size_t off; /* offset of the value's first byte */
    size_t len; /* its bytes, to the last one (no whitespace around) */
} ns_jspan;

/* The value of member `key` of the top-level object in s[0..n).  1 with
 * *val when the member is there, 0 when it is not, -1 (with *why) when the
 * scanner cannot say (see above). */
int ns_jscan_member(const char *s, size_t n, const char *key, ns_jspan *val, const char **why);

/* The elements of the array that is s[arr] (a span from ns_jscan_member):
 * their number, with *out a new array of their spans (NULL when none; the
 * caller frees it), or -1 (with *why) when arr is not an array whose
 * elements are separated by single commas. */
long ns_jscan_elements(const char *s, ns_jspan arr, ns_jspan **out, const char **why);

#endif
