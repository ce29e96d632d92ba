/* Needs mod_exporter and mod_init_fails, whose init fails: `modprobe
 * mod_needs_failing` loads mod_exporter, fails on mod_init_fails, and
 * must remove mod_exporter again. Its own init never runs. */
#include <linux/kernel.h>
#include <linux/module.h>

extern int exporter_add(int a, int b);
extern int fails_calls;

static int __init needs_failing_init(void)
{
	pr_info("mod_needs_failing: loaded (must never be printed): %d\n",
		exporter_add(fails_calls, 1));
	return 0;
}

static void __exit needs_failing_exit(void)
{
}

module_init(needs_failing_init);
module_exit(needs_failing_exit);
MODULE_LICENSE("GPL");
