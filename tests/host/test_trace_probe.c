/* Host tests for probe event definitions: the parser of kprobe_events
 * lines and their arguments (kernel/trace/kprobe_event_parse.c,
 * trace_probe.c), the refusals and their places (probe_log.c), the
 * types' printing (probe_types.c) and the fetch programs run at a hit
 * (probe_fetch.c).
 *
 * The refusals are those of Linux 6.1's selftests,
 * tools/testing/selftests/ftrace/test.d/kprobe/kprobe_syntax_errors.tc
 * (each written with a '^' where error_log's caret must be) and
 * kprobe_args_syntax.tc (good and bad arguments, on both architectures'
 * registers). The kernel's services are stood in for by
 * tests/host/probe_event_host.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "kernel/mm/nofault.h"
#include "kernel/trace/kprobe_event_parse.h"
#include "kernel/trace/probe_fetch.h"
#include "tests/host/probe_event_host.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

/* aarch64's table, built from arch/aarch64/probe_regs.c under this name
 * (tests/host/host.mk). */
extern const struct probe_reg aarch64_probe_regs[];

/* ---- Parsing a line ---- */

#define MAX_WORDS 260

/* A line cut into words at its spaces, as kprobe_events cuts it. */
struct words {
	char text[4096];
	const char *argv[MAX_WORDS];
	int argc;
};

static void split(struct words *w, const char *line)
{
	char *p;

	snprintf(w->text, sizeof(w->text), "%s", line);
	w->argc = 0;
	for (p = w->text; *p;) {
		while (*p == ' ')
			*p++ = '\0';
		if (!*p)
			break;
		assert_true(w->argc < MAX_WORDS);
		w->argv[w->argc++] = p;
		while (*p && *p != ' ')
			p++;
	}
}

static struct probe_arg args[MAX_TRACE_ARGS];

static int parse_with(const struct probe_reg *regs, const char *line, struct kprobe_event_def *def,
		      struct probe_log *log)
{
	static struct words w;
	struct kprobe_parse_env env = probe_host_env(regs);

	split(&w, line);
	def->args = args;
	return kprobe_event_parse(w.argc, w.argv, def, &env, log);
}

static int parse(const char *line, struct kprobe_event_def *def, struct probe_log *log)
{
	return parse_with(arch_probe_regs, line, def, log);
}

/* ---- kprobe_syntax_errors.tc ---- */

