/*
 * Running a function on the other CPUs (smp_call.h).
 *
 * One request at a time, machine-wide: a caller takes call_mutex, fills
 * in the request - the function, its argument and the set of CPUs that
 * have not yet run it - sends each of those CPUs an IPI_CALL_FUNCTION,
 * and spins until the set is empty. Each CPU, in its IPI handler, runs
 * the function and then clears its own bit with a release store, so
 * that whatever the function did is visible to the caller once it sees
 * the bit clear.
 *
 * The caller keeps preemption disabled from filling in the request to
 * the end of the wait: "every CPU but mine" must stay the same set while
 * it waits. It keeps interrupts on: another CPU may be spinning, with
 * interrupts off, for a spinlock that an interrupt handler of this CPU
 * needs to finish.
 *
 * stop_machine uses the same request with a function that does not
 * return at once: each CPU reports that it has arrived and then waits,
 * interrupts off, until the caller has run its own function and lets
 * them go. None of them can be in the middle of a spinlock's section
 * (an IPI only lands where interrupts are on), so the caller's function
 * may take any lock.
 */
#include "kernel/smp_call.h"
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/mutex.h"
#include "kernel/nokprobe.h"
#include "kernel/percpu.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "lib/bitops.h"
#include <asm/irq.h>

static struct mutex call_mutex = MUTEX_INIT(call_mutex, "smp_call");

static struct {
	void (*fn)(void *arg);
	void *arg;
	unsigned long pending;	/* a bit per CPU that has not run fn yet */
} request;

/* While this CPU runs a request's function: what its IPI interrupted. */
static DEFINE_PER_CPU(struct pt_regs *, call_regs);

const struct pt_regs *smp_call_regs(void)
{
	return *this_cpu_ptr(&call_regs);
}
NOKPROBE_SYMBOL(smp_call_regs);

void smp_call_handle_ipi(struct pt_regs *regs)
{
	unsigned long bit = 1UL << this_cpu()->id;

	if (!(__atomic_load_n(&request.pending, __ATOMIC_ACQUIRE) & bit))
		return;		/* a late IPI of a request already served */
	*this_cpu_ptr(&call_regs) = regs;
	request.fn(request.arg);
	__atomic_fetch_and(&request.pending, ~bit, __ATOMIC_RELEASE);
}
NOKPROBE_SYMBOL(smp_call_handle_ipi);

static void send_ipis(unsigned long cpus)
{
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
		if (cpus & (1UL << cpu))
			arch_send_ipi(cpu, IPI_CALL_FUNCTION);
}

/* Fill in the request for every other CPU that runs threads and send the
 * IPIs; returns those CPUs. Called with call_mutex held and preemption
 * disabled. */
static unsigned long send_request(void (*fn)(void *arg), void *arg)
{
	unsigned long others = smp_cpus_running() & ~(1UL << this_cpu()->id);

	request.fn = fn;
	request.arg = arg;
	__atomic_store_n(&request.pending, others, __ATOMIC_RELEASE);
	send_ipis(others);
	return others;
}

static void wait_until_served(void)
{
	while (__atomic_load_n(&request.pending, __ATOMIC_ACQUIRE))
		arch_cpu_relax();
}

void smp_call_on_others(void (*fn)(void *arg), void *arg)
{
	mutex_lock(&call_mutex);
	preempt_disable();
	send_request(fn, arg);
	wait_until_served();
	preempt_enable();
	mutex_unlock(&call_mutex);
}

static struct {
	unsigned int arrived;	/* CPUs waiting in hold_here */
	bool release;		/* set once the caller's function is done */
} hold;

/* stop_machine's request: wait here, interrupts off, until released.
 * A held CPU sleeps where the architecture lets it (arch_wait_masked):
 * the releasing IPI wakes it, and is then a late IPI, which does
 * nothing. Spinning instead, three held CPUs on an emulator with fewer
 * host cores starve the one that patches. */
static void hold_here(void *unused)
{
	(void)unused;
	__atomic_fetch_add(&hold.arrived, 1, __ATOMIC_ACQ_REL);
	while (!__atomic_load_n(&hold.release, __ATOMIC_ACQUIRE))
		arch_wait_masked();
}
NOKPROBE_SYMBOL(hold_here);

int stop_machine(int (*fn)(void *arg), void *arg)
{
	unsigned long others, flags;
	int ret;

	mutex_lock(&call_mutex);
	preempt_disable();
	hold.arrived = 0;
	hold.release = false;
	others = send_request(hold_here, NULL);
	while (__atomic_load_n(&hold.arrived, __ATOMIC_ACQUIRE) != bits_set(others))
		arch_cpu_relax();
	flags = arch_irq_save();
	ret = fn(arg);
	arch_irq_restore(flags);
	__atomic_store_n(&hold.release, true, __ATOMIC_RELEASE);
	send_ipis(others);	/* wakes the held CPUs (hold_here) */
	wait_until_served();
	preempt_enable();
	mutex_unlock(&call_mutex);
	return ret;
}
