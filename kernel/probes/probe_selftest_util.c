/* Helpers shared by the architectures' probe selftests (see the header). */
#include "kernel/probes/probe_selftest_util.h"

int probe_test_count_pre(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	(void)regs;
	return 0;
}

void probe_test_nop_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	(void)p;
	(void)regs;
	(void)flags;
}

bool probe_test_at(struct kprobe *kp, uintptr_t addr, bool post)
{
	*kp = (struct kprobe){ .addr = (uint8_t *)addr, .pre_handler = probe_test_count_pre,
			       .post_handler = post ? probe_test_nop_post : NULL };
	return register_kprobe(kp) == 0;
}

unsigned long probe_test_path_count(const struct kprobe *kp, enum probe_exec how)
{
	return kp->point->exec_count[how];
}
