/*
 * Where every exception lands on aarch64: trap_dispatch(regs), called by
 * exception_common or sync_common (trap_entry.S) with the saved
 * registers.
 *
 * regs->vector says which vector-table entry was taken; the kernel only
 * expects two, both "current EL, SP_ELx": synchronous exceptions and
 * IRQs. A BRK never reaches here if a hook claims it: sync_common
 * (trap_entry.S) gives it to the breakpoint hook the probes layer
 * installs (kernel/trap.h) - or, for the BRK that ends a kprobe's
 * out-of-line step (BRK_IMM_KPROBE_STEP, asm/brk.h), which for the probes
 * core is the end of a single step, to the single-step hook. Here a
 * synchronous exception is sorted by its exception class (ESR_EL1.EC):
 * software step goes to the single-step hook, and every other class is
 * offered to the fault hook, then to the exception fix-up table, and
 * otherwise panics. An IRQ goes to the
 * GIC (arch/aarch64/irq.c); on the way out of it the scheduler may switch
 * threads: that is where preemption happens. An exception whose frame
 * would land in a stack's guard never gets here: the entry moves to the
 * overflow stack and trap_stack_overflow reports it.
 */
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/mm/stack.h"
#include "kernel/nokprobe.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/trap.h"
#include <asm/brk.h>
#include <asm/gic.h>
#include <asm/sysreg.h>

_Static_assert(sizeof(struct pt_regs) == PT_REGS_SIZE, "pt_regs layout (asm/ptrace.h)");
_Static_assert(__builtin_offsetof(struct pt_regs, pc) == S_PC, "pt_regs layout");
_Static_assert(__builtin_offsetof(struct pt_regs, frame) == S_FRAME, "pt_regs layout");
_Static_assert(__builtin_offsetof(struct pt_regs, need_eret) == S_NEED_ERET, "pt_regs layout");

static const char *const vector_names[VECTOR_COUNT] = {
	"synchronous exception on SP_EL0", "IRQ on SP_EL0", "FIQ on SP_EL0",
	"SError on SP_EL0", "synchronous exception", "IRQ", "FIQ",
	"SError (asynchronous external abort)",
	"synchronous exception from EL0", "IRQ from EL0", "FIQ from EL0",
	"SError from EL0", "synchronous exception from AArch32",
	"IRQ from AArch32", "FIQ from AArch32", "SError from AArch32",
};

static const char *exception_class_name(unsigned int ec)
{
	switch (ec) {
	case EC_UNKNOWN:	return "undefined instruction";
	case EC_FP_ACCESS:	return "floating-point/SIMD access (the kernel is built without them)";
	case EC_ILLEGAL_STATE:	return "illegal execution state";
	case EC_SVC64:		return "unexpected SVC";
	case EC_HVC64:		return "unexpected HVC";
	case EC_SMC64:		return "unexpected SMC";
	case EC_SYSREG:		return "trapped system register access";
	case EC_IABT_LOW:
	case EC_IABT_CUR:	return "instruction abort";
	case EC_PC_ALIGN:	return "misaligned pc";
	case EC_DABT_LOW:
	case EC_DABT_CUR:	return "data abort";
	case EC_SP_ALIGN:	return "misaligned sp";
	case EC_SERROR:		return "SError";
	case EC_BREAKPT_CUR:	return "hardware breakpoint";
	case EC_SOFTSTP_LOW:
	case EC_SOFTSTP_CUR:	return "software step with no handler";
	case EC_WATCHPT_CUR:	return "watchpoint";
	case EC_BRK64:		return "BRK instruction with no handler";
	default:		return "unknown exception class";
	}
}

