/* A line written to kprobe_events, read into a definition (the syntax is
 * Linux's, Documentation/trace/kprobetrace.rst):
 *
 *   p[:[GRP/][EVENT]] [MOD:]SYM[+OFFS]|ADDR [FETCHARGS]       a kprobe
 *   r[MAXACTIVE][:[GRP/][EVENT]] [MOD:]SYM[+0] [FETCHARGS]    a kretprobe
 *   p[:[GRP/][EVENT]] [MOD:]SYM[+0]%return [FETCHARGS]        the same
 *
 * GRP is "kprobes" when none is given, and EVENT is made from the probe
 * point ("p_vfs_read_0"). Each FETCHARG is read by trace_probe.h. The
 * parser only reads: whether the probe can be placed is the caller's
 * question (kernel/trace/trace_kprobe.c). Kept free of the kernel: the
 * host tests and the fuzzer run it. */
#ifndef KERNEL_TRACE_KPROBE_EVENT_PARSE_H
#define KERNEL_TRACE_KPROBE_EVENT_PARSE_H

#include "kernel/trace/trace_probe.h"

#define KPROBE_EVENT_SYSTEM "kprobes"
#define KRETPROBE_MAXACTIVE_MAX 4096
#define PROBE_SYMBOL_MAX 128	/* "[MOD:]SYM", its NUL included */

struct kprobe_event_def {
	char group[MAX_EVENT_NAME_LEN];
	char event[MAX_EVENT_NAME_LEN];
	char symbol[PROBE_SYMBOL_MAX];	/* "" for a probe at an address */
	uint64_t addr;			/* that address */
	uint64_t offset;		/* past the symbol */
	bool is_return;
	unsigned int maxactive;		/* 0: the default */
	unsigned int flags;		/* TPARG_FL_* */
	int nr_args;
	size_t size;			/* bytes of the arguments' fields */
	struct probe_arg *args;		/* the caller's room for nr_args */
};

/* What the parser asks of the kernel, beyond what the arguments need. */
struct kprobe_parse_env {
	struct probe_parse_env fetch;
	/* How many symbols of the kernel are called name (a kernel has
	 * several static functions of one name). */
	int (*count_symbol)(const char *name);
};

/* The arguments a definition of argc words has: the words after the
 * probe point, the first MAX_TRACE_ARGS of them. */
int kprobe_event_nr_args(int argc);

/* Read the argc words at argv into *def, whose args has room for
 * kprobe_event_nr_args(argc). 0; -ECANCELED if the words are no kprobe
 * definition (another kind of event's, or none); else -EINVAL, -E2BIG,
 * -ENOENT (no such symbol) or -EADDRNOTAVAIL (more than one), with the
 * reason and its place in log. */
int kprobe_event_parse(int argc, const char *const *argv, struct kprobe_event_def *def,
		       const struct kprobe_parse_env *env, struct probe_log *log);

/* The definition as kprobe_events shows it, Linux's normalized form
 * ("p:kprobes/myread vfs_read count=%dx:u64"), with no newline: into
 * buf, of size bytes; the length it needs. */
size_t kprobe_event_show(const struct kprobe_event_def *def, char *buf, size_t size);

#endif
