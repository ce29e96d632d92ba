/* Selftests of the calls from call sites (kernel/trace/ftrace.h): an
 * ops filtered to one function sees each of its calls with the
 * function's address, its caller and its arguments; one that reads no
 * registers gets none, but for while another at the same site reads
 * them, and the call's arguments and result survive both trampolines;
 * an ops that moves
 * the instruction pointer makes the call return early; an ops on every
 * site runs while the kernel does, and turning it off leaves every site
 * the NOP it was. */
#include "kernel/rcu.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "kernel/trace/ftrace.h"
#include "kernel/trace/ftrace_sites.h"
#include "lib/errno.h"
#include <asm/ftrace.h>
#include <asm/ptrace.h>

static __noinline int site_target(int x)
{
	__asm__ volatile("");
	return x * 3;
}

static unsigned long calls, light_calls, light_with_regs;
static uintptr_t seen_ip, seen_parent, seen_next;
static uint64_t seen_arg;

static notrace void count_call(uintptr_t ip, uintptr_t parent_ip, struct ftrace_ops *ops,
			       struct pt_regs *regs)
{
	(void)ops;
	__atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
	if (ip == (uintptr_t)site_target) {
		seen_ip = ip;
		seen_parent = parent_ip;
		seen_next = instruction_pointer(regs);
		seen_arg = regs_get_argument(regs, 0);
	}
}

/* The callback of an ops without FTRACE_OPS_SAVE_REGS. */
static notrace void count_light(uintptr_t ip, uintptr_t parent_ip, struct ftrace_ops *ops,
				struct pt_regs *regs)
{
	(void)parent_ip, (void)ops;
	if (ip != (uintptr_t)site_target)
		return;
	__atomic_fetch_add(&light_calls, 1, __ATOMIC_RELAXED);
	if (regs)
		__atomic_fetch_add(&light_with_regs, 1, __ATOMIC_RELAXED);
}

static notrace void return_early(uintptr_t ip, uintptr_t parent_ip, struct ftrace_ops *ops,
				 struct pt_regs *regs)
{
	(void)ip, (void)parent_ip, (void)ops;
	regs_return_from_entry(regs, 42);
}

/* A set of the one site at fn. */
static struct ftrace_site_set *only(void *fn)
{
	return ftrace_site_set_one((uintptr_t)fn);
}

static void a_filtered_ops_sees_each_call(void)
{
	struct ftrace_ops ops = { .func = count_call, .flags = FTRACE_OPS_SAVE_REGS };
	int r;

	calls = 0;
	EXPECT_EQ(ftrace_set_filter(&ops, only(site_target)), 0);
	EXPECT_EQ(register_ftrace_function(&ops), 0);
	EXPECT_EQ(register_ftrace_function(&ops), -EBUSY);	/* once at a time */
	EXPECT(!arch_ftrace_site_is_off((uintptr_t)site_target));
	r = site_target(7);
	EXPECT_EQ(r, 21);
	EXPECT_EQ(calls, 1);
	EXPECT_EQ(seen_ip, (uintptr_t)site_target);
	EXPECT_EQ(seen_next, (uintptr_t)site_target + ARCH_FTRACE_SITE_SIZE);
	EXPECT_EQ(seen_arg, 7);
	EXPECT(seen_parent > (uintptr_t)a_filtered_ops_sees_each_call);
	EXPECT_EQ(unregister_ftrace_function(&ops), 0);
	EXPECT(arch_ftrace_site_is_off((uintptr_t)site_target));
	EXPECT_EQ(site_target(1), 3);
	EXPECT_EQ(calls, 1);
	EXPECT_EQ(ftrace_set_filter(&ops, NULL), 0);
}

static void registers_only_for_who_reads_them(void)
{
	struct ftrace_ops light = { .func = count_light };
	struct ftrace_ops regs = { .func = count_call, .flags = FTRACE_OPS_SAVE_REGS };

	light_calls = light_with_regs = calls = 0;
	EXPECT_EQ(ftrace_set_filter(&light, only(site_target)), 0);
	EXPECT_EQ(ftrace_set_filter(&regs, only(site_target)), 0);
	EXPECT_EQ(register_ftrace_function(&light), 0);
	EXPECT_EQ(site_target(4), 12);
	EXPECT_EQ(light_calls, 1);
	EXPECT_EQ(light_with_regs, 0);
	EXPECT_EQ(register_ftrace_function(&regs), 0);	/* the site moves to the other trampoline */
	EXPECT_EQ(site_target(5), 15);
	EXPECT_EQ(light_calls, 2);
	EXPECT_EQ(light_with_regs, 1);
	EXPECT_EQ(calls, 1);
	EXPECT_EQ(seen_arg, 5);
	EXPECT_EQ(unregister_ftrace_function(&regs), 0);	/* and back */
	EXPECT_EQ(site_target(6), 18);
	EXPECT_EQ(light_calls, 3);
	EXPECT_EQ(light_with_regs, 1);
	EXPECT_EQ(calls, 1);
	EXPECT_EQ(unregister_ftrace_function(&light), 0);
	EXPECT(arch_ftrace_site_is_off((uintptr_t)site_target));
	EXPECT_EQ(ftrace_set_filter(&light, NULL), 0);
	EXPECT_EQ(ftrace_set_filter(&regs, NULL), 0);
}

static void an_ops_may_return_early(void)
{
	struct ftrace_ops ops = { .func = return_early, .flags = FTRACE_OPS_IPMODIFY };

	EXPECT_EQ(ftrace_set_filter(&ops, only(site_target)), 0);
	EXPECT_EQ(register_ftrace_function(&ops), 0);
	EXPECT_EQ(site_target(5), 42);
	EXPECT_EQ(unregister_ftrace_function(&ops), 0);
	EXPECT_EQ(site_target(5), 15);
	EXPECT_EQ(ftrace_set_filter(&ops, NULL), 0);
}

static void every_site_at_once(void)
{
	struct ftrace_ops ops = { .func = count_call, .flags = FTRACE_OPS_SAVE_REGS };
	uint64_t n = 0;
	uintptr_t ip;
	const char *module;

	calls = 0;
	EXPECT_EQ(register_ftrace_function(&ops), 0);
	thread_sleep(2);
	EXPECT(calls > 0);
	EXPECT_EQ(unregister_ftrace_function(&ops), 0);
	rcu_read_lock();
	while (ftrace_site_nth(n, &ip, &module) == 0) {
		EXPECT(arch_ftrace_site_is_off(ip));
		n++;
	}
	rcu_read_unlock();
	EXPECT(n > 500);
}

static const struct selftest_case ftrace_cases[] = {
	SELFTEST_CASE(a_filtered_ops_sees_each_call),
	SELFTEST_CASE(registers_only_for_who_reads_them),
	SELFTEST_CASE(an_ops_may_return_early),
	SELFTEST_CASE(every_site_at_once),
};
SELFTEST_SUITE("ftrace", ftrace_cases);
