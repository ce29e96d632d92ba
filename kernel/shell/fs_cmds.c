/* The shell's file commands, cat, rm, mkdir, mount and umount (ls has a
 * file of its own, ls_cmd.c), written against the VFS calls only, the
 * way a user program would use open/read/close, mkdir(2) and mount(2).
 * Paths are absolute or relative to the working directory, as the VFS
 * takes them.
 *
 * Errors are one line, "CMD: PATH: description", with the description
 * from strerror(); rm's and mkdir's are Linux's own lines. */

#include "kernel/fs/mount.h"
#include "kernel/cmd_output.h"
#include "kernel/shell/input.h"
#include "kernel/shell/shell.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/heap.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Copy one input to standard output, as it is read. Bytes are written
 * with cmd_write, not printed: they are data, not a C string, and may
 * hold a NUL or a '%'. A refused write (into a redirection's file, a
 * pipe whose reader is gone) ends the copy, and the shell says why if
 * there is a reason to; so does a Ctrl-C or a hang-up. Returns false
 * then. */
static bool copy_input(struct input *in, const char *path, void *arg)
{
	const char *cmd = arg, *bytes;
	char last = '\n';
	ssize_t n;

	if (input_is_output(in)) {
		cmd_eprintf("%s: %s: input file is output file\n", cmd, path);
		return true;
	}
	while ((n = input_bytes(in, &bytes)) > 0) {
		if (cmd_write(bytes, (size_t)n) < 0)
			return false;
		last = bytes[n - 1];
	}
	/* Finish the line so the prompt (or the error) starts on its own:
	 * on the console only, so that `cat A > B` copies A as it is. */
	if (last != '\n' && cmd_output_is_console())
		cmd_printf("\n");
	return n != -EINTR;
}

/* cat [FILE]...: copy each FILE, or standard input, to standard output,
 * one after the other. */
static void cmd_cat(int argc, char **argv)
{
	input_each("cat", argc - 1, argv + 1, false, NULL, copy_input, (void *)"cat");
}

/* rm PATH...: remove each file, saying in Linux's words which could not
 * be: "rm: cannot remove 'PATH': No such file or directory". */
static void cmd_rm(int argc, char **argv)
{
	if (argc < 2) {
		shell_usage("rm");
		return;
	}
	for (int i = 1; i < argc; i++) {
		int err = vfs_unlink(argv[i]);

		if (err)
			cmd_eprintf("rm: cannot remove '%s': %s\n", argv[i], strerror(err));
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
	bool parents = argc > 1 && strcmp(argv[1], "-p") == 0;
	int first = parents ? 2 : 1;
	/* -p's copy: too big for a stack, and each mkdir's own (two may run
	 * at once in a pipeline). */
	char *path;

	if (argc <= first) {
		shell_usage("mkdir");
		return;
	}
	path = kmalloc(VFS_PATH_MAX);
	if (!path) {
		cmd_eprintf("mkdir: %s\n", strerror(-ENOMEM));
		return;
	}
	for (int i = first; i < argc; i++) {
		int err;

		strlcpy(path, argv[i], VFS_PATH_MAX);
		err = parents ? make_parents(path) : vfs_mkdir(path);
		if (err)
			cmd_eprintf("mkdir: cannot create directory '%s': %s\n", path, strerror(err));
	}
	kfree(path);
}

/* mount: the table, as /proc/mounts shows it. mount -t TYPE SOURCE DIR:
 * mount a filesystem of TYPE on the directory DIR (docs/vfs.md). */
static void cmd_mount(int argc, char **argv)
{
	int err;

	if (argc == 1) {
		char *mounts[] = { "/proc/mounts" };

		input_each("mount", 1, mounts, false, NULL, copy_input, (void *)"mount");
		return;
	}
	if (argc != 5 || strcmp(argv[1], "-t") != 0) {
		shell_usage("mount");
		return;
	}
	err = vfs_mount(argv[3], argv[4], argv[2]);
	if (err == -ENODEV)
		cmd_eprintf("mount: unknown filesystem type '%s'\n", argv[2]);
	else if (err)
		cmd_eprintf("mount: %s: %s\n", argv[4], strerror(err));
}

/* umount DIR: take away what is mounted on DIR. */
static void cmd_umount(int argc, char **argv)
{
	int err;

	if (argc != 2) {
		shell_usage("umount");
		return;
	}
	err = vfs_umount(argv[1]);
	if (err == -EINVAL)
		cmd_eprintf("umount: %s: not mounted\n", argv[1]);
	else if (err == -EBUSY)
		cmd_eprintf("umount: %s: something is mounted below it\n", argv[1]);
	else if (err)
		cmd_eprintf("umount: %s: %s\n", argv[1], strerror(err));
}

SHELL_COMMAND("cat", "[FILE]...", "print files, or standard input, one after the other", cmd_cat);
SHELL_COMMAND("rm", "PATH...", "remove files", cmd_rm);
SHELL_COMMAND("mkdir", "[-p] DIR...", "make directories (-p: and the ones on the way)",
	      cmd_mkdir);
SHELL_COMMAND("mount", "[-t TYPE SOURCE DIR]", "list the mounts, or mount a filesystem on DIR",
	      cmd_mount);
SHELL_COMMAND("umount", "DIR", "unmount the filesystem mounted on DIR", cmd_umount);
