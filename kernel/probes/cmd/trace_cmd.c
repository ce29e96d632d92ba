/*
 * The `trace` shell command: print what the shell's probes recorded, or
 * forget it. The rings and how they are read without stopping the CPUs
 * that write them are kernel/probes/trace.c.
 *
 *   trace          every record since the last `trace clear`
 *   trace clear
 */
#include "kernel/cmd_output.h"
#include "kernel/command.h"
#include "kernel/probes/trace.h"
#include "lib/errno.h"
#include "lib/string.h"

static int cmd_trace(int argc, char **argv)
{
	if (argc == 1) {
		int err = trace_print();

		if (err)
			cmd_eprintf("trace: %s\n", strerror(err));
		return err;
	}
	if (argc == 2 && strcmp(argv[1], "clear") == 0) {
		trace_clear();
		cmd_printf("trace: cleared\n");
		return 0;
	}
	return shell_usage(argv[0]);
}
SHELL_COMMAND("trace", "[clear]", "show (or clear) what the probes recorded", cmd_trace);
