/* The pipeline runner: see pipeline.h.
 *
 * A pipeline A | B | C runs A to its end with its output going into a
 * pipe, then B with that text as its input and its own output going
 * into a second pipe, then C, which reads the second pipe and prints
 * where the line sends it. Only two pipes are alive at a time: the one
 * a command reads and the one it fills. This is not how a Linux shell
 * does it (there the three run at once, each blocking on its pipe), but
 * the shell's commands are calls on one thread, and run one at a time
 * they need no scheduler, no blocking pipe and no end-of-input signal:
 * a pipe's input ends where the command before it returned. */
#include "kernel/shell/pipeline.h"
#include "kernel/shell/input.h"
#include "kernel/shell/pipe.h"
#include "kernel/shell/redirect.h"
#include "kernel/shell/shell.h"
#include "kernel/console.h"
#include "kernel/cmd_output.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Run cmd (none: a redirection alone, `> FILE`, which only makes the
 * file empty) with its standard output where the line sends it: the
 * file of its redirection, else into pipe (if it is not NULL), else
 * where the shell's own output goes. Its standard error stays the
 * shell's. A write the file refused is said after the command, in one
 * line, as Linux's tools say it. Returns the pipe's error: 0, or why the
 * pipe refused the command's output. */
static int run_command(const struct shell_command *cmd, const struct cmdline *cl,
		       struct pipe *pipe)
{
	static struct redirect redirect;	/* its buffer is a page: off the stack */
	struct cmd_stream *shell_output = NULL;
	int err;

	if (cl->redirect) {
		err = redirect_open(&redirect, cl->redirect, cl->append);
		if (err) {
			cmd_eprintf("shell: %s: %s\n", cl->redirect, strerror(err));
			return 0;
		}
	}
	if (cl->redirect)
		shell_output = cmd_output_set(&redirect.stream);
	else if (pipe)
		shell_output = cmd_output_set(&pipe->stream);
	if (cmd)
		cmd->run(cl->argc, cl->argv);
	if (cl->redirect || pipe)
		cmd_output_set(shell_output);
	if (cl->redirect) {
		err = redirect_close(&redirect);
		if (err)
			cmd_eprintf("%s: write error: %s\n", cmd ? cmd->name : "shell", strerror(err));
		return 0;
	}
	return pipe ? pipe->err : 0;
}

/* The command a pipeline's stage names (NULL for a redirection alone);
 * false after saying so if there is no such command. */
static bool find_command(const struct cmdline *cl, const struct shell_command **cmd)
{
	*cmd = NULL;
	if (cl->argc == 0)
		return true;
	*cmd = shell_find_command(cl->argv[0]);
	if (!*cmd)
		cmd_eprintf("unknown command: %s (try help)\n", cl->argv[0]);
	return *cmd != NULL;
}

/* Every command of the pipeline exists: checked before any runs, so
 * that `worker start | frobnicate` starts nothing. */
static bool all_found(const struct cmdline *cmds, int count)
{
	const struct shell_command *cmd;

	for (int i = 0; i < count; i++) {
		if (!find_command(&cmds[i], &cmd))
			return false;
	}
	return true;
}

/* Run one pipeline: cmds[0 .. count-1], each but the last piped into
 * the next. It stops early at a Ctrl-C, or when a pipe refused a
 * command's output (that is said, in one line). */
static void run_pipeline(const struct cmdline *cmds, int count)
{
	struct pipe in, out;
	const struct shell_command *cmd;
	int err = 0;

	if (!all_found(cmds, count))
		return;
	pipe_init(&in);
	for (int i = 0; i < count && !err && !console_interrupted(); i++) {
		find_command(&cmds[i], &cmd);
		pipe_init(&out);
		/* The first command has no pipe before it. */
		input_set_pipe(i ? (in.buf ? in.buf : "") : NULL, in.len);
		err = run_command(cmd, &cmds[i], cmds[i].pipe ? &out : NULL);
		input_set_pipe(NULL, 0);
		pipe_free(&in);
		in = out;
		if (err && err != -EINTR)
			cmd_eprintf("%s: write error: %s\n", cmd ? cmd->name : "shell", strerror(err));
	}
	pipe_free(&in);
}

void pipeline_run_line(const struct cmdline *cmds, int count)
{
	int start = 0;

	while (start < count && !console_interrupted()) {
		int end = start;

		while (cmds[end].pipe)
			end++;
		run_pipeline(cmds + start, end - start + 1);
		start = end + 1;
	}
	/* Taken here, so that the line editor does not read it as a Ctrl-C
	 * typed at the prompt. */
	if (console_interrupt_take())
		cmd_eprintf("^C\n");
}
