/* Selftests of memory: frames, heap, W^X, text patching, executable
 * memory, instruction slots and per-CPU allocations. */
#include "kernel/mm/execmem.h"
#include "kernel/mm/frame.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/insn_slot.h"
#include "kernel/mm/nofault.h"
#include "kernel/mm/paging.h"
#include "kernel/mm/percpu_alloc.h"
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/percpu.h"
#include "kernel/rcu.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "kernel/time.h"
#include "kernel/mm/text_patch.h"
#include "lib/errno.h"
#include "lib/string.h"
#include <asm/insn_fill.h>
#include <asm/layout.h>

extern char __text_start[], __rodata_start[], __data_start[];

static void frames_alloc_and_free(void)
{
	struct frame_stats before, during, after;
	uint64_t a, b;

	/* Frees others handed to RCU callbacks (a probe's removal does)
	 * would change the count under the test: let them run first. */
	rcu_barrier();
	frame_get_stats(&before);
	a = frame_alloc();
	b = frame_alloc();
	frame_get_stats(&during);
	EXPECT(a && b && a != b);
	EXPECT_EQ(a % PAGE_SIZE, 0);
	EXPECT_EQ(b % PAGE_SIZE, 0);
	EXPECT_EQ(during.used, before.used + 2);
	/* The frame is usable memory, reached through the direct map. */
	memset(phys_to_virt(a), 0x5a, PAGE_SIZE);
	EXPECT_EQ(((uint8_t *)phys_to_virt(a))[PAGE_SIZE - 1], 0x5a);
	frame_free(a);
	frame_free(b);
	frame_get_stats(&after);
	EXPECT_EQ(after.used, before.used);
}

static void heap_alloc_free_and_coalesce(void)
{
	struct heap_stats before, after;
	void *p[8];

	heap_get_stats(&before);
	for (int i = 0; i < 8; i++) {
		p[i] = kmalloc(100 + i * 300);
		EXPECT(p[i] != NULL);
		EXPECT_EQ((uintptr_t)p[i] % 16, 0);
		memset(p[i], i, 100 + i * 300);
	}
	for (int i = 0; i < 8; i++)
		EXPECT_EQ(((uint8_t *)p[i])[99], i);	/* no overlap */
	for (int i = 0; i < 8; i += 2)
		kfree(p[i]);
	for (int i = 1; i < 8; i += 2)
		kfree(p[i]);
	heap_get_stats(&after);
	EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
	EXPECT_EQ(after.allocations, before.allocations);
	/* Each block was carved from the start of a free block. Freed in an
	 * order that leaves gaps until the last ones, they merged back with
	 * their neighbours on both sides, so the free list is as long as
	 * before - plus the one block fresh pages make if the heap grew.
	 * Without merging it would hold about eight more. */
	EXPECT(after.free_blocks <= before.free_blocks + (after.pages > before.pages));
}

static void heap_large_and_zeroed(void)
{
	size_t n = 5 * PAGE_SIZE + 123;
	uint8_t *p = kzalloc(n);
	size_t nonzero = 0;

	EXPECT(p != NULL);
	if (!p)
		return;
	for (size_t i = 0; i < n; i++)
		nonzero += p[i] != 0;
	EXPECT_EQ(nonzero, 0);
	kfree(p);
	EXPECT(kmalloc(0) == NULL);
}

static void wx_page_permissions(void)
{
	uint64_t pa;

	EXPECT_EQ(page_prot((uintptr_t)__text_start), PROT_READ | PROT_EXEC);
	EXPECT_EQ(page_prot((uintptr_t)__rodata_start), PROT_READ);
	EXPECT_EQ(page_prot((uintptr_t)__data_start), PROT_READ | PROT_WRITE);
	/* The direct-map alias of kernel text must not be writable either. */
	EXPECT_EQ(virt_to_phys((uintptr_t)__text_start, &pa), 0);
	EXPECT_EQ(page_prot((uintptr_t)phys_to_virt(pa)), PROT_READ);
}

