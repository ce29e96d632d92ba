/* Regular expressions: a recursive-descent compiler from the pattern to
 * a program (one level of recursion per nested group, at most
 * REGEX_MAX_DEPTH), and a Thompson NFA that runs the program over a
 * line with no recursion at all. See regex.h for the syntax.
 *
 * The program. Each instruction either reads one character (a literal,
 * any character, a set), checks a position without reading (^, $, the
 * word edges), or jumps: JMP goes to x, SPLIT to both x and y at once.
 * Jumps are relative to their instruction, so a piece of program can be
 * moved or copied as it is: that is how e* puts a SPLIT in front of e's
 * code after compiling e, and how e{2,3} makes its copies.
 *
 *	e*	L: SPLIT +1, over	e? SPLIT +1, over	e|f SPLIT +1, F
 *	   	   e			   e			    e
 *	   	   JMP L		over:			    JMP over
 *	   	over:						 F: f
 *							      over:
 *
 * The matcher keeps the set of instructions the NFA could be at after
 * each character of the line (a thread each), never more than one
 * thread per instruction; reading a character moves every thread at
 * once. So a line of n characters costs at most n times the program's
 * length steps. */
#include "lib/regex.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/string.h"

enum {
	OP_CHAR,	/* the character c */
	OP_ANY,		/* any character */
	OP_SET,		/* a character of set_bits[set] */
	OP_JMP,		/* go to x */
	OP_SPLIT,	/* go to x and to y */
	OP_BOL,		/* ^: at the line's start */
	OP_EOL,		/* $: at the line's end */
	OP_WORD_START,	/* \< */
	OP_WORD_END,	/* \> */
	OP_WORD_EDGE,	/* \b */
	OP_NOT_EDGE,	/* \B */
	OP_MATCH,	/* the whole expression matched */
};

/* A count with no upper bound: e*, e+, e{m,}. */
#define REPEAT_ANY -1
/* The largest count GNU takes (RE_DUP_MAX); ours are bounded by the
 * program's size long before. */
#define COUNT_MAX 32767

static const char TOO_BIG[] = "Regular expression too big";
static const char UNMATCHED_BRACKET[] = "Unmatched [, [^, [:, [., or [=";
static const char UNMATCHED_PAREN[] = "Unmatched ( or \\(";
static const char BAD_COUNT[] = "Invalid content of \\{\\}";
/* Ours: GNU grep takes thousands of nested groups, until its own stack
 * runs out ("stack overflow"); a kernel thread's stack is far smaller. */
static const char TOO_DEEP[] = "Groups nested too deep";

struct compiler {
	struct regex *re;
	const char *p;		/* the next pattern character */
	bool ere;
	int depth;		/* groups open */
	/* At the start of the expression, of a group or of a branch, where
	 * a BRE's ^ is an anchor. */
	bool at_start;
	/* Just after an anchor (^, $, \<, \>, \b, \B, \`, \'). An operator
	 * after it repeats it (A\b* is A, then \b any number of times, so
	 * A alone), but for two readings of GNU grep's: in an ERE, a { that
	 * starts a bad interval there is a literal, as at the start; in a
	 * BRE, see only_anchors. In an ERE, also just after a *, + or ?
	 * with nothing before it, or a { there that starts no count, which
	 * GNU grep's regex compiler skips, reading what follows as it reads
	 * what follows an anchor. */
	bool after_anchor;
	/* Nothing but anchors yet in this branch. In a BRE, an operator
	 * after them is a literal, as at the start: \b* is \b and a *. */
	bool only_anchors;
	/* In an ERE, the next ) is a literal, not a group's end: it comes
	 * right after an anchor's *, + or ?. GNU grep's regex compiler
	 * reads (A\b*) so, and refuses it: "Unmatched ( or \(". */
	bool literal_paren;
	const char *error;
	/* GNU grep reads a pattern twice: with its regex compiler, whose
	 * refusal comes first, then with its DFA, which refuses a few forms
	 * the first takes ([:alpha:], a bad \{ after an anchor). Such a
	 * refusal waits here, and stands only if error stays NULL. */
	const char *late_error;
};

