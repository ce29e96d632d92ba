/* Attributes and annotations Linux code writes on declarations.
 *
 * __user, __iomem and __force only tell Linux's checker (sparse) which
 * address space a pointer is in; here, where there is no user space,
 * they are empty, so code that carries them compiles unchanged.
 * __used, __section, __aligned, likely, unlikely and notrace (a
 * function the function tracer never sees) come from lib/types.h. */
#ifndef _LINUX_COMPILER_H
#define _LINUX_COMPILER_H

#include "lib/types.h"

#define __user
#define __kernel
#define __iomem
#define __force
#define __must_check	__attribute__((warn_unused_result))
#define __maybe_unused	__attribute__((unused))
#define __always_unused	__attribute__((unused))
#define __always_inline	inline __attribute__((always_inline))
#define noinline	__noinline
#define __cold		__attribute__((cold))

/* Stop the compiler from moving memory accesses across this point. */
#define barrier() __asm__ volatile("" : : : "memory")
/* One load or store of x, exactly: not split, merged or cached in a
 * register (for data another CPU or a handler may change). */
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val) (*(volatile __typeof__(x) *)&(x) = (val))

#endif
