/*
 * The `bench` shell command: what one probe hit costs.
 *
 * The workload is vfs_read of 64 bytes of a RAM file, called in a loop
 * with interrupts off. It is timed with the cycle counter (arch_cycles)
 * first with no probe, then with each kind of probe on vfs_read, each
 * with a counting handler; overhead per hit = (time with - time without)
 * / calls. Under QEMU's -icount shift=0 one guest instruction is 1 ns of
 * virtual time, so with the counter's rate against the timer (cycles per
 * tick) tools/bench.py turns the numbers into exact instruction counts:
 * one per TSC tick on x86_64, 16 per CNTVCT tick on aarch64 (`make bench`
 * boots that way once, and once in emulated real time).
 *
 * Output lines start with "bench:" and are read by tools/bench.py.
 */
#include "kernel/arch.h"
#include "kernel/heap.h"
#include "kernel/rcu.h"
#include "kernel/printk.h"
#include "kernel/probes/kprobes_internal.h"
#include "kernel/probes/optimizer.h"
#include "kernel/sched.h"
#include "kernel/shell.h"
#include "kernel/symtab.h"
#include "kernel/vfs.h"
#include "lib/string.h"

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

/* Cycles for calls reads, the fastest of REPEATS runs. */
static uint64_t time_reads(struct file *f, unsigned long calls)
{
	uint64_t best = ~0ULL;
	char buf[64];

	for (int r = 0; r < REPEATS; r++) {
		unsigned long flags = arch_irq_save();
		uint64_t t0 = arch_cycles();

		for (unsigned long i = 0; i < calls; i++) {
			loff_t pos = 0;

			vfs_read(f, buf, sizeof(buf), &pos);
		}
		best = MIN(best, arch_cycles() - t0);
		arch_irq_restore(flags);
	}
	return best;
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
static void wait_settled(struct kprobe *kp)
{
	uint64_t end = sched_ticks() + 2 * TIMER_HZ;

	while (sched_ticks() < end && kp->point &&
	       (kp->point->opt_state == OPT_QUEUED || kp->point->opt_state == OPT_READY))
		thread_sleep(1);
}

static const char *path_of(struct kprobe *kp)
{
	if (kp->flags & KPROBE_FLAG_OPTIMIZED)
		return "optimized";
	return probe_exec_name(kprobe_exec_path(kp->point));
}

/* An offset of vfs_read whose instruction must be single-stepped. */
static long stepped_offset(void)
{
	struct symbol sym;

	if (sym_by_name("vfs_read", &sym) < 0)
		return -1;
	for (size_t off = 1; off < sym.size; off++) {
		struct kprobe kp = { .addr = (uint8_t *)(sym.addr + off), .pre_handler = count_pre };
		bool stepped;

		if (register_kprobe(&kp) < 0)
			continue;
		stepped = kprobe_exec_path(kp.point) == PROBE_EXEC_STEP;
		unregister_kprobe(&kp);
		if (stepped)
			return (long)off;
	}
	return -1;
}

static void row(const char *name, struct file *f, unsigned long calls, uint64_t base,
		struct probes *p, struct kprobe *shown)
{
	uint64_t t;
	int err = 0;

	handler_hits = 0;
	if (p->has_r)
		err = register_kretprobe(&p->r);
	if (!err && p->has_k)
		err = register_kprobe(&p->k);
	if (!err && p->has_j)
		err = register_jprobe(&p->j);
	if (err) {
		kprintf("bench: %-22s error %d\n", name, err);
		remove_all(p);
		return;
	}
	wait_settled(shown);
	t = time_reads(f, calls);
	kprintf("bench: %-22s overhead %6lu.%02lu cycles/hit  path %s  hits %lu\n", name,
		(unsigned long)((t - MIN(t, base)) / calls),
		(unsigned long)((t - MIN(t, base)) * 100 / calls % 100), path_of(shown),
		handler_hits / REPEATS);
	remove_all(p);
}

static void bench_register(void)
{
	struct heap_stats before, during;
	unsigned long slots;
	struct kprobe kp = { .symbol_name = "vfs_read", .pre_handler = count_pre };
	uint64_t t0 = arch_cycles();

	for (int i = 0; i < REGISTER_PAIRS; i++) {
		kp.addr = NULL;
		register_kprobe(&kp);
		unregister_kprobe(&kp);
	}
	kprintf("bench: %-22s %lu cycles\n", "register+unregister",
		(unsigned long)((arch_cycles() - t0) / REGISTER_PAIRS));
	rcu_barrier();	/* the unregistered points' deferred frees */
	slots = kprobe_slots_in_use();
	heap_get_stats(&before);
	kp.addr = NULL;
	register_kprobe(&kp);
	heap_get_stats(&during);
	kprintf("bench: %-22s %lu bytes (heap %lu, %lu instruction slots)\n", "memory per probe",
		(unsigned long)(during.bytes_in_use - before.bytes_in_use + sizeof(kp)),
		(unsigned long)(during.bytes_in_use - before.bytes_in_use),
		kprobe_slots_in_use() - slots);
	unregister_kprobe(&kp);
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

static void cmd_bench(int argc, char **argv)
{
	unsigned long calls = DEFAULT_CALLS;
	uint64_t n, base;
	bool was_optimizing;
	struct file *f;
	long step_off;

	if (argc > 2 || (argc == 2 && (parse_u64(argv[1], &n) < 0 || n == 0 || n > 10000000))) {
		kprintf("bench: usage: bench [CALLS]\n");
		return;
	}
	if (argc == 2)
		calls = (unsigned long)n;
	if (vfs_open(BENCH_FILE, O_RDONLY, &f) < 0) {
		kprintf("bench: cannot open %s\n", BENCH_FILE);
		return;
	}
	kprintf("bench: calls %lu, cycles per tick %lu (tick = %u ms)\n", calls,
		(unsigned long)cycles_per_tick(), 1000 / TIMER_HZ);
	base = time_reads(f, calls);
	kprintf("bench: %-22s %6lu.%02lu cycles/call\n", "baseline", (unsigned long)(base / calls),
		(unsigned long)(base * 100 / calls % 100));
	step_off = stepped_offset();

	struct probes k = { .k = { .symbol_name = "vfs_read", .pre_handler = count_pre }, .has_k = true };
	struct probes kpost = { .k = { .symbol_name = "vfs_read", .pre_handler = count_pre,
				       .post_handler = count_post }, .has_k = true };
	struct probes kstep = { .k = { .symbol_name = "vfs_read", .offset = (unsigned)step_off,
				       .pre_handler = count_pre }, .has_k = true };
	struct probes j = { .j = { .kp.symbol_name = "vfs_read", .entry = jprobe_entry }, .has_j = true };
	struct probes r = { .r = { .kp.symbol_name = "vfs_read", .handler = count_return }, .has_r = true };
	struct probes kr = { .k = k.k, .r = r.r, .has_k = true, .has_r = true };
	struct probes jr = { .j = j.j, .r = r.r, .has_j = true, .has_r = true };

	was_optimizing = kprobes_optimization_enabled();
	kprobes_set_optimization(true);
	row("k-optimized", f, calls, base, &k, &k.k);
	row("r", f, calls, base, &r, &r.r.kp);
	row("kr", f, calls, base, &kr, &kr.k);
	row("j", f, calls, base, &j, &j.j.kp);
	row("jr", f, calls, base, &jr, &jr.j.kp);
	row("k-post-handler", f, calls, base, &kpost, &kpost.k);
	kprobes_set_optimization(false);
	k.k.addr = NULL;
	row("k-boosted-or-emulated", f, calls, base, &k, &k.k);
	if (step_off > 0)
		row("k-single-stepped", f, calls, base, &kstep, &kstep.k);
	else
		kprintf("bench: %-22s no single-stepped instruction in vfs_read\n", "k-single-stepped");
	kprobes_set_optimization(true);
	bench_register();
	kprobes_set_optimization(was_optimizing);	/* as the user left it */
	vfs_close(f);
	kprintf("bench: done\n");
}
SHELL_COMMAND("bench", "[CALLS]", "measure the cost of a probe hit on vfs_read", cmd_bench);
