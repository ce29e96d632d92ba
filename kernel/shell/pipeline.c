/* The pipeline runner: see pipeline.h.
 *
 * A pipeline A | B | C runs as a Linux shell runs it: each command is a
 * stage on a kernel thread of its own, all three at once, A's output
 * going into a bounded pipe (pipe.h) that B reads as it comes, and B's
 * into one that C reads. A writer that gets ahead waits for room, a
 * reader waits for bytes. The shell's thread starts the stages and
 * waits until every one has ended.
 *
 * Every stage, the last one too, has its own thread: the shell's thread
 * then stays free to watch them all, and it is the one place that hangs
 * stages up. A pipeline of one command is no pipeline: it runs on the
 * shell's thread, as a Linux shell runs a built-in, so that `cd` still
 * changes the shell's directory (in a pipeline, as in bash, it changes
 * only its stage's).
 *
 * Hang-up. When the last stage ends, nothing more of the pipeline can
 * be seen, so the shell hangs up the stages still running: it sets each
 * one's flag, which cmd_should_stop (kernel/cmd_output.h) reads, and
 * wakes the pipes they may wait on. A stage waiting for input (grep on
 * an empty pipe, cat in trace_pipe's read) then ends at once. Linux
 * does less: it only closes the read end, and a writer learns of it
 * from SIGPIPE at its next write, so `cat trace_pipe | head -n 5` there
 * returns only after one more trace record has come. ProbeOS stops it
 * at once, because here a stage that waits for ever would keep the
 * prompt from coming back (there is no job control to leave it behind).
 * A Ctrl-C hangs up every stage the same way.
 *
 * The wait for the stages polls once a timer tick, as trace_pipe's read
 * does: a Ctrl-C wakes no one (kernel/console.c sets a flag), and the
 * shell must notice it even while every stage sleeps.
 *
 * Status. Every command returns one (command.h), and so does each stage
 * that could not run: -ENOENT for an unknown command (the pipeline then
 * runs none), the errno of a redirection's file that could not be
 * opened (that command does not run), -ENOMEM for a stage with no
 * thread. A pipeline's status is its last stage's, as in sh: `cat
 * /nonexistent | wc -l` succeeds, wc having counted 0 lines. */
#include "kernel/shell/pipeline.h"
#include "kernel/shell/pipe.h"
#include "kernel/shell/redirect.h"
#include "kernel/shell/shell.h"
#include "kernel/console.h"
#include "kernel/cmd_output.h"
#include "kernel/mm/heap.h"
#include "kernel/sched.h"
#include "lib/errno.h"
#include "lib/string.h"

/* One command of a running pipeline, and its pipes. */
struct stage {
	const struct shell_command *cmd;	/* NULL: a redirection alone */
	const struct cmdline *cl;
	struct pipe *in, *out;		/* before it, after it; NULL: none */
	bool hung_up;			/* set by the shell: stop now */
	int status;			/* set by the stage before done: its command's */
	bool done;			/* set by the stage: its thread is finished with it */
};

/* Run cmd with its standard output where the line sends it: the file of
 * its redirection, else into pipe (if it is not NULL), else where the
 * thread's own output goes. Its standard error stays the thread's. A
 * write the file refused is said after the command, in one line, as
 * Linux's tools say it, and is the status of a command that succeeded
 * otherwise; a pipe's refusal (its reader gone, a hang-up) is not said:
 * the command stopped because nobody reads, as SIGPIPE stops a Linux
 * program silently. Returns the command's status; a redirection alone
 * (cmd NULL) succeeds, as in sh. */
static int run_command(const struct shell_command *cmd, const struct cmdline *cl,
		       struct pipe *pipe)
{
	struct cmd_stream *out = pipe ? &pipe->stream : NULL;
	struct cmd_stream *before = NULL;
	/* Its own, for two stages may redirect at once; a page: off the stack. */
	struct redirect *redirect = NULL;
	int err, status = 0;

