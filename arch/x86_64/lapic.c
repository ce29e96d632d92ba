/*
 * The local APIC (lapic.h), in xAPIC mode: 4 KiB of 32-bit registers,
 * each on a 16-byte boundary, mapped uncached (Intel SDM vol. 3, chapter
 * "Advanced Programmable Interrupt Controller").
 *
 * Every CPU reaches its own local APIC at the same physical address, so
 * one mapping serves them all, but each CPU must set up its own: the
 * registers a CPU writes are those of its own local APIC.
 *
 * An IPI is sent by writing the Interrupt Command Register: the high half
 * first (the destination), then the low half (what to send), which sends
 * it. The delivery-status bit stays set while the local APIC has not yet
 * passed the IPI on; the next IPI must wait for it to clear.
 */
#include "arch/x86_64/lapic.h"
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/nokprobe.h"
#include "kernel/time.h"
#include "lib/errno.h"
#include <asm/io.h>
#include <asm/irq.h>
#include <asm/irq_vectors.h>

#define MSR_APIC_BASE		0x1b
#define APIC_BASE_X2APIC	(1u << 10)	/* x2APIC mode: MSRs, not memory */
#define APIC_BASE_ENABLE	(1u << 11)
#define APIC_BASE_ADDR		0x000ffffffffff000ull

#define LAPIC_ID		0x020	/* the id in bits 31-24 */
#define LAPIC_TPR		0x080	/* task priority: below it, held back */
#define LAPIC_EOI		0x0b0
#define LAPIC_SVR		0x0f0	/* spurious vector, and the enable bit */
#define LAPIC_ICR_LOW		0x300
#define LAPIC_ICR_HIGH		0x310	/* the destination in bits 31-24 */
#define LAPIC_LVT_TIMER		0x320	/* the LVT: what each local source sends */
#define LAPIC_LVT_LINT0		0x350
#define LAPIC_LVT_LINT1		0x360
#define LAPIC_TIMER_INITIAL	0x380
#define LAPIC_TIMER_CURRENT	0x390
#define LAPIC_TIMER_DIVIDE	0x3e0

#define SVR_ENABLE		(1u << 8)
#define LVT_MASKED		(1u << 16)
#define LVT_TIMER_PERIODIC	(1u << 17)
#define TIMER_DIVIDE_BY_16	0x3

/* Delivery modes, in the ICR and the LVT entries (bits 10-8). */
#define DELIVER_FIXED		(0u << 8)
#define DELIVER_NMI		(4u << 8)
#define DELIVER_INIT		(5u << 8)
#define DELIVER_STARTUP		(6u << 8)
#define DELIVER_EXTINT		(7u << 8)

#define ICR_PENDING		(1u << 12)	/* delivery status: not sent yet */
#define ICR_ASSERT		(1u << 14)
#define ICR_LEVEL		(1u << 15)	/* level-triggered */

/* An IPI leaves within microseconds; a millisecond is plenty. */
#define IPI_TIMEOUT		(1000 * NSEC_PER_USEC)

static volatile uint8_t *regs;
static uint64_t regs_phys;

static uint32_t lapic_read(unsigned int reg)
{
	return readl(regs + reg);
}
NOKPROBE_SYMBOL(lapic_read);

static void lapic_write(unsigned int reg, uint32_t v)
{
	writel(v, regs + reg);
}
NOKPROBE_SYMBOL(lapic_write);

static uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

/* The address comes from the CPU itself, not from ACPI: the tick needs
 * the local APIC on every machine, before the MADT is read. */
int lapic_init(void)
{
	uint64_t msr = rdmsr(MSR_APIC_BASE);

	if (!(msr & APIC_BASE_ENABLE) || (msr & APIC_BASE_X2APIC))
		return -ENODEV;
	regs_phys = msr & APIC_BASE_ADDR;
	regs = ioremap(regs_phys, 4096);
	return 0;
}

uint64_t lapic_phys_base(void)
{
	return regs_phys;
}

/*
 * Software-enabled, a local APIC delivers its timer and the IPIs it
 * receives; disabled, it only sends. Its LINT0 pin is wired to the 8259
 * PIC's output: in ExtINT mode the PIC's interrupts pass through as if
 * there were no local APIC, which is how COM1 keeps reaching the boot
 * CPU. QEMU sets the boot CPU's LINT0 that way at reset, as PC firmware
 * does; it is written here all the same, so that nothing depends on it.
 * LINT1 carries the board's NMI to the boot CPU. The other CPUs take
 * neither pin.
 */
