/* Descriptions of error numbers, for messages such as "cat: no such file
 * or directory". */
#include "lib/errno.h"
#include "lib/types.h"

static const char *const messages[] = {
	[0]		= "success",
	[EPERM]		= "operation not permitted",
	[ENOENT]	= "no such file or directory",
	[EIO]		= "input/output error",
	[E2BIG]		= "argument list too long",
	[ENOEXEC]	= "exec format error",
	[EBADF]		= "bad file descriptor",
	[EAGAIN]	= "resource temporarily unavailable",
	[ENOMEM]	= "out of memory",
	[EACCES]	= "permission denied",
	[EFAULT]	= "bad address",
	[EBUSY]		= "device or resource busy",
	[EEXIST]	= "file exists",
	[ENODEV]	= "no such device",
	[ENOTDIR]	= "not a directory",
	[EISDIR]	= "is a directory",
	[EINVAL]	= "invalid argument",
	[EFBIG]		= "file too large",
	[ENOSPC]	= "no space left on device",
	[EROFS]		= "read-only file system",
	[ERANGE]	= "result out of range",
	[ENAMETOOLONG]	= "file name too long",
	[ENOSYS]	= "function not implemented",
	[EILSEQ]	= "illegal byte sequence",
};

/* Accepts -ENOENT as well as ENOENT, so callers can pass a kernel
 * function's return value straight in. */
const char *strerror(int err)
{
	/* Negate as unsigned so that INT_MIN does not overflow. */
	unsigned int n = err < 0 ? 0u - (unsigned int)err : (unsigned int)err;

	if (n < ARRAY_SIZE(messages) && messages[n])
		return messages[n];
	return "unknown error";
}