	if (cl->redirect) {
		redirect = kmalloc(sizeof(*redirect));
		err = redirect ? redirect_open(redirect, cl->redirect, cl->append) : -ENOMEM;
		if (err) {
			cmd_eprintf("shell: %s: %s\n", cl->redirect, strerror(err));
			kfree(redirect);
			return err;
		}
		out = &redirect->stream;
	}
	if (out)
		before = cmd_output_set(out);
	if (cmd)
		status = cmd->run(cl->argc, cl->argv);
	if (out)
		cmd_output_set(before);
	if (redirect) {
		err = redirect_close(redirect);
		if (err)
			cmd_eprintf("%s: write error: %s\n", cmd ? cmd->name : "shell", strerror(err));
		if (err && !status)
			status = err;
		kfree(redirect);
	}
	return status;
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

/* Close the stage's ends of its pipes, waking the stages on their other
 * ends: the one before gets -EPIPE, the one after its end of input. */
static void close_ends(struct stage *s)
{
	if (s->in)
		pipe_close_read(s->in);
	if (s->out)
		pipe_close_write(s->out);
}

/* A stage's thread: the command, with standard input and output
 * connected to the stage's pipes, and the stage's hang-up flag. */
static void stage_main(void *arg)
{
	struct stage *s = arg;

	cmd_hangup_set(&s->hung_up);
	cmd_input_set(s->in ? &s->in->source : NULL);
	s->status = run_command(s->cmd, s->cl, s->out);
	close_ends(s);
	/* Nothing of the stage stays in the thread, which exits... */
	cmd_input_set(NULL);
	cmd_hangup_set(NULL);
	/* ...and the last touch: the shell may free the stage and its
	 * pipes as soon as it sees this. */
	__atomic_store_n(&s->done, true, __ATOMIC_RELEASE);
}

static bool is_done(const struct stage *s)
{
	return __atomic_load_n(&s->done, __ATOMIC_ACQUIRE);
}

/* Tell every stage still running to stop, and wake it wherever it
 * waits on a pipe (any other wait polls cmd_should_stop itself). */
static void hang_up(struct stage *stages, int count)
{
	for (int i = 0; i < count; i++) {
		if (is_done(&stages[i]))
			continue;
		__atomic_store_n(&stages[i].hung_up, true, __ATOMIC_RELEASE);
		if (stages[i].in)
			pipe_wake(stages[i].in);
		if (stages[i].out)
			pipe_wake(stages[i].out);
	}
}

/* Wait until every stage has ended; hang them all up once the last one
 * has ended, or at a Ctrl-C. */
static void wait_stages(struct stage *stages, int count)
{
	for (int i = 0; i < count; i++) {
		while (!is_done(&stages[i])) {
			if (console_interrupted() || is_done(&stages[count - 1]))
				hang_up(stages, count);
			thread_sleep(1);
		}
	}
}

/* Connect the stages with count - 1 pipes and start a thread for each.
 * A stage whose thread could not be made ends at once, as a command
 * that failed: its neighbours see its ends closed. */
static void start_stages(struct stage *stages, struct pipe *pipes,
			 const struct cmdline *cmds, int count)
{
	for (int i = 0; i < count; i++) {
		struct stage *s = &stages[i];

		find_command(&cmds[i], &s->cmd);
		s->cl = &cmds[i];
		s->in = i ? &pipes[i - 1] : NULL;
		s->out = i < count - 1 ? &pipes[i] : NULL;
		if (i < count - 1)
			pipe_init(&pipes[i]);
	}
	for (int i = 0; i < count; i++) {
		const char *name = stages[i].cmd ? stages[i].cmd->name : "shell";

		if (thread_create(name, stage_main, &stages[i]) < 0) {
			cmd_eprintf("shell: %s: %s\n", name, strerror(-ENOMEM));
			close_ends(&stages[i]);
			stages[i].status = -ENOMEM;
			stages[i].done = true;
		}
	}
}

/* Run one pipeline: cmds[0 .. count-1], each but the last piped into
 * the next. Returns its status. */
static int run_pipeline(const struct cmdline *cmds, int count)
{
	const struct shell_command *cmd;
	struct stage *stages;
	struct pipe *pipes;
	int status = -ENOMEM;

	if (!all_found(cmds, count))
		return -ENOENT;
	if (count == 1) {
		find_command(&cmds[0], &cmd);
		return run_command(cmd, &cmds[0], NULL);
	}
	stages = kzalloc(count * sizeof(*stages));
	pipes = kmalloc((count - 1) * sizeof(*pipes));
	if (stages && pipes) {
		start_stages(stages, pipes, cmds, count);
		wait_stages(stages, count);
		status = stages[count - 1].status;
	} else {
		cmd_eprintf("shell: %s\n", strerror(-ENOMEM));
	}
	kfree(pipes);
	kfree(stages);
	return status;
}

/* Whether the pipeline after the separator sep runs, given the status
 * of the last one that ran. */
static bool runs_after(enum cmdline_next sep, int status)
{
	switch (sep) {
	case CMDLINE_AND:
		return status == 0;
	case CMDLINE_OR:
		return status != 0;
	default:
		return true;	/* the line's start, or after a ; */
	}
}

void pipeline_run_line(const struct cmdline *cmds, int count)
{
	enum cmdline_next sep = CMDLINE_END;
	int start = 0, status = 0;

	while (start < count && !console_interrupted()) {
		int end = start;

		while (cmds[end].next == CMDLINE_PIPE)
			end++;
		/* One skipped leaves the status as it was, as in sh: in
		 * `false && a || b`, b runs. */
		if (runs_after(sep, status))
			status = run_pipeline(cmds + start, end - start + 1);
		sep = cmds[end].next;
		start = end + 1;
	}
	/* Taken here, so that the line editor does not read it as a Ctrl-C
	 * typed at the prompt. */
	if (console_interrupt_take())
		cmd_eprintf("^C\n");
}
