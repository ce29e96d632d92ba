/*
 * The per_cpu directory of tracefs (see tracefs_per_cpu.h), and the one
 * file only it has, stats, in Linux's format:
 *
 *   entries: 12            records of this CPU a read of trace would show
 *   overrun: 0             records overwritten before anyone saw them
 *   commit overrun: 0      (Linux's, for a writer nested in a reserve:
 *                          never, here)
 *   bytes: 384             what those records take in the ring
 *   oldest event ts:    41.069216   the oldest one's time stamp
 *   now ts:    52.305179   the clock now
 *   dropped events: 0      records dropped while this CPU's recording
 *                          was paused (the shell's trace command)
 *   read events: 3         records trace_pipe consumed
 */
#include "kernel/cpu.h"
#include "kernel/fs/seq_file.h"
#include "kernel/fs/tracefs.h"
#include "kernel/initcall.h"
#include "kernel/mm/heap.h"
#include "kernel/mutex.h"
#include "kernel/time.h"
#include "kernel/trace/trace.h"
#include "kernel/trace/tracefs_per_cpu.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/format.h"

/* Each CPU's number, for its files' inode data to point at. */
static unsigned int cpu_numbers[MAX_CPUS];
static struct dentry *cpu_dirs[MAX_CPUS];
static struct mutex dirs_lock = MUTEX_INIT(dirs_lock, "tracefs_per_cpu");

/* per_cpu/cpuN for every CPU up, made once. */
static int make_dirs(void)
{
	struct dentry *top;
	char name[16];

	if (cpu_dirs[0])
		return 0;
	top = tracefs_create_dir("per_cpu", NULL);
	if (IS_ERR(top))
		return (int)PTR_ERR(top);
	for (unsigned int cpu = 0; cpu < cpu_count(); cpu++) {
		snprintf(name, sizeof(name), "cpu%u", cpu);
		cpu_numbers[cpu] = cpu;
		cpu_dirs[cpu] = tracefs_create_dir(name, top);
		if (IS_ERR(cpu_dirs[cpu])) {
			int err = (int)PTR_ERR(cpu_dirs[cpu]);

			cpu_dirs[cpu] = NULL;
			return err;
		}
	}
	return 0;
}

int tracefs_create_per_cpu_files(const char *name, umode_t mode,
				 const struct file_operations *fops)
{
	int err;

	mutex_lock(&dirs_lock);
	err = make_dirs();
	for (unsigned int cpu = 0; cpu < cpu_count() && !err; cpu++)
		err = PTR_ERR_OR_ZERO(tracefs_create_file(name, mode, cpu_dirs[cpu],
							  &cpu_numbers[cpu], fops));
	mutex_unlock(&dirs_lock);
	return err;
}

int tracefs_file_cpu(const struct inode *inode)
{
	const unsigned int *cpu = inode->i_private;

	return cpu ? (int)*cpu : -1;
}

/* Seconds and microseconds of a time in nanoseconds, as Linux prints
 * a time stamp. */
static void print_time(struct seq_file *m, const char *what, uint64_t ns)
{
	seq_printf(m, "%s: %5llu.%06llu\n", what, (unsigned long long)(ns / 1000000000),
		   (unsigned long long)(ns / 1000 % 1000000));
}

static int stats_show(struct seq_file *m, void *v)
{
	unsigned int cpu = *(const unsigned int *)m->private, seen;
	struct ring_buffer_cursor *c = kmalloc(sizeof(*c));
	uint64_t entries = 0, bytes = 0, oldest = 0;
	const struct ring_entry *e;
	struct ring_buffer *rb;

	(void)v;
	if (!c)
		return -ENOMEM;
	trace_lock();
	rb = trace_buffer_locked();
	if (!rb) {
		trace_unlock();
		kfree(c);
		return -ENODEV;
	}
	ring_buffer_cursor_start(rb, c);
	ring_buffer_cursor_only(c, cpu);
	ring_buffer_cursor_bound(rb, c);
	while ((e = ring_buffer_next(rb, c, &seen)) != NULL) {
		if (!entries)
			oldest = e->time;
		entries++;
		bytes += ring_record_bytes(e->len);
	}
	seq_printf(m, "entries: %llu\n", (unsigned long long)entries);
	seq_printf(m, "overrun: %llu\n", (unsigned long long)ring_buffer_overrun(rb, cpu));
	seq_printf(m, "commit overrun: 0\n");
	seq_printf(m, "bytes: %llu\n", (unsigned long long)bytes);
	print_time(m, "oldest event ts", entries ? (uint64_t)ktime_from_cycles(oldest) : 0);
	print_time(m, "now ts", (uint64_t)ktime_get());
	seq_printf(m, "dropped events: %llu\n", (unsigned long long)trace_dropped(cpu));
	seq_printf(m, "read events: %llu\n", (unsigned long long)ring_buffer_read_count(rb, cpu));
	trace_unlock();
	kfree(c);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static int tracefs_per_cpu_init(void)
{
	return tracefs_create_per_cpu_files("stats", 0444, &stats_fops);
}
late_initcall(tracefs_per_cpu_init);
