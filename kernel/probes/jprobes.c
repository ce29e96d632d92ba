/*
 * jprobes: run a handler with the probed function's own arguments.
 *
 * A jprobe is a kprobe on a function's first instruction whose
 * pre-handler (setjmp_pre_handler) has the back end aim the trap frame at
 * the jprobe's entry function (arch_jprobe_enter): the trap returns into
 * it with the registers the probed function would have had, and a stack
 * pointer below the trap frame, at a copy of the top of the probed
 * stack. So a C function with the same signature sees the same arguments
 * (those passed on the stack too, within the copy's 64 bytes), and the
 * frame, above everything the entry function touches, outlives it.
 *
 * The entry function ends with jprobe_return(), which does not trap:
 * jprobe_return_regs() (kprobe_trap.c, with the rest of a hit) puts the
 * frame back as it was (arch_jprobe_leave) and starts the probed
 * instruction as for any kprobe; then the back end's jprobe_return moves
 * its stack pointer onto the frame and leaves through the trap return
 * path, which resumes it. Nothing is copied back: the probed function's
 * stack was never written.
 */
#include "lib/export.h"
#include "kernel/nokprobe.h"
#include "kernel/panic.h"
#include "kernel/probes/kprobes_internal.h"

static int __kprobes setjmp_pre_handler(struct kprobe *p, struct pt_regs *regs)
{
	struct jprobe *jp = container_of(p, struct jprobe, kp);
	struct kprobe_ctlblk *kcb = kprobe_ctlblk();
	uintptr_t sp = stack_pointer(regs), frame = (uintptr_t)regs;
	/* Where the copy goes: below the trap frame, which the trap entry
	 * saved below sp, a multiple of 16 bytes down so that the stack's
	 * alignment stays as it was. */
	uintptr_t copy = sp - ALIGN_UP(sp - frame + JPROBE_STACK_COPY_SIZE, 16);

	/* A hit through the optimizer's jump, taken by a thread just before
	 * this jprobe was registered (a jprobe unoptimizes its point): there
	 * is no trap frame to aim at the entry function, so the hit is missed. */
	if (kprobe_status() == KPROBE_HIT_OPTIMIZED) {
		kprobe_count_missed(kcb, p);
		return 0;
	}
	if (frame >= sp)
		panic("jprobes: the trap frame at %p is not below the probed stack", regs);
	kcb->point = p->point;	/* for jprobe_return_regs */
	kcb->jprobe_regs = regs;
	arch_jprobe_enter(regs, (uintptr_t)jp->entry, copy, &kcb->jprobe_saved);
	kprobe_set_status(KPROBE_JPROBE);
	return 1;
}

static struct kprobe __kprobes *nth_jprobe(void *array, int i)
{
	return &((struct jprobe **)array)[i]->kp;
}

static int __kprobes register_jprobe_of(struct kprobe *p)
{
	return register_jprobe(container_of(p, struct jprobe, kp));
}

static const struct probe_type jprobe_type = {
	.kind = KPROBE_KIND_J,
	.nth = nth_jprobe,
	.register_one = register_jprobe_of,
};

int __kprobes register_jprobe(struct jprobe *jp)
{
	jp->kp.pre_handler = setjmp_pre_handler;
	jp->kp.post_handler = NULL;
	return register_kprobe_kind(&jp->kp, &jprobe_type);
}
EXPORT_SYMBOL(register_jprobe);

void __kprobes unregister_jprobe(struct jprobe *jp)
{
	unregister_jprobes(&jp, 1);
}
EXPORT_SYMBOL(unregister_jprobe);

int __kprobes register_jprobes(struct jprobe **jps, int num)
{
	return register_probes(jps, num, &jprobe_type);
}
EXPORT_SYMBOL(register_jprobes);

void __kprobes unregister_jprobes(struct jprobe **jps, int num)
{
	unregister_probes(jps, num, &jprobe_type);
}
EXPORT_SYMBOL(unregister_jprobes);

int __kprobes disable_jprobe(struct jprobe *jp)
{
	return disable_kprobe(&jp->kp);
}
EXPORT_SYMBOL(disable_jprobe);

int __kprobes enable_jprobe(struct jprobe *jp)
{
	return enable_kprobe(&jp->kp);
}
EXPORT_SYMBOL(enable_jprobe);
