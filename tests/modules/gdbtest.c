/* The module tests/boot/gdb_tests.py debugs: a function and a variable
 * in the core, and an init function in .init.text that is freed. */
#include <linux/kernel.h>
#include <linux/module.h>

int gdbtest_counter = 5;

int gdbtest_value(int x)
{
	return x + gdbtest_counter;
}

static int __init gdbtest_init(void)
{
	pr_info("gdbtest: init %d\n", gdbtest_counter);
	return 0;
}

static void __exit gdbtest_exit(void)
{
	pr_info("gdbtest: exit\n");
}

module_init(gdbtest_init);
module_exit(gdbtest_exit);
MODULE_LICENSE("GPL");
