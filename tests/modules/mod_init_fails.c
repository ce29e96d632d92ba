/* An init that fails after registering a probe, and forgets to
 * unregister it: insmod must print the error, unregister the probe with
 * a warning, and leave nothing behind. It exports a variable, so that
 * mod_needs_failing needs it: modprobe must then remove what it loaded
 * before it. */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/kprobes.h>

int fails_calls;
EXPORT_SYMBOL(fails_calls);

static int fails_pre(struct kprobe *p, struct pt_regs *regs)
{
	pr_info("mod_init_fails: hit (must never be printed)\n");
	return 0;
}

static struct kprobe fails_probe = {
	.symbol_name = "vfs_read",
	.pre_handler = fails_pre,
};

static int __init fails_init(void)
{
	int ret = register_kprobe(&fails_probe);

	pr_info("mod_init_fails: registered a kprobe: %d; now failing with -ENODEV\n", ret);
	return -ENODEV;
}

static void __exit fails_exit(void)
{
}

module_init(fails_init);
module_exit(fails_exit);
MODULE_LICENSE("GPL");
