/* uniq [-c] [FILE]: print the lines of FILE (or of standard input),
 * each run of equal lines next to each other once, as GNU uniq does;
 * with -c, each after the length of its run, in GNU's layout:
 *
 *	probeos> seq 3 | uniq -c
 *	      1 1
 *	      1 2
 *	      1 3
 *
 * Lines further apart are not compared: sort first to count them all
 * (sort | uniq -c). GNU's second operand, a file to write to, is not
 * taken: > FILE does that. */
#include "kernel/cmd_output.h"
#include "kernel/command.h"
#include "kernel/shell/getopt.h"
#include "kernel/shell/input.h"
#include "lib/errno.h"
#include "lib/string.h"

#define UNIQ_USAGE "[-c] [FILE]"

static bool same_line(const struct line *a, const struct line *b)
{
	return a->len == b->len && memcmp(a->text, b->text, a->len) == 0;
}

/* Print one run: the line, after its count with -c. Returns 0, or
 * the output's negative errno. */
static int print_run(bool count, const struct line *line, unsigned long n)
{
	int err = count ? cmd_printf("%7lu ", n) : 0;

	return err < 0 ? err : output_line(line);
}

/* One input's runs. It was read whole: a run's first line must stay
 * while the lines after it are read. Returns 0, the output's error, or
 * -EINTR after a Ctrl-C. */
static int uniq_input(struct input *in, const char *path, void *arg)
{
	const bool *count = arg;
	struct line run, line;
	unsigned long n = 0;
	int err;

	(void)path;
	while (input_line(in, &line)) {
		if (n && same_line(&run, &line)) {
			n++;
			continue;
		}
		err = n ? print_run(*count, &run, n) : 0;
		if (err)
			return err;
		run = line;
		n = 1;
	}
	if (cmd_should_stop())
		return -EINTR;
	return n ? print_run(*count, &run, n) : 0;
}

static int cmd_uniq(int argc, char **argv)
{
	bool count = false;
	struct getopt opt;
	int c;

	getopt_init(&opt, argc, argv, "c");
	while ((c = getopt_next(&opt)) != -1) {
		if (c != 'c')
			break;
		count = true;
	}
	if (c != -1 || opt.operands > 1)
		return shell_usage("uniq");
	return input_each("uniq", opt.operands, argv + 1, true, NULL, uniq_input, &count);
}
SHELL_COMMAND("uniq", UNIQ_USAGE, "print a file or a pipe with its repeated lines once", cmd_uniq);
