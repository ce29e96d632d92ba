/*
 * modprobe NAME [name=value ...]: load a module after the modules it
 * needs, as modules.dep lists them (modules_dep.h), and
 * modprobe -r NAME: remove it, then what it needed that nothing uses
 * any more. As Linux's modprobe:
 *
 *	probeos> modprobe mod_user
 *	mod_exporter: loaded
 *	mod_user: exporter_add(2, 3) = 5, calls = 1
 *	probeos> modprobe -r mod_user
 *	mod_user: removed
 *	mod_exporter: removed after 1 calls
 *
 * A module already loaded is skipped (the one asked for too: modprobe
 * then does nothing); the parameters go to the one asked for. If a
 * module is missing or cannot be loaded (its init fails, say), what this
 * modprobe loaded is removed again, newest first, and one line says why.
 *
 * The modules.dep read, and the modules it names, are those of the
 * host's build when the host's folder is shared and holds one, else the
 * boot archive's (module_dir_for): one tree, never a mix.
 */
#include "kernel/cmd_output.h"
#include "kernel/command.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/heap.h"
#include "kernel/module/module.h"
#include "kernel/module/module_cmds.h"
#include "kernel/module/modules_dep.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

#define MODULES_DEP "modules.dep"

/* The name of the module whose file ref is (modules_dep.h), or ref's
 * own text if that names none. */
static void ref_name(const struct dep_ref *ref, char name[MODULE_NAME_LEN])
{
	if (!module_name_of_path(ref->path, ref->len, name, MODULE_NAME_LEN))
		snprintf(name, MODULE_NAME_LEN, "%.*s", (int)ref->len, ref->path);
}

/* Read dir's modules.dep into *text (kmalloc'd: the caller frees it),
 * its length into *len. Returns 0 or a negative errno. */
static int read_dep(const char *dir, char **text, size_t *len)
{
	static char path[VFS_PATH_MAX];	/* 4 KiB: too much for the shell's stack */

	snprintf(path, sizeof(path), "%s/" MODULES_DEP, dir);
	return vfs_read_all(path, (void **)text, len);
}

/* Read dir's modules.dep into *text (the caller frees it) and plan
 * name's load. Returns 0, or a negative errno after one line saying why. */
static int read_plan(const char *dir, const char *name, char **text,
		     struct modprobe_plan *plan)
{
	char bad[MODULE_NAME_LEN];
	struct dep_ref culprit;
	size_t len;
	int err = read_dep(dir, text, &len);

	if (err) {
		cmd_eprintf("modprobe: FATAL: could not open %s/" MODULES_DEP ": %s\n", dir,
			    strerror(err));
		return err;
	}
	err = modules_dep_plan(*text, len, name, plan, &culprit);
	ref_name(&culprit, bad);
	if (err == -ENOENT)
		cmd_eprintf("modprobe: FATAL: Module %s not found in directory %s\n", bad, dir);
	else if (err == -EINVAL)
		cmd_eprintf("modprobe: FATAL: %s/" MODULES_DEP ": %s needs itself\n", dir, bad);
	else if (err == -E2BIG)
		cmd_eprintf("modprobe: FATAL: %s needs more than %d modules\n", name,
			    MODPROBE_MAX_MODULES);
	return err;
}

/* Load the module at ref unless it is loaded: 1 if it was loaded now, 0
 * if it was already, or a negative errno after one line saying why. */
