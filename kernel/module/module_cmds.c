/* The shell's module commands: insmod, rmmod and lsmod (module.h). */
#include "kernel/module/module.h"
#include "kernel/mm/heap.h"
#include "kernel/printk.h"
#include "kernel/command.h"
#include "kernel/fs/vfs.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

#define MODULE_DIR "/lib/modules/"

/* "kprobe_example" and "kprobe_example.ko" mean /lib/modules/kprobe_example.ko;
 * a path with a slash is taken as it is. */
static void module_path(const char *arg, char *path, size_t size)
{
	size_t len = strlen(arg);
	bool has_suffix = len > 3 && strcmp(arg + len - 3, ".ko") == 0;

	if (strchr(arg, '/'))
		strlcpy(path, arg, size);
	else
		snprintf(path, size, MODULE_DIR "%s%s", arg, has_suffix ? "" : ".ko");
}

/* insmod PATH [name=value ...] */
static void cmd_insmod(int argc, char **argv)
{
	static char path[VFS_PATH_MAX];	/* 4 KiB: too much for the shell's stack */
	void *image = NULL;
	size_t size = 0;
	int err;

	if (argc < 2) {
		kprintf("usage: insmod PATH [name=value ...]\n");
		return;
	}
	module_path(argv[1], path, sizeof(path));
	err = vfs_read_all(path, &image, &size);
	if (err) {
		kprintf("insmod: %s: %s\n", path, strerror(err));
		return;
	}
	/* module_load prints its own one-line reason on failure. */
	module_load(image, size, argc - 2, argv + 2);
	kfree(image);
}
SHELL_COMMAND("insmod", "PATH [name=value ...]", "load a module (a name means /lib/modules/NAME.ko)",
	      cmd_insmod);

static void cmd_rmmod(int argc, char **argv)
{
	if (argc != 2) {
		kprintf("usage: rmmod NAME\n");
		return;
	}
	module_unload(argv[1]);
}
SHELL_COMMAND("rmmod", "NAME", "remove a loaded module", cmd_rmmod);

static const char *state_name(enum module_state state)
{
	static const char *const names[] = {
		[MODULE_STATE_COMING] = "Loading", [MODULE_STATE_LIVE] = "Live",
		[MODULE_STATE_GOING] = "Unloading",
	};
	return names[state];
}

static void print_module(struct module *mod, void *ctx)
{
	(void)ctx;
	kprintf("%-24s %8lu  %5u  %s\n", mod->name,
		(unsigned long)(mod->core_layout.size + mod->init_layout.size), mod->users,
		state_name(mod->state));
}

static void cmd_lsmod(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	kprintf("%-24s %8s  %5s  %s\n", "Module", "Size", "Users", "State");
	module_for_each(print_module, NULL);
}
SHELL_COMMAND("lsmod", "", "list loaded modules: name, size in bytes, users, state", cmd_lsmod);
