/*
 * A bare-metal program for QEMU virt (aarch64) that does what ProbeOS's
 * stop_machine does, and nothing else, to tell whether the -icount hang
 * with several CPUs (docs/tests.md, "One hang is QEMU's") is the
 * kernel's or QEMU's.
 *
 * Four CPUs, each with a generic-timer tick, as ProbeOS sets them up
 * (arch/aarch64/timer.c). CPU 0, round after round, asks the other three
 * with an SGI to hold; each of them, in its SGI handler with interrupts
 * masked, says it arrived and sleeps in WFI until CPU 0 releases it
 * (kernel/smp_call.c's hold_here). CPU 0 waits for the three with
 * interrupts on, its ticks coming, then releases them with a flag and a
 * second SGI and waits until all have left. A line every PRINT_EVERY
 * rounds shows it goes on; after RUN_TICKS of CPU 0's ticks it says
 * "done" and powers off through PSCI.
 *
 * A held CPU's own tick comes while it is held and stays pending, so
 * its WFI returns at once and it goes round its loop without sleeping.
 * The two variants take that away, each in its own way (see below).
 */
#include <stdint.h>

#define RUN_TICKS	5	/* CPU 0's ticks: 50 ms of emulated time */
#define NR_CPUS		4
#define PRINT_EVERY	10000

/* The variants (make VARIANT=...): held CPUs that spin on YIELD, which
 * ends a CPU's turn in QEMU's round-robin, instead of WFI
 * (held-spin); or a tick on CPU 0 only, so that nothing is pending on a
 * held CPU and its WFI really sleeps (boot-cpu-ticks-only). */
#ifndef HELD_SPIN
#define HELD_SPIN	0
#endif
#ifndef BOOT_CPU_TICKS_ONLY
#define BOOT_CPU_TICKS_ONLY 0
#endif

/* QEMU virt's fixed addresses (its device tree says the same). */
#define UART_DR		((volatile uint32_t *)0x09000000)
#define UART_FR		((volatile uint32_t *)0x09000018)
#define UART_FR_TXFF	(1U << 5)
#define GICD		0x08000000UL
#define GICC		0x08010000UL
#define GICD_CTLR	(GICD + 0x000)
#define GICD_ISENABLER	(GICD + 0x100)
#define GICD_IPRIORITYR	(GICD + 0x400)
#define GICD_SGIR	(GICD + 0xf00)
#define GICC_CTLR	(GICC + 0x00)
#define GICC_PMR	(GICC + 0x04)
#define GICC_IAR	(GICC + 0x0c)
#define GICC_EOIR	(GICC + 0x10)

#define SGI_HOLD	1	/* "hold", then "you are released" */
#define VTIMER_PPI	27	/* the EL1 virtual timer's interrupt */
#define TICK_HZ		100	/* ProbeOS's TIMER_HZ */
#define SPURIOUS	1020

#define PSCI_CPU_ON	0xc4000003UL
#define PSCI_SYSTEM_OFF	0x84000008UL

extern char secondary_start[];

static uint64_t tick_period;		/* counter ticks per tick */
static unsigned int online;		/* CPUs 1-3 that are up */
static unsigned int arrived;		/* CPUs held this round */
static unsigned int release;		/* this round's hold is over */
static unsigned int pending;		/* CPUs that have not left the hold */
static uint64_t ticks[NR_CPUS];

static inline void write32(unsigned long addr, uint32_t v) { *(volatile uint32_t *)addr = v; }
static inline uint32_t read32(unsigned long addr) { return *(volatile uint32_t *)addr; }

#define read_sysreg(r) ({ uint64_t v; __asm__ volatile("mrs %0, " #r : "=r"(v)); v; })
#define write_sysreg(v, r) __asm__ volatile("msr " #r ", %0" : : "r"((uint64_t)(v)))

static void irq_on(void)  { __asm__ volatile("msr daifclr, #2" : : : "memory"); }
static void irq_off(void) { __asm__ volatile("msr daifset, #2" : : : "memory"); }
static void cpu_relax(void) { __asm__ volatile("yield" : : : "memory"); }

static unsigned long psci(unsigned long fn, unsigned long a, unsigned long b, unsigned long c)
{
	register unsigned long x0 __asm__("x0") = fn;
	register unsigned long x1 __asm__("x1") = a;
	register unsigned long x2 __asm__("x2") = b;
	register unsigned long x3 __asm__("x3") = c;

	__asm__ volatile("hvc #0" : "+r"(x0) : "r"(x1), "r"(x2), "r"(x3) : "memory");
	return x0;
}

static void puts_uart(const char *s)
{
	for (; *s; s++) {
		while (*UART_FR & UART_FR_TXFF)
			;
		*UART_DR = (uint32_t)*s;
	}
}

