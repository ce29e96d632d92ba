/* Listing the loaded modules: what lsmod (module_cmds.c) and /proc/modules
 * show of each, with Linux's columns, from the same functions.
 *
 *	probeos> cat /proc/modules
 *	mod_user 8192 0 - Live 0xffffffffa0003000
 *	mod_exporter 12288 1 mod_user, Live 0xffffffffa0000000
 *
 * A line of /proc/modules is the name, the bytes of memory the module
 * holds, how many modules use it and which ("-" for none; each name
 * followed by a comma, and "[permanent]," for a module that cannot be
 * removed, as Linux writes them), its state and the address of its code,
 * whole, as Linux shows it to root. Newest module first, as in Linux. */

#include "kernel/fs/procfs.h"
#include "kernel/initcall.h"
#include "kernel/module/internal.h"
#include "lib/errno.h"

size_t module_size(const struct module *mod)
{
	return mod->core_layout.size + mod->init_layout.size;
}

const char *module_state_name(const struct module *mod)
{
	static const char *const names[] = {
		[MODULE_STATE_COMING] = "Loading", [MODULE_STATE_LIVE] = "Live",
		[MODULE_STATE_GOING] = "Unloading",
	};
	return names[mod->state];
}

/* ---- /proc/modules ---- */

/* The list is walked under the modules' mutex, from start to stop: a
 * module cannot go while its line is made. */
static void *modules_start(struct seq_file *m, loff_t *pos)
{
	(void)m;
	modules_lock();
	return seq_list_start(&modules, *pos);
}

static void *modules_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)m;
	return seq_list_next(v, &modules, pos);
}

static void modules_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	modules_unlock();
}

static int modules_show(struct seq_file *m, void *v)
{
	const struct module *mod = list_entry((struct list_node *)v, struct module, node);
	const struct module *user = module_next_user(mod, NULL);
	bool permanent = mod->init && !mod->exit;

	seq_printf(m, "%s %zu %u ", mod->name, module_size(mod), mod->users);
	for (; user; user = module_next_user(mod, user))
		seq_printf(m, "%s,", user->name);
	if (permanent)
		seq_puts(m, "[permanent],");
	if (!mod->users && !permanent)
		seq_putc(m, '-');
	seq_printf(m, " %s 0x%016lx\n", module_state_name(mod),
		   (unsigned long)mod->core_layout.base);
	return 0;
}

static const struct seq_operations modules_sops = {
	.start = modules_start, .next = modules_next, .stop = modules_stop,
	.show = modules_show,
};

static int proc_modules_init(void)
{
	return proc_create_seq("modules", 0444, NULL, &modules_sops) ? 0 : -ENOMEM;
}
late_initcall(proc_modules_init);
