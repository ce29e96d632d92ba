/*
 * What the probes layer tells about its probes: the one way for code
 * that shows probe state (the `probe` and `bench` commands in
 * kernel/probes/cmd/, and files that list the probes) to read it.
 *
 * Every report is a copy made inside the core, under its lock, so its
 * fields agree with each other, and a probe that another CPU registers
 * or unregisters meanwhile is in a snapshot whole or not at all. The
 * caller takes no lock of the layer and never sees a probe point: the
 * state it can show is the state a report holds.
 */
#ifndef KERNEL_PROBES_PROBE_REPORT_H
#define KERNEL_PROBES_PROBE_REPORT_H

#include "kernel/module/module.h"
#include "kernel/probes/kprobes.h"

/* How the original instruction runs after the pre-handlers. */
enum probe_exec {
	PROBE_EXEC_EMULATE,	/* emulated on the saved registers: no slot */
	PROBE_EXEC_BOOST,	/* run from the slot, which jumps back */
	PROBE_EXEC_STEP,	/* run from the slot with a single-step trap */
	PROBE_EXEC_DETOUR,	/* run the copy in the prepared detour buffer */
	PROBE_EXEC_FTRACE,	/* nothing to run: a call site's call, not a trap */
};
#define PROBE_EXEC_KINDS (PROBE_EXEC_FTRACE + 1)

/* Where a point stands with the jump optimizer (kernel/probes/optimizer.c). */
enum opt_state {
	OPT_NONE,	/* not a candidate now */
	OPT_QUEUED,	/* a candidate, waiting for the optimizer thread */
	OPT_READY,	/* checked, detour buffer built, jump not written yet */
	OPT_OPTIMIZED,	/* the jump to the detour buffer is in the text */
	OPT_REFUSED,	/* a safety check failed: never optimized */
};

/* One registered probe, as a listing shows it. */
struct kprobe_info {
	unsigned int id;		/* its number, given at registration */
	uintptr_t addr;
	enum kprobe_kind kind;
	unsigned int flags;		/* KPROBE_FLAG_GONE, _DISABLED, _OPTIMIZED */
	unsigned long nhit;
	unsigned long nmissed;		/* a kretprobe's with its calls missed
					   for want of an instance */
	const struct kprobe *probe;	/* identity only: do not dereference */
	char where[96];			/* "fn+0x4" (without its module) */
	char module[MODULE_NAME_LEN];	/* that module, or "" in the kernel */
	char owner[MODULE_NAME_LEN];	/* the module the probe belongs to
					   (kprobe.owner), or "" for the
					   kernel's own code */
	char event[128];		/* the event it was made for
					   (kprobe.event_name), or "" */
	/* Not for a gone probe (its code no longer exists), where they are 0: */
	enum opt_state opt_state;	/* its point's, with the jump optimizer */
	enum probe_exec path;		/* how a breakpoint hit there would run
					   the instruction now */
	size_t insn_len;		/* bytes of the probed instruction */
	/* Only for a kretprobe, else 0: */
	int instances_in_use;		/* tracking a call now */
	int maxactive;
};

/* Fill out[] with up to max registered probes, in registration order,
 * from the first-th (0: the oldest) on; returns how many there are in
 * all. A listing longer than out[] takes them max at a time: probes
 * registered or removed between two calls may shift the rest by a few
 * places, so one may be missed or come twice, never shown half. */
int kprobes_snapshot(struct kprobe_info *out, int first, int max);
/* Fill *info for p, a probe its caller registered (so that p is not
 * freed meanwhile): 0, or -ENOENT if p is not registered now. */
int kprobe_get_info(const struct kprobe *p, struct kprobe_info *info);

#define KPROBE_REPORT_BYTES 16

/* Everything about one probe and the point it shares, for `probe show`. */
struct kprobe_report {
	struct kprobe_info info;
	/* A gone probe's report ends here: what happened to its code
	 * ("module m was removed"). Everything below stays 0. */
	char gone_why[96];
	uint8_t original[KPROBE_REPORT_BYTES];	/* the text at addr without
						   any probe's patch */
	uint8_t live[KPROBE_REPORT_BYTES];	/* the text as the CPU sees it */
	char insn[128];			/* the back end's description of the
					   probed instruction */
	uintptr_t slot;			/* its instruction slot, or 0: none */
	uint8_t slot_code[KPROBE_REPORT_BYTES];	/* the slot's first bytes */
	/* The point's counts, which all its probes share: the breakpoint
	 * hits that ran the instruction each way, and the hits that came
	 * through the optimizer's jump instead. */
	unsigned long taken[PROBE_EXEC_KINDS];
	unsigned long opt_hits;
	char optimizer[128];		/* optimized, or why not, in one line */
};

/* Fill *r for the registered probe numbered id, whoever registered it:
 * 0, or -ENOENT if no probe registered now has that number. */
int kprobe_report(unsigned int id, struct kprobe_report *r);

/* One word naming a way to run the probed instruction ("emulated", ...). */
const char *probe_exec_name(enum probe_exec how);
/* True if addr is code the layer never probes (the kernel's never-probe
 * code, or a module's code marked so): what register_kprobe's -EINVAL
 * means there. */
bool kprobe_blacklisted(uintptr_t addr);
/* Instruction slots in use (tests check none leak; `bench` counts what
 * one probe takes). */
unsigned long kprobe_slots_in_use(void);

#endif
