/* struct pt_regs: the registers of an interrupted context, as the
 * exception entry (arch/aarch64/trap_entry.S) saves them on the stack
 * (below the interrupted sp; for a synchronous exception, below a gap of
 * SYNC_STACK_GAP bytes under it).
 *
 * Layout, from the lowest address (where the entry code leaves sp and
 * passes it to C) upwards, in 8-byte words:
 *   0-30   x0 ... x30      general registers (x29 = frame pointer,
 *                          x30 = link register)
 *   31     sp              the stack pointer before the exception
 *   32     pc              ELR_EL1: where execution resumes. For a BRK or
 *                          an abort that is the instruction itself; for an
 *                          interrupt or a software step, the next one.
 *   33     pstate          SPSR_EL1: the interrupted PSTATE (NZCV, DAIF,
 *                          SS, the exception level...)
 *   34     esr             ESR_EL1, the syndrome of a synchronous
 *                          exception (not meaningful for interrupts)
 *   35     far             FAR_EL1, the faulting address of an abort
 *   36     vector          which of the 16 vector-table entries was taken
 *                          (VECTOR_* in asm/sysreg.h)
 *   37     need_eret       zero at entry; the probes back end sets it
 *                          when the frame must be resumed by the
 *                          exception return (see jprobe_return,
 *                          arch/aarch64/jprobe_trampoline.S)
 *   38-39  frame           a frame record { x29, pc }: the entry code
 *                          points x29 here, so a backtrace taken inside
 *                          the handler walks on into the interrupted code
 * Changing a field changes the register the interrupted code resumes
 * with (sp included): the probes layer relies on that.
 */
#ifndef ASM_PTRACE_H
#define ASM_PTRACE_H

#define S_X0     0
#define S_X30    (30 * 8)
#define S_SP     (31 * 8)
#define S_PC     (32 * 8)
#define S_PSTATE (33 * 8)
#define S_ESR    (34 * 8)
#define S_FAR    (35 * 8)
#define S_VECTOR (36 * 8)
#define S_NEED_ERET (37 * 8)
#define S_FRAME  (38 * 8)
#define PT_REGS_SIZE (40 * 8)
/*
 * The EL1 synchronous-exception entry (where a probe's BRK arrives)
 * leaves this many bytes unused between the interrupted sp and the
 * struct pt_regs it saves below it. A probe handler can then emulate a
 * store through sp - a function prologue's stp x29, x30, [sp, #-N]! -
 * without overwriting the saved registers: every such store the
 * classifier emulates writes at most A64_SP_STORE_REACH (insn.h) below
 * sp, and lands in the gap. Interrupts need no gap (nothing emulates
 * there), so their frames stay right below sp. The gap costs stack
 * only: 512 bytes per nested synchronous exception.
 */
#define SYNC_STACK_GAP 512
#define LINK_REGISTER 30	/* x30: regs[LINK_REGISTER] */

#ifndef __ASSEMBLY__
#include <stdint.h>

struct pt_regs {
	uint64_t regs[31];
	uint64_t sp;
	uint64_t pc;
	uint64_t pstate;
	uint64_t esr;
	uint64_t far;
	uint64_t vector;
	uint64_t need_eret;
	uint64_t frame[2];
};

static inline uintptr_t instruction_pointer(const struct pt_regs *regs)
{
	return regs->pc;
}

static inline void instruction_pointer_set(struct pt_regs *regs, uintptr_t ip)
{
	regs->pc = ip;
}

static inline uintptr_t frame_pointer(const struct pt_regs *regs)
{
	return regs->regs[29];
}

static inline uintptr_t stack_pointer(const struct pt_regs *regs)
{
	return regs->sp;
}

/* The value a function returns, in the registers at its return. */
static inline uint64_t regs_return_value(const struct pt_regs *regs)
{
	return regs->regs[0];
}

/* Change the value a function returns (at its return, or with
 * regs_return_from_entry at its entry). */
static inline void regs_set_return_value(struct pt_regs *regs, uint64_t value)
{
	regs->regs[0] = value;
}

/* Argument n (0-7) of a function, in the registers at its entry (the
 * AAPCS64 calling convention: x0-x7). */
static inline uint64_t regs_get_argument(const struct pt_regs *regs, unsigned int n)
{
	return n < 8 ? regs->regs[n] : 0;
}

/* At a function's entry, argument n of REGS_ARG_REGS and up is on the
 * stack, word n - REGS_ARG_REGS + REGS_STACK_ARG_FIRST from its pointer
 * (from the stack pointer up). */
#define REGS_ARG_REGS 8
#define REGS_STACK_ARG_FIRST 0

/* At a function's first instruction: make the function return value at
 * once, without running. The return address is still in the link
 * register x30 there. */
static inline void regs_return_from_entry(struct pt_regs *regs, uint64_t value)
{
	regs->regs[0] = value;
	regs->pc = regs->regs[30];
}
#endif

#endif
