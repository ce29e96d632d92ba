/* error_log (trace_error_log.h): the last refusals, oldest first, each
 * kept whole in memory of its own until a newer one pushes it out. */
#include "kernel/trace/trace_error_log.h"
#include "kernel/fs/seq_file.h"
#include "kernel/fs/tracefs.h"
#include "kernel/initcall.h"
#include "kernel/mm/heap.h"
#include "kernel/mutex.h"
#include "kernel/time.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

/* "  Command: ", which the caret's line is indented by too. */
#define COMMAND_PREFIX "  Command: "

struct err_entry {
	uint64_t ns;		/* when, since boot */
	unsigned int pos;
	char *text;		/* "LOC: error: MSG", a NUL, then the command */
};

static struct mutex log_mutex = MUTEX_INIT(log_mutex, "error_log");
static struct err_entry entries[TRACING_ERR_LOG_MAX];
static unsigned int first, count;	/* the oldest, and how many */

void tracing_log_err(const char *loc, const char *cmd, const char *msg, unsigned int pos)
{
	size_t head = strlen(loc) + strlen(": error: ") + strlen(msg) + 1;
	char *text = kmalloc(head + strlen(cmd) + 1);
	struct err_entry *e;

	if (!text)
		return;
	snprintf(text, head, "%s: error: %s", loc, msg);
	memcpy(text + head, cmd, strlen(cmd) + 1);
	mutex_lock(&log_mutex);
	if (count == TRACING_ERR_LOG_MAX) {
		kfree(entries[first].text);
		first = (first + 1) % TRACING_ERR_LOG_MAX;
		count--;
	}
	e = &entries[(first + count++) % TRACING_ERR_LOG_MAX];
	*e = (struct err_entry){ .ns = (uint64_t)ktime_get(), .pos = pos, .text = text };
	mutex_unlock(&log_mutex);
}

static void clear_log(void)
{
	mutex_lock(&log_mutex);
	for (unsigned int i = 0; i < count; i++)
		kfree(entries[(first + i) % TRACING_ERR_LOG_MAX].text);
	first = count = 0;
	mutex_unlock(&log_mutex);
}

/* The whole log, one entry of three lines after another. */
static int error_log_show(struct seq_file *m, void *v)
{
	(void)v;
	mutex_lock(&log_mutex);
	for (unsigned int i = 0; i < count; i++) {
		const struct err_entry *e = &entries[(first + i) % TRACING_ERR_LOG_MAX];
		const char *cmd = e->text + strlen(e->text) + 1;

		seq_printf(m, "[%5llu.%06llu] %s\n" COMMAND_PREFIX "%s\n",
			   (unsigned long long)(e->ns / 1000000000),
			   (unsigned long long)(e->ns / 1000 % 1000000), e->text, cmd);
		for (size_t col = 0; col < strlen(COMMAND_PREFIX) + e->pos; col++)
			seq_putc(m, ' ');
		seq_puts(m, "^\n");
	}
	mutex_unlock(&log_mutex);
	return 0;
}

/* Opened to write with O_TRUNC (`echo > error_log`): emptied. */
static int error_log_open(struct inode *inode, struct file *file)
{
	if ((file->flags & O_ACCMODE) != O_RDONLY && (file->flags & O_TRUNC))
		clear_log();
	return single_open_if_reader(file, error_log_show, inode->i_private);
}

/* What is written is taken and dropped, as on Linux. */
static ssize_t error_log_write(struct file *file, const char *buf, size_t count_, loff_t *pos)
{
	(void)file;
	(void)buf;
	(void)pos;
	return (ssize_t)count_;
}

static const struct file_operations error_log_fops = {
	.open = error_log_open, .read = seq_read_if_reader, .write = error_log_write,
	.llseek = seq_lseek_if_reader, .release = single_release_if_reader,
};

static int tracefs_error_log_init(void)
{
	return PTR_ERR_OR_ZERO(tracefs_create_file("error_log", 0644, NULL, NULL, &error_log_fops));
}
late_initcall(tracefs_error_log_init);