void lapic_enable(void)
{
	bool boot_cpu = this_cpu()->id == 0;

	lapic_write(LAPIC_TPR, 0);	/* hold back no vector */
	lapic_write(LAPIC_LVT_LINT0, boot_cpu ? DELIVER_EXTINT : LVT_MASKED);
	lapic_write(LAPIC_LVT_LINT1, boot_cpu ? DELIVER_NMI : LVT_MASKED);
	lapic_write(LAPIC_SVR, SVR_ENABLE | SPURIOUS_VECTOR);
}

uint32_t lapic_id(void)
{
	return lapic_read(LAPIC_ID) >> 24;
}

void lapic_eoi(void)
{
	lapic_write(LAPIC_EOI, 0);
}
NOKPROBE_SYMBOL(lapic_eoi);

/* Wait until the last IPI has left this local APIC. */
static int wait_delivered(void)
{
	/* Timed by the TSC itself, not ktime_get: this runs on the way to
	 * patching text (a TLB shootdown), where nothing may be probed. */
	uint64_t hz = arch_cycles_frequency();
	uint64_t deadline = arch_cycles() + (hz ? hz : 4000000000ull) / (NSEC_PER_SEC / IPI_TIMEOUT);

	while (lapic_read(LAPIC_ICR_LOW) & ICR_PENDING) {
		if (arch_cycles() > deadline)
			return -EIO;
		__asm__ volatile("pause");
	}
	return 0;
}
NOKPROBE_SYMBOL(wait_delivered);

/* Interrupts off from the first write to the last: an interrupt handler
 * that sent an IPI of its own between the two halves would change this
 * one's destination. */
static int send_ipi(uint32_t apic_id, uint32_t command)
{
	unsigned long flags = arch_irq_save();
	int err = wait_delivered();

	if (!err) {
		lapic_write(LAPIC_ICR_HIGH, apic_id << 24);
		lapic_write(LAPIC_ICR_LOW, command);
		err = wait_delivered();
	}
	arch_irq_restore(flags);
	return err;
}
NOKPROBE_SYMBOL(send_ipi);

/* The deassert is what the SDM's sequence for the first processors with
 * a local APIC wants; later ones ignore it, so it is always sent. */
int lapic_send_init(uint32_t apic_id)
{
	int err = send_ipi(apic_id, DELIVER_INIT | ICR_LEVEL | ICR_ASSERT);

	if (err)
		return err;
	return send_ipi(apic_id, DELIVER_INIT | ICR_LEVEL);
}

int lapic_send_startup(uint32_t apic_id, uint64_t start_pa)
{
	if (start_pa % 4096 || start_pa >= (1 << 20))
		return -EINVAL;
	return send_ipi(apic_id, DELIVER_STARTUP | (uint32_t)(start_pa >> 12));
}

int lapic_send_fixed(uint32_t apic_id, uint8_t vector)
{
	return send_ipi(apic_id, DELIVER_FIXED | ICR_ASSERT | vector);
}
NOKPROBE_SYMBOL(lapic_send_fixed);

int lapic_send_nmi(uint32_t apic_id)
{
	return send_ipi(apic_id, DELIVER_NMI | ICR_ASSERT);
}
NOKPROBE_SYMBOL(lapic_send_nmi);

/* The timer counts down at the bus clock divided by 16 (the divider is
 * set each time, as each CPU has its own). */
void lapic_timer_count_down(void)
{
	lapic_write(LAPIC_TIMER_DIVIDE, TIMER_DIVIDE_BY_16);
	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED | LAPIC_TIMER_VECTOR);
	lapic_write(LAPIC_TIMER_INITIAL, 0xffffffff);
}

uint32_t lapic_timer_current(void)
{
	return lapic_read(LAPIC_TIMER_CURRENT);
}

void lapic_timer_periodic(uint32_t count)
{
	lapic_write(LAPIC_TIMER_DIVIDE, TIMER_DIVIDE_BY_16);
	lapic_write(LAPIC_LVT_TIMER, LVT_TIMER_PERIODIC | LAPIC_TIMER_VECTOR);
	lapic_write(LAPIC_TIMER_INITIAL, count);
}
