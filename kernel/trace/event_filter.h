/* An event's filter: the expression written to events/GROUP/EVENT/filter
 * that a record must match to be kept (Linux's
 * Documentation/trace/events.rst, "Event filtering"):
 *
 *   count > 100 && comm == "shell"
 *   (ret < 0 || ret == 4096) && !(path ~ "*.txt")
 *
 * A term compares a field with a value: a number field with == != < <=
 * > >= or & (some bit in common), a string field with == != or ~ (a
 * glob, lib/glob.h); terms are joined with && and ||, negated with !,
 * grouped with parentheses, && binding tighter, as in C. Besides the
 * event's own fields there are the ones every record has: common_pid,
 * and comm and cpu (also COMM and CPU), the thread's name and the CPU
 * at the hit.
 *
 * The text is compiled once, when it is written, into a program of
 * terms in postfix order, which a hit runs over the record it has made
 * (event_filter_match): no parsing, no allocation, no lock. Kept free of
 * the kernel: the host tests and the fuzzer run it. */
#ifndef KERNEL_TRACE_EVENT_FILTER_H
#define KERNEL_TRACE_EVENT_FILTER_H

#include "lib/types.h"

#define FILTER_ERRORS(E)							\
	E(INVALID_OP,		"Invalid operator")				\
	E(TOO_MANY_OPEN,	"Too many '('")					\
	E(TOO_MANY_CLOSE,	"Too few '('")					\
	E(MISSING_QUOTE,	"Missing matching quote")			\
	E(OPERAND_TOO_LONG,	"Operand too long")				\
	E(EXPECT_STRING,	"Expecting string field")			\
	E(EXPECT_DIGIT,		"Expecting numeric field")			\
	E(ILLEGAL_FIELD_OP,	"Illegal operation for field type")		\
	E(FIELD_NOT_FOUND,	"Field not found")				\
	E(ILLEGAL_INTVAL,	"Illegal integer value")			\
	E(TOO_MANY_PREDS,	"Too many terms in predicate expression")	\
	E(INVALID_FILTER,	"Meaningless filter expression")		\
	E(INVALID_VALUE,	"Invalid value (did you forget quotes)?")	\
	E(NO_FILTER,		"No filter found")

#define FILTER_ERROR_ENUM(name, text) FILTER_ERR_##name,
enum filter_error {
	FILTER_ERR_NONE,
	FILTER_ERRORS(FILTER_ERROR_ENUM)
};
#undef FILTER_ERROR_ENUM

/* The message of err, Linux's. */
const char *filter_error_text(enum filter_error err);

/* The most terms a filter may have (Linux takes 16,384; a hit here
 * keeps its running results in one word per 64). */
#define FILTER_TERMS_MAX 256
/* The longest string a term compares with, its NUL included. */
#define FILTER_STRING_MAX 128

/* What a field of the event's records is, for the filter's terms. */
enum filter_field_kind {
	FILTER_FIELD_NUMBER,	/* size bytes at offset in the body */
	FILTER_FIELD_STRING,	/* a __data_loc word at offset (probe_types.h) */
	FILTER_FIELD_COMM,	/* the thread's name at the hit */
	FILTER_FIELD_CPU,	/* the CPU at the hit */
	FILTER_FIELD_PID,	/* the thread's id at the hit */
};

struct filter_field {
	enum filter_field_kind kind;
	uint16_t offset;
	uint8_t size;		/* a number's: 1, 2, 4 or 8 */
	bool is_signed;
};

/* How the parser finds a field by its name (len bytes at name, no
 * NUL): true with *f filled, false if the event has none so called. */
typedef bool (*filter_field_lookup)(void *ctx, const char *name, size_t len,
				    struct filter_field *f);

/* One term, compiled. */
struct filter_term {
	struct filter_field field;
	uint8_t op;		/* enum filter_op (event_filter.c) */
	uint64_t value;		/* a number's */
	char text[FILTER_STRING_MAX];	/* a string's, or its glob */
};

/* A program entry: a term, or an operator on the results before it. */
struct filter_step {
	uint16_t what;		/* FILTER_STEP_AND, _OR, _NOT, or a term's index */
};
#define FILTER_STEP_AND 0xffff
#define FILTER_STEP_OR 0xfffe
#define FILTER_STEP_NOT 0xfffd

struct event_filter {
	unsigned int nr_terms, nr_steps;
	struct filter_term *terms;
	struct filter_step *steps;	/* postfix order */
};

/* What a hit knows besides its record. */
struct filter_hit {
	const void *body;	/* the record's body, len bytes */
	size_t len;
	const char *comm;
	unsigned int cpu, pid;
};

/* Compile text (a C string) with the fields lookup finds into *out, to
 * free with event_filter_free. 0; -EINVAL with the reason in *err and
 * the offset in text it is at in *pos; -ENOMEM. */
int event_filter_parse(const char *text, filter_field_lookup lookup, void *ctx,
		       struct event_filter **out, enum filter_error *err, size_t *pos);
void event_filter_free(struct event_filter *f);

/* Whether a hit's record matches f. */
bool event_filter_match(const struct event_filter *f, const struct filter_hit *hit);

/* A number field's value at a hit (a signed one widened with its sign),
 * 0 if the record is too short for it; and a string field's text, ""
 * if it is not all there. For the histograms, which key on fields. */
uint64_t filter_field_number(const struct filter_field *field, const struct filter_hit *hit);
const char *filter_field_string(const struct filter_field *field, const struct filter_hit *hit);

#endif
