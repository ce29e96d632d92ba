/* The command-line parser: see cmdline.h for the rules it follows.
 *
 * One pass over the line. `in` walks the line, `out` appends to store;
 * out never gets ahead of the line's own length (every byte written
 * stands for at least one byte read, and each NUL for a separator or
 * the line's end), so a store of strlen(line) + 1 bytes is enough. */
#include "kernel/shell/cmdline.h"
#include "lib/errno.h"
#include "lib/string.h"

struct parser {
	const char *in;
	char *out, *end;	/* the next free byte of store, and its end */
	int err;		/* 0, or why the line is refused: */
	const char *error;	/* the errno, and the words */
};

/* Refuse the line; returns false, for the caller to return. */
static bool fail(struct parser *p, int err, const char *why)
{
	p->err = err;
	p->error = why;
	return false;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Where an unquoted character ends a word. */
static bool ends_word(char c)
{
	return c == '\0' || is_blank(c) || c == '>';
}

static bool put(struct parser *p, char c)
{
	if (p->out == p->end)
		return fail(p, -E2BIG, "line too long to split");
	*p->out++ = c;
	return true;
}

/* Copy a quoted part; p->in is just past the opening quote. Inside
 * double quotes, a backslash before " or \ stands for that character;
 * before anything else it is itself. */
static bool copy_quoted(struct parser *p, char quote)
{
	for (;;) {
		char c = *p->in;

		if (c == '\0')
			return fail(p, -EINVAL, quote == '\'' ? "missing closing '" : "missing closing \"");
		p->in++;
		if (c == quote)
			return true;
		if (quote == '"' && c == '\\' && (*p->in == '"' || *p->in == '\\'))
			c = *p->in++;
		if (!put(p, c))
			return false;
	}
}

/* Copy one word, which starts at p->in, and end it with a NUL. */
static bool copy_word(struct parser *p)
{
	while (!ends_word(*p->in)) {
		char c = *p->in++;

		if (c == '\'' || c == '"') {
			if (!copy_quoted(p, c))
				return false;
			continue;
		}
		/* A backslash keeps the next character, unless the line
		 * ends: then it is a backslash. */
		if (c == '\\' && *p->in != '\0')
			c = *p->in++;
		if (!put(p, c))
			return false;
	}
	return put(p, '\0');
}

static void skip_blanks(struct parser *p)
{
	while (is_blank(*p->in))
		p->in++;
}

/* A > or >> and the word after it; p->in is at the first >. */
static bool parse_redirect(struct parser *p, struct cmdline *cl)
{
	if (cl->redirect)
		return fail(p, -EINVAL, "only one > or >> per command");
	p->in++;
	cl->append = *p->in == '>';
	if (cl->append)
		p->in++;
	skip_blanks(p);
	if (ends_word(*p->in))
		return fail(p, -EINVAL, cl->append ? ">> needs a file name" : "> needs a file name");
	cl->redirect = p->out;
	return copy_word(p);
}

int cmdline_parse(const char *line, char *store, size_t store_size,
		  char **words, int max_words, struct cmdline *out)
{
	struct parser p = { .in = line, .out = store, .end = store + store_size };

	*out = (struct cmdline){ .argv = words };
	for (skip_blanks(&p); *p.in; skip_blanks(&p)) {
		if (*p.in == '>') {
			if (!parse_redirect(&p, out))
				break;
			continue;
		}
		if (out->argc == max_words) {
			fail(&p, -E2BIG, "too many words");
			break;
		}
		words[out->argc] = p.out;
		if (!copy_word(&p))
			break;
		out->argc++;
	}
	words[out->argc] = NULL;
	out->error = p.error;
	return p.err;
}
