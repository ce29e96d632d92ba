/* A command's usage, as its SHELL_COMMAND() declares it (command.h):
 * printed whole by `help CMD`, and on standard error after a wrong use,
 * so that every command says how it is used in the same words. */
#include "kernel/command.h"
#include "kernel/cmd_output.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

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

int shell_usage(const char *name)
{
	const struct shell_command *cmd = shell_find_command(name);
	char lead[40];

	if (cmd) {
		snprintf(lead, sizeof(lead), "%s: usage: ", cmd->name);
		shell_print_forms(cmd_eprintf, cmd, lead);
	}
	return -EINVAL;
}
