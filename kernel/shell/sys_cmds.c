/* Shell commands about the system as a whole: ps, cpus, mem, uptime,
 * poweroff. */
#include "kernel/arch.h"
#include "kernel/mm/frame.h"
#include "kernel/mm/heap.h"
#include "kernel/cmd_output.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "kernel/shell/shell.h"
#include "lib/string.h"

#define PS_MAX 64
/* Status QEMU exits with after poweroff: (0x10 << 1) | 1 = 33 on x86_64. */
#define POWEROFF_CODE 0x10

struct ps_row {
	unsigned int id;
	unsigned int cpu;
	enum thread_state state;
	uint64_t run_ticks;
	char name[THREAD_NAME_MAX + 1];
};

struct ps_snapshot {
	struct ps_row rows[PS_MAX];
	size_t n;
};

/* Copy each thread's fields under the scheduler lock; print afterwards. */
static void ps_collect(const struct thread *t, void *ctx)
{
	struct ps_snapshot *snap = ctx;
	struct ps_row *row;

	if (snap->n == PS_MAX || t->state == THREAD_DEAD)
		return;
	row = &snap->rows[snap->n++];
	row->id = t->id;
	row->cpu = t->cpu;
	row->state = t->state;
	row->run_ticks = t->run_ticks;
	strlcpy(row->name, t->name, sizeof(row->name));
}

static int cmd_ps(int argc, char **argv)
{
	/* Too big for a stack, and each ps's own (two may run at once in a
	 * pipeline). */
	struct ps_snapshot *snap = kzalloc(sizeof(*snap));

	(void)argc;
	(void)argv;
	if (!snap) {
		cmd_eprintf("ps: %s\n", strerror(-ENOMEM));
		return -ENOMEM;
	}
	sched_for_each_thread(ps_collect, snap);
	cmd_printf("%4s  %3s  %-9s %8s  %s\n", "ID", "CPU", "STATE", "TICKS", "NAME");
	for (size_t i = 0; i < snap->n; i++)
		cmd_printf("%4u  %3u  %-9s %8lu  %s\n", snap->rows[i].id, snap->rows[i].cpu,
			thread_state_name(snap->rows[i].state),
			(unsigned long)snap->rows[i].run_ticks, snap->rows[i].name);
	kfree(snap);
	return 0;
}
SHELL_COMMAND("ps", "", "list threads", cmd_ps);

static int cmd_cpus(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cmd_printf("%-4s %-12s %s\n", "CPU", "HWID", "STATE");
	for (unsigned int id = 0; id < smp_cpus_found(); id++)
		cmd_printf("%-4u 0x%-10lx %s\n", id, (unsigned long)cpu_hw_id(id),
			!cpu_online(id) ? "offline" : "online");
	return 0;
}
SHELL_COMMAND("cpus", "", "list the CPUs and their state", cmd_cpus);

static int cmd_mem(int argc, char **argv)
{
	struct frame_stats fs;
	struct heap_stats hs;

	(void)argc;
	(void)argv;
	frame_get_stats(&fs);
	heap_get_stats(&hs);
	cmd_printf("frames: %zu used of %zu (%zu KiB free)\n", fs.used, fs.total,
		(fs.total - fs.used) * 4);
	cmd_printf("heap: %zu bytes in %zu allocations, %zu pages mapped, %zu free blocks\n",
		hs.bytes_in_use, hs.allocations, hs.pages, hs.free_blocks);
	return 0;
}
SHELL_COMMAND("mem", "", "show physical frames and heap usage", cmd_mem);

static int cmd_uptime(int argc, char **argv)
{
	uint64_t t = sched_ticks();

	(void)argc;
	(void)argv;
	/* The cycle counter too: it is what the shell's kretprobes time
	 * calls in (`trace`), so a duration can be read against it. */
	cmd_printf("up %lu.%02lu s (%lu ticks, %lu cycles)\n", (unsigned long)(t / TIMER_HZ),
		(unsigned long)(t % TIMER_HZ * 100 / TIMER_HZ), (unsigned long)t,
		(unsigned long)arch_cycles());
	return 0;
}
SHELL_COMMAND("uptime", "", "time since boot", cmd_uptime);

static int cmd_poweroff(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cmd_printf("powering off\n");
	arch_poweroff(POWEROFF_CODE);
}
SHELL_COMMAND("poweroff", "", "stop the machine (QEMU exits)", cmd_poweroff);
