/*
 * kretprobe_time: how long each call of a function takes, and what it
 * returns, with a kretprobe.
 *
 *	probeos> insmod /lib/modules/kretprobe_time.ko func=vfs_read
 *	probeos> cat /etc/hostname
 *	kretprobe_time: vfs_read returned 8 (0x8) after 41273 ns
 *	probeos> rmmod kretprobe_time
 *
 * entry_handler runs at the function's entry and writes the time
 * (ktime_get, nanoseconds since boot) into the call's own data: each
 * call in flight has an instance with data_size bytes of its own, so
 * calls that overlap (from several threads) do not mix their times.
 * handler runs when the function returns, with the return value in the
 * registers. maxactive bounds the calls tracked at once; a call that
 * finds no free instance is counted in nmissed. Unlike Linux's
 * kretprobe_example.c, every call is timed: Linux's skips kernel threads
 * (current->mm == NULL), and here every thread is one.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>

static char *func = "vfs_read";
module_param(func, charp, 0644);
MODULE_PARM_DESC(func, "the function to time (default vfs_read)");

static int maxactive;
module_param(maxactive, int, 0644);
MODULE_PARM_DESC(maxactive, "calls tracked at once (default 0: the kernel's choice)");

/* Each call's own data, in its kretprobe_instance. */
struct call_data {
	ktime_t entered;
};

static int entry_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct call_data *d = (struct call_data *)ri->data;

	d->entered = ktime_get();
	return 0;	/* 0: track this call (non-zero would skip it) */
}

static int ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct call_data *d = (struct call_data *)ri->data;
	s64 ns = ktime_to_ns(ktime_sub(ktime_get(), d->entered));
	long ret = (long)regs_return_value(regs);

	pr_info("%s returned %ld (%#lx) after %lld ns\n", func, ret, (unsigned long)ret, ns);
	return 0;
}

static struct kretprobe rp = {
	.handler = ret_handler,
	.entry_handler = entry_handler,
	.data_size = sizeof(struct call_data),
};

static int __init kretprobe_time_init(void)
{
	int ret;

	rp.kp.symbol_name = func;
	rp.maxactive = maxactive;
	ret = register_kretprobe(&rp);
	if (ret < 0) {
		pr_err("register_kretprobe(%s) failed: %d\n", func, ret);
		return ret;
	}
	pr_info("timing %s at %p, maxactive %d\n", func, rp.kp.addr, rp.maxactive);
	return 0;
}

static void __exit kretprobe_time_exit(void)
{
	unregister_kretprobe(&rp);
	pr_info("%s: %lu calls missed (raise maxactive if not 0)\n", func, rp.nmissed);
}

module_init(kretprobe_time_init);
module_exit(kretprobe_time_exit);
MODULE_LICENSE("GPL");
MODULE_AUTHOR("ProbeOS");
MODULE_DESCRIPTION("time each call of a function with a kretprobe");
