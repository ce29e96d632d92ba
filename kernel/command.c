/* The command table: every SHELL_COMMAND() of the kernel, gathered by the
 * linker into .shell_cmds (kernel/command.h), looked up by name, and the
 * usage each declares, printed. It sits low, beside the table, so that
 * whoever runs a command by name (the shell's pipeline, `time`) or says
 * how to use one needs nothing of the shell for it. */
#include "kernel/command.h"
#include "kernel/cmd_output.h"
#include "lib/format.h"
#include "lib/string.h"

const struct shell_command *shell_find_command(const char *name)
{
	for (const struct shell_command *cmd = __start_shell_cmds; cmd < __stop_shell_cmds; cmd++)
		if (strcmp(cmd->name, name) == 0)
			return cmd;
	return NULL;
}

void shell_print_forms(int (*print)(const char *fmt, ...), const struct shell_command *cmd,
		       const char *lead)
{
	const char *form = cmd->usage ? cmd->usage : "";
	int indent = (int)strlen(lead);

	do {
		const char *end = strchr(form, '\n');
		int len = end ? (int)(end - form) : (int)strlen(form);

		print("%*s%s%s%.*s\n", indent, lead, cmd->name, len ? " " : "", len, form);
		lead = "";
		form = end ? end + 1 : NULL;
	} while (form);
}

void shell_usage(const char *name)
{
	const struct shell_command *cmd = shell_find_command(name);
	char lead[40];

	if (!cmd)
		return;
	snprintf(lead, sizeof(lead), "%s: usage: ", cmd->name);
	shell_print_forms(cmd_eprintf, cmd, lead);
}
