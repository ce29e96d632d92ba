/* sysfs: the pseudo filesystem mounted at /sys. Its directories
 * kernel/debug and kernel/tracing are where debugfs and tracefs are
 * mounted, and module/ holds a directory for each loaded module
 * (kernel/module/sysfs.c). Its files are made with pseudofs's calls
 * (pseudofs.h); Linux's kobjects, which make them there, are not here. */
#ifndef KERNEL_FS_SYSFS_H
#define KERNEL_FS_SYSFS_H

#include "kernel/fs/pseudofs.h"

extern struct pseudofs sysfs;

#endif