/* A function whose code the tests patch; never inlined or called. */
__noinline int wx_patch_target(int x)
{
	return x * 3 + 1;
}

static void wx_write_to_text_faults(void)
{
	uint8_t *code = (uint8_t *)wx_patch_target;
	uint8_t before = code[0], byte = (uint8_t)~before;

	EXPECT_EQ(copy_to_kernel_nofault(code, &byte, 1), -EFAULT);
	EXPECT_EQ(code[0], before);
	EXPECT_EQ(copy_to_kernel_nofault((void *)__rodata_start, &byte, 1), -EFAULT);
}

/* The exception fix-up path: faulting reads come back as -EFAULT. */
static void nofault_read_recovers(void)
{
	static const uint64_t readable = 0x1122334455667788ULL;
	uint64_t v = 0;

	/* An address in neither half of the address space (#GP on x86_64),
	 * and an unmapped one in the lower half (a page fault). */
	EXPECT_EQ(copy_from_kernel_nofault(&v, (void *)0x8000000000000000ULL, 8), -EFAULT);
	EXPECT_EQ(copy_from_kernel_nofault(&v, (void *)0x10, 8), -EFAULT);
	EXPECT_EQ(copy_from_kernel_nofault(&v, &readable, 8), 0);
	EXPECT_EQ(v, readable);
}

static void wx_text_poke_changes_code(void)
{
	uint8_t *code = (uint8_t *)wx_patch_target;
	uint8_t orig[4], changed[4], now[4];

	memcpy(orig, code, sizeof(orig));
	for (size_t i = 0; i < sizeof(orig); i++)
		changed[i] = (uint8_t)(orig[i] ^ 0xff);
	EXPECT_EQ(text_poke(code, changed, sizeof(changed)), 0);
	memcpy(now, code, sizeof(now));
	EXPECT_EQ(memcmp(now, changed, sizeof(now)), 0);
	EXPECT_EQ(text_poke(code, orig, sizeof(orig)), 0);
	EXPECT_EQ(memcmp(code, orig, sizeof(orig)), 0);
	/* Still the same function. */
	EXPECT_EQ(wx_patch_target(4), 13);
	/* The alias window is gone afterwards. */
	EXPECT_EQ(page_prot(TEXT_POKE_ADDR), 0);
}

/* Inside a batch, what text_poke writes is written again at the sync,
 * not before (text_patch.c, "Emulators"). The batch holds the patching
 * lock, so no other poke counts meanwhile. */
static void text_poke_writes_again_at_sync(void)
{
	uint8_t *code = (uint8_t *)wx_patch_target;
	uint8_t orig[4], changed[4];
	unsigned long before;

	memcpy(orig, code, sizeof(orig));
	for (size_t i = 0; i < sizeof(orig); i++)
		changed[i] = (uint8_t)(orig[i] ^ 0xff);
	text_poke_batch_begin();
	before = text_poke_refreshed();
	for (size_t i = 0; i < sizeof(changed); i++)
		EXPECT_EQ(text_poke(code + i, &changed[i], 1), 0);
	EXPECT_EQ(text_poke_refreshed(), before);
	text_poke_sync();
	EXPECT_EQ(text_poke_refreshed(), before + sizeof(changed));
	EXPECT_EQ(memcmp(code, changed, sizeof(changed)), 0);
	EXPECT_EQ(text_poke(code, orig, sizeof(orig)), 0);
	text_poke_batch_end();
	EXPECT_EQ(text_poke_refreshed(), before + sizeof(changed) + 1);
	EXPECT_EQ(memcmp(code, orig, sizeof(orig)), 0);
	EXPECT_EQ(wx_patch_target(4), 13);
}

/* Busy threads, one more than the CPUs, so that the timer always finds
 * one ready and the poking thread goes back in the run queue, to resume
 * on whichever CPU is free next. */
