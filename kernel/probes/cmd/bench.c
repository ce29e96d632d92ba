/*
 * The `bench` shell command: what one probe hit costs.
 *
 * The workload is vfs_read of 64 bytes of a RAM file, called in a loop
 * with interrupts off. It is timed with the cycle counter (arch_cycles)
 * first with no probe, then with each kind of probe on vfs_read, each
 * with a counting handler (a kprobe at vfs_read+0 rides on its call
 * site, "k-ftrace"; the rows that measure a breakpoint or the optimizer
 * probe past the site, as Linux's multiple_kprobes.tc does); overhead per hit = (time with - time without)
 * / calls. Under QEMU's -icount shift=0 one guest instruction is 1 ns of
 * virtual time, so with the counter's rate against the timer (cycles per
 * tick) tools/bench.py turns the numbers into exact instruction counts:
 * one per TSC tick on x86_64, 16 per CNTVCT tick on aarch64 (`make bench`
 * boots that way once, and once in emulated real time).
 *
 * `bench scale` measures how hits scale: threads pinned to 1, 2 and 4
 * CPUs call vfs_read at once for a fixed emulated time, with no probe
 * and with each kind, and count their calls (bench_scale). `bench scale
 * MS interleaved` measures each row on 1 and 2 CPUs beside a reference
 * without probes, in one order that cancels the host's drift
 * (bench_interleaved).
 *
 * Output lines start with "bench:" and are read by tools/bench.py.
 */
#include "kernel/arch.h"
#include "kernel/cmd_output.h"
#include "kernel/backtrace.h"
#include "kernel/mm/heap.h"
#include "kernel/rcu.h"
#include "kernel/probes/probe_report.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/time.h"
#include "kernel/command.h"
#include "kernel/symtab.h"
#include "kernel/trace/ftrace_profile.h"
#include "kernel/trace/ftrace_sites.h"
#include "kernel/trace/probe_regs.h"
#include "kernel/trace/trace.h"
#include "kernel/trace/tracer.h"
#include "kernel/mm/nofault.h"
#include "kernel/fs/vfs.h"
#include "lib/bitops.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"
#include <asm/ftrace.h>
#include <asm/irq.h>
#include <asm/layout.h>

/* How long the bench waits for the optimizer thread to finish its work. */
#define OPTIMIZER_WAIT (60 * TIMER_HZ)

#define BENCH_FILE "/etc/motd"
#define DEFAULT_CALLS 20000
#define REPEATS 3		/* the fastest of three runs is kept */
#define REGISTER_PAIRS 50

static unsigned long handler_hits;

static int count_pre(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	(void)regs;
	handler_hits++;
	return 0;
}

static void count_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	(void)p;
	(void)regs;
	(void)flags;
}

static int count_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	(void)ri;
	(void)regs;
	handler_hits++;
	return 0;
}

static ssize_t jprobe_entry(struct file *file, char *buf, size_t count, loff_t *pos)
{
	(void)file;
	(void)buf;
	(void)count;
	(void)pos;
	handler_hits++;
	jprobe_return();
}

/* Handlers that count nothing, for probes hit from several CPUs at once
 * (handler_hits is one shared word: its cache line would move between
 * the CPUs on every hit) and for the background probes. The core counts
 * every probe's hits per CPU (kprobe_nhit). */
static int quiet_pre(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	(void)regs;
	return 0;
}

static int quiet_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	(void)ri;
	(void)regs;
	return 0;
}

static void quiet_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	(void)p;
	(void)regs;
	(void)flags;
}

static ssize_t quiet_jprobe_entry(struct file *file, char *buf, size_t count, loff_t *pos)
{
	(void)file;
	(void)buf;
	(void)count;
	(void)pos;
	jprobe_return();
}

/* The workload: calls reads of the first 64 bytes of f. */
static void read_calls(struct file *f, unsigned long calls)
{
	char buf[64];

	for (unsigned long i = 0; i < calls; i++) {
		loff_t pos = 0;

		vfs_read(f, buf, sizeof(buf), &pos);
	}
}

/* Cycles for calls reads, the fastest of REPEATS runs. Interrupts are
 * off while a run is timed, so the thread stays on its CPU (no timer,
 * no preemption) and nothing else runs there: on a machine with several
 * CPUs the others idle, and a run counts only this CPU's work. With
 * records, the trace records written on the CPU in all REPEATS runs go
 * there too (the function tracer's rows). */
static uint64_t time_reads_recording(struct file *f, unsigned long calls, uint64_t *records)
{
	uint64_t best = ~0ULL;

	for (int r = 0; r < REPEATS; r++) {
		unsigned long flags = arch_irq_save();
		uint64_t before = records ? trace_written_this_cpu() : 0;
		uint64_t t0 = arch_cycles();

		read_calls(f, calls);
		best = MIN(best, arch_cycles() - t0);
		if (records)
			*records += trace_written_this_cpu() - before;
		arch_irq_restore(flags);
	}
	return best;
}

static uint64_t time_reads(struct file *f, unsigned long calls)
{
	return time_reads_recording(f, calls, NULL);
}

/* The probes of one benchmark row. */
struct probes {
	struct kprobe k;
	struct jprobe j;
	struct kretprobe r;
	bool has_k, has_j, has_r;
};

static void remove_all(struct probes *p)
{
	if (p->has_k)
		unregister_kprobe(&p->k);
	if (p->has_j)
		unregister_jprobe(&p->j);
	if (p->has_r)
		unregister_kretprobe(&p->r);
}

/* Wait (up to 2 s) for the optimizer to settle the point of kp. */
static void wait_settled(const struct kprobe *kp)
{
	uint64_t end = sched_ticks() + 2 * TIMER_HZ;
	struct kprobe_info info;

	while (sched_ticks() < end && kprobe_get_info(kp, &info) == 0 &&
	       (info.opt_state == OPT_QUEUED || info.opt_state == OPT_READY))
		thread_sleep(1);
}

static const char *path_of(const struct kprobe *kp)
{
	struct kprobe_info info;

	if (kprobe_get_info(kp, &info) < 0)
		return "unregistered";
	if (info.flags & KPROBE_FLAG_OPTIMIZED)
		return "optimized";
	return probe_exec_name(info.path);
}

