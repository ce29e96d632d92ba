/* Host tests for how a probe reads in a listing
 * (kernel/probes/files/probe_line.c): the lines of
 * /sys/kernel/debug/kprobes/list in Linux's columns, with no number and
 * no owner, the pieces `probe list` shares with them, and the lines of
 * `probe list`, with both. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "kernel/probes/files/probe_line.c"

static struct kprobe_info probe(uintptr_t addr, enum kprobe_kind kind, const char *where,
				const char *module, unsigned int flags)
{
	/* A number and an owner, which Linux's lines must leave out. */
	struct kprobe_info info = { .id = 7, .addr = addr, .kind = kind, .flags = flags,
				    .owner = "kprobe_example" };

	strlcpy(info.where, where, sizeof(info.where));
	strlcpy(info.module, module, sizeof(info.module));
	return info;
}

static void assert_line(const struct kprobe_info *info, const char *want)
{
	char line[PROBE_LIST_LINE_MAX];

	probe_format_list_line(info, line, sizeof(line));
	assert_string_equal(line, want);
}

/* Linux's report_probe: "%p  %s  %s+0x%x  %s " then the flags. */
static void test_list_lines(void **state)
{
	struct kprobe_info k = probe(0xffffffff8010d470ul, KPROBE_KIND_K, "vfs_read+0x0", "", 0);
	struct kprobe_info j = probe(0xffffffff8010d470ul, KPROBE_KIND_J, "vfs_read+0x0", "",
				     KPROBE_FLAG_DISABLED);
	struct kprobe_info r = probe(0xffffffff8010d1c0ul, KPROBE_KIND_R, "vfs_open+0x4", "",
				     KPROBE_FLAG_OPTIMIZED);
	struct kprobe_info m = probe(0xffffffffa0000000ul, KPROBE_KIND_K, "exporter_add+0x0",
				     "mod_exporter", 0);
	struct kprobe_info gone = probe(0xffffffffa0000000ul, KPROBE_KIND_K, "exporter_add+0x0",
					"mod_exporter", KPROBE_FLAG_GONE | KPROBE_FLAG_DISABLED);

	(void)state;
	assert_line(&k, "ffffffff8010d470  k  vfs_read+0x0    \n");
	assert_line(&j, "ffffffff8010d470  j  vfs_read+0x0    [DISABLED]\n");
	assert_line(&r, "ffffffff8010d1c0  r  vfs_open+0x4    [OPTIMIZED]\n");
	assert_line(&m, "ffffffffa0000000  k  exporter_add+0x0  mod_exporter \n");
	assert_line(&gone, "ffffffffa0000000  k  exporter_add+0x0  mod_exporter [GONE]\n");
}

static void assert_shell_line(const struct kprobe_info *info, const char *owner,
			      const char *want)
{
	char line[PROBE_LIST_LINE_MAX];

	probe_format_shell_line(info, owner, line, sizeof(line));
	assert_string_equal(line, want);
}

/* `probe list`: the number first, then the same columns as the list
 * file, the module in brackets after the place, each flag two spaces
 * after, the counts, and the owner the command names. */
static void test_shell_lines(void **state)
{
	struct kprobe_info k = probe(0xffffffff8010d470ul, KPROBE_KIND_K, "vfs_read+0x0", "", 0);
	struct kprobe_info r = probe(0xffffffff8010d470ul, KPROBE_KIND_R, "vfs_read+0x0", "",
				     KPROBE_FLAG_DISABLED | KPROBE_FLAG_OPTIMIZED);
	struct kprobe_info gone = probe(0xffffffffa0000000ul, KPROBE_KIND_K, "init_step+0x0",
					"mod_init_probe", KPROBE_FLAG_GONE | KPROBE_FLAG_DISABLED);

	(void)state;
	k.nhit = 4;
	k.id = 1;
	r.nhit = 2;
	r.nmissed = 1;
	r.id = 4294967295u;
	gone.nhit = 1;
	gone.id = 12;
	assert_shell_line(&k, "shell",
			  "1  ffffffff8010d470  k  vfs_read+0x0  hits=4 missed=0  owner=shell\n");
	assert_shell_line(&r, "kprobe_example",
			  "4294967295  ffffffff8010d470  r  vfs_read+0x0  [DISABLED]  [OPTIMIZED]"
			  "  hits=2 missed=1  owner=kprobe_example\n");
	assert_shell_line(&gone, "mod_init_probe",
			  "12  ffffffffa0000000  k  init_step+0x0 [mod_init_probe]  [GONE]"
			  "  hits=1 missed=0  owner=mod_init_probe\n");
}

/* The longest place, flags, counts and owner still fit, whole. */
static void test_shell_line_fits(void **state)
{
	struct kprobe_info info = probe(~0ul, KPROBE_KIND_R, "", "",
					KPROBE_FLAG_GONE | KPROBE_FLAG_OPTIMIZED);
	char owner[MODULE_NAME_LEN], line[PROBE_LIST_LINE_MAX];
	size_t len;

	(void)state;
	memset(info.where, 'w', sizeof(info.where) - 1);
	memset(info.module, 'm', sizeof(info.module) - 1);
	memset(owner, 'o', sizeof(owner) - 1);
	owner[sizeof(owner) - 1] = '\0';
	info.id = ~0u;
	info.nhit = info.nmissed = ~0ul;
	probe_format_shell_line(&info, owner, line, sizeof(line));
	len = strlen(line);
	assert_true(len > strlen(owner) + 7);
	assert_int_equal(line[len - 1], '\n');
	assert_memory_equal(line + len - 1 - strlen(owner) - 6, "owner=", 6);
	assert_memory_equal(line + len - 1 - strlen(owner), owner, strlen(owner));
}

static void test_flags(void **state)
{
	char buf[48];

	(void)state;
	probe_format_flags(0, "  ", buf, sizeof(buf));
	assert_string_equal(buf, "");
	probe_format_flags(KPROBE_FLAG_DISABLED | KPROBE_FLAG_OPTIMIZED, "", buf, sizeof(buf));
	assert_string_equal(buf, "[DISABLED][OPTIMIZED]");
	/* Gone is neither armed nor disarmed. */
	probe_format_flags(KPROBE_FLAG_GONE | KPROBE_FLAG_DISABLED, "  ", buf, sizeof(buf));
	assert_string_equal(buf, "  [GONE]");
	/* Cut to the buffer, still a string. */
	probe_format_flags(KPROBE_FLAG_GONE | KPROBE_FLAG_OPTIMIZED, "", buf, 10);
	assert_string_equal(buf, "[GONE][OP");
}

static void test_place_and_letters(void **state)
{
	struct kprobe_info m = probe(0, KPROBE_KIND_R, "exporter_add+0x0", "mod_exporter", 0);
	char place[PROBE_PLACE_MAX];

	(void)state;
	probe_format_place(&m, place, sizeof(place));
	assert_string_equal(place, "exporter_add+0x0 [mod_exporter]");
	m.module[0] = '\0';
	probe_format_place(&m, place, sizeof(place));
	assert_string_equal(place, "exporter_add+0x0");
	assert_int_equal(probe_kind_letter(KPROBE_KIND_K), 'k');
	assert_int_equal(probe_kind_letter(KPROBE_KIND_J), 'j');
	assert_int_equal(probe_kind_letter(KPROBE_KIND_R), 'r');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_lines),
		cmocka_unit_test(test_shell_lines),
		cmocka_unit_test(test_shell_line_fits),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_place_and_letters),
	};

	return cmocka_run_group_tests_name("probe_line", tests, NULL, NULL);
}
