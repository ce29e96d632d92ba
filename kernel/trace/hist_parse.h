/* The text of a histogram trigger, read (Linux's Documentation/trace/
 * histogram.rst): what follows "hist:" in an event's trigger file,
 *
 *   keys=FIELD[.MOD][,FIELD[.MOD]...]    up to HIST_KEYS_MAX; MOD is hex,
 *                                        sym, sym-offset, execname (on
 *                                        common_pid), log2 or buckets=N
 *   vals=hitcount|FIELD[.hex][,...]      hitcount and up to two more
 *   sort=NAME[.descending][,NAME...]     hitcount, a key or a value
 *   size=N                               entries: 128 to 131072
 *   pause, cont (or continue), clear
 *
 * attributes joined by ':' in any order, "key"/"val"/"values" also
 * taken. Read into a struct hist_def: each field found by the filter's
 * lookup (event_filter.h), the bytes each key takes in a packed key,
 * the sort order. Kept free of the kernel: the host tests and the
 * fuzzer run it. */
#ifndef KERNEL_TRACE_HIST_PARSE_H
#define KERNEL_TRACE_HIST_PARSE_H

#include "kernel/trace/event_filter.h"
#include "lib/types.h"

#define HIST_KEYS_MAX 3		/* Linux's TRACING_MAP_KEYS_MAX */
#define HIST_VALS_MAX 2		/* besides hitcount: TRACING_MAP_VALS_MAX - 1 */
#define HIST_SORT_MAX 2		/* TRACING_MAP_SORT_KEYS_MAX */
#define HIST_BITS_MIN 7		/* size=128 */
#define HIST_BITS_MAX 17	/* size=131072 */
#define HIST_BITS_DEFAULT 11	/* 2048 entries */
#define HIST_NAME_MAX 64	/* a field's name, its NUL included */
#define HIST_STRING_MAX 64	/* the bytes a string key keeps, its NUL included */

#define HIST_ERRORS(E)								\
	E(EMPTY_ASSIGNMENT,	"Empty assignment")				\
	E(BAD_FIELD_MODIFIER,	"Invalid field modifier")			\
	E(FIELD_NOT_FOUND,	"Couldn't find field")				\
	E(INVALID_STR_OPERAND,	"String type can not be an operand in expression") \
	E(INVALID_SORT_MODIFIER, "Invalid sort modifier")			\
	E(EMPTY_SORT_FIELD,	"Empty sort field")				\
	E(TOO_MANY_SORT_FIELDS,	"Too many sort fields (Max = 2)")		\
	E(INVALID_SORT_FIELD,	"Sort field must be a key or a val")		\
	E(TRIGGER_EEXIST,	"Hist trigger already exists")			\
	E(TRIGGER_ENOENT_CLEAR,	"Can't clear or continue a nonexistent hist trigger") \
	E(NO_KEYS,		"No keys given")				\
	E(TOO_MANY_KEYS,	"Too many keys (3 max)")			\
	E(TOO_MANY_VALS,	"Too many values (hitcount and 2 more)")	\
	E(BAD_SIZE,		"Size must be a number from 128 to 131072")	\
	E(NOT_AVAILABLE,	"Variables, actions, names and clocks are not available")

#define HIST_ERROR_ENUM(name, text) HIST_ERR_##name,
enum hist_error {
	HIST_ERR_NONE,
	HIST_ERRORS(HIST_ERROR_ENUM)
};
#undef HIST_ERROR_ENUM

/* The message of err: Linux's, or ProbeOS's where Linux gives none. */
const char *hist_error_text(enum hist_error err);

/* How a key is kept and shown. */
enum hist_mod {
	HIST_MOD_NONE,
	HIST_MOD_HEX,		/* shown in hex */
	HIST_MOD_SYM,		/* an address, shown as its function */
	HIST_MOD_SYM_OFFSET,	/* ... with its offset and size */
	HIST_MOD_EXECNAME,	/* common_pid, shown with the thread's name */
	HIST_MOD_LOG2,		/* kept as its power of 2, rounded up */
	HIST_MOD_BUCKETS,	/* kept as the start of its bucket */
};

struct hist_field {
	char name[HIST_NAME_MAX];	/* as written, without the modifier */
	struct filter_field field;
	enum hist_mod mod;
	uint64_t buckets;		/* HIST_MOD_BUCKETS's width */
	uint16_t offset, size;		/* a key's place in the packed key */
};

/* What a sort key names: hitcount, a value, or a key. */
#define HIST_SORT_HITCOUNT 0
#define HIST_SORT_VAL(i) (1 + (i))
#define HIST_SORT_KEY(i) (1 + HIST_VALS_MAX + (i))

struct hist_sort {
	uint8_t what;		/* HIST_SORT_... */
	bool descending;
};

struct hist_def {
	unsigned int nr_keys, nr_vals;	/* nr_vals: besides hitcount */
	struct hist_field keys[HIST_KEYS_MAX], vals[HIST_VALS_MAX];
	unsigned int nr_sort;
	struct hist_sort sort[HIST_SORT_MAX];
	unsigned int bits;		/* 1 << bits entries */
	unsigned int key_size;		/* bytes of a packed key, 8-aligned */
	bool pause, cont, clear;
};

/* Read the len bytes at text (the attributes after "hist:", no filter)
 * into *def, each field looked up with lookup(ctx, ...). 0; -EINVAL
 * with the reason in *err and the offset in text it is at in *pos. */
int hist_parse(const char *text, size_t len, filter_field_lookup lookup, void *ctx,
	       struct hist_def *def, enum hist_error *err, size_t *pos);

/* Whether a and b keep the same table: the same keys, values and sort
 * (Linux's hist_trigger_match; the size and pause state aside). */
bool hist_def_same(const struct hist_def *a, const struct hist_def *b);

/* Write def as the trigger file shows it, "hist:keys=...:size=2048",
 * into buf (size bytes, always terminated). */
void hist_def_show(const struct hist_def *def, char *buf, size_t size);

/* The power of 2 that v rounds up to (Linux's .log2): 0 for 0 and 1,
 * 64 above 2^63. */
unsigned int hist_log2(uint64_t v);

/* A hit's key for def, packed into key (def->key_size bytes): each
 * number as 8 bytes (after its log2 or bucket), each string as
 * HIST_STRING_MAX bytes zero-filled after its text, so that two keys
 * are the same exactly when their bytes are. */
void hist_pack_key(const struct hist_def *def, const struct filter_hit *hit, uint8_t *key);

/* The value of def's value field i at a hit. */
uint64_t hist_val_of(const struct hist_def *def, unsigned int i, const struct filter_hit *hit);

#endif
