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
	unsigned int irq_depth;	/* nesting of interrupt handlers */
	struct kprobe_ctlblk *kprobes;	/* the probes layer's state here */
};

/* Make cpus[id] this CPU's struct cpu (sets the per-CPU base register). */
void cpu_init_this(unsigned int id);
/* How many CPUs have been brought up (one, until SMP arrives). */
unsigned int cpu_count(void);

#endif
