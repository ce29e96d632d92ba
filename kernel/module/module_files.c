/* A module's pseudo files go with it. Debugfs, procfs, sysfs and
 * tracefs files remember the code that made them (kernel/fs/pseudofs.h);
 * once a module's exit has run, or its init failed, nothing of its code
 * may be called, so whatever files it left are removed with a warning.
 * Files its init made are handed to its core first, since the init code
 * is freed once init has returned. */
#include "kernel/fs/pseudofs.h"
#include "kernel/initcall.h"
#include "kernel/module/module.h"
#include "lib/format.h"

static void module_files_notify(struct module_notifier *nb, enum module_state state,
				struct module *mod)
{
	char who[8 + MODULE_NAME_LEN];

	(void)nb;
	if (state == MODULE_STATE_LIVE) {
		pseudofs_move_made_by(mod->init_layout.base, mod->init_layout.size,
				      mod->core_layout.base);
	} else if (state == MODULE_STATE_GOING) {
		snprintf(who, sizeof(who), "module %s", mod->name);
		pseudofs_remove_made_by(mod->core_layout.base, mod->core_layout.size, who);
		pseudofs_remove_made_by(mod->init_layout.base, mod->init_layout.size, who);
	}
}

static struct module_notifier module_files_notifier = {
	.notify = module_files_notify,
};

static int module_files_init(void)
{
	register_module_notifier(&module_files_notifier);
	return 0;
}
late_initcall(module_files_init);
