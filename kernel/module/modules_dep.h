/* /lib/modules/modules.dep: which modules each module needs, in Linux's
 * depmod format, one module a line, paths relative to /lib/modules:
 *
 *	mod_user.ko: mod_exporter.ko
 *	mod_exporter.ko:
 *
 * The build writes it (tools/depmod.py); modprobe (modprobe_cmd.c)
 * reads it to load a module after what it needs. As Linux's depmod
 * does, a line lists all that its module needs, directly or not, in an
 * order that loads from the last to the first; a line that names only
 * the direct dependencies works too, since the plan follows each
 * dependency's own line.
 *
 * The file comes from outside the kernel: nothing here trusts it. A line
 * without ':' is skipped; the plan stops at a dependency with no line of
 * its own, at a cycle, and at more modules than it has room for. */
#ifndef KERNEL_MODULE_MODULES_DEP_H
#define KERNEL_MODULE_MODULES_DEP_H

#include "lib/types.h"

/* The most modules one modprobe loads, the asked-for one included. */
#define MODPROBE_MAX_MODULES 16

/* A path in the text of modules.dep (not NUL-terminated). */
struct dep_ref {
	const char *path;
	size_t len;
};

/* What modprobe loads, in order: dependencies first, the module asked
 * for last, each once. Its paths point into the text it was made from. */
struct modprobe_plan {
	size_t count;
	struct dep_ref modules[MODPROBE_MAX_MODULES];
};

/* The name of the module in the file path[0..len) as Linux names it:
 * the file's name without its directory and ".ko", with each '-' made
 * '_'. Returns false, with name empty, if that is empty or longer than
 * size - 1. */
bool module_name_of_path(const char *path, size_t len, char *name, size_t size);

/* Plan the loading of module name (a module name, or a file name, as
 * module_name_of_path reads it) from modules.dep's text[0..len):
 * its line, then the lines of what it needs. Returns 0 with *plan
 * filled in; or, with the path at fault in *culprit: -ENOENT if a module
 * has no line (name itself, then culprit is name), -EINVAL if a module
 * needs itself (a cycle), -E2BIG if more than MODPROBE_MAX_MODULES are
 * needed. */
int modules_dep_plan(const char *text, size_t len, const char *name,
		     struct modprobe_plan *plan, struct dep_ref *culprit);

#endif