/* The first offset of vfs_read that a kprobe reaches by a breakpoint:
 * past its call site (a kprobe on the site is [FTRACE]). */
static unsigned int past_site(void)
{
	struct symbol sym;

	return sym_by_name("vfs_read", &sym) == 0 && ftrace_is_site(sym.addr) ?
		       ARCH_FTRACE_SITE_SIZE : 0;
}

/* An offset of vfs_read whose instruction must be single-stepped. */
static long stepped_offset(void)
{
	struct symbol sym;

	if (sym_by_name("vfs_read", &sym) < 0)
		return -1;
	for (size_t off = 1; off < sym.size; off++) {
		struct kprobe kp = { .addr = (uint8_t *)(sym.addr + off), .pre_handler = count_pre };
		struct kprobe_info info;
		bool stepped;

		if (register_kprobe(&kp) < 0)
			continue;
		stepped = kprobe_get_info(&kp, &info) == 0 && info.path == PROBE_EXEC_STEP;
		unregister_kprobe(&kp);
		if (stepped)
			return (long)off;
	}
	return -1;
}

/* Forget the addresses an earlier registration of p's probes resolved
 * from their symbol names: a probe with both is refused. */
static void forget_addresses(struct probes *p)
{
	struct kprobe *kps[] = { &p->k, &p->j.kp, &p->r.kp };

	for (size_t i = 0; i < ARRAY_SIZE(kps); i++)
		if (kps[i]->symbol_name)
			kps[i]->addr = NULL;
}

/* Register the probes of row name and let the optimizer settle the
 * point of shown (NULL: a row without probes). 0, or an error, printed.
 * The probes may have been registered before (the rows that switch the
 * optimizer, the interleaved runs). */
static int add_all(const char *name, struct probes *p, struct kprobe *shown)
{
	int err = 0;

	forget_addresses(p);
	if (p->has_r)
		err = register_kretprobe(&p->r);
	if (!err && p->has_k)
		err = register_kprobe(&p->k);
	if (!err && p->has_j)
		err = register_jprobe(&p->j);
	if (err) {
		cmd_eprintf("bench: %-22s error %d\n", name, err);
		remove_all(p);
		return err;
	}
	if (shown)
		wait_settled(shown);
	return 0;
}

static void row(const char *name, struct file *f, unsigned long calls, uint64_t base,
		struct probes *p, struct kprobe *shown)
{
	uint64_t t;

	handler_hits = 0;
	if (add_all(name, p, shown) < 0)
		return;
	t = time_reads(f, calls);
	cmd_printf("bench: %-22s overhead %6lu.%02lu cycles/hit  path %s  hits %lu\n", name,
		   (unsigned long)((t - MIN(t, base)) / calls),
		   (unsigned long)((t - MIN(t, base)) * 100 / calls % 100), path_of(shown),
		   handler_hits / REPEATS);
	remove_all(p);
}

/* ---- The function tracer, driven through tracefs as a user drives it ---- */

#define TRACING "/sys/kernel/tracing/"

/* `echo text > TRACING name` (or >> with O_APPEND in how): the file's
 * write and close (where a filter takes effect). 0 or a negative errno. */
static int tracing_write_how(const char *name, const char *text, int how)
{
	char path[64];
	struct file *f;
	loff_t pos = 0;
	ssize_t n;
	int err;

	snprintf(path, sizeof(path), TRACING "%s", name);
	err = vfs_open(path, O_WRONLY | how, &f);
	if (err < 0)
		return err;
	n = vfs_write(f, text, strlen(text), &pos);
	vfs_close(f);
	return n < 0 ? (int)n : 0;
}

static int tracing_write(const char *name, const char *text)
{
	return tracing_write_how(name, text, O_TRUNC);
}

/* Whether the function filter is empty: it reads as the line Linux
 * prints for "every function". */
static bool filter_is_empty(void)
{
	static const char every[] = "#### all functions enabled ####";
	char buf[sizeof(every)] = "";
	struct file *f;
	loff_t pos = 0;

	if (vfs_open(TRACING "set_ftrace_filter", O_RDONLY, &f) < 0)
		return false;
	vfs_read(f, buf, sizeof(buf) - 1, &pos);
	vfs_close(f);
	return strcmp(buf, every) == 0;
}

/* Whether row can be measured: no tracer at work, no profiler and an
 * empty function filter, which the rows leave as they found them (the
 * profiler shares the graph service with function_graph, and the
 * filter with every tracer); if not, a line says so. */
static bool function_tracing_free(const char *row)
{
	if (strcmp(tracer_current()->name, "nop") == 0 && !ftrace_profile_enabled() &&
	    filter_is_empty())
		return true;
	cmd_printf("bench: %-22s not measured: a tracer, the profiler or a filter is set\n", row);
	return false;
}

static void print_per_call(const char *what, uint64_t n, unsigned long calls)
{
	cmd_printf("  %s %lu.%02lu", what, (unsigned long)(n / calls),
		   (unsigned long)(n * 100 / calls % 100));
}

/* A tracer's rows: filtered to vfs_read (a row of the per-hit table,
 * each record a hit: the function tracer's one a call, and
 * function_graph's too, vfs_read alone being a leaf), then on every
 * function (the loop's cycles and records per call, as "bench: every-
 * function" or "bench: every-function-graph"). Only while
 * function_tracing_free. */
static void tracer_rows(struct file *f, unsigned long calls, uint64_t base, const char *row,
			const char *tracer, const char *every)
{
	uint64_t t, records = 0;
	int err;

	if (!function_tracing_free(row))
		return;
	err = tracing_write("set_ftrace_filter", "vfs_read");
	if (!err)
		err = tracing_write("current_tracer", tracer);
	if (!err) {
		t = time_reads_recording(f, calls, &records);
		cmd_printf("bench: %-22s overhead %6lu.%02lu cycles/hit  path %s  hits %lu\n",
			   row, (unsigned long)((t - MIN(t, base)) / calls),
			   (unsigned long)((t - MIN(t, base)) * 100 / calls % 100), tracer,
			   (unsigned long)(records / REPEATS));
		err = tracing_write("set_ftrace_filter", "");
	}
	if (!err) {
		records = 0;
		t = time_reads_recording(f, calls, &records);
		cmd_printf("bench: %s", every);
		print_per_call("cycles/call", t, calls);
		print_per_call("records/call", records / REPEATS, calls);
		cmd_printf("\n");
	}
	tracing_write("current_tracer", "nop");
	tracing_write("set_ftrace_filter", "");
	if (err)
		cmd_eprintf("bench: %-22s error %d\n", row, err);
}

