/* The command table: every SHELL_COMMAND() of the kernel, gathered by the
 * linker into .shell_cmds (kernel/command.h), looked up by name. It sits
 * low, beside the table, so that whoever runs a command by name (the
 * shell's pipeline, `time`) needs nothing of the shell for it. */
#include "kernel/command.h"
#include "lib/string.h"

const struct shell_command *shell_find_command(const char *name)
{
	for (const struct shell_command *cmd = __start_shell_cmds; cmd < __stop_shell_cmds; cmd++)
		if (strcmp(cmd->name, name) == 0)
			return cmd;
	return NULL;
}
