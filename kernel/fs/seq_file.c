/* Generated files, read in pieces (seq_file.h).
 *
 * A read copies out what the buffer still holds from the last one,
 * then makes more records into the emptied buffer (fill) and copies
 * again, until the reader's buffer is full or no record is left. Only
 * whole records are ever made, from m->index on; a record that does not
 * fit stays unmade and is the first of the next fill, and one that does
 * not fit in the empty buffer makes the buffer twice as big. A read at
 * another position than the last one ended at makes the records again
 * from the first up to it (seek_to), as Linux does. */

#include "kernel/fs/seq_file.h"
#include "kernel/mm/heap.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/export.h"
#include "lib/format.h"
#include "lib/string.h"

/* The buffer's first size: a page, which most files fit in whole. */
#define SEQ_FIRST_SIZE 4096
/* fill's answer when the record at m->index does not fit even alone. */
#define FILL_GROW 1

int seq_open(struct file *file, const struct seq_operations *op)
{
	struct seq_file *m = kzalloc(sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->op = op;
	m->file = file;
	file->private_data = m;
	return 0;
}
EXPORT_SYMBOL(seq_open);

/* Make whole records, from m->index on, into the emptied buffer, until
 * want bytes are made or no record is left. Returns 0 with m->count
 * bytes made (0: the records are over), FILL_GROW if the first record
 * alone overflows the buffer, or the operations' negative errno when
 * they failed before a byte was made. A record that failed after others
 * were made is not made: it is the first of the next fill, which then
 * returns its error. */
static int fill(struct seq_file *m, size_t want)
{
	loff_t pos = m->index;
	void *v;
	int err = 0;

	m->from = m->count = 0;
	v = m->op->start(m, &pos);
	while (v && !IS_ERR(v) && m->count < want) {
		size_t before = m->count;

		err = m->op->show(m, v);
		if (err < 0 || seq_has_overflowed(m)) {
			m->count = before;
			if (before)
				err = 0;
			else if (err == 0)
				err = FILL_GROW;
			break;
		}
		if (err > 0)
			m->count = before;	/* SEQ_SKIP */
		err = 0;
		v = m->op->next(m, v, &pos);
		m->index = pos;
	}
	m->op->stop(m, v);
	if (!err && IS_ERR(v) && !m->count)
		err = (int)PTR_ERR(v);
	return err;
}

/* Replace the (empty) buffer by one of size bytes. */
static int new_buffer(struct seq_file *m, size_t size)
{
	char *buf = kmalloc(size);

	if (!buf)
		return -ENOMEM;
	kfree(m->buf);
	m->buf = buf;
	m->size = size;
	return 0;
}

/* Fill the empty buffer, growing it until the first record fits. */
static int make_records(struct seq_file *m, size_t want)
{
	int err = m->buf ? 0 : new_buffer(m, SEQ_FIRST_SIZE);

	while (!err && (err = fill(m, want)) == FILL_GROW)
		err = new_buffer(m, 2 * m->size);
	return err;
}

/* Copy what the buffer holds, up to size bytes, to buf. */
static size_t take(struct seq_file *m, char *buf, size_t size)
{
	size_t n = MIN(m->count, size);

	memcpy(buf, m->buf + m->from, n);
	m->from += n;
	m->count -= n;
	return n;
}

/* Make the records again from the first, up to the one that holds byte
 * offset, and keep that one in the buffer from that byte on: the next
 * read goes on from offset as if everything before had been read. An
 * offset past the end leaves nothing to read. */
static int seek_to(struct seq_file *m, loff_t offset)
{
	loff_t at = 0;
	int err = 0;

	m->index = 0;
	m->from = m->count = 0;
	while (at < offset) {
		err = make_records(m, 1);
		if (err || !m->count)
			break;
		if (offset - at < (loff_t)m->count) {
			m->from = (size_t)(offset - at);
			m->count -= m->from;
			break;
		}
		at += (loff_t)m->count;
		m->count = 0;
	}
	if (err) {	/* start over at the next read */
		m->index = 0;
		m->count = 0;
	}
	m->read_pos = err ? 0 : offset;
	return err;
}

ssize_t seq_read(struct file *file, char *buf, size_t size, loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	size_t copied = 0;
	int err = 0;

	if (*ppos != m->read_pos)
		err = seek_to(m, *ppos);
	while (!err && copied < size) {
		if (!m->count)
			err = make_records(m, size - copied);
		if (err || !m->count)
			break;
		copied += take(m, buf + copied, size - copied);
	}
	*ppos += (loff_t)copied;
	m->read_pos += (loff_t)copied;
	return copied ? (ssize_t)copied : err;
}
EXPORT_SYMBOL(seq_read);

/* Only the position changes here: seq_read sees that it is not where
 * the last read ended, and makes the records up to it. */
loff_t seq_lseek(struct file *file, loff_t offset, int whence)
{
	if (whence == SEEK_CUR)
		offset += file->pos;
	else if (whence != SEEK_SET)
		return -EINVAL;
	if (offset < 0)
		return -EINVAL;
	file->pos = offset;
	return offset;
}

/* The file's O_ACCMODE says it was opened only to read. */
static bool is_reader(const struct file *file)
{
	return (file->flags & O_ACCMODE) == O_RDONLY;
}

ssize_t seq_read_if_reader(struct file *file, char *buf, size_t size, loff_t *ppos)
{
	if (!is_reader(file))
		return -EBADF;
	return seq_read(file, buf, size, ppos);
}

loff_t seq_lseek_if_reader(struct file *file, loff_t offset, int whence)
{
	if (!is_reader(file))
		return 0;
	return seq_lseek(file, offset, whence);
}
EXPORT_SYMBOL(seq_lseek);

int seq_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	(void)inode;
	kfree(m->buf);
	kfree(m);
	file->private_data = NULL;
	return 0;
}
EXPORT_SYMBOL(seq_release);

