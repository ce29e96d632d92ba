/*
 * /sys/kernel/debug/kprobes/blacklist: the code that may never be
 * probed, one function a line, as Linux lists it: its first address,
 * the address just past it, a tab, and its name (with its module, on a
 * module's code):
 *
 *   0xffffffff80105000-0xffffffff80105022	jprobe_trampoline
 *
 * The kernel's functions come from kernel/nokprobe.c (NOKPROBE_SYMBOL,
 * .kprobes.text, the entry text), then each loaded module's
 * (module_for_each_nokprobe). register_kprobe refuses every address in
 * them with -EINVAL.
 *
 * The file is one record, made whole by each read that needs it: a few
 * hundred lines, walked from the symbol tables, which change only when a
 * module comes or goes. Made under the modules' mutex, it never has half
 * of a module that is leaving.
 */
#include "kernel/fs/seq_file.h"
#include "kernel/initcall.h"
#include "kernel/module/module.h"
#include "kernel/nokprobe.h"
#include "kernel/probes/files/kprobes_dir.h"
#include "lib/err.h"

static int print_function(const struct symbol *sym, void *arg)
{
	seq_printf(arg, "0x%016lx-0x%016lx\t%s", (unsigned long)sym->addr,
		   (unsigned long)(sym->addr + sym->size), sym->name);
	if (sym->module)
		seq_printf(arg, " [%s]", sym->module);
	seq_putc(arg, '\n');
	/* A full buffer ends the walk: seq_file makes the file again in
	 * a bigger one. */
	return seq_has_overflowed(arg);
}

static void print_module(struct module *mod, void *m)
{
	module_for_each_nokprobe(mod, print_function, m);
}

static int blacklist_show(struct seq_file *m, void *v)
{
	(void)v;
	nokprobe_for_each(print_function, m);
	module_for_each(print_module, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(blacklist);

static int kprobes_blacklist_init(void)
{
	return PTR_ERR_OR_ZERO(debugfs_create_file("blacklist", 0400, kprobes_debugfs_dir(), NULL,
						   &blacklist_fops));
}
late_initcall(kprobes_blacklist_init);
