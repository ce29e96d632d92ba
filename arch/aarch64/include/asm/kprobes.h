/* The aarch64 probe back end's per-point and per-CPU data (used by
 * arch/aarch64/kprobes.c; the generic core only stores them). */
#ifndef ASM_KPROBES_H
#define ASM_KPROBES_H

#include "arch/aarch64/insn.h"
#include "kernel/probes/kprobes.h"
#include <asm/brk.h>
#include <asm/ptrace.h>
#include <asm/optprobe.h>	/* ARCH_DETOUR_SIZE */
#include <asm/sysreg.h>

/*
 * An instruction slot holds the probed instruction twice (16 bytes):
 *
 *   slot + 0   the instruction      <- pc when it is stepped
 *   slot + 4   BRK #BRK_IMM_KPROBE_STEP: the end of the step
 *   slot + 8   the instruction      <- pc when it is boosted
 *   slot + 12  B back to the next original instruction
 *
 * so that each hit can choose how to run it.
 */
#define ARCH_PROBE_SLOT_SIZE 16
/* The most bytes of text one probe point patches, from its address on:
 * its BRK, or the B that replaces it once optimized, both one word. The
 * core looks this far back for points whose patch reaches an address. */
#define ARCH_MAX_PATCH_LEN A64_INSN_SIZE
#define SLOT_STEP_OFFSET 0
#define SLOT_BOOST_OFFSET 8

struct arch_probe_insn {
	uint32_t orig;			/* the original instruction */
	struct a64_insn decoded;
	bool boostable;			/* the slot's B reaches back */
	bool writes_ip;			/* emulated, and writes x16 or x17 */
	struct a64_sp_store store;	/* a store through sp, decoded once */
};

/* The jump optimizer's part of a point (arch/aarch64/optprobe.c): one B
 * replaces the probed instruction, so the region is that one word, whose
 * original is insn.orig above, and nothing more needs keeping. (The
 * detour buffer's relocated copy is the core's pp->detour_copy.) */
struct arch_opt_insn {
};

/* Saved while the copy is stepped: the interrupted PSTATE (the step runs
 * with interrupts masked). */
struct arch_kprobe_state {
	uint64_t pstate;
};

/* What arch_jprobe_enter changes in a jprobe hit's trap frame: where and
 * how it resumes, and the two registers that carry the entry
 * trampoline's operands (arch/aarch64/jprobe_trampoline.S). */
struct arch_jprobe_state {
	uint64_t pc, sp, pstate, x16, x17;
};

/* Where a breakpoint leaves the instruction pointer: at itself (the
 * core shows hits that come without a trap the same way). */
#define ARCH_BREAKPOINT_IP_AFTER 0

/* The address of the BRK that trapped: it traps with pc at itself. */
static inline uintptr_t arch_breakpoint_addr(const struct pt_regs *regs)
{
	return regs->pc;
}

/* A prologue instruction (add/sub immediate, a store through sp) is both
 * emulated and copied to a slot (also_boosted in kprobes.c): the copy and
 * its B back cost fewer instructions than the emulation in C, which is
 * for when a post-handler must run in the same exception. */
static inline bool arch_boost_before_emulating(void)
{
	return true;
}

/* ---- jprobes: inline, as they run on every hit (see probe_point.h) ---- */

extern char jprobe_trampoline[];
_Static_assert(JPROBE_STACK_COPY_SIZE == 64, "jprobe_trampoline.S copies 64 bytes");

static inline void arch_jprobe_enter(struct pt_regs *regs, uintptr_t entry, uintptr_t copy,
				     struct arch_jprobe_state *saved)
{
	*saved = (struct arch_jprobe_state){ regs->pc, regs->sp, regs->pstate,
					     regs->regs[16], regs->regs[17] };
	/* The trampoline copies from x16, then branches to x17: the
	 * intra-procedure-call scratch registers, which carry no argument. */
	regs->regs[16] = regs->sp;
	regs->regs[17] = entry;
	regs->sp = copy;
	regs->pstate |= PSR_I;
	regs->pc = (uintptr_t)jprobe_trampoline;
}

static inline void arch_jprobe_leave(struct pt_regs *regs, const struct arch_jprobe_state *saved)
{
	regs->pc = saved->pc;
	regs->sp = saved->sp;
	regs->pstate = saved->pstate;
	regs->regs[16] = saved->x16;
	regs->regs[17] = saved->x17;
}

#endif