/* The function profiler on every function: the loop's cycles per call,
 * as "bench: every-function-profile". Only while
 * function_tracing_free. */
static void profiler_row(struct file *f, unsigned long calls)
{
	int err;

	if (!function_tracing_free("every-function-profile"))
		return;
	err = tracing_write("function_profile_enabled", "1");
	if (!err) {
		cmd_printf("bench: every-function-profile");
		print_per_call("cycles/call", time_reads(f, calls), calls);
		cmd_printf("\n");
		err = tracing_write("function_profile_enabled", "0");
	}
	if (err)
		cmd_eprintf("bench: %-22s error %d\n", "every-function-profile", err);
}

/* ---- Kprobe events, defined through kprobe_events as a user defines them ---- */

#define BENCH_EVENT "kprobes/bench"

/* The report of the probe the event BENCH_EVENT sits on; false if it
 * has none. */
static bool event_probe(struct kprobe_info *info)
{
	for (int i = 0; i < kprobes_snapshot(info, i, 1); i++)
		if (!strcmp(info->event, BENCH_EVENT))
			return true;
	return false;
}

/* A row of a kprobe event: definition written to kprobe_events (which
 * it empties first, as `>` does), the event enabled, the reads timed,
 * the records it wrote counted as its hits; then removed. With a
 * trigger, that is written to the event's trigger file instead of
 * enabling it, which arms the event with no records: its probe's hits
 * are counted. */
static __noinline void event_row(struct file *f, unsigned long calls, uint64_t base, const char *row,
		      const char *definition, const char *trigger)
{
	struct kprobe_info info;
	uint64_t t, records = 0;
	unsigned long hits = 0;
	char undo[128];
	int err = tracing_write("kprobe_events", definition);

	snprintf(undo, sizeof(undo), "!%s", trigger ? trigger : "");
	if (!err)
		err = trigger ? tracing_write("events/" BENCH_EVENT "/trigger", trigger) :
				tracing_write("events/" BENCH_EVENT "/enable", "1");
	if (!err && !event_probe(&info))
		err = -ENOENT;
	if (!err) {
		wait_settled(info.probe);
		event_probe(&info);
		hits = info.nhit;
		t = time_reads_recording(f, calls, &records);
		event_probe(&info);
		hits = trigger ? info.nhit - hits : (unsigned long)records;
		cmd_printf("bench: %-22s overhead %6lu.%02lu cycles/hit  path %s  hits %lu\n",
			   row, (unsigned long)((t - MIN(t, base)) / calls),
			   (unsigned long)((t - MIN(t, base)) * 100 / calls % 100),
			   path_of(info.probe), hits / REPEATS);
	}
	if (trigger)
		tracing_write("events/" BENCH_EVENT "/trigger", undo);
	else
		tracing_write("events/" BENCH_EVENT "/enable", "0");
	tracing_write("kprobe_events", "");
	if (err)
		cmd_eprintf("bench: %-22s error %d\n", row, err);
}

/* The event rows: a kprobe event with no argument and with three (two
 * registers and one dereference: the first two arguments, and a word
 * the first points to), at vfs_read's call site and past it (where the
 * optimizer makes it a jump), a kretprobe event with its return value,
 * and an event that feeds a log2 histogram of vfs_read's count. The
 * registers are named as the architecture names them, since past the
 * first instruction $argN is not taken. */
static __noinline void event_rows(struct file *f, unsigned long calls, uint64_t base)
{
	const char *a1 = arch_probe_arg_regs[0], *a2 = arch_probe_arg_regs[1];
	const char *a3 = arch_probe_arg_regs[2];
	char def[128];

	event_row(f, calls, base, "event-ftrace", "p:" BENCH_EVENT " vfs_read", NULL);
	snprintf(def, sizeof(def), "p:" BENCH_EVENT " vfs_read+%u", past_site());
	event_row(f, calls, base, "event-optimized", def, NULL);
	snprintf(def, sizeof(def), "p:" BENCH_EVENT " vfs_read a=%%%s b=%%%s c=+0(%%%s):u64", a1, a2,
		 a1);
	event_row(f, calls, base, "event-3args-ftrace", def, NULL);
	snprintf(def, sizeof(def), "p:" BENCH_EVENT " vfs_read+%u a=%%%s b=%%%s c=+0(%%%s):u64",
		 past_site(), a1, a2, a1);
	event_row(f, calls, base, "event-3args-optimized", def, NULL);
	event_row(f, calls, base, "event-kretprobe", "r:" BENCH_EVENT " vfs_read ret=$retval", NULL);
	snprintf(def, sizeof(def), "p:" BENCH_EVENT " vfs_read count=%%%s:u64", a3);
	event_row(f, calls, base, "event-hist-ftrace", def, "hist:keys=count.log2");
	snprintf(def, sizeof(def), "p:" BENCH_EVENT " vfs_read+%u count=%%%s:u64", past_site(), a3);
	event_row(f, calls, base, "event-hist-optimized", def, "hist:keys=count.log2");
}

#define MANY_EVENTS 256

/* Linux's multiple_kprobes test, timed: MANY_EVENTS events on vfs_read
 * defined one line at a time (>>), then all removed (>), in the
 * kernel's clock. */
static __noinline void many_events_row(void)
{
	uint64_t t0, t1, t2;
	char def[64];
	int err = tracing_write("kprobe_events", "");

	t0 = (uint64_t)ktime_get();
	for (int i = 0; i < MANY_EVENTS && !err; i++) {
		snprintf(def, sizeof(def), "p:kprobes/many%d vfs_read", i);
		err = tracing_write_how("kprobe_events", def, O_APPEND);
	}
	t1 = (uint64_t)ktime_get();
	if (!err)
		err = tracing_write("kprobe_events", "");
	t2 = (uint64_t)ktime_get();
	if (err)
		cmd_eprintf("bench: %d events: error %d\n", MANY_EVENTS, err);
	else
		cmd_printf("bench: %d events defined in %lu us, removed in %lu us\n", MANY_EVENTS,
			   (unsigned long)((t1 - t0) / 1000), (unsigned long)((t2 - t1) / 1000));
}

