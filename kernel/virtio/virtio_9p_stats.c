/*
 * /sys/kernel/debug/9p/stats: what the virtio 9P transport has carried
 * since boot (virtio_9p.h), one count a line:
 *
 *   requests 41
 *   bytes_sent 2360
 *   bytes_received 70894
 *
 * Linux has no such file: its 9P client counts nothing. It is here so
 * that a student can see what a command costs the host folder: read it
 * before and after `head -n 1 /host/big`, and the difference is what
 * was asked for and sent back.
 */
#include "kernel/fs/debugfs.h"
#include "kernel/fs/seq_file.h"
#include "kernel/initcall.h"
#include "kernel/virtio/virtio_9p.h"
#include "lib/err.h"

static int stats_show(struct seq_file *m, void *v)
{
	struct virtio_9p_stats stats = virtio_9p_stats();

	(void)v;
	seq_printf(m, "requests %lu\nbytes_sent %lu\nbytes_received %lu\n",
		   (unsigned long)stats.requests, (unsigned long)stats.bytes_sent,
		   (unsigned long)stats.bytes_received);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static int virtio_9p_stats_init(void)
{
	struct dentry *dir = debugfs_create_dir("9p", NULL);

	return PTR_ERR_OR_ZERO(debugfs_create_file("stats", 0400, dir, NULL, &stats_fops));
}
late_initcall(virtio_9p_stats_init);
