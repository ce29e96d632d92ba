/*
 * jprobes: run a handler with the probed function's own arguments.
 *
 * A jprobe is a kprobe on a function's first instruction whose
 * pre-handler (setjmp_pre_handler) saves the registers and the top of the
 * stack, then points the instruction pointer at the jprobe's entry
 * function. The trap returns into the entry function with exactly the
 * registers and stack the probed function would have had, so a C function
 * with the same signature sees the same arguments.
 *
 * The entry function ends with jprobe_return(), which does not trap: the
 * saved registers are already a trap frame. jprobe_return_regs()
 * (kprobe_trap.c, with the rest of a hit) puts back the saved top of the
 * stack - whatever the entry function did to it - and starts the probed
 * function's first instruction as for any kprobe; then the back end's
 * jprobe_return moves its stack pointer to the saved registers and leaves
 * through the trap return path, which resumes them.
 */
#include "kernel/probes/kprobes_internal.h"
#include <asm/irq.h>

static int setjmp_pre_handler(struct kprobe *p, struct pt_regs *regs)
{
	struct jprobe *jp = container_of(p, struct jprobe, kp);
	struct kprobe_ctlblk *kcb = kprobe_ctlblk();

	kcb->jprobe_regs = *regs;
	kcb->jprobe_stack = *(struct jprobe_stack_copy *)stack_pointer(regs);
	kcb->status = KPROBE_JPROBE;
	/* The entry function runs with interrupts off, like any handler, so
	 * it cannot be preempted while this CPU's state is in use. */
	arch_regs_disable_irqs(regs);
	instruction_pointer_set(regs, (uintptr_t)jp->entry);
	return 1;
}

int register_jprobe(struct jprobe *jp)
{
	jp->kp.pre_handler = setjmp_pre_handler;
	jp->kp.post_handler = NULL;
	return register_kprobe_kind(&jp->kp, KPROBE_KIND_J);
}

void unregister_jprobe(struct jprobe *jp)
{
	unregister_kprobe(&jp->kp);
}

int register_jprobes(struct jprobe **jps, int num)
{
	for (int i = 0; i < num; i++) {
		int err = register_jprobe(jps[i]);

		if (err) {
			unregister_jprobes(jps, i);
			return err;
		}
	}
	return 0;
}

void unregister_jprobes(struct jprobe **jps, int num)
{
	for (int i = 0; i < num; i++)
		unregister_jprobe(jps[i]);
}

int disable_jprobe(struct jprobe *jp)
{
	return disable_kprobe(&jp->kp);
}

int enable_jprobe(struct jprobe *jp)
{
	return enable_kprobe(&jp->kp);
}