/* ---- What registering costs, against how many probes exist ---- */

#define BACKGROUND_MAX 10000
#define TRIAL_ROUNDS 8
#define GRACE_PERIODS 10

/* The numbers of other probes registered while a pair is timed. */
static const size_t background_steps[] = { 0, 100, 1000, BACKGROUND_MAX };

/* The other probes: on instruction boundaries of functions that do not
 * run while a pair is timed, so that none of them is hit and adds a
 * handler's cost to what is measured. */
struct background {
	struct kprobe **probes;	/* BACKGROUND_MAX of them */
	size_t count;		/* found (and registered) so far */
	size_t next_sym;	/* the symbol table entry to look at next */
	uintptr_t walked_to;	/* the end of the last function walked */
	/* Never a background: the measured function, the functions on the
	 * call stack of the bench itself, whose code after the current call
	 * runs later but never while the trial rounds look for hits, and
	 * the heap's growing path (heap_path_of_pairs). */
	uintptr_t skip[1 + BACKTRACE_MAX + 2];
	int nskip;
};

/* Code a pair runs only when the heap has no room for its point and
 * must map a page (kfree gives whole free pages at the end back at
 * once): with 10,000 probes registered each round of pairs grows the
 * heap, while the trial rounds, with other numbers of probes, may never
 * have. The growing block is inserted into the free list and merged. */
static const char *const heap_path_of_pairs[] = { "heap_grow", "free_insert" };

/* Each pair has its own kprobe, as a probe's memory may be reused only
 * after the grace period that follows its unregistering. */
static struct kprobe pair_probes[REGISTER_PAIRS];

/* Probe one function's instructions from its start, walking from one to
 * the next by the length the back end decoded, until one is refused
 * (it cannot be probed) or there are enough. */
static void probe_function(struct background *bg, uintptr_t at, uintptr_t end)
{
	while (at < end && bg->count < BACKGROUND_MAX) {
		struct kprobe *kp = bg->probes[bg->count];
		struct kprobe_info info;

		memset(kp, 0, sizeof(*kp));
		kp->addr = (uint8_t *)at;
		kp->pre_handler = quiet_pre;
		if (register_kprobe(kp) < 0)
			return;
		bg->count++;
		if (kprobe_get_info(kp, &info) < 0)
			return;
		at += info.insn_len;
	}
}

static bool skipped(const struct background *bg, uintptr_t func)
{
	for (int i = 0; i < bg->nskip; i++)
		if (bg->skip[i] == func)
			return true;
	return false;
}

/* Skip the function named name, those of the callers on this call stack
 * (not inlined, so that the first of them is its own caller), and the
 * heap's growing path.
 * Returns 0, or -ENOENT if name is not a function. */
static __noinline int skip_measured_and_callers(struct background *bg, const char *name)
{
	struct backtrace_entry calls[BACKTRACE_MAX];
	int n = backtrace_collect(arch_current_frame(), calls, BACKTRACE_MAX);
	struct symbol sym;

	if (sym_by_name(name, &sym) < 0)
		return -ENOENT;
	bg->skip[bg->nskip++] = sym.addr;
	for (int i = 0; i < n; i++)
		if (sym_by_addr(calls[i].addr, &sym) == 0)
			bg->skip[bg->nskip++] = sym.addr;
	for (size_t i = 0; i < ARRAY_SIZE(heap_path_of_pairs); i++)
		if (sym_by_name(heap_path_of_pairs[i], &sym) == 0)	/* unless inlined */
			bg->skip[bg->nskip++] = sym.addr;
	return 0;
}

/* Register background probes until there are BACKGROUND_MAX (or the
 * kernel's functions run out), function by function in address order. */
static void background_fill(struct background *bg)
{
	while (bg->count < BACKGROUND_MAX && bg->next_sym < kernel_symtab.count) {
		size_t i = bg->next_sym++;
		const struct symtab_entry *e = &kernel_symtab.entries[i];

		/* Aliases share an address: walk each function once. */
		if (!sym_type_is_text(symtab_type(&kernel_symtab, i)) || e->size == 0 ||
		    e->addr < bg->walked_to || skipped(bg, e->addr))
			continue;
		bg->walked_to = e->addr + e->size;
		probe_function(bg, e->addr, e->addr + e->size);
	}
}

/* Hits on the background probes so far. */
static unsigned long background_hits(const struct background *bg, size_t n)
{
	unsigned long hits = 0;

	for (size_t i = 0; i < n; i++)
		hits += kprobe_nhit(bg->probes[i]) + kprobe_nmissed(bg->probes[i]);
	return hits;
}

/* Unregister the background probes that were hit (their functions run
 * while a pair is timed), keeping the others first in the array.
 * Returns how many went. */
static size_t background_drop_hit(struct background *bg)
{
	size_t kept = 0, dropped;

	for (size_t i = 0; i < bg->count; i++) {
		struct kprobe *kp = bg->probes[i];

		if (kprobe_nhit(kp) || kprobe_nmissed(kp))
			continue;
		bg->probes[i] = bg->probes[kept];
		bg->probes[kept++] = kp;
	}
	dropped = bg->count - kept;
	unregister_kprobes(bg->probes + kept, (int)dropped);
	bg->count = kept;
	return dropped;
}

/*
 * Cycles for one register + unregister pair at vfs_read, the average of
 * REGISTER_PAIRS. The unregistering is its first half only
 * (unregister_kprobe_begin: the probe is disarmed and unlinked, its
 * point's memory freed later by call_rcu): the pairs' probes then share
 * one grace period, which settle_pairs waits for once the clock has
 * stopped. What a grace period costs is timed on its own
 * (time_grace_period).
 */
