/* grep [-cEivw] [-e PATTERN | PATTERN] [FILE]...: print the lines that
 * match a regular expression (lib/regex.h), as GNU grep does: of each
 * FILE, or of the pipe's text with no FILE. With more than one FILE,
 * each line printed starts with its file's name and a colon.
 *
 *	-c  print how many lines match (FILE:N with more than one FILE)
 *	-E  extended regular expressions (ERE), not basic ones (BRE)
 *	-i  ignore case
 *	-v  the lines that do not match
 *	-w  only matches that are whole words
 *	-e  the pattern, when it starts with a '-'
 *
 * A bad expression is one line, in GNU's words:
 *	grep: Unmatched ( or \( */
#include "kernel/cmd_output.h"
#include "kernel/command.h"
#include "kernel/shell/getopt.h"
#include "kernel/shell/input.h"
#include "kernel/mm/heap.h"
#include "lib/errno.h"
#include "lib/regex.h"
#include "lib/string.h"

#define GREP_USAGE "[-cEivw] [-e PATTERN | PATTERN] [FILE]..."

struct grep {
	bool count, invert, words;
	bool names;		/* prefix each line with its file's name */
	bool matched;		/* a line of some input matched: status 0 */
	int refused;		/* -EINVAL once an input was refused as the output */
	/* About 40 KiB, with room to match: kmalloc'd, off the stack, and
	 * each grep's own, as two may run at once (`grep a | grep b`). */
	struct regex *re;
};

/* grep one input (path NULL: standard input). Returns the output's
 * error if it refused a line (then there is no point going on), or
 * -EINTR after a Ctrl-C. */
static int grep_input(struct input *in, const char *path, void *arg)
{
	struct grep *g = arg;
	struct line line;
	unsigned long found = 0;
	int err = 0;

	if (input_is_output(in)) {
		cmd_eprintf("grep: %s: input file is also the output\n", path);
		g->refused = -EINVAL;
		return 0;
	}
	while (err >= 0 && input_line(in, &line)) {
		bool matched = regex_search(g->re, line.text, line.len, g->words);

		/* A Ctrl-C during the search: its answer means nothing. */
		if (cmd_should_stop())
			break;
		if (matched == g->invert)
			continue;
		found++;
		if (g->count)
			continue;
		if (g->names)
			err = cmd_printf("%s:", path);
		if (err >= 0)
			err = output_line(&line);
	}
	g->matched = g->matched || found;
	if (err < 0)
		return err;
	/* After a Ctrl-C, no count and no further FILE, as GNU's grep, which
	 * the signal ends. */
	if (cmd_should_stop())
		return -EINTR;
	if (g->count)
		err = g->names ? cmd_printf("%s:%lu\n", path, found) : cmd_printf("%lu\n", found);
	return err < 0 ? err : 0;
}

/* As GNU grep's: an error wins, else no line matched is a no. */
static int cmd_grep(int argc, char **argv)
{
	struct grep g = { 0 };
	unsigned int flags = 0;
	const char *pattern = NULL, *error;
	struct getopt opt;
	int c, first, err;

	getopt_init(&opt, argc, argv, "cEivwe:");
	while ((c = getopt_next(&opt)) != -1) {
		switch (c) {
		case 'c': g.count = true; break;
		case 'E': flags |= REGEX_EXTENDED; break;
		case 'i': flags |= REGEX_ICASE; break;
		case 'v': g.invert = true; break;
		case 'w': g.words = true; break;
		case 'e': pattern = opt.value; break;
		default:
			return shell_usage("grep");
		}
	}
	first = pattern ? 1 : 2;
	if (!pattern && opt.operands > 0)
		pattern = argv[1];
	if (!pattern)
		return shell_usage("grep");
	g.re = kmalloc(sizeof(*g.re));
	if (!g.re) {
		cmd_eprintf("grep: %s\n", strerror(-ENOMEM));
		return -ENOMEM;
	}
	err = regex_compile(g.re, pattern, flags, &error);
	if (err < 0) {
		cmd_eprintf("grep: %s\n", error);
	} else {
		g.re->stop = cmd_should_stop;
		g.names = opt.operands - first + 1 > 1;
		err = input_each("grep", opt.operands - first + 1, argv + first, false, NULL,
				 grep_input, &g);
		if (!err)
			err = g.refused ? g.refused : g.matched ? 0 : SHELL_FALSE;
	}
	kfree(g.re);
	return err;
}
SHELL_COMMAND("grep", GREP_USAGE, "print the lines that match a regular expression", cmd_grep);
