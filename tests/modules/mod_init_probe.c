/* A probe on __init code: init puts a kprobe on init_step (an __init
 * function of this module), calls it, and keeps the probe. Once init has
 * returned its code is freed, and the probe must show [GONE]. */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/kprobes.h>

static int init_step_hits;

static int count_init_step(struct kprobe *p, struct pt_regs *regs)
{
	init_step_hits++;
	return 0;
}

static struct kprobe init_step_probe = {
	.symbol_name = "mod_init_probe:init_step",
	.pre_handler = count_init_step,
};

/* Global, so that GCC keeps it under its own name (a static one called
 * with a constant becomes init_step.constprop.0). */
int __init init_step(int x);

noinline int __init init_step(int x)
{
	return x * 2;
}

static int __init init_probe_init(void)
{
	int ret = register_kprobe(&init_step_probe);

	if (ret < 0) {
		pr_err("mod_init_probe: register_kprobe failed, returned %d\n", ret);
		return ret;
	}
	pr_info("mod_init_probe: init_step(21) = %d, probe hits = %d\n", init_step(21),
		init_step_hits);
	return 0;
}

static void __exit init_probe_exit(void)
{
	unregister_kprobe(&init_step_probe);
	pr_info("mod_init_probe: unregistered\n");
}

module_init(init_probe_init);
module_exit(init_probe_exit);
MODULE_LICENSE("GPL");