static uint64_t time_pairs(void)
{
	uint64_t t0 = arch_cycles();

	for (int i = 0; i < REGISTER_PAIRS; i++) {
		struct kprobe *kp = &pair_probes[i];

		*kp = (struct kprobe){ .symbol_name = "vfs_read", .pre_handler = count_pre };
		register_kprobe(kp);
		unregister_kprobe_begin(kp);
	}
	return (arch_cycles() - t0) / REGISTER_PAIRS;
}

/* After time_pairs: the grace period, and the points' frees too
 * (point_free_rcu), whose kfree would otherwise run in the next timed
 * pairs; then the second half of each unregistering, the counts. The
 * heap code that runs here runs outside the timed pairs. */
static void settle_pairs(void)
{
	rcu_barrier();
	for (int i = 0; i < REGISTER_PAIRS; i++)
		unregister_kprobe_finish(&pair_probes[i]);
}

/* Cycles one synchronize_rcu takes, the average of GRACE_PERIODS. */
static uint64_t time_grace_period(void)
{
	uint64_t t0 = arch_cycles();

	for (int i = 0; i < GRACE_PERIODS; i++)
		synchronize_rcu();
	return (arch_cycles() - t0) / GRACE_PERIODS;
}

/* Find the background probes: register them, then time pairs and sleep
 * a few ticks (the timer and the other threads run then too), and drop
 * every probe that was hit, until a round hits none. */
static void background_find(struct background *bg)
{
	for (int round = 0; round < TRIAL_ROUNDS; round++) {
		size_t dropped;

		background_fill(bg);
		optimizer_wait_idle(OPTIMIZER_WAIT);
		time_pairs();
		settle_pairs();
		thread_sleep(3);
		time_pairs();
		settle_pairs();
		dropped = background_drop_hit(bg);
		cmd_printf("bench: background probes, round %d: %lu found, %lu hit and dropped\n",
			   round + 1, (unsigned long)(bg->count + dropped), (unsigned long)dropped);
		if (dropped == 0)
			break;
	}
}

/* Unregister all background probes, one batch at a time, and let the
 * optimizer and the deferred frees finish. */
static void background_remove(struct background *bg, size_t n)
{
	for (size_t i = 0; i < n; i += 256)
		unregister_kprobes(bg->probes + i, (int)MIN((size_t)256, n - i));
	optimizer_wait_idle(OPTIMIZER_WAIT);
	rcu_barrier();
}

/* One pair timed with n background probes registered: one line, and
 * where any background probe was hit meanwhile (the measurement then
 * counts its handler too, and tools/bench.py says so). */
static void report_pairs(const struct background *bg, size_t n)
{
	unsigned long hits, before = background_hits(bg, n);
	uint64_t t;

	optimizer_wait_idle(OPTIMIZER_WAIT);
	t = time_pairs();
	hits = background_hits(bg, n) - before;
	settle_pairs();
	cmd_printf("bench: register+unregister with %lu probes: %lu cycles (background hits %lu)\n",
		   (unsigned long)n, (unsigned long)t, hits);
	for (size_t i = 0; i < n && hits; i++) {
		char at[80];

		if (!kprobe_nhit(bg->probes[i]) && !kprobe_nmissed(bg->probes[i]))
			continue;	/* (counted since it was registered) */
		sym_format_offset((uintptr_t)bg->probes[i]->addr, at, sizeof(at));
		cmd_printf("bench:   background probe hit at %s\n", at);
	}
}

/* The memory one registered kprobe takes: heap and slots. Another probe
 * is registered first: the first probe's hit counts start a per-CPU
 * chunk (kernel/mm/percpu_alloc.c) that the next few hundred share, and
 * that chunk is not what one more probe costs. */
static void bench_memory(void)
{
	struct kprobe first = { .symbol_name = "vfs_write", .pre_handler = count_pre };
	struct kprobe kp = { .symbol_name = "vfs_read", .pre_handler = count_pre };
	struct heap_stats before, during;
	unsigned long slots;

	rcu_barrier();	/* earlier points' deferred frees */
	register_kprobe(&first);
	slots = kprobe_slots_in_use();
	heap_get_stats(&before);
	register_kprobe(&kp);
	heap_get_stats(&during);
	cmd_printf("bench: %-22s %lu bytes (heap %lu, %lu instruction slots)\n", "memory per probe",
		   (unsigned long)(during.bytes_in_use - before.bytes_in_use + sizeof(kp)),
		   (unsigned long)(during.bytes_in_use - before.bytes_in_use),
		   kprobe_slots_in_use() - slots);
	unregister_kprobe(&kp);
	unregister_kprobe(&first);
}

/*
 * The registration rows: a pair with 0, 100, 1000 and 10,000 other
 * probes registered; the 10,000 are registered with one register_kprobes
 * call, timed, and the optimizer's work on them after it too. Then a
 * grace period, and the memory one probe takes. Returns 0, or -ENOMEM
 * after saying so.
 */
static int bench_register(void)
{
	struct background bg = { 0 };
	struct kprobe *store = kmalloc(BACKGROUND_MAX * sizeof(*store));
	uint64_t t0, t_reg, t_opt;
	size_t have = 0;

	bg.probes = kmalloc(BACKGROUND_MAX * sizeof(*bg.probes));
	if (!store || !bg.probes || skip_measured_and_callers(&bg, "vfs_read") < 0) {
		cmd_eprintf("bench: register+unregister no memory for the background probes\n");
		kfree(store);
		kfree(bg.probes);
		return -ENOMEM;
	}
	for (size_t i = 0; i < BACKGROUND_MAX; i++)
		bg.probes[i] = &store[i];
	background_find(&bg);
	background_remove(&bg, bg.count);

	for (size_t s = 0; s < ARRAY_SIZE(background_steps); s++) {
		size_t n = MIN(background_steps[s], bg.count);

		if (background_steps[s] == BACKGROUND_MAX) {
			background_remove(&bg, have);
			t0 = arch_cycles();
			register_kprobes(bg.probes, (int)n);
			t_reg = arch_cycles() - t0;
			optimizer_wait_idle(OPTIMIZER_WAIT);
			t_opt = arch_cycles() - t0 - t_reg;
			cmd_printf("bench: register_kprobes of %lu probes: %lu cycles, optimizer after it:"
				   " %lu cycles\n", (unsigned long)n, (unsigned long)t_reg,
				   (unsigned long)t_opt);
		} else if (n > have) {
			register_kprobes(bg.probes + have, (int)(n - have));
		}
		have = n;
		report_pairs(&bg, n);
	}
	background_remove(&bg, have);
	kfree(store);
	kfree(bg.probes);
	cmd_printf("bench: grace period %lu cycles\n", (unsigned long)time_grace_period());
	bench_memory();
	return 0;
}

