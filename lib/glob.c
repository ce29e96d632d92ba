/* Glob matching (glob.h), with glibc's fnmatch as the reference for
 * every form, broken ones included.
 *
 * The matcher walks the pattern and the string together. Every element
 * but * matches exactly one character (?, a set, a character), so only
 * the last * seen needs remembering, with where the string stood then:
 * when an element fails, that * takes one more character and the walk
 * goes on from just after it. An earlier * need never take more, since
 * the part between it and the last * has already matched as early as it
 * can, which leaves the most string for the rest. The string position a
 * * goes back to only moves forward, so there are at most len(str) + 1
 * tries, each reading the pattern once: O(len(pattern) * len(str))
 * steps whatever the input, never the exponential time of a matcher
 * that backtracks into every *, and no recursion, so no input deepens
 * the stack. One form costs more, as in glibc: a [ that no ] closes is
 * read to the pattern's end before it is taken for a character, so a
 * run of such [s met by a run of [s in the string costs up to
 * len(pattern) times as much. */
#include "lib/glob.h"
#include "lib/ctype.h"

/* glibc's CHARCLASS_NAME_MAX: glibc gives up on a set, which then
 * matches nothing, at a [:name:] of this many letters while it reads
 * the members, and of one letter fewer while it skips them after one
 * has matched. No class's name is nearly that long. */
#define CLASS_NAME_MAX 2048

/* What reading one member of a set says of the character. */
enum member {
	OTHER,		/* it is not this member */
	THIS,		/* it is this member */
	BROKEN,		/* glibc gives up on the set: no match */
};

/* The letters glibc allows in a class name: a to y, z left out (no
 * class's name has one). */
static bool class_letter(char c)
{
	return c >= 'a' && c < 'z';
}

/* The length of the class name at name, which ends at ":]"; -1 if a
 * character that is no class letter comes first (glibc then reads the
 * [ before the name as a character, and goes on at the :), -2 if more
 * than max letters come first (glibc gives up). */
static int class_name_len(const char *name, int max)
{
	for (int len = 0; len < max; len++) {
		if (name[len] == ':' && name[len + 1] == ']')
			return len;
		if (!class_letter(name[len]))
			return -1;
	}
	return -2;
}

/* The class at *q, [:name:] with a name len letters long (-2: too long
 * to be one). Moves *q past it. */
static enum member read_class(const char **q, int len, unsigned char ch)
{
	char_class_fn in = len < 0 ? NULL : char_class(*q + 2, (size_t)len);

	if (!in)
		return BROKEN;
	*q += len + 4;
	return in(ch) ? THIS : OTHER;
}

/* A character of a set at *p: c, \c or [.c.] (the C locale has no
 * collating element of more than one character, nor of none). Moves *p
 * past it; false where glibc gives up: a \ or nothing at the pattern's
 * end, a [.c.] of another length. */
static bool read_char(const char **p, unsigned char *c)
{
	const char *s = *p;

	if (s[0] == '\\') {
		if (!s[1])
			return false;
		*c = (unsigned char)s[1];
		*p = s + 2;
	} else if (s[0] == '[' && s[1] == '.') {
		if (!s[2] || s[3] != '.' || s[4] != ']')
			return false;
		*c = (unsigned char)s[2];
		*p = s + 5;
	} else {
		if (!s[0])
			return false;
		*c = (unsigned char)s[0];
		*p = s + 1;
	}
	return true;
}

/* One member of a set at *q, read as glibc reads members until one has
 * matched: a class, [=c=], or a character that may start a range c-d.
 * Moves *q past it, but when the character alone matches, only past the
 * character (glibc goes on from there). A character is tested alone
 * only if no range follows; for [.c.], glibc's test for a range ignores
 * a ] after the -, though no range is then read: [.c.] matches nothing
 * there and the - is the next member. */
static enum member read_member(const char **q, unsigned char ch)
{
	const char *p = *q;
	bool collating = p[0] == '[' && p[1] == '.';
	unsigned char lo, hi;
	bool range;

