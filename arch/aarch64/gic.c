/*
 * The GICv2 interrupt controller of QEMU virt.
 *
 * Two blocks of registers: the distributor, shared by all CPUs, decides
 * which interrupts are enabled, their priority and which CPU gets them;
 * each CPU's interface hands it the highest-priority pending interrupt
 * (reading IAR "acknowledges" it) and is told when the CPU is done
 * (writing EOIR). Every interrupt the kernel uses gets the same priority,
 * so they never preempt each other (the CPU masks IRQs while handling one
 * anyway). Their addresses come from the device tree.
 *
 * A CPU interrupts another by writing GICD_SGIR: a software-generated
 * interrupt (SGI, INTID 0-15) for a list of CPU interfaces. The GIC
 * numbers its interfaces its own way, which need not be the kernel's CPU
 * numbers nor MPIDR's, so each CPU looks up its own interface when it
 * sets it up, and sends use that.
 */
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/nokprobe.h"
#include <asm/gic.h>
#include <asm/io.h>

#define GICD_CTLR        0x000
#define GICD_ISENABLER   0x100	/* one bit per interrupt: write 1 to enable */
#define GICD_IPRIORITYR  0x400	/* one byte per interrupt */
#define GICD_ITARGETSR   0x800	/* one byte per interrupt: a CPU mask */
#define GICD_ICFGR       0xc00	/* two bits per interrupt: edge or level */
#define GICD_SGIR        0xf00	/* write: send an SGI */
#define SGIR_TARGETS_SHIFT 16	/* the CPU interface mask, bits 23:16 */
#define GICC_CTLR        0x00
#define GICC_PMR         0x04	/* priority mask */
#define GICC_BPR         0x08
#define GICC_IAR         0x0c
#define GICC_EOIR        0x10

#define GIC_PRIORITY     0xa0	/* any value below the mask */
#define GIC_PRIORITY_MASK 0xf0
#define FIRST_SPI        32

_Static_assert(IPI_KINDS <= GIC_NR_SGIS, "one SGI per IPI kind");

static uint8_t *gicd, *gicc;
/* Each CPU's interface as the GIC names it in its target masks (bit n
 * for interface n), by kernel CPU number; set by that CPU. */
static uint8_t interface_mask[MAX_CPUS];

/* Set the byte-wide field of intid in a register array of bytes. The
 * GICv2 allows byte accesses there, but 32-bit ones are the plainest. */
static void set_byte_field(unsigned int reg, unsigned int intid, uint8_t v)
{
	uint8_t *addr = gicd + reg + (intid & ~3U);
	unsigned int shift = (intid % 4) * 8;
	uint32_t word = readl(addr);

	word = (word & ~(0xffU << shift)) | (uint32_t)v << shift;
	writel(word, addr);
}

void gic_init(uint64_t dist_phys, uint64_t cpu_phys)
{
	gicd = ioremap(dist_phys, 0x1000);
	gicc = ioremap(cpu_phys, 0x1000);
	writel(0, gicd + GICD_CTLR);
	gic_cpu_init();
	writel(1, gicd + GICD_CTLR);
}

/* Every CPU sees its own CPU interface at the same address (the GIC
 * banks it per CPU), so each CPU sets up its interface itself. (The
 * distributor's registers for interrupts 0-31, SGIs and PPIs, are banked
 * too: enabling the timer's PPI, or giving the SGIs their priority,
 * reaches only the CPU that does it.) */
void gic_cpu_init(void)
{
	if (!gicc)
		return;	/* the boot CPU, early: gic_init calls again */
	/* GICD_ITARGETSR0-7, the target bytes of interrupts 0-31, are
	 * banked and read-only: each byte reads as the reading CPU's own
	 * interface mask. (A GIC built for one CPU reads 0 there; such a
	 * machine sends no IPIs.) */
	interface_mask[this_cpu()->id] = readl(gicd + GICD_ITARGETSR) & 0xff;
	writel(GIC_PRIORITY_MASK, gicc + GICC_PMR);
	writel(0, gicc + GICC_BPR);	/* compare all priority bits */
	/* A GICv2 may keep SGIs always enabled; their priority, though,
	 * must pass the mask above like every other interrupt's. */
	for (unsigned int sgi = 0; sgi < IPI_KINDS; sgi++)
		gic_enable_irq(sgi);
	writel(1, gicc + GICC_CTLR);
}

void gic_enable_irq(unsigned int intid)
{
	set_byte_field(GICD_IPRIORITYR, intid, GIC_PRIORITY);
	if (intid >= FIRST_SPI) {
		uint8_t *cfg = gicd + GICD_ICFGR + 4 * (intid / 16);

		/* Shared interrupts go to the boot CPU and are
		 * level-triggered (the UART's line stays up while data
		 * waits). Per-CPU ones have fixed targets. */
		set_byte_field(GICD_ITARGETSR, intid, interface_mask[0]);
		writel(readl(cfg) & ~(2U << (2 * (intid % 16))), cfg);
	}
	writel(1U << (intid % 32), gicd + GICD_ISENABLER + 4 * (intid / 32));
}

uint32_t gic_acknowledge(void)
{
	return readl(gicc + GICC_IAR);
}
NOKPROBE_SYMBOL(gic_acknowledge);

void gic_end_of_interrupt(uint32_t iar)
{
	writel(iar, gicc + GICC_EOIR);
}
NOKPROBE_SYMBOL(gic_end_of_interrupt);

void gic_send_sgi(unsigned int cpu, unsigned int sgi)
{
	/* What the SGI announces (an IPI_CALL_FUNCTION's request, say) was
	 * stored to normal memory, the SGI is a store to device memory: only
	 * a DSB keeps the receiver from taking the SGI before it can see
	 * those stores. */
	__asm__ volatile("dsb ishst" : : : "memory");
	writel((uint32_t)interface_mask[cpu] << SGIR_TARGETS_SHIFT | sgi, gicd + GICD_SGIR);
}
NOKPROBE_SYMBOL(gic_send_sgi);
