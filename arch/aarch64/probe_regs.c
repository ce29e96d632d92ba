/* arm64's registers as probe events name them (kernel/trace/probe_regs.h):
 * Linux's arm64 list, %x0 ... %x30 with %lr for x30, and %sp, %pc,
 * %pstate. */
#include "kernel/trace/probe_regs.h"
#include <asm/ptrace.h>

#define X(n) { "x" #n, offsetof(struct pt_regs, regs[n]) }
#define REG(name, field) { name, offsetof(struct pt_regs, field) }

const struct probe_reg arch_probe_regs[] = {
	X(0), X(1), X(2), X(3), X(4), X(5), X(6), X(7), X(8), X(9),
	X(10), X(11), X(12), X(13), X(14), X(15), X(16), X(17), X(18), X(19),
	X(20), X(21), X(22), X(23), X(24), X(25), X(26), X(27), X(28), X(29),
	X(30), REG("lr", regs[30]), REG("sp", sp), REG("pc", pc), REG("pstate", pstate),
	{ NULL, 0 },
};

/* AAPCS64's. */
const char *const arch_probe_arg_regs[] = { "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", NULL };
