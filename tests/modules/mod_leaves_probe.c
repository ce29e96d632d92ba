/* A buggy module: its exit forgets to unregister its kprobe. rmmod must
 * unregister it with a warning, so that the freed handler is never
 * called. */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/kprobes.h>

static unsigned long leaves_hits;

static int leaves_pre(struct kprobe *p, struct pt_regs *regs)
{
	leaves_hits++;
	return 0;
}

static struct kprobe leaves_probe = {
	.symbol_name = "vfs_read",
	.pre_handler = leaves_pre,
};

static int __init leaves_init(void)
{
	return register_kprobe(&leaves_probe);
}

static void __exit leaves_exit(void)
{
	pr_info("mod_leaves_probe: %lu hits; exiting without unregister_kprobe\n", leaves_hits);
}

module_init(leaves_init);
module_exit(leaves_exit);
MODULE_LICENSE("GPL");
