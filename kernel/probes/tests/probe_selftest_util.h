/* Helpers shared by the probe selftests, the portable ones here and the
 * architectures' (arch/<arch>/kprobes_selftest.c and optprobe_selftest.c). */
#ifndef KERNEL_PROBES_PROBE_SELFTEST_UTIL_H
#define KERNEL_PROBES_PROBE_SELFTEST_UTIL_H

#include "kernel/probes/probe_point.h"

/* A pre-handler that does nothing (the core counts kp->nhit). */
int probe_test_count_pre(struct kprobe *p, struct pt_regs *regs);
/* A post-handler that does nothing: its presence forces a single-step. */
void probe_test_nop_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags);
/* Register a kprobe at addr with those handlers (the post-handler only if
 * post); true on success. */
bool probe_test_at(struct kprobe *kp, uintptr_t addr, bool post);
/* The first address of func that a probe reaches by a breakpoint: past
 * its call site if it has one (a probe on the site is [FTRACE], with no
 * instruction to run and no jump to optimize), else func itself. */
uintptr_t probe_test_past_site(uintptr_t func);
/* Turn the jump optimizer off, so that every probe stays a breakpoint:
 * for a test that counts how breakpoint hits ran their instruction,
 * which a probe the optimizer reached first would not count (it runs
 * in the background, and a busy machine lets it win). Returns the
 * setting, for probe_test_optimizer_back to put back. */
bool probe_test_breakpoints_only(void);
void probe_test_optimizer_back(bool was_on);
/* How many hits of kp's point ran the instruction the given way. */
unsigned long probe_test_path_count(const struct kprobe *kp, enum probe_exec how);
/* The way a breakpoint hit on kp's point would run its instruction now. */
enum probe_exec probe_test_exec_path(const struct kprobe *kp);
/* How many hits of kp's point came through the optimizer's jump. */
unsigned long probe_test_opt_hits(const struct kprobe *kp);

/* Functions to probe for the return tests (never inlined, called across
 * files): n + (n - 1) + ... + 0, each term a nested call of its own; and
 * x + 1, with a backtrace taken inside the call. */
long probe_test_sum_to(long n);
long probe_test_capture_backtrace(long x);
/* Call probe_test_capture_backtrace, whose return the caller has hooked,
 * and expect its backtrace to name its real caller (this function) and
 * no trampoline of the return service. */
void probe_test_expect_real_caller(void);

/* A pre-handler that keeps the backtrace its hit sees; and whether the
 * last one kept went on past the probe's trap, detour buffer or call
 * site's trampoline to fn, stopped at its first instruction, and then to
 * the function named caller, whose return address no frame record holds
 * yet there (the one kept is dropped: each check needs a hit of its own). */
int probe_test_record_backtrace(struct kprobe *p, struct pt_regs *regs);
bool probe_test_backtrace_reached(void *fn, const char *caller);

/* A CPU that runs threads other than the one the caller runs on now
 * (which it may leave), in *cpu; false if there is only one. */
bool probe_test_other_cpu(unsigned int *cpu);

/* The optimizer's state of kp's point, read under kprobe_mutex. */
enum opt_state probe_test_opt_state(struct kprobe *kp);
/* Wait until kp's point is optimized or refused (or the time runs out);
 * returns the state it reached. */
enum opt_state probe_test_settle(struct kprobe *kp);
/* True if the text at kp's address is a jump into its detour buffer. */
bool probe_test_jumps_to_detour(const struct kprobe *kp);
/* Register a probe at addr, wait, and expect the optimizer to refuse it
 * for the reason why, about the address where. */
void probe_test_expect_refused(uintptr_t addr, const char *why, uintptr_t where);

#endif
