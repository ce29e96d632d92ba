/* Two lists of the functions with a call site (kernel/trace/
 * ftrace_sites.h), in /sys/kernel/tracing, in Linux's formats, one
 * function a line, "NAME [MODULE]" for a loaded module's:
 *
 *   available_filter_functions   every function the function tracer
 *                                can trace, in the sites' order: the
 *                                kernel's by address, then each
 *                                module's (a notrace function, lib/
 *                                types.h, is not there)
 *   enabled_functions            those whose site calls now, each with
 *                                how many users want it and Linux's
 *                                flags: " R" if the site calls the
 *                                trampoline that saves the registers
 *                                (a user reads them) and " I" if a
 *                                user may change where the call goes
 *                                (FTRACE_OPS_IPMODIFY)
 */
#include "kernel/fs/seq_file.h"
#include "kernel/fs/tracefs.h"
#include "kernel/initcall.h"
#include "kernel/rcu.h"
#include "kernel/symtab.h"
#include "kernel/trace/ftrace.h"
#include "kernel/trace/ftrace_sites.h"
#include "lib/err.h"

/* A record is a position, as ftrace_site_nth counts them; the walk is
 * one RCU read-side section, which keeps the modules' tables. */
static void *functions_start(struct seq_file *m, loff_t *pos)
{
	uintptr_t ip;
	const char *module;

	(void)m;
	rcu_read_lock();
	return ftrace_site_nth((uint64_t)*pos, &ip, &module) == 0 ? pos : NULL;
}

static void *functions_next(struct seq_file *m, void *v, loff_t *pos)
{
	uintptr_t ip;
	const char *module;

	(void)m;
	(void)v;
	++*pos;
	return ftrace_site_nth((uint64_t)*pos, &ip, &module) == 0 ? pos : NULL;
}

static void functions_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	rcu_read_unlock();
}

/* A site is its function's first byte, so the symbol there is the
 * function. */
static void show_function(struct seq_file *m, uintptr_t ip, const char *module)
{
	struct symbol sym;

	if (sym_by_addr(ip, &sym) == 0)
		seq_printf(m, "%s", sym.name);
	else
		seq_printf(m, "0x%lx", (unsigned long)ip);
	if (module)
		seq_printf(m, " [%s]", module);
}

static int functions_show(struct seq_file *m, void *v)
{
	uintptr_t ip;
	const char *module;

	ftrace_site_nth((uint64_t)*(loff_t *)v, &ip, &module);
	show_function(m, ip, module);
	seq_putc(m, '\n');
	return 0;
}

/* A site no user wants prints nothing. */
static int enabled_show(struct seq_file *m, void *v)
{
	uintptr_t ip;
	const char *module;
	unsigned int users;
	bool regs, ipmodify;

	ftrace_site_nth((uint64_t)*(loff_t *)v, &ip, &module);
	users = ftrace_site_users(ip, &regs, &ipmodify);
	if (!users)
		return 0;
	show_function(m, ip, module);
	/* Linux's columns: two characters a flag, blank when not set (its
	 * third, " D", a direct call, ProbeOS does not have). */
	seq_printf(m, " (%u)%s%s  \n", users, regs ? " R" : "  ", ipmodify ? " I" : "  ");
	return 0;
}

static const struct seq_operations functions_sops = {
	.start = functions_start, .next = functions_next, .stop = functions_stop,
	.show = functions_show,
};
DEFINE_SEQ_ATTRIBUTE(functions);

static const struct seq_operations enabled_sops = {
	.start = functions_start, .next = functions_next, .stop = functions_stop,
	.show = enabled_show,
};
DEFINE_SEQ_ATTRIBUTE(enabled);

static int tracefs_functions_init(void)
{
	int err = PTR_ERR_OR_ZERO(tracefs_create_file("available_filter_functions", 0444, NULL,
						      NULL, &functions_fops));

	return err ? err : PTR_ERR_OR_ZERO(tracefs_create_file("enabled_functions", 0444, NULL,
								NULL, &enabled_fops));
}
late_initcall(tracefs_functions_init);