/* Refuse the pattern, for the first reason found; returns false, for
 * the caller to return. */
static bool fail(struct compiler *c, const char *why)
{
	if (!c->error)
		c->error = why;
	return false;
}

/* Refuse the pattern as GNU grep's DFA does (late_error), if nothing
 * else is wrong with it. */
static void fail_late(struct compiler *c, const char *why)
{
	if (!c->late_error)
		c->late_error = why;
}

/* ---- Emitting the program ---- */

static bool emit(struct compiler *c, uint8_t op, uint8_t ch, int x)
{
	struct regex *re = c->re;

	if (re->len == REGEX_MAX_INSNS)
		return fail(c, TOO_BIG);
	re->prog[re->len++] = (struct regex_insn){ .op = op, .c = ch, .x = (int16_t)x };
	return true;
}

/* Put a SPLIT at pc, moving the code from pc on one place down; its
 * jumps are relative, so the moved code still works. The SPLIT goes to
 * the moved code (+1) and to y. */
static bool insert_split(struct compiler *c, int pc, int y)
{
	struct regex *re = c->re;

	if (re->len == REGEX_MAX_INSNS)
		return fail(c, TOO_BIG);
	memmove(&re->prog[pc + 1], &re->prog[pc], (size_t)(re->len - pc) * sizeof(re->prog[0]));
	re->prog[pc] = (struct regex_insn){ .op = OP_SPLIT, .x = 1, .y = (int16_t)y };
	re->len++;
	return true;
}

/* Append a copy of the len instructions at from. */
static bool emit_copy(struct compiler *c, int from, int len)
{
	struct regex *re = c->re;

	if (re->len + len > REGEX_MAX_INSNS)
		return fail(c, TOO_BIG);
	memmove(&re->prog[re->len], &re->prog[from], (size_t)len * sizeof(re->prog[0]));
	re->len += len;
	return true;
}

/* Append e? (a SPLIT over a copy of e) or, with loop, e* (the same and a
 * JMP back to the SPLIT), e being the len instructions at body. */
static bool emit_optional(struct compiler *c, int body, int len, bool loop)
{
	int split = c->re->len;

	if (!emit(c, OP_SPLIT, 0, 1) || !emit_copy(c, body, len))
		return false;
	if (loop && !emit(c, OP_JMP, 0, split - c->re->len))
		return false;
	c->re->prog[split].y = (int16_t)(c->re->len - split);
	return true;
}

/* The code from start to the end is e; make it e{min,max} (max may be
 * REPEAT_ANY): min copies of e, then max - min optional ones, or e*. */
static bool repeat(struct compiler *c, int start, int min, int max)
{
	struct regex *re = c->re;
	int len = re->len - start;

	if (len == 0)
		return true;	/* the empty string, repeated */
	if (max == 0) {
		re->len = start;
		return true;
	}
	if (min == 0) {
		/* The first copy, already there, becomes optional. */
		if (!insert_split(c, start, len + 1 + (max == REPEAT_ANY)))
			return false;
		start++;
		if (max == REPEAT_ANY)
			return emit(c, OP_JMP, 0, start - 1 - re->len);
		min = 1;
	}
	for (int i = 1; i < min; i++) {
		if (!emit_copy(c, start, len))
			return false;
	}
	if (max == REPEAT_ANY)
		return emit_optional(c, start, len, true);
	for (int i = min; i < max; i++) {
		if (!emit_optional(c, start, len, false))
			return false;
	}
	return true;
}

/* ---- Sets ---- */

static int new_set(struct compiler *c)
{
	struct regex *re = c->re;

	if (re->sets == REGEX_MAX_SETS) {
		fail(c, TOO_BIG);
		return -1;
	}
	memset(re->set_bits[re->sets], 0, sizeof(re->set_bits[0]));
	return re->sets++;
}

static void set_add(uint8_t *bits, int ch)
{
	bits[ch >> 3] |= (uint8_t)(1u << (ch & 7));
}

