/* The slow side of spinlocks (see spinlock.h): the panic when a CPU takes
 * a lock it already holds. */
#include "kernel/cpu.h"
#include "kernel/nokprobe.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/symtab.h"

/* panic() prints without the console lock (it sets console_panicking
 * first, and takes no other lock), so this works even when the lock taken
 * twice is the console's own. Not probed: this CPU is already in trouble,
 * and a handler run here could print, or take the same lock again. */
void spin_lock_recursion(const struct spinlock *lock)
{
	char where[96];

	sym_format(lock->taken_at, where, sizeof(where));
	panic("spinlock: CPU %u takes '%s' again; it already holds it (taken at %s)",
	      this_cpu()->id, lock->name, where);
}
NOKPROBE_SYMBOL(spin_lock_recursion);
