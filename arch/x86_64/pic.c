/*
 * The legacy interrupt hardware of a PC (pic.h): two 8259 PICs and the
 * 8254 PIT.
 *
 * The PICs are remapped so their 16 lines arrive on vectors 32-47 instead
 * of colliding with CPU exceptions. Only one line is unmasked: IRQ 4, the
 * COM1 UART's receive interrupt (arch/x86_64/uart.c). The PICs' output
 * reaches the boot CPU through its local APIC's LINT0 pin (lapic.c).
 *
 * The PIT's only use is to measure the TSC's rate, once; the tick comes
 * from each CPU's local APIC timer (timer.c). (PIT channel 0 may still
 * run as the firmware left it, but its IRQ 0 stays masked.)
 */
#include "arch/x86_64/pic.h"
#include "kernel/arch.h"
#include "kernel/nokprobe.h"
#include "kernel/percpu.h"
#include <asm/io.h>
#include <asm/irq_vectors.h>

#define PIC1_CMD  0x20
#define PIC1_DATA 0x21
#define PIC2_CMD  0xa0
#define PIC2_DATA 0xa1
#define PIC_EOI   0x20
#define PIT_CMD   0x43
#define PIT_CH2   0x42
#define PIT_HZ    1193182
/* Port 0x61, the PC's system control port B: bit 0 gates PIT channel 2,
 * bit 1 connects it to the speaker, bit 5 reads its output. */
#define PORT_B        0x61
#define PORT_B_GATE2  0x01
#define PORT_B_SPEAKER 0x02
#define PORT_B_OUT2   0x20
#define CALIBRATE_MS  10
#define PIC_LINES     16

static uint64_t tsc_hz;

void uart_handle_irq(void);

static void pic_remap(void)
{
	outb(PIC1_CMD, 0x11);		/* ICW1: init, expect ICW4 */
	outb(PIC2_CMD, 0x11);
	outb(PIC1_DATA, IRQ_VECTOR_BASE);	/* ICW2: vector offsets */
	outb(PIC2_DATA, IRQ_VECTOR_BASE + 8);
	outb(PIC1_DATA, 4);		/* ICW3: slave on line 2 */
	outb(PIC2_DATA, 2);
	outb(PIC1_DATA, 1);		/* ICW4: 8086 mode */
	outb(PIC2_DATA, 1);
	/* Unmask COM1 only. */
	outb(PIC1_DATA, (uint8_t)~(1 << IRQ_COM1));
	outb(PIC2_DATA, 0xff);
}

/*
 * The TSC's rate is not written anywhere a kernel can read it portably,
 * so it is measured once: PIT channel 2 (whose output port 0x61 reads)
 * counts CALIBRATE_MS milliseconds down from a known count in mode 0,
 * whose output goes high at zero, while the TSC runs. The PIT's clock is
 * exact, so the TSC's rate is the cycles counted over the time that took.
 * 10 ms of boot time keeps the error of reading the two clocks (a few
 * port reads, well under a microsecond each) under 0.1%. With interrupts
 * still off nothing can stretch the loop. A PIT that never ends the count
 * (a missing port 0x61) leaves the rate unknown, after about a second's
 * worth of TSC at a few GHz, rather than hanging the boot.
 */
static void tsc_calibrate(void)
{
	unsigned int count = PIT_HZ / (1000 / CALIBRATE_MS);
	uint64_t t0, t1;

	outb(PORT_B, (inb(PORT_B) & ~PORT_B_SPEAKER) | PORT_B_GATE2);
	outb(PIT_CMD, 0xb0);		/* channel 2, lo/hi byte, mode 0 */
	outb(PIT_CH2, count & 0xff);
	outb(PIT_CH2, count >> 8);
	t0 = arch_cycles();
	do {
		t1 = arch_cycles();
		if (t1 - t0 > 4000000000ull)
			return;
	} while (!(inb(PORT_B) & PORT_B_OUT2));
	tsc_hz = (t1 - t0) * PIT_HZ / count;
}

uint64_t arch_cycles_frequency(void)
{
	return tsc_hz;
}

void pic_init(void)
{
	tsc_calibrate();
	pic_remap();
}

/* The legacy IRQs each CPU has handled, by line, for /proc/interrupts:
 * only the CPU itself counts, interrupts off, in its own copy. */
static DEFINE_PER_CPU(unsigned long[PIC_LINES], irqs_taken);

/* A device line's number on x86_64 is its PIC line (irq_rows.c). */
unsigned long arch_irq_count(unsigned int cpu, unsigned int which)
{
	return which < PIC_LINES ?
		__atomic_load_n(&(*per_cpu_ptr(&irqs_taken, cpu))[which], __ATOMIC_RELAXED) : 0;
}

void pic_handle_irq(unsigned int irq)
{
	(*this_cpu_ptr(&irqs_taken))[irq]++;
	/* Acknowledge first: the way out of the interrupt may switch
	 * threads, and the PIC must not stay blocked until this thread runs
	 * again. */
	if (irq >= 8)
		outb(PIC2_CMD, PIC_EOI);
	outb(PIC1_CMD, PIC_EOI);
	if (irq == IRQ_COM1)
		uart_handle_irq();
}
NOKPROBE_SYMBOL(pic_handle_irq);
