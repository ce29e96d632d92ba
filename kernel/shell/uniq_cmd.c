/* uniq [-c] [FILE]: print the lines of FILE (or of the pipe's text),
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
#include "kernel/printk.h"
#include "kernel/command.h"
#include "kernel/console.h"
#include "kernel/shell/getopt.h"
#include "kernel/shell/input.h"
#include "lib/errno.h"
#include "lib/string.h"

#define UNIQ_USAGE "[-c] [FILE]"

static bool same_line(const struct line *a, const struct line *b)
{
	return a->len == b->len && memcmp(a->text, b->text, a->len) == 0;
}

/* Print one run: the line, after its count with -c. */
static int print_run(bool count, const struct line *line, unsigned long n)
{
	if (count && kprintf("%7lu ", n) < 0)
		return -1;
	return output_line(line);
}

static void uniq_input(bool count, const char *path)
{
	struct input in;
	struct line run, line;
	unsigned long n = 0;
	int err = input_open(&in, path);

	if (err) {
		kprintf("uniq: %s: %s\n", path, strerror(err));
		return;
	}
	while (input_line(&in, &line)) {
		if (n && same_line(&run, &line)) {
			n++;
			continue;
		}
		if (n && print_run(count, &run, n) < 0)
			break;
		run = line;
		n = 1;
	}
	if (n && !console_interrupted())
		print_run(count, &run, n);
	input_close(&in);
}

static void cmd_uniq(int argc, char **argv)
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
	if (c != -1 || opt.operands > 1) {
		kprintf("uniq: usage: uniq " UNIQ_USAGE "\n");
		return;
	}
	uniq_input(count, opt.operands ? argv[1] : NULL);
}
SHELL_COMMAND("uniq", UNIQ_USAGE, "print a file or a pipe with its repeated lines once", cmd_uniq);