/* The cycle counter's rate, against the timer: cycles per tick. */
static uint64_t cycles_per_tick(void)
{
	uint64_t t0, c0, start = sched_ticks();

	while (sched_ticks() == start)
		arch_cpu_relax();
	t0 = sched_ticks();
	c0 = arch_cycles();
	while (sched_ticks() < t0 + 10)
		arch_cpu_relax();
	return (arch_cycles() - c0) / 10;
}

/* Every hit row: each kind of probe on vfs_read, timed over calls
 * reads of BENCH_FILE. The rows switch the optimizer on and off; it is
 * left as the user had it. Returns 0, or the error of BENCH_FILE's
 * open after saying it. (A row that fails says so on its own line, and
 * the others are still measured: the bench as a whole is done.) */
static int bench_hits(unsigned long calls)
{
	bool was_optimizing = kprobes_optimization_enabled();
	uint64_t base;
	struct file *f;
	long step_off;
	int err = vfs_open(BENCH_FILE, O_RDONLY, &f);

	if (err < 0) {
		cmd_eprintf("bench: cannot open %s\n", BENCH_FILE);
		return err;
	}
	cmd_printf("bench: calls %lu, cycles per tick %lu (tick = %u ms)\n", calls,
		   (unsigned long)cycles_per_tick(), 1000 / TIMER_HZ);
	base = time_reads(f, calls);
	cmd_printf("bench: %-22s %6lu.%02lu cycles/call\n", "baseline", (unsigned long)(base / calls),
		   (unsigned long)(base * 100 / calls % 100));
	step_off = stepped_offset();

	struct probes kftrace = { .k = { .symbol_name = "vfs_read", .pre_handler = count_pre },
				  .has_k = true };
	struct probes k = { .k = { .symbol_name = "vfs_read", .offset = past_site(),
				   .pre_handler = count_pre }, .has_k = true };
	struct probes kpost = { .k = { .symbol_name = "vfs_read", .offset = past_site(),
				       .pre_handler = count_pre, .post_handler = count_post },
				.has_k = true };
	struct probes kstep = { .k = { .symbol_name = "vfs_read", .offset = (unsigned)step_off,
				       .pre_handler = count_pre }, .has_k = true };
	struct probes j = { .j = { .kp.symbol_name = "vfs_read", .entry = jprobe_entry }, .has_j = true };
	struct probes r = { .r = { .kp.symbol_name = "vfs_read", .handler = count_return }, .has_r = true };
	struct probes kr = { .k = kftrace.k, .r = r.r, .has_k = true, .has_r = true };
	struct probes jr = { .j = j.j, .r = r.r, .has_j = true, .has_r = true };

	kprobes_set_optimization(true);
	row("k-optimized", f, calls, base, &k, &k.k);
	row("k-ftrace", f, calls, base, &kftrace, &kftrace.k);
	row("r", f, calls, base, &r, &r.r.kp);
	row("kr", f, calls, base, &kr, &kr.k);
	row("j", f, calls, base, &j, &j.j.kp);
	row("jr", f, calls, base, &jr, &jr.j.kp);
	row("k-post-handler", f, calls, base, &kpost, &kpost.k);
	kprobes_set_optimization(false);
	row("k-boosted-or-emulated", f, calls, base, &k, &k.k);
	if (step_off > 0)
		row("k-single-stepped", f, calls, base, &kstep, &kstep.k);
	else
		cmd_printf("bench: %-22s no single-stepped instruction in vfs_read\n", "k-single-stepped");
	kprobes_set_optimization(was_optimizing);	/* as the user left it */
	event_rows(f, calls, base);
	many_events_row();
	tracer_rows(f, calls, base, "function-tracer", "function", "every-function");
	tracer_rows(f, calls, base, "function_graph", "function_graph", "every-function-graph");
	profiler_row(f, calls);
	vfs_close(f);
	return 0;
}

/* ---- Scaling: several CPUs through the same probe at once ---- */

#define SCALE_DEFAULT_MS 200
#define SCALE_BATCH 64		/* reads between two looks at the clock */
#define SCALE_WAIT (2 * TIMER_HZ)	/* for the threads to start or end */

/* One calling thread's state, on a cache line of its own: each CPU
 * writes only its own, so the calls are all the CPUs share. */
struct scaler {
	struct file *f;
	unsigned long calls;
	unsigned long faults;	/* exceptions taken (the "fault" rows) */
} __aligned(64);

static struct scaler scalers[MAX_CPUS];
static int scale_ready, scale_go, scale_done;
static ktime_t scale_end;
/* The "fault" rows: each call also takes scale_faults exceptions that
 * no probe causes (one in "fault", two in "fault2"), and faults_taken
 * counts them over the row's runs. */
static unsigned int scale_faults;
static unsigned long faults_taken;

/* The heap's last page: mapped only if the heap ever grew to its whole
 * gigabyte, so a read there faults. */
#define NEVER_MAPPED (HEAP_BASE + HEAP_MAX_SIZE - PAGE_SIZE)

/* calls reads like read_calls, each after faults reads of NEVER_MAPPED:
 * data aborts or page faults, which the exception table turns into
 * -EFAULT (copy_from_kernel_nofault). What exceptions cost with no probe
 * involved, against which the rows whose hits trap can be read: one per
 * call as a breakpoint kprobe takes, two as a jprobe or a post-handler. */
static void read_calls_faulting(struct scaler *s, unsigned long calls, unsigned int faults)
{
	for (unsigned long i = 0; i < calls; i++) {
		for (unsigned int e = 0; e < faults; e++) {
			uint64_t word;

			if (copy_from_kernel_nofault(&word, (const void *)NEVER_MAPPED,
						     sizeof(word)) < 0)
				s->faults++;
		}
		read_calls(s->f, 1);
	}
}

