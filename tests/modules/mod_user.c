/* Uses what mod_exporter exports. */
#include <linux/kernel.h>
#include <linux/module.h>

extern int exporter_add(int a, int b);
extern int exporter_calls;

static int __init user_init(void)
{
	int sum = exporter_add(2, 3);

	pr_info("mod_user: exporter_add(2, 3) = %d, calls = %d\n", sum, exporter_calls);
	return 0;
}

static void __exit user_exit(void)
{
	pr_info("mod_user: removed\n");
}

module_init(user_init);
module_exit(user_exit);
MODULE_LICENSE("GPL");
