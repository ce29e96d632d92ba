/* cd and pwd: the shell thread's working directory (kernel/fs/cwd.h),
 * where the relative paths of every command it runs start. Their
 * errors are bash's lines: "cd: /etc/motd: Not a directory". */
#include "kernel/fs/cwd.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/heap.h"
#include "kernel/cmd_output.h"
#include "kernel/shell/shell.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Where `cd` alone goes, as bash's goes to $HOME: the student's home
 * in the root filesystem, or "/" if it has none (there are no users and
 * no variables here to say otherwise). */
#define HOME "/home/student"

/* cd [DIR]: change the working directory. */
static int cmd_cd(int argc, char **argv)
{
	int err;

	if (argc > 2) {
		cmd_eprintf("cd: too many arguments\n");
		return -EINVAL;
	}
	if (argc == 1)
		return vfs_chdir(HOME) == 0 ? 0 : vfs_chdir("/");
	err = vfs_chdir(argv[1]);
	if (err)
		cmd_eprintf("cd: %s: %s\n", argv[1], strerror(err));
	return err;
}

/* pwd: print the working directory. One that was removed (or whose
 * filesystem was unmounted) is printed with the path it had and
 * " (deleted)", as Linux shows it in /proc/PID/cwd. */
static int cmd_pwd(int argc, char **argv)
{
	/* 4 KiB: too much for a stack; and each pwd's own, as two may run
	 * at once in a pipeline. */
	char *buf;
	int ret;

	(void)argv;
	if (argc > 1)
		return shell_usage("pwd");
	buf = kmalloc(VFS_PATH_MAX);
	ret = buf ? vfs_getcwd(buf, VFS_PATH_MAX) : -ENOMEM;
	if (ret >= 0)
		cmd_printf("%s\n", buf);
	else if (ret == -ENOENT)
		cmd_printf("%s (deleted)\n", buf);
	else
		cmd_eprintf("pwd: %s\n", strerror(ret));
	kfree(buf);
	return ret >= 0 || ret == -ENOENT ? 0 : ret;
}

SHELL_COMMAND("cd", "[DIR]", "change the working directory (no DIR: " HOME ", or /)", cmd_cd);
SHELL_COMMAND("pwd", "", "print the working directory", cmd_pwd);
