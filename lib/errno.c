/* Descriptions of error numbers, for messages such as "cat: /x: No such
 * file or directory": the texts of Linux's C library, so that a message
 * reads as it would on Linux and can be searched for. */
#include "lib/errno.h"
#include "lib/types.h"

static const char *const messages[] = {
	[0]		= "Success",
	[EPERM]		= "Operation not permitted",
	[ENOENT]	= "No such file or directory",
	[EINTR]		= "Interrupted system call",
	[EIO]		= "Input/output error",
	[ENXIO]		= "No such device or address",
	[E2BIG]		= "Argument list too long",
	[ENOEXEC]	= "Exec format error",
	[EBADF]		= "Bad file descriptor",
	[EAGAIN]	= "Resource temporarily unavailable",
	[ENOMEM]	= "Cannot allocate memory",
	[EACCES]	= "Permission denied",
	[EFAULT]	= "Bad address",
	[EBUSY]		= "Device or resource busy",
	[EEXIST]	= "File exists",
	[ENODEV]	= "No such device",
	[ENOTDIR]	= "Not a directory",
	[EISDIR]	= "Is a directory",
	[EINVAL]	= "Invalid argument",
	[EFBIG]		= "File too large",
	[ENOSPC]	= "No space left on device",
	[EROFS]		= "Read-only file system",
	[EPIPE]		= "Broken pipe",
	[ERANGE]	= "Numerical result out of range",
	[ENAMETOOLONG]	= "File name too long",
	[ENOSYS]	= "Function not implemented",
	[ENOTEMPTY]	= "Directory not empty",
	[ELOOP]		= "Too many levels of symbolic links",
	[EPROTO]	= "Protocol error",
	[EILSEQ]	= "Invalid or incomplete multibyte or wide character",
	[EADDRNOTAVAIL]	= "Cannot assign requested address",
	[ETIMEDOUT]	= "Connection timed out",
	[ESTALE]	= "Stale file handle",
	[ECANCELED]	= "Operation canceled",
};

/* Accepts -ENOENT as well as ENOENT, so callers can pass a kernel
 * function's return value straight in. */
const char *strerror(int err)
{
	/* Negate as unsigned so that INT_MIN does not overflow. */
	unsigned int n = err < 0 ? 0u - (unsigned int)err : (unsigned int)err;

	if (n < ARRAY_SIZE(messages) && messages[n])
		return messages[n];
	return "Unknown error";
}

int errno_known(int err)
{
	unsigned int n = err < 0 ? 0u - (unsigned int)err : (unsigned int)err;

	return n != 0 && n < ARRAY_SIZE(messages) && messages[n] != NULL;
}
