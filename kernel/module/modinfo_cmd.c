/* modinfo PATH|NAME: what a module file says about itself, read from
 * its .modinfo section without loading it, as Linux's modinfo prints it
 * (modinfo.h). A name means NAME.ko where insmod finds it (module_cmds.h). */
#include "kernel/command.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/heap.h"
#include "kernel/module/modinfo.h"
#include "kernel/module/module.h"
#include "kernel/module/module_cmds.h"
#include "kernel/module/modules_dep.h"
#include "kernel/cmd_output.h"
#include "lib/errno.h"
#include "lib/string.h"

/* modinfo_print's output, onto the command's output. */
static void print_chunk(void *ctx, const char *text, size_t len)
{
	(void)ctx;
	cmd_write(text, len);
}

/* The file's bytes, checked, and printed; or one line saying why not,
 * and modinfo_section's error. */
static int show(const char *arg, const char *path, const void *image, size_t size)
{
	char why[128], name[MODULE_NAME_LEN];
	const void *data;
	size_t len;
	int err = modinfo_section(image, size, &data, &len, why, sizeof(why));

	if (err == 0) {
		modinfo_print(path, size, data, len, print_chunk, NULL);
		return 0;
	}
	/* Named as Linux's modinfo names it: by the module the file is. */
	if (!module_name_of_path(arg, strlen(arg), name, sizeof(name)))
		strlcpy(name, arg, sizeof(name));
	cmd_eprintf("modinfo: ERROR: could not get modinfo from '%s': %s\n", name, why);
	return err;
}

static int cmd_modinfo(int argc, char **argv)
{
	static char path[VFS_PATH_MAX];	/* 4 KiB: too much for the shell's stack */
	void *image = NULL;
	size_t size = 0;
	int err;

	if (argc != 2)
		return shell_usage(argv[0]);
	module_path(argv[1], path, sizeof(path));
	err = vfs_read_all(path, &image, &size);
	if (err == -ENOENT)
		cmd_eprintf("modinfo: ERROR: Module %s%s not found.\n",
			    strchr(argv[1], '/') ? "file " : "", argv[1]);
	else if (err)
		cmd_eprintf("modinfo: ERROR: %s: %s\n", path, strerror(err));
	else
		err = show(argv[1], path, image, size);
	kfree(image);
	return err;
}
SHELL_COMMAND("modinfo", "PATH|NAME",
	      "show a module file's information without loading it (a name: NAME.ko, as for insmod)",
	      cmd_modinfo);
