/* A probe event's arguments, from their text to their fetch programs
 * (trace_probe.h; the syntax is Linux's Documentation/trace/kprobetrace.rst).
 *
 * An argument is read in three steps, each refusing with Linux's error
 * at Linux's place (probe_log.h):
 *   1. its name: "NAME=" or none (argN), a C identifier used once;
 *   2. its type: after the first ':', with "[N]" for an array;
 *   3. its fetch, a recursive descent over the text before the ':'
 *      (parse_fetch), which writes the base instruction and the
 *      dereferences around it, innermost first; then the store, the
 *      bitfield and the array loop are added after them.
 * The text is copied into a buffer of the argument's own and cut there
 * ('\0' over the ':', the brackets, the braces), so each step reads a
 * plain string. */
#include "kernel/trace/trace_probe.h"
#include "kernel/mm/stack.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

/* The deepest $stackN and $argN: the words of a thread's stack. */
#define PARAM_MAX_STACK (KERNEL_STACK_SIZE / 8)

/* Field names every event has already (its format file lists them). */
static const char *const reserved_names[] = {
	"common_type", "common_flags", "common_preempt_count", "common_pid",
	"common_tgid", "__probe_ip", "__probe_ret_ip", "__probe_func",
};

bool trace_probe_good_name(const char *name)
{
	if (!is_alpha(*name) && *name != '_')
		return false;
	for (name++; *name; name++)
		if (!is_alnum(*name) && *name != '_')
			return false;
	return true;
}

int trace_probe_parse_event_name(const char *text, char *group, char *event, int offset,
				 struct probe_log *log)
{
	const char *slash = strchr(text, '/');
	size_t len;

	if (!slash)
		slash = strchr(text, '.');
	if (slash) {
		size_t glen = (size_t)(slash - text);

		if (glen == 0) {
			probe_log_err(log, offset, PROBE_ERR_NO_GROUP_NAME);
			return -EINVAL;
		}
		if (glen >= MAX_EVENT_NAME_LEN) {
			probe_log_err(log, offset, PROBE_ERR_GROUP_TOO_LONG);
			return -EINVAL;
		}
		memcpy(group, text, glen);
		group[glen] = '\0';
		if (!trace_probe_good_name(group)) {
			probe_log_err(log, offset, PROBE_ERR_BAD_GROUP_NAME);
			return -EINVAL;
		}
		offset += (int)glen + 1;
		text = slash + 1;
	}
	len = strlen(text);
	if (len == 0 && !slash) {
		probe_log_err(log, offset, PROBE_ERR_NO_EVENT_NAME);
		return -EINVAL;
	}
	if (len >= MAX_EVENT_NAME_LEN) {
		probe_log_err(log, offset, PROBE_ERR_EVENT_TOO_LONG);
		return -EINVAL;
	}
	if (len > 0 && !trace_probe_good_name(text)) {
		probe_log_err(log, offset, PROBE_ERR_BAD_EVENT_NAME);
		return -EINVAL;
	}
	memcpy(event, text, len + 1);
	return 0;
}

/* A program being written: the instruction written last, the end of
 * the space a fetch may use (the last instruction is kept for the END),
 * and the start of the argument's copy, which an immediate string's
 * place is counted from (it is its place in the argument's comm). */
struct prog {
	struct fetch_insn *code;
	struct fetch_insn *end;
	const char *text;
};

/* Move to the next instruction, which must be free; false (and
 * TOO_MANY_OPS at offs) if the program is full. */
static bool next_insn(struct prog *p, struct probe_log *log, int offs)
{
	if (p->code + 1 >= p->end) {
		probe_log_err(log, offs, PROBE_ERR_TOO_MANY_OPS);
		return false;
	}
	p->code++;
	return true;
}

/* A decimal number that is the whole of s, at most max. */
static bool parse_decimal(const char *s, uint64_t max, uint64_t *out)
{
	if (!is_digit(*s))
		return false;
	for (const char *c = s; *c; c++)
		if (!is_digit(*c))
			return false;
	return parse_unsigned(s, max, out) == 0;
}

/* "$NAME": the thread's name, the stack, the return value, an argument. */
static int parse_var(const char *name, struct fetch_insn *code, unsigned int flags, int offs,
		     struct probe_log *log)
{
	uint64_t n;

