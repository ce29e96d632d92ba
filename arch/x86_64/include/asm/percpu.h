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

/* One word of this CPU's struct cpu at byte offset off (a constant), in
 * a single gs-relative load: used by this_cpu_read (kernel/cpu.h). */
#define arch_this_cpu_read_word(off) ({						\
	unsigned long word__;							\
	__asm__ volatile("movq %%gs:%c1, %0" : "=r"(word__) : "i"(off));	\
	word__;									\
})

/* The same for a word that never changes while the thread stays on its
 * CPU (the per-CPU offset): not volatile, so the compiler may reuse one
 * load for every read in a function. */
#define arch_this_cpu_read_stable_word(off) ({					\
	unsigned long word__;							\
	__asm__("movq %%gs:%c1, %0" : "=r"(word__) : "i"(off));		\
	word__;									\
})

#endif
