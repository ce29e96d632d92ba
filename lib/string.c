/* Freestanding string and memory routines.
 *
 * These are plain byte-at-a-time versions, easy to read and obviously
 * correct: the kernel handles little data. The one exception is memcpy,
 * which moves whole words, because a probe hit may copy registers and
 * stack with it. memcpy, memmove and memset are notrace: every path
 * calls them, the function tracer's record-writing one too (as Linux's,
 * in assembly, have no call site). */
#include "lib/string.h"
/* Each function is exported to modules (EXPORT_SYMBOL): they call them,
 * and GCC may emit calls to memcpy, memset and memmove for a structure
 * copy or initialisation in any code, -fno-builtin or not. */
#include "lib/export.h"
#include "lib/errno.h"

/*
 * GCC recognises "store c into every byte" and "copy every byte" loops and
 * may replace them with a call to memset() or memcpy(). Inside memset()
 * itself that would be a call to itself, forever. This attribute keeps the
 * loops as written in the few functions where it could happen.
 */
#define NO_LOOP_TO_CALL \
	__attribute__((optimize("no-tree-loop-distribute-patterns")))

/* Copy one 8-byte word, or two: both loads before the stores, which
 * aarch64 does as one ldp and one stp. (__builtin_memcpy of a constant 8
 * bytes is one unaligned load or store, which both x86_64 and aarch64
 * allow.) */
static inline void copy_word(unsigned char *d, const unsigned char *s)
{
	uint64_t word;

	__builtin_memcpy(&word, s, sizeof(word));
	__builtin_memcpy(d, &word, sizeof(word));
}

static inline void copy_pair(unsigned char *d, const unsigned char *s)
{
	uint64_t first, second;

	__builtin_memcpy(&first, s, sizeof(first));
	__builtin_memcpy(&second, s + sizeof(first), sizeof(second));
	__builtin_memcpy(d, &first, sizeof(first));
	__builtin_memcpy(d + sizeof(first), &second, sizeof(second));
}

/* Eight words at a time, then pairs, a word, and bytes: the probes layer
 * copies registers this way on every jprobe hit, where a byte loop would
 * be the largest cost and the loop's own counting the next largest. */
NO_LOOP_TO_CALL notrace void *memcpy(void *dst, const void *src, size_t n)
{
	const size_t w = sizeof(uint64_t);
	unsigned char *d = dst;
	const unsigned char *s = src;

	for (; n >= 8 * w; n -= 8 * w, d += 8 * w, s += 8 * w) {
		copy_pair(d, s);
		copy_pair(d + 2 * w, s + 2 * w);
		copy_pair(d + 4 * w, s + 4 * w);
		copy_pair(d + 6 * w, s + 6 * w);
	}
	for (; n >= 2 * w; n -= 2 * w, d += 2 * w, s += 2 * w)
		copy_pair(d, s);
	if (n >= w) {
		copy_word(d, s);
		n -= w, d += w, s += w;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}
EXPORT_SYMBOL(memcpy);

/* Like memcpy, but the regions may overlap: copy backwards when the
 * destination starts inside the source so no byte is overwritten before
 * it has been read. */
NO_LOOP_TO_CALL notrace void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d == s || n == 0)
		return dst;
	if (d < s || d >= s + n) {
		while (n--)
			*d++ = *s++;
	} else {
		while (n--)
			d[n] = s[n];
	}
	return dst;
}
EXPORT_SYMBOL(memmove);

/* A word of the byte at a time, then bytes: structures are zeroed this
 * way by every kzalloc and, on x86_64, for every instruction decoded
 * (insn_decode), where a byte loop ran (and, with lib/ probed at every
 * instruction, hit) eight times as often. */
NO_LOOP_TO_CALL notrace void *memset(void *dst, int c, size_t n)
{
	const uint64_t word = 0x0101010101010101ULL * (unsigned char)c;
	unsigned char *d = dst;

	for (; n >= sizeof(word); n -= sizeof(word), d += sizeof(word))
		__builtin_memcpy(d, &word, sizeof(word));
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}
EXPORT_SYMBOL(memset);

/* Bytes compare as unsigned char, as the C standard requires. */
int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n > 0; n--, p++, q++) {
		if (*p != *q)
			return *p - *q;
	}
	return 0;
}
EXPORT_SYMBOL(memcmp);

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (size_t i = 0; i < n; i++) {
		if (p[i] == (unsigned char)c)
			return (void *)(p + i);
	}
	return NULL;
}
EXPORT_SYMBOL(memchr);

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}
EXPORT_SYMBOL(strlen);

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}
EXPORT_SYMBOL(strnlen);

