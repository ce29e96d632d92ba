/* A probe event's arguments: from the text a user writes
 * (`count=%dx:u64`, `+0(%di):string`) to the fetch program that reads
 * the value at a hit (docs/events.md).
 *
 * An argument is compiled once, when the event is defined, into a short
 * program of struct fetch_insn: one instruction that finds a base value
 * (a register, a stack word, an argument, the return value, an address),
 * one per dereference, then one that stores the value into the record,
 * and the modifiers after it (a bitfield's shifts, an array's loop).
 * `+8(+0(%di)):u32` compiles to
 *
 *   REG     offsetof(struct pt_regs, rdi)   value = regs->di
 *   DEREF   offset 0                        value = *(u64 *)(value + 0)
 *   ST_MEM  offset 8, size 4                record <- 4 bytes at value + 8
 *   END
 *
 * and a hit runs it (probe_fetch.c) without looking at the text again.
 * The limits are Linux's (its trace_probe.h), so that a definition
 * Linux takes is taken here and one it refuses is refused with the same
 * error (probe_log.h) at the same place. Kept free of the kernel: the
 * host tests and the fuzzer run the parser. */
#ifndef KERNEL_TRACE_TRACE_PROBE_H
#define KERNEL_TRACE_TRACE_PROBE_H

#include "kernel/trace/probe_log.h"
#include "kernel/trace/probe_regs.h"
#include "kernel/trace/probe_types.h"
#include "lib/types.h"

#define MAX_TRACE_ARGS 128	/* arguments read; later ones are ignored */
#define MAX_ARGSTR_LEN 63	/* an argument's text, after its NAME= */
#define MAX_ARRAY_LEN 64	/* elements of a :TYPE[N] */
#define MAX_ARG_NAME_LEN 32
#define MAX_EVENT_NAME_LEN 64	/* a group's or an event's name, its NUL included */
#define MAX_PROBE_EVENT_SIZE 3072	/* the arguments' fixed part of a record */
#define FETCH_INSN_MAX 16	/* a program's instructions, its END included */

enum fetch_op {
	FETCH_OP_NOP,
	/* The base value. */
	FETCH_OP_REG,		/* param: a register's offset in struct pt_regs */
	FETCH_OP_STACK,		/* param: the index of a word on the stack */
	FETCH_OP_STACKP,	/* the stack pointer */
	FETCH_OP_RETVAL,	/* the value returned (a return probe) */
	FETCH_OP_IMM,		/* imm: a number or an address */
	FETCH_OP_COMM,		/* the thread's name (a string) */
	FETCH_OP_ARG,		/* param: the function's argument, from 0 */
	FETCH_OP_DATA,		/* an immediate string: param bytes into the
				 * argument's text, imm long */
	/* Then, zero or more times. */
	FETCH_OP_DEREF,		/* value = the word at value + offset */
	/* The store, into the argument's field (size bytes). */
	FETCH_OP_ST_RAW,	/* the value itself */
	FETCH_OP_ST_MEM,	/* the size bytes at value + offset */
	FETCH_OP_ST_STRING,	/* the string at value + offset */
	FETCH_OP_ST_SYMSTR,	/* the symbol of value, as text */
	/* Modifiers. */
	FETCH_OP_MOD_BF,	/* a bitfield: value << lshift >> rshift */
	FETCH_OP_LP_ARRAY,	/* param elements: the store again, on the next one */
	FETCH_OP_END,
};

struct fetch_insn {
	uint8_t op;		/* enum fetch_op */
	uint8_t size;		/* a store's bytes */
	uint8_t lshift, rshift;	/* a bitfield's shifts */
	uint32_t param;
	union {
		int64_t offset;	/* a dereference's or a store's */
		uint64_t imm;
	};
};

/* One argument of an event. */
struct probe_arg {
	char name[MAX_ARG_NAME_LEN + 1];	/* its field's name: count, arg1 */
	char comm[MAX_ARGSTR_LEN + 1];	/* its text after NAME=, as written */
	const struct fetch_type *type;
	uint16_t offset;		/* of its field, in the arguments' part */
	uint8_t count;			/* elements of an array, 0 if none */
	bool dynamic;			/* a string: the field is a __data_loc word */
	struct fetch_insn code[FETCH_INSN_MAX];
};

/* How the probe the arguments read sits. */
#define TPARG_FL_RETURN 1	/* at a function's return: $retval */
#define TPARG_FL_FENTRY 2	/* at a function's entry: $argN */

/* What the parser asks of the kernel (or of a host test standing in). */
struct probe_parse_env {
	const struct probe_reg *regs;	/* the registers %REG may name */
	/* The address of the symbol called name ("module:name" in that
	 * module): 0, or a negative errno if there is none. */
	int (*symbol_addr)(const char *name, uint64_t *addr);
};

/* Read the text of argument i (the word log is at, "NAME=FETCHARG" or
 * "FETCHARG") into args[i], after args[0..i-1]: its name (argN+1 if
 * none), its type, its program, and its field at *size bytes into the
 * arguments' part, which grows by the field's size. 0; -EINVAL, or
 * -E2BIG for a record over MAX_PROBE_EVENT_SIZE, with the reason and
 * its place in log. */
int trace_probe_parse_arg(struct probe_arg *args, int i, const char *text, unsigned int flags,
			  size_t *size, const struct probe_parse_env *env, struct probe_log *log);

/* Read "[GROUP/]EVENT" at text (offset bytes into the word log is at)
 * into group and event (MAX_EVENT_NAME_LEN bytes each; group is left as
 * it is when none is given, event is "" for "GROUP/"). 0 or -EINVAL,
 * with the reason in log. */
int trace_probe_parse_event_name(const char *text, char *group, char *event, int offset,
				 struct probe_log *log);

/* Whether name is a C identifier: what Linux takes for an event's,
 * a group's and an argument's name. */
bool trace_probe_good_name(const char *name);

#endif
