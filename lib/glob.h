/* Shell wildcard patterns (globs), matched exactly as glibc's
 * fnmatch(pattern, string, 0) matches them, so that a filter written to
 * the function tracer (vfs_*, *_read, kprobe_[a-z]*) picks the functions
 * it picks on Linux, which matches those filters with the same rules.
 *
 *	*	any run of characters, the empty one too; no flags, so / and
 *		a leading . are characters like any other
 *	?	any one character
 *	[...]	one character of a set: characters, ranges a-z, the C
 *		locale's classes [:alpha:] [:digit:] [:alnum:] [:upper:]
 *		[:lower:] [:space:] [:blank:] [:punct:] [:xdigit:] [:cntrl:]
 *		[:print:] [:graph:], and [=c=] and [.c.] (in the C locale,
 *		the character c); [!...] or [^...] one character not in it.
 *		A ] first in the set (after any ! or ^) is a member, and so
 *		is a - first or last.
 *	\c	the character c, in a set too
 *
 * Bytes compare as unsigned char, in the C locale: a range is by byte
 * value, and a byte >= 0x80 is in no class. [^...] is a negation as
 * glibc has it while POSIXLY_CORRECT is not set in its environment.
 *
 * Where a pattern is broken, glibc's reading is kept. glibc gives up,
 * and the pattern does not match there, at a lone \ at the end (outside
 * a set or in one), a range with no end ([a-), a class name not of the
 * twelve ([[:foo:]]) and a [.c.] of anything but one character; but it
 * reads a set's members only until one matches, so [a[:foo:]] matches
 * "a". After that it only skips the rest of the set, and more strictly:
 * there a [= not followed by a character and =] gives up too ([a[=b]
 * matches "[" and "b" but not "a"). A [ that no ] closes is the
 * character [ ([ab matches "[ab"). And a [.c.] followed by -] starts a
 * range that is none, so [[.a.]-] matches only "-".
 *
 * No recursion, and no allocation: see glob.c for the cost. */
#ifndef LIB_GLOB_H
#define LIB_GLOB_H

#include "lib/types.h"

/* True if str matches the whole of pattern (both C strings), as
 * fnmatch(pattern, str, 0) == 0 says. */
bool glob_match(const char *pattern, const char *str);

/* True if pattern has a *, ?, [ or \: without one, it matches only the
 * string equal to it, so a caller may look that name up instead of
 * matching every name it has. */
bool glob_has_magic(const char *pattern);

#endif