static bool set_has(const uint8_t *bits, int ch)
{
	return bits[ch >> 3] & (1u << (ch & 7));
}

static bool is_word_char(int ch)
{
	return is_alnum(ch) || ch == '_';
}

static void set_add_class(uint8_t *bits, char_class_fn in)
{
	for (int ch = 0; ch < 256; ch++) {
		if (in(ch))
			set_add(bits, ch);
	}
}

/* With REGEX_ICASE, a letter in the set brings its other case; then a
 * [^...] set is turned over (so [^a] refuses A too). */
static void set_finish(struct compiler *c, uint8_t *bits, bool negate)
{
	if (c->re->flags & REGEX_ICASE) {
		for (int ch = 'a'; ch <= 'z'; ch++) {
			if (set_has(bits, ch) || set_has(bits, to_upper(ch))) {
				set_add(bits, ch);
				set_add(bits, to_upper(ch));
			}
		}
	}
	if (negate) {
		for (size_t i = 0; i < 32; i++)
			bits[i] = (uint8_t)~bits[i];
	}
}

static bool emit_set(struct compiler *c, int set)
{
	if (!emit(c, OP_SET, 0, 0))
		return false;
	c->re->prog[c->re->len - 1].set = (uint16_t)set;
	return true;
}

/* \w, \W, \s, \S: a class or its opposite, as a set. */
static bool emit_class(struct compiler *c, char_class_fn in, bool negate)
{
	int set = new_set(c);

	if (set < 0)
		return false;
	set_add_class(c->re->set_bits[set], in);
	set_finish(c, c->re->set_bits[set], negate);
	return emit_set(c, set);
}

/* [:name:], [.c.] or [=c=] inside a set; *q is at its '['. For a class,
 * adds it to bits and sets *ch to -1; else sets *ch to the character.
 * Returns NULL, or what is wrong with it. */
static const char *bracket_item(const char **q, uint8_t *bits, int *ch)
{
	char kind = (*q)[1];
	const char *name = *q + 2, *end = name;
	char_class_fn in;

	while (*end && !(end[0] == kind && end[1] == ']'))
		end++;
	if (!*end)
		return UNMATCHED_BRACKET;
	*q = end + 2;
	if (kind != ':') {
		*ch = (unsigned char)name[0];
		return end - name == 1 ? NULL : "Invalid collation character";
	}
	*ch = -1;
	in = char_class(name, (size_t)(end - name));
	if (!in)
		return "Invalid character class name";
	set_add_class(bits, in);
	return NULL;
}

/* One member of a set at *q: a character, a class, or a range lo-hi.
 * Returns NULL, or what is wrong with it. */
static const char *bracket_member(const char **q, uint8_t *bits)
{
	const char *why = NULL;
	int lo, hi;

	if ((*q)[0] == '[' && ((*q)[1] == ':' || (*q)[1] == '.' || (*q)[1] == '=')) {
		why = bracket_item(q, bits, &lo);
		if (why || lo < 0)
			return why;	/* a class is no range's end */
	} else {
		lo = (unsigned char)*(*q)++;
	}
	if ((*q)[0] != '-' || (*q)[1] == ']' || (*q)[1] == '\0') {
		set_add(bits, lo);
		return NULL;
	}
	(*q)++;
	if ((*q)[0] == '[' && (*q)[1] == '.')
		why = bracket_item(q, bits, &hi);
	else
		hi = (unsigned char)*(*q)++;
	if (why)
		return why;
	if (hi < lo)
		return "Invalid range end";
	for (int ch = lo; ch <= hi; ch++)
		set_add(bits, ch);
	return NULL;
}

