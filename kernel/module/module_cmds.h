/* What the shell's module commands share (module_cmds.c, modinfo_cmd.c,
 * modprobe_cmd.c). */
#ifndef KERNEL_MODULE_MODULE_CMDS_H
#define KERNEL_MODULE_MODULE_CMDS_H

#include "lib/types.h"
#include <asm/boot.h>

/* Where the build installs modules, and modules.dep (docs/modules.md):
 * in the boot archive, and in the host's project folder when QEMU shares
 * it (kernel/fs/ninepfs.h), where `make M=DIR` on the host installs them
 * while the kernel runs. */
#define MODULE_DIR "/lib/modules"
#define HOST_MODULE_DIR "/host/build/" ARCH_NAME "/modules/lib/modules"

/* The directory to look for file (a name in it, such as
 * "kprobe_example.ko" or "modules.dep") in: HOST_MODULE_DIR if it is
 * there, else MODULE_DIR. So a module just built on the host is found
 * before the copy the kernel booted with. */
const char *module_dir_for(const char *file);

/* The file a command's argument names: "kprobe_example" and
 * "kprobe_example.ko" mean kprobe_example.ko in module_dir_for's
 * directory; an argument with a slash is a path, taken as it is. */
void module_path(const char *arg, char *path, size_t size);

#endif
