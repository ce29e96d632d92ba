/* aarch64's function-tracer call sites (docs/ftrace.md): what the
 * compiler's -fpatchable-function-entry=2 leaves at the entry of every
 * function not marked notrace (lib/types.h). */
#ifndef ASM_FTRACE_H
#define ASM_FTRACE_H

#include "lib/types.h"

/* The section in which the compiler records the sites, in a kernel
 * object or a module's .ko: one 64-bit address per site. */
#define ARCH_FTRACE_SITES_SECTION "__patchable_function_entries"

/* A site is two words before the function's stp x29, x30. The
 * compiler leaves two NOPs; at boot (or as a module loads) the first
 * becomes `mov x9, x30`, which keeps the caller's return address that a
 * call from the site overwrites, and stays so (arch/aarch64/ftrace.c):
 * turned on, the second word is the `bl` to the trampoline; off, a NOP.
 * Off or as built, the site costs two instructions a call. */
#define ARCH_FTRACE_SITE_SIZE 8
#define A64_NOP 0xd503201fu
#define A64_MOV_X9_X30 0xaa1e03e9u	/* orr x9, xzr, x30 */
/* The bytes of a site turned off: mov x9, x30; nop. */
#define FTRACE_SITE_OFF { 0xe9, 0x03, 0x1e, 0xaa, 0x1f, 0x20, 0x03, 0xd5 }

/* Whether the site at ip holds the two NOPs it was built with. An
 * instruction is 4-byte aligned, so a site that is not is none (and is
 * not read: a module's table may say anything, kernel/module/). */
static inline bool arch_ftrace_site_is_nop(uintptr_t ip)
{
	const uint32_t *insn = (const uint32_t *)ip;

	return ip % 4 == 0 && insn[0] == A64_NOP && insn[1] == A64_NOP;
}

/* Whether the site at ip is turned off (FTRACE_SITE_OFF). */
static inline bool arch_ftrace_site_is_off(uintptr_t ip)
{
	const uint32_t *insn = (const uint32_t *)ip;

	return insn[0] == A64_MOV_X9_X30 && insn[1] == A64_NOP;
}

#endif
