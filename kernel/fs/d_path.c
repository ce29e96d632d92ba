/* The name of a place: vfs_path_name (vfs.h), Linux's d_path.
 *
 * Nothing stores a path. A place's name is found by climbing from it to
 * "/", ".." by "..", as a walk would go (out of mount roots with
 * mount_climb, then iops->parent), putting the name of each directory
 * left in front of what is written so far: the buffer fills from its
 * end, and the result is moved to its start at the end.
 *
 * The climb also checks that the name still leads back: each directory
 * left must still be found under its name in its parent (a removed one
 * is not, though it still knows the parent it had), and each mount left
 * must still be mounted. */
#include "kernel/fs/mount.h"
#include "kernel/fs/vfs.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Put "/" and name in front of the text that starts at buf + *start:
 * false, and nothing changed, if there is no room. */
static bool prepend(char *buf, size_t *start, const char *name)
{
	size_t len = strlen(name);

	if (*start < len + 1)
		return false;
	*start -= len;
	memcpy(buf + *start, name, len);
	buf[--*start] = '/';
	return true;
}

/* Is dir still the entry called dir->name in parent? The same file,
 * not the same inode: a 9p lookup makes a new inode each time. */
static bool still_named(struct inode *parent, struct inode *dir)
{
	struct inode *found = parent->iops->lookup(parent, dir->name, strlen(dir->name));
	bool same = found && vfs_same_file(found, dir);

	if (found)
		inode_put(found);
	return same;
}

int vfs_path_name(const struct path *path, char *buf, size_t size)
{
	struct path pos = *path;
	struct inode *parent;
	bool reachable = true, fits = size > 1;
	size_t start = size;

	if (!fits)
		return -ENAMETOOLONG;
	buf[--start] = '\0';
	path_get(&pos);
	while (fits) {
		if (!mount_climb(&pos))
			reachable = false;
		parent = pos.inode->iops->parent(pos.inode);
		if (!parent)
			break;		/* "/" */
		if (!still_named(parent, pos.inode))
			reachable = false;
		fits = prepend(buf, &start, pos.inode->name);
		inode_put(pos.inode);
		pos.inode = parent;
	}
	path_put(&pos);
	if (!fits)
		return -ENAMETOOLONG;
	if (start == size - 1)
		buf[--start] = '/';	/* "/" itself: room was checked above */
	memmove(buf, buf + start, size - start);
	return reachable ? (int)(size - 1 - start) : -ENOENT;
}
