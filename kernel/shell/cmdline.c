/* The command-line parser: see cmdline.h for the rules it follows.
 *
 * One pass over the line. `in` walks the line, `out` appends to store;
 * out never gets ahead of the line's own length (every byte written
 * stands for at least one byte read, and each NUL for a separator or
 * the line's end), so a store of strlen(line) + 1 bytes is enough. The
 * words array fills the same way: a word takes at least one character,
 * and the NULL that ends a command's words stands for the separator
 * after it, or for the line's end. */
#include "kernel/shell/cmdline.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/string.h"

/* A separator between two commands, and sh's words for one with no
 * command before it (or, for |, && and ||, none after it). */
struct separator {
	const char *token;
	enum cmdline_next next;
	const char *error;
	const char *refused;	/* why it is refused even after a command, or NULL */
};

#define SYNTAX_ERROR(token) "syntax error near unexpected token '" token "'"
#define SEPARATOR(token, next, refused) { token, next, SYNTAX_ERROR(token), refused }

/* Longest first, where one token starts another: && before &. */
static const struct separator separators[] = {
	SEPARATOR("&&", CMDLINE_AND, NULL),
	SEPARATOR("||", CMDLINE_OR, NULL),
	/* sh's end of a case; there is no case. */
	SEPARATOR(";;", CMDLINE_END, SYNTAX_ERROR(";;")),
	SEPARATOR("|", CMDLINE_PIPE, NULL),
	SEPARATOR(";", CMDLINE_END, NULL),
	/* sh runs the command before it in the background: no job control here. */
	SEPARATOR("&", CMDLINE_END, "background jobs (&) are not supported"),
};

struct parser {
	const char *in;
	char *out, *end;	/* the next free byte of store, and its end */
	int words;		/* pointers of list->words used */
	struct cmdline *cmd;	/* the command being parsed; NULL between two */
	/* The last separator, if a command must come after it: |, &&, ||. */
	const struct separator *dangling;
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

static bool is_separator(char c)
{
	return c == '|' || c == ';' || c == '&';
}

/* The separator at s, which starts with a separator's character. */
static const struct separator *separator_at(const char *s)
{
	const struct separator *sep = separators;

	while (strncmp(s, sep->token, strlen(sep->token)) != 0)
		sep++;
	return sep;
}

/* Where an unquoted character ends a word. */
static bool ends_word(char c)
{
	return c == '\0' || is_blank(c) || c == '>' || is_separator(c);
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

/* Start a command at the first word or > after a separator (or at the
 * line's start), with room kept for the NULL after its words. */
static bool begin_command(struct parser *p, struct cmdline_list *list)
{
	if (list->count == list->max_cmds || p->words == list->max_words)
		return fail(p, -E2BIG, "too many commands");
	p->cmd = &list->cmds[list->count++];
	*p->cmd = (struct cmdline){ .argv = list->words + p->words };
	p->cmd->argv[0] = NULL;
	p->words++;
	return true;
}

/* Add the word at p->in to the command, before the NULL kept for it. */
static bool add_word(struct parser *p, struct cmdline_list *list)
{
	struct cmdline *cmd = p->cmd;

	if (p->words == list->max_words)
		return fail(p, -E2BIG, "too many words");
	cmd->argv[cmd->argc] = p->out;
	if (!copy_word(p)) {
		cmd->argv[cmd->argc] = NULL;	/* a refused line's argv ends too */
		return false;
	}
	cmd->argv[++cmd->argc] = NULL;
	p->words++;
	return true;
}

/* The separator at p->in ends the command being parsed. With none (the
 * line's start, or right after another separator) it is the error sh
 * reports, naming the token (&& is one token, as ;; is). */
static bool end_command(struct parser *p)
{
	const struct separator *sep = separator_at(p->in);

	if (!p->cmd)
		return fail(p, -EINVAL, sep->error);
	if (sep->refused)
		return fail(p, -EINVAL, sep->refused);
	p->cmd->next = sep->next;
	p->cmd = NULL;
	p->dangling = sep->next == CMDLINE_END ? NULL : sep;
	p->in += strlen(sep->token);
	return true;
}

/* One step: a separator, a redirection or a word, at p->in. */
static bool parse_token(struct parser *p, struct cmdline_list *list)
{
	if (is_separator(*p->in))
		return end_command(p);
	if (!p->cmd && !begin_command(p, list))
		return false;
	if (*p->in == '>')
		return parse_redirect(p, p->cmd);
	return add_word(p, list);
}

int cmdline_parse(const char *line, struct cmdline_list *list)
{
	struct parser p = { .in = line, .out = list->store,
			    .end = list->store + list->store_size };

	list->count = 0;
	for (skip_blanks(&p); *p.in; skip_blanks(&p)) {
		if (!parse_token(&p, list))
			break;
	}
	/* A |, && or || needs a command after it; a ; may end the line. */
	if (!p.err && !p.cmd && p.dangling)
		fail(&p, -EINVAL, p.dangling->error);
	list->error = p.error;
	return p.err;
}
