/* Finding the real return address behind a hijacked one.
 *
 * A layer that replaces return addresses on the stack (the kretprobes of
 * kernel/probes/, which make a probed function return into a trampoline)
 * registers here how to undo that for a reader. A stack unwinder asks
 * return_address_real() for every return address it reads, and so never
 * needs to know who changed it. */
#ifndef KERNEL_RETURN_ADDRESS_H
#define KERNEL_RETURN_ADDRESS_H

#include "lib/types.h"

/* One hijacked return of a thread. A thread's hijacked returns are a
 * stack, newest first, at its hijacked_returns (kernel/sched.h); the
 * hijacking layer embeds the link in its own record of the call and
 * pushes and pops it. The scheduler and the unwinder never look inside. */
struct return_hijack {
	struct return_hijack *next;
};

/* What a hijacking layer registers: the address its hijacked returns go
 * to, and a function that, given the stack slot where such a return
 * address was found in the current thread, returns the real one (or
 * trampoline itself if it knows none). The function must take no lock
 * and not sleep: the unwinder runs in panic and inside probe handlers. */
struct return_recovery {
	uintptr_t trampoline;
	uintptr_t (*real_return)(uintptr_t stack_slot);
};

/* Register r (static storage). Returns 0, or -EBUSY if another layer
 * registered first: there is room for one. */
int return_recovery_register(const struct return_recovery *r);
/* For stack unwinders: the real return address of the call whose return
 * address, ret, was read at stack_slot in the current thread. ret itself
 * unless it is a registered trampoline. */
uintptr_t return_address_real(uintptr_t ret, uintptr_t stack_slot);

#endif