	if (!strcmp(name, "retval")) {
		if (!(flags & TPARG_FL_RETURN)) {
			probe_log_err(log, offs, PROBE_ERR_RETVAL_ON_PROBE);
			return -EINVAL;
		}
		code->op = FETCH_OP_RETVAL;
		return 0;
	}
	if (!strcmp(name, "comm") || !strcmp(name, "COMM")) {
		code->op = FETCH_OP_COMM;
		return 0;
	}
	if (!strcmp(name, "stack")) {
		code->op = FETCH_OP_STACKP;
		return 0;
	}
	if (!strncmp(name, "stack", 5) && is_digit(name[5])) {
		if (!parse_decimal(name + 5, UINT32_MAX, &n))
			goto bad_var;
		if (n > PARAM_MAX_STACK) {
			probe_log_err(log, offs, PROBE_ERR_BAD_STACK_NUM);
			return -EINVAL;
		}
		code->op = FETCH_OP_STACK;
		code->param = (uint32_t)n;
		return 0;
	}
	/* $argN reads the registers the calling convention passes arguments
	 * in: only at a function's first instruction do they hold them. */
	if (!strncmp(name, "arg", 3) && (flags & (TPARG_FL_FENTRY | TPARG_FL_RETURN)) ==
	    TPARG_FL_FENTRY) {
		if (!parse_decimal(name + 3, UINT32_MAX, &n))
			goto bad_var;
		if (n == 0 || n > PARAM_MAX_STACK) {
			probe_log_err(log, offs, PROBE_ERR_BAD_ARG_NUM);
			return -EINVAL;
		}
		code->op = FETCH_OP_ARG;
		code->param = (uint32_t)n - 1;
		return 0;
	}
bad_var:
	probe_log_err(log, offs, PROBE_ERR_BAD_VAR);
	return -EINVAL;
}

/* "@ADDR" or "@SYM[+|-OFFS]": the word at an address. */
static int parse_memory(char *arg, struct prog *p, const struct probe_parse_env *env, int offs,
			struct probe_log *log)
{
	uint64_t addr;

	if (is_digit(arg[0])) {
		if (parse_unsigned(arg, UINT64_MAX, &addr) < 0) {
			probe_log_err(log, offs, PROBE_ERR_BAD_MEM_ADDR);
			return -EINVAL;
		}
	} else if (arg[0] == '+') {
		/* A file offset: an uprobe's, which has a file. */
		probe_log_err(log, offs, PROBE_ERR_FILE_ON_KPROBE);
		return -EINVAL;
	} else {
		char *sign = arg;
		int64_t delta = 0;

		while (*sign && *sign != '+' && *sign != '-')
			sign++;
		if (!*sign)
			sign = NULL;
		if (sign) {
			if (parse_signed(sign + (*sign == '+'), INT64_MAX, &delta) < 0 ||
			    (*sign == '+' && sign[1] == '-')) {
				probe_log_err(log, offs, PROBE_ERR_BAD_MEM_ADDR);
				return -EINVAL;
			}
			*sign = '\0';
		}
		if (!*arg || !env->symbol_addr || env->symbol_addr(arg, &addr) < 0) {
			probe_log_err(log, offs, PROBE_ERR_BAD_MEM_ADDR);
			return -EINVAL;
		}
		addr += (uint64_t)delta;
	}
	p->code->op = FETCH_OP_IMM;
	p->code->imm = addr;
	if (!next_insn(p, log, offs))
		return -EINVAL;
	p->code->op = FETCH_OP_DEREF;
	p->code->offset = 0;
	return 0;
}

static int parse_fetch(char *arg, struct prog *p, unsigned int flags,
		       const struct probe_parse_env *env, int offs, struct probe_log *log);

/* "+|-OFFS(FETCHARG)": the word at OFFS from what FETCHARG fetches. */
static int parse_deref(char *arg, struct prog *p, unsigned int flags,
		       const struct probe_parse_env *env, int offs, struct probe_log *log)
{
	char *open, *close;
	int64_t offset;
	int inner, err;

	if (arg[1] == 'u') {
		probe_log_err(log, offs, PROBE_ERR_NO_USER_FETCH);
		return -EINVAL;
	}
	open = strchr(arg, '(');
	if (!open) {
		probe_log_err(log, offs, PROBE_ERR_DEREF_NEED_BRACE);
		return -EINVAL;
	}
	*open = '\0';
	if (parse_signed(arg + (arg[0] == '+'), INT64_MAX, &offset) < 0 ||
	    (arg[0] == '+' && arg[1] == '-')) {
		probe_log_err(log, offs, PROBE_ERR_BAD_DEREF_OFFS);
		return -EINVAL;
	}
	inner = offs + (int)(open + 1 - arg);
	arg = open + 1;
	close = strrchr(arg, ')');
	if (!close) {
		probe_log_err(log, inner + (int)strlen(arg), PROBE_ERR_DEREF_OPEN_BRACE);
		return -EINVAL;
	}
	if (close[1] != '\0') {
		/* Linux 6.1 ignores what follows the brace; its selftests
		 * expect "+0(%ax)+10" refused, and it is. */
		probe_log_err(log, inner + (int)(close + 1 - arg), PROBE_ERR_BAD_FETCH_ARG);
		return -EINVAL;
	}
	*close = '\0';
	err = parse_fetch(arg, p, flags, env, inner, log);
	if (err)
		return err;
	if (p->code->op == FETCH_OP_COMM || p->code->op == FETCH_OP_DATA) {
		probe_log_err(log, inner, PROBE_ERR_COMM_CANT_DEREF);
		return -EINVAL;
	}
	if (!next_insn(p, log, inner))
		return -EINVAL;
	p->code->op = FETCH_OP_DEREF;
	p->code->offset = offset;
	return 0;
}

