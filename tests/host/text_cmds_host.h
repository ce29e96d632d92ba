/* The shell's text tools on the host (text_cmds_host.c): what the host
 * test test_text_cmds and the fuzzer's text_cmds target run.
 *
 * grep, head, tail, wc, sort, uniq and seq (kernel/shell/grep_cmd.c and
 * its siblings) run unchanged, with their option reader (kernel/shell/getopt.c) and input
 * (kernel/shell/input.c), over host stand-ins for what they call of the
 * kernel: cmd_printf, cmd_eprintf and cmd_write record the output, the
 * usage lines come from the tools' own SHELL_COMMAND() records, the heap
 * is malloc, the VFS is a small table of files, read at most
 * TEXT_CMDS_READ_MAX bytes a call (so that lines cross reads), and
 * cmd_should_stop says what text_cmds_interrupted says. */
#ifndef TESTS_HOST_TEXT_CMDS_HOST_H
#define TESTS_HOST_TEXT_CMDS_HOST_H

#include <stdbool.h>
#include <stddef.h>

/* The most output recorded. Past it, the tools' writes are refused, as a
 * full pipe does (-EFBIG): `seq 1 99999999999` stops there. */
#define TEXT_CMDS_OUTPUT_MAX (1 << 18)

/* The files the tools can read: their paths and their text. /etc is a
 * directory (reading it gives -EISDIR); any other path is missing. */
struct text_cmds_file {
	const char *path, *text;
};
extern const struct text_cmds_file text_cmds_files[];
extern const size_t text_cmds_nfiles;

/* The most one vfs_read call gives. */
#define TEXT_CMDS_READ_MAX 7

/* The bytes the tools have read from the files, all runs together. */
extern size_t text_cmds_bytes_read;

/* What the last run printed on standard error alone (its *output holds
 * these lines too, where they came, as a console shows both). */
const char *text_cmds_errors(void);

/* What cmd_should_stop answers: a Ctrl-C came. */
extern bool text_cmds_interrupted;

/* The status the last run's tool returned (kernel/command.h). */
extern int text_cmds_status;

/* Run the tool named argv[0] (false if there is none) with the input
 * piped into it (NULL: no pipe); *output is then all it printed, a C
 * string, until the next run, and text_cmds_status its status. */
bool text_cmds_run(const char *input, size_t len, int argc, char **argv,
		   const char **output);

#endif
