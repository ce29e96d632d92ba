/* Shell commands, declared where they are written.
 *
 * Each subsystem declares its own commands with SHELL_COMMAND(); the
 * linker gathers the descriptors into one table (.shell_cmds, see
 * linker/), which the shell (kernel/shell/shell.c) walks to find a
 * command by name. No central list knows them all, and the code that
 * declares a command needs only this header: the shell is a leaf above
 * everything, which nothing includes. */
#ifndef KERNEL_COMMAND_H
#define KERNEL_COMMAND_H

#include "lib/types.h"

struct shell_command {
	const char *name;
	/* Its forms, the arguments of each after the name, one per line:
	 * "[PATH]", or "add SYMBOL\nlist" for a command of several forms.
	 * `help CMD` prints them all, and so does a wrong use. */
	const char *usage;
	const char *help;	/* one line shown by `help` */
	/* argv[0] is the command name. Returns the command's exit status,
	 * which the shell's && and || test: 0 if it did what it was asked;
	 * else the negative errno it failed with, the one its one-line
	 * error on standard error says (a wrong use is -EINVAL: see
	 * shell_usage), or SHELL_FALSE. A command working through several
	 * arguments goes on past one that fails and returns the last error
	 * it said; one stopped by a Ctrl-C returns -EINTR. */
	int (*run)(int argc, char **argv);
};

/* The status of a command whose answer is no, with no error to say:
 * `false`, grep finding no line, selftest a failed case. It is what sh
 * gives them, 1; positive, so that it is no negated errno (-EPERM, the
 * errno 1, would claim a refusal that never happened). */
#define SHELL_FALSE 1

#define SHELL_COMMAND(cmd_name, cmd_usage, cmd_help, fn)                       \
	static const struct shell_command shell_cmd_##fn                      \
		__used __section(".shell_cmds") __aligned(8) = {              \
		.name = cmd_name, .usage = cmd_usage, .help = cmd_help,       \
		.run = fn,                                                    \
	}

/* Bounds of the command table, set by the linker script. */
extern const struct shell_command __start_shell_cmds[], __stop_shell_cmds[];

/* Look up a command by name in the table (kernel/command.c); NULL if
 * there is none. */
const struct shell_command *shell_find_command(const char *name);

/* Print a command's forms (its usage, one "NAME FORM" per line) with
 * print (cmd_printf or cmd_eprintf, kernel/cmd_output.h), the first
 * after lead and the others lined up under it. */
void shell_print_forms(int (*print)(const char *fmt, ...), const struct shell_command *cmd,
		       const char *lead);

/* Say how to use the command name, after a wrong use: its forms on
 * standard error, the first as "NAME: usage: NAME FORM". Returns
 * -EINVAL, the status of a wrong use, for the command to return. */
int shell_usage(const char *name);

/* Parse a command's number argument text (decimal, or hex with 0x) that
 * must lie in [min, max]. Returns 0; -EINVAL if it is not a number, for
 * the caller to answer (usually with its usage line); or -ERANGE after
 * printing "CMD: WHAT TEXT is out of range (...)" with the bounds, the
 * one wording of every command's overflow. */
int shell_parse_number(const char *cmd, const char *what, const char *text,
		       uint64_t min, uint64_t max, uint64_t *out);

#endif
