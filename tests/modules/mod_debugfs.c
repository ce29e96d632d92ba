/* debugfs files from a module, written as for Linux: a directory
 * /sys/kernel/debug/mod_debugfs with a file that keeps what is written
 * to it (message) and one that counts the writes (stats, seq_file's).
 * Its exit removes them, unless leave=1: then the kernel must (the boot
 * test module_debugfs and the selftest pseudofs check both). */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

static bool leave;
module_param(leave, bool, 0444);
MODULE_PARM_DESC(leave, "leave the files behind at exit");

static char message[64] = "hello from mod_debugfs\n";
static size_t message_len = 23;
static unsigned int writes;
static struct dentry *dir;

static ssize_t message_read(struct file *file, char __user *buf, size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, message, message_len);
}

/* Each write is the whole new message. */
static ssize_t message_write(struct file *file, const char __user *buf, size_t count,
			     loff_t *ppos)
{
	if (count > sizeof(message))
		return -EINVAL;
	if (copy_from_user(message, buf, count))
		return -EFAULT;
	message_len = count;
	writes++;
	return count;
}

static const struct file_operations message_fops = {
	.owner = THIS_MODULE,
	.read = message_read,
	.write = message_write,
};

static int stats_show(struct seq_file *m, void *v)
{
	seq_printf(m, "writes %u\n", writes);
	seq_printf(m, "message %zu bytes\n", message_len);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static int __init mod_debugfs_init(void)
{
	dir = debugfs_create_dir("mod_debugfs", NULL);
	debugfs_create_file("message", 0644, dir, NULL, &message_fops);
	debugfs_create_file("stats", 0444, dir, NULL, &stats_fops);
	pr_info("mod_debugfs: made /sys/kernel/debug/mod_debugfs\n");
	return 0;
}

static void __exit mod_debugfs_exit(void)
{
	if (!leave)
		debugfs_remove(dir);
	pr_info("mod_debugfs: %s\n", leave ? "leaving the files behind" : "removed the files");
}

module_init(mod_debugfs_init);
module_exit(mod_debugfs_exit);
MODULE_LICENSE("GPL");
