/* Error numbers. Kernel functions return them negated (-ENOENT), as Linux
 * does, so a single int carries either a result or an error. */
#ifndef LIB_ERRNO_H
#define LIB_ERRNO_H

#define EPERM    1
#define ENOENT   2
#define EINTR    4
#define EIO      5
#define ENXIO    6
#define ENOEXEC  8
#define E2BIG    7
#define EBADF    9
#define EAGAIN  11
#define ENOMEM  12
#define EACCES  13
#define EFAULT  14
#define EBUSY   16
#define EEXIST  17
#define ENODEV  19
#define ENOTDIR 20
#define EISDIR  21
#define EINVAL  22
#define EFBIG   27
#define ENOSPC  28
#define EROFS   30
#define EPIPE   32
#define ERANGE  34
#define ENAMETOOLONG 36
#define ENOSYS  38
#define ENOTEMPTY 39
#define ELOOP   40
#define EPROTO  71
#define EILSEQ  84
#define EADDRNOTAVAIL 99
#define ETIMEDOUT 110
#define ESTALE  116
#define ECANCELED 125

/* A short lower-case description of an error number (positive or negative). */
const char *strerror(int err);

/* 1 if err (positive or negative) is one of the numbers above, else 0:
 * for numbers that come from outside, such as a 9P server's errors. */
int errno_known(int err);

#endif
