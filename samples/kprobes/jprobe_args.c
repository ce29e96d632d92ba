/*
 * jprobe_args: a jprobe that prints the arguments of each call of
 * vfs_read.
 *
 *	probeos> insmod /lib/modules/jprobe_args.ko
 *	probeos> cat /etc/hostname
 *	jprobe_args: vfs_read(file 0xffffc0000000a940, buf 0xffffffff801510e0, count 512, *pos 0)
 *	probeos> rmmod jprobe_args
 *
 * A jprobe's entry function has the probed function's own signature:
 * the probes layer makes the CPU enter it, at the probed function's
 * entry, with the registers and a copy of the stack the function was
 * called with, so it reads its arguments as plain parameters. It must end
 * with jprobe_return(), which goes back into vfs_read as if nothing had
 * happened; changing the arguments changes nothing (they are copies).
 * every=N prints only every Nth call (the background `worker` reads
 * often).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/kprobes.h>

static unsigned int every = 1;
module_param(every, uint, 0644);
MODULE_PARM_DESC(every, "print every Nth call (default 1: all)");

struct file;	/* only its address is printed */

static unsigned long calls;

/* vfs_read(struct file *file, char *buf, size_t count, loff_t *pos),
 * kernel/fs/vfs.h. */
static ssize_t j_vfs_read(struct file *file, char __user *buf, size_t count, loff_t *pos)
{
	if (every && calls++ % every == 0)
		pr_info("vfs_read(file %p, buf %p, count %zu, *pos %lld)\n",
			file, buf, count, pos ? *pos : -1LL);
	/* Always last: back into vfs_read, which then runs as usual. */
	jprobe_return();
	return 0;	/* never reached */
}

static struct jprobe jp = {
	.entry = j_vfs_read,
	.kp = {
		.symbol_name = "vfs_read",
	},
};

static int __init jprobe_args_init(void)
{
	int ret = register_jprobe(&jp);

	if (ret < 0) {
		pr_err("register_jprobe failed: %d\n", ret);
		return ret;
	}
	pr_info("jprobe on vfs_read at %p, entry %p\n", jp.kp.addr, jp.entry);
	return 0;
}

static void __exit jprobe_args_exit(void)
{
	unregister_jprobe(&jp);
	pr_info("%lu calls seen, %lu missed\n", calls, jp.kp.nmissed);
}

module_init(jprobe_args_init);
module_exit(jprobe_args_exit);
MODULE_LICENSE("GPL");
MODULE_AUTHOR("ProbeOS");
MODULE_DESCRIPTION("print the arguments of vfs_read with a jprobe");
