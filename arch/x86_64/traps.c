/*
 * Where every trap lands on x86_64: trap_dispatch(regs), called by
 * trap_common (trap_entry.S) with the saved registers. (#BP first asks
 * the probes' breakpoint hook straight from the entry code.)
 *
 * Vectors 0-31 are CPU exceptions. Breakpoint (#BP, 3) and debug (#DB, 1)
 * go first to the hooks the probes layer installs (kernel/trap.h); every
 * other exception is offered to the fault hook, then to the exception
 * fix-up table, and otherwise panics; an NMI that another CPU sent to stop
 * this one (IPI_STOP, ipi.c) halts it first. A double fault whose page
 * fault hit a stack's guard page is reported as a kernel stack overflow. The interrupts
 * (asm/irq_vectors.h) are the legacy PIC's (pic.c) and the local APIC's:
 * the tick (timer.c) and the IPIs (ipi.c). On the way out of an interrupt
 * the scheduler may switch threads: that is where preemption happens.
 */
#include "arch/x86_64/ipi.h"
#include "arch/x86_64/tlb.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/pic.h"
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/mm/stack.h"
#include "kernel/mm/nofault.h"
#include "kernel/nokprobe.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/trap.h"
#include <asm/irq_vectors.h>
#include <asm/trapnr.h>
#include <asm/layout.h>

#define PF_PRESENT (1 << 0)
#define PF_WRITE   (1 << 1)
#define PF_FETCH   (1 << 4)

static const char *const exception_names[32] = {
	"divide error", "debug", "non-maskable interrupt", "breakpoint",
	"overflow", "bound range exceeded", "invalid opcode",
	"device not available", "double fault", "coprocessor segment overrun",
	"invalid TSS", "segment not present", "stack-segment fault",
	"general protection fault", "page fault", "reserved",
	"x87 floating-point error", "alignment check", "machine check",
	"SIMD floating-point error", "virtualization exception",
	"control protection exception",
};

static uint64_t read_cr2(void)
{
	uint64_t v;

	__asm__ volatile("movq %%cr2, %0" : "=r"(v));
	return v;
}
NOKPROBE_SYMBOL(read_cr2);

/* Turn a page fault into a sentence a student can act on. */
static __noreturn void page_fault_panic(struct pt_regs *regs)
{
	uint64_t addr = read_cr2();
	uint64_t err = regs->error_code;
	/* A fetch from a present page faults only for its no-execute bit. */
	const char *what = trap_wx_fault_reason(addr, err & PF_WRITE,
						(err & PF_FETCH) && (err & PF_PRESENT));

	if (!what)
		what = err & PF_PRESENT ? "page fault" : "access to an unmapped address";
	kprintf("page fault: %s at 0x%lx (error code 0x%lx)\n",
		err & PF_WRITE ? "write" : err & PF_FETCH ? "instruction fetch" : "read",
		addr, err);
	trap_panic(what, regs);
}

static void handle_exception(struct pt_regs *regs)
{
	uint64_t v = regs->vector;

	if (v == VEC_DEBUG && trap_call_hook(TRAP_HOOK_SINGLESTEP, regs))
		return;
	if (v != VEC_BREAKPOINT && v != VEC_DEBUG && v != VEC_DOUBLE_FAULT) {
		if (trap_call_hook(TRAP_HOOK_FAULT, regs) || extable_fixup(regs))
			return;
	}
	if (v == VEC_PAGE_FAULT)
		page_fault_panic(regs);
	/* A push into a guard page faulted, and so did the page fault's own
	 * push of its frame: CR2 still holds the guard address. */
	if (v == VEC_DOUBLE_FAULT && stack_in_guard(read_cr2()))
		stack_overflow_panic(regs, read_cr2());
	trap_panic(exception_names[v] ? exception_names[v] : "reserved exception", regs);
}
NOKPROBE_SYMBOL(handle_exception);

/* breakpoint_common (trap_entry.S) calls the breakpoint hook itself. */
_Static_assert(TRAP_HOOK_BREAKPOINT == 0, "trap_entry.S reads trap_hooks[0] for #BP");

/* The local APIC's own interrupts; each ends with an EOI, before the way
 * out of the interrupt may switch threads. */
static void handle_lapic_irq(unsigned int vector, struct pt_regs *regs)
{
	switch (vector) {
	case LAPIC_TIMER_VECTOR:
		sched_timer_tick();
		break;
	case IPI_RESCHEDULE_VECTOR:
		smp_handle_ipi(IPI_RESCHEDULE, regs);
		break;
	case IPI_CALL_FUNCTION_VECTOR:
		smp_handle_ipi(IPI_CALL_FUNCTION, regs);
		break;
	}
	lapic_eoi();
}
NOKPROBE_SYMBOL(handle_lapic_irq);

static void handle_irq(unsigned int vector, struct pt_regs *regs)
{
	if (vector < IRQ_VECTOR_BASE + 16)
		pic_handle_irq(vector - IRQ_VECTOR_BASE);
	else if (vector != SPURIOUS_VECTOR)	/* which wants no EOI */
		handle_lapic_irq(vector, regs);
}
NOKPROBE_SYMBOL(handle_irq);

/* An NMI that is a stop (ipi.c) or a TLB flush request (tlb.c): whether
 * it was one. Nothing on this path is traced, trap_dispatch included: a
 * return hooked by function_graph comes back through a trampoline that
 * ends in iretq, and an iretq inside an NMI handler lets the next NMI in
 * at once. Under a storm of flush requests (threads' stacks freed on
 * every CPU) the NMIs then nest until the stack overflows. */
static bool notrace handle_nmi(struct pt_regs *regs)
{
	if (ipi_stop_requested()) {
		this_cpu()->irq_depth++;
		smp_handle_ipi(IPI_STOP, regs);	/* never returns */
	}
	return tlb_handle_nmi();
}
NOKPROBE_SYMBOL(handle_nmi);

void notrace trap_dispatch(struct pt_regs *regs)
{
	if (regs->vector == VEC_NMI && handle_nmi(regs))
		return;
	if (regs->vector < 32) {
		handle_exception(regs);
		return;
	}
	this_cpu()->irq_depth++;
	handle_irq((unsigned int)regs->vector, regs);
	this_cpu()->irq_depth--;
	sched_preempt_point(regs);
}
NOKPROBE_SYMBOL(trap_dispatch);
