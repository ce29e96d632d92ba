/* Is anyone running this code? The question to ask before freeing or
 * rewriting code that has just been made unreachable (an optimized
 * probe's detour, a probe's instruction slot): Linux answers it with
 * synchronize_rcu_tasks, a grace period in which every task passes a
 * voluntary switch; here it is answered at once, by looking. */
#ifndef KERNEL_CODE_IN_USE_H
#define KERNEL_CODE_IN_USE_H

#include "lib/types.h"

/* True if code in [start, start+len) may still be running: a thread
 * other than the caller is stopped (preempted) in it, or another CPU was
 * interrupted in it by an IPI sent now, or a thread that was preempted
 * or resumed meanwhile had stopped in it. A CPU running a handler with
 * interrupts off answers once it is done. False means nothing is
 * inside, provided nothing can enter any more (the caller made the code
 * unreachable first). Thread context: it waits for every other CPU. */
bool code_in_use(uintptr_t start, size_t len);

#endif
