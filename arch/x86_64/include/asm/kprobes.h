/* The x86_64 probe back end's per-point and per-CPU data (used by
 * arch/x86_64/kprobes.c; the generic core only stores them). */
#ifndef ASM_KPROBES_H
#define ASM_KPROBES_H

#include "arch/x86_64/insn.h"
#include "kernel/probes/kprobes.h"

#define BREAKPOINT_INSN 0xcc		/* int3 */
#define ARCH_PROBE_SLOT_SIZE 32		/* instruction (<= 15) + jmp rel32 */

/* Instructions simulated on the saved registers instead of being run. */
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
	uint8_t push_reg;		/* EMU_PUSH_REG: register 0-15 */
};

/* The optimizer's part of a point: the bytes the jump replaces. */
#define JMP_REL32_SIZE 5
#define OPT_REGION_MAX (JMP_REL32_SIZE - 1 + INSN_MAX_LEN)
/* A detour buffer: the template (~110 bytes), the copied region and the
 * jump back. */
#define ARCH_DETOUR_SIZE 192

struct arch_opt_insn {
	uint8_t orig[OPT_REGION_MAX];	/* the region's original bytes */
	size_t copy_offset;		/* where the detour's copy starts */
};

/* Saved while the copy is single-stepped: the flags at the hit. */
struct arch_kprobe_state {
	uint64_t rflags;
};

/* kretprobes: is stack_slot - the address of a saved return address that
 * a backtrace found to be the trampoline - the one of instance ri? On
 * x86_64 ri->stack_slot is exactly where the call pushed it. */
static inline bool arch_kretprobe_slot_matches(const struct kretprobe_instance *ri,
					       uintptr_t stack_slot)
{
	return ri->stack_slot == stack_slot;
}

#endif
