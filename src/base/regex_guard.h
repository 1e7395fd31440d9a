/* regex_guard.h -- refuse the user regexes that glibc would take minutes,
 * or gigabytes, over.
 *
 * --metric and --label-regex hand user patterns to glibc's POSIX regex,
 * which has no linear-time guarantee: regcomp copies a repeated
 * subexpression for every repetition it implies ("(X)+" twice, "X{1000}" a
 * thousand times), and its matcher goes exponential on loops over what can
 * match empty, on back-references, and on a loop around something that can
 * itself match in more than one way -- a nested quantifier such as (a+)+b,
 * ([a-z]+)*[0-9] or (\w+\s?)*$, or alternatives that overlap, as in
 * (a|aa)+$ (8 to 29 s on a 50,000-character line).  Real metric and label
 * patterns need none of these, so they are refused with a reason, before
 * any compile runs:
 *   - more than 2,000 nodes after glibc's copies;
 *   - a loop (*, +, {n,} or {n,m} with m > 1) over something that can match
 *     empty;
 *   - a back-reference (\1 .. \9);
 *   - a loop over a group that holds a loop itself;
 *   - a loop over a group whose alternatives do not each start with a
 *     different literal character ((foo|bar)+ passes, (a|ab)+ does not).
 * The pattern is walked once; nothing is compiled here.
 */
#ifndef NPUSCOPE_REGEX_GUARD_H
#define NPUSCOPE_REGEX_GUARD_H

/* Why re is refused ("repeats a repetition ..."), or NULL: it may go to
 * regcomp. */
const char *ns_regex_refusal(const char *re);

/* What regcomp's error code rc means, in glibc's words on every system:
 * the Windows build's regcomp is TRE's (tools/mingw-deps.sh), whose own
 * texts differ, and a message must not depend on the build.  re is the
 * compiled pattern regerror gets for a code not in the table. */
#include <regex.h>
void ns_regex_error(int rc, const regex_t *re, char *msg, size_t n);

#endif
