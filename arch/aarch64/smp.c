/*
 * Starting the other CPUs on aarch64 (kernel/arch.h's "Other CPUs";
 * docs/smp.md).
 *
 * The device tree lists the CPUs by MPIDR affinity and says how to call
 * PSCI (boot/aarch64/fdt_boot.c read both at boot). PSCI CPU_ON starts a
 * CPU at a physical address with its MMU off, passing one number, the
 * context id. Before it can run C the new CPU needs the boot CPU's MMU
 * settings, its stack and its number: they go into a record of its own
 * (struct secondary_boot, asm/smp_boot.h), whose physical address is the
 * context id. The new CPU starts in secondary_entry (smp_entry.S).
 *
 * Once up, CPUs interrupt each other with the GIC's SGIs, one SGI number
 * per kind of IPI (arch_send_ipi).
 */
#include "boot/aarch64/fdt_boot.h"
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/nokprobe.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include <asm/gic.h>
#include <asm/layout.h>
#include <asm/psci.h>
#include <asm/smp_boot.h>
#include <asm/sysreg.h>

/* MPIDR_EL1's affinity fields (Aff3 in 39:32, Aff2-Aff0 in 23:0): the
 * bits a cpu node's reg holds and PSCI takes. */
#define MPIDR_AFFINITY_MASK 0xff00ffffffULL

_Static_assert(offsetof(struct secondary_boot, stack_top) == SB_STACK_TOP, "asm/smp_boot.h");
_Static_assert(offsetof(struct secondary_boot, id) == SB_ID, "asm/smp_boot.h");
_Static_assert(offsetof(struct secondary_boot, mair) == SB_MAIR, "asm/smp_boot.h");
_Static_assert(offsetof(struct secondary_boot, tcr) == SB_TCR, "asm/smp_boot.h");
_Static_assert(offsetof(struct secondary_boot, ttbr1) == SB_TTBR1, "asm/smp_boot.h");
_Static_assert(offsetof(struct secondary_boot, sctlr) == SB_SCTLR, "asm/smp_boot.h");
_Static_assert(sizeof(struct secondary_boot) == SB_SIZE, "asm/smp_boot.h");

/* One per CPU: a CPU that was given up on (kernel/smp.c) may still wake
 * up and read its record, which must not have become another CPU's. */
static struct secondary_boot records[MAX_CPUS] __aligned(SB_ALIGN);

unsigned int arch_smp_find_cpus(const struct boot_info *bi, uint64_t *hw_ids, unsigned int max)
{
	const struct fdt_devices *dev = fdt_devices();	/* bi has no CPUs: the tree did */
	uint64_t self = read_sysreg(mpidr_el1) & MPIDR_AFFINITY_MASK;
	unsigned int n = 0;

	(void)bi;
	if (max == 0)
		return 0;
	hw_ids[n++] = self;
	if (dev->ncpus > 1 && !dev->psci_cpu_on) {
		kprintf("smp: the device tree names no PSCI CPU_ON: only the boot CPU runs\n");
		return n;
	}
	for (unsigned int i = 0; i < dev->ncpus; i++) {
		if (dev->cpu_mpidr[i] == self)
			continue;
		if (n == max) {
			kprintf("smp: CPU 0x%lx left out: at most %u CPUs\n",
				(unsigned long)dev->cpu_mpidr[i], max);
			continue;
		}
		hw_ids[n++] = dev->cpu_mpidr[i];
	}
	if (dev->cpus_left_out)
		kprintf("smp: %u more CPUs left out: at most %u CPUs\n", dev->cpus_left_out, max);
	return n;
}

/* Write the lines holding [p, p + len) back to memory, where a CPU with
 * its MMU (and so its caches) off reads: DC CVAC cleans to the point of
 * coherency. The DSB waits until that is done. */
static void clean_to_memory(const void *p, size_t len)
{
	uintptr_t line = 4UL << ((read_sysreg(ctr_el0) >> 16) & 0xf);	/* DminLine */
	uintptr_t end = (uintptr_t)p + len;

	for (uintptr_t a = ALIGN_DOWN((uintptr_t)p, line); a < end; a += line)
		__asm__ volatile("dc cvac, %0" : : "r"(a) : "memory");
	__asm__ volatile("dsb sy" : : : "memory");
}

int arch_smp_start_cpu(unsigned int id, uint64_t hw_id, uintptr_t stack_top)
{
	struct secondary_boot *rec;

	if (id == 0 || id >= MAX_CPUS)
		return -EINVAL;
	rec = &records[id];
	rec->stack_top = ALIGN_DOWN(stack_top, 16);	/* SCTLR.SA checks it */
	rec->id = id;
	/* The boot CPU's settings now, with the final tables in TTBR1
	 * (arch_paging_switch): the new CPU takes them as they are. */
	rec->mair = read_sysreg(mair_el1);
	rec->tcr = read_sysreg(tcr_el1);
	rec->ttbr1 = read_sysreg(ttbr1_el1);
	rec->sctlr = read_sysreg(sctlr_el1);
	clean_to_memory(rec, sizeof(*rec));
	/* The record is in the kernel image: physical = virtual - KERNEL_VMA. */
	return psci_cpu_on(fdt_devices()->psci_cpu_on, hw_id, secondary_entry_phys,
			   (uintptr_t)rec - KERNEL_VMA);
}

/* GICv2 has no non-maskable interrupt: IPI_STOP is an SGI like the
 * others, and a CPU spinning with interrupts off never takes it. */
void arch_send_ipi(unsigned int cpu, enum ipi_kind kind)
{
	gic_send_sgi(cpu, kind);	/* SGI n is IPI kind n (asm/gic.h) */
}
NOKPROBE_SYMBOL(arch_send_ipi);
