/* Reader for "newc" cpio archives.
 *
 * An archive is a sequence of entries, each laid out as
 *
 *	header (110 bytes) | name, NUL-terminated | pad | data | pad
 *
 * where each pad brings the offset, counted from the start of the
 * archive, up to a multiple of 4. The header is the magic "070701"
 * followed by 13 numbers, each written as 8 hex digits. An entry named
 * "TRAILER!!!" ends the archive.
 *
 * The archive comes from outside the kernel, so every offset is checked
 * against the archive size before it is used: a bad or truncated archive
 * gives -EINVAL, never a read past its end.
 */
#include "lib/cpio.h"
#include "lib/errno.h"
#include "lib/string.h"

#define CPIO_MAGIC	 "070701"
#define CPIO_MAGIC_LEN	 6
#define CPIO_FIELD_LEN	 8
#define CPIO_HEADER_SIZE (CPIO_MAGIC_LEN + 13 * CPIO_FIELD_LEN)	/* 110 */
#define CPIO_TRAILER	 "TRAILER!!!"

/* The header fields, in the order they appear after the magic. */
enum cpio_field {
	F_INO, F_MODE, F_UID, F_GID, F_NLINK, F_MTIME, F_FILESIZE,
	F_DEVMAJOR, F_DEVMINOR, F_RDEVMAJOR, F_RDEVMINOR, F_NAMESIZE, F_CHECK,
};

/* Read header field i (8 hex digits). Returns false if it is not hex. */
static bool read_field(const char *header, enum cpio_field i, uint32_t *out)
{
	const char *p = header + CPIO_MAGIC_LEN + i * CPIO_FIELD_LEN;
	uint32_t value = 0;
	int k;

	for (k = 0; k < CPIO_FIELD_LEN; k++) {
		char c = p[k];
		uint32_t d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return false;
		value = value << 4 | d;
	}
	*out = value;
	return true;
}

/* Archives made with `find . | cpio` name their entries "./etc/motd";
 * some tools write "/etc/motd". Both mean "etc/motd". */
static const char *strip_prefix(const char *name)
{
	for (;;) {
		if (name[0] == '.' && name[1] == '/')
			name += 2;
		else if (name[0] == '/')
			name++;
		else
			return name;
	}
}

/*
 * Decode the entry at offset off. On success, fill in entry (name still
 * unstripped in raw_name) and set *next to the offset of the following
 * header. The caller has checked that off <= size.
 */
static int read_entry(const char *base, size_t size, size_t off,
		      struct cpio_entry *entry, const char **raw_name,
		      size_t *next)
{
	const char *header = base + off;
	uint32_t mode, filesize, namesize;
	size_t name_off, data_off;

	if (size - off < CPIO_HEADER_SIZE)
		return -EINVAL;
	if (memcmp(header, CPIO_MAGIC, CPIO_MAGIC_LEN) != 0)
		return -EINVAL;
	if (!read_field(header, F_MODE, &mode) ||
	    !read_field(header, F_FILESIZE, &filesize) ||
	    !read_field(header, F_NAMESIZE, &namesize))
		return -EINVAL;

	/* The name, counting its NUL, must fit in what is left, and the
	 * NUL must be its last byte. */
	name_off = off + CPIO_HEADER_SIZE;
	if (namesize == 0 || namesize > size - name_off)
		return -EINVAL;
	if (strnlen(base + name_off, namesize) != namesize - 1)
		return -EINVAL;

	/* The data starts at the next multiple of 4 and must also fit. The
	 * subtraction comes first so the comparison cannot overflow. */
	data_off = ALIGN_UP(name_off + namesize, 4);
	if (data_off > size || filesize > size - data_off)
		return -EINVAL;

	*raw_name = base + name_off;
	entry->mode = mode;
	entry->data = base + data_off;
	entry->size = filesize;
	*next = ALIGN_UP(data_off + filesize, 4);
	return 0;
}

int cpio_walk(const void *archive, size_t size,
	      int (*visit)(void *ctx, const struct cpio_entry *entry),
	      void *ctx)
{
	const char *base = archive;
	size_t off = 0;
	int count = 0;

	/* Every entry is followed by another header, at least the
	 * trailer's, so running off the end means the archive is cut. */
	while (off <= size) {
		struct cpio_entry entry;
		const char *raw_name, *name;
		size_t next;
		int err;

		err = read_entry(base, size, off, &entry, &raw_name, &next);
		if (err)
			return err;
		if (strcmp(raw_name, CPIO_TRAILER) == 0)
			return count;
		off = next;

		/* "." is the archive's root directory: nothing to create. */
		name = strip_prefix(raw_name);
		if (name[0] == '\0' || strcmp(name, ".") == 0)
			continue;

		entry.name = name;
		if (visit) {
			err = visit(ctx, &entry);
			if (err < 0)
				return err;
		}
		count++;
	}
	return -EINVAL;
}
