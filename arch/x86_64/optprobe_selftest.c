/*
 * Selftests of the jump optimizer on x86_64: a safe point is optimized and
 * its handler sees the right registers; each safety check refuses the
 * function built to fail it; a probe inside the region unoptimizes; a
 * thread stopped inside the region, or in a slot that jumps back into it,
 * delays the patch; and unoptimized text
 * is byte-identical to the original. What unoptimizes a point on every
 * architecture is tested in kernel/probes/tests/optimizer_selftest.c, on opt_probed_sum
 * and the jump decoding this file provides
 * (kernel/probes/tests/probe_selftest_arch.h).
 */
#include "kernel/code_in_use.h"
#include "kernel/probes/tests/probe_selftest_arch.h"
#include "kernel/probes/tests/probe_selftest_util.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "lib/string.h"
#include <asm/layout.h>

__asm__(
	".text\n"
	/* long opt_probed_sum(long a, long b): a + b + 1. Its first three
	 * instructions (8 bytes) make a safe region. */
	".globl opt_probed_sum\n.type opt_probed_sum, @function\n"
	"opt_probed_sum:\n"
	"	pushq %rbp\n"
	"	movq %rsp, %rbp\n"
	"	leaq (%rdi,%rsi), %rax\n"
	"	addq $1, %rax\n"
	"	popq %rbp\n"
	"	ret\n"
	".size opt_probed_sum, .-opt_probed_sum\n"
	/* An indirect jump anywhere in the function forbids optimizing. */
	".globl opt_probed_indirect\n.type opt_probed_indirect, @function\n"
	"opt_probed_indirect:\n"
	"	pushq %rbp\n"
	"	movq %rsp, %rbp\n"
	"	leaq (%rdi,%rsi), %rax\n"
	"	popq %rbp\n"
	"	ret\n"
	".Lopt_indirect_jmp:\n"
	"	jmp *%rax\n"
	".size opt_probed_indirect, .-opt_probed_indirect\n"
	/* A branch back into the middle of the entry region. */
	".globl opt_probed_jump_into\n.type opt_probed_jump_into, @function\n"
	"opt_probed_jump_into:\n"
	"	pushq %rbp\n"
	"	movq %rsp, %rbp\n"
	".Lopt_ji_target:\n"
	"	decq %rdi\n"
	".Lopt_ji_jne:\n"
	"	jne .Lopt_ji_target\n"
	"	popq %rbp\n"
	"	ret\n"
	".size opt_probed_jump_into, .-opt_probed_jump_into\n"
	/* A call within the first five bytes. */
	".globl opt_probed_call\n.type opt_probed_call, @function\n"
	"opt_probed_call:\n"
	"	pushq %rbp\n"
	".Lopt_call_insn:\n"
	"	call opt_probed_sum\n"
	"	popq %rbp\n"
	"	ret\n"
	".size opt_probed_call, .-opt_probed_call\n"
	/* Too short for a jump: three bytes that fall through into the next
	 * function (assembly may do that; C never does). Never called. */
	".globl opt_probed_short\n.type opt_probed_short, @function\n"
	"opt_probed_short:\n"
	"	nop\n"
	"	nop\n"
	"	nop\n"
	".size opt_probed_short, .-opt_probed_short\n"
	/* void opt_probed_scan(const void *from, unsigned long n, int *done):
	 * compares n bytes with themselves in one repe cmpsb, which sits
	 * inside the region of a probe on the mov before it, then sets
	 * *done just after the region. A thread preempted during the scan is
	 * stopped inside the region. (A mov, not a nop, is probed: a nop
	 * would be emulated, and the test wants the detour copy's path.) */
	".globl opt_probed_scan\n.type opt_probed_scan, @function\n"
	"opt_probed_scan:\n"
	"	movq %rsi, %rcx\n"
	"	movq %rdi, %rsi\n"
	".Lopt_scan_probe:\n"
	"	movq %rsi, %rsi\n"
	"	repe cmpsb\n"
	"	movl $1, (%rdx)\n"
	"	ret\n"
	".size opt_probed_scan, .-opt_probed_scan\n"
	/* The same scan behind a nop, and a xor after it. A probe on the nop
	 * has a region of the nop, the repe cmpsb and the xor (5 bytes). A
	 * probe on the repe cmpsb is never optimized (the jmp below goes into
	 * its region, which ends with the movl), so it is boosted: its slot
	 * jumps back to the xor, inside the nop's region. */
	".globl opt_probed_scan_nop\n.type opt_probed_scan_nop, @function\n"
	"opt_probed_scan_nop:\n"
	"	movq %rsi, %rcx\n"
	"	movq %rdi, %rsi\n"
	".Lopt_scan_nop:\n"
	"	nop\n"
	".Lopt_scan_cmps:\n"
	"	repe cmpsb\n"
	"	xorl %eax, %eax\n"
	".Lopt_scan_set:\n"
	"	movl $1, (%rdx)\n"
	"	ret\n"
	"	jmp .Lopt_scan_set\n"
	".size opt_probed_scan_nop, .-opt_probed_scan_nop\n"
	".section .rodata\n.balign 8\n"
	".globl opt_probed_points\n.type opt_probed_points, @object\n"
	"opt_probed_points:\n"
	"	.quad .Lopt_indirect_jmp, .Lopt_ji_jne, .Lopt_call_insn, .Lopt_scan_probe\n"
	"	.quad .Lopt_scan_nop, .Lopt_scan_cmps\n"
	".size opt_probed_points, .-opt_probed_points\n"
	".text\n");

