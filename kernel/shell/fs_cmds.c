/* The shell's file commands, cat, rm, mkdir, mount and umount (ls has a
 * file of its own, ls_cmd.c), written against the VFS calls only, the
 * way a user program would use open/read/close, mkdir(2) and mount(2).
 * Paths are absolute or relative to the working directory, as the VFS
 * takes them.
 *
 * Errors are one line, "CMD: PATH: description", with the description
 * from strerror(); rm's and mkdir's are Linux's own lines. */

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

/* GNU cat's rule: a file that has bytes left to read is not copied onto
 * the file the output goes into if that is the same regular file, since
 * the copy would read what it wrote (`cat F >> F` would grow F until
 * the disk is full). `cat F > F` empties F first, so nothing is left
 * to read and it passes, as in GNU's. */
static bool input_is_output(const struct file *in)
{
	const struct file *out = kprintf_output_file();

	return out && out->inode->type == INODE_FILE && vfs_same_file(in->inode, out->inode) &&
	       in->pos < (loff_t)__atomic_load_n(&in->inode->size, __ATOMIC_RELAXED);
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
	if (input_is_output(file)) {
		kprintf("%s: %s: input file is output file\n", cmd, path);
		vfs_close(file);
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
	/* Finish the line so the prompt (or the error) starts on its own:
	 * on the console only, so that `cat A > B` copies A as it is. */
	if (last != '\n' && kprintf_to_console())
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

/* Make each directory on the way to path, then path itself, as `mkdir
 * -p` does: those that exist already are passed (a file among them
 * makes the next step fail with -ENOTDIR), and so is path if it is a
 * directory. path is the command's copy: on failure it is cut to the
 * directory that could not be made, for the error line, and the error
 * returned. */
static int make_parents(char *path)
{
	struct kstat st;
	int err;

	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		err = vfs_mkdir(path);
		if (err && err != -EEXIST)
			return err;
		*p = '/';
	}
	err = vfs_mkdir(path);
	if (err == -EEXIST && vfs_stat(path, &st) == 0 && st.type == INODE_DIR)
		return 0;
	return err;
}

/* mkdir [-p] DIR...: make each directory, saying in Linux's words which
 * could not be made: "mkdir: cannot create directory 'DIR': File
 * exists". With -p, the directories on the way too. */
static void cmd_mkdir(int argc, char **argv)
{
	static char path[VFS_PATH_MAX];	/* -p's copy: too big for the stack */
	bool parents = argc > 1 && strcmp(argv[1], "-p") == 0;
	int first = parents ? 2 : 1;

	if (argc <= first) {
		kprintf("mkdir: usage: mkdir [-p] DIR...\n");
		return;
	}
	for (int i = first; i < argc; i++) {
		int err;

		strlcpy(path, argv[i], sizeof(path));
		err = parents ? make_parents(path) : vfs_mkdir(path);
		if (err)
			kprintf("mkdir: cannot create directory '%s': %s\n", path, strerror(err));
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

SHELL_COMMAND("cat", "PATH", "print a file", cmd_cat);
SHELL_COMMAND("rm", "PATH...", "remove files", cmd_rm);
SHELL_COMMAND("mkdir", "[-p] DIR...", "make directories (-p: and the ones on the way)",
	      cmd_mkdir);
SHELL_COMMAND("mount", "[-t TYPE SOURCE DIR]", "list the mounts, or mount a filesystem on DIR",
	      cmd_mount);
SHELL_COMMAND("umount", "DIR", "unmount the filesystem mounted on DIR", cmd_umount);
