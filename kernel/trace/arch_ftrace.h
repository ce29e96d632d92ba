/* The function tracer's part of the architecture contract (listed in
 * kernel/arch.h): patching call sites, and the trampoline they call.
 * The core (kernel/trace/ftrace.c) decides which sites change; the back
 * end (arch/ARCH/ftrace.c, ftrace_entry.S) knows the instructions. */
#ifndef KERNEL_TRACE_ARCH_FTRACE_H
#define KERNEL_TRACE_ARCH_FTRACE_H

#include "lib/types.h"

struct pt_regs;

/* What a site does: nothing (the NOP), call the trampoline that saves
 * only what a C call may clobber and hands no registers on
 * (ftrace_caller), or call the one that builds a struct pt_regs
 * (ftrace_regs_caller), for an ops that reads or changes them. */
enum ftrace_site_call {
	FTRACE_SITE_NOP,
	FTRACE_SITE_CALL,
	FTRACE_SITE_CALL_REGS,
};

/* One site to change: its address and what it is to do. */
struct ftrace_change {
	uintptr_t ip;
	enum ftrace_site_call to;
};

/* Turn the n sites at ips, as the compiler built them, into sites
 * turned off (FTRACE_SITE_OFF), inside the caller's text_poke batch, at
 * a time no other CPU runs them: the kernel's before the other CPUs
 * start, a module's before it is published. Nothing to do on x86_64;
 * on aarch64, the first NOP becomes `mov x9, x30`, once, so that turning
 * a site on or off later is one word a running CPU may meet half way.
 * 0, or -EFAULT. */
int arch_ftrace_init_sites(const uintptr_t *ips, size_t n);

/* Make every change, inside the caller's text_poke batch, in the steps
 * the architecture's rules for code other CPUs run need: on x86_64 an
 * int3 on each site first, then the tail, then the head, each step
 * synced; on aarch64 the single-word bl or NOP. A site may go from one
 * trampoline to the other as well as on and off. 0, or -EFAULT (or
 * -ENOMEM: aarch64's veneer for a module far from the trampolines). */
int arch_ftrace_apply(const struct ftrace_change *changes, size_t n);

/* The return of ftrace_regs_caller's call of ftrace_dispatch
 * (ftrace_entry.S), for backtraces that cross it. */
extern const char ftrace_dispatch_return[];

/* For a backtrace crossing that call: the site the trampoline was called
 * from (the traced function's address), from the struct pt_regs it
 * saved at regs_addr, of which regs is a copy; 0 if it cannot be read.
 * (regs' instruction pointer is past the site, or wherever a callback
 * moved it: the site's own call left the address.) */
uintptr_t arch_ftrace_regs_site(const struct pt_regs *regs, uintptr_t regs_addr);

#endif
