/* /sys/kernel/tracing/error_log: why the last commands written to the
 * tracing files were refused, as Linux keeps them
 * (Documentation/trace/ftrace.rst, "error_log"):
 *
 *   [   12.345678] trace_kprobe: error: Invalid $-variable specified
 *     Command: p vfs_read $foo
 *                         ^
 *
 * The last TRACING_ERR_LOG_MAX are kept; `echo > error_log` empties it. */
#ifndef KERNEL_TRACE_TRACE_ERROR_LOG_H
#define KERNEL_TRACE_TRACE_ERROR_LOG_H

#define TRACING_ERR_LOG_MAX 8

/* Keep an entry: the part of the kernel that refused (loc,
 * "trace_kprobe"), why (msg), the command, and the column of the
 * command's character the caret goes under (past its end: after it).
 * From a thread; an entry no memory can be found for is not kept. */
void tracing_log_err(const char *loc, const char *cmd, const char *msg, unsigned int pos);

#endif
