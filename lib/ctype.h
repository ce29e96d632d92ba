/* Character classes of the C locale (ASCII), as <ctype.h> has them, for
 * the text tools, the regular expressions and the globs (grep's
 * [[:alpha:]], wc's words, sort -n's blanks). Named is_... rather than is... so that they
 * never meet the C library's macros in a host test. A byte >= 0x80 is
 * in no class. */
#ifndef LIB_CTYPE_H
#define LIB_CTYPE_H

#include "lib/types.h"

static inline bool is_digit(int c) { return c >= '0' && c <= '9'; }
static inline bool is_upper(int c) { return c >= 'A' && c <= 'Z'; }
static inline bool is_lower(int c) { return c >= 'a' && c <= 'z'; }
static inline bool is_alpha(int c) { return is_upper(c) || is_lower(c); }
static inline bool is_alnum(int c) { return is_alpha(c) || is_digit(c); }
static inline bool is_xdigit(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
/* Space, tab. */
static inline bool is_blank(int c) { return c == ' ' || c == '\t'; }
/* Space, \t, \n, \v, \f, \r. */
static inline bool is_space(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static inline bool is_cntrl(int c) { return (c >= 0 && c < 0x20) || c == 0x7f; }
static inline bool is_print(int c) { return c >= 0x20 && c < 0x7f; }
static inline bool is_graph(int c) { return c > 0x20 && c < 0x7f; }
static inline bool is_punct(int c) { return is_graph(c) && !is_alnum(c); }
static inline int to_lower(int c) { return is_upper(c) ? c - 'A' + 'a' : c; }
static inline int to_upper(int c) { return is_lower(c) ? c - 'a' + 'A' : c; }

/* A class's test, such as is_alpha. */
typedef bool (*char_class_fn)(int c);

/* The test of the class whose name is the len bytes at name: one of
 * POSIX's twelve ("alpha", "digit", "alnum", "upper", "lower", "space",
 * "blank", "punct", "print", "graph", "cntrl", "xdigit"), as a [:name:]
 * in a set names it. NULL for any other name. */
char_class_fn char_class(const char *name, size_t len);

#endif
