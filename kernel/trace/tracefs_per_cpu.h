/* /sys/kernel/tracing/per_cpu/cpuN: each CPU's own trace, trace_pipe
 * and stats, as Linux has them. The trace and trace_pipe files there
 * are the top-level files' operations, told apart by their inode's
 * data: the top-level file reads every CPU, a per_cpu one its CPU's. */
#ifndef KERNEL_TRACE_TRACEFS_PER_CPU_H
#define KERNEL_TRACE_TRACEFS_PER_CPU_H

#include "kernel/fs/vfs.h"

/* Make the file name, with fops, in per_cpu/cpuN for every CPU that is
 * up, the directories made by the first call; a file's inode data is
 * what tracefs_file_cpu reads. 0 or a negative errno. For the tracefs
 * files' initcalls. */
int tracefs_create_per_cpu_files(const char *name, umode_t mode,
				 const struct file_operations *fops);

/* The CPU of a file tracefs_create_per_cpu_files made, or -1 for the
 * top-level file of the same operations (its inode data NULL). */
int tracefs_file_cpu(const struct inode *inode);

#endif
