/* ls [-l] [PATH...]: Linux's ls, for what the VFS knows of a file: its
 * type and its size. Written against the VFS calls only (kern_path,
 * vfs_getattr, vfs_readdir_at), as a user program is against open(2),
 * fstat(2) and getdents(2): each PATH is looked up once, however many
 * there are and however long their listings, and a Ctrl-C stops a
 * listing at its next entry.
 *
 * As Linux's ls: no PATH lists the working directory; the files named
 * are listed first, as one listing, then each directory named, under a
 * "PATH:" line when there are several, a blank line between listings;
 * a path that cannot be found is one line, "ls: cannot access 'PATH':
 * No such file or directory", before any listing. Unlike Linux's, the
 * names stay in the order they were given (entries of a directory come
 * in name order, as the directory keeps them).
 *
 * The two formats, each with its columns measured first and printed
 * in a second pass:
 *
 *   ls /home/student          ls -l /home/student
 *   notes.txt  985            - 985 notes.txt
 *   projects/                 d   0 projects
 *   todo.txt   151            - 151 todo.txt
 *
 * The plain one is ProbeOS's own: a directory is its name and a '/'
 * (as Linux's `ls -p`), a file its name padded to the longest, two
 * spaces and its size right-aligned. The long one is Linux's `ls -l`
 * with only the columns the VFS can fill: the type (Linux's letter: 'd',
 * '-', and 'p', 's', 'c' or 'b' for a FIFO, a socket or a device that a
 * host's shared folder holds) and the size, then the name.
 * There are no mode bits, link counts, owners or times to show, since
 * no inode has them, and no "total" line of disk blocks. */
#include "kernel/mm/heap.h"
#include "kernel/cmd_output.h"
#include "kernel/shell/shell.h"
#include "kernel/fs/vfs.h"
#include "lib/errno.h"
#include "lib/string.h"

/* One line of a listing. */
struct ls_entry {
	const char *name;
	enum inode_type type;
	size_t size;
};

/* Where a listing's entries come from: the index-th one into *out, and
 * 1; 0 past the last; or a negative errno. */
typedef int (*ls_source)(void *ctx, size_t index, struct ls_entry *out);

/* The entries of a directory, found once. */
struct dir_source {
	const struct path *dir;
	struct dirent ent;	/* the entry out->name points into */
};

static int dir_entry(void *ctx, size_t index, struct ls_entry *out)
{
	struct dir_source *dir = ctx;
	int ret = vfs_readdir_at(dir->dir, index, &dir->ent);

	if (ret > 0)
		*out = (struct ls_entry){ dir->ent.name, dir->ent.type, dir->ent.size };
	return ret;
}

/* One PATH of the command line, looked up once: err, or where it leads
 * (held until the command ends) and what it is. */
struct ls_arg {
	const char *path;
	int err;
	struct path where;
	struct kstat st;
};

/* The PATHs that are not directories, in their order: the first
 * listing. */
struct file_list {
	struct ls_entry *entries;
	size_t count;
};

static int file_entry(void *ctx, size_t index, struct ls_entry *out)
{
	struct file_list *files = ctx;

	if (index >= files->count)
		return 0;
	*out = files->entries[index];
	return 1;
}

static int decimal_digits(size_t n)
{
	int digits = 1;

	while (n >= 10) {
		n /= 10;
		digits++;
	}
	return digits;
}

/* The first character of a line of `ls -l`: Linux's letter for the type. */
static char type_letter(enum inode_type type)
{
	switch (type) {
	case INODE_DIR:
		return 'd';
	case INODE_FIFO:
		return 'p';
	case INODE_SOCK:
		return 's';
	case INODE_CHR:
		return 'c';
	case INODE_BLK:
		return 'b';
	default:
		return '-';
	}
}

static void print_entry(const struct ls_entry *e, bool long_format, int name_width,
			int size_width)
{
	if (long_format)
		cmd_printf("%c %*zu %s\n", type_letter(e->type), size_width, e->size, e->name);
	else if (e->type == INODE_DIR)
		cmd_printf("%s/\n", e->name);
	else
		cmd_printf("%-*s  %*zu\n", name_width, e->name, size_width, e->size);
}

