/*
 * /sys/kernel/debug/kprobes/enabled: the global switch, as Linux has it.
 * It reads "1" while probes are armed and "0" while they are all
 * disarmed. Writing 0 disarms every probe; writing 1 arms again those
 * that are enabled: a probe disabled on its own ([DISABLED] in the list)
 * stays so (kprobes_global_disarm).
 *
 * A write is read as Linux's kstrtobool reads it (lib/string.h): "0",
 * "n", "off", ..., or "1", "y", "on", ...; only the first characters
 * count, so echo's newline does no harm. Anything else is -EINVAL and
 * changes nothing.
 */
#include "kernel/fs/libfs.h"
#include "kernel/initcall.h"
#include "kernel/probes/files/kprobes_dir.h"
#include "kernel/probes/kprobes.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/string.h"

static ssize_t enabled_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	const char text[2] = { kprobes_globally_armed() ? '1' : '0', '\n' };

	(void)file;
	return simple_read_from_buffer(buf, count, pos, text, sizeof(text));
}

static ssize_t enabled_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	/* The first bytes, as a string: all kstrtobool looks at. */
	char text[3] = "";
	bool on;

	(void)file;
	(void)pos;
	memcpy(text, buf, MIN(count, sizeof(text) - 1));
	if (kstrtobool(text, &on) < 0)
		return -EINVAL;
	if (on)
		kprobes_global_arm();
	else
		kprobes_global_disarm();
	return (ssize_t)count;
}

static const struct file_operations enabled_fops = {
	.read = enabled_read, .write = enabled_write, .llseek = default_llseek,
};

static int kprobes_enabled_init(void)
{
	return PTR_ERR_OR_ZERO(debugfs_create_file("enabled", 0600, kprobes_debugfs_dir(), NULL,
						   &enabled_fops));
}
late_initcall(kprobes_enabled_init);
