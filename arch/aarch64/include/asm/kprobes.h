/* The aarch64 probe back end's per-point and per-CPU data.
 *
 * There is no aarch64 probe back end yet (arch/aarch64/kprobes.c refuses
 * every probe); these are the shapes it will fill in. */
#ifndef ASM_KPROBES_H
#define ASM_KPROBES_H

#include <stdint.h>

#define BREAKPOINT_INSN 0xd4200080	/* brk #0x4 */
#define ARCH_PROBE_SLOT_SIZE 16		/* instruction + branch back */

struct arch_probe_insn {
	uint32_t orig;			/* the original instruction */
};

/* Saved while the copy is single-stepped: PSTATE at the hit. */
struct arch_kprobe_state {
	uint64_t pstate;
};

#endif
