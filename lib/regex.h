/* POSIX regular expressions, for grep: basic (BRE, grep's default) and
 * extended (ERE, grep -E), with GNU's extensions to both.
 *
 *	BRE		ERE		matches
 *	x		x		the character x; \x for a special one
 *	.		.		any character
 *	[a-z_] [^0-9]	the same	one of a set, or not; [[:digit:]] and
 *					the other classes; [.c.] and [=c=]
 *	^  $		^  $		the start, the end of the line
 *	\` \'		the same	the start, the end of the line too
 *	\< \> \b \B	the same	a word's start, end, edge, not an edge
 *	\w \W \s \S	the same	a word character (alnum or _), a space,
 *					or not
 *	e*		e*		e any number of times
 *	e\+  e\?	e+  e?		at least once; at most once
 *	e\{m,n\}	e{m,n}		m to n times ({m}, {m,}, {,n} too)
 *	\(e\)		(e)		a group
 *	e\|f		e|f		e or f
 *
 * Not supported: back-references (\1 ... \9: refused), multi-character
 * collating elements ([.space.]), and locales (the C locale's ASCII
 * classes only). Where the standard leaves a form undefined, GNU's
 * reading is taken (in the C locale): in a BRE, * (and \{) with nothing
 * but anchors before it is literal, and so are ^ and $ away from the
 * ends; in an ERE, an operator with nothing before it repeats the empty
 * string, a ) with no ( is literal, and a { that does not start a valid
 * count is literal. Elsewhere an operator after an anchor repeats it
 * (A\b* is A), and in an ERE a ) just after an anchor's *, + or ?, or
 * after one of those or a { with nothing before it, is literal (so
 * "(A\b*)" and "(*)" are refused: no ) closes the group). Of GNU's two
 * readers, its regex compiler refuses first, its DFA after ([:alpha:]).
 *
 * The expression is compiled into a program for a Thompson NFA (Ken
 * Thompson's construction, simulated as in Russ Cox's "Regular
 * Expression Matching Can Be Simple And Fast"): matching a line of n
 * characters takes at most n times the program's length steps, whatever
 * the expression, so no pattern can make it run away (a backtracking
 * matcher takes exponential time on (a*)*b). A count {m,n} copies its
 * expression n times, so counts are bounded by the program's size.
 * Groups nest at most REGEX_MAX_DEPTH deep ("Groups nested too deep"),
 * so that no pattern can run the compiler off its stack.
 *
 * Plain code with no kernel calls, so that the host tests run it. */
#ifndef LIB_REGEX_H
#define LIB_REGEX_H

#include "lib/types.h"

#define REGEX_EXTENDED	1	/* ERE, not BRE */
#define REGEX_ICASE	2	/* ignore case (ASCII letters) */

#define REGEX_MAX_INSNS	2048	/* instructions of a compiled expression */
#define REGEX_MAX_SETS	128	/* [...] sets in it */
/* Groups open at once: ((a)) is two deep. The compiler descends once
 * per group it is inside, about 240 bytes of stack each (aarch64, the
 * larger), so 32 take under half of a 16 KiB thread stack, leaving the
 * rest to the shell, grep and an interrupt. One more is refused. */
#define REGEX_MAX_DEPTH	32

struct regex_insn {
	uint8_t op;
	uint8_t c;		/* the character, for a literal */
	uint16_t set;		/* the set's number, for a [...] */
	int16_t x, y;		/* jumps, relative to this instruction */
};

/* How many characters a search reads between two calls of its stop
 * hook: a step costs at most the program's length, so even the longest
 * program is asked again within a millisecond or so. */
#define REGEX_STOP_EVERY 64

/* A compiled expression, with room for matching it: about 40 KiB, so
 * the caller keeps it off a thread's stack. One match at a time. */
struct regex {
	/* Asked every REGEX_STOP_EVERY characters of a search, if set (after
	 * regex_compile, which clears it): true gives up the search, so that
	 * a Ctrl-C stops grep within one long line. A hook, because lib/
	 * calls nothing of the kernel's. */
	bool (*stop)(void);
	unsigned int flags;
	int len;			/* instructions */
	int sets;
	struct regex_insn prog[REGEX_MAX_INSNS];
	uint8_t set_bits[REGEX_MAX_SETS][32];
	/* The matcher's: two lists of threads and a visited mark each. */
	uint16_t threads[2][REGEX_MAX_INSNS];
	uint16_t stack[2 * REGEX_MAX_INSNS + 1];
	uint32_t mark[REGEX_MAX_INSNS];
	uint32_t generation;
};

/* Compile pattern (a C string) with flags (REGEX_*). Returns 0, or
 * -EINVAL and sets *error to why, in GNU grep's words where GNU has
 * them ("Unmatched ( or \\(", "Invalid range end"...). */
int regex_compile(struct regex *re, const char *pattern, unsigned int flags,
		  const char **error);

/* True if the expression matches somewhere in the len bytes at text
 * (one line: no newline in it). With whole_words, only a match that is
 * a whole word counts, as grep -w wants: it starts at the line's start
 * or after a character that is not a word character (a letter, a digit
 * or _), and ends at the line's end or before such a character. False
 * too when re->stop gave the search up: the caller asks its own hook
 * again to tell the two apart. */
bool regex_search(struct regex *re, const char *text, size_t len, bool whole_words);

#endif