static const struct {
	const char *line;	/* the '^' where the caret goes */
	enum probe_error err;
} syntax_errors[] = {
	{ "p^100 vfs_read", PROBE_ERR_MAXACT_NO_KPROBE },
	{ "r^1a111 vfs_read", PROBE_ERR_BAD_MAXACT },
	{ "r^100000 vfs_read", PROBE_ERR_MAXACT_TOO_BIG },
	{ "p ^non_exist_func", PROBE_ERR_BAD_PROBE_ADDR },
	{ "p ^hoge-fuga", PROBE_ERR_BAD_PROBE_ADDR },
	{ "p ^hoge+1000-1000", PROBE_ERR_BAD_PROBE_ADDR },
	{ "r ^vfs_read+10", PROBE_ERR_BAD_RETPROBE },
	{ "p:^/bar vfs_read", PROBE_ERR_NO_GROUP_NAME },
	{ "p:^12345678901234567890123456789012345678901234567890123456789012345/bar vfs_read",
	  PROBE_ERR_GROUP_TOO_LONG },
	{ "p:^foo.1/bar vfs_read", PROBE_ERR_BAD_GROUP_NAME },
	{ "p:^ vfs_read", PROBE_ERR_NO_EVENT_NAME },
	{ "p:foo/^12345678901234567890123456789012345678901234567890123456789012345 vfs_read",
	  PROBE_ERR_EVENT_TOO_LONG },
	{ "p:foo/^bar.1 vfs_read", PROBE_ERR_BAD_EVENT_NAME },
	{ "p vfs_read ^$retval", PROBE_ERR_RETVAL_ON_PROBE },
	{ "p vfs_read ^$stack10000", PROBE_ERR_BAD_STACK_NUM },
	{ "p vfs_read ^$arg10000", PROBE_ERR_BAD_ARG_NUM },
	{ "p vfs_read ^$none_var", PROBE_ERR_BAD_VAR },
	{ "p vfs_read ^%none_reg", PROBE_ERR_BAD_REG_NAME },
	{ "p vfs_read ^@12345678abcde", PROBE_ERR_BAD_MEM_ADDR },
	{ "p vfs_read ^@+10", PROBE_ERR_FILE_ON_KPROBE },
	{ "p vfs_read arg1=\\^x", PROBE_ERR_BAD_IMM },
	{ "p vfs_read arg1=\\\"abcd^", PROBE_ERR_IMMSTR_NO_CLOSE },
	{ "p vfs_read ^+0@0)", PROBE_ERR_DEREF_NEED_BRACE },
	{ "p vfs_read ^+0ab1(@0)", PROBE_ERR_BAD_DEREF_OFFS },
	{ "p vfs_read +0(+0(@0^)", PROBE_ERR_DEREF_OPEN_BRACE },
	{ "p vfs_read +0(^$comm)", PROBE_ERR_COMM_CANT_DEREF },
	{ "p vfs_read ^&1", PROBE_ERR_BAD_FETCH_ARG },
	{ "p vfs_read +0(^+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(@0))))))))))))))",
	  PROBE_ERR_TOO_MANY_OPS },
	{ "p vfs_read +0(@11):u8[10^", PROBE_ERR_ARRAY_NO_CLOSE },
	{ "p vfs_read +0(@11):u8[10]^a", PROBE_ERR_BAD_ARRAY_SUFFIX },
	{ "p vfs_read +0(@11):u8[^10a]", PROBE_ERR_BAD_ARRAY_NUM },
	{ "p vfs_read +0(@11):u8[^256]", PROBE_ERR_ARRAY_TOO_BIG },
	{ "p vfs_read @11:^unknown_type", PROBE_ERR_BAD_TYPE },
	{ "p vfs_read $stack0:^string", PROBE_ERR_BAD_STRING },
	{ "p vfs_read @11:^b10@a/16", PROBE_ERR_BAD_BITFIELD },
	{ "p vfs_read ^arg123456789012345678901234567890=@11", PROBE_ERR_ARG_NAME_TOO_LONG },
	{ "p vfs_read ^=@11", PROBE_ERR_NO_ARG_NAME },
	{ "p vfs_read ^var.1=@11", PROBE_ERR_BAD_ARG_NAME },
	{ "p vfs_read var1=@11 ^var1=@12", PROBE_ERR_USED_ARG_NAME },
	{ "p vfs_read ^+1234567(+1234567(+1234567(+1234567(+1234567(+1234567(@1234))))))",
	  PROBE_ERR_ARG_TOO_LONG },
	{ "p vfs_read arg1=^", PROBE_ERR_NO_ARG_BODY },
	{ "p vfs_read^%hoge", PROBE_ERR_BAD_ADDR_SUFFIX },
	{ "p ^vfs_read+10%return", PROBE_ERR_BAD_RETPROBE },
	/* ProbeOS's own: there is no user space to read. */
	{ "p vfs_read ^+u0(%ax)", PROBE_ERR_NO_USER_FETCH },
	{ "p vfs_read +0(%ax):^ustring", PROBE_ERR_NO_USER_FETCH },
	{ "p ^twice", PROBE_ERR_NON_UNIQ_SYMBOL },
	{ "r vfs_read ^$arg1", PROBE_ERR_BAD_VAR },
	{ "p vfs_read+4 ^$arg1", PROBE_ERR_BAD_VAR },
};

static void test_syntax_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(syntax_errors); i++) {
		char line[512];
		const char *caret = strchr(syntax_errors[i].line, '^');
		size_t pos = (size_t)(caret - syntax_errors[i].line);
		struct kprobe_event_def def;
		struct probe_log log;
		int err;

		snprintf(line, sizeof(line), "%.*s%s", (int)pos, syntax_errors[i].line, caret + 1);
		err = parse(line, &def, &log);
		if (err >= 0 || log.err != syntax_errors[i].err || probe_log_pos(&log) != (int)pos)
			print_error("%s: %d, error %d (%s) at %d\n", syntax_errors[i].line, err,
				    log.err, probe_error_text(log.err), probe_log_pos(&log));
		assert_true(err < 0);
		assert_int_equal(log.err, syntax_errors[i].err);
		assert_int_equal(probe_log_pos(&log), (int)pos);
	}
}

