/* What the shell's module commands share (module_cmds.c, modinfo_cmd.c,
 * modprobe_cmd.c). */
#ifndef KERNEL_MODULE_MODULE_CMDS_H
#define KERNEL_MODULE_MODULE_CMDS_H

#include "lib/types.h"

/* Where the build installs modules, and modules.dep (docs/modules.md). */
#define MODULE_DIR "/lib/modules"

/* The file a command's argument names: "kprobe_example" and
 * "kprobe_example.ko" mean /lib/modules/kprobe_example.ko; an argument
 * with a slash is a path, taken as it is. */
void module_path(const char *arg, char *path, size_t size);

#endif