/* A calling thread: wait for the start, so that every CPU begins
 * together, then read in batches until the common end time. */
static void scale_thread(void *arg)
{
	struct scaler *s = arg;

	__atomic_add_fetch(&scale_ready, 1, __ATOMIC_ACQ_REL);
	while (!__atomic_load_n(&scale_go, __ATOMIC_ACQUIRE))
		arch_cpu_relax();
	do {
		if (scale_faults)
			read_calls_faulting(s, SCALE_BATCH, scale_faults);
		else
			read_calls(s->f, SCALE_BATCH);
		s->calls += SCALE_BATCH;
	} while (ktime_get() < scale_end);
	__atomic_add_fetch(&scale_done, 1, __ATOMIC_ACQ_REL);
}

/* Wait (sleeping, up to SCALE_WAIT) until *count reaches n. */
static bool wait_count(int *count, int n)
{
	uint64_t end = sched_ticks() + SCALE_WAIT;

	while (__atomic_load_n(count, __ATOMIC_ACQUIRE) < n && sched_ticks() < end)
		thread_sleep(1);
	return __atomic_load_n(count, __ATOMIC_ACQUIRE) >= n;
}

/* Start a calling thread on each of the first n CPUs that run threads,
 * let them call for ms milliseconds, and return the reads they made (0
 * if one could not start). Returns only once every thread has ended:
 * they use the scalers and hit the caller's probes. */
static unsigned long scale_run(unsigned int n, unsigned int ms)
{
	unsigned long cpus = smp_cpus_running(), calls = 0;
	unsigned int started = 0;

	scale_ready = scale_go = scale_done = 0;
	for (unsigned int cpu = 0; cpu < MAX_CPUS && started < n; cpu++) {
		struct scaler *s = &scalers[started];

		if (!(cpus & (1UL << cpu)))
			continue;
		*s = (struct scaler){ 0 };
		if (vfs_open(BENCH_FILE, O_RDONLY, &s->f) < 0)
			break;
		if (thread_create_on(cpu, "bench-scale", scale_thread, s) < 0) {
			vfs_close(s->f);
			break;
		}
		started++;
	}
	/* The end is set once all are waiting, before they are let go;
	 * without it each makes one batch and ends. */
	scale_end = 0;
	if (started == n && wait_count(&scale_ready, (int)n))
		scale_end = ktime_get() + (ktime_t)ms * 1000000;
	__atomic_store_n(&scale_go, 1, __ATOMIC_RELEASE);
	thread_sleep((uint64_t)ms * TIMER_HZ / 1000 + 1);
	while (!wait_count(&scale_done, (int)started))
		cmd_eprintf("bench: scale still waiting for the calling threads\n");
	for (unsigned int i = 0; i < started; i++) {
		calls += scalers[i].calls;
		faults_taken += scalers[i].faults;
		vfs_close(scalers[i].f);
	}
	return scale_end ? calls : 0;
}

/* Hits so far on every probe of p, its misses included. */
static unsigned long row_hits(struct probes *p)
{
	struct kprobe *kps[] = { p->has_k ? &p->k : NULL, p->has_j ? &p->j.kp : NULL,
				 p->has_r ? &p->r.kp : NULL };
	unsigned long hits = 0;

	for (size_t i = 0; i < ARRAY_SIZE(kps); i++)
		if (kps[i])
			hits += kprobe_nhit(kps[i]) + kprobe_nmissed(kps[i]);
	return hits;
}

/* One scaling row: its probes registered once, then 1, 2 and 4 CPUs
 * (as many as run threads) calling for ms milliseconds each, each call
 * taking faults exceptions besides. */
static void scale_row(const char *name, struct probes *p, struct kprobe *shown,
		      unsigned int faults, unsigned int ms)
{
	unsigned int cpus = (unsigned int)bits_set(smp_cpus_running());

	if (add_all(name, p, shown) < 0)
		return;
	scale_faults = faults;
	for (unsigned int n = 1; n <= MIN(cpus, 4u); n *= 2) {
		/* The fault rows' "hits" are their exceptions. */
		unsigned long hits = row_hits(p) + faults_taken, calls = scale_run(n, ms);

		cmd_printf("bench: scale %-22s cpus %u calls %lu hits %lu ms %u path %s\n", name, n,
			   calls, row_hits(p) + faults_taken - hits, ms, shown ? path_of(shown) : "-");
	}
	scale_faults = 0;
	remove_all(p);
}

/* How one scaling row is run: scale_row, or interleaved_row. */
typedef void (*scale_fn)(const char *name, struct probes *p, struct kprobe *shown,
			 unsigned int faults, unsigned int ms);

/* The scaling rows, each passed to fn: vfs_read without a probe (what
 * the machine allows; only if with_none, as the interleaved rows each
 * measure it beside them), then with one and two exceptions per call
 * and no probe (what trapping allows), then with each kind of probe, the
 * optimizer on, and the breakpoint kprobe with it off. */
static void scale_rows(scale_fn fn, unsigned int ms, bool with_none)
{
	bool was_optimizing = kprobes_optimization_enabled();
	struct probes none = { 0 };
	struct probes kftrace = { .k = { .symbol_name = "vfs_read", .pre_handler = quiet_pre },
				  .has_k = true };
	struct probes k = { .k = { .symbol_name = "vfs_read", .offset = past_site(),
				   .pre_handler = quiet_pre }, .has_k = true };
	struct probes kpost = { .k = { .symbol_name = "vfs_read", .offset = past_site(),
				       .pre_handler = quiet_pre, .post_handler = quiet_post },
				.has_k = true };
	struct probes j = { .j = { .kp.symbol_name = "vfs_read", .entry = quiet_jprobe_entry },
			    .has_j = true };
	struct probes r = { .r = { .kp.symbol_name = "vfs_read", .handler = quiet_return },
			    .has_r = true };
	struct probes kr = { .k = kftrace.k, .r = r.r, .has_k = true, .has_r = true };

	kprobes_set_optimization(true);
	if (with_none)
		fn("none", &none, NULL, 0, ms);
	fn("fault", &none, NULL, 1, ms);
	fn("fault2", &none, NULL, 2, ms);
	fn("k-optimized", &k, &k.k, 0, ms);
	fn("k-ftrace", &kftrace, &kftrace.k, 0, ms);
	fn("k-post-handler", &kpost, &kpost.k, 0, ms);
	fn("j", &j, &j.j.kp, 0, ms);
	fn("r", &r, &r.r.kp, 0, ms);
	fn("kr", &kr, &kr.k, 0, ms);
	kprobes_set_optimization(false);
	fn("k-boosted-or-emulated", &k, &k.k, 0, ms);
	kprobes_set_optimization(was_optimizing);	/* as the user left it */
}

