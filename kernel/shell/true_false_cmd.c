/* true and false: do nothing, and succeed or fail. They are what && and
 * || are tried with (`false || echo ran`), as in sh.
 *
 * false fails with SHELL_FALSE (command.h), the status of an answer
 * that is no: nothing went wrong that an errno could name, so no errno
 * is claimed (-EPERM, whose number sh's false returns, would say that
 * something was refused). Neither prints anything, nor reads its
 * arguments, as POSIX's true and false. */
#include "kernel/command.h"

static int cmd_true(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static int cmd_false(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return SHELL_FALSE;
}
SHELL_COMMAND("true", "", "do nothing, successfully (for && and ||)", cmd_true);
SHELL_COMMAND("false", "", "do nothing, and fail (for && and ||)", cmd_false);
