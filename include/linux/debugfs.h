/* debugfs for modules, with Linux's calls: debugfs_create_dir,
 * debugfs_create_file, debugfs_remove and debugfs_remove_recursive, the
 * kernel's own (kernel/fs/debugfs.h, docs/files.md). They return an
 * ERR_PTR on failure, which callers need not check. A module's files go
 * with the module if it leaves them. */
#ifndef _LINUX_DEBUGFS_H
#define _LINUX_DEBUGFS_H

#include <linux/err.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include "kernel/fs/debugfs.h"

#endif