/* "\IMM" or "\"STRING\"": a value written in the definition. */
static int parse_immediate(char *arg, struct prog *p, int offs, struct probe_log *log)
{
	struct fetch_insn *code = p->code;
	int64_t v;
	uint64_t u;

	if (arg[1] == '"') {
		size_t len = strlen(arg + 2);

		if (len == 0 || arg[2 + len - 1] != '"') {
			probe_log_err(log, offs + 2 + (int)len, PROBE_ERR_IMMSTR_NO_CLOSE);
			return -EINVAL;
		}
		code->op = FETCH_OP_DATA;
		code->param = (uint32_t)(arg + 2 - p->text);
		code->imm = len - 1;
		return 0;
	}
	if (is_digit(arg[1]) && parse_unsigned(arg + 1, UINT64_MAX, &u) == 0) {
		code->imm = u;
	} else if ((arg[1] == '-' || arg[1] == '+') && arg[2] != '-' &&
		   parse_signed(arg + 1 + (arg[1] == '+'), INT64_MAX, &v) == 0) {
		code->imm = (uint64_t)v;
	} else {
		probe_log_err(log, offs + 1, PROBE_ERR_BAD_IMM);
		return -EINVAL;
	}
	code->op = FETCH_OP_IMM;
	return 0;
}

/* A fetch: its base, and a dereference around it for each "+OFFS(...)"
 * and "@", written from p->code on (p->code ends at the last). */
static int parse_fetch(char *arg, struct prog *p, unsigned int flags,
		       const struct probe_parse_env *env, int offs, struct probe_log *log)
{
	int err = 0, reg;

	switch (arg[0]) {
	case '$':
		err = parse_var(arg + 1, p->code, flags, offs, log);
		break;
	case '%':
		reg = probe_reg_offset(env->regs, arg + 1);
		if (reg < 0) {
			probe_log_err(log, offs, PROBE_ERR_BAD_REG_NAME);
			return -EINVAL;
		}
		p->code->op = FETCH_OP_REG;
		p->code->param = (uint32_t)reg;
		break;
	case '@':
		err = parse_memory(arg + 1, p, env, offs, log);
		break;
	case '+':
	case '-':
		err = parse_deref(arg, p, flags, env, offs, log);
		break;
	case '\\':
		err = parse_immediate(arg, p, offs, log);
		break;
	}
	if (!err && p->code->op == FETCH_OP_NOP) {
		probe_log_err(log, offs, PROBE_ERR_BAD_FETCH_ARG);
		err = -EINVAL;
	}
	return err;
}

/* ":TYPE[N]": cut the array's brackets off type (the text after the
 * ':', at offset type_offs) and read N into *count. */
static int parse_array(char *type, int type_offs, uint8_t *count, struct probe_log *log)
{
	char *open = strchr(type, '['), *close;
	uint64_t n;

	*count = 0;
	if (!open)
		return 0;
	*open++ = '\0';
	close = strchr(open, ']');
	if (!close) {
		probe_log_err(log, type_offs + (int)(open + strlen(open) - type),
			      PROBE_ERR_ARRAY_NO_CLOSE);
		return -EINVAL;
	}
	if (close[1] != '\0') {
		probe_log_err(log, type_offs + (int)(close + 1 - type), PROBE_ERR_BAD_ARRAY_SUFFIX);
		return -EINVAL;
	}
	*close = '\0';
	if (parse_unsigned(open, UINT32_MAX, &n) < 0 || n == 0) {
		probe_log_err(log, type_offs + (int)(open - type), PROBE_ERR_BAD_ARRAY_NUM);
		return -EINVAL;
	}
	if (n > MAX_ARRAY_LEN) {
		probe_log_err(log, type_offs + (int)(open - type), PROBE_ERR_ARRAY_TOO_BIG);
		return -EINVAL;
	}
	*count = (uint8_t)n;
	return 0;
}