/* Print the listing source gives: first measure its columns, then print
 * them; a Ctrl-C ends either pass. Returns how many entries it printed,
 * or the source's error. */
static int print_listing(ls_source source, void *ctx, bool long_format)
{
	int name_width = 0, size_width = 1, ret = 0;
	struct ls_entry e;
	size_t i;

	for (i = 0; !cmd_should_stop() && (ret = source(ctx, i, &e)) > 0; i++) {
		name_width = MAX(name_width, (int)strlen(e.name) + (e.type == INODE_DIR));
		if (long_format || e.type != INODE_DIR)
			size_width = MAX(size_width, decimal_digits(e.size));
	}
	if (ret < 0)
		return ret;
	for (i = 0; !cmd_should_stop() && source(ctx, i, &e) > 0; i++)
		print_entry(&e, long_format, name_width, size_width);
	return (int)i;
}

/* Parse the options in front of the paths: only -l. Returns the index
 * of the first path, or -EINVAL after saying which option is unknown. */
static int parse_options(int argc, char **argv, bool *long_format)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++) {
		for (const char *c = argv[i] + 1; *c; c++) {
			if (*c != 'l') {
				cmd_eprintf("ls: invalid option -- '%c'\n", *c);
				return -EINVAL;
			}
			*long_format = true;
		}
	}
	return i;
}

/* Look each path up, once; say which cannot be found, and gather those
 * that are not directories into files (which has room for all). Returns
 * 0, or the error of the last path not found. */
static int look_up(struct ls_arg *args, char **paths, int count, struct file_list *files)
{
	int status = 0;

	for (int i = 0; i < count; i++) {
		struct ls_arg *a = &args[i];

		a->path = paths[i];
		a->err = kern_path(a->path, &a->where);
		if (a->err) {
			cmd_eprintf("ls: cannot access '%s': %s\n", a->path, strerror(a->err));
			status = a->err;
			continue;
		}
		vfs_getattr(&a->where, &a->st);
		if (a->st.type != INODE_DIR)
			files->entries[files->count++] =
				(struct ls_entry){ a->path, a->st.type, a->st.size };
	}
	return status;
}

/* The files first, as one listing, then each directory. Returns 0, the
 * error of the last directory that could not be read, or -EINTR after a
 * Ctrl-C. */
static int list_all(const struct ls_arg *args, int count, struct file_list *files,
		    bool long_format)
{
	bool printed = print_listing(file_entry, files, long_format) > 0;
	int status = 0;

	for (int i = 0; i < count && !cmd_should_stop(); i++) {
		struct dir_source dir = { .dir = &args[i].where };
		int ret;

		if (args[i].err || args[i].st.type != INODE_DIR)
			continue;
		if (count > 1)
			cmd_printf("%s%s:\n", printed ? "\n" : "", args[i].path);
		ret = print_listing(dir_entry, &dir, long_format);
		if (ret < 0) {
			cmd_eprintf("ls: cannot open directory '%s': %s\n", args[i].path, strerror(ret));
			status = ret;
		}
		printed = true;
	}
	return cmd_should_stop() ? -EINTR : status;
}

static int cmd_ls(int argc, char **argv)
{
	static char *dot[] = { "." };
	bool long_format = false;
	struct file_list files = { 0 };
	struct ls_arg *args;
	char **paths;
	int count, status, first = parse_options(argc, argv, &long_format);

	if (first < 0)
		return first;
	paths = first < argc ? argv + first : dot;
	count = first < argc ? argc - first : 1;
	args = kmalloc((size_t)count * sizeof(*args));
	files.entries = kmalloc((size_t)count * sizeof(*files.entries));
	if (args && files.entries) {
		int listed;

		status = look_up(args, paths, count, &files);
		listed = list_all(args, count, &files, long_format);
		if (listed)
			status = listed;
		for (int i = 0; i < count; i++)
			if (!args[i].err)
				path_put(&args[i].where);
	} else {
		cmd_eprintf("ls: %s\n", strerror(-ENOMEM));
		status = -ENOMEM;
	}
	kfree(files.entries);
	kfree(args);
	return status;
}
SHELL_COMMAND("ls", "[-l] [PATH...]",
	      "list directories (default: the working directory); -l: type and size", cmd_ls);
