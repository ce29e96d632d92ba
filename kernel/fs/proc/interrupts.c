/* /proc/interrupts: how many interrupts of each kind each CPU has taken,
 * in Linux's layout: a header with a column per CPU that is up, then a
 * row per interrupt, its label, its counts and what it is:
 *
 *	           CPU0       CPU1       CPU2       CPU3
 *	  4:         21          0          0          0    XT-PIC   4-edge      ttyS0
 *	LOC:         16         16         15         14   Local timer interrupts
 *
 * The rows are the architecture's (arch_irq_row, kernel/arch.h), as
 * Linux's are: their labels and texts differ between x86_64 and aarch64
 * as in Linux. Each count is read from where the interrupt is handled
 * (the row's irq_source), each CPU counting its own without a lock, so
 * the file is a moment's view, not one instant's. */

#include "kernel/arch.h"
#include "kernel/fs/procfs.h"
#include "kernel/initcall.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Linux's width of an interrupt's number, for fewer than 1000 of them:
 * the labels' column, which the header's first column spans too. */
#define LABEL_COLUMNS 3

/* A record is a row's number, the position itself, as in Linux's file. */
static void *interrupts_start(struct seq_file *m, loff_t *pos)
{
	struct irq_row row;

	(void)m;
	return arch_irq_row((unsigned int)*pos, &row) ? pos : NULL;
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

static unsigned long row_count(const struct irq_row *row, unsigned int cpu)
{
	switch (row->source) {
	case IRQ_SOURCE_TIMER:
		return sched_timer_interrupts(cpu);
	case IRQ_SOURCE_IPI:
		return smp_ipis_taken(cpu, (enum ipi_kind)row->which);
	default:
		return arch_irq_count(cpu, row->which);
	}
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
	unsigned int i = (unsigned int)*(loff_t *)v;
	struct irq_row row;

	if (i == 0)
		show_header(m);
	arch_irq_row(i, &row);
	seq_printf(m, "%*s:%s", LABEL_COLUMNS, row.label,
		   strlen(row.label) > LABEL_COLUMNS ? "" : " ");
	for (unsigned int cpu = 0; cpu < smp_cpus_found(); cpu++)
		if (cpu_online(cpu))
			seq_printf(m, "%10lu ", row_count(&row, cpu));
	seq_printf(m, "%s\n", row.text);
	return 0;
}

static const struct seq_operations interrupts_sops = {
	.start = interrupts_start, .next = interrupts_next, .stop = interrupts_stop,
	.show = interrupts_show,
};

static int proc_interrupts_init(void)
{
	return proc_create_seq("interrupts", 0444, NULL, &interrupts_sops) ? 0 : -ENOMEM;
}
late_initcall(proc_interrupts_init);
