/* The `selftest` command: runs the suites that kernel/selftest.c
 * gathers, all of them or the one named. */
#include "kernel/cmd_output.h"
#include "kernel/selftest.h"
#include "kernel/shell/shell.h"
#include "lib/errno.h"

static void selftest_cmd(int argc, char **argv)
{
	if (argc > 2) {
		shell_usage("selftest");
		return;
	}
	if (selftest_run(argc == 2 ? argv[1] : NULL) == -ENOENT)
		cmd_eprintf("selftest: no suite '%s'\n", argv[1]);
}
SHELL_COMMAND("selftest", "[SUITE]",
	      "run the kernel's self tests (all, or one suite)", selftest_cmd);
