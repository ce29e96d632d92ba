/* The types a probe event's argument is recorded and printed as: the
 * ":TYPE" of `count=%dx:u64` (Documentation/trace/kprobetrace.rst).
 *
 *   u8 u16 u32 u64    unsigned, printed in decimal
 *   s8 s16 s32 s64    signed, in decimal
 *   x8 x16 x32 x64    unsigned, in hex ("0x1f"); x64 when none is given
 *   symbol            an address, printed as the kernel's symbol for it
 *                     ("vfs_read+0x0/0x90", as Linux's %pS)
 *   string            the text at an address: its bytes are copied into
 *                     the record at the hit, and "(fault)" recorded if
 *                     they cannot be read
 *   symstr            the symbol's text itself, made at the hit
 *   ustring           Linux's user-space string: known, so that it is
 *                     refused with a reason (there is no user space)
 *
 * A number is stored in its own size; a string as one 32-bit word, its
 * length in the high half and where its bytes start in the low half
 * (Linux's __data_loc), the bytes after every argument's word. */
#ifndef KERNEL_TRACE_PROBE_TYPES_H
#define KERNEL_TRACE_PROBE_TYPES_H

#include "lib/types.h"

/* The longest string a fetch copies, its NUL included. */
#define PROBE_STRING_MAX 256
/* What a string that could not be read prints as. */
#define PROBE_FAULT_TEXT "(fault)"

struct fetch_type {
	const char *name;	/* as written after the ':' */
	uint8_t size;		/* bytes in the record */
	bool is_signed;
	bool is_string;		/* stored as a __data_loc word */
	bool is_user;		/* a user-space type (refused) */
	const char *fmttype;	/* the field's type in the event's format file */
	const char *fmt;	/* its conversion in the format's "print fmt" */
	/* Append the value of the field at field, of a record whose body
	 * (the bytes a __data_loc word counts from) is len bytes at base,
	 * to buf, of size bytes, as snprintf does; the length it needs. */
	int (*print)(char *buf, size_t size, const void *field, const void *base, size_t len);
};

/* The type called name: NULL (none given) is x64; a bitfield
 * "b<width>@<offset>/<container>" is the unsigned type of its container
 * (8, 16, 32 or 64 bits). NULL if there is no such type. */
const struct fetch_type *find_fetch_type(const char *name);

/* The __data_loc word of a string of len bytes (its NUL included) at
 * offset bytes into the body; 0 (length 0) for one that faulted. */
static inline uint32_t probe_data_loc(size_t len, size_t offset)
{
	return (uint32_t)(len << 16 | offset);
}

/* The string a __data_loc word at field points at, in a record's body
 * of len bytes at base: NULL for one that faulted (length 0), or whose
 * bytes are not all inside the body ending in a NUL. Inline: a filter
 * reads it at a hit. */
static inline const char *probe_data_loc_string(const void *field, const void *base, size_t len)
{
	uint32_t loc;
	size_t n, at;

	__builtin_memcpy(&loc, field, sizeof(loc));
	n = loc >> 16;
	at = loc & 0xffff;
	if (n == 0 || at > len || n > len - at || ((const char *)base)[at + n - 1] != '\0')
		return NULL;
	return (const char *)base + at;
}

#endif
