/* Helpers for files that are a buffer (libfs.h). */
#include "kernel/fs/libfs.h"
#include "lib/errno.h"
#include "lib/export.h"
#include "lib/string.h"

ssize_t simple_read_from_buffer(void *to, size_t count, loff_t *ppos, const void *from,
				size_t available)
{
	loff_t pos = *ppos;

	if (pos < 0)
		return -EINVAL;
	if ((uint64_t)pos >= available)
		return 0;
	count = MIN(count, available - (size_t)pos);
	memcpy(to, (const char *)from + pos, count);
	*ppos = pos + (loff_t)count;
	return (ssize_t)count;
}
EXPORT_SYMBOL(simple_read_from_buffer);
