/* ls [-l] [PATH...]: Linux's ls, for what the VFS knows of a file: its
 * type and its size. Written against the VFS calls only (vfs_stat,
 * vfs_readdir), as a user program is against stat(2) and getdents(2).
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
 * with only the columns the VFS can fill: the type ('d' or '-'; there
 * are no links, devices or sockets here) and the size, then the name.
 * There are no mode bits, link counts, owners or times to show, since
 * no inode has them, and no "total" line of disk blocks. */
#include "kernel/printk.h"
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

/* The entries of a directory. */
struct dir_source {
	const char *path;
	struct dirent ent;	/* the entry out->name points into */
};

static int dir_entry(void *ctx, size_t index, struct ls_entry *out)
{
	struct dir_source *dir = ctx;
	int ret = vfs_readdir(dir->path, index, &dir->ent);

	if (ret > 0)
		*out = (struct ls_entry){ dir->ent.name, dir->ent.type, dir->ent.size };
	return ret;
}

/* The paths named on the command line that are files, in their order. */
struct file_args {
	char **paths;
	int count;
};

static int file_entry(void *ctx, size_t index, struct ls_entry *out)
{
	struct file_args *args = ctx;
	struct kstat st;

	for (int i = 0; i < args->count; i++) {
		if (vfs_stat(args->paths[i], &st) != 0 || st.type == INODE_DIR)
			continue;
		if (index-- == 0) {
			*out = (struct ls_entry){ args->paths[i], st.type, st.size };
			return 1;
		}
	}
	return 0;
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

static void print_entry(const struct ls_entry *e, bool long_format, int name_width,
			int size_width)
{
	if (long_format)
		kprintf("%c %*zu %s\n", e->type == INODE_DIR ? 'd' : '-', size_width, e->size,
			e->name);
	else if (e->type == INODE_DIR)
		kprintf("%s/\n", e->name);
	else
		kprintf("%-*s  %*zu\n", name_width, e->name, size_width, e->size);
}

/* Print the listing source gives: first measure its columns, then print
 * them. Returns how many entries it printed, or the source's error. */
static int print_listing(ls_source source, void *ctx, bool long_format)
{
	int name_width = 0, size_width = 1, ret;
	struct ls_entry e;
	size_t i;

	for (i = 0; (ret = source(ctx, i, &e)) > 0; i++) {
		name_width = MAX(name_width, (int)strlen(e.name) + (e.type == INODE_DIR));
		if (long_format || e.type == INODE_FILE)
			size_width = MAX(size_width, decimal_digits(e.size));
	}
	if (ret < 0)
		return ret;
	for (i = 0; source(ctx, i, &e) > 0; i++)
		print_entry(&e, long_format, name_width, size_width);
	return (int)i;
}

/* Parse the options in front of the paths: only -l. Returns the index
 * of the first path, or -1 after saying which option is unknown. */
static int parse_options(int argc, char **argv, bool *long_format)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++) {
		for (const char *c = argv[i] + 1; *c; c++) {
			if (*c != 'l') {
				kprintf("ls: invalid option -- '%c'\n", *c);
				return -1;
			}
			*long_format = true;
		}
	}
	return i;
}

/* Say which paths cannot be found. */
static void check_paths(char **paths, int count)
{
	struct kstat st;

	for (int i = 0; i < count; i++) {
		int err = vfs_stat(paths[i], &st);

		if (err)
			kprintf("ls: cannot access '%s': %s\n", paths[i], strerror(err));
	}
}

static void cmd_ls(int argc, char **argv)
{
	static char *dot[] = { "." };
	bool long_format = false, printed;
	struct file_args files;
	struct kstat st;
	int first = parse_options(argc, argv, &long_format);

	if (first < 0)
		return;
	files.paths = first < argc ? argv + first : dot;
	files.count = first < argc ? argc - first : 1;
	check_paths(files.paths, files.count);
	printed = print_listing(file_entry, &files, long_format) > 0;
	for (int i = 0; i < files.count; i++) {
		struct dir_source dir = { .path = files.paths[i] };
		int ret;

		if (vfs_stat(dir.path, &st) != 0 || st.type != INODE_DIR)
			continue;
		if (files.count > 1)
			kprintf("%s%s:\n", printed ? "\n" : "", dir.path);
		ret = print_listing(dir_entry, &dir, long_format);
		if (ret < 0)
			kprintf("ls: cannot open directory '%s': %s\n", dir.path, strerror(ret));
		printed = true;
	}
}
SHELL_COMMAND("ls", "[-l] [PATH...]",
	      "list directories (default: the working directory); -l: type and size", cmd_ls);
