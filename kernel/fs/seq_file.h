/* Generated files: contents made when they are read, as Linux's
 * seq_file makes them, with Linux's names (docs/files.md).
 *
 * A generated file is a sequence of records (a line of a list, say),
 * which four operations walk: start finds the record at a position,
 * next the one after it, show prints one with seq_printf, and stop ends
 * the walk (and gives back the lock start took). A read makes whole
 * records into the file's buffer, then copies out as much as the reader
 * asked for; what is left waits in the buffer for the next read. So:
 *  - there is no size to know in advance, and no cap: a reader with a
 *    buffer of any size, at any position, reads everything;
 *  - a record is made once and read from the buffer, even across two
 *    reads, so no line is ever torn when the records change between
 *    them (the next walk starts again from the index of the record
 *    after the last one made, which may then be another one);
 *  - a record larger than the buffer makes the buffer bigger.
 *
 * A file's operations use it like this (DEFINE_SEQ_ATTRIBUTE writes it
 * all, and DEFINE_SHOW_ATTRIBUTE the same for a file of one record):
 *
 *	static int my_open(struct inode *inode, struct file *file)
 *	{
 *		return seq_open(file, &my_seq_ops);
 *	}
 *	static const struct file_operations my_fops = {
 *		.open = my_open, .read = seq_read,
 *		.llseek = seq_lseek, .release = seq_release,
 *	};
 *
 * A file belongs to the thread that opened it (kernel/fs/vfs.h), so a
 * seq_file needs no lock of its own. */
#ifndef KERNEL_FS_SEQ_FILE_H
#define KERNEL_FS_SEQ_FILE_H

#include "kernel/fs/vfs.h"
#include "lib/list.h"
#include "lib/types.h"

struct seq_file;

struct seq_operations {
	/* The record at *pos (0 is the first), or NULL past the last, or an
	 * ERR_PTR. It may take a lock that the records need: stop is
	 * called after it whatever it returned. */
	void *(*start)(struct seq_file *m, loff_t *pos);
	/* End a walk that start began; v is the last record reached, NULL
	 * or an ERR_PTR. */
	void (*stop)(struct seq_file *m, void *v);
	/* The record after v, or NULL; *pos moves to its position. */
	void *(*next)(struct seq_file *m, void *v, loff_t *pos);
	/* Print record v with seq_printf and the others. Returns 0,
	 * SEQ_SKIP to drop what it printed, or a negative errno. */
	int (*show)(struct seq_file *m, void *v);
};

/* show's answer for a record that is not to be part of the file. */
#define SEQ_SKIP 1

/* Linux's fields, with Linux's meanings. */
struct seq_file {
	char *buf;		/* records made, read from buf + from */
	size_t size;		/* of buf */
	size_t from;		/* the first byte no reader has had */
	size_t count;		/* bytes left from there; size: a record overflowed */
	loff_t index;		/* the record the next walk starts from */
	loff_t read_pos;	/* the file position of buf + from */
	const struct seq_operations *op;
	void *private;		/* the operations' own (single_open: its data) */
	struct file *file;
};

/* fops->open of a generated file: a seq_file for file, walking it with
 * op, in file->private_data (which must be NULL). 0 or -ENOMEM. */
int seq_open(struct file *file, const struct seq_operations *op);

/* fops->read: copy up to size bytes of the records from *ppos, making
 * them as they are needed. Returns the bytes copied, 0 at the end, or
 * the error of the operations when nothing could be copied. */
ssize_t seq_read(struct file *file, char *buf, size_t size, loff_t *ppos);

/* fops->llseek: SEEK_SET and SEEK_CUR (there is no end to count from:
 * SEEK_END is -EINVAL). The next read makes the records again up to the
 * new position. */
loff_t seq_lseek(struct file *file, loff_t offset, int whence);

/* fops->read and ->llseek of a file that is a seq_file when opened for
 * reading and something of its own when opened to write (tracefs's
 * lists, set_ftrace_filter among them): one opened to write is not read
 * (-EBADF), and a seek on it (the shell's >>) stays at 0. */
ssize_t seq_read_if_reader(struct file *file, char *buf, size_t size, loff_t *ppos);
loff_t seq_lseek_if_reader(struct file *file, loff_t offset, int whence);

/* fops->release for seq_open: free the seq_file and its buffer. */
int seq_release(struct inode *inode, struct file *file);

/* Add to the record being made. What does not fit marks the buffer
 * overflowed (seq_has_overflowed); the record is then made again in a
 * bigger buffer, so show need not check. */
void seq_printf(struct seq_file *m, const char *fmt, ...) __printf(2, 3);
void seq_vprintf(struct seq_file *m, const char *fmt, va_list ap);
void seq_puts(struct seq_file *m, const char *s);
void seq_putc(struct seq_file *m, char c);
/* len bytes of data, as they are. 0, or -1 if they did not fit. */
int seq_write(struct seq_file *m, const void *data, size_t len);

/* True once something did not fit in the buffer since the record began. */
static inline bool seq_has_overflowed(const struct seq_file *m)
{
	return m->count == m->size;
}

/* start and next for records in a list: the node at position pos of
 * the list head (NULL past the end), and the node after v. The list is
 * the operations' to guard (start takes its lock, stop gives it back). */
struct list_node *seq_list_start(struct list_node *head, loff_t pos);
struct list_node *seq_list_next(void *v, struct list_node *head, loff_t *ppos);

/* fops->open of a file that is one record, printed by show; data is
 * m->private for it. Release it with single_release. 0 or -ENOMEM. */
int single_open(struct file *file, int (*show)(struct seq_file *m, void *v), void *data);
int single_release(struct inode *inode, struct file *file);

/* The same, and seq_release, for a file that is a seq_file only when
 * opened to read (as with seq_read_if_reader): opened to write, there
 * is nothing to open or release. */
int single_open_if_reader(struct file *file, int (*show)(struct seq_file *m, void *v), void *data);
int single_release_if_reader(struct inode *inode, struct file *file);
int seq_release_if_reader(struct inode *inode, struct file *file);

/* NAME_fops: the file operations of a generated file that NAME_open
 * opens and release releases. */
#define SEQ_FILE_FOPS(__name, __release)                                        \
	static const struct file_operations __name##_fops = {                  \
		.open = __name##_open,                                         \
		.read = seq_read,                                              \
		.llseek = seq_lseek,                                           \
		.release = __release,                                          \
	}

/* The file operations NAME_fops of a file of one record printed by
 * NAME_show(m, v), whose m->private is the file's inode->i_private. */
#define DEFINE_SHOW_ATTRIBUTE(__name)                                          \
	static int __name##_open(struct inode *inode, struct file *file)      \
	{                                                                      \
		return single_open(file, __name##_show, inode->i_private);     \
	}                                                                      \
	SEQ_FILE_FOPS(__name, single_release)

/* The file operations NAME_fops of a file of records walked by
 * NAME_sops (a struct seq_operations), whose m->private is the file's
 * inode->i_private. */
#define DEFINE_SEQ_ATTRIBUTE(__name)                                           \
	static int __name##_open(struct inode *inode, struct file *file)      \
	{                                                                      \
		int err = seq_open(file, &__name##_sops);                      \
									       \
		if (!err)                                                      \
			((struct seq_file *)file->private_data)->private =     \
				inode->i_private;                              \
		return err;                                                    \
	}                                                                      \
	SEQ_FILE_FOPS(__name, seq_release)

#endif