enum { P_INDIRECT_JMP, P_JUMP_INTO_JNE, P_CALL_INSN, P_SCAN_PROBE, P_SCAN_NOP, P_SCAN_CMPS,
       P_COUNT };
extern const uintptr_t opt_probed_points[P_COUNT];
long opt_probed_indirect(long a, long b);
long opt_probed_jump_into(long n);
long opt_probed_call(long a, long b);
void opt_probed_short(void);
void opt_probed_scan(const void *from, unsigned long n, volatile int *done);
void opt_probed_scan_nop(const void *from, unsigned long n, volatile int *done);

static long (*volatile sum)(long, long) = opt_probed_sum;
static void (*volatile scan)(const void *, unsigned long, volatile int *) = opt_probed_scan;

#define JMP_REL32 0xe9
#define JMP_REL32_SIZE 5

uintptr_t probe_test_jump_target(uintptr_t addr)
{
	const volatile uint8_t *p = (const volatile uint8_t *)addr;
	int32_t rel;

	if (p[0] != JMP_REL32)
		return 0;
	rel = (int32_t)(p[1] | p[2] << 8 | p[3] << 16 | (uint32_t)p[4] << 24);
	return addr + JMP_REL32_SIZE + rel;
}

static uint64_t seen_rdi, seen_rsi, seen_rip, seen_ret;
static int seen_hits;

static int record_regs(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	seen_rdi = regs->rdi;
	seen_rsi = regs->rsi;
	seen_rip = regs->rip;
	seen_ret = *(uint64_t *)regs->rsp;	/* at the entry: the return address */
	seen_hits++;
	return 0;
}

