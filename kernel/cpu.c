/* The per-CPU structures (see cpu.h). */
#include "kernel/cpu.h"
#include "kernel/arch.h"
#include <asm/current.h>

static struct cpu cpus[MAX_CPUS];
static unsigned int ncpus;

void cpu_init_this(unsigned int id)
{
	struct cpu *cpu = &cpus[id];

	cpu->self = cpu;
	cpu->id = id;
	cpu->nokprobe_depth = &cpu->boot_nokprobe_depth;
	arch_set_percpu_base(cpu);
	arch_set_current_thread(NULL);	/* none yet: sched_init adopts one */
	if (id >= ncpus)
		ncpus = id + 1;
}

unsigned int cpu_count(void)
{
	return ncpus;
}
