/* `dmesg`: print the kernel log (kernel/log.h), one line a record:
 * `[    1.234567] text`. `dmesg -c` clears what it printed, `dmesg -C`
 * clears without printing. */
#include "kernel/command.h"
#include "kernel/log.h"
#include "kernel/cmd_output.h"
#include "lib/string.h"

/* Print the records not cleared, up to the newest one at the start
 * (printing may log more: a printing probe on the console's path), and
 * leave *c just past the last one printed. Each record is copied out
 * under the log's lock and printed after it is released. Records
 * overwritten before they were read leave a gap in the numbers, which
 * is counted on a line of its own where it is: first, if the log had
 * wrapped before the command began. */
static void print_log(struct log_cursor *c)
{
	struct log_cursor end;
	struct log_record rec;
	char line[LOG_FORMAT_MAX];

	log_bounds(&kernel_log, c, &end);
	while (c->seq < end.seq) {
		uint64_t want = c->seq;

		if (log_read(&kernel_log, c, &rec) < 0)
			return;
		if (rec.seq != want)
			cmd_printf("dmesg: %lu messages dropped: the log was full\n",
				(unsigned long)(rec.seq - want));
		log_format(&rec, line, sizeof(line));
		cmd_printf("%s", line);
	}
}

static int cmd_dmesg(int argc, char **argv)
{
	const char *option = argc == 2 ? argv[1] : "";
	struct log_cursor first, end;

	if (argc > 2 || (*option && strcmp(option, "-c") != 0 && strcmp(option, "-C") != 0))
		return shell_usage("dmesg");
	if (strcmp(option, "-C") == 0) {
		log_bounds(&kernel_log, &first, &end);
		log_clear(&kernel_log, &end);
		return 0;
	}
	print_log(&end);
	if (strcmp(option, "-c") == 0)
		log_clear(&kernel_log, &end);
	return 0;
}
SHELL_COMMAND("dmesg", "[-c | -C]", "print the kernel log (-c: then clear it, -C: only clear)",
	      cmd_dmesg);
