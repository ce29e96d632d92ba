/* printf-style formatting without a C library.
 *
 * Supported: %d %i %u %x %X %o %c %s %p %% with the flags '-', '0', the
 * field width and precision (also '*'), and the length modifiers
 * hh h l ll z t j. %p prints 0x followed by 16 hex digits.
 * Also accepted, with their C meaning: the flags '+', ' ' and '#'.
 * An unknown conversion is printed as written, e.g. "%q". */
#ifndef LIB_FORMAT_H
#define LIB_FORMAT_H

#include "lib/types.h"

/* Format into buf (always terminated if size > 0); returns the length
 * the full output would have had, as C's vsnprintf does. */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

/* Format and hand each chunk to emit(ctx, text, len): the kernel console
 * uses this to print without an intermediate buffer limit. Returns the
 * number of characters produced. */
typedef void (*format_sink)(void *ctx, const char *text, size_t len);
int vformat(format_sink emit, void *ctx, const char *fmt, va_list ap);

#endif
