/* The shell's module commands: insmod, rmmod and lsmod (module.h);
 * modinfo and modprobe have files of their own. */
#include "kernel/module/module.h"
#include "kernel/module/module_cmds.h"
#include "kernel/mm/heap.h"
#include "kernel/cmd_output.h"
#include "kernel/command.h"
#include "kernel/fs/vfs.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

const char *module_dir_for(const char *file)
{
	size_t size = sizeof(HOST_MODULE_DIR "/") + strlen(file);
	char *path = kmalloc(size);	/* up to 4 KiB: not on a shell's stack */
	struct kstat st;
	bool on_host;

	if (!path)
		return MODULE_DIR;
	snprintf(path, size, HOST_MODULE_DIR "/%s", file);
	on_host = vfs_stat(path, &st) == 0 && st.type == INODE_FILE;
	kfree(path);
	return on_host ? HOST_MODULE_DIR : MODULE_DIR;
}

void module_path(const char *arg, char *path, size_t size)
{
	char file[VFS_NAME_MAX + 1];
	size_t len = strlen(arg);
	bool has_suffix = len > 3 && strcmp(arg + len - 3, ".ko") == 0;

	if (strchr(arg, '/')) {
		strlcpy(path, arg, size);
		return;
	}
	snprintf(file, sizeof(file), "%s%s", arg, has_suffix ? "" : ".ko");
	snprintf(path, size, "%s/%s", module_dir_for(file), file);
}

/* insmod PATH [name=value ...] */
static int cmd_insmod(int argc, char **argv)
{
	static char path[VFS_PATH_MAX];	/* 4 KiB: too much for the shell's stack */
	void *image = NULL;
	size_t size = 0;
	int err;

	if (argc < 2)
		return shell_usage(argv[0]);
	module_path(argv[1], path, sizeof(path));
	err = vfs_read_all(path, &image, &size);
	if (err) {
		cmd_eprintf("insmod: %s: %s\n", path, strerror(err));
		return err;
	}
	/* module_load prints its own one-line reason on failure. */
	err = module_load(image, size, argc - 2, argv + 2);
	kfree(image);
	return err;
}
SHELL_COMMAND("insmod", "PATH [name=value ...]", "load a module (a name: NAME.ko, from /host's build if there, else " MODULE_DIR ")",
	      cmd_insmod);

static int cmd_rmmod(int argc, char **argv)
{
	if (argc != 2)
		return shell_usage(argv[0]);
	return module_unload(argv[1]);
}
SHELL_COMMAND("rmmod", "NAME", "remove a loaded module", cmd_rmmod);

/* Linux's lsmod: name, size in bytes, how many modules use it, and which
 * (module.h's accessors, which /proc/modules prints from too). */
static void print_module(struct module *mod, void *ctx)
{
	const struct module *user = module_next_user(mod, NULL);

	(void)ctx;
	cmd_printf("%-19s %8zu  %u", mod->name, module_size(mod), mod->users);
	for (const char *sep = " "; user; user = module_next_user(mod, user), sep = ",")
		cmd_printf("%s%s", sep, user->name);
	cmd_printf("\n");
}

static int cmd_lsmod(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cmd_printf("%-19s %8s  %s\n", "Module", "Size", "Used by");
	module_for_each(print_module, NULL);
	return 0;
}
SHELL_COMMAND("lsmod", "", "list loaded modules: name, size in bytes, how many use it and which",
	      cmd_lsmod);
