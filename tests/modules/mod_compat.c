/* What module code written for older Linux kernels uses, and ProbeOS
 * gives it: kallsyms_lookup_name (exported here, as Linux did before
 * 5.7), NR_CPUS, NAME_MAX and PATH_MAX, and the S_I* permission macros,
 * here on its parameters as such code writes them. Init prints them
 * all for the boot test to compare. */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/stat.h>
#include <linux/threads.h>

static char symbol[NAME_MAX + 1] = "kernel_clone";
module_param_string(symbol, symbol, sizeof(symbol), S_IRUGO);
MODULE_PARM_DESC(symbol, "the symbol to look up");

static int repeat = 1;
module_param(repeat, int, S_IRUSR | S_IWUSR);

/* One slot per CPU, as such code sizes its per-CPU arrays. */
static unsigned long lookups[NR_CPUS];

static int __init compat_init(void)
{
	unsigned long addr = 0;

	for (int i = 0; i < repeat; i++) {
		addr = kallsyms_lookup_name(symbol);
		lookups[0]++;
	}
	pr_info("mod_compat: %s at 0x%lx, no_such_symbol at 0x%lx\n", symbol, addr,
		kallsyms_lookup_name("no_such_symbol"));
	pr_info("mod_compat: NR_CPUS=%d (%zu slots) NAME_MAX=%d PATH_MAX=%d\n", NR_CPUS,
		ARRAY_SIZE(lookups), NAME_MAX, PATH_MAX);
	pr_info("mod_compat: S_IRUGO=%o S_IWUGO=%o S_IXUGO=%o S_IRWXUGO=%o S_IRUSR=%o S_IWUSR=%o\n",
		S_IRUGO, S_IWUGO, S_IXUGO, S_IRWXUGO, S_IRUSR, S_IWUSR);
	return 0;
}

static void __exit compat_exit(void)
{
}

module_init(compat_init);
module_exit(compat_exit);
MODULE_LICENSE("GPL");
MODULE_AUTHOR("ProbeOS");
MODULE_DESCRIPTION("uses the Linux API of older module code");
