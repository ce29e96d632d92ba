/*
 * The aarch64 probe back end: not written yet.
 *
 * Every probe is refused (arch_prepare_kprobe returns -ENOSYS), so no
 * breakpoint is ever planted and none of the other hooks below is reached
 * for a probe of ours; they exist so that the generic probes layer
 * (kernel/probes/) builds and links on aarch64. What the real back end
 * will need is already here: BRK traps reach the breakpoint hook with pc
 * at the BRK, software step works at EL1 (see arch/aarch64/trap_selftest.c),
 * and code placed in an instruction slot runs.
 */
#include "kernel/nokprobe.h"
#include "kernel/printk.h"
#include "kernel/probes/probe_point.h"
#include "lib/errno.h"
#include "lib/format.h"

#define BRK_MASK  0xffe0001f	/* BRK with any immediate */
#define BRK_MATCH 0xd4200000

int arch_prepare_kprobe(struct probe_point *pp, uintptr_t func_start, size_t func_size)
{
	(void)pp;
	(void)func_start;
	(void)func_size;
	return -ENOSYS;
}

void arch_remove_kprobe(struct probe_point *pp)
{
	(void)pp;
}

void arch_arm_kprobe(struct probe_point *pp)
{
	(void)pp;
}

void arch_disarm_kprobe(struct probe_point *pp)
{
	(void)pp;
}

void arch_unpatched_bytes(const struct probe_point *pp, uint8_t *buf,
			  uintptr_t buf_addr, size_t len)
{
	(void)pp;
	(void)buf;
	(void)buf_addr;
	(void)len;
}

/* On aarch64 the exception address is the BRK itself. */
uintptr_t arch_breakpoint_addr(const struct pt_regs *regs)
{
	return regs->pc;
}

bool arch_is_breakpoint(uintptr_t addr)
{
	return addr % 4 == 0 && (*(const uint32_t *)addr & BRK_MASK) == BRK_MATCH;
}

void arch_exec_probed_insn(struct probe_point *pp, enum probe_exec how,
			   struct pt_regs *regs, struct arch_kprobe_state *saved)
{
	(void)pp;
	(void)how;
	(void)regs;
	(void)saved;
}

bool arch_finish_step(struct probe_point *pp, struct pt_regs *regs,
		      const struct arch_kprobe_state *saved)
{
	(void)pp;
	(void)regs;
	(void)saved;
	return true;
}

void arch_abort_step(struct probe_point *pp, struct pt_regs *regs,
		     const struct arch_kprobe_state *saved)
{
	(void)pp;
	(void)regs;
	(void)saved;
}

bool arch_can_emulate(const struct probe_point *pp)
{
	(void)pp;
	return false;
}

bool arch_can_boost(const struct probe_point *pp)
{
	(void)pp;
	return false;
}

void arch_prepare_kretprobe(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	(void)ri;
	(void)regs;
}

bool arch_kretprobe_matches(const struct kretprobe_instance *ri, const struct pt_regs *regs)
{
	(void)ri;
	(void)regs;
	return false;
}

uintptr_t arch_kretprobe_trampoline_addr(void)
{
	return 0;
}

bool arch_is_jprobe_return(uintptr_t bp_addr)
{
	(void)bp_addr;
	return false;
}

/* Never reached: no jprobe can be registered. */
void jprobe_return(void)
{
	panic("jprobe_return: there is no aarch64 probe back end");
}

unsigned long arch_kprobe_slots_in_use(void)
{
	return 0;
}

void arch_describe_probe(const struct probe_point *pp, char *buf, size_t size)
{
	(void)pp;
	snprintf(buf, size, "(no aarch64 probe back end)");
}
NOKPROBE_SYMBOL(arch_breakpoint_addr);
NOKPROBE_SYMBOL(arch_is_breakpoint);
