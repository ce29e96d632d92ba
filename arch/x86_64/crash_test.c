/*
 * The crash kinds x86_64 adds to kernel/crash_test.c.
 *
 *   crash=breakpoint     an int3 no probe owns: breakpoint_common
 *                        (trap_entry.S) asks the breakpoint hook, which
 *                        declines, and trap_dispatch panics.
 *   crash=double-fault   point the stack at unmapped memory and push: the
 *                        page fault cannot push its own frame there, so
 *                        the CPU raises a double fault, which runs on its
 *                        own stack (IST 1, arch/x86_64/cpu.c) and panics.
 *
 * And crash_bad_return, for the portable crash=kretprobe-bug.
 */
#include "kernel/arch.h"
#include "kernel/crash_test.h"
#include "lib/string.h"

/* Returns with %rsp 8 bytes lower than a normal return would leave it:
 * it pops its return address and pushes it back over an extra word. */
__asm__(
	".text\n"
	".globl crash_bad_return\n.type crash_bad_return, @function\n"
	"crash_bad_return:\n"
	"	popq %rax\n"
	"	pushq $0\n"
	"	pushq %rax\n"
	"	ret\n"
	".size crash_bad_return, .-crash_bad_return\n");

bool arch_crash_test(const char *kind)
{
	if (strcmp(kind, "breakpoint") == 0) {
		__asm__ volatile("int3");
		return true;
	}
	if (strcmp(kind, "double-fault") == 0) {
		__asm__ volatile("movq $0x1000, %%rsp\n\t"
				 "pushq $0" : : : "memory");
		return true;
	}
	return false;
}
