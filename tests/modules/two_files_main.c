/* A module of two files (mod_two_files-y in Kbuild): init calls a
 * function of the other file. */
#include <linux/kernel.h>
#include <linux/module.h>

int two_files_helper(int x);

static int __init two_files_init(void)
{
	pr_info("mod_two_files: helper(20) = %d\n", two_files_helper(20));
	return 0;
}

static void __exit two_files_exit(void)
{
}

module_init(two_files_init);
module_exit(two_files_exit);
MODULE_LICENSE("GPL");
