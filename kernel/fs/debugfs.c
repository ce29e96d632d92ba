/* debugfs (debugfs.h): a pseudo filesystem (pseudofs.h) with Linux's
 * calls. Its directory "tracing" is where tracefs is mounted too, as
 * Linux has it (/sys/kernel/debug/tracing). */

#include "kernel/fs/debugfs.h"
#include "kernel/fs/pseudofs.h"
#include "kernel/initcall.h"
#include "lib/err.h"
#include "lib/export.h"

static struct pseudofs debugfs = PSEUDOFS_INIT(debugfs, "debugfs");

struct dentry *debugfs_create_dir(const char *name, struct dentry *parent)
{
	return pseudofs_create_dentry(&debugfs, parent, &(struct pseudo_spec){
		.name = name, .caller = PSEUDOFS_CALLER(),
	});
}
EXPORT_SYMBOL(debugfs_create_dir);

struct dentry *debugfs_create_file(const char *name, umode_t mode, struct dentry *parent,
				   void *data, const struct file_operations *fops)
{
	(void)mode;
	return pseudofs_create_dentry(&debugfs, parent, &(struct pseudo_spec){
		.name = name, .fops = fops, .data = data, .caller = PSEUDOFS_CALLER(),
	});
}
EXPORT_SYMBOL(debugfs_create_file);

void debugfs_remove(struct dentry *dentry)
{
	pseudofs_remove(to_pseudo_node(dentry));
}
EXPORT_SYMBOL(debugfs_remove);

static int debugfs_init(void)
{
	register_filesystem(&debugfs.type);
	return PTR_ERR_OR_ZERO(debugfs_create_dir("tracing", NULL));
}
late_initcall(debugfs_init);
