/* A probe event's fetch programs, run at a hit (probe_fetch.h).
 *
 * A program is read in the stages it was written in (trace_probe.h):
 * the base, the dereferences, the store, the modifiers. An array's loop
 * goes back to the store with the next element's address: for numbers,
 * the one after the last; for strings, the next pointer of an array of
 * them, which the last dereference loads again. */
#include "kernel/trace/probe_fetch.h"
#include "kernel/mm/nofault.h"
#include "kernel/nokprobe.h"
#include "kernel/symtab.h"
#include "lib/string.h"

/* Word n of the stack the hit interrupted, 0 if it cannot be read. */
static uint64_t notrace stack_word(const struct pt_regs *regs, uint64_t n)
{
	uint64_t v;

	load_u64_nofault(&v, (const uint64_t *)stack_pointer(regs) + n);
	return v;
}

/* The base value; false for one that cannot be read. */
static bool notrace fetch_base(const struct fetch_insn *c, const struct probe_arg *arg,
			       const struct probe_hit_regs *hit, uint64_t *val)
{
	const struct pt_regs *regs = hit->regs;

	switch (c->op) {
	case FETCH_OP_REG:
		/* A fixed size: inlined as one load, -fno-builtin or not. */
		__builtin_memcpy(val, (const uint8_t *)regs + c->param, sizeof(*val));
		return true;
	case FETCH_OP_STACK:
		return load_u64_nofault(val, (const uint64_t *)stack_pointer(regs) + c->param) == 0;
	case FETCH_OP_STACKP:
		*val = stack_pointer(regs);
		return true;
	case FETCH_OP_RETVAL:
		*val = regs_return_value(regs);
		return true;
	case FETCH_OP_IMM:
		*val = c->imm;
		return true;
	case FETCH_OP_COMM:
		*val = (uintptr_t)hit->comm;
		return true;
	case FETCH_OP_ARG:
		*val = c->param < REGS_ARG_REGS
			       ? regs_get_argument(regs, c->param)
			       : stack_word(regs, c->param - REGS_ARG_REGS + REGS_STACK_ARG_FIRST);
		return true;
	case FETCH_OP_DATA:
		*val = (uintptr_t)(arg->comm + c->param);
		return true;
	default:
		return false;
	}
}

/* A string at addr, of at most max bytes with its NUL, into the body's
 * free bytes (*dyn on, to room), its __data_loc word into field: length
 * 0 if it faulted or nothing fits. */
static void notrace store_string(uint8_t *body, size_t *dyn, size_t room, const void *addr,
				 size_t max, uint8_t *field, bool symbol)
{
	size_t space = MIN(room - MIN(*dyn, room), max);
	long n = -1;
	uint32_t loc;

	if (space > 0 && symbol) {
		sym_format((uintptr_t)addr, (char *)body + *dyn, space);
		n = (long)strlen((char *)body + *dyn) + 1;
	} else if (space > 0) {
		n = strncpy_from_kernel_nofault((char *)body + *dyn, addr, space);
	}
	loc = n > 0 ? probe_data_loc((size_t)n, *dyn) : probe_data_loc(0, *dyn);
	memcpy(field, &loc, sizeof(loc));
	if (n > 0)
		*dyn += (size_t)n;
}

/* The low size bytes of val into field: one store each (the sizes are
 * fixed, so each copy is inlined). */
static void notrace store_raw(uint8_t *field, uint64_t val, unsigned int size)
{
	uint32_t v32 = (uint32_t)val;
	uint16_t v16 = (uint16_t)val;

	switch (size) {
	case 8:
		__builtin_memcpy(field, &val, 8);
		break;
	case 4:
		__builtin_memcpy(field, &v32, 4);
		break;
	case 2:
		__builtin_memcpy(field, &v16, 2);
		break;
	default:	/* 1: the types' sizes are 1, 2, 4 and 8 */
		*field = (uint8_t)val;
		break;
	}
}

/* size bytes at addr into field, 0s if they cannot be read: a word in
 * one access, a smaller field byte by byte (a word's load could fault
 * past the end of the page the field ends on). */
static void notrace store_mem(uint8_t *field, const void *addr, unsigned int size)
{
	uint64_t v;

	if (size == 8 && load_u64_nofault(&v, addr) == 0)
		__builtin_memcpy(field, &v, 8);
	else if (size == 8 || copy_from_kernel_nofault(field, addr, size))
		memset(field, 0, size);
}