/* Mark the record being made as too big for the buffer. */
static void overflowed(struct seq_file *m)
{
	m->count = m->size;
}

void seq_vprintf(struct seq_file *m, const char *fmt, va_list ap)
{
	size_t room = m->size - m->count;
	int len;

	if (seq_has_overflowed(m))
		return;
	len = vsnprintf(m->buf + m->count, room, fmt, ap);
	if (len < 0 || (size_t)len >= room)
		overflowed(m);
	else
		m->count += (size_t)len;
}
EXPORT_SYMBOL(seq_vprintf);

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	seq_vprintf(m, fmt, ap);
	va_end(ap);
}
EXPORT_SYMBOL(seq_printf);

/* As seq_vprintf (whose vsnprintf needs a byte for its NUL), a write
 * leaves the last byte free, so that count == size only ever means that
 * something did not fit. */
int seq_write(struct seq_file *m, const void *data, size_t len)
{
	if (len >= m->size - m->count) {
		overflowed(m);
		return -1;
	}
	memcpy(m->buf + m->count, data, len);
	m->count += len;
	return 0;
}
EXPORT_SYMBOL(seq_write);

void seq_puts(struct seq_file *m, const char *s)
{
	seq_write(m, s, strlen(s));
}
EXPORT_SYMBOL(seq_puts);

void seq_putc(struct seq_file *m, char c)
{
	seq_write(m, &c, 1);
}
EXPORT_SYMBOL(seq_putc);

/* ---- Records in a list ---- */

struct list_node *seq_list_start(struct list_node *head, loff_t pos)
{
	struct list_node *node;

	list_for_each(node, head)
		if (pos-- == 0)
			return node;
	return NULL;
}

struct list_node *seq_list_next(void *v, struct list_node *head, loff_t *ppos)
{
	struct list_node *next = ((struct list_node *)v)->next;

	++*ppos;
	return next == head ? NULL : next;
}

/* ---- Files of one record ---- */

static void *single_start(struct seq_file *m, loff_t *pos)
{
	(void)m;
	return *pos == 0 ? (void *)1 : NULL;	/* any non-NULL pointer */
}

static void *single_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)m;
	(void)v;
	++*pos;
	return NULL;
}

static void single_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
}

/* The operations hold show, so each open gets a copy of its own. */
int single_open(struct file *file, int (*show)(struct seq_file *m, void *v), void *data)
{
	struct seq_operations *op = kmalloc(sizeof(*op));
	int err;

	if (!op)
		return -ENOMEM;
	*op = (struct seq_operations){
		.start = single_start, .next = single_next, .stop = single_stop, .show = show,
	};
	err = seq_open(file, op);
	if (err) {
		kfree(op);
		return err;
	}
	((struct seq_file *)file->private_data)->private = data;
	return 0;
}
EXPORT_SYMBOL(single_open);

int single_release(struct inode *inode, struct file *file)
{
	const struct seq_operations *op = ((struct seq_file *)file->private_data)->op;

	seq_release(inode, file);
	kfree((void *)op);
	return 0;
}
EXPORT_SYMBOL(single_release);

int single_open_if_reader(struct file *file, int (*show)(struct seq_file *m, void *v), void *data)
{
	return is_reader(file) ? single_open(file, show, data) : 0;
}

int single_release_if_reader(struct inode *inode, struct file *file)
{
	return is_reader(file) ? single_release(inode, file) : 0;
}

int seq_release_if_reader(struct inode *inode, struct file *file)
{
	return is_reader(file) ? seq_release(inode, file) : 0;
}

