/* tracefs (tracefs.h): a pseudo filesystem (pseudofs.h) with Linux's
 * calls. kernel/trace/ makes its files: the ring buffer's and the
 * tracers'. */

#include "kernel/fs/tracefs.h"
#include "kernel/fs/pseudofs.h"
#include "kernel/initcall.h"
#include "lib/export.h"

static struct pseudofs tracefs = PSEUDOFS_INIT(tracefs, "tracefs");

struct dentry *tracefs_create_dir(const char *name, struct dentry *parent)
{
	return pseudofs_create_dentry(&tracefs, parent, &(struct pseudo_spec){
		.name = name, .caller = PSEUDOFS_CALLER(),
	});
}
EXPORT_SYMBOL(tracefs_create_dir);

struct dentry *tracefs_create_file(const char *name, umode_t mode, struct dentry *parent,
				   void *data, const struct file_operations *fops)
{
	(void)mode;
	return pseudofs_create_dentry(&tracefs, parent, &(struct pseudo_spec){
		.name = name, .fops = fops, .data = data, .caller = PSEUDOFS_CALLER(),
	});
}
EXPORT_SYMBOL(tracefs_create_file);

void tracefs_remove(struct dentry *dentry)
{
	pseudofs_remove(to_pseudo_node(dentry));
}
EXPORT_SYMBOL(tracefs_remove);

static int tracefs_init(void)
{
	register_filesystem(&tracefs.type);
	return 0;
}
late_initcall(tracefs_init);
