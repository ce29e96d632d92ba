/* The shell: finds and runs the commands that subsystems declare with
 * SHELL_COMMAND() (kernel/command.h). Only the shell's own files and
 * kernel/main.c, which starts it, include this header. */
#ifndef KERNEL_SHELL_H
#define KERNEL_SHELL_H

#include "kernel/command.h"
#include "lib/types.h"

/* The longest line the shell takes (Linux's PATH_MAX, so that a line
 * can name any path), and the most commands such a line can hold: one
 * character each, with a | or ; between. (Its words, as many, need no
 * bound of their own: cmdline.h.) */
#define SHELL_MAX_LINE 4096
#define SHELL_MAX_COMMANDS ((SHELL_MAX_LINE + 1) / 2)

/* Parse a line (kernel/shell/cmdline.h) and run the commands it names
 * (kernel/shell/pipeline.h), their output sent where the line says.
 * Only the shell's thread calls it (a pipeline's stages run on threads
 * of their own, but all have ended when it returns), so the parse is
 * kept in static buffers, off its stack. */
void shell_execute(const char *line);

/* The shell's thread body: read lines from the console forever. */
void shell_main(void *unused);

#endif