static volatile bool churn_stop;
static int churning;

static void churn(void *unused)
{
	(void)unused;
	while (!churn_stop)
		arch_cpu_relax();
	__atomic_sub_fetch(&churning, 1, __ATOMIC_RELAXED);
}

static bool page_holds(const uint8_t *page, uint8_t value)
{
	for (size_t i = 0; i < PAGE_SIZE; i++)
		if (page[i] != value)
			return false;
	return true;
}

/* For two seconds, whole pages poked in turn into two pages while the
 * poking thread is moved between CPUs: a page's copy is most of a poke,
 * so the timer often stops one halfway. Neither page ever holds the
 * other's bytes. (When the patcher could move halfway through a copy, a
 * CPU kept its window to the page it had mapped, and a later copy went
 * there: this found it in one run of five or so, on x86_64; aarch64's
 * flush of the window reaches every CPU.) */
static void text_poke_moves_with_its_thread(void)
{
	static uint8_t fill[PAGE_SIZE];
	uint8_t *pages[2] = { execmem_alloc_page(), execmem_alloc_page() };
	int threads = (int)cpu_count() + 1, bad = 0;
	ktime_t end = ktime_get() + 2 * NSEC_PER_SEC;

	EXPECT(pages[0] && pages[1]);
	churn_stop = false;
	churning = threads;
	for (int i = 0; i < threads; i++)
		if (thread_create("st-churn", churn, NULL) < 0)
			__atomic_sub_fetch(&churning, 1, __ATOMIC_RELAXED);
	for (int round = 1; pages[0] && pages[1] && ktime_get() < end && !bad; round++) {
		for (int p = 0; p < 2; p++) {
			memset(fill, 2 * round + p, sizeof(fill));
			EXPECT_EQ(text_poke(pages[p], fill, sizeof(fill)), 0);
		}
		bad = !page_holds(pages[0], (uint8_t)(2 * round)) ||
		      !page_holds(pages[1], (uint8_t)(2 * round + 1));
	}
	EXPECT_EQ(bad, 0);
	churn_stop = true;
	while (__atomic_load_n(&churning, __ATOMIC_RELAXED))
		thread_sleep(1);
	for (int p = 0; p < 2; p++)
		if (pages[p])
			execmem_free_page(pages[p]);
}

static void execmem_is_read_only_executable(void)
{
	uint8_t *page = execmem_alloc_page();
	uint8_t byte = 0, *alias;
	uint64_t pa;

	EXPECT(page != NULL);
	if (!page)
		return;
	EXPECT(execmem_contains((uintptr_t)page));
	EXPECT_EQ(page_prot((uintptr_t)page), PROT_READ | PROT_EXEC);
	EXPECT_EQ(copy_to_kernel_nofault(page, &byte, 1), -EFAULT);
	/* Nor through the frame's other address, in the direct map. */
	EXPECT_EQ(virt_to_phys((uintptr_t)page, &pa), 0);
	alias = phys_to_virt(pa);
	EXPECT_EQ(page_prot((uintptr_t)alias), PROT_READ);
	EXPECT_EQ(copy_to_kernel_nofault(alias, &byte, 1), -EFAULT);
	/* Within +-2 GiB of kernel text, for 32-bit relative jumps. */
	EXPECT((uintptr_t)page - (uintptr_t)__text_start < (1UL << 31));
	execmem_free_page(page);
	EXPECT_EQ(page_prot((uintptr_t)page), 0);
	/* An ordinary frame again. */
	EXPECT_EQ(page_prot((uintptr_t)alias), PROT_READ | PROT_WRITE);
}

static struct insn_slot_cache test_slots = INSN_SLOT_CACHE_INIT(test_slots, "selftest", 32);

