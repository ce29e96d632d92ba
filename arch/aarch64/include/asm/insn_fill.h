/* The filler for unused executable memory: BRK #0x100 (0xd4202000, stored
 * little-endian) on aarch64, so a jump into unused slot space traps at
 * once instead of running garbage. The immediate is arbitrary; it shows
 * in ESR_EL1 and so in the panic message. */
#ifndef ASM_INSN_FILL_H
#define ASM_INSN_FILL_H

#define ARCH_TRAP_FILL { 0x00, 0x20, 0x20, 0xd4, 0x00, 0x20, 0x20, 0xd4, \
			 0x00, 0x20, 0x20, 0xd4, 0x00, 0x20, 0x20, 0xd4 }

#endif
