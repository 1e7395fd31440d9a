/* suggest.h -- "did you mean": the closest of a list of names to a word a
 * user typed (a command, a tag, a pass name, a stage map).
 *
 * Closest is the smallest edit distance (insertions, deletions,
 * substitutions and swaps of two neighbours, case ignored), accepted only
 * when it is small against the word's length -- a suggestion that is not
 * near is noise.  Ties go to the first candidate in the list.
 */
#ifndef NPUSCOPE_BASE_SUGGEST_H
#define NPUSCOPE_BASE_SUGGEST_H

#include <stddef.h>

/* The candidate nearest to word, or NULL when none is near enough. */
const char *ns_suggest(const char *word, const char *const *cands, size_t n);

#endif
