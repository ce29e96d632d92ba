/* Per-CPU state. Everything that belongs to "the CPU I am running on"
 * lives in struct cpu and is reached through this_cpu(), never through a
 * global, so that a second CPU only needs a second struct cpu. */
#ifndef KERNEL_CPU_H
#define KERNEL_CPU_H

#include "lib/types.h"
#include <asm/percpu.h>

#define MAX_CPUS 8

struct thread;
struct kprobe_ctlblk;

struct cpu {
	struct cpu *self;	/* first: this_cpu() loads it (asm/percpu.h) */
	unsigned int id;
	struct thread *current;	/* the thread running here */
	struct thread *idle;	/* runs when nothing else is ready */
	bool need_resched;	/* set by the timer; acted on at trap exit */
	unsigned long irq_depth;	/* nesting of interrupt handlers (a word:
				 * this_cpu_read reads it in one load) */
	struct kprobe_ctlblk *kprobes;	/* the probes layer's state here */
	/* Where nokprobe_begin() counts its nesting (nokprobe.h): at
	 * boot_nokprobe_depth until the probes layer starts, then in the
	 * probes layer's own block, beside the status every hit tests. */
	unsigned int *nokprobe_depth;
	unsigned int boot_nokprobe_depth;
};

/* Read a pointer-sized field of this CPU's struct cpu. On x86_64 this is
 * one instruction where this_cpu()->field is two (load the address, then
 * the field); the probes layer reads such fields on every hit. */
#define this_cpu_read(field) ({							\
	_Static_assert(sizeof(((struct cpu *)0)->field) == sizeof(unsigned long),	\
		       "this_cpu_read reads one word");				\
	(__typeof__(((struct cpu *)0)->field))					\
		arch_this_cpu_read_word(offsetof(struct cpu, field));		\
})

/* Make cpus[id] this CPU's struct cpu (sets the per-CPU base register). */
void cpu_init_this(unsigned int id);
/* How many CPUs have been brought up (one, until SMP arrives). */
unsigned int cpu_count(void);

#endif
