/* The per-CPU structures (see cpu.h). */
#include "kernel/cpu.h"
#include "kernel/arch.h"
#include "kernel/percpu.h"
#include "lib/string.h"
#include <asm/current.h>

extern char __percpu_start[], __percpu_end[];

static struct cpu cpus[MAX_CPUS];
static unsigned int ncpus;
/* Every CPU's copy of the .percpu section, CPU 0's too, one unit apart:
 * the same distance between any two CPUs' copies is what lets the
 * per-CPU allocator (kernel/mm/percpu_alloc.c) lay out its chunks so
 * that the same offsets reach them. */
static char percpu_areas[MAX_CPUS][PERCPU_UNIT_SIZE] __aligned(64);

unsigned long percpu_offset_of(unsigned int id)
{
	return (unsigned long)(percpu_areas[id] - __percpu_start);
}

/* CPU id's copy of the per-CPU variables, as its distance from the linked
 * copy, which stays untouched as the template: each CPU starts from a
 * copy of it, made before anything else runs there. */
static unsigned long percpu_setup(unsigned int id)
{
	size_t size = (size_t)(__percpu_end - __percpu_start);

	if (size > PERCPU_UNIT_SIZE)
		arch_poweroff(1);	/* too early to print: grow PERCPU_UNIT_SIZE */
	memcpy(percpu_areas[id], __percpu_start, size);
	return percpu_offset_of(id);
}

void cpu_init_this(unsigned int id)
{
	struct cpu *cpu = &cpus[id];

	cpu->self = cpu;
	cpu->id = id;
	cpu->percpu_offset = percpu_setup(id);
	arch_set_percpu_base(cpu);
	arch_set_current_thread(NULL);	/* none yet: sched_init adopts one */
	if (id >= ncpus)
		ncpus = id + 1;
}

struct cpu *cpu_of(unsigned int id)
{
	return &cpus[id];
}

unsigned int cpu_count(void)
{
	return ncpus;
}
