/* Linux's limits, for modules: the file system's (NAME_MAX and PATH_MAX
 * are the VFS's own, kernel/fs/vfs.h; the others are Linux's values,
 * which nothing here enforces) and the C integer types'. */
#ifndef _LINUX_LIMITS_H
#define _LINUX_LIMITS_H

#include <linux/types.h>
#include "kernel/fs/vfs.h"

#define NAME_MAX	VFS_NAME_MAX	/* bytes in a file name, without the NUL */
#define PATH_MAX	VFS_PATH_MAX	/* bytes in a path, with the NUL */
#define NR_OPEN		1024
#define NGROUPS_MAX	65536
#define ARG_MAX		131072
#define LINK_MAX	127
#define MAX_CANON	255
#define MAX_INPUT	255
#define PIPE_BUF	4096
#define XATTR_NAME_MAX	255
#define XATTR_SIZE_MAX	65536
#define XATTR_LIST_MAX	65536
#define RTSIG_MAX	32

/* From the compiler's own macros: <limits.h> is not reachable here
 * (-ffreestanding, and a hosted one would be the C library's). */
#define SHRT_MAX	__SHRT_MAX__
#define SHRT_MIN	(-SHRT_MAX - 1)
#define USHRT_MAX	(SHRT_MAX * 2 + 1)
#define INT_MAX		__INT_MAX__
#define INT_MIN		(-INT_MAX - 1)
#define UINT_MAX	(INT_MAX * 2U + 1)
#define LONG_MAX	__LONG_MAX__
#define LONG_MIN	(-LONG_MAX - 1)
#define ULONG_MAX	(LONG_MAX * 2UL + 1)
#define LLONG_MAX	__LONG_LONG_MAX__
#define LLONG_MIN	(-LLONG_MAX - 1)
#define ULLONG_MAX	(LLONG_MAX * 2ULL + 1)

#define U8_MAX		((u8)~0U)
#define S8_MAX		((s8)(U8_MAX >> 1))
#define S8_MIN		((s8)(-S8_MAX - 1))
#define U16_MAX		((u16)~0U)
#define S16_MAX		((s16)(U16_MAX >> 1))
#define S16_MIN		((s16)(-S16_MAX - 1))
#define U32_MAX		((u32)~0U)
#define S32_MAX		((s32)(U32_MAX >> 1))
#define S32_MIN		((s32)(-S32_MAX - 1))
#define U64_MAX		((u64)~0ULL)
#define S64_MAX		((s64)(U64_MAX >> 1))
#define S64_MIN		((s64)(-S64_MAX - 1))

#endif