/* A [...] set; c->p is at its '['. A ']' first in it is a member. */
static bool parse_bracket(struct compiler *c)
{
	const char *q = c->p + 1, *first, *why;
	bool negate = *q == '^';
	uint8_t *bits;
	int set;

	q += negate;
	if (*q == '\0')
		return fail(c, "Invalid regular expression");	/* GNU's words for "[" */
	set = new_set(c);
	if (set < 0)
		return false;
	bits = c->re->set_bits[set];
	first = q;
	do {
		if (*q == '\0')
			return fail(c, UNMATCHED_BRACKET);
		why = bracket_member(&q, bits);
		if (why)
			return fail(c, why);
	} while (*q != ']');
	/* [:alpha:] is the set of :, a, l, p and h: surely a mistake. */
	if (!negate && *first == ':' && q[-1] == ':' && q - first >= 2)
		fail_late(c, "character class syntax is [[:space:]], not [:space:]");
	c->p = q + 1;
	set_finish(c, bits, negate);
	return emit_set(c, set);
}

/* ---- The grammar ---- */

static bool parse_alternation(struct compiler *c);

/* A decimal count at *q, if any: -1 if none; stops growing past
 * COUNT_MAX, which is refused later anyway. */
static int parse_count(const char **q)
{
	int n = -1;

	while (is_digit(**q)) {
		n = MIN((n < 0 ? 0 : n) * 10 + (**q - '0'), COUNT_MAX + 1);
		(*q)++;
	}
	return n;
}

/* Why an ERE's { starts no interval: its text is not one ({x, {1,y). */
static const char NOT_INTERVAL[] = "not an interval";

/* An interval {m,n} (ERE) or \{m,n\} (BRE); c->p is just past its {.
 * Returns NULL with the counts, c->p then past the interval, or why the
 * text is no good interval. */
static const char *parse_interval(struct compiler *c, int *min, int *max)
{
	const char *q = c->p;
	bool comma;

	*min = parse_count(&q);
	*max = *min;
	comma = *q == ',';
	if (comma) {
		q++;
		*max = parse_count(&q);
	}
	if (c->ere ? *q != '}' : (q[0] != '\\' || q[1] != '}')) {
		if (c->ere)
			return NOT_INTERVAL;
		/* A \\ is one character: a\{\\} has no \}. */
		while (*q && !(q[0] == '\\' && q[1] == '}'))
			q += q[0] == '\\' && q[1] ? 2 : 1;
		return *q ? BAD_COUNT : "Unmatched \\{";
	}
	if (*min < 0 && !comma)
		return BAD_COUNT;	/* {} */
	*min = MAX(*min, 0);
	if (comma && *max < 0)
		*max = REPEAT_ANY;
	if (*min > COUNT_MAX || *max > COUNT_MAX)
		return TOO_BIG;
	if (*max != REPEAT_ANY && *min > *max)
		return BAD_COUNT;
	c->p = q + (c->ere ? 1 : 2);
	return NULL;
}

/* A repetition operator at c->p: returns 1 (consumed, counts set), 0 if
 * there is none, or -1 for an error. no_atom: GNU grep's regex compiler
 * has no atom before the operator (at a branch's start, after an
 * anchor), and takes a bad {...} there for a literal. */
static int parse_repeat_op(struct compiler *c, bool no_atom, int *min, int *max)
{
	const char *p = c->p;
	const char *why;
	char op = p[0];

	if (!c->ere) {
		if (op == '*') {
			c->p++;
			*min = 0;
			*max = REPEAT_ANY;
			return 1;
		}
		if (op != '\\')
			return 0;
		op = p[1];
		if (op != '+' && op != '?' && op != '{')
			return 0;
		p++;
	} else if (op != '*' && op != '+' && op != '?' && op != '{') {
		return 0;
	}
	c->p = p + 1;
	if (op != '{') {
		*min = op == '+';
		*max = op == '?' ? 1 : REPEAT_ANY;
		return 1;
	}
	why = parse_interval(c, min, max);
	if (!why)
		return 1;
	/* An ERE's { is a literal where it starts no interval, and, as GNU
	 * grep reads it, where nothing is before it even if it starts a bad
	 * one ({}). */
	if (c->ere && (why == NOT_INTERVAL || no_atom)) {
		c->p = p;
		return 0;
	}
	/* A BRE's bad \{ after an anchor: the regex compiler's literal, the
	 * DFA's refusal, in its own (lower-case) words. */
	if (!c->ere && no_atom) {
		fail_late(c, "invalid content of \\{\\}");
		c->p = p - 1;
		return 0;
	}
	fail(c, why);
	return -1;
}

