/* Shell command registration.
 *
 * Each module declares its own commands with SHELL_COMMAND(); the linker
 * gathers the descriptors into one section (see linker/), so the shell
 * finds them all without a central list that would have to know every
 * module. */
#ifndef KERNEL_SHELL_H
#define KERNEL_SHELL_H

#include "lib/types.h"

#define SHELL_MAX_LINE 255
#define SHELL_MAX_ARGS 16

struct shell_command {
	const char *name;
	const char *usage;	/* arguments, e.g. "[PATH]" */
	const char *help;	/* one line shown by `help` */
	/* argv[0] is the command name. The return value is ignored by the
	 * shell: commands print their own one-line errors. */
	void (*run)(int argc, char **argv);
};

#define SHELL_COMMAND(cmd_name, cmd_usage, cmd_help, fn)                       \
	static const struct shell_command shell_cmd_##fn                      \
		__used __section(".shell_cmds") __aligned(8) = {              \
		.name = cmd_name, .usage = cmd_usage, .help = cmd_help,       \
		.run = fn,                                                    \
	}

/* Bounds of the command table, set by the linker script. */
extern const struct shell_command __start_shell_cmds[], __stop_shell_cmds[];

/* Look up a command by name; NULL if there is none. */
const struct shell_command *shell_find_command(const char *name);

/* Split a line into words and run the command it names. */
void shell_execute(char *line);

/* The shell's thread body: read lines from the console forever. */
void shell_main(void *unused);

#endif
