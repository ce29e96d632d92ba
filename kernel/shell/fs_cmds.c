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

/* A copy of inputs to standard output: the command that copies (cat,
 * mount), and its status so far. */
struct copy {
	const char *cmd;
	int status;	/* -EINVAL once an input was refused as the output */
};

/* Copy one input to standard output, as it is read. Bytes are written
 * with cmd_write, not printed: they are data, not a C string, and may
 * hold a NUL or a '%'. A refused write (into a redirection's file, a
 * pipe whose reader is gone) ends the copy, and the shell says why if
 * there is a reason to; so does a Ctrl-C or a hang-up. Returns the
 * error then. An input that is the output is refused, and the next one
 * copied, as GNU cat goes on. */
static int copy_input(struct input *in, const char *path, void *arg)
{
	struct copy *copy = arg;
	const char *bytes;
	char last = '\n';
	ssize_t n;

	if (input_is_output(in)) {
		cmd_eprintf("%s: %s: input file is output file\n", copy->cmd, path);
		copy->status = -EINVAL;
		return 0;
	}
	while ((n = input_bytes(in, &bytes)) > 0) {
		ssize_t err = cmd_write(bytes, (size_t)n);

		if (err < 0)
			return (int)err;
		last = bytes[n - 1];
	}
	/* Finish the line so the prompt (or the error) starts on its own:
	 * on the console only, so that `cat A > B` copies A as it is. */
	if (last != '\n' && cmd_output_is_console())
		cmd_printf("\n");
	return n == -EINTR ? -EINTR : 0;
}

/* Copy each of paths[0 .. count-1], or standard input if count is 0, to
 * standard output; returns the status of the command cmd that does. */
static int copy_inputs(const char *cmd, int count, char **paths)
{
	struct copy copy = { .cmd = cmd };
	int err = input_each(cmd, count, paths, false, NULL, copy_input, &copy);

	return err ? err : copy.status;
}

/* cat [FILE]...: copy each FILE, or standard input, to standard output,
 * one after the other. */
static int cmd_cat(int argc, char **argv)
{
	return copy_inputs("cat", argc - 1, argv + 1);
}

/* rm PATH...: remove each file, saying in Linux's words which could not
 * be: "rm: cannot remove 'PATH': No such file or directory". */
static int cmd_rm(int argc, char **argv)
{
	int status = 0;

	if (argc < 2)
		return shell_usage("rm");
	for (int i = 1; i < argc; i++) {
		int err = vfs_unlink(argv[i]);

		if (err) {
			cmd_eprintf("rm: cannot remove '%s': %s\n", argv[i], strerror(err));
			status = err;
		}
	}
	return status;
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
static int cmd_mkdir(int argc, char **argv)
{
	bool parents = argc > 1 && strcmp(argv[1], "-p") == 0;
	int first = parents ? 2 : 1, status = 0;
	/* -p's copy: too big for a stack, and each mkdir's own (two may run
	 * at once in a pipeline). */
	char *path;

	if (argc <= first)
		return shell_usage("mkdir");
	path = kmalloc(VFS_PATH_MAX);
	if (!path) {
		cmd_eprintf("mkdir: %s\n", strerror(-ENOMEM));
		return -ENOMEM;
	}
	for (int i = first; i < argc; i++) {
		int err;

		strlcpy(path, argv[i], VFS_PATH_MAX);
		err = parents ? make_parents(path) : vfs_mkdir(path);
		if (err) {
			cmd_eprintf("mkdir: cannot create directory '%s': %s\n", path, strerror(err));
			status = err;
		}
	}
	kfree(path);
	return status;
}

/* mount: the table, as /proc/mounts shows it. mount -t TYPE SOURCE DIR:
 * mount a filesystem of TYPE on the directory DIR (docs/vfs.md). */
static int cmd_mount(int argc, char **argv)
{
	int err;

	if (argc == 1) {
		char *mounts[] = { "/proc/mounts" };

		return copy_inputs("mount", 1, mounts);
	}
	if (argc != 5 || strcmp(argv[1], "-t") != 0)
		return shell_usage("mount");
	err = vfs_mount(argv[3], argv[4], argv[2]);
	if (err == -ENODEV)
		cmd_eprintf("mount: unknown filesystem type '%s'\n", argv[2]);
	else if (err)
		cmd_eprintf("mount: %s: %s\n", argv[4], strerror(err));
	return err;
}

/* umount DIR: take away what is mounted on DIR. */
static int cmd_umount(int argc, char **argv)
{
	int err;

	if (argc != 2)
		return shell_usage("umount");
	err = vfs_umount(argv[1]);
	if (err == -EINVAL)
		cmd_eprintf("umount: %s: not mounted\n", argv[1]);
	else if (err == -EBUSY)
		cmd_eprintf("umount: %s: something is mounted below it\n", argv[1]);
	else if (err)
		cmd_eprintf("umount: %s: %s\n", argv[1], strerror(err));
	return err;
}

SHELL_COMMAND("cat", "[FILE]...", "print files, or standard input, one after the other", cmd_cat);
SHELL_COMMAND("rm", "PATH...", "remove files", cmd_rm);
SHELL_COMMAND("mkdir", "[-p] DIR...", "make directories (-p: and the ones on the way)",
	      cmd_mkdir);
SHELL_COMMAND("mount", "[-t TYPE SOURCE DIR]", "list the mounts, or mount a filesystem on DIR",
	      cmd_mount);
SHELL_COMMAND("umount", "DIR", "unmount the filesystem mounted on DIR", cmd_umount);
