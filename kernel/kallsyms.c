/* /proc/kallsyms: every symbol the kernel can name, in Linux's format.
 *
 *	ffffffff80105a20 T vfs_read
 *	ffffffffa0000000 t handler_pre	[kprobe_example]
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

/* The symbol at *pos, into the open file's own struct symbol. */
static void *kallsyms_start(struct seq_file *m, loff_t *pos)
{
	rcu_read_lock();
	return sym_at((uint64_t)*pos, m->private) == 0 ? m->private : NULL;
}

static void *kallsyms_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return sym_at((uint64_t)*pos, m->private) == 0 ? m->private : NULL;
}

static void kallsyms_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	rcu_read_unlock();
}

static int kallsyms_show(struct seq_file *m, void *v)
{
	const struct symbol *sym = v;

	seq_printf(m, "%016lx %c %s", (unsigned long)sym->addr, sym->type, sym->name);
	if (sym->module)
		seq_printf(m, "\t[%s]", sym->module);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations kallsyms_sops = {
	.start = kallsyms_start, .next = kallsyms_next, .stop = kallsyms_stop,
	.show = kallsyms_show,
};

static int kallsyms_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return seq_open_private(file, &kallsyms_sops, sizeof(struct symbol));
}

static const struct proc_ops kallsyms_proc_ops = {
	.proc_open = kallsyms_open, .proc_read = seq_read, .proc_lseek = seq_lseek,
	.proc_release = seq_release_private,
};

static int kallsyms_proc_init(void)
{
	return proc_create("kallsyms", 0444, NULL, &kallsyms_proc_ops) ? 0 : -ENOMEM;
}
late_initcall(kallsyms_proc_init);