/* True where a branch ends: the pattern's end, a | (ERE) or \| (BRE),
 * or, inside a group, its ) or \). */
static bool at_branch_end(const struct compiler *c)
{
	const char *p = c->p;

	if (*p == '\0')
		return true;
	if (c->ere)
		return *p == '|' || (*p == ')' && c->depth > 0 && !c->literal_paren);
	return p[0] == '\\' && (p[1] == '|' || (p[1] == ')' && c->depth > 0));
}

/* A group; c->p is past its ( or \(. Each group inside another is one
 * more call down this chain, hence the bound on how deep they nest. */
static bool parse_group(struct compiler *c)
{
	if (c->depth == REGEX_MAX_DEPTH)
		return fail(c, TOO_DEEP);
	c->depth++;
	if (!parse_alternation(c))
		return false;
	if (*c->p == '\0')
		return fail(c, UNMATCHED_PAREN);
	c->p += c->ere ? 1 : 2;		/* ) or \) */
	c->depth--;
	c->at_start = false;
	c->after_anchor = false;
	c->only_anchors = false;
	return true;
}

static bool emit_anchor(struct compiler *c, uint8_t op)
{
	c->after_anchor = true;
	return emit(c, op, 0, 0);
}

/* The atom after a backslash; c->p is at the character after it. */
static bool parse_escape(struct compiler *c)
{
	char ch = *c->p++;

	switch (ch) {
	case '\0':
		return fail(c, "Trailing backslash");
	case 'w': case 'W':
		return emit_class(c, is_word_char, ch == 'W');
	case 's': case 'S':
		return emit_class(c, is_space, ch == 'S');
	case '<':
		return emit_anchor(c, OP_WORD_START);
	case '>':
		return emit_anchor(c, OP_WORD_END);
	case '`':
		return emit_anchor(c, OP_BOL);	/* the buffer's start: the line's */
	case '\'':
		return emit_anchor(c, OP_EOL);
	case 'b':
		return emit_anchor(c, OP_WORD_EDGE);
	case 'B':
		return emit_anchor(c, OP_NOT_EDGE);
	}
	if (ch >= '1' && ch <= '9')
		return fail(c, "back-references (\\1 to \\9) are not supported");
	if (!c->ere && ch == '(')
		return parse_group(c);
	if (!c->ere && ch == ')')
		return fail(c, "Unmatched ) or \\)");
	/* BRE's \{, \+ and \? with nothing before them, and every other
	 * escaped character, stand for themselves. */
	return emit(c, OP_CHAR, (uint8_t)ch, 0);
}

/* The character at c->p as an atom: a literal, or what it stands for. */
static bool parse_atom(struct compiler *c)
{
	char ch = *c->p;
	bool at_start = c->at_start;
	bool nothing_before = at_start || c->after_anchor;
	int min, max;

	c->at_start = false;
	c->after_anchor = false;
	c->literal_paren = false;
	if (ch == '\\') {
		c->p++;
		return parse_escape(c);
	}
	if (ch == '[')
		return parse_bracket(c);
	/* An ERE's *, +, ? or {m,n} with nothing before it repeats the
	 * empty string: nothing to emit. */
	if (c->ere && nothing_before) {
		const char *op = c->p;
		int found = parse_repeat_op(c, true, &min, &max);

		if (found != 0) {
			/* What follows *, + or ? here is read as after an anchor;
			 * GNU's regex compiler reads {1} here as a 1 and a }. */
			c->after_anchor = found > 0 && *op != '{';
			c->literal_paren = c->after_anchor;
			return found > 0;
		}
		/* A { that starts no count is a literal here, which GNU's
		 * regex compiler skips as it skips a *: ({) is refused. */
		if (ch == '{') {
			c->p++;
			c->after_anchor = true;
			c->literal_paren = true;
			return emit(c, OP_CHAR, '{', 0);
		}
	}
	c->p++;
	if (ch == '.')
		return emit(c, OP_ANY, 0, 0);
	if (c->ere && ch == '(')
		return parse_group(c);
	if (ch == '^' && (c->ere || at_start))
		return emit_anchor(c, OP_BOL);
	/* A BRE's $ is an anchor only at the end of a branch, or, as GNU
	 * grep reads it, before a plain ) or |. */
	if (ch == '$' && (c->ere || at_branch_end(c) || *c->p == ')' || *c->p == '|'))
		return emit_anchor(c, OP_EOL);
	/* A BRE's * with nothing before it, an ERE's ) with no (, and the
	 * rest. */
	return emit(c, OP_CHAR, (uint8_t)ch, 0);
}