static void put_number(uint64_t n)
{
	char buf[21];
	int i = sizeof(buf) - 1;

	buf[i] = '\0';
	do {
		buf[--i] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	puts_uart(&buf[i]);
}

static uint64_t counter(void)
{
	__asm__ volatile("isb" : : : "memory");
	return read_sysreg(cntvct_el0);
}

/* The same tick ProbeOS's timer_handle_irq makes: the compare value one
 * period on, or a period from now after a stall. */
static void tick(unsigned int cpu)
{
	uint64_t now = counter();
	uint64_t deadline = read_sysreg(cntv_cval_el0) + tick_period;

	if (deadline <= now)
		deadline = now + tick_period;
	write_sysreg(deadline, cntv_cval_el0);
	__asm__ volatile("isb");
	ticks[cpu]++;
}

/* The distributor's registers for interrupts 0-31 and the CPU interface
 * are banked: every CPU enables its own. */
static void gic_cpu_setup(void)
{
	for (unsigned int id = 0; id < 32; id += 4)
		write32(GICD_IPRIORITYR + id, 0xa0a0a0a0);
	write32(GICD_ISENABLER, 1U << SGI_HOLD | 1U << VTIMER_PPI);
	write32(GICC_PMR, 0xf0);
	write32(GICC_CTLR, 1);
}

static void timer_start(void)
{
	write_sysreg(counter() + tick_period, cntv_cval_el0);
	write_sysreg(1, cntv_ctl_el0);
}

static void send_hold_sgi(void)
{
	__asm__ volatile("dsb ish" : : : "memory");
	write32(GICD_SGIR, 0xeU << 16 | SGI_HOLD);	/* CPU interfaces 1-3 */
}

/* Held: interrupts masked (we are in the SGI's handler), asleep in WFI
 * until released. A tick that comes meanwhile stays pending. */
static void hold_here(unsigned int cpu)
{
	__atomic_fetch_add(&arrived, 1, __ATOMIC_ACQ_REL);
	while (!__atomic_load_n(&release, __ATOMIC_ACQUIRE)) {
		if (HELD_SPIN)
			cpu_relax();
		else
			__asm__ volatile("wfi" : : : "memory");
	}
	__atomic_fetch_and(&pending, ~(1U << cpu), __ATOMIC_RELEASE);
}

static unsigned int this_cpu(void)
{
	return read_sysreg(mpidr_el1) & 0xff;
}

/* Acknowledge, handle, end; an SGI is ended first, as in ProbeOS, so
 * that the releasing SGI can wake the held CPU's WFI. */
void irq_handler(void)
{
	uint32_t iar = read32(GICC_IAR);
	uint32_t id = iar & 0x3ff;
	unsigned int cpu = this_cpu();

	if (id >= SPURIOUS)
		return;
	if (id == SGI_HOLD) {
		write32(GICC_EOIR, iar);
		if (__atomic_load_n(&pending, __ATOMIC_ACQUIRE) & (1U << cpu) &&
		    !__atomic_load_n(&release, __ATOMIC_ACQUIRE))
			hold_here(cpu);
		return;		/* else the late, releasing SGI: nothing to do */
	}
	if (id == VTIMER_PPI)
		tick(cpu);
	write32(GICC_EOIR, iar);
}

void unexpected_exception(void)
{
	puts_uart("repro: unexpected exception, ESR ");
	put_number(read_sysreg(esr_el1));
	puts_uart("\n");
	for (;;)
		__asm__ volatile("wfi");
}

static void one_round(void)
{
	__atomic_store_n(&arrived, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&release, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&pending, 0xe, __ATOMIC_RELEASE);
	send_hold_sgi();
	while (__atomic_load_n(&arrived, __ATOMIC_ACQUIRE) != NR_CPUS - 1)
		cpu_relax();		/* interrupts on: CPU 0 ticks */
	irq_off();			/* stop_machine's fn(), briefly */
	for (int i = 0; i < 100; i++)
		counter();
	irq_on();
	__atomic_store_n(&release, 1, __ATOMIC_RELEASE);
	send_hold_sgi();
	while (__atomic_load_n(&pending, __ATOMIC_ACQUIRE))
		cpu_relax();
}

static void boot_cpu(void)
{
	tick_period = read_sysreg(cntfrq_el0) / TICK_HZ;
	write32(GICD_CTLR, 1);
	gic_cpu_setup();
	timer_start();
	irq_on();
	puts_uart("repro: start\n");
	for (unsigned long cpu = 1; cpu < NR_CPUS; cpu++)
		psci(PSCI_CPU_ON, cpu, (unsigned long)secondary_start, cpu);
	while (__atomic_load_n(&online, __ATOMIC_ACQUIRE) != NR_CPUS - 1)
		cpu_relax();
	for (unsigned int round = 1; ticks[0] < RUN_TICKS; round++) {
		one_round();
		if (round % PRINT_EVERY == 0) {
			puts_uart("repro: round ");
			put_number(round);
			puts_uart(", CPU 0 ticks ");
			put_number(ticks[0]);
			puts_uart("\n");
		}
	}
	puts_uart("repro: done\n");
	psci(PSCI_SYSTEM_OFF, 0, 0, 0);
}

/* The other CPUs: their own tick, then ProbeOS's idle loop (WFI with
 * interrupts masked, then take what woke it). */
static void secondary_cpu(void)
{
	gic_cpu_setup();
	if (!BOOT_CPU_TICKS_ONLY)
		timer_start();
	__atomic_fetch_add(&online, 1, __ATOMIC_ACQ_REL);
	for (;;) {
		__asm__ volatile("wfi\n\tmsr daifclr, #2\n\tmsr daifset, #2" : : : "memory");
	}
}

void cpu_main(unsigned long cpu)
{
	if (cpu == 0)
		boot_cpu();
	else
		secondary_cpu();
	for (;;)
		__asm__ volatile("wfi");
}
