/* A command's number argument: parsed by lib's parse_unsigned, with a
 * smallest value too, and refused when out of range with one line that
 * reads the same for every command:
 *
 *	probe: offset 0x100000000 is out of range (at most 0xffffffff)
 *	worker: count 0 is out of range (from 1 to 16)
 *
 * The bounds are shown in the base the number was typed in, so that they
 * can be compared with it at a glance. */
#include "kernel/cmd_output.h"
#include "kernel/command.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

static void format_bound(char *buf, size_t size, uint64_t v, bool hex)
{
	snprintf(buf, size, hex ? "0x%lx" : "%lu", (unsigned long)v);
}

static void report_out_of_range(const char *cmd, const char *what, const char *text,
				uint64_t min, uint64_t max)
{
	bool hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
	char lo[24], hi[24];

	format_bound(lo, sizeof(lo), min, hex);
	format_bound(hi, sizeof(hi), max, hex);
	if (min == 0)
		cmd_eprintf("%s: %s %s is out of range (at most %s)\n", cmd, what, text, hi);
	else
		cmd_eprintf("%s: %s %s is out of range (from %s to %s)\n", cmd, what, text, lo, hi);
}

int shell_parse_number(const char *cmd, const char *what, const char *text,
		       uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v;
	int err = parse_unsigned(text, max, &v);

	if (err == 0 && v < min)
		err = -ERANGE;
	if (err == -ERANGE)
		report_out_of_range(cmd, what, text, min, max);
	else if (err == 0)
		*out = v;
	return err;
}
