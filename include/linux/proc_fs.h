/* /proc for modules, with Linux 6's calls: struct proc_ops,
 * proc_create, proc_create_data, proc_create_single, proc_create_seq,
 * proc_mkdir, proc_remove, remove_proc_entry and pde_data, the kernel's
 * own (kernel/fs/procfs.h, docs/files.md). A module's files go with the
 * module if it leaves them. */
#ifndef _LINUX_PROC_FS_H
#define _LINUX_PROC_FS_H

#include <linux/fs.h>
#include <linux/seq_file.h>
#include "kernel/fs/procfs.h"

#endif
