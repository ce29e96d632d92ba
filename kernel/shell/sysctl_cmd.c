/*
 * `sysctl`: read and set the kernel's settings, the files under
 * /proc/sys, as Linux's sysctl(8) does and with its messages:
 *
 *   sysctl NAME...            print "NAME = VALUE" for each
 *   sysctl -w NAME=VALUE...   write VALUE to each, and print "NAME = VALUE"
 *   sysctl -a                 print every setting
 *
 * A NAME is the file's path below /proc/sys with dots for slashes
 * (debug.kprobes-optimization is /proc/sys/debug/kprobes-optimization,
 * and so is debug/kprobes-optimization): dots and slashes both separate
 * its parts. A part cannot be empty, so none is "." or "..", and no
 * name leads out of /proc/sys (procps' sysctl maps a slash to a dot, so
 * that "//" would be ".."). NAME=VALUE sets, with
 * or without -w. A NAME that is a directory prints every setting under
 * it. The command knows no setting by name: it reads and writes the
 * files, so every file a subsystem puts in /proc/sys works with it.
 *
 * One spelling Linux's sysctl does not take: a name that is not found
 * is looked for again with '-' for each '_', because guides write
 * debug.kprobes_optimization for the file called kprobes-optimization.
 */
#include "kernel/command.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/heap.h"
#include "kernel/cmd_output.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

#define PROC_SYS "/proc/sys/"

/* A setting's file path and its name, with room for a long one. */
struct setting {
	char path[256];
	char name[256];		/* as the user wrote it, or dotted (for -a) */
};

static bool is_separator(char c)
{
	return c == '.' || c == '/';
}

/* Why the len bytes at name are no setting's name, or NULL: they must
 * be parts separated by one dot or slash each, with no empty part, so
 * that no part is "." or ".." once the dots are slashes. */
static const char *bad_name(const char *name, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (!is_separator(name[i]))
			continue;
		if (i == 0 || i == len - 1)
			return "a name may not start or end with a separator";
		if (is_separator(name[i + 1]))
			return "separators should not be repeated";	/* procps' words */
	}
	return NULL;
}

/* The file of the setting name, into s->path: separators become
 * slashes. -ENAMETOOLONG if it does not fit. */
static int setting_path(struct setting *s, const char *name, size_t len)
{
	size_t prefix = strlen(PROC_SYS);

	if (prefix + len >= sizeof(s->path) || len >= sizeof(s->name))
		return -ENAMETOOLONG;
	memcpy(s->path, PROC_SYS, prefix);
	for (size_t i = 0; i < len; i++)
		s->path[prefix + i] = is_separator(name[i]) ? '/' : name[i];
	s->path[prefix + len] = '\0';
	memcpy(s->name, name, len);
	s->name[len] = '\0';
	return 0;
}

/* Find the setting called name (its first len bytes): fill *s and *st,
 * trying the dashed spelling too (see above). 0, or after printing
 * Linux's line about it (or procps' about a bad name), a negative errno. */
static int find_setting(struct setting *s, const char *name, size_t len, struct kstat *st)
{
	const char *why = bad_name(name, len);
	int err;
	char *c;

	if (why) {
		cmd_eprintf("sysctl: %s: %.*s\n", why, (int)len, name);
		return -EINVAL;
	}
	err = setting_path(s, name, len);
	if (!err)
		err = vfs_stat(s->path, st);
	if (err == -ENOENT && strchr(s->path, '_')) {
		char path[sizeof(s->path)];

		strlcpy(path, s->path, sizeof(path));
		while ((c = strchr(path, '_')))
			*c = '-';
		if (vfs_stat(path, st) == 0) {
			strlcpy(s->path, path, sizeof(s->path));
			return 0;
		}
	}
	if (err)
		cmd_eprintf("sysctl: cannot stat %s: %s\n", s->path, strerror(err));
	return err;
}

/* Print the file's text as "NAME = VALUE", a line for each of its lines. */
static void print_value(const struct setting *s, const char *text, size_t size)
{
	while (size) {
		size_t len = 0;

		while (len < size && text[len] != '\n')
			len++;
		cmd_printf("%s = %.*s\n", s->name, (int)len, text);
		len += len < size;	/* and its newline */
		text += len;
		size -= len;
	}
}

/* Print the setting s; 0, or the negative errno after saying why not. */
static int print_setting(const struct setting *s)
{
	void *text;
	size_t size;
	int err = vfs_read_all(s->path, &text, &size);

	if (err) {
		cmd_eprintf("sysctl: reading key \"%s\": %s\n", s->name, strerror(err));
		return err;
	}
	print_value(s, text, size);
	kfree(text);
	return 0;
}

/* A directory print_tree is in: the next entry to read, and the lengths
 * of its path and name, to cut s back to when coming up to it. */
struct tree_level {
	size_t next;
	size_t path_len, name_len;
};

