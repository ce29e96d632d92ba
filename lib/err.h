/* Errors inside pointers, as Linux returns them: a function that gives
 * back a pointer can give back ERR_PTR(-ENOMEM) instead, and the caller
 * tells the two apart with IS_ERR. The top 4095 addresses are never
 * valid pointers, so they can carry -1 to -4095. */
#ifndef LIB_ERR_H
#define LIB_ERR_H

#include "lib/types.h"

#define MAX_ERRNO 4095

/* -err (a negative errno) as a pointer. */
static inline void *ERR_PTR(long err)
{
	return (void *)err;
}

/* The negative errno a pointer from ERR_PTR carries. */
static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

/* True if ptr carries an errno rather than pointing somewhere. */
static inline bool IS_ERR(const void *ptr)
{
	return (uintptr_t)ptr >= (uintptr_t)-MAX_ERRNO;
}

static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR(ptr);
}

/* The errno ptr carries, or 0 for a pointer. */
static inline int PTR_ERR_OR_ZERO(const void *ptr)
{
	return IS_ERR(ptr) ? (int)PTR_ERR(ptr) : 0;
}

#endif
