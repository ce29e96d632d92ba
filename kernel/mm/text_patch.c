/*
 * The text-patching routine (see text_patch.h).
 *
 * Why an alias and not "make the page writable for a moment"? Because the
 * code being patched may be running on another CPU, or be the code doing
 * the patching: the executable mapping must stay intact and never be
 * writable. The window is a fixed, private address, mapped for the
 * duration of one page's copy; only text_poke uses it, under text_mutex.
 * The window needs no TLB shootdown when it is unmapped
 * (unmap_private_page): no other CPU ever writes through it, and the
 * next CPU to map it flushes its own stale entry in map_page. That holds
 * only while one CPU maps, writes and unmaps, so the thread is kept on
 * its CPU meanwhile (preempt_disable). Moved to another CPU halfway
 * through a copy, it would unmap there, and the first CPU would keep its
 * entry for the window, to the page it mapped: its next copy, meant for
 * another page, would go into that one (seen as two bytes of a NOP's
 * tail written into a function far from the site, which later jumped
 * into the middle of an instruction).
 *
 * Other CPUs. After the bytes are written and made visible to
 * instruction fetch at their executing address (arch_sync_icache), every
 * other CPU is made to take an IPI before text_poke returns: entering
 * and leaving the interrupt is a context-synchronizing event on aarch64
 * and a serializing one on x86_64 (IRET), so no CPU goes on running
 * instructions it fetched before the change. That is all a change needs
 * that the architecture lets other CPUs run through while it happens
 * (one x86 byte turned into int3 or back; an aarch64 BRK turned into a B
 * or back). Any other change of code other CPUs may be running goes
 * through text_poke_stopped, which holds every other CPU still meanwhile
 * (docs/smp.md says which change is which, and why).
 *
 * Batches. Arming or disarming thousands of probes at once (the global
 * knob, `probe del all`) would cost an IPI round each, or on aarch64 a
 * stop_machine each. Between text_poke_batch_begin and _end the calling
 * thread holds text_mutex; its text_pokes write without syncing, and its
 * text_poke_stoppeds are queued and written STOPPED_QUEUE_LEN at a time,
 * in one stop_machine. text_poke_sync (and _end) writes what is queued
 * and syncs every CPU once. That is as good as a sync after each for the
 * one kind of change batched, a breakpoint armed or disarmed: a CPU may
 * run the old instruction a little longer either way, and whatever uses
 * the change (freeing a slot, say) waits for text_poke_sync. The queue
 * keeps the order of the writes to the same bytes: a text_poke of bytes
 * a queued poke writes first writes the queue, so that the later change
 * stays later. Changes of different bytes need no order between them
 * (one that must be seen before another is followed by text_poke_sync).
 *
 * Emulators. QEMU's TCG runs translations of the guest's code, not the
 * code itself, and drops a translation when the bytes under it are
 * written. A CPU that translated the old bytes while another wrote the
 * new ones can be left with the old translation for good (seen as a
 * CPU trapping for ever on an int3 the text no longer holds: the boot
 * test hang_wait_queue_wait, docs/tests.md). No IRET or ISB replaces
 * it; only another write of those bytes does. So every sync ends by
 * writing once more, with the bytes they now hold, the ranges written
 * since the last one (refresh_written): by then every other CPU has
 * taken the IPI, so a translation begun before the first write is
 * finished, and the second write drops it. On hardware it writes what
 * is already there.
 */
#include "kernel/mm/text_patch.h"
#include "kernel/arch.h"
#include "kernel/nokprobe.h"
#include "kernel/mm/paging.h"
#include "kernel/mutex.h"
#include "kernel/sched.h"
#include "kernel/smp_call.h"
#include "lib/errno.h"
#include <asm/layout.h>

static struct mutex text_mutex = MUTEX_INIT(text_mutex, "text_poke");

/* A private copy loop rather than memcpy: memcpy is ordinary, probe-able
 * library code, and the patcher must not run code it may be patching.
 * Whole aligned 4-byte words are written with one store each, so that an
 * aarch64 instruction changes at once, never a byte at a time (see
 * arch_optimize in arch/aarch64/optprobe.c); both architectures are
 * little-endian. */
