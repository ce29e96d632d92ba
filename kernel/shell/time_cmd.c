/* time COMMAND [ARGS...]: run one command and say how long it took, as
 * bash's `time` does:
 *
 *	probeos> time wc -c /host/build/big
 *	4194304 /host/build/big
 *
 *	real	0m0.061s
 *
 * The time is the kernel's clock (ktime_get), which runs in emulated
 * time under QEMU. Only "real" is printed: the kernel does not split a
 * thread's time between user and system (there is no user mode), so
 * bash's user and sys lines would say nothing. The real line goes to
 * standard error, as bash's does, so that `time CMD | wc -l` counts
 * CMD's lines only. The command runs in this thread, with its output
 * where time's goes; a pipeline is not timed as
 * a whole (time is a command here, not a keyword of the shell's
 * grammar as in bash).
 *
 * `time time wc` prints one real line, as bash does: its parser reads
 * the repeated keyword as one. Here the leading `time` words are skipped
 * in a loop before the command runs, so no line, however many `time`s
 * it holds, makes time call itself (each call would take a frame of
 * the shell's small stack).
 *
 * time's status is its command's, as bash's `time` gives the timed
 * pipeline's: `time grep x f && echo found` says whether grep found. */
#include "kernel/command.h"
#include "kernel/cmd_output.h"
#include "kernel/shell/shell.h"
#include "kernel/time.h"
#include "lib/errno.h"
#include "lib/string.h"

static int cmd_time(int argc, char **argv)
{
	const struct shell_command *cmd;
	ktime_t start, took;
	int status;

	while (argc > 1 && strcmp(argv[1], "time") == 0) {
		argc--;
		argv++;
	}
	if (argc < 2)
		return shell_usage("time");
	cmd = shell_find_command(argv[1]);
	if (!cmd) {
		cmd_eprintf("time: %s: command not found\n", argv[1]);
		return -ENOENT;
	}
	start = ktime_get();
	status = cmd->run(argc - 1, argv + 1);
	took = ktime_get() - start;
	cmd_eprintf("\nreal\t%lldm%lld.%03llds\n", took / (60 * NSEC_PER_SEC),
		took / NSEC_PER_SEC % 60, took / 1000000 % 1000);
	return status;
}
SHELL_COMMAND("time", "COMMAND [ARGS...]", "run a command and print how long it took",
	      cmd_time);
