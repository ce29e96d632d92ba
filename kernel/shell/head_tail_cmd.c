/* head and tail: the first or the last lines of each FILE, or of the
 * standard input with no FILE, as GNU's print them:
 *
 *	head [-n N] [FILE]...	the first N lines (10 by default)
 *	tail [-n N] [FILE]...	the last N lines
 *	tail -n +N [FILE]...	the lines from the Nth on
 *
 * -N alone, first, is -n N (head -3), the old form Linux still takes.
 * With more than one FILE, each file's lines come after a header,
 * "==> FILE <==", and a blank line parts two files. */
#include "kernel/cmd_output.h"
#include "kernel/command.h"
#include "kernel/shell/getopt.h"
#include "kernel/shell/input.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/string.h"

#define HEAD_USAGE "[-n N] [FILE]..."
#define TAIL_USAGE "[-n [+]N] [FILE]..."

/* Which lines to print: count of them, from the start or, for tail,
 * the last ones unless from_line (tail -n +N: from line N on). */
struct span {
	bool tail;
	bool from_line;
	uint64_t count;
	bool headers;		/* more than one FILE: "==> FILE <==" before each */
	bool printed;		/* a file's lines were printed: a blank line first */
};

/* The lines of one input the span selects, line numbers from 0:
 * [*first, *end). total is the input's number of lines. */
static void span_lines(const struct span *s, uint64_t total, uint64_t *first, uint64_t *end)
{
	if (!s->tail) {
		*first = 0;
		*end = MIN(s->count, total);
	} else if (s->from_line) {
		*first = s->count ? MIN(s->count - 1, total) : 0;
		*end = total;
	} else {
		*first = total - MIN(s->count, total);
		*end = total;
	}
}

/* Print the lines of one input (path NULL: standard input) the span
 * selects, after its header if it needs one. tail's input was read
 * whole, to be counted first; head needs no count. Returns the output's
 * error if it refused a line, -EINTR after a Ctrl-C. */
static int print_span(struct input *in, const char *path, void *arg)
{
	struct span *s = arg;
	struct line line;
	uint64_t total = 0, first, end, n;
	int err = 0;

	if (s->headers)
		err = cmd_printf("%s==> %s <==\n", s->printed ? "\n" : "", path);
	s->printed = true;
	if (s->tail) {
		while (input_line(in, &line))
			total++;
		input_rewind(in);
	} else {
		total = UINT64_MAX;
	}
	span_lines(s, total, &first, &end);
	for (n = 0; err >= 0 && n < end && input_line(in, &line); n++) {
		if (n >= first)
			err = output_line(&line);
	}
	if (err < 0)
		return err;
	return cmd_should_stop() ? -EINTR : 0;
}

/* GNU's words for an input that cannot be read. */
static void say_cannot_open(const char *cmd, const char *path, int err)
{
	cmd_eprintf("%s: cannot open '%s' for reading: %s\n", cmd, path, strerror(err));
}

/* The N of -n N, or of -N: a number, with a leading + for tail.
 * Returns 0, or -EINVAL after saying it is none. */
static int parse_span(const char *cmd, const char *text, struct span *s)
{
	s->from_line = s->tail && text[0] == '+';
	if (parse_unsigned(text + s->from_line, UINT64_MAX, &s->count) == 0)
		return 0;
	cmd_eprintf("%s: invalid number of lines: '%s'\n", cmd, text);
	return -EINVAL;
}

static int head_tail(bool tail, int argc, char **argv)
{
	const char *cmd = tail ? "tail" : "head";
	struct span s = { .tail = tail, .count = 10 };
	struct getopt opt;
	int c, err;

	/* The old form: head -3, tail -3. */
	if (argc > 1 && argv[1][0] == '-' && is_digit(argv[1][1])) {
		err = parse_span(cmd, argv[1] + 1, &s);
		if (err)
			return err;
		argv++;
		argc--;
	}
	getopt_init(&opt, argc, argv, "n:");
	while ((c = getopt_next(&opt)) != -1) {
		if (c != 'n')
			return shell_usage(cmd);
		err = parse_span(cmd, opt.value, &s);
		if (err)
			return err;
	}
	s.headers = opt.operands > 1;
	return input_each(cmd, opt.operands, argv + 1, tail, say_cannot_open, print_span, &s);
}

static int cmd_head(int argc, char **argv)
{
	return head_tail(false, argc, argv);
}

static int cmd_tail(int argc, char **argv)
{
	return head_tail(true, argc, argv);
}
SHELL_COMMAND("head", HEAD_USAGE, "print the first lines of files or of a pipe", cmd_head);
SHELL_COMMAND("tail", TAIL_USAGE, "print the last lines of files or of a pipe", cmd_tail);