static void __kprobes copy_code_bytes(uint8_t *dst, const uint8_t *src, size_t len)
{
	if (((uintptr_t)dst & 3) == 0 && (len & 3) == 0) {
		for (size_t i = 0; i < len; i += 4)
			*(volatile uint32_t *)(dst + i) = src[i] | (uint32_t)src[i + 1] << 8 |
				(uint32_t)src[i + 2] << 16 | (uint32_t)src[i + 3] << 24;
		return;
	}
	for (size_t i = 0; i < len; i++)
		((volatile uint8_t *)dst)[i] = src[i];
}

void __kprobes text_read(void *dst, const void *src, size_t len)
{
	copy_code_bytes(dst, src, len);
}

static int __kprobes poke_page(uintptr_t addr, const uint8_t *src, size_t len)
{
	uint64_t pa;

	if (virt_to_phys(addr, &pa) < 0)
		return -EFAULT;
	preempt_disable();	/* one CPU's TLB entry for the window: see above */
	if (map_page(TEXT_POKE_ADDR, ALIGN_DOWN(pa, PAGE_SIZE), PROT_READ | PROT_WRITE) < 0) {
		preempt_enable();
		return -EFAULT;
	}
	copy_code_bytes((uint8_t *)(TEXT_POKE_ADDR + (addr & (PAGE_SIZE - 1))), src, len);
	unmap_private_page(TEXT_POKE_ADDR);
	preempt_enable();
	return 0;
}

/* Write the bytes and make them visible to this CPU's instruction fetch;
 * text_mutex held. */
static int __kprobes write_code(void *addr, const void *src, size_t len)
{
	uintptr_t a = (uintptr_t)addr;
	const uint8_t *s = src;
	int err = 0;

	while (len && !err) {
		size_t chunk = MIN(len, PAGE_SIZE - (a & (PAGE_SIZE - 1)));

		err = poke_page(a, s, chunk);
		a += chunk;
		s += chunk;
		len -= chunk;
	}
	arch_sync_icache((uintptr_t)addr, (size_t)(a - (uintptr_t)addr));
	return err;
}

/* The other CPUs' part: nothing to do but take the IPI. */
static void __kprobes synchronize_core(void *unused)
{
	(void)unused;
}

/* The ranges text_poke wrote since the last sync, written again after
 * it (see "Emulators" above); a batch that writes more syncs early.
 * Inside text_poke_batch_begin/end the other CPUs are synced once, at
 * the end, if the batch wrote any; the stopped writes wait in
 * stopped_queue. Only the thread that holds text_mutex reads or writes
 * these. 1024 ranges (16 KiB) keep the early syncs rare: `probe del all`
 * of the stress suites' thousands of probes, or the global knob over
 * them, costs a few IPI rounds more, not one per 64 breakpoints. */
#define WRITTEN_LEN 1024

struct written_range {
	void *addr;
	size_t len;
};

static struct written_range written[WRITTEN_LEN];
static int written_count;
static unsigned long refreshed;	/* ranges written again, ever */

/* Write the len bytes at addr with the bytes they hold now. */
static int __kprobes rewrite_code(uint8_t *addr, size_t len)
{
	uint8_t now[64];
	int err = 0;

	for (size_t done = 0; done < len && !err; done += sizeof(now)) {
		size_t n = MIN(sizeof(now), len - done);

		text_read(now, addr + done, n);
		err = write_code(addr + done, now, n);
	}
	return err;
}

/* Write each range of written again, and empty it. */
static void __kprobes refresh_written(void)
{
	for (int i = 0; i < written_count; i++)
		if (rewrite_code(written[i].addr, written[i].len) == 0)
			refreshed++;
	written_count = 0;
}

/* Every other CPU takes an IPI, then what was written is written again. */
static void __kprobes sync_others(void)
{
	smp_call_on_others(synchronize_core, NULL);
	refresh_written();
}

