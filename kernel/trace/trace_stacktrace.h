/* A call stack in the trace: the record the stacktrace trigger makes
 * (event_trigger.h), printed as Linux prints its <stack trace>:
 *
 *   shell-6  [000] d..1.  0.175479: <stack trace>
 *    => vfs_read
 *    => fill
 *    ...
 */
#ifndef KERNEL_TRACE_TRACE_STACKTRACE_H
#define KERNEL_TRACE_TRACE_STACKTRACE_H

#include "lib/types.h"

/* The most frames a record keeps: its lines fit one line of trace's. */
#define TRACE_STACK_FRAMES 16

/* Record the call stack from frame (a frame pointer) on. Safe where a
 * hit is: no lock, no allocation. */
void trace_record_stack(uintptr_t frame);

#endif
