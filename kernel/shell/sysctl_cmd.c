/*
 * `sysctl`: read and set the kernel's settings, the files under
 * /proc/sys, as Linux's sysctl(8) does and with its messages:
 *
 *   sysctl NAME...            print "NAME = VALUE" for each
 *   sysctl -w NAME=VALUE...   write VALUE to each, and print "NAME = VALUE"
 *   sysctl -a                 print every setting
 *
 * A NAME is the file's path below /proc/sys with dots for slashes
 * (debug.kprobes-optimization is /proc/sys/debug/kprobes-optimization);
 * a slash in it stands for a dot, as in Linux's. NAME=VALUE sets, with
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
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

#define PROC_SYS "/proc/sys/"

/* A setting's file path and its name, with room for a long one. */
struct setting {
	char path[256];
	char name[256];		/* as the user wrote it, or dotted (for -a) */
};

/* The file of the setting name, into s->path: dots become slashes and
 * slashes dots. -ENAMETOOLONG if it does not fit. */
static int setting_path(struct setting *s, const char *name, size_t len)
{
	size_t prefix = strlen(PROC_SYS);

	if (prefix + len >= sizeof(s->path) || len >= sizeof(s->name))
		return -ENAMETOOLONG;
	memcpy(s->path, PROC_SYS, prefix);
	for (size_t i = 0; i < len; i++)
		s->path[prefix + i] = name[i] == '.' ? '/' : name[i] == '/' ? '.' : name[i];
	s->path[prefix + len] = '\0';
	memcpy(s->name, name, len);
	s->name[len] = '\0';
	return 0;
}

/* Find the setting called name (its first len bytes): fill *s and *st,
 * trying the dashed spelling too (see above). 0, or after printing
 * Linux's line about it, a negative errno. */
static int find_setting(struct setting *s, const char *name, size_t len, struct kstat *st)
{
	int err = setting_path(s, name, len);
	char *c;

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
		kprintf("sysctl: cannot stat %s: %s\n", s->path, strerror(err));
	return err;
}

/* Print the file's text as "NAME = VALUE", a line for each of its lines. */
static void print_value(const struct setting *s, const char *text, size_t size)
{
	while (size) {
		size_t len = 0;

		while (len < size && text[len] != '\n')
			len++;
		kprintf("%s = %.*s\n", s->name, (int)len, text);
		len += len < size;	/* and its newline */
		text += len;
		size -= len;
	}
}

static void print_setting(const struct setting *s)
{
	void *text;
	size_t size;
	int err = vfs_read_all(s->path, &text, &size);

	if (err) {
		kprintf("sysctl: reading key \"%s\": %s\n", s->name, strerror(err));
		return;
	}
	print_value(s, text, size);
	kfree(text);
}

/* Print every setting under the directory s names (s->path without the
 * slash at the end), dotted, depth first. */
static void print_tree(struct setting *s)
{
	size_t path_len = strlen(s->path), name_len = strlen(s->name);
	struct dirent ent;

	for (size_t i = 0; vfs_readdir(s->path, i, &ent) > 0; i++) {
		size_t len = strlen(ent.name);

		if (path_len + len + 2 > sizeof(s->path) || name_len + len + 2 > sizeof(s->name))
			continue;
		s->path[path_len] = '/';
		strlcpy(s->path + path_len + 1, ent.name, sizeof(s->path) - path_len - 1);
		if (name_len)
			s->name[name_len] = '.';
		strlcpy(s->name + name_len + !!name_len, ent.name,
			sizeof(s->name) - name_len - 1);
		if (ent.type == INODE_DIR)
			print_tree(s);
		else
			print_setting(s);
		s->path[path_len] = '\0';
		s->name[name_len] = '\0';
	}
}

/* sysctl NAME: its value, or every value under it. */
static void read_setting(const char *name)
{
	static struct setting s;	/* off the shell's small stack */
	struct kstat st;

	if (find_setting(&s, name, strlen(name), &st) < 0)
		return;
	if (st.type == INODE_DIR)
		print_tree(&s);
	else
		print_setting(&s);
}

/* sysctl -w NAME=VALUE: VALUE and a newline, in one write, as Linux's
 * sysctl writes it; the file may refuse it. */
static void write_setting(const char *arg)
{
	static struct setting s;
	const char *eq = strchr(arg, '=');
	struct file *file;
	struct kstat st;
	char line[256];
	ssize_t n;
	int err;

	if (!eq || eq == arg) {
		kprintf("sysctl: \"%s\" must be of the form name=value\n", arg);
		return;
	}
	if (find_setting(&s, arg, (size_t)(eq - arg), &st) < 0)
		return;
	n = snprintf(line, sizeof(line), "%s\n", eq + 1);
	if ((size_t)n >= sizeof(line)) {
		kprintf("sysctl: setting key \"%s\": %s\n", s.name, strerror(-E2BIG));
		return;
	}
	err = vfs_open(s.path, O_WRONLY | O_TRUNC, &file);
	if (!err) {
		n = vfs_write(file, line, (size_t)n, &file->pos);
		err = n < 0 ? (int)n : 0;
		vfs_close(file);
	}
	if (err)
		kprintf("sysctl: setting key \"%s\": %s\n", s.name, strerror(err));
	else
		kprintf("%s = %s\n", s.name, eq + 1);
}

static void cmd_sysctl(int argc, char **argv)
{
	static struct setting all;
	bool write = argc > 1 && strcmp(argv[1], "-w") == 0;

	if (argc == 2 && strcmp(argv[1], "-a") == 0) {
		setting_path(&all, "", 0);
		all.path[strlen(all.path) - 1] = '\0';	/* "/proc/sys" */
		print_tree(&all);
		return;
	}
	if (argc < 2 + write) {
		kprintf("sysctl: usage: sysctl [-w] NAME[=VALUE]... | sysctl -a\n");
		return;
	}
	for (int i = 1 + write; i < argc; i++) {
		if (write || strchr(argv[i], '='))
			write_setting(argv[i]);
		else
			read_setting(argv[i]);
	}
}
SHELL_COMMAND("sysctl", "[-w] NAME[=VALUE]... | -a",
	      "read or set kernel settings (/proc/sys): debug.kprobes-optimization", cmd_sysctl);
