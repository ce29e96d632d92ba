/*
 * fault_inject: make a kernel function fail, without running it, to see
 * how its callers cope with an error.
 *
 *	probeos> insmod /lib/modules/fault_inject.ko func=vfs_read error=-5 times=1
 *	probeos> cat /etc/hostname
 *	cat: /etc/hostname: Input/output error
 *	probeos> cat /etc/hostname
 *	probeos
 *	probeos> rmmod fault_inject
 *
 * A kprobe on the first instruction of func (default vfs_read). Its
 * pre-handler sets the return value to error (default -5, -EIO) and
 * returns to the caller at once, as if the function had returned it;
 * returning 1 tells the probes layer that the handler moved the
 * instruction pointer, so the probed instruction is not run. times=N
 * fails only the next N calls; 0 (the default) fails every call until
 * the module is removed. Choose a function that returns an int or a
 * long error, and whose callers check it.
 *
 * The empty post-handler is not an accident: the jump optimizer would
 * turn a probe without one into a jump whose detour runs the function
 * anyway, ignoring the changed instruction pointer (docs/probes.md); a
 * post-handler keeps the probe a breakpoint, as in Linux.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/error-injection.h>

static char func[KSYM_NAME_LEN] = "vfs_read";
module_param_string(func, func, sizeof(func), 0644);
MODULE_PARM_DESC(func, "the function to fail (default vfs_read)");

static int error = -EIO;
module_param(error, int, 0644);
MODULE_PARM_DESC(error, "the value it returns instead (default -5, -EIO)");

static unsigned long times;
module_param(times, ulong, 0644);
MODULE_PARM_DESC(times, "how many calls to fail (default 0: all)");

static bool verbose = true;
module_param(verbose, bool, 0644);
MODULE_PARM_DESC(verbose, "print each failed call (default y)");

static unsigned long failed;	/* calls made to fail so far */

/* Count one more failure, unless times of them have been made already.
 * Atomic, as calls on several CPUs may race. */
static bool take_one(void)
{
	unsigned long n = __atomic_load_n(&failed, __ATOMIC_RELAXED);

	do {
		if (times && n >= times)
			return false;
	} while (!__atomic_compare_exchange_n(&failed, &n, n + 1, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return true;
}

static int handler_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (!take_one())
		return 0;	/* enough failures: the function runs */
	if (verbose)
		pr_info("%s fails with %d\n", p->symbol_name, error);
	regs_set_return_value(regs, (unsigned long)(long)error);
	override_function_with_return(regs);
	return 1;
}

static void handler_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
}

static struct kprobe kp = {
	.symbol_name = func,
	.pre_handler = handler_pre,
	.post_handler = handler_post,
};

static int __init fault_inject_init(void)
{
	int ret = register_kprobe(&kp);

	if (ret < 0) {
		pr_err("register_kprobe(%s) failed: %d\n", func, ret);
		return ret;
	}
	pr_info("%s at %p returns %d, %s\n", func, kp.addr, error,
		times ? "for a limited number of calls" : "until rmmod");
	return 0;
}

static void __exit fault_inject_exit(void)
{
	unregister_kprobe(&kp);
	pr_info("%s: %lu calls failed\n", func, failed);
}

module_init(fault_inject_init);
module_exit(fault_inject_exit);
MODULE_LICENSE("GPL");
MODULE_AUTHOR("ProbeOS");
MODULE_DESCRIPTION("make a kernel function return an error, with a kprobe");