static void insn_slots_alloc_and_free(void)
{
	enum { N = 200 };	/* more than one page of 32-byte slots */
	static void *slots[N];
	struct heap_stats before, after;
	const uint8_t pattern[4] = { 1, 2, 3, 4 };

	heap_get_stats(&before);
	for (int i = 0; i < N; i++) {
		slots[i] = insn_slot_alloc(&test_slots);
		EXPECT(slots[i] != NULL);
		if (!slots[i])
			return;
		EXPECT_EQ((uintptr_t)slots[i] % 32, 0);
		if (i)
			EXPECT(slots[i] != slots[i - 1]);
	}
	EXPECT_EQ(test_slots.slots_in_use, N);
	EXPECT_EQ(test_slots.pages_in_use, 2);
	EXPECT_EQ(text_poke(slots[N - 1], pattern, sizeof(pattern)), 0);
	EXPECT_EQ(memcmp(slots[N - 1], pattern, sizeof(pattern)), 0);
	for (int i = 0; i < N; i++)
		insn_slot_free(&test_slots, slots[i]);
	EXPECT_EQ(test_slots.slots_in_use, 0);
	EXPECT_EQ(test_slots.pages_in_use, 0);
	heap_get_stats(&after);
	EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
}

/* An emptied page is kept as the spare, so the next slot comes from it
 * without a new mapping; a second emptied page is unmapped. A full page
 * that gets a slot back is used again. */
static void insn_slots_keep_one_empty_page(void)
{
	enum { PER_PAGE = PAGE_SIZE / 32 };
	static void *slots[PER_PAGE + 1];
	void *first, *again;

	first = insn_slot_alloc(&test_slots);
	EXPECT(first != NULL);
	if (!first)
		return;
	insn_slot_free(&test_slots, first);
	EXPECT_EQ(test_slots.pages_in_use, 0);
	EXPECT(test_slots.spare != NULL);
	again = insn_slot_alloc(&test_slots);
	EXPECT_EQ((uintptr_t)again & ~(uintptr_t)(PAGE_SIZE - 1),
		  (uintptr_t)first & ~(uintptr_t)(PAGE_SIZE - 1));
	EXPECT(test_slots.spare == NULL);
	insn_slot_free(&test_slots, again);

	for (int i = 0; i <= PER_PAGE; i++) {
		slots[i] = insn_slot_alloc(&test_slots);
		EXPECT(slots[i] != NULL);
		if (!slots[i])
			return;
	}
	EXPECT_EQ(test_slots.pages_in_use, 2);
	insn_slot_free(&test_slots, slots[3]);	/* the full page has room again */
	EXPECT(insn_slot_alloc(&test_slots) == slots[3]);
	for (int i = 0; i <= PER_PAGE; i++)
		insn_slot_free(&test_slots, slots[i]);
	EXPECT_EQ(test_slots.slots_in_use, 0);
	EXPECT_EQ(test_slots.pages_in_use, 0);
	EXPECT(test_slots.spare != NULL);
}

/* A new per-CPU chunk shows as a jump of the heap by MAX_CPUS units. */
static bool percpu_alloc_took_chunk(size_t before)
{
	struct heap_stats now;

	heap_get_stats(&now);
	return now.bytes_in_use >= before + (size_t)MAX_CPUS * PERCPU_UNIT_SIZE;
}

/* 16-byte pieces, allocated until they start a third new chunk (a unit
 * has 256 granules): each is zeroed on every CPU and no two overlap.
 * - The last piece, alone in its chunk, freed and allocated again: the
 *   emptied chunk stays as the spare (release_empty_chunks), so neither
 *   step goes to the heap.
 * - The piece before it, in the chunk filled last, freed and allocated
 *   again: it gets its own place back, as that chunk moved to the front
 *   when it got room back (without the move the search would take the
 *   newer chunk's room, which comes first).
 * - All freed: the heap is where it was, or one spare chunk above it if
 *   something else kept a chunk in use meanwhile.
 * The bound leaves room for the free granules of two older chunks before
 * the three new ones: the spare, and one that long-lived pieces keep
 * (the call counts of generated files, kernel/fs/pseudofs.c). */