int strcmp(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *)a;
	const unsigned char *q = (const unsigned char *)b;

	while (*p && *p == *q) {
		p++;
		q++;
	}
	return *p - *q;
}
EXPORT_SYMBOL(strcmp);

int strncmp(const char *a, const char *b, size_t n)
{
	const unsigned char *p = (const unsigned char *)a;
	const unsigned char *q = (const unsigned char *)b;

	for (; n > 0; n--, p++, q++) {
		if (*p != *q)
			return *p - *q;
		if (*p == '\0')
			break;
	}
	return 0;
}
EXPORT_SYMBOL(strncmp);

/* The terminating NUL counts as part of the string, so strchr(s, '\0')
 * finds the end. */
char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (*s == '\0')
			return NULL;
	}
}
EXPORT_SYMBOL(strchr);

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (*s == '\0')
			return (char *)last;
	}
}
EXPORT_SYMBOL(strrchr);

/* Returning strlen(src) lets the caller detect truncation with
 * "if (strlcpy(dst, src, size) >= size)". */
size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size > 0) {
		size_t n = MIN(len, size - 1);

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}
EXPORT_SYMBOL(strlcpy);

/* Value of a digit in base 16 (which includes base 10), or -1. */
static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Whether value * base + d is at most max, worked out so that nothing
 * in the test itself can overflow. */
static bool fits(uint64_t value, unsigned int base, unsigned int d, uint64_t max)
{
	return value <= max / base && d <= max - value * base;
}

int parse_unsigned(const char *s, uint64_t max, uint64_t *out)
{
	unsigned int base = 10;
	uint64_t value = 0;
	bool too_big = false;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	/* An empty string (or a bare "0x") is not a number. */
	if (*s == '\0')
		return -EINVAL;
	/* Read to the end even once the value is too big: a word with junk
	 * in it is "not a number", however many digits come first. */
	for (; *s; s++) {
		int d = digit_value(*s);

		if (d < 0 || (unsigned int)d >= base)
			return -EINVAL;
		if (!too_big && fits(value, base, d, max))
			value = value * base + d;
		else
			too_big = true;
	}
	if (too_big)
		return -ERANGE;
	*out = value;
	return 0;
}

int parse_signed(const char *s, int64_t max, int64_t *out)
{
	bool negative = *s == '-';
	/* Two's complement: one more below zero than above. */
	uint64_t limit = (uint64_t)max + negative;
	uint64_t magnitude;
	int err = parse_unsigned(s + negative, limit, &magnitude);

	if (err)
		return err;
	/* -(magnitude - 1) - 1 so that -max - 1 never overflows. */
	*out = negative && magnitude ? -(int64_t)(magnitude - 1) - 1 : (int64_t)magnitude;
	return 0;
}

/* The first character says yes or no; "on" and "off" share theirs, so
 * the second tells them apart. Nothing after that is looked at, which
 * is how Linux lets a file take "1\n" from echo, or "yes". */
int kstrtobool(const char *s, bool *res)
{
	switch (s[0]) {
	case 'y': case 'Y': case 't': case 'T': case '1':
		*res = true;
		return 0;
	case 'n': case 'N': case 'f': case 'F': case '0':
		*res = false;
		return 0;
	case 'o': case 'O':
		if (s[1] == 'n' || s[1] == 'N' || s[1] == 'f' || s[1] == 'F') {
			*res = s[1] == 'n' || s[1] == 'N';
			return 0;
		}
		return -EINVAL;
	default:
		return -EINVAL;
	}
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

int parse_setting(const char *buf, size_t len, int64_t min, int64_t max, int64_t *out)
{
	char text[24];	/* room for any int64_t, sign included */
	int64_t value = 0;	/* GCC cannot tell that parse_signed sets it */

	while (len && is_blank(buf[0])) {
		buf++;
		len--;
	}
	while (len && is_blank(buf[len - 1]))
		len--;
	if (len == 0 || len >= sizeof(text))
		return -EINVAL;
	memcpy(text, buf, len);
	text[len] = '\0';
	/* Out of int64_t's range (-ERANGE) is out of [min, max] too. */
	if (parse_signed(text, INT64_MAX, &value) < 0)
		return -EINVAL;
	if (value < min || value > max)
		return -EINVAL;
	*out = value;
	return 0;
}
