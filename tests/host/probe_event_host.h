/* The kernel's services that probe event definitions and their fetches
 * call (kernel/trace/trace_probe.h, probe_fetch.h), stood in for on the
 * host, for tests/host/test_trace_probe.c and the fuzzer's targets:
 * a few symbols at made-up addresses ("vfs_read" once, "twice" twice),
 * sym_format for them, and fault-tolerant reads that fault outside the
 * range said to be readable (the first page always faults). */
#ifndef TESTS_HOST_PROBE_EVENT_HOST_H
#define TESTS_HOST_PROBE_EVENT_HOST_H

#include "kernel/trace/kprobe_event_parse.h"

/* The address vfs_read is at, which sym_format names "vfs_read+0x0/0x90". */
#define HOST_VFS_READ 0xffffffff81100000ULL

/* What the parser is given: regs, the symbols above. */
struct kprobe_parse_env probe_host_env(const struct probe_reg *regs);

/* Reads of [start, end) succeed from now on, and no others. */
void probe_host_readable(uintptr_t start, uintptr_t end);

#endif
