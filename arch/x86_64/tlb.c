/*
 * TLB shootdowns on x86_64 (kernel/arch.h, arch_flush_tlb_page_all).
 *
 * invlpg forgets a translation on the CPU that runs it only. When a
 * mapping is removed or made stricter, every other CPU that runs threads
 * may still hold the old translation, and would go on using it: reading
 * or running a page whose frame has been freed and reused (an execmem
 * page of detour buffers, say), or writing a page that is now read-only.
 * So the CPU that changed the entry asks each other CPU to flush its TLB
 * and waits until all have.
 *
 * The request is an NMI, not an ordinary IPI: the change is made under
 * the page tables' spinlock with interrupts off, and the CPU that waits
 * for the others may be what another CPU, spinning for that lock with
 * interrupts off too, waits for. No cli holds an NMI back, so every CPU
 * answers. An NMI carries no vector, so the sender counts it in the
 * receiver's expected_nmis first; the NMI handler (traps.c) calls
 * tlb_handle_nmi, which takes one from the count, flushes, and clears the
 * receiver's bit in pending. A flush is always the whole TLB (CR3
 * reloaded): the NMI cannot say which page, and one NMI may answer
 * several requests.
 */
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/tlb.h"
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/nokprobe.h"
#include "kernel/smp.h"

/* CPUs asked to flush that have not yet. */
static unsigned long pending;
/* NMIs sent to each CPU for a flush and not yet handled. */
static unsigned int expected_nmis[MAX_CPUS];

static void notrace flush_local_tlb(void)
{
	uint64_t cr3;

	__asm__ volatile("movq %%cr3, %0\n\tmovq %0, %%cr3" : "=r"(cr3) : : "memory");
}
NOKPROBE_SYMBOL(flush_local_tlb);

bool notrace tlb_handle_nmi(void)
{
	unsigned int id = this_cpu()->id;
	unsigned int n = __atomic_load_n(&expected_nmis[id], __ATOMIC_ACQUIRE);

	do {
		if (n == 0)
			return false;	/* not ours */
	} while (!__atomic_compare_exchange_n(&expected_nmis[id], &n, n - 1, false,
					      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
	/* Clear the bit first: a request made after this point gets a
	 * flush of its own, and one made before is answered by this one. */
	__atomic_fetch_and(&pending, ~(1UL << id), __ATOMIC_ACQ_REL);
	flush_local_tlb();
	return true;
}
NOKPROBE_SYMBOL(tlb_handle_nmi);

void arch_flush_tlb_page_all(uintptr_t va)
{
	unsigned long others = smp_cpus_running() & ~(1UL << this_cpu()->id);

	arch_flush_tlb_page(va);
	if (!others)
		return;
	__atomic_fetch_or(&pending, others, __ATOMIC_ACQ_REL);
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (!(others & (1UL << cpu)))
			continue;
		__atomic_fetch_add(&expected_nmis[cpu], 1, __ATOMIC_ACQ_REL);
		lapic_send_nmi((uint32_t)cpu_hw_id(cpu));
	}
	while (__atomic_load_n(&pending, __ATOMIC_ACQUIRE) & others)
		__asm__ volatile("pause");
}
NOKPROBE_SYMBOL(arch_flush_tlb_page_all);