/* write_code, noting the range for the next sync (text_mutex held). */
static int __kprobes write_live_code(void *addr, const void *src, size_t len)
{
	int err;

	if (written_count == WRITTEN_LEN)
		sync_others();
	err = write_code(addr, src, len);
	if (!err)
		written[written_count++] = (struct written_range){ addr, len };
	return err;
}

unsigned long __kprobes text_poke_refreshed(void)
{
	return refreshed;
}

#define STOPPED_QUEUE_LEN 64
#define STOPPED_POKE_MAX 8	/* an aarch64 instruction is 4 */

struct poke {
	void *addr;
	uint8_t bytes[STOPPED_POKE_MAX];
	size_t len;
};

static struct poke stopped_queue[STOPPED_QUEUE_LEN];
static int stopped_queued;

/* Runs on this CPU while stop_machine holds the others. */
static int __kprobes write_queued(void *unused)
{
	int err = 0;

	(void)unused;
	for (int i = 0; i < stopped_queued; i++) {
		int e = write_code(stopped_queue[i].addr, stopped_queue[i].bytes,
				   stopped_queue[i].len);

		if (e && !err)
			err = e;
	}
	return err;
}

/* Write the queued stopped pokes, in the order they came; leaving
 * stop_machine has synced the other CPUs for them. */
static int __kprobes write_stopped_queue(void)
{
	int err = 0;

	if (stopped_queued) {
		err = stop_machine(write_queued, NULL);
		stopped_queued = 0;
	}
	return err;
}

/* Whether a queued poke writes any of the len bytes at addr. */
static bool __kprobes overlaps_queued(uintptr_t addr, size_t len)
{
	for (int i = 0; i < stopped_queued; i++) {
		uintptr_t q = (uintptr_t)stopped_queue[i].addr;

		if (q < addr + len && addr < q + stopped_queue[i].len)
			return true;
	}
	return false;
}

int __kprobes text_poke(void *addr, const void *src, size_t len)
{
	int err;

	if (mutex_is_held(&text_mutex)) {	/* this thread's batch */
		if (overlaps_queued((uintptr_t)addr, len))
			write_stopped_queue();
		return write_live_code(addr, src, len);
	}
	mutex_lock(&text_mutex);
	err = write_live_code(addr, src, len);
	sync_others();
	mutex_unlock(&text_mutex);
	return err;
}

void __kprobes text_poke_batch_begin(void)
{
	mutex_lock(&text_mutex);
}

void __kprobes text_poke_sync(void)
{
	if (!mutex_is_held(&text_mutex))
		return;
	write_stopped_queue();
	if (written_count)
		sync_others();
}

void __kprobes text_poke_batch_end(void)
{
	text_poke_sync();
	mutex_unlock(&text_mutex);
}

/* A queued poke has the bytes' address checked when it is queued: the
 * error of a write that fails later would reach no caller. */
static int __kprobes queue_stopped(void *addr, const void *src, size_t len)
{
	struct poke *p;
	uint64_t pa;

	if (virt_to_phys((uintptr_t)addr, &pa) < 0 ||
	    virt_to_phys((uintptr_t)addr + len - 1, &pa) < 0)
		return -EFAULT;
	if (stopped_queued == STOPPED_QUEUE_LEN)
		write_stopped_queue();
	p = &stopped_queue[stopped_queued++];
	p->addr = addr;
	p->len = len;
	copy_code_bytes(p->bytes, src, len);
	return 0;
}

struct one_poke {
	void *addr;
	const void *src;
	size_t len;
};

static int __kprobes poke_stopped(void *arg)
{
	struct one_poke *p = arg;

	return write_code(p->addr, p->src, p->len);
}

int __kprobes text_poke_stopped(void *addr, const void *src, size_t len)
{
	struct one_poke p = { addr, src, len };
	int err;

	if (mutex_is_held(&text_mutex)) {	/* this thread's batch */
		if (len <= STOPPED_POKE_MAX)
			return queue_stopped(addr, src, len);
		write_stopped_queue();
		return stop_machine(poke_stopped, &p);
	}
	mutex_lock(&text_mutex);
	err = stop_machine(poke_stopped, &p);
	mutex_unlock(&text_mutex);
	return err;
}
