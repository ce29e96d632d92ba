/* printf-style formatting.
 *
 * vformat() does all the work and hands its output, piece by piece, to a
 * sink function; vsnprintf() is just vformat() with a sink that fills a
 * buffer. Keeping the buffer out of the core means the console can print
 * any amount of text without a size limit.
 *
 * Each conversion is parsed into a struct spec, then printed as a field:
 *
 *	[spaces] [prefix] [zeros] body [spaces]
 *
 * where the prefix is a sign or "0x", the zeros come from the precision
 * or the '0' flag, and the spaces pad the field to its width (on the
 * left, or on the right with the '-' flag).
 */
#include "lib/format.h"
#include "lib/export.h"
#include "lib/string.h"

enum {
	FLAG_LEFT  = 1 << 0,	/* '-': pad on the right */
	FLAG_ZERO  = 1 << 1,	/* '0': pad numbers with zeros */
	FLAG_PLUS  = 1 << 2,	/* '+': always print a sign */
	FLAG_SPACE = 1 << 3,	/* ' ': a space where a '+' would go */
	FLAG_ALT   = 1 << 4,	/* '#': 0x before hex, 0 before octal */
};

enum length { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_Z, LEN_T, LEN_J };

struct spec {
	unsigned int flags;
	int width;		/* minimum field width, 0 if none */
	int precision;		/* -1 if none */
	enum length length;
	char conv;		/* the conversion letter, e.g. 'd' */
};

/* Where the output goes, and how much of it there has been. */
struct output {
	format_sink emit;
	void *ctx;
	int count;
};

static void put(struct output *out, const char *text, size_t len)
{
	if (len == 0)
		return;
	out->emit(out->ctx, text, len);
	out->count += len;
}

/* Emit n copies of c, a chunk at a time. */
static void put_repeated(struct output *out, char c, int n)
{
	char chunk[16];

	memset(chunk, c, sizeof(chunk));
	while (n > 0) {
		int len = MIN(n, (int)sizeof(chunk));

		put(out, chunk, len);
		n -= len;
	}
}

/* Print one field: prefix, then zeros, then body, padded to the width. */
static void put_field(struct output *out, const struct spec *sp,
		      const char *prefix, int zeros,
		      const char *body, size_t len)
{
	int prefix_len = strlen(prefix);
	int used = prefix_len + zeros + (int)len;
	int spaces = sp->width > used ? sp->width - used : 0;

	if (!(sp->flags & FLAG_LEFT))
		put_repeated(out, ' ', spaces);
	put(out, prefix, prefix_len);
	put_repeated(out, '0', zeros);
	put(out, body, len);
	if (sp->flags & FLAG_LEFT)
		put_repeated(out, ' ', spaces);
}

/*
 * Read a signed or unsigned integer argument of the size the length
 * modifier names. Arguments narrower than int are passed as int, so they
 * are read as int and then cut down to their real type.
 */
static long long fetch_signed(va_list *ap, enum length length)
{
	switch (length) {
	case LEN_HH:
		return (signed char)va_arg(*ap, int);
	case LEN_H:
		return (short)va_arg(*ap, int);
	case LEN_L:
		return va_arg(*ap, long);
	case LEN_LL:
		return va_arg(*ap, long long);
	case LEN_Z:
		return va_arg(*ap, ssize_t);
	case LEN_T:
		return va_arg(*ap, ptrdiff_t);
	case LEN_J:
		return va_arg(*ap, intmax_t);
	default:
		return va_arg(*ap, int);
	}
}

static unsigned long long fetch_unsigned(va_list *ap, enum length length)
{
	switch (length) {
	case LEN_HH:
		return (unsigned char)va_arg(*ap, unsigned int);
	case LEN_H:
		return (unsigned short)va_arg(*ap, unsigned int);
	case LEN_L:
		return va_arg(*ap, unsigned long);
	case LEN_LL:
		return va_arg(*ap, unsigned long long);
	case LEN_Z:
		return va_arg(*ap, size_t);
	case LEN_T:
		/* ptrdiff_t has no unsigned twin; size_t has the same width. */
		return va_arg(*ap, size_t);
	case LEN_J:
		return va_arg(*ap, uintmax_t);
	default:
		return va_arg(*ap, unsigned int);
	}
}