/* bench scale: every scaling row from 1, 2 and 4 CPUs at once. */
static void bench_scale(unsigned int ms)
{
	cmd_printf("bench: scale cpus running %u\n", (unsigned)bits_set(smp_cpus_running()));
	scale_rows(scale_row, ms, true);
}

/*
 * ---- Interleaved scaling: each row beside its own reference ----
 *
 * A row's share of the no-probe ceiling divides two ratios measured at
 * different times, and on a host shared with other work its speed
 * drifts between them: measured row after row, the ceiling's ratio
 * would be taken minutes away from the last row's. So each row is
 * measured beside its own reference run without probes or exceptions,
 * on 1 and then 2 CPUs, in the order of interleaved_runs.
 */

/* The runs of one interleaved row: the row ("probed") or its reference,
 * on 1 or 2 CPUs. A palindrome: each of the four measurements has two
 * runs placed symmetrically about the row's middle (0 and 7, 1 and 6,
 * 2 and 5, 3 and 4), so a drift of the host's speed that is linear over
 * the row gives one run what it takes from the other, and their sum of
 * calls keeps none of it; each ratio is then free of it, not only the
 * share. The row's two 2-CPU runs are in the middle, next to each
 * other, so that its probes are registered three times, not four. */
static const struct interleaved_run {
	bool probed;
	unsigned int cpus;
} interleaved_runs[] = {
	{ false, 1 }, { true, 1 }, { false, 2 }, { true, 2 },
	{ true, 2 }, { false, 2 }, { true, 1 }, { false, 1 },
};

/* One interleaved row: a line per run, "row" or "ref", in the order of
 * interleaved_runs. The probes are registered only for the row's runs
 * (and the optimizer has settled them again each time). */
static void interleaved_row(const char *name, struct probes *p, struct kprobe *shown,
			    unsigned int faults, unsigned int ms)
{
	bool registered = false;

	for (size_t i = 0; i < ARRAY_SIZE(interleaved_runs); i++) {
		const struct interleaved_run *run = &interleaved_runs[i];
		unsigned long hits, calls;

		if (run->probed && !registered && add_all(name, p, shown) < 0)
			return;
		if (!run->probed && registered)
			remove_all(p);
		registered = run->probed;
		scale_faults = run->probed ? faults : 0;
		hits = row_hits(p) + faults_taken;
		calls = scale_run(run->cpus, ms);
		cmd_printf("bench: interleaved %-22s %s cpus %u calls %lu hits %lu ms %u path %s\n",
			   name, run->probed ? "row" : "ref", run->cpus, calls,
			   row_hits(p) + faults_taken - hits, ms,
			   run->probed && shown ? path_of(shown) : "-");
	}
	scale_faults = 0;
	if (registered)
		remove_all(p);
}

/* bench scale MS interleaved: every row but "none", each interleaved
 * with its reference, on 1 and 2 CPUs (tools/bench.py boots -smp 2). */
static void bench_interleaved(unsigned int ms)
{
	cmd_printf("bench: interleaved cpus running %u\n", (unsigned)bits_set(smp_cpus_running()));
	scale_rows(interleaved_row, ms, false);
}

/* `bench register`, with the optimizer on as registration normally runs
 * (and as the user had it afterwards). */
static int bench_registration(void)
{
	bool was_optimizing = kprobes_optimization_enabled();
	int err;

	kprobes_set_optimization(true);
	err = bench_register();
	kprobes_set_optimization(was_optimizing);
	return err;
}

#define MAX_CALLS 10000000
#define SCALE_MAX_MS 10000

/* `bench [CALLS]`; a negative errno after printing why not. */
static int bench_hits_cmd(int argc, char **argv)
{
	uint64_t calls = DEFAULT_CALLS;
	int err = argc == 2 ? shell_parse_number("bench", "calls", argv[1], 1, MAX_CALLS, &calls)
			    : 0;

	if (err == -EINVAL)
		return shell_usage("bench");
	return err ? err : bench_hits((unsigned long)calls);
}

/* `bench scale [MS] [interleaved]`; a negative errno after printing why
 * not. */
static int bench_scale_cmd(int argc, char **argv)
{
	bool interleaved = argc > 2 && strcmp(argv[argc - 1], "interleaved") == 0;
	int numbers = argc - 2 - interleaved;	/* the words left for MS */
	uint64_t ms = SCALE_DEFAULT_MS;
	int err = numbers == 1 ? shell_parse_number("bench", "ms", argv[2], 1, SCALE_MAX_MS, &ms)
			       : 0;

	if (numbers > 1 || err == -EINVAL)
		return shell_usage("bench");
	if (err)
		return err;
	if (interleaved)
		bench_interleaved((unsigned int)ms);
	else
		bench_scale((unsigned int)ms);
	return 0;
}

/* bench [CALLS]: the hit rows. bench register: the registration rows,
 * which register 10,000 probes and take a minute or more under TCG.
 * bench scale [MS]: the scaling rows, MS milliseconds per run; with
 * interleaved, each row beside its reference on 1 and 2 CPUs. */
static int cmd_bench(int argc, char **argv)
{
	int err;

	if (argc == 2 && strcmp(argv[1], "register") == 0)
		err = bench_registration();
	else if (argc >= 2 && strcmp(argv[1], "scale") == 0)
		err = bench_scale_cmd(argc, argv);
	else if (argc <= 2)
		err = bench_hits_cmd(argc, argv);
	else
		err = shell_usage("bench");
	if (!err)
		cmd_printf("bench: done\n");
	return err;
}
SHELL_COMMAND("bench", "[CALLS]\nregister\nscale [MS] [interleaved]",
	      "measure a probe hit on vfs_read, registration, or scaling", cmd_bench);
