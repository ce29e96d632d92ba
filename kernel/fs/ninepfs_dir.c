/* 9p: listing a host directory (ninepfs.h).
 *
 * The VFS lists a directory one entry at a time, by index, finding the
 * directory afresh for each (vfs_readdir). Asking the host for the whole
 * listing at every index would cost n^2 entries for n names, and a new
 * inode of the directory at each index could not keep it. So a listing
 * is read from the host (Treaddir, as many as it takes) when index 0 is
 * asked for, and kept, by the directory's qid path, for the indexes
 * after: one listing, as the host had it when it began, sorted by name
 * (the host's order is its own: a hash order on ext4) so that `ls`
 * lists /host as it lists ramfs. A few are kept
 * at once, the least recently used replaced, so that several threads
 * listing different directories do not undo each other's.
 *
 * The listings are guarded by p9fs_lock, with the client. */
#include "kernel/fs/ninepfs_internal.h"
#include "kernel/mm/heap.h"
#include "lib/errno.h"
#include "lib/sort.h"
#include "lib/string.h"

/* Listings kept at once. */
#define P9FS_LISTINGS 4

struct p9_listed {
	size_t name_off;		/* in the listing's names */
	const char *name;		/* there, once the listing is whole */
	uint16_t len;
	uint8_t qid_type;
};

struct p9_listing {
	bool valid;
	uint64_t dir;			/* the directory's qid path */
	unsigned long last_used;	/* a tick of p9fs_listing_clock */
	struct p9_listed *entries;
	size_t count, entries_cap;
	char *names;
	size_t names_len, names_cap;
};

static struct p9_listing listings[P9FS_LISTINGS];
static unsigned long listing_clock;

static void listing_clear(struct p9_listing *l)
{
	kfree(l->entries);
	kfree(l->names);
	memset(l, 0, sizeof(*l));
}

void p9fs_forget_listing(uint64_t dir)
{
	for (size_t i = 0; i < P9FS_LISTINGS; i++)
		if (listings[i].valid && listings[i].dir == dir)
			listing_clear(&listings[i]);
}

/* Make room for one more element of size bytes in *array, which holds
 * *cap; doubling, so a listing of n names copies O(n) bytes. */
static int grow(void **array, size_t *cap, size_t need, size_t size)
{
	size_t new_cap = *cap ? *cap : 64;
	void *bigger;

	if (need <= *cap)
		return 0;
	while (new_cap < need)
		new_cap *= 2;
	bigger = kmalloc(new_cap * size);
	if (!bigger)
		return -ENOMEM;
	if (*array)
		memcpy(bigger, *array, *cap * size);
	kfree(*array);
	*array = bigger;
	*cap = new_cap;
	return 0;
}

/* Add one entry from the host; "." and ".." are the VFS's own. */
static int listing_add(struct p9_listing *l, const struct p9_dirent *d)
{
	struct p9_listed *e;
	int err;

	if ((d->name_len == 1 && d->name[0] == '.') ||
	    (d->name_len == 2 && d->name[0] == '.' && d->name[1] == '.'))
		return 0;
	err = grow((void **)&l->entries, &l->entries_cap, l->count + 1, sizeof(*e));
	if (!err)
		err = grow((void **)&l->names, &l->names_cap, l->names_len + d->name_len, 1);
	if (err)
		return err;
	e = &l->entries[l->count++];
	e->name_off = l->names_len;
	e->len = d->name_len;
	e->qid_type = d->qid.type;
	memcpy(l->names + l->names_len, d->name, d->name_len);
	l->names_len += d->name_len;
	return 0;
}

/* Every entry of the directory open on fid, from the host, into l. */
static int read_entries(struct p9_listing *l, uint32_t fid, void *buf, uint32_t bufsize)
{
	uint64_t offset = 0;

	for (;;) {
		struct p9_dirent_iter it;
		struct p9_dirent d;
		int n = p9fs_check(p9_readdir(&p9fs_client, fid, offset, buf, bufsize), "readdir");
		int more;

		if (n <= 0)
			return n;
		p9_dirent_start(&it, buf, (size_t)n);
		while ((more = p9_dirent_next(&it, &d)) > 0) {
			int err = listing_add(l, &d);

			if (err)
				return err;
			offset = d.offset;
		}
		if (more < 0)
			return p9fs_check(more, "readdir");
	}
}

/* Byte order, as strcmp's: a name before the longer names it begins. */
static int compare_listed(const void *a, const void *b)
{
	const struct p9_listed *x = a, *y = b;
	int order = memcmp(x->name, y->name, MIN(x->len, y->len));

	return order ? order : (int)x->len - (int)y->len;
}

/* Point each entry at its name, now that the names no longer move, and
 * put the entries in name order. */
static void listing_sort(struct p9_listing *l)
{
	for (size_t i = 0; i < l->count; i++)
		l->entries[i].name = l->names + l->entries[i].name_off;
	sort(l->entries, l->count, sizeof(l->entries[0]), compare_listed, NULL);
}

/* Read dir's listing from the host into l. */
static int listing_fill(struct p9_listing *l, struct p9_node *dir)
{
	uint32_t bufsize = p9fs_client.msize, fid;
	void *buf = kmalloc(bufsize);
	int err;

	if (!buf)
		return -ENOMEM;
	err = p9fs_check(p9_walk(&p9fs_client, dir->fid, 0, NULL, &fid, NULL), "walk");
	if (!err) {
		err = p9fs_check(p9_lopen(&p9fs_client, fid, O_RDONLY, NULL, NULL), "lopen");
		if (!err)
			err = read_entries(l, fid, buf, bufsize);
		p9_clunk(&p9fs_client, fid);
	}
	kfree(buf);
	if (err) {
		listing_clear(l);
		return err;
	}
	listing_sort(l);
	l->valid = true;
	l->dir = dir->qid.path;
	return 0;
}

/* The listing of dir: the one kept, or, when a listing starts (fresh) or
 * none is kept, a new one from the host in the least recently used
 * place. NULL if it cannot be read. */
static struct p9_listing *listing_of(struct p9_node *dir, bool fresh)
{
	struct p9_listing *l = NULL;

	for (size_t i = 0; i < P9FS_LISTINGS; i++) {
		if (listings[i].valid && listings[i].dir == dir->qid.path) {
			l = &listings[i];
			break;
		}
		if (!l || listings[i].last_used < l->last_used)
			l = &listings[i];
	}
	if (fresh || !l->valid || l->dir != dir->qid.path) {
		listing_clear(l);
		if (listing_fill(l, dir))
			return NULL;
	}
	l->last_used = ++listing_clock;
	return l;
}

struct inode *p9fs_child(struct inode *dir_inode, size_t index)
{
	struct p9_node *dir = to_p9_node(dir_inode);
	char name[VFS_NAME_MAX + 1];
	struct p9_listing *l;
	struct inode *child;
	uint8_t qid_type = 0;
	size_t len = 0;

	if (dir->fid == P9_NOFID)
		return NULL;
	mutex_lock(&p9fs_lock);
	l = listing_of(dir, index == 0);
	if (l && index < l->count) {
		len = MIN((size_t)l->entries[index].len, (size_t)VFS_NAME_MAX);
		memcpy(name, l->entries[index].name, len);
		qid_type = l->entries[index].qid_type;
	}
	mutex_unlock(&p9fs_lock);
	if (!len)
		return NULL;
	/* Gone from the host since the listing began: listed all the same,
	 * so that the indexes after it still name the entries they did. */
	child = p9fs_walk_name(dir_inode, name, len);
	return child ? child : p9fs_gone_node(dir_inode, name, len, qid_type);
}