/* An atom and the repetition operators after it. In a BRE, anchors with
 * nothing else before them in the branch take none: what follows them
 * starts the next piece. */
static bool parse_piece(struct compiler *c)
{
	int start = c->re->len;
	bool anchor, no_atom;
	int min, max, found;

	if (!parse_atom(c))
		return false;
	anchor = c->after_anchor;
	c->only_anchors = c->only_anchors && anchor;
	if (c->only_anchors && !c->ere)
		return true;
	/* After an anchor, GNU's regex compiler has no atom before the
	 * operator. An ERE's *, + and ? it skips, so the next operator has
	 * none either; its { it reads as the start of atoms ({1} as a 1
	 * and a }), and a BRE's operator as a literal atom. */
	no_atom = anchor;
	for (;;) {
		const char *op = c->p;

		found = parse_repeat_op(c, no_atom, &min, &max);
		if (found <= 0)
			return found == 0;
		if (!repeat(c, start, min, max))
			return false;
		no_atom = no_atom && c->ere && *op != '{';
		c->literal_paren = no_atom;
	}
}

/* Atoms one after another, up to the end of the branch. */
static bool parse_branch(struct compiler *c)
{
	c->at_start = true;
	c->after_anchor = false;
	c->only_anchors = true;
	c->literal_paren = false;	/* (A\b*|) is one group */
	while (!at_branch_end(c)) {
		if (!parse_piece(c))
			return false;
	}
	return true;
}

/* Branches separated by | (ERE) or \| (BRE): each new branch f turns
 * the code so far, e, into SPLIT over e to f, e, JMP over f, f. */
static bool parse_alternation(struct compiler *c)
{
	int start = c->re->len;

	if (!parse_branch(c))
		return false;
	while (*c->p == '|' || (c->p[0] == '\\' && c->p[1] == '|')) {
		int jmp;

		c->p += c->ere ? 1 : 2;
		if (!insert_split(c, start, 0))
			return false;
		jmp = c->re->len;
		if (!emit(c, OP_JMP, 0, 0) || !parse_branch(c))
			return false;
		c->re->prog[start].y = (int16_t)(jmp + 1 - start);
		c->re->prog[jmp].x = (int16_t)(c->re->len - jmp);
	}
	return true;
}

int regex_compile(struct regex *re, const char *pattern, unsigned int flags,
		  const char **error)
{
	struct compiler c = { .re = re, .p = pattern, .ere = flags & REGEX_EXTENDED };

	re->stop = NULL;
	re->flags = flags;
	re->len = 0;
	re->sets = 0;
	re->generation = 0;
	memset(re->mark, 0, sizeof(re->mark));
	/* At depth 0 only the pattern's end ends the last branch. */
	if (parse_alternation(&c))
		emit(&c, OP_MATCH, 0, 0);
	if (!c.error)
		c.error = c.late_error;
	*error = c.error;
	return c.error ? -EINVAL : 0;
}

/* ---- Matching ---- */

/* Where the matcher is in the line. */
struct position {
	const char *text;
	size_t len;
	size_t at;	/* characters read */
};

static bool word_before(const struct position *pos)
{
	return pos->at > 0 && is_word_char((unsigned char)pos->text[pos->at - 1]);
}