/* The errnos, beside the messages: Linux's for each kind of refusal. */
static void test_errnos(void **state)
{
	struct kprobe_event_def def;
	struct probe_log log;
	char line[4200];
	size_t n;

	(void)state;
	assert_int_equal(parse("p non_exist_func", &def, &log), -ENOENT);
	assert_int_equal(parse("p twice", &def, &log), -EADDRNOTAVAIL);
	assert_int_equal(parse("p vfs_read $retval", &def, &log), -EINVAL);
	assert_int_equal(parse("x vfs_read", &def, &log), -ECANCELED);
	assert_int_equal(parse("p", &def, &log), -ECANCELED);
	assert_int_equal(parse("pfoo vfs_read", &def, &log), -ECANCELED);
	assert_int_equal(parse("p /bin/sh:0x100", &def, &log), -ECANCELED);
	/* 3,072 bytes of fields at most: the 97th array of four u64s is
	 * one too many. */
	n = (size_t)snprintf(line, sizeof(line), "p vfs_read");
	for (int i = 0; i < 100; i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " +0(%%ax):u64[4]");
	assert_int_equal(parse(line, &def, &log), -E2BIG);
	assert_int_equal(log.err, PROBE_ERR_EVENT_TOO_BIG);
	assert_int_equal(log.err_index, 2 + 96);
}

/* Arguments past the 128th are not read, as Linux does not read them;
 * a 4,000-character line is read whole. */