/* Turn an instruction or data abort into a sentence a student can act on. */
static __noreturn void abort_panic(struct pt_regs *regs)
{
	bool fetch = ESR_EC(regs->esr) == EC_IABT_CUR;
	bool write = !fetch && (regs->esr & ESR_WNR);
	unsigned int fsc = ESR_FSC(regs->esr);
	uint64_t addr = regs->far;
	const char *what = NULL;

	if (FSC_TYPE(fsc) == FSC_PERMISSION) {
		what = trap_wx_fault_reason(addr, write, fetch);
		if (!what && write)
			what = "write to a read-only page";
	} else if (FSC_TYPE(fsc) == FSC_TRANSLATION || FSC_TYPE(fsc) == FSC_ADDR_SIZE) {
		what = "access to an unmapped address";
	}
	if (!what)
		what = fetch ? "instruction abort" : "data abort";
	kprintf("%s: %s at 0x%lx (ESR 0x%lx)\n", fetch ? "instruction abort" : "data abort",
		write ? "write" : fetch ? "instruction fetch" : "read", addr, regs->esr);
	trap_panic(what, regs);
}

static void handle_sync(struct pt_regs *regs)
{
	unsigned int ec = ESR_EC(regs->esr);

	if (ec == EC_BRK64 && ESR_BRK_IMM(regs->esr) == BRK_IMM_KPROBE_STEP) {
		/* The BRK after a probed instruction's copy in its slot
		 * (arch/aarch64/kprobes.c) ends a single step done without
		 * the hardware's help; sync_common offered it to the
		 * single-step hook, which did not claim it. */
		trap_panic("kprobes step-end BRK with no step in progress", regs);
	} else if (ec == EC_BRK64) {
		/* sync_common offered it to the breakpoint hook. */
		kprintf("BRK #0x%lx\n", ESR_BRK_IMM(regs->esr));
	} else if (ec == EC_SOFTSTP_CUR || ec == EC_SOFTSTP_LOW) {
		if (trap_call_hook(TRAP_HOOK_SINGLESTEP, regs))
			return;
	} else {
		if (trap_call_hook(TRAP_HOOK_FAULT, regs) || extable_fixup(regs))
			return;
		if (ec == EC_DABT_CUR || ec == EC_IABT_CUR)
			abort_panic(regs);
	}
	trap_panic(exception_class_name(ec), regs);
}
NOKPROBE_SYMBOL(handle_sync);

/* sync_common (trap_entry.S) calls trap_hooks[0] for a BRK and
 * trap_hooks[1] for the step-end BRK, before it calls this. */
_Static_assert(TRAP_HOOK_BREAKPOINT == 0 && TRAP_HOOK_SINGLESTEP == 1,
	       "trap_entry.S indexes trap_hooks for BRK");

void trap_dispatch(struct pt_regs *regs)
{
	switch (regs->vector) {
	case VECTOR_CUR_SPX_SYNC:
		handle_sync(regs);
		return;
	case VECTOR_CUR_SPX_IRQ:
		this_cpu()->irq_depth++;
		irq_handle(regs);
		this_cpu()->irq_depth--;
		sched_preempt_point(regs);
		return;
	default:
		trap_panic(vector_names[regs->vector % VECTOR_COUNT], regs);
	}
}
NOKPROBE_SYMBOL(trap_dispatch);

/* overflow_common (trap_entry.S) calls this, on this CPU's overflow
 * stack, when an exception's frame would have gone where bit
 * KERNEL_STACK_SHIFT is clear. A data abort in a guard names the store
 * that reached it; any other exception only found that its own frame
 * would not fit. An sp outside every stack (which the bit cannot tell
 * from a guard) is said to be just that. */
void trap_stack_overflow(struct pt_regs *regs)
{
	bool sync = regs->vector == VECTOR_CUR_SPX_SYNC;
	uintptr_t frame = regs->sp - PT_REGS_SIZE - (sync ? SYNC_STACK_GAP : 0);

	if (sync && ESR_EC(regs->esr) == EC_DABT_CUR && stack_in_guard(regs->far))
		stack_overflow_panic(regs, regs->far);
	if (stack_in_guard(frame))
		stack_overflow_panic(regs, frame);
	trap_panic("exception taken with sp outside every kernel stack", regs);
}
NOKPROBE_SYMBOL(trap_stack_overflow);