static bool word_after(const struct position *pos)
{
	return pos->at < pos->len && is_word_char((unsigned char)pos->text[pos->at]);
}

/* Whether a check that reads nothing holds at pos. */
static bool assertion_holds(uint8_t op, const struct position *pos)
{
	switch (op) {
	case OP_BOL:
		return pos->at == 0;
	case OP_EOL:
		return pos->at == pos->len;
	case OP_WORD_START:
		return !word_before(pos) && word_after(pos);
	case OP_WORD_END:
		return word_before(pos) && !word_after(pos);
	case OP_WORD_EDGE:
		return word_before(pos) != word_after(pos);
	default:	/* OP_NOT_EDGE */
		return word_before(pos) == word_after(pos);
	}
}

/* A list of threads: the instructions that read the next character. */
struct thread_list {
	uint16_t *pc;
	int count;
	bool matched;	/* OP_MATCH was reached */
};

/* Add the thread at pc to list, following its jumps and checks (with an
 * explicit stack: a program of REGEX_MAX_INSNS jumps would recurse too
 * deep for a kernel stack). Each instruction is visited once per list. */
static void add_thread(struct regex *re, struct thread_list *list, int pc,
		       const struct position *pos)
{
	int top = 0;

	re->stack[top++] = (uint16_t)pc;
	while (top > 0) {
		const struct regex_insn *insn;

		pc = re->stack[--top];
		if (re->mark[pc] == re->generation)
			continue;
		re->mark[pc] = re->generation;
		insn = &re->prog[pc];
		switch (insn->op) {
		case OP_JMP:
			re->stack[top++] = (uint16_t)(pc + insn->x);
			break;
		case OP_SPLIT:
			re->stack[top++] = (uint16_t)(pc + insn->y);
			re->stack[top++] = (uint16_t)(pc + insn->x);
			break;
		case OP_MATCH:
			list->matched = true;
			break;
		case OP_CHAR:
		case OP_ANY:
		case OP_SET:
			list->pc[list->count++] = (uint16_t)pc;
			break;
		default:
			if (assertion_holds(insn->op, pos))
				re->stack[top++] = (uint16_t)(pc + 1);
			break;
		}
	}
}

/* Start a new, empty list: a new generation of marks. */
static void new_list(struct regex *re, struct thread_list *list, uint16_t *pcs)
{
	list->pc = pcs;
	list->count = 0;
	list->matched = false;
	if (++re->generation == 0) {
		memset(re->mark, 0, sizeof(re->mark));
		re->generation = 1;
	}
}

static bool reads(const struct regex *re, const struct regex_insn *insn, unsigned char ch)
{
	switch (insn->op) {
	case OP_CHAR:
		if (re->flags & REGEX_ICASE)
			return to_lower(ch) == to_lower(insn->c);
		return ch == insn->c;
	case OP_ANY:
		return true;
	default:	/* OP_SET */
		return set_has(re->set_bits[insn->set], ch);
	}
}

bool regex_search(struct regex *re, const char *text, size_t len, bool whole_words)
{
	struct position pos = { text, len, 0 };
	struct thread_list now, next;
	int which = 0;

	new_list(re, &now, re->threads[which]);
	for (;;) {
		/* A match may start here: at any place, or for -w where no
		 * word character is before it. */
		if (!whole_words || !word_before(&pos))
			add_thread(re, &now, 0, &pos);
		if (now.matched && (!whole_words || !word_after(&pos)))
			return true;
		if (pos.at == len)
			return false;
		if (pos.at % REGEX_STOP_EVERY == REGEX_STOP_EVERY - 1 && re->stop && re->stop())
			return false;
		which ^= 1;
		new_list(re, &next, re->threads[which]);
		pos.at++;
		for (int i = 0; i < now.count; i++) {
			const struct regex_insn *insn = &re->prog[now.pc[i]];

			if (reads(re, insn, (unsigned char)text[pos.at - 1]))
				add_thread(re, &next, now.pc[i] + 1, &pos);
		}
		now = next;
	}
}
