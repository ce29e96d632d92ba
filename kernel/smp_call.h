/* Running a function on the other CPUs, and holding them still
 * (kernel/smp_call.c).
 *
 * Both send IPI_CALL_FUNCTION (kernel/arch.h) to every other CPU that
 * runs threads, and run the function there in interrupt context: with
 * interrupts off, between two instructions of whatever that CPU was
 * doing, never inside a section that holds a spinlock (those run with
 * interrupts off). Callers are threads that may sleep, hold no spinlock
 * and have interrupts on; requests are served one at a time. */
#ifndef KERNEL_SMP_CALL_H
#define KERNEL_SMP_CALL_H

#include "lib/types.h"

struct pt_regs;

/* Run fn(arg) on every other CPU that runs threads, and return once all
 * of them have returned from it. On one CPU: returns at once. */
void smp_call_on_others(void (*fn)(void *arg), void *arg);

/* Run fn(arg) on this CPU, with interrupts off, while every other CPU
 * that runs threads waits with interrupts off inside the IPI handler
 * (a known point: it is executing none of the code fn may change), and
 * return fn's result once the others have been let go. Linux's
 * stop_machine. */
int stop_machine(int (*fn)(void *arg), void *arg);

/* For a function run by smp_call_on_others: the registers of what its
 * IPI interrupted on this CPU (where that CPU was). */
const struct pt_regs *smp_call_regs(void);

/* IPI_CALL_FUNCTION's handler (smp_handle_ipi): run this CPU's part of
 * the current request; regs are the interrupted registers. */
void smp_call_handle_ipi(struct pt_regs *regs);

#endif
