/* Freestanding string and memory routines (the subset of <string.h> the
 * kernel uses) and number parsing for the shell. */
#ifndef LIB_STRING_H
#define LIB_STRING_H

#include "lib/types.h"

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
/* The first byte c in the n bytes at s, or NULL if there is none. */
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
/* Copy at most size-1 bytes and always terminate; returns strlen(src). */
size_t strlcpy(char *dst, const char *src, size_t size);

/* The one number parser of the shell's commands and of module
 * parameters. An unsigned number is decimal, or hex with a 0x prefix, and
 * is the whole string. Returns 0, -EINVAL if s is not a number, or
 * -ERANGE if it is one larger than max; *out is set only on success. */
int parse_unsigned(const char *s, uint64_t max, uint64_t *out);

/* A signed number in [-max - 1, max], the range of a two's complement
 * type whose largest value is max: an optional minus sign, then what
 * parse_unsigned takes. Returns as parse_unsigned does. */
int parse_signed(const char *s, int64_t max, int64_t *out);

/* Linux's kstrtobool, the parser of the boolean files it writes to
 * (/sys/kernel/debug/kprobes/enabled): true if s begins with y, Y, t,
 * T or 1, or with "on" in any case; false if with n, N, f, F or 0, or
 * "of" in any case. Only those first characters count: "yes please" and
 * "1x" are true. Returns 0 and sets *res, or -EINVAL, *res untouched. */
int kstrtobool(const char *s, bool *res);

/* The len bytes at buf, written to a setting's file, as a number in
 * [min, max]: what parse_signed takes, with blanks (space, tab, newline,
 * such as echo's) around it allowed, as Linux's sysctl files allow them.
 * Returns 0 and sets *out, or -EINVAL for anything else, a number out of
 * range included (proc_dointvec_minmax's answer). */
int parse_setting(const char *buf, size_t len, int64_t min, int64_t max, int64_t *out);


#endif
