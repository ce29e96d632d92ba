/* Exports a function and a variable for mod_user: while mod_user is
 * loaded, `rmmod mod_exporter` must be refused. */
#include <linux/kernel.h>
#include <linux/module.h>

int exporter_calls;
EXPORT_SYMBOL(exporter_calls);

int exporter_add(int a, int b)
{
	exporter_calls++;
	return a + b;
}
EXPORT_SYMBOL(exporter_add);

static int __init exporter_init(void)
{
	pr_info("mod_exporter: loaded\n");
	return 0;
}

static void __exit exporter_exit(void)
{
	pr_info("mod_exporter: removed after %d calls\n", exporter_calls);
}

module_init(exporter_init);
module_exit(exporter_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("exports exporter_add and exporter_calls");
