/* Small aarch64 machine services: cycle counter, frame pointer, cache
 * maintenance for new code, halting and leaving QEMU. */
#include "kernel/arch.h"
#include "kernel/nokprobe.h"
#include <asm/psci.h>
#include <asm/sysreg.h>

/* The virtual counter: it ticks at CNTFRQ_EL0 (62.5 MHz under QEMU), not
 * at the CPU clock, but it is monotonic and readable at any time. The
 * ISB keeps the read from happening earlier than the code before it. */
uint64_t notrace arch_cycles(void)
{
	isb();
	return read_sysreg(cntvct_el0);
}
NOKPROBE_SYMBOL(arch_cycles);

/* The counter's frequency is in CNTFRQ_EL0, set by the firmware (QEMU). */
uint64_t arch_cycles_frequency(void)
{
	return read_sysreg(cntfrq_el0);
}
NOKPROBE_SYMBOL(arch_cycles_frequency);

/* Our own frame is gone once we return, and the caller's next call
 * builds its frame in the same place: hand back the caller's frame, the
 * first word of ours (the saved frame pointer). */
uintptr_t arch_current_frame(void)
{
	return *(uintptr_t *)__builtin_frame_address(0);
}

/*
 * Unlike x86, the instruction fetch of an ARM CPU does not see data
 * stores: new code sits in the data cache, and the instruction cache may
 * hold the old bytes. So: clean the data cache lines to the point where
 * instruction fetches look (DC CVAU), wait for that, invalidate the
 * instruction cache lines (IC IVAU), wait, and discard already-fetched
 * instructions (ISB). text_poke wrote through a different virtual
 * address (its alias window), but both map the same physical memory and
 * the data cache is physically addressed, so cleaning by the kernel
 * address reaches the bytes written. Line sizes come from CTR_EL0.
 */
void arch_sync_icache(uintptr_t addr, size_t len)
{
	uint64_t ctr = read_sysreg(ctr_el0);
	uintptr_t dline = 4UL << ((ctr >> 16) & 0xf);
	uintptr_t iline = 4UL << (ctr & 0xf);
	uintptr_t end = addr + len;

	for (uintptr_t p = ALIGN_DOWN(addr, dline); p < end; p += dline)
		__asm__ volatile("dc cvau, %0" : : "r"(p) : "memory");
	__asm__ volatile("dsb ish" : : : "memory");
	for (uintptr_t p = ALIGN_DOWN(addr, iline); p < end; p += iline)
		__asm__ volatile("ic ivau, %0" : : "r"(p) : "memory");
	__asm__ volatile("dsb ish\n\tisb" : : : "memory");
}
NOKPROBE_SYMBOL(arch_sync_icache);

void arch_halt(void)
{
	for (;;)
		__asm__ volatile("msr daifset, #0xf\n\twfi" : : : "memory");
}

/*
 * PSCI SYSTEM_OFF (psci.c). PSCI has no exit status: QEMU always exits
 * with 0, whatever status is.
 */
void arch_poweroff(int status)
{
	(void)status;
	psci_call(PSCI_FN_SYSTEM_OFF, 0, 0, 0);
	/* Not under QEMU, or PSCI refused: just stop. */
	arch_halt();
}