static void safe_point_is_optimized_and_fires(void)
{
	struct kprobe kp = { .addr = (uint8_t *)opt_probed_sum, .pre_handler = record_regs };
	uint8_t before[16];

	memcpy(before, (void *)opt_probed_sum, sizeof(before));
	seen_hits = 0;
	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT_EQ(probe_test_settle(&kp), OPT_OPTIMIZED);
	EXPECT(kp.flags & KPROBE_FLAG_OPTIMIZED);
	EXPECT(probe_test_jumps_to_detour(&kp));
	EXPECT_EQ(sum(30, 12), 43);
	EXPECT_EQ(seen_hits, 1);
	EXPECT_EQ(seen_rdi, 30);
	EXPECT_EQ(seen_rsi, 12);
	EXPECT_EQ(seen_rip, (uintptr_t)opt_probed_sum + 1);	/* as after int3 */
	EXPECT(seen_ret != 0);
	EXPECT_EQ(probe_test_opt_hits(&kp), 1);
	unregister_kprobe(&kp);
	EXPECT(memcmp(before, (void *)opt_probed_sum, sizeof(before)) == 0);
	EXPECT_EQ(sum(1, 1), 3);
}

static void each_safety_check_refuses(void)
{
	probe_test_expect_refused((uintptr_t)opt_probed_indirect, "indirect jump at",
				  opt_probed_points[P_INDIRECT_JMP]);
	probe_test_expect_refused((uintptr_t)opt_probed_jump_into, "jump into region from",
				  opt_probed_points[P_JUMP_INTO_JNE]);
	probe_test_expect_refused((uintptr_t)opt_probed_call, "call in region at",
				  opt_probed_points[P_CALL_INSN]);
	probe_test_expect_refused((uintptr_t)opt_probed_short,
				  "region crosses the end of the function at",
				  (uintptr_t)opt_probed_short + 3);
}

static void probe_inside_region_unoptimizes(void)
{
	struct kprobe outer = { .addr = (uint8_t *)opt_probed_sum, .pre_handler = record_regs };
	struct kprobe inner = { .addr = (uint8_t *)opt_probed_sum + 1,
				.pre_handler = record_regs };

	EXPECT_EQ(register_kprobe(&outer), 0);
	EXPECT_EQ(probe_test_settle(&outer), OPT_OPTIMIZED);
	EXPECT_EQ(register_kprobe(&inner), 0);
	/* At once: the inner breakpoint must not sit under a jump. */
	EXPECT(!(outer.flags & KPROBE_FLAG_OPTIMIZED));
	EXPECT_EQ(((volatile uint8_t *)opt_probed_sum)[0], 0xcc);
	EXPECT_EQ(((volatile uint8_t *)opt_probed_sum)[1], 0xcc);
	seen_hits = 0;
	EXPECT_EQ(sum(2, 3), 6);
	EXPECT_EQ(seen_hits, 2);
	unregister_kprobe(&inner);
	EXPECT_EQ(probe_test_settle(&outer), OPT_OPTIMIZED);	/* optimized again */
	unregister_kprobe(&outer);
}

typedef void scan_fn(const void *from, unsigned long n, volatile int *done);
static volatile int scan_started, scan_done, scan_thread_done;

/* One long scan of the direct map (224 MiB, a few hundred milliseconds
 * under TCG) by the scan function given, set going so the test can probe
 * the code it is in. */
static void scan_thread(void *fn)
{
	scan_started = 1;
	((scan_fn *)fn)((const void *)(DIRECT_MAP_BASE + (16UL << 20)), 224UL << 20, &scan_done);
	scan_thread_done = 1;
}

/* Start scan_thread with fn and return once it is inside its repe cmpsb:
 * preempted there, or running it on another CPU. */
static void start_scan(scan_fn *fn)
{
	scan_started = scan_done = scan_thread_done = 0;
	EXPECT(thread_create("st-scan", scan_thread, (void *)fn) >= 0);
	while (!scan_started)
		thread_sleep(1);
	thread_sleep(2);
}

static void wait_scan_thread(void)
{
	while (!scan_thread_done)
		thread_sleep(1);
}