	if (p[0] == '[' && p[1] == ':') {
		int len = class_name_len(p + 2, CLASS_NAME_MAX);

		if (len != -1)
			return read_class(q, len, ch);
	} else if (p[0] == '[' && p[1] == '=' && p[2] && p[3] == '=' && p[4] == ']') {
		*q = p + 5;
		return (unsigned char)p[2] == ch ? THIS : OTHER;
	}
	if (!read_char(&p, &lo))
		return BROKEN;
	range = p[0] == '-' && p[1] && (collating || p[1] != ']');
	*q = p;
	if (!range && lo == ch)
		return THIS;
	if (p[0] != '-' || p[1] == ']')
		return OTHER;
	p++;
	if (!read_char(&p, &hi))
		return BROKEN;		/* [a- or [a-\ at the pattern's end */
	*q = p;
	return lo <= ch && ch <= hi ? THIS : OTHER;
}

/* The rest of a set after the member that matched, skipped as glibc
 * skips it: a ] closes it unless it is escaped or ends a [:name:],
 * [=c=] or [.name.], and the last two must be whole. Returns the
 * closing ], the pattern's end if none closes the set, or NULL where
 * glibc gives up. */
static const char *skip_members(const char *p)
{
	while (*p && *p != ']') {
		if (p[0] == '\\') {
			if (!p[1])
				return NULL;
			p += 2;
		} else if (p[0] == '[' && p[1] == ':') {
			int len = class_name_len(p + 2, CLASS_NAME_MAX - 1);

			if (len == -2)
				return NULL;
			p += len < 0 ? 1 : len + 4;
		} else if (p[0] == '[' && p[1] == '=') {
			if (!p[2] || p[3] != '=' || p[4] != ']')
				return NULL;
			p += 5;
		} else if (p[0] == '[' && p[1] == '.') {
			for (p += 2; !(p[0] == '.' && p[1] == ']'); p++) {
				if (!*p)
					return NULL;
			}
			p += 2;
		} else {
			p++;
		}
	}
	return p;
}

/* The set that opens at open, against ch: the pattern after the set if
 * ch is in it (or, for [!...], not in it), else NULL. A ] right after
 * the [ or [! is a member, not the end. */
static const char *match_set(const char *open, unsigned char ch)
{
	const char *p = open + 1;
	bool negate = *p == '!' || *p == '^';
	enum member m = OTHER;

	p += negate;
	while (*p) {
		m = read_member(&p, ch);
		if (m != OTHER || *p == ']')
			break;
	}
	if (m == THIS)
		p = skip_members(p);
	if (m == BROKEN || !p)
		return NULL;
	if (!*p)	/* no ] closes it: the [ is a character */
		return ch == '[' ? open + 1 : NULL;
	return (m == THIS) != negate ? p + 1 : NULL;
}

/* The pattern after its element at p (not a *, not the end) if that
 * element matches the character ch, else NULL. */
static const char *match_element(const char *p, unsigned char ch)
{
	switch (*p) {
	case '?':
		return p + 1;
	case '[':
		return match_set(p, ch);
	case '\\':
		if (!p[1])
			return NULL;	/* a lone \ at the end matches nothing */
		p++;
		break;
	}
	return (unsigned char)*p == ch ? p + 1 : NULL;
}

bool glob_match(const char *pattern, const char *str)
{
	const char *p = pattern, *s = str;
	const char *after_star = NULL, *star_s = NULL;

	for (;;) {
		if (*p == '*') {
			after_star = ++p;
			star_s = s;
			continue;
		}
		if (!*p && !*s)
			return true;
		if (*p && *s) {
			const char *next = match_element(p, (unsigned char)*s);

			if (next) {
				p = next;
				s++;
				continue;
			}
		}
		/* A mismatch: the last * takes one more character, if any is left. */
		if (!after_star || !*star_s)
			return false;
		p = after_star;
		s = ++star_s;
	}
}

bool glob_has_magic(const char *pattern)
{
	for (; *pattern; pattern++) {
		if (*pattern == '*' || *pattern == '?' || *pattern == '[' || *pattern == '\\')
			return true;
	}
	return false;
}