static void test_long_lines(void **state)
{
	struct kprobe_event_def def;
	struct probe_log log;
	char line[4200];
	size_t n;

	(void)state;
	n = (size_t)snprintf(line, sizeof(line), "p vfs_read");
	for (int i = 0; i < 200; i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %%ax:u8");
	assert_true(n >= 1400);
	assert_int_equal(parse(line, &def, &log), 0);
	assert_int_equal(def.nr_args, MAX_TRACE_ARGS);
	assert_int_equal(def.size, MAX_TRACE_ARGS);

	n = (size_t)snprintf(line, sizeof(line), "p vfs_read ");
	while (n < 4000)
		line[n++] = 'x';
	line[n] = '\0';
	assert_int_equal(parse(line, &def, &log), -EINVAL);
	assert_int_equal(log.err, PROBE_ERR_ARG_TOO_LONG);
}

/* ---- kprobe_args_syntax.tc, on each architecture ---- */

static void check_args(const struct probe_reg *regs, const char *good_reg, const char *bad_reg)
{
	const char *good[] = {
		"%GOOD", "@_sdata", "@0xffffffff82000000", "@_sdata+10", "@_sdata-10",
		"$stack", "$stack0", "$stack1", "$comm",
		"+0(%GOOD)", "-0(%GOOD)", "+10($stack)", "+0($stack1)", "+10(@_sdata-10)",
		"+0(+10(+20($stack)))", "varname=%GOOD", "%GOOD:x16", "$comm:string",
		"+0($stack):string",
	};
	const char *bad[] = {
		"%BAD", "@", "@deaqswdefr", "@_sdata*10", "@_sdata/10", "@_sdata%10", "@_sdata&10",
		"@_sdata|10", "$stackp", "$stack0+10", "$stack1-10",
		"+(%GOOD)", "(%GOOD+10)", "-(%GOOD)", "(%GOOD)", "+10($comm)", "+0(%GOOD)+10",
		"varname=varname2=%GOOD", "%GOOD::x16", "%GOOD:y16", "x16:%GOOD",
		"$comm:x64", "$stack:string", "%GOOD:string",
	};
	struct kprobe_event_def def;
	struct probe_log log;

	for (size_t i = 0; i < ARRAY_SIZE(good) + ARRAY_SIZE(bad); i++) {
		bool is_good = i < ARRAY_SIZE(good);
		const char *arg = is_good ? good[i] : bad[i - ARRAY_SIZE(good)];
		char text[64], line[128];
		const char *p = arg;
		size_t n = 0;

		/* %GOOD and %BAD: the architecture's registers. */
		while (*p && n + 8 < sizeof(text)) {
			if (!strncmp(p, "GOOD", 4) || !strncmp(p, "BAD", 3)) {
				const char *reg = p[0] == 'G' ? good_reg : bad_reg;

				n += (size_t)snprintf(text + n, sizeof(text) - n, "%s", reg);
				p += p[0] == 'G' ? 4 : 3;
			} else {
				text[n++] = *p++;
			}
		}
		text[n] = '\0';
		snprintf(line, sizeof(line), "p vfs_read %s", text);
		if ((parse_with(regs, line, &def, &log) == 0) != is_good)
			print_error("%s: expected %s, got error %d (%s)\n", line,
				    is_good ? "good" : "bad", log.err, probe_error_text(log.err));
		assert_int_equal(parse_with(regs, line, &def, &log) == 0, is_good);
	}
	assert_int_equal(parse_with(regs, "r vfs_read $retval", &def, &log), 0);
	assert_int_not_equal(parse_with(regs, "p vfs_read $retval", &def, &log), 0);
}

static void test_args_x86_64(void **state)
{
	(void)state;
	check_args(arch_probe_regs, "ax", "ex");
	check_args(arch_probe_regs, "orig_ax", "ds");
}

static void test_args_aarch64(void **state)
{
	(void)state;
	check_args(aarch64_probe_regs, "x0", "ax");
	check_args(aarch64_probe_regs, "lr", "x31");
}

/* ---- What a definition compiles to, and how it reads back ---- */

static const struct probe_arg *parse_one(const char *line)
{
	struct kprobe_event_def def;
	struct probe_log log;

	if (parse(line, &def, &log) != 0)
		print_error("%s: error %d (%s)\n", line, log.err, probe_error_text(log.err));
	assert_int_equal(parse(line, &def, &log), 0);
	assert_int_equal(def.nr_args, 1);
	return &def.args[0];
}

static void test_programs(void **state)
{
	const struct probe_arg *a;

	(void)state;
	a = parse_one("p vfs_read +8(+0(%di)):u32");
	assert_int_equal(a->code[0].op, FETCH_OP_REG);
	assert_int_equal(a->code[0].param, offsetof(struct pt_regs, rdi));
	assert_int_equal(a->code[1].op, FETCH_OP_DEREF);
	assert_int_equal(a->code[1].offset, 0);
	assert_int_equal(a->code[2].op, FETCH_OP_ST_MEM);
	assert_int_equal(a->code[2].offset, 8);
	assert_int_equal(a->code[2].size, 4);
	assert_int_equal(a->code[3].op, FETCH_OP_END);
	assert_string_equal(a->name, "arg1");

	a = parse_one("p vfs_read count=%dx:s16");
	assert_int_equal(a->code[0].op, FETCH_OP_REG);
	assert_int_equal(a->code[0].param, offsetof(struct pt_regs, rdx));
	assert_int_equal(a->code[1].op, FETCH_OP_ST_RAW);
	assert_int_equal(a->code[1].size, 2);
	assert_int_equal(a->code[2].op, FETCH_OP_END);
	assert_string_equal(a->name, "count");
	assert_string_equal(a->type->name, "s16");

	a = parse_one("p vfs_read path=+0(%si):string");
	assert_int_equal(a->code[1].op, FETCH_OP_ST_STRING);
	assert_true(a->dynamic);

	a = parse_one("p vfs_read @_sdata+16:u64");
	assert_int_equal(a->code[0].op, FETCH_OP_IMM);
	assert_int_equal(a->code[0].imm, 0xffffffff82000010);
	assert_int_equal(a->code[1].op, FETCH_OP_ST_MEM);

	a = parse_one("p vfs_read flag=+4(%di):b3@2/32");
	assert_int_equal(a->code[1].op, FETCH_OP_ST_MEM);
	assert_int_equal(a->code[2].op, FETCH_OP_MOD_BF);
	assert_int_equal(a->code[2].lshift, 32 - 5);
	assert_int_equal(a->code[2].rshift, 32 - 3);

	a = parse_one("p vfs_read +0(%di):u8[4]");
	assert_int_equal(a->code[2].op, FETCH_OP_LP_ARRAY);
	assert_int_equal(a->code[2].param, 4);
	assert_int_equal(a->count, 4);

	a = parse_one("p vfs_read $arg1:symstr");
	assert_int_equal(a->code[0].op, FETCH_OP_ARG);
	assert_int_equal(a->code[0].param, 0);
	assert_int_equal(a->code[1].op, FETCH_OP_ST_SYMSTR);
}

static void show(const char *line, const char *expected)
{
	struct kprobe_event_def def;
	struct probe_log log;
	char buf[512];

	assert_int_equal(parse(line, &def, &log), 0);
	assert_int_equal(kprobe_event_show(&def, buf, sizeof(buf)), strlen(expected));
	assert_string_equal(buf, expected);
}

static void test_show(void **state)
{
	(void)state;
	show("p:myread vfs_read count=%dx:u64", "p:kprobes/myread vfs_read count=%dx:u64");
	show("p vfs_read", "p:kprobes/p_vfs_read_0 vfs_read");
	show("r vfs_read $retval", "r:kprobes/r_vfs_read_0 vfs_read arg1=$retval");
	show("p vfs_read%return", "r:kprobes/r_vfs_read_0 vfs_read");
	show("r16:g/e vfs_read", "r16:g/e vfs_read");
	show("p vfs_read+8 %ax", "p:kprobes/p_vfs_read_8 vfs_read+8 arg1=%ax");
	show("p:grp/ vfs_read", "p:grp/p_vfs_read_0 vfs_read");
	show("p 0x1000", "p:kprobes/p_0x1000 0x1000");
	show("p mod_a:func_b", "p:kprobes/p_mod_a_func_b_0 mod_a:func_b");
	show("p:kprobes/e vfs_read s=\\\"hi\" n=\\-5", "p:kprobes/e vfs_read s=\\\"hi\" n=\\-5");
}

/* ---- The types ---- */

static const char *print_field(const char *type, const void *field, const void *base, size_t len)
{
	static char buf[128];
	const struct fetch_type *t = find_fetch_type(type);

	int n;

	assert_non_null(t);
	n = t->print(buf, sizeof(buf), field, base, len);
	assert_int_equal(n, strlen(buf));
	return buf;
}

static void test_types(void **state)
{
	uint64_t v = 0xfffffffffffffff6;	/* -10 */
	uint8_t body[32] = { 0 };
	uint32_t loc;

	(void)state;
	assert_string_equal(print_field("u8", &v, NULL, 0), "246");
	assert_string_equal(print_field("u16", &v, NULL, 0), "65526");
	assert_string_equal(print_field("u32", &v, NULL, 0), "4294967286");
	assert_string_equal(print_field("u64", &v, NULL, 0), "18446744073709551606");
	assert_string_equal(print_field("s8", &v, NULL, 0), "-10");
	assert_string_equal(print_field("s16", &v, NULL, 0), "-10");
	assert_string_equal(print_field("s32", &v, NULL, 0), "-10");
	assert_string_equal(print_field("s64", &v, NULL, 0), "-10");
	assert_string_equal(print_field("x8", &v, NULL, 0), "0xf6");
	assert_string_equal(print_field("x16", &v, NULL, 0), "0xfff6");
	assert_string_equal(print_field("x32", &v, NULL, 0), "0xfffffff6");
	assert_string_equal(print_field("x64", &v, NULL, 0), "0xfffffffffffffff6");
	v = HOST_VFS_READ;
	assert_string_equal(print_field("symbol", &v, NULL, 0), "vfs_read+0x0/0x90");
	assert_ptr_equal(find_fetch_type(NULL), find_fetch_type("x64"));
	assert_ptr_equal(find_fetch_type("b3@2/32"), find_fetch_type("u32"));
	assert_null(find_fetch_type("b3@2/24"));
	assert_null(find_fetch_type("y16"));
	assert_string_equal(find_fetch_type("symbol")->fmt, "%pS");
	assert_string_equal(find_fetch_type("string")->fmttype, "__data_loc char[]");

	memcpy(body + 8, "abc", 4);
	loc = probe_data_loc(4, 8);
	assert_string_equal(print_field("string", &loc, body, sizeof(body)), "\"abc\"");
	loc = probe_data_loc(0, 8);
	assert_string_equal(print_field("string", &loc, body, sizeof(body)), "(fault)");
	/* A word pointing past the body, or at bytes with no NUL at their
	 * end, is not followed. */
	loc = probe_data_loc(30, 8);
	assert_string_equal(print_field("string", &loc, body, sizeof(body)), "(fault)");
	loc = probe_data_loc(2, 8);
	assert_string_equal(print_field("string", &loc, body, sizeof(body)), "(fault)");
}

/* ---- Running programs ---- */

static uint8_t record[1024];

/* Run the one argument of line on regs; its field is at record + 16. */
static size_t run(const char *line, const struct pt_regs *regs, size_t room)
{
	struct kprobe_event_def def;
	struct probe_log log;
	struct probe_hit_regs hit = { .regs = regs, .comm = "shell" };

	memset(record, 0xee, sizeof(record));
	if (parse(line, &def, &log) != 0)
		print_error("%s: error %d (%s)\n", line, log.err, probe_error_text(log.err));
	assert_int_equal(parse(line, &def, &log), 0);
	return probe_fetch_args(def.args, def.nr_args, &hit, record, 16, 16 + def.size, room);
}

static uint64_t field_u64(size_t at)
{
	uint64_t v;

	memcpy(&v, record + 16 + at, sizeof(v));
	return v;
}

static const char *field_string(size_t at, size_t len)
{
	static char buf[512];
	const struct fetch_type *t = find_fetch_type("string");

	t->print(buf, sizeof(buf), record + 16 + at, record, len);
	return buf;
}

struct inode_like {
	uint64_t pad;
	uint32_t flags;
	const char *name;
	const char *names[2];
};

static void test_fetch(void **state)
{
	static uint64_t stack[16];
	struct inode_like in = { .flags = 0x2c, .name = "/etc/hostname",
				 .names = { "one", "two" } };
	static uint64_t global = 0x1122334455667788;
	struct pt_regs regs = { 0 };
	char line[128];
	size_t len;

	(void)state;
	for (int i = 0; i < 16; i++)
		stack[i] = 100 + (uint64_t)i;
	regs.rsp = (uintptr_t)stack;
	regs.rdi = (uintptr_t)&in;
	regs.rdx = 4096;
	regs.rax = (uint64_t)-22;

	run("p vfs_read count=%dx:u64", &regs, sizeof(record));
	assert_int_equal(field_u64(0), 4096);
	run("r vfs_read ret=$retval:s32", &regs, sizeof(record));
	assert_int_equal((int32_t)field_u64(0), -22);
	run("p vfs_read $stack2", &regs, sizeof(record));
	assert_int_equal(field_u64(0), 102);
	run("p vfs_read $stack", &regs, sizeof(record));
	assert_int_equal(field_u64(0), (uintptr_t)stack);
	run("p vfs_read $arg3", &regs, sizeof(record));
	assert_int_equal(field_u64(0), 4096);
	/* x86_64: argument 7 is the stack's word 1, past the return address. */
	run("p vfs_read $arg7 $arg8", &regs, sizeof(record));
	assert_int_equal(field_u64(0), 101);
	assert_int_equal(field_u64(8), 102);
	run("p vfs_read +8(%di):u32", &regs, sizeof(record));
	assert_int_equal(field_u64(0) & 0xffffffff, 0x2c);
	run("p vfs_read +8(%di):b3@2/32", &regs, sizeof(record));
	assert_int_equal(field_u64(0) & 0xffffffff, 3);	/* 0x2c = 101100: bits 2-4 */
	run("p vfs_read +0(%di):x8[4]", &regs, sizeof(record));
	assert_int_equal(field_u64(0) & 0xffffffff, 0);

	len = run("p vfs_read path=+0(+16(%di)):string", &regs, sizeof(record));
	assert_int_equal(len, 16 + 4 + sizeof("/etc/hostname"));
	assert_string_equal(field_string(0, len), "\"/etc/hostname\"");
	len = run("p vfs_read $comm", &regs, sizeof(record));
	assert_string_equal(field_string(0, len), "\"shell\"");
	/* Words are cut at spaces, so a string has none (as on Linux). */
	len = run("p vfs_read s=\\\"hi_there\"", &regs, sizeof(record));
	assert_string_equal(field_string(0, len), "\"hi_there\"");
	len = run("p vfs_read +24(%di):string[2]", &regs, sizeof(record));
	assert_string_equal(field_string(0, len), "\"one\"");
	assert_string_equal(field_string(4, len), "\"two\"");
	/* @ADDR is the memory at ADDR, so +8(@ADDR) goes through the
	 * pointer there. */
	in.pad = (uintptr_t)&in;
	snprintf(line, sizeof(line), "p vfs_read @%lu:u64 +8(@%lu):u32", (unsigned long)&global,
		 (unsigned long)&in.pad);
	run(line, &regs, sizeof(record));
	assert_int_equal(field_u64(0), 0x1122334455667788);
	assert_int_equal(field_u64(8) & 0xffffffff, 0x2c);
	regs.rsi = HOST_VFS_READ;
	len = run("p vfs_read %si:symstr", &regs, sizeof(record));
	assert_string_equal(field_string(0, len), "\"vfs_read+0x0/0x90\"");

	/* Strings cut short to fit the record. */
	len = run("p vfs_read +0(+16(%di)):string", &regs, 16 + 4 + 5);
	assert_int_equal(len, 16 + 4 + 5);
	assert_string_equal(field_string(0, len), "\"/etc\"");
}

static void test_fetch_faults(void **state)
{
	static char page[8192];
	struct pt_regs regs = { 0 };
	size_t len;

	(void)state;
	/* A string running into a page that faults, and one with no NUL
	 * for a whole page: neither is read past PROBE_STRING_MAX. */
	memset(page, 'A', sizeof(page));
	probe_host_readable(0, (uintptr_t)page + 4096);
	regs.rdi = (uintptr_t)page + 4000;
	len = run("p vfs_read +0(%di):string", &regs, sizeof(record));
	assert_string_equal(field_string(0, len), "(fault)");
	regs.rdi = (uintptr_t)page;
	len = run("p vfs_read +0(%di):string", &regs, sizeof(record));
	assert_int_equal(len, 16 + 4 + PROBE_STRING_MAX);
	assert_int_equal(strlen(field_string(0, len)), PROBE_STRING_MAX - 1 + 2);

	/* A number behind a bad pointer is 0; a string "(fault)". */
	regs.rdi = 8;
	run("p vfs_read +0(%di):u64", &regs, sizeof(record));
	assert_int_equal(field_u64(0), 0);
	len = run("p vfs_read +0(+0(%di)):string", &regs, sizeof(record));
	assert_string_equal(field_string(0, len), "(fault)");
	regs.rsp = (uintptr_t)page + 4096;
	run("p vfs_read $stack3", &regs, sizeof(record));
	assert_int_equal(field_u64(0), 0);
	probe_host_readable(0, UINTPTR_MAX);
}

/* ---- The line error_log shows ---- */

static void test_log_command(void **state)
{
	const char *argv[] = { "p", "vfs_read", "$retval" };
	struct probe_log log;
	char buf[64];

	(void)state;
	probe_log_init(&log, 3, argv);
	probe_log_set_index(&log, 2);
	probe_log_err(&log, 0, PROBE_ERR_RETVAL_ON_PROBE);
	probe_log_err(&log, 5, PROBE_ERR_BAD_VAR);	/* the first is kept */
	assert_int_equal(probe_log_command(&log, buf, sizeof(buf)), strlen("p vfs_read $retval"));
	assert_string_equal(buf, "p vfs_read $retval");
	assert_int_equal(probe_log_pos(&log), 11);
	assert_string_equal(probe_error_text(log.err), "$retval is not available on probe");
	assert_int_equal(probe_log_command(&log, buf, 5), strlen("p vfs_read $retval"));
	assert_string_equal(buf, "p vf");
	/* A word missing: the caret one past the line's end. */
	probe_log_init(&log, 3, argv);
	probe_log_set_index(&log, 3);
	probe_log_err(&log, 0, PROBE_ERR_NO_ARG_BODY);
	assert_int_equal(probe_log_pos(&log), 19);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_errnos),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_args_x86_64),
		cmocka_unit_test(test_args_aarch64),
		cmocka_unit_test(test_programs),
		cmocka_unit_test(test_show),
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_fetch),
		cmocka_unit_test(test_fetch_faults),
		cmocka_unit_test(test_log_command),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