static void stopped_thread_delays_the_patch(void)
{
	struct kprobe kp = { .addr = (uint8_t *)opt_probed_points[P_SCAN_PROBE],
			     .pre_handler = record_regs };
	volatile int quick_done = 0;
	bool waited = false;
	uint64_t end;

	start_scan(opt_probed_scan);
	EXPECT_EQ(register_kprobe(&kp), 0);
	/* Until the scan leaves the region the jump must not be written. */
	end = sched_ticks() + 3000;
	while (!scan_done && sched_ticks() < end) {
		enum opt_state st = probe_test_opt_state(&kp);

		if (st == OPT_READY && !waited) {
			waited = true;
			/* A hit meanwhile runs the detour buffer's copy. */
			scan((const void *)opt_probed_points, 0, &quick_done);
			EXPECT(quick_done);
			EXPECT_EQ(probe_test_path_count(&kp, PROBE_EXEC_DETOUR), 1);
		}
		EXPECT(st != OPT_OPTIMIZED || scan_done);
		thread_sleep(1);
	}
	EXPECT(scan_done);
	EXPECT(waited);		/* the optimizer did find it in the region */
	EXPECT_EQ(probe_test_settle(&kp), OPT_OPTIMIZED);
	wait_scan_thread();
	unregister_kprobe(&kp);
}

/* A thread stopped in the boosted slot of a probe inside another's region
 * will jump back into that region. Unregistering the inner probe makes
 * the outer one a candidate at once, while the thread is still in the
 * slot: the jump must wait until it has left, or the thread would resume
 * in the middle of the jump instruction. */
static void thread_in_a_neighbours_slot_delays_the_patch(void)
{
	struct kprobe outer = { .addr = (uint8_t *)opt_probed_points[P_SCAN_NOP],
				.pre_handler = probe_test_count_pre };
	struct kprobe inner = { .addr = (uint8_t *)opt_probed_points[P_SCAN_CMPS],
				.pre_handler = probe_test_count_pre };

	EXPECT_EQ(register_kprobe(&inner), 0);
	EXPECT_EQ(probe_test_settle(&inner), OPT_REFUSED);
	EXPECT_EQ(probe_test_exec_path(&inner), PROBE_EXEC_BOOST);
	EXPECT_EQ(register_kprobe(&outer), 0);
	/* The optimizer learns the outer region's length, sees inner in it,
	 * and leaves the point alone. */
	for (uint64_t end = sched_ticks() + 200;
	     probe_test_opt_state(&outer) != OPT_NONE && sched_ticks() < end;)
		thread_sleep(1);
	EXPECT_EQ(probe_test_opt_state(&outer), OPT_NONE);
	start_scan(opt_probed_scan_nop);
	EXPECT(!scan_done);
	EXPECT_EQ(probe_test_path_count(&inner, PROBE_EXEC_BOOST), 1);
	EXPECT(code_in_use((uintptr_t)inner.point->slot, ARCH_PROBE_SLOT_SIZE));
	/* Unregistering returns at once; the slot is freed once the thread
	 * has left it. Until then the outer jump must not be written: the
	 * state is read before scan_done, which the thread sets after it
	 * has left both the slot and the region. */
	unregister_kprobe(&inner);
	for (uint64_t end = sched_ticks() + 3000; !scan_done && sched_ticks() < end;) {
		enum opt_state st = probe_test_opt_state(&outer);

		EXPECT(st != OPT_OPTIMIZED || scan_done);
		thread_sleep(1);
	}
	EXPECT(scan_done);
	wait_scan_thread();
	EXPECT_EQ(probe_test_settle(&outer), OPT_OPTIMIZED);
	unregister_kprobe(&outer);
}

static const struct selftest_case optprobe_cases[] = {
	SELFTEST_CASE(safe_point_is_optimized_and_fires),
	SELFTEST_CASE(each_safety_check_refuses),
	SELFTEST_CASE(probe_inside_region_unoptimizes),
	SELFTEST_CASE(stopped_thread_delays_the_patch),
	SELFTEST_CASE(thread_in_a_neighbours_slot_delays_the_patch),
};
SELFTEST_SUITE("optprobes-x86", optprobe_cases);
