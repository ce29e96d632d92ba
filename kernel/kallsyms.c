/* /proc/kallsyms: every symbol the kernel can name, in Linux's format.
 *
 *	ffffffff8020e680 T vfs_read
 *	ffffffff82000000 T exporter_add	[mod_exporter]
 *
 * The address, whole (Linux shows it so to root, and ProbeOS's one user
 * is root), the type letter (kernel/symtab.h), the name, and for a
 * module's symbol a tab and the module's name in brackets: first the
 * kernel's own table, in address order, then each loaded module's.
 *
 * A record is a position in that listing (sym_at), and there are
 * thousands: seq_file makes them a bufferful at a time, so a reader with
 * any buffer reads them all. A module's names are freed a grace period
 * after it is removed, so each bufferful is made inside one read-side
 * section (start takes it, stop gives it back); a module removed between
 * two reads only shifts the positions after its own, as in Linux, where
 * the listing may then skip or repeat a line. */

#include "kernel/fs/procfs.h"
#include "kernel/initcall.h"
#include "kernel/rcu.h"
#include "kernel/symtab.h"
#include "lib/errno.h"

/* A record is a position, as sym_at counts them. */
static void *kallsyms_start(struct seq_file *m, loff_t *pos)
{
	struct symbol sym;

	(void)m;
	rcu_read_lock();
	return sym_at((uint64_t)*pos, &sym) == 0 ? pos : NULL;
}

static void *kallsyms_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct symbol sym;

	(void)m;
	(void)v;
	++*pos;
	return sym_at((uint64_t)*pos, &sym) == 0 ? pos : NULL;
}

static void kallsyms_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	rcu_read_unlock();
}

/* Inside start's read-side section still: the symbol at this position
 * is the one start or next found, and its name stays while it is
 * printed. */
static int kallsyms_show(struct seq_file *m, void *v)
{
	struct symbol sym;

	sym_at((uint64_t)*(loff_t *)v, &sym);
	seq_printf(m, "%016lx %c %s", (unsigned long)sym.addr, sym.type, sym.name);
	if (sym.module)
		seq_printf(m, "\t[%s]", sym.module);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations kallsyms_sops = {
	.start = kallsyms_start, .next = kallsyms_next, .stop = kallsyms_stop,
	.show = kallsyms_show,
};

static int kallsyms_proc_init(void)
{
	return proc_create_seq("kallsyms", 0444, NULL, &kallsyms_sops) ? 0 : -ENOMEM;
}
late_initcall(kallsyms_proc_init);
