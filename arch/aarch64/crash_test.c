/*
 * The crash kinds aarch64 adds to kernel/crash_test.c.
 *
 *   crash=kretprobe-bug  a kretprobed function that returns with sp 16
 *                        bytes off: the trampoline finds the newest
 *                        instance does not match and stops the kernel
 *                        with the guide's "kretprobe BUG!" message.
 *
 * x86_64's breakpoint kind needs no twin here: crash=trap is already a
 * BRK that the breakpoint hook declines. Its double fault has none:
 * exceptions here have no separate stack to survive a broken one.
 */
#include "kernel/arch.h"
#include "kernel/probes/kprobes.h"
#include "lib/string.h"

/* Returns with sp 16 bytes lower than it was called with (sp stays
 * 16-byte aligned, as the architecture requires). */
__asm__(
	".text\n"
	".globl crash_bad_return\n.type crash_bad_return, %function\n"
	"crash_bad_return:\n"
	"	sub sp, sp, #16\n"
	"	ret\n"
	".size crash_bad_return, .-crash_bad_return\n");
void crash_bad_return(void);

static void crash_kretprobe_bug(void)
{
	static struct kretprobe rp = { .kp.symbol_name = "crash_bad_return" };
	void (*volatile fn)(void) = crash_bad_return;

	if (register_kretprobe(&rp) < 0)
		return;
	fn();
}

bool arch_crash_test(const char *kind)
{
	if (strcmp(kind, "kretprobe-bug") == 0) {
		crash_kretprobe_bug();
		return true;
	}
	return false;
}
