/* seq [FIRST [INCREMENT]] LAST: print the numbers from FIRST (1 by
 * default) to LAST, INCREMENT (1) apart, one a line, as coreutils' seq
 * does for whole numbers. A source of many lines for the text tools:
 * `seq 100000 | sort -r | head -n 3`.
 *
 * The numbers are 64-bit integers (decimal, or hex with 0x, as every
 * command reads them); GNU's seq also takes fractions, and options
 * (-s, -w, -f), which this one does not. It stops at a Ctrl-C or a
 * hang-up (cmd_should_stop), and when its output is refused (its pipe's
 * reader gone). */
#include "kernel/cmd_output.h"
#include "kernel/command.h"
#include "lib/errno.h"
#include "lib/string.h"

#define SEQ_USAGE "[FIRST [INCREMENT]] LAST"

static bool seq_number(const char *text, int64_t *n)
{
	if (parse_signed(text, INT64_MAX, n) == 0)
		return true;
	cmd_eprintf("seq: invalid integer argument: '%s'\n", text);
	return false;
}

static int cmd_seq(int argc, char **argv)
{
	int64_t first = 1, step = 1, last;

	if (argc < 2 || argc > 4)
		return shell_usage("seq");
	if (!seq_number(argv[argc - 1], &last) ||
	    (argc > 2 && !seq_number(argv[1], &first)) ||
	    (argc > 3 && !seq_number(argv[2], &step)))
		return -EINVAL;
	if (step == 0) {
		cmd_eprintf("seq: invalid Zero increment value: '%s'\n", argv[2]);
		return -EINVAL;
	}
	for (int64_t n = first; step > 0 ? n <= last : n >= last; n += step) {
		int err = cmd_should_stop() ? -EINTR : cmd_printf("%ld\n", (long)n);

		if (err < 0)
			return err;
		/* The next number would pass the largest (or smallest). */
		if (step > 0 ? n > INT64_MAX - step : n < INT64_MIN - step)
			break;
	}
	return 0;
}
SHELL_COMMAND("seq", SEQ_USAGE, "print a sequence of numbers", cmd_seq);
