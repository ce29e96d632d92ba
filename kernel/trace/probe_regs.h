/* The registers a probe event's %REG fetch names (kernel/trace/trace_probe.c).
 *
 * Each architecture lists its own, by the names Linux gives them and at
 * their places in its struct pt_regs (arch/ARCH/probe_regs.c): x86_64's
 * %ax ... %r15, %ip, %flags, arm64's %x0 ... %x30, %lr, %sp, %pc. The
 * parser takes the list as an argument, so that the host tests read
 * both architectures' definitions with one program. */
#ifndef KERNEL_TRACE_PROBE_REGS_H
#define KERNEL_TRACE_PROBE_REGS_H

#include "lib/types.h"

struct probe_reg {
	const char *name;	/* as %NAME names it: "ax", "x0" */
	uint16_t offset;	/* of its word in struct pt_regs */
};

/* This architecture's registers, ended by a NULL name. */
extern const struct probe_reg arch_probe_regs[];
/* The names of the registers a function's first arguments are in at its
 * entry, in order, ended by NULL (its calling convention): for a
 * definition that must name them where $argN is not taken (past the
 * first instruction). */
extern const char *const arch_probe_arg_regs[];

/* The offset in struct pt_regs of the register called name in regs (a
 * list as arch_probe_regs), or -EINVAL if none is (trace_probe.c). */
int probe_reg_offset(const struct probe_reg *regs, const char *name);

#endif
