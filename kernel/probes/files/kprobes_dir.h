/* The debugfs directory of the probes layer's files,
 * /sys/kernel/debug/kprobes, as Linux has it. */
#ifndef KERNEL_PROBES_FILES_KPROBES_DIR_H
#define KERNEL_PROBES_FILES_KPROBES_DIR_H

#include "kernel/fs/debugfs.h"

/* The directory, made by the first of its files' initcalls to ask (they
 * run one after another, in one thread), so that no one of them has to
 * come first. An ERR_PTR if it could not be made, which
 * debugfs_create_file passes on. */
struct dentry *kprobes_debugfs_dir(void);

#endif