/* Each level down adds at least two bytes ("/x") to the path, so it
 * fits no deeper than this. */
#define TREE_DEPTH_MAX (sizeof(((struct setting *)0)->path) / 2)

/* Add the entry called entry to s's path and dotted name: false if
 * either would not fit (the entry is then left out). */
static bool setting_append(struct setting *s, const struct tree_level *at, const char *entry)
{
	size_t len = strlen(entry);

	if (at->path_len + len + 2 > sizeof(s->path) || at->name_len + len + 2 > sizeof(s->name))
		return false;
	s->path[at->path_len] = '/';
	strlcpy(s->path + at->path_len + 1, entry, sizeof(s->path) - at->path_len - 1);
	if (at->name_len)
		s->name[at->name_len] = '.';
	strlcpy(s->name + at->name_len + !!at->name_len, entry, sizeof(s->name) - at->name_len - 1);
	return true;
}

/* Print every setting under the directory s names (s->path without the
 * slash at the end), dotted, depth first. A loop over a stack of levels
 * kept off the thread's stack, not a call per directory: each call
 * would hold a frame, and a deep tree (a host folder mounted under
 * /proc/sys, say) would run the shell's stack out. Returns 0, or the
 * error of the last setting that could not be read. */
static int print_tree(struct setting *s)
{
	static struct tree_level levels[TREE_DEPTH_MAX];
	struct dirent ent;
	int depth = 0, status = 0;

	levels[0] = (struct tree_level){ 0, strlen(s->path), strlen(s->name) };
	while (depth >= 0) {
		struct tree_level *at = &levels[depth];

		s->path[at->path_len] = '\0';
		s->name[at->name_len] = '\0';
		if (vfs_readdir(s->path, at->next++, &ent) <= 0) {
			depth--;	/* done with this directory */
			continue;
		}
		if (!setting_append(s, at, ent.name))
			continue;
		if (ent.type != INODE_DIR) {
			int err = print_setting(s);

			if (err)
				status = err;
		} else if (depth + 1 < (int)TREE_DEPTH_MAX) {
			levels[++depth] = (struct tree_level){ 0, strlen(s->path), strlen(s->name) };
		}
	}
	return status;
}

/* sysctl NAME: its value, or every value under it. Returns 0, or the
 * negative errno it said. */
static int read_setting(const char *name)
{
	static struct setting s;	/* off the shell's small stack */
	struct kstat st;
	int err = find_setting(&s, name, strlen(name), &st);

	if (err < 0)
		return err;
	return st.type == INODE_DIR ? print_tree(&s) : print_setting(&s);
}

/* sysctl -w NAME=VALUE: VALUE and a newline, in one write, as Linux's
 * sysctl writes it; the file may refuse it. Returns 0, or the negative
 * errno it said. */
static int write_setting(const char *arg)
{
	static struct setting s;
	const char *eq = strchr(arg, '=');
	struct file *file;
	struct kstat st;
	char line[256];
	ssize_t n;
	int err;

	if (!eq || eq == arg) {
		cmd_eprintf("sysctl: \"%s\" must be of the form name=value\n", arg);
		return -EINVAL;
	}
	err = find_setting(&s, arg, (size_t)(eq - arg), &st);
	if (err < 0)
		return err;
	n = snprintf(line, sizeof(line), "%s\n", eq + 1);
	if ((size_t)n >= sizeof(line)) {
		cmd_eprintf("sysctl: setting key \"%s\": %s\n", s.name, strerror(-E2BIG));
		return -E2BIG;
	}
	err = vfs_open(s.path, O_WRONLY | O_TRUNC, &file);
	if (!err) {
		n = vfs_write(file, line, (size_t)n, &file->pos);
		err = n < 0 ? (int)n : 0;
		vfs_close(file);
	}
	if (err)
		cmd_eprintf("sysctl: setting key \"%s\": %s\n", s.name, strerror(err));
	else
		cmd_printf("%s = %s\n", s.name, eq + 1);
	return err;
}

static int cmd_sysctl(int argc, char **argv)
{
	static struct setting all;
	bool write = argc > 1 && strcmp(argv[1], "-w") == 0;
	int status = 0;

	if (argc == 2 && strcmp(argv[1], "-a") == 0) {
		setting_path(&all, "", 0);
		all.path[strlen(all.path) - 1] = '\0';	/* "/proc/sys" */
		return print_tree(&all);
	}
	if (argc < 2 + write)
		return shell_usage("sysctl");
	for (int i = 1 + write; i < argc; i++) {
		int err = write || strchr(argv[i], '=') ? write_setting(argv[i])
							: read_setting(argv[i]);

		if (err)
			status = err;
	}
	return status;
}
SHELL_COMMAND("sysctl", "[-w] NAME[=VALUE]...\n-a",
	      "read or set kernel settings (/proc/sys): debug.kprobes-optimization", cmd_sysctl);
