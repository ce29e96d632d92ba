/* The filler for unused executable memory: int3 (0xcc) on x86_64, so a
 * jump into unused slot space traps at once instead of running garbage. */
#ifndef ASM_INSN_FILL_H
#define ASM_INSN_FILL_H

#define ARCH_TRAP_FILL { 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, \
			 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc }

/* A function returning 42 (mov $42, %eax; ret), for the selftest that runs code from
 * an instruction slot. */
#define ARCH_RETURN_42_CODE { 0xb8, 0x2a, 0x00, 0x00, 0x00, 0xc3 }

#endif
