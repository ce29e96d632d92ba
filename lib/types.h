/* Basic types and helpers shared by every part of the kernel.
 *
 * The kernel is freestanding: only the compiler's own headers (stdint,
 * stddef, stdbool, stdarg) are available, so the few POSIX-style types
 * the VFS uses are defined here. */
#ifndef LIB_TYPES_H
#define LIB_TYPES_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef long ssize_t;
typedef long long loff_t;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Recover a pointer to the enclosing structure from a pointer to a member. */
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define ALIGN_UP(x, a)   (((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

#define __noinline   __attribute__((noinline))
#define __noreturn   __attribute__((noreturn))
#define __packed     __attribute__((packed))
#define __used       __attribute__((used))
#define __section(s) __attribute__((section(s)))
#define __aligned(n) __attribute__((aligned(n)))
#define __printf(a, b) __attribute__((format(printf, a, b)))

/* A function the function tracer never sees: built without the call site
 * the compiler puts at every other function's entry (FTRACE_CFLAGS in
 * arch/ARCH/arch.mk; docs/ftrace.md). For the tracer's own path and what
 * it calls, which would otherwise trace themselves. Two attributes, one
 * per way of making sites: no_instrument_function removes -pg's (x86_64),
 * and patchable_function_entry(0, 0) the NOPs of
 * -fpatchable-function-entry (aarch64), which GCC 12 keeps under
 * no_instrument_function. Each is a no-op for the other's flags. */
#define notrace __attribute__((no_instrument_function, patchable_function_entry(0, 0)))

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#endif
