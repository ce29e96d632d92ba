/* A command's output: its standard output and standard error.
 *
 * A kernel message (kprintf, printk: kernel/printk.h) goes to the
 * console and the kernel log, whoever prints it. A command's output is
 * something else: what `ls` lists belongs on the terminal, in a file
 * (`ls > FILE`) or in the next command's input (`ls | wc -l`), and never
 * in `dmesg`. So a command prints with cmd_printf, to its standard
 * output, and says what went wrong with cmd_eprintf, to its standard
 * error, as a Linux program writes to its file descriptors 1 and 2 and
 * not with printk.
 *
 * Each thread has the two streams in its struct thread (kernel/sched.h).
 * The shell connects them before it runs a command: standard output to
 * the console, a redirection's file or a pipe; standard error to the
 * console; standard input to nothing, or to the pipe before it. A thread
 * whose streams were never set writes both to the console and reads
 * nothing. Only the thread itself reads or
 * sets its streams, and only from its own code: an interrupt or probe
 * handler prints kernel messages. */
#ifndef KERNEL_CMD_OUTPUT_H
#define KERNEL_CMD_OUTPUT_H

#include "lib/types.h"
#include <stdarg.h>

struct file;

/* Where one of a command's streams goes. write takes len bytes and
 * returns len, or a negative errno if it could not take them all: the
 * print that called it then sends nothing more and returns the error. A
 * stream that must report an error later (a file closed after the
 * command) keeps it itself. */
struct cmd_stream {
	ssize_t (*write)(struct cmd_stream *s, const char *buf, size_t len);
	/* The file written into (a redirection's), NULL for the console or
	 * a pipe: what a command compares the files it reads with, as GNU
	 * cat refuses to append a file to itself. */
	struct file *file;
};

/* The console, unlogged. A print to it is formatted straight onto the
 * console under the console's lock, as a kernel message is, so that
 * another CPU's message never splits its lines. */
extern struct cmd_stream console_stream;

/* Where a command's standard input comes from: the read end of a pipe
 * (kernel/shell/pipe.h). read copies at most len bytes into buf, waiting
 * for them if none has come yet, and returns how many, 0 at the end of
 * the input (every writer gone), or a negative errno: -EINTR once the
 * command should stop (cmd_should_stop). */
struct cmd_source {
	ssize_t (*read)(struct cmd_source *s, char *buf, size_t len);
};

/* A thread's streams; NULL stands for console_stream, and for in, an
 * empty standard input (ProbeOS gives commands no terminal input).
 * hung_up, if not NULL, is the flag the shell sets when the thread's
 * command is to stop although no Ctrl-C came: the stage of a pipeline
 * whose last stage has ended (kernel/shell/pipeline.c). */
struct cmd_streams {
	struct cmd_stream *out, *err;
	struct cmd_source *in;
	const bool *hung_up;
};

/* Connect the calling thread's standard output, or its standard error,
 * to s (NULL: the console). Returns the stream it had, for the caller
 * to put back. */
struct cmd_stream *cmd_output_set(struct cmd_stream *s);
struct cmd_stream *cmd_error_set(struct cmd_stream *s);

/* Connect the calling thread's standard input to s (NULL: empty), and
 * return the source it had. */
struct cmd_source *cmd_input_set(struct cmd_source *s);

/* The calling thread's standard input, or NULL if it has none. */
struct cmd_source *cmd_input(void);

/* Make *flag the calling thread's hang-up flag (NULL: none): once it is
 * true, cmd_should_stop says so on this thread. */
void cmd_hangup_set(const bool *flag);

/* Whether the running command should stop now: a Ctrl-C came
 * (console_interrupted, kernel/console.h), or the shell hung up the
 * calling thread's pipeline stage. Every loop of a command and every
 * wait a command may block in (a pipe, trace_pipe's read, a sleep)
 * asks this, and ends with -EINTR or its own quiet stop. */
bool cmd_should_stop(void);

/* Print formatted text (lib/format.h) to standard output, or to
 * standard error. Returns the characters formatted, or the stream's
 * first error (a negative errno: a full pipe, a file that refused a
 * write), after which the rest of the text is not sent. */
int cmd_printf(const char *fmt, ...) __printf(1, 2);
int cmd_eprintf(const char *fmt, ...) __printf(1, 2);
/* The same with the arguments in ap: to standard error if err, else to
 * standard output. (cmd_printf and cmd_eprintf, kernel/cmd_printf.c,
 * are its variadic faces; the host programs have their own
 * cmd_vprintf, tests/host/cmd_output_host.c.) */
int cmd_vprintf(bool err, const char *fmt, va_list ap);

/* Write raw bytes (data, not a format: they may hold a NUL or a '%') to
 * standard output. Returns len, or the stream's negative errno. */
ssize_t cmd_write(const void *buf, size_t len);

/* Whether standard output is the console: a command that ends a partial
 * line for the prompt's sake does it only there, so that a file it
 * copies arrives byte for byte. */
bool cmd_output_is_console(void);

/* The file standard output writes into, or NULL (the console, a pipe). */
struct file *cmd_output_file(void);

#endif
