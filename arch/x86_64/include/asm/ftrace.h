/* x86_64's function-tracer call sites (docs/ftrace.md): what the
 * compiler's -pg -mfentry -mrecord-mcount -mnop-mcount leaves at the
 * entry of every function not marked notrace (lib/types.h). */
#ifndef ASM_FTRACE_H
#define ASM_FTRACE_H

#include "lib/string.h"
#include "lib/types.h"

/* The section in which the compiler records the sites, in a kernel
 * object or a module's .ko: one 64-bit address per site. */
#define ARCH_FTRACE_SITES_SECTION "__mcount_loc"

/* A site is one 5-byte instruction, before the function's push %rbp:
 * `nopl 0(%rax,%rax,1)` while untraced, where -pg alone would have put
 * `call __fentry__`. */
#define ARCH_FTRACE_SITE_SIZE 5
/* The bytes of that NOP, which is also the site turned off. */
#define FTRACE_SITE_OFF { 0x0f, 0x1f, 0x44, 0x00, 0x00 }

/* Whether the site at ip holds the NOP it was built with. */
static inline bool arch_ftrace_site_is_nop(uintptr_t ip)
{
	static const uint8_t nop[ARCH_FTRACE_SITE_SIZE] = FTRACE_SITE_OFF;

	return memcmp((const void *)ip, nop, sizeof(nop)) == 0;
}

/* Whether the site at ip is turned off: on x86_64, the NOP as built. */
static inline bool arch_ftrace_site_is_off(uintptr_t ip)
{
	return arch_ftrace_site_is_nop(ip);
}

#endif
