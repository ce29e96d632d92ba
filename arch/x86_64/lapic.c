/*
 * The local APIC (lapic.h), in xAPIC mode: 4 KiB of 32-bit registers,
 * each on a 16-byte boundary, mapped uncached (Intel SDM vol. 3, chapter
 * "Advanced Programmable Interrupt Controller").
 *
 * An IPI is sent by writing the Interrupt Command Register: the high half
 * first (the destination), then the low half (what to send), which sends
 * it. The delivery-status bit stays set while the local APIC has not yet
 * passed the IPI on; the next IPI must wait for it to clear.
 *
 * Nothing here enables the local APIC (its spurious-vector register):
 * a software-disabled local APIC still sends IPIs, and enabling it would
 * change how the PIC's interrupts reach this CPU.
 */
#include "arch/x86_64/lapic.h"
#include "kernel/time.h"
#include "lib/errno.h"
#include <asm/io.h>

#define MSR_APIC_BASE		0x1b
#define APIC_BASE_X2APIC	(1u << 10)	/* x2APIC mode: MSRs, not memory */
#define APIC_BASE_ENABLE	(1u << 11)

#define LAPIC_ID		0x020	/* the id in bits 31-24 */
#define LAPIC_ICR_LOW		0x300
#define LAPIC_ICR_HIGH		0x310	/* the destination in bits 31-24 */

#define ICR_INIT		(5u << 8)	/* delivery modes */
#define ICR_STARTUP		(6u << 8)
#define ICR_PENDING		(1u << 12)	/* delivery status: not sent yet */
#define ICR_ASSERT		(1u << 14)
#define ICR_LEVEL		(1u << 15)	/* level-triggered */

/* An IPI leaves within microseconds; a millisecond is plenty. */
#define IPI_TIMEOUT		(1000 * NSEC_PER_USEC)

static volatile uint8_t *regs;

static uint32_t lapic_read(unsigned int reg)
{
	return readl(regs + reg);
}

static void lapic_write(unsigned int reg, uint32_t v)
{
	writel(v, regs + reg);
}

static uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

int lapic_init(uint64_t base)
{
	uint64_t msr = rdmsr(MSR_APIC_BASE);

	if (!(msr & APIC_BASE_ENABLE) || (msr & APIC_BASE_X2APIC))
		return -ENODEV;
	regs = ioremap(base, 4096);
	return 0;
}

uint32_t lapic_id(void)
{
	return lapic_read(LAPIC_ID) >> 24;
}

/* Wait until the last IPI has left this local APIC. */
static int wait_delivered(void)
{
	ktime_t deadline = ktime_get() + IPI_TIMEOUT;

	while (lapic_read(LAPIC_ICR_LOW) & ICR_PENDING) {
		if (ktime_get() > deadline)
			return -EIO;
		__asm__ volatile("pause");
	}
	return 0;
}

static int send_ipi(uint32_t apic_id, uint32_t command)
{
	int err = wait_delivered();

	if (err)
		return err;
	lapic_write(LAPIC_ICR_HIGH, apic_id << 24);
	lapic_write(LAPIC_ICR_LOW, command);
	return wait_delivered();
}

/* The deassert is what the SDM's sequence for the first processors with
 * a local APIC wants; later ones ignore it, so it is always sent. */
int lapic_send_init(uint32_t apic_id)
{
	int err = send_ipi(apic_id, ICR_INIT | ICR_LEVEL | ICR_ASSERT);

	if (err)
		return err;
	return send_ipi(apic_id, ICR_INIT | ICR_LEVEL);
}

int lapic_send_startup(uint32_t apic_id, uint64_t start_pa)
{
	if (start_pa % 4096 || start_pa >= (1 << 20))
		return -EINVAL;
	return send_ipi(apic_id, ICR_STARTUP | (uint32_t)(start_pa >> 12));
}