static int load_one(const char *dir, const struct dep_ref *ref, int nargs, char **args)
{
	static char path[VFS_PATH_MAX];	/* 4 KiB: too much for the shell's stack */
	char name[MODULE_NAME_LEN];
	void *image;
	size_t size;
	int err;

	ref_name(ref, name);
	if (module_user_count(name) >= 0)
		return 0;
	snprintf(path, sizeof(path), "%s/%.*s", dir, (int)ref->len, ref->path);
	err = vfs_read_all(path, &image, &size);
	if (err == -ENOENT) {
		cmd_eprintf("modprobe: FATAL: Module %s not found in directory %s\n", name, dir);
		return err;
	}
	if (!err) {
		/* It prints its own line on failure: why the loader refused. */
		err = module_load(image, size, nargs, args);
		kfree(image);
	}
	if (err) {
		cmd_eprintf("modprobe: ERROR: could not insert '%s': %s\n", name, strerror(err));
		return err;
	}
	return 1;
}

/* Load the plan's modules in order, the parameters going to the last;
 * on a failure, remove what was loaded here, newest first. Returns 0,
 * or the error of the module that failed. */
static int load_plan(const char *dir, const struct modprobe_plan *plan, int nargs,
		     char **args)
{
	bool loaded[MODPROBE_MAX_MODULES] = { false };
	char name[MODULE_NAME_LEN];
	size_t i;
	int err = 0;

	for (i = 0; i < plan->count && err >= 0; i++) {
		bool last = i + 1 == plan->count;

		err = load_one(dir, &plan->modules[i], last ? nargs : 0, last ? args : NULL);
		loaded[i] = err > 0;
	}
	if (err >= 0)
		return 0;
	while (i-- > 0) {
		if (!loaded[i])
			continue;
		ref_name(&plan->modules[i], name);
		module_unload(name);
	}
	return err;
}

/* Remove name, then each module of its plan that nothing uses any more,
 * the users before what they use. A module modules.dep does not plan
 * (it has no line, say) is removed alone. Returns 0, or the error that
 * kept name loaded. */
static int remove_plan(const char *name, const struct modprobe_plan *plan)
{
	char dep[MODULE_NAME_LEN];
	int users = module_user_count(name), err;

	if (users < 0) {
		cmd_eprintf("modprobe: FATAL: Module %s is not in kernel.\n", name);
		return users;
	}
	if (users > 0) {
		cmd_eprintf("modprobe: FATAL: Module %s is in use.\n", name);
		return -EBUSY;
	}
	err = module_unload(name);
	if (err < 0)
		return err;
	for (size_t i = plan->count; i-- > 0;) {
		ref_name(&plan->modules[i], dep);
		if (module_user_count(dep) == 0)
			module_unload(dep);
	}
	return 0;
}

static int modprobe_remove(const char *arg)
{
	char name[MODULE_NAME_LEN];
	struct modprobe_plan plan = { .count = 0 };
	struct dep_ref culprit;
	char *text = NULL;
	size_t len = 0;
	int err;

	if (!module_name_of_path(arg, strlen(arg), name, sizeof(name))) {
		cmd_eprintf("modprobe: FATAL: Module %s is not in kernel.\n", arg);
		return -ENOENT;
	}
	/* What it needed, if modules.dep says: without it, only name goes. */
	if (read_dep(module_dir_for(MODULES_DEP), &text, &len) == 0 &&
	    modules_dep_plan(text, len, name, &plan, &culprit) < 0)
		plan.count = 0;
	err = remove_plan(name, &plan);
	kfree(text);
	return err;
}

static int cmd_modprobe(int argc, char **argv)
{
	const char *dir = module_dir_for(MODULES_DEP);
	struct modprobe_plan plan;
	char *text = NULL;
	int err;

	if (argc == 3 && strcmp(argv[1], "-r") == 0)
		return modprobe_remove(argv[2]);
	if (argc < 2 || argv[1][0] == '-')
		return shell_usage(argv[0]);
	err = read_plan(dir, argv[1], &text, &plan);
	if (err == 0)
		err = load_plan(dir, &plan, argc - 2, argv + 2);
	kfree(text);
	return err;
}
SHELL_COMMAND("modprobe", "NAME [name=value ...]\n-r NAME",
	      "load a module and what it needs (modules.dep, /host's build first); -r: remove them",
	      cmd_modprobe);
