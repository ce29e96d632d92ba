/* /sys/kernel/tracing/available_filter_functions: every function the
 * function tracer can trace, one a line, in Linux's format: its name,
 * and "NAME [MODULE]" for a loaded module's. They are the functions
 * with a call site (kernel/trace/ftrace_sites.h), listed in the sites'
 * order: the kernel's by address, then each module's. A function that
 * is notrace (lib/types.h) is not there. */
#include "kernel/fs/seq_file.h"
#include "kernel/fs/tracefs.h"
#include "kernel/initcall.h"
#include "kernel/rcu.h"
#include "kernel/symtab.h"
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
static int functions_show(struct seq_file *m, void *v)
{
	uintptr_t ip;
	const char *module;
	struct symbol sym;

	ftrace_site_nth((uint64_t)*(loff_t *)v, &ip, &module);
	if (sym_by_addr(ip, &sym) == 0)
		seq_printf(m, "%s", sym.name);
	else
		seq_printf(m, "0x%lx", (unsigned long)ip);
	if (module)
		seq_printf(m, " [%s]", module);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations functions_sops = {
	.start = functions_start, .next = functions_next, .stop = functions_stop,
	.show = functions_show,
};
DEFINE_SEQ_ATTRIBUTE(functions);

static int tracefs_functions_init(void)
{
	return PTR_ERR_OR_ZERO(tracefs_create_file("available_filter_functions", 0444, NULL,
						   NULL, &functions_fops));
}
late_initcall(tracefs_functions_init);
