/* One parameter of each type insmod sets; init prints them all. */
#include <linux/kernel.h>
#include <linux/module.h>

static int p_int = -1;
static unsigned int p_uint = 1;
static long p_long = -2;
static unsigned long p_ulong = 2;
static bool p_bool;
static char *p_charp = "default";
static char p_string[8] = "abc";

module_param(p_int, int, 0644);
module_param(p_uint, uint, 0644);
module_param(p_long, long, 0644);
module_param(p_ulong, ulong, 0644);
module_param(p_bool, bool, 0644);
module_param(p_charp, charp, 0644);
module_param_string(p_string, p_string, sizeof(p_string), 0644);
MODULE_PARM_DESC(p_int, "an int");

static int __init params_init(void)
{
	pr_info("mod_params: int=%d uint=%u long=%ld ulong=%lu bool=%d charp=%s string=%s\n",
		p_int, p_uint, p_long, p_ulong, p_bool, p_charp, p_string);
	return 0;
}

static void __exit params_exit(void)
{
}

module_init(params_init);
module_exit(params_exit);
MODULE_LICENSE("GPL");
