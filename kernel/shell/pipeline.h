/* Running a parsed line (cmdline.h): its pipelines one after another,
 * and in each pipeline its commands one after another, each command's
 * output kept in a pipe (pipe.h) and given to the next as its input
 * (input.h). docs/shell.md explains the design. */
#ifndef KERNEL_SHELL_PIPELINE_H
#define KERNEL_SHELL_PIPELINE_H

#include "kernel/shell/cmdline.h"

/* Run the count commands of a line, their output sent where the line
 * says. A Ctrl-C (kernel/console.h) stops the command running, at its
 * next check, and the rest of the line; "^C" is then printed. Only the
 * shell's thread calls this. */
void pipeline_run_line(const struct cmdline *cmds, int count);

#endif
