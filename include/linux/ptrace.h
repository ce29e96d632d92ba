/* struct pt_regs and its accessors (the architecture's asm/ptrace.h):
 * instruction_pointer, regs_return_value, regs_set_return_value,
 * regs_get_argument... On x86_64 the registers have both the CPU's names
 * (rip, rax) and Linux's (ip, ax); on aarch64, regs[0..30], sp, pc and
 * pstate, as in Linux. */
#ifndef _LINUX_PTRACE_H
#define _LINUX_PTRACE_H

#include <asm/ptrace.h>

#endif
