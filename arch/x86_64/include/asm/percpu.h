/* Reaching this CPU's struct cpu on x86_64: the GS base register holds
 * its address, and the structure's first field points to itself, so one
 * gs-relative load gives it. Each CPU will set its own GS base when SMP
 * arrives; nothing else needs to change. */
#ifndef ASM_PERCPU_H
#define ASM_PERCPU_H

struct cpu;

static inline struct cpu *this_cpu(void)
{
	struct cpu *cpu;

	__asm__ volatile("movq %%gs:0, %0" : "=r"(cpu));
	return cpu;
}

#endif