/* A bitfield: the field's container shifted left, then right. */
static void notrace apply_bitfield(const struct fetch_insn *c, uint8_t *field, unsigned int size)
{
	uint64_t v = 0;

	memcpy(&v, field, size);
	v <<= 64 - size * 8 + c->lshift;
	v >>= 64 - size * 8 + c->rshift;
	memcpy(field, &v, size);
}

/* Run arg's program, storing its field at field and its strings from
 * *dyn on. Out of line: inlined, its registers and spills would weigh
 * on every call of probe_fetch_args, even one of simple programs only. */
static __attribute__((noinline)) void notrace
fetch_arg(const struct probe_arg *arg, const struct probe_hit_regs *hit, uint8_t *body,
	  uint8_t *field, size_t *dyn, size_t room)
{
	const struct fetch_insn *c = arg->code, *store, *last_deref = NULL;
	uint64_t val = 0, before_deref = 0;
	bool ok = fetch_base(c, arg, hit, &val);
	unsigned int elem = 0;

	for (c++; ok && c->op == FETCH_OP_DEREF; c++) {
		before_deref = val;
		last_deref = c;
		ok = load_u64_nofault(&val, (const uint8_t *)(uintptr_t)val + c->offset) == 0;
	}
	if (!ok)	/* the fault is the store's: skip to it */
		while (c->op == FETCH_OP_DEREF)
			c++;
	store = c;
next_element:
	switch (store->op) {
	case FETCH_OP_ST_RAW:
		store_raw(field, val, store->size);
		break;
	case FETCH_OP_ST_MEM:
		if (ok)
			store_mem(field, (const uint8_t *)(uintptr_t)val + store->offset +
						 elem * store->size, store->size);
		else
			memset(field, 0, store->size);
		break;
	case FETCH_OP_ST_STRING:
	case FETCH_OP_ST_SYMSTR:
		/* An immediate string is imm bytes of the text, up to its
		 * closing quote. */
		if (ok)
			store_string(body, dyn, room,
				     (const uint8_t *)(uintptr_t)val + store->offset,
				     arg->code[0].op == FETCH_OP_DATA ? arg->code[0].imm + 1
								      : PROBE_STRING_MAX,
				     field, store->op == FETCH_OP_ST_SYMSTR);
		else
			store_string(body, dyn, 0, NULL, 0, field, false);
		break;
	}
	c = store + 1;
	if (c->op == FETCH_OP_MOD_BF) {
		apply_bitfield(c, field, store->size);
		c++;
	}
	if (c->op == FETCH_OP_LP_ARRAY && ++elem < c->param) {
		field += store->size;
		/* An array of strings: the next pointer, loaded again. */
		if (store->op == FETCH_OP_ST_STRING && last_deref)
			ok = load_u64_nofault(&val, (const uint8_t *)(uintptr_t)before_deref +
							    last_deref->offset + elem * 8) == 0;
		goto next_element;
	}
}

/* The programs most arguments are, a register or a value behind one
 * (%di, +8(%di):u32), run in a few instructions rather than through
 * fetch_arg's general loop: false if arg's is another. */
static bool notrace fetch_simple(const struct probe_arg *arg, const struct pt_regs *regs,
				 uint8_t *field)
{
	const struct fetch_insn *c = arg->code;
	uint64_t val;

	if (c[0].op != FETCH_OP_REG || c[2].op != FETCH_OP_END)
		return false;
	__builtin_memcpy(&val, (const uint8_t *)regs + c[0].param, sizeof(val));
	if (c[1].op == FETCH_OP_ST_RAW)
		store_raw(field, val, c[1].size);
	else if (c[1].op == FETCH_OP_ST_MEM)
		store_mem(field, (const uint8_t *)(uintptr_t)val + c[1].offset, c[1].size);
	else
		return false;
	return true;
}

size_t notrace probe_fetch_args(const struct probe_arg *args, int nr,
				const struct probe_hit_regs *hit, uint8_t *body, size_t fields,
				size_t dyn, size_t room)
{
	for (int i = 0; i < nr; i++) {
		uint8_t *field = body + fields + args[i].offset;

		if (!fetch_simple(&args[i], hit->regs, field))
			fetch_arg(&args[i], hit, body, field, &dyn, room);
	}
	return MIN(dyn, room);
}
NOKPROBE_SYMBOL(probe_fetch_args);
