/*
 * What the portable probe selftests (kprobes_selftest.c and
 * optimizer_selftest.c here) ask of each architecture: assembly test
 * targets, so that the tests know which instruction sits where, and a few
 * facts only the architecture can tell. arch/<arch>/kprobes_selftest.c
 * implements the kprobes part, arch/<arch>/optprobe_selftest.c the
 * optimizer's.
 */
#ifndef KERNEL_PROBES_PROBE_SELFTEST_ARCH_H
#define KERNEL_PROBES_PROBE_SELFTEST_ARCH_H

#include "kernel/probes/probe_point.h"

/* ---- kprobes: arch/<arch>/kprobes_selftest.c ---- */

/* Returns 1 if x == 0, else 2, setting the result with a mov immediate. */
long probed_branchy(long x);
/* Returns *p, or -EFAULT when the load faults and the exception table
 * fixes it up. */
long probed_load(const char *p);
/* Named instructions in those targets, indexes into probed_points[]: the mov
 * immediate of probed_branchy (boosted without a post-handler, stepped with
 * one) and the load of probed_load. */
enum { PROBED_MOVIMM, PROBED_LOAD, PROBED_NPOINTS };
/* The addresses of the named instructions. */
extern const uintptr_t probed_points[PROBED_NPOINTS];
/* True if the fault a fault handler was given is a data access fault (a
 * page fault on x86_64, a data abort on aarch64). */
bool probe_test_is_data_fault(const struct pt_regs *regs, int trapnr);
/* True if interrupts are enabled on this CPU now. */
bool probe_test_irqs_enabled(void);

/* ---- the jump optimizer: arch/<arch>/optprobe_selftest.c ---- */

/* Returns a + b + 1; its entry is a point the optimizer optimizes. */
long opt_probed_sum(long a, long b);
/* Where the optimizer's jump at addr goes, or 0 if addr holds no jump. */
uintptr_t probe_test_jump_target(uintptr_t addr);

#endif
