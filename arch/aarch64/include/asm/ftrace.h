/* aarch64's function-tracer call sites (docs/ftrace.md): what the
 * compiler's -fpatchable-function-entry=2 leaves at the entry of every
 * function not marked notrace (lib/types.h). */
#ifndef ASM_FTRACE_H
#define ASM_FTRACE_H

#include "lib/types.h"

/* The section in which the compiler records the sites, in a kernel
 * object or a module's .ko: one 64-bit address per site. */
#define ARCH_FTRACE_SITES_SECTION "__patchable_function_entries"

/* A site is two NOPs before the function's stp x29, x30: room for
 * `mov x9, x30` (the caller's return address, which the call from the
 * site overwrites) and the `bl` to the trampoline. */
#define ARCH_FTRACE_SITE_SIZE 8
#define FTRACE_SITE_NOP { 0x1f, 0x20, 0x03, 0xd5, 0x1f, 0x20, 0x03, 0xd5 }	/* the two NOPs' bytes */

/* Whether the site at ip holds the two NOPs it was built with. An
 * instruction is 4-byte aligned, so a site that is not is none (and is
 * not read: a module's table may say anything, kernel/module/). */
static inline bool arch_ftrace_site_is_nop(uintptr_t ip)
{
	const uint32_t *insn = (const uint32_t *)ip;

	return ip % 4 == 0 && insn[0] == 0xd503201f && insn[1] == 0xd503201f;
}

#endif
