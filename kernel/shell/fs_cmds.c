/* The shell's file commands, ls, cat, rm, mount and umount, written
 * against the VFS calls only, the way a user program would use
 * open/read/close and mount(2).
 *
 * Errors are one line, "CMD: PATH: description", with the description
 * from strerror(); rm's is Linux's own line (cmd_rm). */

#include "kernel/console.h"
#include "kernel/fs/mount.h"
#include "kernel/printk.h"
#include "kernel/shell/shell.h"
#include "kernel/fs/vfs.h"
#include "lib/errno.h"
#include "lib/string.h"

/* cat reads CAT_CHUNK bytes per vfs_read call until one returns 0, as
 * Unix cat does: a file's size cannot say where it ends (a generated
 * file's is 0). So a probe on vfs_read is hit once per CAT_CHUNK bytes
 * and once more at the end: `cat /etc/motd` is exactly two calls. */
#define CAT_CHUNK 512

static int decimal_digits(size_t n)
{
	int digits = 1;

	while (n >= 10) {
		n /= 10;
		digits++;
	}
	return digits;
}

/* The format of `ls DIR`: one entry per line, in name order.
 * A directory is its name and a '/'. A file is its name padded to the
 * longest name in the listing (counting a directory's '/'), two spaces,
 * and its size in bytes right-aligned under the other sizes:
 *
 *   etc/
 *   hostname    8
 *   motd      161
 *
 * The directory is read twice, first to measure the columns, then to
 * print. Returns 0 or the error of vfs_readdir. */
static int list_dir(const char *path)
{
	struct dirent ent;
	int name_width = 0, size_width = 1;
	size_t i;
	int ret;

	for (i = 0; (ret = vfs_readdir(path, i, &ent)) > 0; i++) {
		int len = (int)strlen(ent.name) + (ent.type == INODE_DIR);

		name_width = MAX(name_width, len);
		if (ent.type == INODE_FILE)
			size_width = MAX(size_width, decimal_digits(ent.size));
	}
	if (ret < 0)
		return ret;

	for (i = 0; vfs_readdir(path, i, &ent) > 0; i++) {
		if (ent.type == INODE_DIR)
			kprintf("%s/\n", ent.name);
		else
			kprintf("%-*s  %*zu\n", name_width, ent.name,
				size_width, ent.size);
	}
	return 0;
}

/* ls [PATH]: list a directory, "/" by default. Like Unix ls, naming a
 * file lists just that file, as "PATH  SIZE". */
static void cmd_ls(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/";
	struct kstat st;
	int err;

	if (argc > 2) {
		kprintf("ls: usage: ls [PATH]\n");
		return;
	}
	err = list_dir(path);
	if (err == -ENOTDIR) {
		if (vfs_stat(path, &st) == 0 && st.type == INODE_FILE) {
			kprintf("%s  %zu\n", path, st.size);
			return;
		}
	}
	if (err)
		kprintf("ls: %s: %s\n", path, strerror(err));
}

/* Copy the file at path to the command's output, CAT_CHUNK bytes per vfs_read;
 * errors are "CMD: PATH: description". */
static void copy_to_output(const char *cmd, const char *path)
{
	static char buf[CAT_CHUNK];	/* the shell's stack is small */
	struct file *file;
	char last = '\n';
	ssize_t n;
	int err = vfs_open(path, O_RDONLY, &file);

	if (err) {
		kprintf("%s: %s: %s\n", cmd, path, strerror(err));
		return;
	}

	/* kwrite rather than kprintf("%s"): file bytes are data, not a C
	 * string, and may hold a NUL or a '%'. A refused write (into a
	 * redirection's file, a full pipe) ends the copy; the shell says
	 * why. So does a Ctrl-C. */
	do {
		n = vfs_read(file, buf, sizeof(buf), &file->pos);
		if (n > 0) {
			if (kwrite(buf, (size_t)n) < 0)
				break;
			last = buf[n - 1];
		}
	} while (n > 0 && !console_interrupted());
	/* Finish the line so the prompt (or the error) starts on its own. */
	if (last != '\n')
		kprintf("\n");
	if (n < 0)
		kprintf("%s: %s: %s\n", cmd, path, strerror((int)n));
	vfs_close(file);
}

/* cat PATH: copy a file to the console. */
static void cmd_cat(int argc, char **argv)
{
	if (argc != 2) {
		kprintf("cat: usage: cat PATH\n");
		return;
	}
	copy_to_output("cat", argv[1]);
}

/* rm PATH...: remove each file, saying in Linux's words which could not
 * be: "rm: cannot remove 'PATH': No such file or directory". */
static void cmd_rm(int argc, char **argv)
{
	if (argc < 2) {
		kprintf("rm: usage: rm PATH...\n");
		return;
	}
	for (int i = 1; i < argc; i++) {
		int err = vfs_unlink(argv[i]);

		if (err)
			kprintf("rm: cannot remove '%s': %s\n", argv[i], strerror(err));
	}
}

/* mount: the table, as /proc/mounts shows it. mount -t TYPE SOURCE DIR:
 * mount a filesystem of TYPE on the directory DIR (docs/vfs.md). */
static void cmd_mount(int argc, char **argv)
{
	int err;

	if (argc == 1) {
		copy_to_output("mount", "/proc/mounts");
		return;
	}
	if (argc != 5 || strcmp(argv[1], "-t") != 0) {
		kprintf("mount: usage: mount [-t TYPE SOURCE DIR]\n");
		return;
	}
	err = vfs_mount(argv[3], argv[4], argv[2]);
	if (err == -ENODEV)
		kprintf("mount: unknown filesystem type '%s'\n", argv[2]);
	else if (err)
		kprintf("mount: %s: %s\n", argv[4], strerror(err));
}

/* umount DIR: take away what is mounted on DIR. */
static void cmd_umount(int argc, char **argv)
{
	int err;

	if (argc != 2) {
		kprintf("umount: usage: umount DIR\n");
		return;
	}
	err = vfs_umount(argv[1]);
	if (err == -EINVAL)
		kprintf("umount: %s: not mounted\n", argv[1]);
	else if (err == -EBUSY)
		kprintf("umount: %s: something is mounted below it\n", argv[1]);
	else if (err)
		kprintf("umount: %s: %s\n", argv[1], strerror(err));
}

SHELL_COMMAND("ls", "[PATH]", "list a directory (default /), sizes in bytes",
	      cmd_ls);
SHELL_COMMAND("cat", "PATH", "print a file", cmd_cat);
SHELL_COMMAND("rm", "PATH...", "remove files", cmd_rm);
SHELL_COMMAND("mount", "[-t TYPE SOURCE DIR]", "list the mounts, or mount a filesystem on DIR",
	      cmd_mount);
SHELL_COMMAND("umount", "DIR", "unmount the filesystem mounted on DIR", cmd_umount);
