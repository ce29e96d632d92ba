/* Making a function fail on purpose from a kprobe at its entry.
 *
 * A pre-handler on a function's first instruction may set the value the
 * function is to return and return to its caller at once, without
 * running it (what Linux's bpf_override_return does with the same two
 * calls):
 *
 *	regs_set_return_value(regs, -EIO);
 *	override_function_with_return(regs);
 *	return 1;	// regs were changed: do not run the probed instruction
 *
 * Only at the entry: there the return address is still where the call
 * left it (x86_64: on top of the stack; aarch64: in x30). */
#ifndef _LINUX_ERROR_INJECTION_H
#define _LINUX_ERROR_INJECTION_H

#include <linux/ptrace.h>

/* Resume in the caller, as the function's return would, with the return
 * value already in regs. */
static inline void override_function_with_return(struct pt_regs *regs)
{
	regs_return_from_entry(regs, regs_return_value(regs));
}

#endif
