/* The filler for unused executable memory: BRK #0x100 (0xd4202000, stored
 * little-endian) on aarch64, so a jump into unused slot space traps at
 * once instead of running garbage. The immediate is arbitrary; it shows
 * in ESR_EL1 and so in the panic message. */
#ifndef ASM_INSN_FILL_H
#define ASM_INSN_FILL_H

#define ARCH_TRAP_FILL { 0x00, 0x20, 0x20, 0xd4, 0x00, 0x20, 0x20, 0xd4, \
			 0x00, 0x20, 0x20, 0xd4, 0x00, 0x20, 0x20, 0xd4 }

/* A function returning 42 (mov w0, #42; ret (0x52800540, 0xd65f03c0)), for the selftest that runs code from
 * an instruction slot. */
#define ARCH_RETURN_42_CODE { 0x40, 0x05, 0x80, 0x52, 0xc0, 0x03, 0x5f, 0xd6 }

#endif
