/* The per-CPU structures (see cpu.h). */
#include "kernel/cpu.h"
#include "kernel/arch.h"
#include "lib/string.h"
#include <asm/current.h>

/* Room for each other CPU's copy of the .percpu section (percpu.h). */
#define PERCPU_AREA_SIZE 2048

extern char __percpu_start[], __percpu_end[];

static struct cpu cpus[MAX_CPUS];
static unsigned int ncpus;
static char percpu_areas[MAX_CPUS][PERCPU_AREA_SIZE] __aligned(64);

/* CPU id's copy of the per-CPU variables, as its distance from the linked
 * copy. Every CPU, the boot CPU included, works on a copy of its own, made
 * before anything runs there: the linked copy is never written, so it
 * still holds the initial values when a CPU started later copies it. */
static unsigned long percpu_setup(unsigned int id)
{
	size_t size = (size_t)(__percpu_end - __percpu_start);
	char *area;

	if (size > PERCPU_AREA_SIZE)
		arch_poweroff(1);	/* too early to print: grow PERCPU_AREA_SIZE */
	area = percpu_areas[id];
	memcpy(area, __percpu_start, size);
	return (unsigned long)(area - __percpu_start);
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