/* The bitfield "b<width>@<offset>/<container>" as its modifier: the
 * value shifted so that its width bits land at the top of the
 * container, then down to the bottom. -EINVAL if it is malformed or
 * does not fit the container. */
static int add_bitfield(const char *bf, const struct fetch_type *t, struct prog *p)
{
	unsigned int bits = t->size * 8;
	uint64_t width = 0, at = 0;
	const char *c = bf + 1;

	if (!is_digit(*c))
		return -EINVAL;
	for (; is_digit(*c) && width <= 64; c++)
		width = width * 10 + (uint64_t)(*c - '0');
	if (width == 0 || *c != '@' || !is_digit(c[1]))
		return -EINVAL;
	for (c++; is_digit(*c) && at <= 64; c++)
		at = at * 10 + (uint64_t)(*c - '0');
	if (*c != '/' || width + at > bits || p->code + 1 >= p->end)
		return -EINVAL;
	p->code++;
	p->code->op = FETCH_OP_MOD_BF;
	p->code->lshift = (uint8_t)(bits - (width + at));
	p->code->rshift = (uint8_t)(bits - width);
	return 0;
}

/* The store that ends the fetch of arg, of type t: a string's copy, a
 * load of the type's size where the fetch ended in a dereference, or
 * the value itself. type_offs is where the type's text starts. */
static int add_store(struct probe_arg *arg, const struct fetch_type *t, struct prog *p,
		     int offs, int type_offs, struct probe_log *log)
{
	uint8_t base = p->code->op;
	bool symstr = !strcmp(t->name, "symstr");

	if (!t->is_string) {
		if (base == FETCH_OP_DEREF) {
			p->code->op = FETCH_OP_ST_MEM;
		} else {
			if (!next_insn(p, log, offs))
				return -EINVAL;
			p->code->op = FETCH_OP_ST_RAW;
		}
		p->code->size = t->size;
		return 0;
	}
	if (symstr ? !(base == FETCH_OP_REG || base == FETCH_OP_STACK || base == FETCH_OP_RETVAL ||
		       base == FETCH_OP_ARG || base == FETCH_OP_DEREF)
		   : !(base == FETCH_OP_DEREF || base == FETCH_OP_IMM || base == FETCH_OP_COMM ||
		       base == FETCH_OP_DATA)) {
		probe_log_err(log, type_offs, symstr ? PROBE_ERR_BAD_SYMSTRING : PROBE_ERR_BAD_STRING);
		return -EINVAL;
	}
	/* The string's address is the value itself (an immediate, the
	 * name, a symbol's value) or, for an array, each element's word;
	 * else the last dereference's address is it, and the store takes
	 * the dereference's place. */
	if (symstr || base == FETCH_OP_IMM || base == FETCH_OP_COMM || base == FETCH_OP_DATA ||
	    arg->count) {
		if (!next_insn(p, log, offs))
			return -EINVAL;
		p->code->offset = 0;
	}
	p->code->op = symstr ? FETCH_OP_ST_SYMSTR : FETCH_OP_ST_STRING;
	p->code->size = t->size;
	arg->dynamic = true;
	return 0;
}

/* Whether name is taken: by a field every event has, or an argument
 * before it. */
static bool name_used(const char *name, const struct probe_arg *args, int n)
{
	for (size_t i = 0; i < ARRAY_SIZE(reserved_names); i++)
		if (!strcmp(reserved_names[i], name))
			return true;
	for (int i = 0; i < n; i++)
		if (!strcmp(args[i].name, name))
			return true;
	return false;
}

/* Step 1: NAME=, or the name argN. The offset of the body in text. */
static int parse_arg_name(struct probe_arg *args, int i, const char *text, struct probe_log *log)
{
	const char *eq = strchr(text, '=');
	struct probe_arg *arg = &args[i];
	size_t len = eq ? (size_t)(eq - text) : 0;

	if (len > MAX_ARG_NAME_LEN) {
		probe_log_err(log, 0, PROBE_ERR_ARG_NAME_TOO_LONG);
		return -EINVAL;
	}
	if (eq && len == 0) {
		probe_log_err(log, 0, PROBE_ERR_NO_ARG_NAME);
		return -EINVAL;
	}
	if (eq) {
		memcpy(arg->name, text, len);
		arg->name[len] = '\0';
	} else {
		snprintf(arg->name, sizeof(arg->name), "arg%d", i + 1);
	}
	if (!trace_probe_good_name(arg->name)) {
		probe_log_err(log, 0, PROBE_ERR_BAD_ARG_NAME);
		return -EINVAL;
	}
	if (name_used(arg->name, args, i)) {
		probe_log_err(log, 0, PROBE_ERR_USED_ARG_NAME);
		return -EINVAL;
	}
	return eq ? (int)len + 1 : 0;
}