/*
 * Print an integer whose magnitude is value; sign is "-", "+", " " or "".
 * The digits are produced backwards, from the least significant, into the
 * end of a buffer big enough for 64 bits in octal (22 digits).
 */
static void put_number(struct output *out, const struct spec *sp,
		       unsigned long long value, const char *sign)
{
	const char *digits = sp->conv == 'X' ? "0123456789ABCDEF"
					     : "0123456789abcdef";
	unsigned int base = 10;
	char buf[24];
	char *end = buf + sizeof(buf);
	char *p = end;
	const char *prefix = sign;
	int ndigits, zeros;

	if (sp->conv == 'o')
		base = 8;
	else if (sp->conv == 'x' || sp->conv == 'X' || sp->conv == 'p')
		base = 16;

	/* A zero with precision 0 prints no digits at all. */
	if (value != 0 || sp->precision != 0) {
		do {
			*--p = digits[value % base];
			value /= base;
		} while (value != 0);
	}
	ndigits = end - p;
	zeros = sp->precision > ndigits ? sp->precision - ndigits : 0;

	if (sp->conv == 'p') {
		prefix = "0x";
	} else if (sp->flags & FLAG_ALT) {
		if (base == 16 && ndigits > 0 && !(ndigits == 1 && *p == '0'))
			prefix = sp->conv == 'X' ? "0X" : "0x";
		/* '#' with octal guarantees a leading zero. */
		if (base == 8 && zeros == 0 && (ndigits == 0 || *p != '0'))
			zeros = 1;
	}

	/* The '0' flag fills the width with zeros, unless a precision says
	 * how many digits there must be. */
	if ((sp->flags & FLAG_ZERO) && !(sp->flags & FLAG_LEFT) &&
	    sp->precision < 0) {
		int used = (int)strlen(prefix) + zeros + ndigits;

		if (sp->width > used)
			zeros += sp->width - used;
	}
	put_field(out, sp, prefix, zeros, p, ndigits);
}

static void put_signed(struct output *out, const struct spec *sp,
		       long long value)
{
	const char *sign = "";
	unsigned long long magnitude = value;

	if (value < 0) {
		sign = "-";
		/* Negate in unsigned arithmetic: -LLONG_MIN would overflow. */
		magnitude = 0ull - magnitude;
	} else if (sp->flags & FLAG_PLUS) {
		sign = "+";
	} else if (sp->flags & FLAG_SPACE) {
		sign = " ";
	}
	put_number(out, sp, magnitude, sign);
}

static void put_string(struct output *out, const struct spec *sp,
		       const char *s)
{
	size_t len;

	if (!s)
		s = "(null)";
	/* With a precision, s need not be terminated within that length. */
	len = sp->precision >= 0 ? strnlen(s, sp->precision) : strlen(s);
	put_field(out, sp, "", 0, s, len);
}

/* Widths and precisions are clamped to this, so that absurd values
 * cannot overflow the int arithmetic on field sizes. */
#define COUNT_MAX 100000

/* Read a decimal number or a '*' argument; *fmt is advanced past it.
 * Only a '*' argument can be negative. */
static int parse_count(const char **fmt, va_list *ap)
{
	int n = 0;

	if (**fmt == '*') {
		(*fmt)++;
		n = va_arg(*ap, int);
		return n < -COUNT_MAX ? -COUNT_MAX : MIN(n, COUNT_MAX);
	}
	while (**fmt >= '0' && **fmt <= '9') {
		n = MIN(n * 10 + (**fmt - '0'), COUNT_MAX);
		(*fmt)++;
	}
	return n;
}

static enum length parse_length(const char **fmt)
{
	const char *f = *fmt;
	enum length length = LEN_NONE;

	switch (*f) {
	case 'h':
		length = f[1] == 'h' ? LEN_HH : LEN_H;
		break;
	case 'l':
		length = f[1] == 'l' ? LEN_LL : LEN_L;
		break;
	case 'z':
		length = LEN_Z;
		break;
	case 't':
		length = LEN_T;
		break;
	case 'j':
		length = LEN_J;
		break;
	default:
		return LEN_NONE;
	}
	*fmt += (length == LEN_HH || length == LEN_LL) ? 2 : 1;
	return length;
}

