/* Working directories (cwd.h). */
#include "kernel/fs/cwd.h"
#include "kernel/fs/mount.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/heap.h"
#include "kernel/sched.h"
#include "lib/errno.h"

void cwd_get(struct path *out)
{
	const struct fs_struct *fs = current_thread()->fs;

	if (fs && fs->pwd.inode) {
		*out = fs->pwd;
		path_get(out);
	} else if (!mount_get_root(out)) {
		*out = (struct path){ NULL, NULL };
	}
}

/* The new references are taken before the old are given back: path
 * may be the working directory itself. */
int cwd_set(const struct path *path)
{
	struct thread *me = current_thread();
	struct path old;

	if (!me->fs && !(me->fs = kzalloc(sizeof(*me->fs))))
		return -ENOMEM;
	old = me->fs->pwd;
	path_get(path);
	me->fs->pwd = *path;
	path_put(&old);
	return 0;
}

int vfs_chdir(const char *path)
{
	struct path where;
	int err = kern_path(path, &where);

	if (err)
		return err;
	if (where.inode->type == INODE_DIR)
		err = cwd_set(&where);
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

/* A new thread starts in its maker's working directory, as after
 * Linux's fork. */
static int cwd_clone(struct thread *t)
{
	const struct fs_struct *maker = current_thread()->fs;
	struct fs_struct *fs = kzalloc(sizeof(*fs));

	if (!fs)
		return -ENOMEM;
	if (maker) {
		fs->pwd = maker->pwd;
		path_get(&fs->pwd);
	}
	t->fs = fs;
	return 0;
}
THREAD_CLONE_HOOK(cwd_clone);

/* A thread that ends, or whose clone failed, gives its working
 * directory back. */
static void cwd_exit(struct thread *t)
{
	if (!t->fs)
		return;
	path_put(&t->fs->pwd);
	kfree(t->fs);
	t->fs = NULL;
}
THREAD_EXIT_HOOK(cwd_exit);
