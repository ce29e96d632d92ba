/* /proc/cpuinfo: a block for each CPU that is up, as Linux prints it:
 * "processor : N", then what the architecture knows of that CPU
 * (arch_cpuinfo_field: CPUID's fields on x86_64, MIDR_EL1's on aarch64,
 * each under Linux's name for it there), then an empty line.
 *
 *	processor	: 0
 *	vendor_id	: AuthenticAMD
 *	...
 *
 * A record is a CPU number, the position itself (as Linux's
 * /proc/interrupts walks its rows): start skips the CPUs that are not
 * up. */

#include "kernel/arch.h"
#include "kernel/fs/procfs.h"
#include "kernel/initcall.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

/* The longest value a field has (x86_64's model name: 48 characters). */
#define VALUE_MAX 64
/* Linux's lines put the colon in column 16, with tabs. */
#define NAME_COLUMNS 16

static void *cpuinfo_start(struct seq_file *m, loff_t *pos)
{
	(void)m;
	while (*pos < smp_cpus_found() && !cpu_online((unsigned int)*pos))
		++*pos;
	return *pos < smp_cpus_found() ? pos : NULL;
}

static void *cpuinfo_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return cpuinfo_start(m, pos);
}

static void cpuinfo_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
}

/* "name<tabs>: value": tabs up to column 16, none for a longer name
 * ("CPU architecture: 8"). */
static void show_field(struct seq_file *m, const char *name, const char *value)
{
	size_t len = strlen(name);
	int tabs = len < NAME_COLUMNS ? (int)(NAME_COLUMNS - len + 7) / 8 : 0;

	seq_printf(m, "%s%.*s: %s\n", name, tabs, "\t\t", value);
}

static int cpuinfo_show(struct seq_file *m, void *v)
{
	unsigned int id = (unsigned int)*(loff_t *)v;
	char value[VALUE_MAX];
	const char *name;

	snprintf(value, sizeof(value), "%u", id);
	show_field(m, "processor", value);
	for (unsigned int i = 0; arch_cpuinfo_field(id, i, &name, value, sizeof(value)); i++)
		show_field(m, name, value);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations cpuinfo_sops = {
	.start = cpuinfo_start, .next = cpuinfo_next, .stop = cpuinfo_stop,
	.show = cpuinfo_show,
};

static int proc_cpuinfo_init(void)
{
	return proc_create_seq("cpuinfo", 0444, NULL, &cpuinfo_sops) ? 0 : -ENOMEM;
}
late_initcall(proc_cpuinfo_init);
