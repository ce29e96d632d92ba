/* Working directories (cwd.h). */
#include "kernel/fs/cwd.h"
#include "kernel/fs/mount.h"
#include "kernel/fs/vfs.h"
#include "kernel/sched.h"
#include "lib/errno.h"

void cwd_get(struct path *out)
{
	const struct path *mine = &current_thread()->cwd;

	if (mine->inode) {
		*out = *mine;
		path_get(out);
	} else if (!mount_get_root(out)) {
		*out = (struct path){ NULL, NULL };
	}
}

/* The new references are taken before the old are given back: path
 * may be the working directory itself. */
void cwd_set(const struct path *path)
{
	struct thread *me = current_thread();
	struct path old = me->cwd;

	path_get(path);
	me->cwd = *path;
	path_put(&old);
}

int vfs_chdir(const char *path)
{
	struct path where;
	int err = kern_path(path, &where);

	if (err)
		return err;
	if (where.inode->type == INODE_DIR)
		cwd_set(&where);
	else
		err = -ENOTDIR;
	path_put(&where);
	return err;
}

int vfs_getcwd(char *buf, size_t size)
{
	struct path cwd;
	int ret;

	cwd_get(&cwd);
	if (!cwd.inode)
		return -ENOENT;		/* nothing mounted yet */
	ret = vfs_path_name(&cwd, buf, size);
	path_put(&cwd);
	return ret;
}

/* A thread that ends gives its working directory back. */
static void cwd_exit(struct thread *t)
{
	path_put(&t->cwd);
	t->cwd = (struct path){ NULL, NULL };
}
THREAD_EXIT_HOOK(cwd_exit);
