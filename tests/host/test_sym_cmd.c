/* Host tests for the `sym` shell command (kernel/shell/sym_cmd.c).
 *
 * The command function is static, so the file is included here whole;
 * cmd_printf and cmd_eprintf are replaced by versions that record the
 * output (errors marked, to see which stream a line took), and the
 * kernel's symbol table by a small synthetic one. The usage line comes
 * from the command's own SHELL_COMMAND() record, through the kernel's
 * kernel/command_usage.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "kernel/command_usage.c"
#include "kernel/shell/sym_cmd.c"
#include "lib/format.h"

static const char names[] = "Tvfs_read\0bbuffer\0Tentry";

static const struct symtab_entry entries[] = {
	{ 0xffffffff80105000ul, 0, 19 },	/* entry */
	{ 0xffffffff80105a20ul, 0x9a, 1 },	/* vfs_read */
	{ 0xffffffff80200000ul, 0x1000, 11 },	/* buffer */
};

const struct symtab kernel_symtab = { entries, ARRAY_SIZE(entries), names };

static char output[512];
static size_t output_len;

/* A line on standard error is recorded after "2>". */
static ssize_t host_output(bool error, const char *buf, size_t len)
{
	output_len += (size_t)snprintf(output + output_len, sizeof(output) - output_len, "%s%.*s",
				       error ? "2>" : "", (int)len, buf);
	return (ssize_t)len;
}
#include "tests/host/cmd_output_host.c"

const struct shell_command *shell_find_command(const char *name)
{
	return strcmp(name, "sym") == 0 ? &shell_cmd_sym_cmd : NULL;
}

/* Run "sym ARGS..." and return what it printed. */
static const char *run(int argc, const char *arg1, const char *arg2)
{
	char *argv[] = { "sym", (char *)arg1, (char *)arg2, NULL };

	output_len = 0;
	output[0] = '\0';
	sym_cmd(argc, argv);
	return output;
}

static void test_by_name(void **state)
{
	(void)state;
	assert_string_equal(run(2, "vfs_read", NULL),
			    "vfs_read 0xffffffff80105a20 size 0x9a text\n");
	assert_string_equal(run(2, "buffer", NULL),
			    "buffer 0xffffffff80200000 size 0x1000 data\n");
	assert_string_equal(run(2, "entry", NULL),
			    "entry 0xffffffff80105000 size 0x0 text\n");
}

static void test_by_address(void **state)
{
	(void)state;
	assert_string_equal(run(2, "0xffffffff80105a25", NULL),
			    "vfs_read+0x5/0x9a\n");
	assert_string_equal(run(2, "0xFFFFFFFF80105A20", NULL),
			    "vfs_read+0x0/0x9a\n");
	assert_string_equal(run(2, "0xffffffff80200fff", NULL),
			    "buffer+0xfff/0x1000\n");
	/* entry has size 0, so it reaches up to vfs_read. */
	assert_string_equal(run(2, "0xffffffff80105010", NULL),
			    "entry+0x10/0x0\n");
}

static void test_errors(void **state)
{
	(void)state;
	assert_string_equal(run(2, "nosuch", NULL), "2>sym: no symbol 'nosuch'\n");
	assert_string_equal(run(2, "0x1234", NULL), "2>sym: no symbol at 0x1234\n");
	assert_string_equal(run(2, "0xffffffff80201000", NULL),
			    "2>sym: no symbol at 0xffffffff80201000\n");
	assert_string_equal(run(1, NULL, NULL), "2>sym: usage: sym NAME|ADDRESS\n");
	assert_string_equal(run(3, "a", "b"), "2>sym: usage: sym NAME|ADDRESS\n");
	assert_string_equal(run(2, "0x", NULL), "2>sym: usage: sym NAME|ADDRESS\n");
	assert_string_equal(run(2, "0xzz", NULL), "2>sym: usage: sym NAME|ADDRESS\n");
	/* A number too big for an address says so, as every command does. */
	assert_string_equal(run(2, "0x10000000000000000", NULL),
			    "2>sym: address 0x10000000000000000 is out of range"
			    " (at most 0xffffffffffffffff)\n");
}

static void test_registered(void **state)
{
	(void)state;
	assert_string_equal(shell_cmd_sym_cmd.name, "sym");
	assert_ptr_equal(shell_cmd_sym_cmd.run, sym_cmd);
	assert_non_null(shell_cmd_sym_cmd.help);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_name),
		cmocka_unit_test(test_by_address),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_registered),
	};

	return cmocka_run_group_tests_name("sym_cmd", tests, NULL, NULL);
}
