/* The shell: finds and runs the commands that subsystems declare with
 * SHELL_COMMAND() (kernel/command.h). Only the shell's own files and
 * kernel/main.c, which starts it, include this header. */
#ifndef KERNEL_SHELL_H
#define KERNEL_SHELL_H

#include "kernel/command.h"
#include "lib/types.h"

#define SHELL_MAX_LINE 255
#define SHELL_MAX_ARGS 16

/* Look up a command by name; NULL if there is none. */
const struct shell_command *shell_find_command(const char *name);

/* Split a line into words and run the command it names. */
void shell_execute(char *line);

/* The shell's thread body: read lines from the console forever. */
void shell_main(void *unused);

#endif
