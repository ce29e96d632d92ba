/* Why a probe event's definition was refused, and where.
 *
 * A definition written to kprobe_events is cut into words (argv) before
 * it is read. When a word is refused, Linux's error_log shows the whole
 * line with a caret under the character at fault; the parsers here say
 * which word they were reading (probe_log_set_index) and where in it the
 * fault is (probe_log_err), and the caller turns that into the line and
 * the caret's column (probe_log_command, probe_log_pos).
 *
 * The messages are Linux's, word for word (its trace_probe.h): tools and
 * Linux's own selftests read them. One is ProbeOS's own, for what Linux
 * takes and ProbeOS cannot do (a user-space fetch: there is no user
 * space). Kept apart and free of the kernel: the host tests and the
 * fuzzer run it. */
#ifndef KERNEL_TRACE_PROBE_LOG_H
#define KERNEL_TRACE_PROBE_LOG_H

#include "lib/types.h"

#define PROBE_ERRORS(E)								\
	E(MAXACT_NO_KPROBE,	"Maxactive is not for kprobe")			\
	E(BAD_MAXACT,		"Invalid maxactive number")			\
	E(MAXACT_TOO_BIG,	"Maxactive is too big")				\
	E(BAD_PROBE_ADDR,	"Invalid probed address or symbol")		\
	E(NON_UNIQ_SYMBOL,	"The symbol is not unique")			\
	E(BAD_RETPROBE,		"Retprobe address must be an function entry")	\
	E(BAD_ADDR_SUFFIX,	"Invalid probed address suffix")		\
	E(NO_GROUP_NAME,	"Group name is not specified")			\
	E(GROUP_TOO_LONG,	"Group name is too long")			\
	E(BAD_GROUP_NAME,	"Group name must follow the same rules as C identifiers") \
	E(NO_EVENT_NAME,	"Event name is not specified")			\
	E(EVENT_TOO_LONG,	"Event name is too long")			\
	E(BAD_EVENT_NAME,	"Event name must follow the same rules as C identifiers") \
	E(EVENT_EXIST,		"Given group/event name is already used by another event") \
	E(RETVAL_ON_PROBE,	"$retval is not available on probe")		\
	E(BAD_STACK_NUM,	"Invalid stack number")				\
	E(BAD_ARG_NUM,		"Invalid argument number")			\
	E(BAD_VAR,		"Invalid $-variable specified")			\
	E(BAD_REG_NAME,		"Invalid register name")			\
	E(BAD_MEM_ADDR,		"Invalid memory address")			\
	E(BAD_IMM,		"Invalid immediate value")			\
	E(IMMSTR_NO_CLOSE,	"String is not closed with '\"'")		\
	E(FILE_ON_KPROBE,	"File offset is not available with kprobe")	\
	E(TOO_MANY_OPS,		"Dereference is too much nested")		\
	E(DEREF_NEED_BRACE,	"Dereference needs a brace")			\
	E(BAD_DEREF_OFFS,	"Invalid dereference offset")			\
	E(DEREF_OPEN_BRACE,	"Dereference brace is not closed")		\
	E(COMM_CANT_DEREF,	"$comm can not be dereferenced")		\
	E(BAD_FETCH_ARG,	"Invalid fetch argument")			\
	E(ARRAY_NO_CLOSE,	"Array is not closed")				\
	E(BAD_ARRAY_SUFFIX,	"Array has wrong suffix")			\
	E(BAD_ARRAY_NUM,	"Invalid array size")				\
	E(ARRAY_TOO_BIG,	"Array number is too big")			\
	E(BAD_TYPE,		"Unknown type is specified")			\
	E(BAD_STRING,		"String accepts only memory argument")		\
	E(BAD_SYMSTRING,	"Symbol String doesn't accept data/userdata")	\
	E(BAD_BITFIELD,		"Invalid bitfield")				\
	E(ARG_NAME_TOO_LONG,	"Argument name is too long")			\
	E(NO_ARG_NAME,		"Argument name is not specified")		\
	E(BAD_ARG_NAME,		"Argument name must follow the same rules as C identifiers") \
	E(USED_ARG_NAME,	"This argument name is already used")		\
	E(ARG_TOO_LONG,		"Argument expression is too long")		\
	E(NO_ARG_BODY,		"No argument expression")			\
	E(BAD_INSN_BNDRY,	"Probe point is not an instruction boundary")	\
	E(FAIL_REG_PROBE,	"Failed to register probe event")		\
	E(DIFF_PROBE_TYPE,	"Probe type is different from existing probe")	\
	E(DIFF_ARG_TYPE,	"Argument type or name is different from existing probe") \
	E(SAME_PROBE,		"There is already the exact same probe event")	\
	E(EVENT_TOO_BIG,	"Event too big (too many fields?)")		\
	E(NO_USER_FETCH,	"User-space fetch is not available: ProbeOS has no user space")

#define PROBE_ERROR_ENUM(name, text) PROBE_ERR_##name,
enum probe_error {
	PROBE_ERR_NONE,
	PROBE_ERRORS(PROBE_ERROR_ENUM)
};
#undef PROBE_ERROR_ENUM

/* The message of err ("" for PROBE_ERR_NONE). */
const char *probe_error_text(enum probe_error err);

/* A definition being read: its words, the one being read, and the
 * first refusal met (err, and where: word err_index, err_offset bytes
 * into it; a word past the last means "after the line"). */
struct probe_log {
	int argc;
	const char *const *argv;
	int index;
	enum probe_error err;
	int err_index, err_offset;
};

/* Start reading the argc words at argv, at the first. */
void probe_log_init(struct probe_log *log, int argc, const char *const *argv);
/* The parser reads word index from now on. */
void probe_log_set_index(struct probe_log *log, int index);
/* Refuse, with err at offset bytes into the word being read. The first
 * refusal is kept: a parser stops at it. */
void probe_log_err(struct probe_log *log, int offset, enum probe_error err);

/* The line the words make, one space between each, as error_log shows
 * it: into buf, of size bytes (cut short to fit); its full length. */
size_t probe_log_command(const struct probe_log *log, char *buf, size_t size);
/* The column of the caret under that line: the refused word's start
 * plus the offset, or one past the line's end for a word past the last
 * (a word missing). */
int probe_log_pos(const struct probe_log *log);

#endif
