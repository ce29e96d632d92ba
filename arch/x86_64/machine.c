/* Small x86_64 machine services: cycle counter, frame pointer, icache
 * synchronisation, halting and leaving QEMU. */
#include "kernel/arch.h"
#include "kernel/nokprobe.h"
#include <asm/io.h>

/* QEMU's isa-debug-exit device (-device isa-debug-exit,iobase=0xf4):
 * writing v makes QEMU exit with status (v << 1) | 1. */
#define DEBUG_EXIT_PORT 0xf4

uint64_t notrace arch_cycles(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}
NOKPROBE_SYMBOL(arch_cycles);

/* Our own frame is gone once we return, and the caller's next call
 * builds its frame in the same place: hand back the caller's frame, the
 * first word of ours (the saved frame pointer). */
uintptr_t arch_current_frame(void)
{
	return *(uintptr_t *)__builtin_frame_address(0);
}

/*
 * x86 keeps instruction fetch coherent with stores, but a CPU may already
 * have fetched and decoded the old bytes. Intel's rule for code modified
 * through another mapping is to execute a serializing instruction before
 * running it; CPUID is one that every CPU has.
 */
void arch_sync_icache(uintptr_t addr, size_t len)
{
	uint32_t a = 0, b, c = 0, d;

	(void)addr;
	(void)len;
	__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d) : : "memory");
}
NOKPROBE_SYMBOL(arch_sync_icache);

void arch_halt(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

void arch_poweroff(int status)
{
	outb(DEBUG_EXIT_PORT, (uint8_t)status);
	/* Not under QEMU with the exit device: just stop. */
	arch_halt();
}
