/* /sys/module/NAME/parameters/PARAM: each loaded module's parameters,
 * as Linux shows them, read-only. A parameter declared with mode 0 has
 * no file (as in Linux); bools read Y or N.
 *
 * The directory is made when a module is COMING (its parameters are
 * set, its init has not run) and removed when it is GOING, before its
 * memory, where the values are, is freed: pseudofs_remove waits for any
 * read still running. */
#include "kernel/fs/seq_file.h"
#include "kernel/fs/sysfs.h"
#include "kernel/initcall.h"
#include "kernel/module/module.h"
#include "kernel/module/moduleparam.h"
#include "kernel/printk.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/format.h"

static int param_show(struct seq_file *m, void *v)
{
	const struct kernel_param *kp = m->private;
	const char *charp;

	(void)v;
	switch (kp->type) {
	case PARAM_TYPE_int:
		seq_printf(m, "%d\n", *(int *)kp->arg);
		break;
	case PARAM_TYPE_uint:
		seq_printf(m, "%u\n", *(unsigned int *)kp->arg);
		break;
	case PARAM_TYPE_long:
		seq_printf(m, "%ld\n", *(long *)kp->arg);
		break;
	case PARAM_TYPE_ulong:
		seq_printf(m, "%lu\n", *(unsigned long *)kp->arg);
		break;
	case PARAM_TYPE_bool:
		seq_puts(m, *(bool *)kp->arg ? "Y\n" : "N\n");
		break;
	case PARAM_TYPE_charp:
		charp = *(char **)kp->arg;
		seq_printf(m, "%s\n", charp ? charp : "(null)");
		break;
	case PARAM_TYPE_string:
		seq_printf(m, "%s\n", (char *)kp->arg);
		break;
	}
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(param);

/* module/NAME, and in parameters/ a file for each parameter shown. */
static int make_module_dir(struct module *mod)
{
	char name[8 + MODULE_NAME_LEN];
	struct pseudo_node *params = NULL;

	snprintf(name, sizeof(name), "module/%s", mod->name);
	mod->sysfs_dir = pseudofs_create(&sysfs, NULL, &(struct pseudo_spec){ .name = name });
	if (IS_ERR(mod->sysfs_dir))
		return (int)PTR_ERR(mod->sysfs_dir);
	for (size_t i = 0; i < mod->num_params; i++) {
		const struct kernel_param *kp = &mod->params[i];
		struct pseudo_node *file;

		if (!kp->perm)
			continue;
		if (!params)
			params = pseudofs_create(&sysfs, mod->sysfs_dir,
						 &(struct pseudo_spec){ .name = "parameters" });
		if (IS_ERR(params))
			return (int)PTR_ERR(params);
		file = pseudofs_create(&sysfs, params, &(struct pseudo_spec){
			.name = kp->name, .fops = &param_fops, .data = (void *)kp,
		});
		if (IS_ERR(file))
			return (int)PTR_ERR(file);
	}
	return 0;
}

static void module_sysfs_notify(struct module_notifier *nb, enum module_state state,
				struct module *mod)
{
	int err;

	(void)nb;
	if (state == MODULE_STATE_COMING) {
		err = make_module_dir(mod);
		if (err)
			kprintf("sysfs: cannot make /sys/module/%s: %s\n", mod->name, strerror(err));
	} else if (state == MODULE_STATE_GOING) {
		pseudofs_remove(mod->sysfs_dir);
		mod->sysfs_dir = NULL;
	}
}

static struct module_notifier module_sysfs_notifier = {
	.notify = module_sysfs_notify,
};

static int module_sysfs_init(void)
{
	register_module_notifier(&module_sysfs_notifier);
	return 0;
}
late_initcall(module_sysfs_init);
