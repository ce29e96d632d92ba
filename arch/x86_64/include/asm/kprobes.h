/* The x86_64 probe back end's per-point and per-CPU data (used by
 * arch/x86_64/kprobes.c; the generic core only stores them). */
#ifndef ASM_KPROBES_H
#define ASM_KPROBES_H

#include "arch/x86_64/insn.h"

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

/* Saved while the copy is single-stepped: the flags at the hit. */
struct arch_kprobe_state {
	uint64_t rflags;
};

#endif
