/* The table of run-time code ranges (see code_range.h). It is built by
 * the linker and never changes, so reading it needs no lock. */
#include "kernel/code_range.h"
#include "kernel/nokprobe.h"

extern const struct code_range __start_code_ranges[], __stop_code_ranges[];

const struct code_range *code_range_find(uintptr_t addr)
{
	for (const struct code_range *r = __start_code_ranges; r < __stop_code_ranges; r++)
		if (r->contains(addr))
			return r;
	return NULL;
}
NOKPROBE_SYMBOL(code_range_find);
