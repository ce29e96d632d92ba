/*
 * The crash kinds that exercise the probes layer (crash=KIND on the
 * command line; see kernel/crash_test.c, which finds them through
 * CRASH_KIND without knowing them):
 *
 *   crash=jprobe-return  jprobe_return() outside a jprobe's entry
 *                        function: nothing to resume, so the probes
 *                        layer stops the kernel with a message
 *   crash=sleep-in-handler  a kprobe handler that sleeps: the scheduler
 *                        refuses to switch away inside a handler
 *   crash=kretprobe-bug  a kretprobed function that returns with its
 *                        stack off (crash_bad_return): the return
 *                        service finds its newest hooked call does not
 *                        match and stops the kernel with "rethook BUG!"
 *                        (the guide's "kretprobe BUG!", one layer down)
 *
 * Each happens in a function of its own, for the backtrace to show.
 */
#include "kernel/crash_test.h"
#include "kernel/panic.h"
#include "kernel/probes/kprobes.h"
#include "kernel/sched.h"

__noinline void crash_probed(void)
{
	__asm__ volatile("" : : : "memory");	/* a call that really happens */
}

static int sleeping_handler(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	(void)regs;
	thread_sleep(1);
	return 0;
}

__noinline static void crash_by_sleep_in_handler(void)
{
	static struct kprobe kp = { .symbol_name = "crash_probed",
				    .pre_handler = sleeping_handler };

	if (register_kprobe(&kp) < 0)
		panic("crash test: cannot probe crash_probed");
	crash_probed();
}
CRASH_KIND("sleep-in-handler", crash_by_sleep_in_handler);

__noinline static void crash_by_kretprobe_bug(void)
{
	static struct kretprobe rp = { .kp.symbol_name = "crash_bad_return" };
	void (*volatile fn)(void) = crash_bad_return;

	if (register_kretprobe(&rp) < 0)
		panic("crash test: cannot probe crash_bad_return");
	fn();
}
CRASH_KIND("kretprobe-bug", crash_by_kretprobe_bug);

__noinline static void crash_by_jprobe_return(void)
{
	jprobe_return();
}
CRASH_KIND("jprobe-return", crash_by_jprobe_return);