#define PERCPU_PIECES 1500

static void percpu_pieces_over_several_chunks(void)
{
	static uint64_t *pieces[PERCPU_PIECES];
	struct heap_stats before, after, now;
	int n = 0, new_chunks = 0;
	uint64_t *again;

	/* Frees an earlier command left to the RCU thread (a probe's point)
	 * would otherwise change the heap in the middle of the count. */
	rcu_barrier();
	heap_get_stats(&before);
	while (new_chunks < 3 && n < PERCPU_PIECES) {
		heap_get_stats(&now);
		pieces[n] = alloc_percpu(uint64_t);
		EXPECT(pieces[n] != NULL);
		if (!pieces[n])
			break;
		new_chunks += percpu_alloc_took_chunk(now.bytes_in_use);
		for (unsigned int cpu = 0; cpu < cpu_count(); cpu++) {
			EXPECT_EQ(*per_cpu_ptr(pieces[n], cpu), 0);
			*per_cpu_ptr(pieces[n], cpu) = (uint64_t)n << 8 | cpu;
		}
		n++;
	}
	EXPECT_EQ(new_chunks, 3);
	for (int i = 0; i < n; i++)
		for (unsigned int cpu = 0; cpu < cpu_count(); cpu++)
			EXPECT_EQ(*per_cpu_ptr(pieces[i], cpu), (uint64_t)i << 8 | cpu);
	if (new_chunks == 3 && n >= 2) {
		heap_get_stats(&now);
		free_percpu(pieces[n - 1]);
		pieces[n - 1] = alloc_percpu(uint64_t);
		heap_get_stats(&after);
		EXPECT_EQ(after.bytes_in_use, now.bytes_in_use);

		free_percpu(pieces[n - 2]);
		again = alloc_percpu(uint64_t);
		EXPECT(again == pieces[n - 2]);
		pieces[n - 2] = again;
	}
	for (int i = 0; i < n; i++)
		free_percpu(pieces[i]);
	heap_get_stats(&after);
	EXPECT(after.bytes_in_use == before.bytes_in_use ||
	       (after.bytes_in_use > before.bytes_in_use &&
		after.bytes_in_use < before.bytes_in_use + 2 * (size_t)MAX_CPUS * PERCPU_UNIT_SIZE));
}

static void code_runs_in_slot(void)
{
	static const uint8_t code[] = ARCH_RETURN_42_CODE;
	void *slot = insn_slot_alloc(&test_slots);

	EXPECT(slot != NULL);
	if (!slot)
		return;
	EXPECT_EQ(text_poke(slot, code, sizeof(code)), 0);
	EXPECT_EQ(((int (*)(void))slot)(), 42);
	insn_slot_free(&test_slots, slot);
}

static const struct selftest_case mm_cases[] = {
	SELFTEST_CASE(frames_alloc_and_free),
	SELFTEST_CASE(heap_alloc_free_and_coalesce),
	SELFTEST_CASE(heap_large_and_zeroed),
	SELFTEST_CASE(wx_page_permissions),
	SELFTEST_CASE(wx_write_to_text_faults),
	SELFTEST_CASE(nofault_read_recovers),
	SELFTEST_CASE(wx_text_poke_changes_code),
	SELFTEST_CASE(text_poke_writes_again_at_sync),
	SELFTEST_CASE(text_poke_moves_with_its_thread),
	SELFTEST_CASE(execmem_is_read_only_executable),
	SELFTEST_CASE(insn_slots_alloc_and_free),
	SELFTEST_CASE(insn_slots_keep_one_empty_page),
	SELFTEST_CASE(code_runs_in_slot),
	SELFTEST_CASE(percpu_pieces_over_several_chunks),
};
SELFTEST_SUITE("memory", mm_cases);
