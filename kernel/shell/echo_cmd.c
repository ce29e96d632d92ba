/* `echo [-n] WORDS`: print the words, one space between them, and a
 * newline unless -n comes first. With a redirection it is how a value is
 * written into a file: `echo 0 > /sys/kernel/debug/kprobes/enabled`
 * reaches the file as the two bytes "0\n", in one write, as from
 * Linux's echo. */
#include "kernel/cmd_output.h"
#include "kernel/shell/shell.h"
#include "lib/string.h"

static int cmd_echo(int argc, char **argv)
{
	bool newline = !(argc > 1 && strcmp(argv[1], "-n") == 0);

	for (int i = newline ? 1 : 2; i < argc; i++)
		cmd_printf("%s%s", argv[i], i + 1 < argc ? " " : "");
	if (newline)
		cmd_printf("\n");
	return 0;
}
SHELL_COMMAND("echo", "[-n] [WORD...]", "print the words (with > FILE: write them to FILE)",
	      cmd_echo);
