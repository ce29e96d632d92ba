/*
 * Bringing up the other CPUs (smp.h).
 *
 * For each CPU the architecture found, the boot CPU gives it a stack and
 * asks the architecture to start it (INIT-SIPI-SIPI through a real-mode
 * trampoline on x86_64, PSCI CPU_ON on aarch64), then waits for the new
 * CPU to say it is online. One at a time: a CPU that never reports is
 * given up after a second and the next one is tried.
 *
 * A started CPU then runs threads like the boot CPU: its boot stack
 * becomes its idle thread, it joins the CPUs that grace periods wait for,
 * starts its own timer tick and enables interrupts. From then on it takes
 * threads from the scheduler's one run queue (kernel/sched.c).
 */
#include "kernel/smp.h"
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/mm/stack.h"
#include "kernel/nokprobe.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/rcu.h"
#include "kernel/sched.h"
#include "kernel/smp_call.h"
#include "kernel/time.h"
#include "lib/errno.h"

#define START_TIMEOUT NSEC_PER_SEC

static uint64_t hw_ids[MAX_CPUS];
static bool online[MAX_CPUS];
static unsigned int found;
/* CPUs that run threads: a bit per CPU, set once and never cleared
 * (a CPU stopped by a panic no longer matters). */
static unsigned long running;

bool cpu_online(unsigned int id)
{
	return id < MAX_CPUS && __atomic_load_n(&online[id], __ATOMIC_ACQUIRE);
}

uint64_t cpu_hw_id(unsigned int id)
{
	return id < found ? hw_ids[id] : 0;
}

unsigned int smp_cpus_found(void)
{
	return found;
}

unsigned long smp_cpus_running(void)
{
	return __atomic_load_n(&running, __ATOMIC_ACQUIRE);
}
NOKPROBE_SYMBOL(smp_cpus_running);

/* This CPU takes part from now on: IPIs that ask every CPU to do
 * something reach it, and grace periods wait for it. */
static void start_running(void)
{
	rcu_cpu_online();
	__atomic_fetch_or(&running, 1UL << this_cpu()->id, __ATOMIC_RELEASE);
}

__noreturn void smp_secondary_entry(unsigned int id)
{
	cpu_init_this(id);
	arch_cpu_init(id);
	sched_init();
	start_running();
	arch_timer_cpu_init();
	__atomic_store_n(&online[id], true, __ATOMIC_RELEASE);
	sched_run_idle();
}

/* The IPIs each CPU has taken, by kind. Only the CPU itself counts, with
 * interrupts off: a plain increment of its own copy, and no cache line
 * shared with another CPU on the way. */
static DEFINE_PER_CPU(unsigned long[IPI_KINDS], ipis_taken);

unsigned long smp_ipis_taken(unsigned int cpu, enum ipi_kind kind)
{
	return __atomic_load_n(&(*per_cpu_ptr(&ipis_taken, cpu))[kind], __ATOMIC_RELAXED);
}

void smp_handle_ipi(enum ipi_kind kind, struct pt_regs *regs)
{
	if (kind < IPI_KINDS)
		(*this_cpu_ptr(&ipis_taken))[kind]++;
	switch (kind) {
	case IPI_RESCHEDULE:
		/* Acted on by sched_preempt_point, on the way out. */
		this_cpu()->need_resched = true;
		break;
	case IPI_CALL_FUNCTION:
		smp_call_handle_ipi(regs);
		break;
	case IPI_STOP:
		arch_halt();
	case IPI_KINDS:
		break;
	}
}
NOKPROBE_SYMBOL(smp_handle_ipi);

void smp_stop_others(void)
{
	unsigned long others = smp_cpus_running() & ~(1UL << this_cpu()->id);

	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
		if (others & (1UL << cpu))
			arch_send_ipi(cpu, IPI_STOP);
}
NOKPROBE_SYMBOL(smp_stop_others);

/* Start CPU id and wait for it; 0, or why it did not come up. */
static int start_one(unsigned int id)
{
	char *stack = stack_alloc();	/* with a guard below, as a thread's */
	ktime_t deadline;
	int err;

	if (!stack)
		return -ENOMEM;
	err = arch_smp_start_cpu(id, hw_ids[id], (uintptr_t)stack + KERNEL_STACK_SIZE);
	if (err)
		return err;
	/* Interrupts are still off here: time by the cycle counter. */
	deadline = ktime_get() + START_TIMEOUT;
	while (!cpu_online(id))
		if (ktime_get() > deadline)
			return -EAGAIN;	/* the stack stays: the CPU may still wake on it */
	return 0;
}

unsigned int smp_boot_cpus(const struct boot_info *bi)
{
	unsigned int up = 1;

	found = arch_smp_find_cpus(bi, hw_ids, MAX_CPUS);
	if (found == 0)
		found = 1;
	online[0] = true;
	start_running();
	for (unsigned int id = 1; id < found; id++) {
		int err = start_one(id);

		if (err)
			kprintf("smp: CPU %u (hardware id 0x%lx) did not start: %s\n", id,
				(unsigned long)hw_ids[id], strerror(err));
		else
			up++;
	}
	kprintf("smp: %u of %u CPUs online\n", up, found);
	return up;
}
