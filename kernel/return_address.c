/* Return-address recovery (see return_address.h). The registration is one
 * pointer, written once and read without a lock: a reader sees either no
 * recovery or a complete one. */
#include "kernel/return_address.h"
#include "kernel/nokprobe.h"
#include "lib/errno.h"

static const struct return_recovery *recovery;

int return_recovery_register(const struct return_recovery *r)
{
	const struct return_recovery *none = NULL;

	if (!__atomic_compare_exchange_n(&recovery, &none, r, false, __ATOMIC_RELEASE,
					 __ATOMIC_RELAXED))
		return -EBUSY;
	return 0;
}

uintptr_t return_address_real(uintptr_t ret, uintptr_t stack_slot)
{
	const struct return_recovery *r = __atomic_load_n(&recovery, __ATOMIC_ACQUIRE);

	if (!r || ret != r->trampoline)
		return ret;
	return r->real_return(stack_slot);
}
NOKPROBE_SYMBOL(return_address_real);
