/*
 * The crash kind of the tracing layer (crash=KIND on the command line;
 * see kernel/crash_test.c, which finds it through CRASH_KIND):
 *
 *   crash=stack-tracer-end-mark  a thread overwrites the end mark of its
 *                        stack, then calls a function the stack tracer
 *                        measures, deeper than any call before: the
 *                        tracer stops the kernel, naming the thread
 *                        (without it the scheduler would, at the
 *                        thread's next switch)
 */
#include "kernel/crash_test.h"
#include "kernel/panic.h"
#include "kernel/sched.h"
#include "kernel/trace/trace_stack.h"

__noinline void crash_stack_measured(void)
{
	__asm__ volatile("" : : : "memory");	/* a call that really happens */
}

static void end_mark_then_deeper_call(void *unused)
{
	(void)unused;
	preempt_disable();	/* no switch, whose check would find the mark first */
	*(volatile uint64_t *)current_thread()->stack = 0;
	stack_tracer_set_max_size(0);
	crash_stack_measured();
	panic("crash test: the stack tracer let an overwritten end mark pass");
}

__noinline static void crash_by_stack_tracer_end_mark(void)
{
	struct ftrace_site_set *only = ftrace_site_set_one((uintptr_t)crash_stack_measured);

	if (!only)
		panic("crash test: no memory");
	if (ftrace_set_filter(&stack_trace_ops, only) < 0 || stack_tracer_set_enabled(true) < 0)
		panic("crash test: cannot measure crash_stack_measured");
	if (thread_create("stack-end", end_mark_then_deeper_call, NULL) < 0)
		panic("crash test: cannot create a thread");
	thread_yield();
}
CRASH_KIND("stack-tracer-end-mark", crash_by_stack_tracer_end_mark);