/* Step 2: the type, from the text after the first ':' of the copy
 * (NULL: none). $comm and immediate strings are strings whatever is
 * written, and only strings. */
static const struct fetch_type *arg_type(const char *fetch, const char *type,
					 const struct probe_arg *arg, int type_offs,
					 struct probe_log *log)
{
	const struct fetch_type *t;

	if (!strcmp(fetch, "$comm") || !strcmp(fetch, "$COMM") || !strncmp(fetch, "\\\"", 2)) {
		if (arg->count || (type && strcmp(type, "string"))) {
			probe_log_err(log, type_offs, PROBE_ERR_BAD_TYPE);
			return NULL;
		}
		return find_fetch_type("string");
	}
	t = find_fetch_type(type);
	if (!t)
		probe_log_err(log, type_offs, PROBE_ERR_BAD_TYPE);
	else if (t->is_user)
		probe_log_err(log, type_offs, PROBE_ERR_NO_USER_FETCH);
	return t && !t->is_user ? t : NULL;
}

int trace_probe_parse_arg(struct probe_arg *args, int i, const char *text, unsigned int flags,
			  size_t *size, const struct probe_parse_env *env, struct probe_log *log)
{
	struct probe_arg *arg = &args[i];
	char buf[MAX_ARGSTR_LEN + 1], *type;
	struct prog p = { .code = arg->code, .end = &arg->code[FETCH_INSN_MAX - 1], .text = buf };
	int offs, type_offs;
	size_t len;

	memset(arg, 0, sizeof(*arg));
	offs = parse_arg_name(args, i, text, log);
	if (offs < 0)
		return offs;
	len = strlen(text + offs);
	if (len > MAX_ARGSTR_LEN) {
		probe_log_err(log, offs, PROBE_ERR_ARG_TOO_LONG);
		return -EINVAL;
	}
	if (len == 0) {
		probe_log_err(log, offs, PROBE_ERR_NO_ARG_BODY);
		return -EINVAL;
	}
	memcpy(arg->comm, text + offs, len + 1);
	/* The copy is cut where the comm is not; an immediate string's
	 * place in one is its place in the other. */
	memcpy(buf, arg->comm, len + 1);

	type = strchr(buf, ':');
	type_offs = offs;
	if (type) {
		*type++ = '\0';
		type_offs = offs + (int)(type - buf);
		if (parse_array(type, type_offs, &arg->count, log) < 0)
			return -EINVAL;
	}
	arg->type = arg_type(buf, type, arg, type_offs, log);
	if (!arg->type)
		return -EINVAL;
	arg->offset = (uint16_t)MIN(*size, UINT16_MAX);
	*size += arg->type->size * (arg->count ? arg->count : 1);
	if (*size > MAX_PROBE_EVENT_SIZE) {
		probe_log_err(log, offs, PROBE_ERR_EVENT_TOO_BIG);
		return -E2BIG;
	}

	if (parse_fetch(buf, &p, flags, env, offs, log) < 0 ||
	    add_store(arg, arg->type, &p, offs, type_offs, log) < 0)
		return -EINVAL;
	if (type && type[0] == 'b' && add_bitfield(type, arg->type, &p) < 0) {
		probe_log_err(log, type_offs, PROBE_ERR_BAD_BITFIELD);
		return -EINVAL;
	}
	if (arg->count) {
		uint8_t store = 0;

		for (struct fetch_insn *c = arg->code; c <= p.code; c++)
			if (c->op >= FETCH_OP_ST_RAW && c->op <= FETCH_OP_ST_SYMSTR)
				store = c->op;
		if (store != FETCH_OP_ST_MEM && store != FETCH_OP_ST_STRING) {
			probe_log_err(log, type_offs, PROBE_ERR_BAD_STRING);
			return -EINVAL;
		}
		if (!next_insn(&p, log, offs))
			return -EINVAL;
		p.code->op = FETCH_OP_LP_ARRAY;
		p.code->param = arg->count;
	}
	p.code[1].op = FETCH_OP_END;
	return 0;
}

int probe_reg_offset(const struct probe_reg *regs, const char *name)
{
	for (; regs->name; regs++)
		if (!strcmp(regs->name, name))
			return regs->offset;
	return -EINVAL;
}
