/* The immediates of the BRK instructions the kernel plants, and what each
 * means. A BRK traps with its immediate in ESR_EL1 (bits 15:0), so one
 * instruction serves several purposes told apart by that number. */
#ifndef ASM_BRK_H
#define ASM_BRK_H

#define BRK_IMM_KPROBE		0x004	/* a kprobe's breakpoint */
/* Ends the out-of-line step of a probed instruction: arch/aarch64/traps.c
 * sends it to the single-step hook, not the breakpoint hook. */
#define BRK_IMM_KPROBE_STEP	0x005
#define BRK_IMM_FILL		0x100	/* unused executable memory (asm/insn_fill.h) */
#define BRK_IMM_BUG		0x3e8	/* __builtin_trap(), code that must not be reached */

/* ESR_EL1 of a BRK: the immediate. */
#define ESR_BRK_IMM(esr)	((esr) & 0xffff)

#endif
