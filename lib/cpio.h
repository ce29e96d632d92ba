/* Reader for "newc" cpio archives (the format of Linux's initramfs),
 * which carries the root filesystem into the kernel as a boot module. */
#ifndef LIB_CPIO_H
#define LIB_CPIO_H

#include "lib/types.h"

struct cpio_entry {
	const char *name;	/* path inside the archive, without "./": in the
				   archive itself, NUL-terminated, of any length */
	uint32_t mode;		/* st_mode: type and permission bits */
	const void *data;	/* file contents inside the archive */
	size_t size;
};

#define CPIO_MODE_TYPE 0170000
#define CPIO_MODE_DIR  0040000
#define CPIO_MODE_FILE 0100000

/* Walk an archive: call visit(ctx, entry) for every entry before the
 * TRAILER!!! record. Returns the number of entries, or -EINVAL if the
 * archive is malformed (bad magic, truncated header or data, a name
 * without its NUL). How long a name may be is for the visitor to say.
 * visit may stop early by returning a
 * negative errno, which is passed back. visit may be NULL, to only check
 * the archive and count its entries. */
int cpio_walk(const void *archive, size_t size,
	      int (*visit)(void *ctx, const struct cpio_entry *entry), void *ctx);

#endif
