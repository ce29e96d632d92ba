/* Running a parsed line (cmdline.h): its pipelines one after another,
 * each after a && or || only if the status before it says so, and in
 * each pipeline its commands all at once, a kernel thread each, each
 * command's output going through a bounded pipe (pipe.h) into the next
 * one's input (input.h). docs/shell.md explains the design. */
#ifndef KERNEL_SHELL_PIPELINE_H
#define KERNEL_SHELL_PIPELINE_H

#include "kernel/shell/cmdline.h"

/* Run the count commands of a line, their output sent where the line
 * says, and return once every command of it has ended. A pipeline's
 * status is its last command's (command.h), as in sh; the pipeline
 * after a && runs only if the status of the last one that ran is 0,
 * after a || only if it is not. A Ctrl-C (kernel/console.h) stops every
 * stage of the running pipeline at its next check (cmd_should_stop),
 * and the rest of the line; "^C" is then printed once. Only the shell's
 * thread calls this. */
void pipeline_run_line(const struct cmdline *cmds, int count);

#endif