/* Parse a conversion after its '%'; *fmt is left on the conversion
 * letter (or on the terminating NUL if the format ends early). */
static void parse_spec(const char **fmt, va_list *ap, struct spec *sp)
{
	sp->flags = 0;
	for (;; (*fmt)++) {
		if (**fmt == '-')
			sp->flags |= FLAG_LEFT;
		else if (**fmt == '0')
			sp->flags |= FLAG_ZERO;
		else if (**fmt == '+')
			sp->flags |= FLAG_PLUS;
		else if (**fmt == ' ')
			sp->flags |= FLAG_SPACE;
		else if (**fmt == '#')
			sp->flags |= FLAG_ALT;
		else
			break;
	}

	sp->width = parse_count(fmt, ap);
	if (sp->width < 0) {
		/* A negative '*' width means left-justify, as in C. */
		sp->flags |= FLAG_LEFT;
		sp->width = -sp->width;
	}

	sp->precision = -1;
	if (**fmt == '.') {
		(*fmt)++;
		sp->precision = parse_count(fmt, ap);
		/* A negative '*' precision counts as no precision. */
		if (sp->precision < 0)
			sp->precision = -1;
	}

	sp->length = parse_length(fmt);
	sp->conv = **fmt;
}

/* Print one parsed conversion. Returns false if the letter is unknown. */
static bool put_conversion(struct output *out, const struct spec *sp,
			   va_list *ap)
{
	char c;

	switch (sp->conv) {
	case 'd':
	case 'i':
		put_signed(out, sp, fetch_signed(ap, sp->length));
		return true;
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		put_number(out, sp, fetch_unsigned(ap, sp->length), "");
		return true;
	case 'p': {
		/* Always 16 digits, so addresses line up in columns. */
		struct spec p = *sp;

		p.precision = 16;
		put_number(out, &p, (uintptr_t)va_arg(*ap, void *), "");
		return true;
	}
	case 'c':
		c = (char)va_arg(*ap, int);
		put_field(out, sp, "", 0, &c, 1);
		return true;
	case 's':
		put_string(out, sp, va_arg(*ap, const char *));
		return true;
	case '%':
		put(out, "%", 1);
		return true;
	default:
		return false;
	}
}

int vformat(format_sink emit, void *ctx, const char *fmt, va_list ap)
{
	struct output out = { .emit = emit, .ctx = ctx, .count = 0 };
	va_list args;

	/* Work on a copy so helpers can take a pointer to it (a va_list
	 * parameter may be an array that decayed into a pointer). */
	va_copy(args, ap);
	while (*fmt) {
		const char *start = fmt;
		struct spec sp;

		if (*fmt != '%') {
			/* Plain text up to the next '%' goes out in one go. */
			while (*fmt && *fmt != '%')
				fmt++;
			put(&out, start, fmt - start);
			continue;
		}

		fmt++;
		parse_spec(&fmt, &args, &sp);
		if (*fmt == '\0' || !put_conversion(&out, &sp, &args)) {
			/* Print a conversion we do not understand as it was
			 * written, so the mistake is visible. */
			if (*fmt)
				fmt++;
			put(&out, start, fmt - start);
			continue;
		}
		fmt++;
	}
	va_end(args);
	return out.count;
}

/* A sink that fills a buffer, keeping the last byte for the NUL. */
struct buffer {
	char *buf;
	size_t size;
	size_t used;
};

static void buffer_emit(void *ctx, const char *text, size_t len)
{
	struct buffer *b = ctx;
	size_t room;

	if (b->used + 1 >= b->size)
		return;
	room = b->size - 1 - b->used;
	len = MIN(len, room);
	memcpy(b->buf + b->used, text, len);
	b->used += len;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct buffer b = { .buf = buf, .size = size, .used = 0 };
	int len = vformat(buffer_emit, &b, fmt, ap);

	if (size > 0)
		buf[b.used] = '\0';
	return len;
}
EXPORT_SYMBOL(vsnprintf);

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return len;
}
EXPORT_SYMBOL(snprintf);
