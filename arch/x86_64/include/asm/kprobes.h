/* The x86_64 probe back end's per-point and per-CPU data (used by
 * arch/x86_64/kprobes.c; the generic core only stores them). */
#ifndef ASM_KPROBES_H
#define ASM_KPROBES_H

#include "arch/x86_64/insn.h"
#include "kernel/probes/kprobes.h"
#include <asm/irq.h>
#include <asm/ptrace.h>

#define BREAKPOINT_INSN 0xcc		/* int3 */
#define ARCH_PROBE_SLOT_SIZE 32		/* instruction (<= 15) + jmp rel32 */

/* Instructions emulated on the saved registers instead of being run. */
enum x86_emulation {
	EMU_NONE,
	EMU_NOP,		/* nop, nopl/nopw, endbr64 */
	EMU_PUSH_REG,		/* push %reg */
	EMU_MOV_RSP_RBP,	/* mov %rsp,%rbp */
	EMU_JMP,		/* jmp rel8/rel32 */
	EMU_JCC,		/* jcc, loop*, jrcxz */
	EMU_CALL,		/* call rel32 */
	EMU_RET,		/* ret, ret $imm16 */
};

struct arch_probe_insn {
	uint8_t orig[INSN_MAX_LEN];	/* the original instruction */
	struct insn decoded;
	enum x86_emulation emulation;
	/* Worked out once at registration, so an emulated hit only adds
	 * and stores: */
	uint8_t push_offset;		/* EMU_PUSH_REG: the register's
					   offset in struct pt_regs */
	uintptr_t next;			/* the address after the instruction */
	uintptr_t target;		/* EMU_JMP/JCC/CALL: the branch target */
};

/* The optimizer's part of a point: the bytes the jump replaces. */
#define JMP_REL32_SIZE 5
#define OPT_REGION_MAX (JMP_REL32_SIZE - 1 + INSN_MAX_LEN)
/* The most bytes of text one probe point patches, from its address on:
 * an optimized jump's region (a breakpoint is one byte). The core looks
 * this far back for points whose patch reaches an address. */
#define ARCH_MAX_PATCH_LEN OPT_REGION_MAX
/* A detour buffer: the template (~110 bytes), the copied region and the
 * jump back. */
#define ARCH_DETOUR_SIZE 192

struct arch_opt_insn {
	uint8_t orig[OPT_REGION_MAX];	/* the region's original bytes */
};

/* Saved while the copy is single-stepped: the flags at the hit. */
struct arch_kprobe_state {
	uint64_t rflags;
};

/* What arch_jprobe_enter changes in a jprobe hit's trap frame: where and
 * how it resumes, and the two registers that carry the entry
 * trampoline's operands (arch/x86_64/jprobe_trampoline.S). */
struct arch_jprobe_state {
	uint64_t rip, rsp, rflags, r10, r11;
};

/* Where a breakpoint leaves the instruction pointer: past its one byte
 * (the core shows hits that come without a trap the same way). */
#define ARCH_BREAKPOINT_IP_AFTER 1

/* The address of the int3 that trapped: it traps after itself. */
static inline uintptr_t arch_breakpoint_addr(const struct pt_regs *regs)
{
	return regs->rip - 1;
}

/* An emulated instruction never has a boost copy here (arch_prepare_kprobe
 * fills no slot for it): the question never arises. */
static inline bool arch_boost_before_emulating(void)
{
	return false;
}

/* ---- jprobes: inline, as they run on every hit (see probe_point.h) ---- */

extern char jprobe_trampoline[];
_Static_assert(JPROBE_STACK_COPY_SIZE == 64, "jprobe_trampoline.S pushes 8 words");

static inline void arch_jprobe_enter(struct pt_regs *regs, uintptr_t entry, uintptr_t copy,
				     struct arch_jprobe_state *saved)
{
	*saved = (struct arch_jprobe_state){ regs->rip, regs->rsp, regs->rflags,
					     regs->r10, regs->r11 };
	/* The trampoline pushes the copy from %r10, then jumps to %r11: the
	 * System V convention passes no argument in either. */
	regs->r10 = regs->rsp;
	regs->r11 = entry;
	regs->rsp = copy + JPROBE_STACK_COPY_SIZE;	/* it pushes down to copy */
	regs->rflags &= ~X86_RFLAGS_IF;
	regs->rip = (uintptr_t)jprobe_trampoline;
}

static inline void arch_jprobe_leave(struct pt_regs *regs, const struct arch_jprobe_state *saved)
{
	regs->rip = saved->rip;
	regs->rsp = saved->rsp;
	regs->rflags = saved->rflags;
	regs->r10 = saved->r10;
	regs->r11 = saved->r11;
}

#endif
