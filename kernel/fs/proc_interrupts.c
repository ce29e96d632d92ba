/* /proc/interrupts: how many interrupts of each kind each CPU has taken,
 * in Linux's layout: a header with a column per CPU that is up, then a
 * row per interrupt, its label, its counts and what it is:
 *
 *	           CPU0       CPU1
 *	  4:          3          0    XT-PIC   4-edge      ttyS0
 *	LOC:        812        809   Local timer interrupts
 *
 * The rows are the architecture's (arch_irq_row, kernel/arch.h), as
 * Linux's are: their labels and texts differ between x86_64 and aarch64
 * as in Linux. Each count is read from where the interrupt is handled,
 * each CPU counting its own without a lock, so the file is a moment's
 * view, not one instant's. */

#include "kernel/arch.h"
#include "kernel/fs/procfs.h"
#include "kernel/initcall.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Linux's width of an interrupt's number, for fewer than 1000 of them:
 * the labels' column, which the header's first column spans too. */
#define LABEL_COLUMNS 3

/* The row a walk is at, in the open file's m->private. */
struct walk {
	unsigned int index;
	struct irq_row row;
};

static void *interrupts_start(struct seq_file *m, loff_t *pos)
{
	struct walk *w = m->private;

	w->index = (unsigned int)*pos;
	return arch_irq_row(w->index, &w->row) ? w : NULL;
}

static void *interrupts_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return interrupts_start(m, pos);
}

static void interrupts_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
}

static void show_header(struct seq_file *m)
{
	seq_printf(m, "%*s", LABEL_COLUMNS + 8, "");
	for (unsigned int cpu = 0; cpu < smp_cpus_found(); cpu++)
		if (cpu_online(cpu))
			seq_printf(m, "CPU%-8u", cpu);
	seq_putc(m, '\n');
}

/* The label right-aligned before its colon, and a space after it unless
 * the label is wider than the column (aarch64's "IPI0:"). */
static int interrupts_show(struct seq_file *m, void *v)
{
	const struct walk *w = v;
	const struct irq_row *row = &w->row;

	if (w->index == 0)
		show_header(m);
	seq_printf(m, "%*s:%s", LABEL_COLUMNS, row->label,
		   strlen(row->label) > LABEL_COLUMNS ? "" : " ");
	for (unsigned int cpu = 0; cpu < smp_cpus_found(); cpu++)
		if (cpu_online(cpu))
			seq_printf(m, "%10lu ", row->count(cpu));
	seq_printf(m, "%s\n", row->text);
	return 0;
}

static const struct seq_operations interrupts_sops = {
	.start = interrupts_start, .next = interrupts_next, .stop = interrupts_stop,
	.show = interrupts_show,
};

static int interrupts_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return seq_open_private(file, &interrupts_sops, sizeof(struct walk));
}

static const struct proc_ops interrupts_proc_ops = {
	.proc_open = interrupts_open, .proc_read = seq_read, .proc_lseek = seq_lseek,
	.proc_release = seq_release_private,
};

static int proc_interrupts_init(void)
{
	return proc_create("interrupts", 0444, NULL, &interrupts_proc_ops) ? 0 : -ENOMEM;
}
late_initcall(proc_interrupts_init);
