/* Linux's fixed-size integer names, for modules.
 *
 * As in Linux (asm-generic/int-ll64.h), the 64-bit ones are long long on
 * every architecture, so %llu and %lld print them without a cast; the
 * kernel's own uint64_t is unsigned long, which %lu prints. size_t,
 * bool and the other C names come from lib/types.h. */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H

#include "lib/types.h"

typedef signed char s8;
typedef unsigned char u8;
typedef short s16;
typedef unsigned short u16;
typedef int s32;
typedef unsigned int u32;
typedef long long s64;
typedef unsigned long long u64;

typedef u8 __u8;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;
typedef s32 __s32;
typedef s64 __s64;

#endif
