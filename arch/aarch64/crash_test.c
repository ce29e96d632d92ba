/*
 * aarch64's part of kernel/crash_test.c: crash_bad_return, for the
 * portable crash=kretprobe-bug, and no crash kinds of its own. x86_64's
 * breakpoint kind needs no twin (crash=trap is already a BRK that the
 * breakpoint hook declines), and its double fault has none: the nearest
 * thing here, an exception taken on a broken sp, is what the entry's
 * overflow check catches, which crash=stack-overflow tests.
 */
#include "kernel/arch.h"
#include "kernel/crash_test.h"

/* Returns with sp 16 bytes lower than it was called with (sp stays
 * 16-byte aligned, as the architecture requires). */
__asm__(
	".text\n"
	".globl crash_bad_return\n.type crash_bad_return, %function\n"
	"crash_bad_return:\n"
	"	sub sp, sp, #16\n"
	"	ret\n"
	".size crash_bad_return, .-crash_bad_return\n");

bool arch_crash_test(const char *kind)
{
	(void)kind;
	return false;
}
