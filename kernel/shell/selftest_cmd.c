/* The `selftest` command: runs the suites that kernel/selftest.c
 * gathers, all of them or the one named. A failed case makes its
 * status SHELL_FALSE: the report says which, and no errno would. */
#include "kernel/cmd_output.h"
#include "kernel/selftest.h"
#include "kernel/shell/shell.h"
#include "lib/errno.h"

static int selftest_cmd(int argc, char **argv)
{
	int failed;

	if (argc > 2)
		return shell_usage("selftest");
	failed = selftest_run(argc == 2 ? argv[1] : NULL);
	if (failed == -ENOENT)
		cmd_eprintf("selftest: no suite '%s'\n", argv[1]);
	return failed > 0 ? SHELL_FALSE : failed;
}
SHELL_COMMAND("selftest", "[SUITE]",
	      "run the kernel's self tests (all, or one suite)", selftest_cmd);
