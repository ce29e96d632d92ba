/* /sys/kernel/debug/kprobes (kprobes_dir.h). */
#include "kernel/probes/files/kprobes_dir.h"

struct dentry *kprobes_debugfs_dir(void)
{
	static struct dentry *dir;

	if (!dir)
		dir = debugfs_create_dir("kprobes", NULL);
	return dir;
}
