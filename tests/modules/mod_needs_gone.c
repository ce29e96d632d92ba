/* Needs mod_exporter and mod_gone (see mod_gone.c). */
#include <linux/kernel.h>
#include <linux/module.h>

extern int exporter_add(int a, int b);
extern int gone_value;

static int __init needs_gone_init(void)
{
	pr_info("mod_needs_gone: %d\n", exporter_add(gone_value, 1));
	return 0;
}

static void __exit needs_gone_exit(void)
{
}

module_init(needs_gone_init);
module_exit(needs_gone_exit);
MODULE_LICENSE("GPL");
