/* For the crash test crash=module-fault (kernel/module/crash_kinds.c):
 * with crash=1, init calls a function that writes through a NULL
 * pointer, so the panic's backtrace runs through module code. Without
 * it, the module loads and does nothing. */
#include <linux/kernel.h>
#include <linux/module.h>

static bool crash;
module_param(crash, bool, 0444);
MODULE_PARM_DESC(crash, "write through a NULL pointer in init");

noinline void mod_crash_write(int *where);

/* A frame-pointer backtrace names the caller only if the function's
 * frame record is in place at the fault: the call before the write makes
 * GCC set it up first (x86_64), and the barrier after it keeps GCC from
 * taking it down before the write (aarch64). */
noinline void mod_crash_write(int *where)
{
	pr_info("mod_crash: writing through %p\n", where);
	*(volatile int *)where = 1;
	__asm__ volatile("" : : : "memory");
}

static int __init mod_crash_init(void)
{
	if (crash)
		mod_crash_write(NULL);
	pr_info("mod_crash: loaded, crash=%d\n", crash);
	return 0;
}

static void __exit mod_crash_exit(void)
{
}

module_init(mod_crash_init);
module_exit(mod_crash_exit);
MODULE_LICENSE("GPL");
