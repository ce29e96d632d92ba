/* Host tests for the function_graph tracer's lines (kernel/trace/
 * graph_format.c). Every expected string is a whole line, byte for byte,
 * as Linux 6.1 prints it. Where it comes from is said at each: "the
 * code" is Linux 6.1's kernel/trace/trace_functions_graph.c (and
 * trace_find_mark in trace_output.c), read function by function; "the
 * doc" is its Documentation/trace/ftrace.rst. The doc's examples were
 * made by older kernels and some of their spacing is no longer what the
 * code prints (the doc's "   0)" is " 0)" now, its headers and a "}"'s
 * name differ a little): where the two disagree the code is followed,
 * and the test says so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "kernel/trace/graph_format.h"
#include "lib/string.h"

#define BIG 512

/* Line l under opts, checked to be terminated and as long as returned. */
static const char *line(const struct graph_line *l, unsigned int opts)
{
	static char buf[BIG];
	size_t n = graph_format_line(buf, sizeof(buf), l, opts);

	assert_int_equal(n, strlen(buf));
	return buf;
}

static const char *leaf_of(uint64_t ns, unsigned int opts)
{
	struct graph_line l = { .kind = GRAPH_LINE_LEAF, .func = "f", .duration_ns = ns };

	return line(&l, opts);
}

static const char *header(unsigned int n, unsigned int opts)
{
	static char buf[BIG];
	size_t len = graph_format_header(buf, sizeof(buf), n, opts);

	assert_int_equal(len, strlen(buf));
	return buf;
}

static void test_entry_leaf_return(void **state)
{
	struct graph_line entry = { .kind = GRAPH_LINE_ENTRY, .func = "sys_open" };
	struct graph_line leaf = { .kind = GRAPH_LINE_LEAF, .depth = 1, .func = "__might_sleep",
				   .duration_ns = 1382 };
	struct graph_line ret = { .kind = GRAPH_LINE_RETURN, .duration_ns = 2478 };

	(void)state;
	/* The doc's first function_graph example, but for its CPU column:
	 * the code's " %*d) " with one digit for fewer than 10 CPUs. The
	 * entry's duration is the code's FLAGS_FILL_FULL, 14 spaces. */
	assert_string_equal(line(&entry, GRAPH_OPT_DEFAULT), " 0)               |  sys_open() {\n");
	assert_string_equal(line(&leaf, GRAPH_OPT_DEFAULT), " 0)   1.382 us    |    __might_sleep();\n");
	assert_string_equal(line(&ret, GRAPH_OPT_DEFAULT), " 0)   2.478 us    |  }\n");
	/* The code pads the CPU to the width of the highest one, and a
	 * larger number simply widens the column. */
	entry.cpu = 3;
	assert_string_equal(line(&entry, GRAPH_OPT_DEFAULT), " 3)               |  sys_open() {\n");
	entry.cpu = 12;
	assert_string_equal(line(&entry, GRAPH_OPT_DEFAULT), " 12)               |  sys_open() {\n");
}

static void test_return_names(void **state)
{
	struct graph_line ret = { .kind = GRAPH_LINE_RETURN, .depth = 2, .func = "kmem_cache_free",
				  .duration_ns = 1757 };

	(void)state;
	/* The code puts "%ps", the bare name, in the comment after the
	 * brace; the doc's funcgraph-tail example shows
	 * "kmem_cache_free()", from an older kernel. */
	assert_string_equal(line(&ret, GRAPH_OPT_DEFAULT), " 0)   1.757 us    |      }\n");
	assert_string_equal(line(&ret, GRAPH_OPT_DEFAULT | GRAPH_OPT_TAIL),
			    " 0)   1.757 us    |      } /* kmem_cache_free */\n");
	/* A return whose entry was not seen is named without tail too (the
	 * code's func_match, and the doc's "always displayed ... if the
	 * start of that function is not in the trace buffer"). */
	ret.named = true;
	assert_string_equal(line(&ret, GRAPH_OPT_DEFAULT),
			    " 0)   1.757 us    |      } /* kmem_cache_free */\n");
	/* The doc's overhead example's first line, __switch_to's return:
	 * "3) # 1837.709 us |" (with today's CPU column). */
	ret = (struct graph_line){ .kind = GRAPH_LINE_RETURN, .cpu = 3, .depth = 4,
				   .func = "__switch_to", .duration_ns = 1837709, .named = true };
	assert_string_equal(line(&ret, GRAPH_OPT_DEFAULT),
			    " 3) # 1837.709 us |          } /* __switch_to */\n");
}

static void test_marks(void **state)
{
	(void)state;
	/* The code's trace_find_mark: a mark once the duration is strictly
	 * over its threshold, the doc's "exceeded". */
	assert_int_equal(graph_duration_mark(0), ' ');
	assert_int_equal(graph_duration_mark(10000), ' ');
	assert_int_equal(graph_duration_mark(10001), '+');
	assert_int_equal(graph_duration_mark(100000), '+');
	assert_int_equal(graph_duration_mark(100001), '!');
	assert_int_equal(graph_duration_mark(1000000), '!');
	assert_int_equal(graph_duration_mark(1000001), '#');
	assert_int_equal(graph_duration_mark(10000000), '#');
	assert_int_equal(graph_duration_mark(10000001), '*');
	assert_int_equal(graph_duration_mark(100000000), '*');
	assert_int_equal(graph_duration_mark(100000001), '@');
	assert_int_equal(graph_duration_mark(1000000000), '@');
	assert_int_equal(graph_duration_mark(1000000001), '$');
	assert_int_equal(graph_duration_mark(UINT64_MAX), '$');
	/* And in the line, before the duration (the code's "%c "). */
	assert_string_equal(leaf_of(10000, GRAPH_OPT_DEFAULT), " 0)   10.000 us   |  f();\n");
	assert_string_equal(leaf_of(10001, GRAPH_OPT_DEFAULT), " 0) + 10.001 us   |  f();\n");
	assert_string_equal(leaf_of(100000, GRAPH_OPT_DEFAULT), " 0) + 100.000 us  |  f();\n");
	assert_string_equal(leaf_of(100001, GRAPH_OPT_DEFAULT), " 0) ! 100.001 us  |  f();\n");
	assert_string_equal(leaf_of(1000001, GRAPH_OPT_DEFAULT), " 0) # 1000.001 us |  f();\n");
	assert_string_equal(leaf_of(10000001, GRAPH_OPT_DEFAULT), " 0) * 10000.00 us |  f();\n");
	assert_string_equal(leaf_of(100000001, GRAPH_OPT_DEFAULT), " 0) @ 100000.0 us |  f();\n");
	assert_string_equal(leaf_of(1000000001, GRAPH_OPT_DEFAULT), " 0) $ 1000000 us  |  f();\n");
}

static void test_durations(void **state)
{
	(void)state;
	/* The code's trace_print_graph_duration: microseconds, then as many
	 * of three decimals as keep it to 7 digits, " us ", then spaces to
	 * 8 columns; a whole part of 7 digits or more has no decimals and
	 * may push the bar right. */
	assert_string_equal(leaf_of(0, GRAPH_OPT_DEFAULT), " 0)   0.000 us    |  f();\n");
	assert_string_equal(leaf_of(999, GRAPH_OPT_DEFAULT), " 0)   0.999 us    |  f();\n");
	assert_string_equal(leaf_of(1000000, GRAPH_OPT_DEFAULT), " 0) ! 1000.000 us |  f();\n");
	assert_string_equal(leaf_of(10000000000ull, GRAPH_OPT_DEFAULT), " 0) $ 10000000 us |  f();\n");
	assert_string_equal(leaf_of(1000000000000ull, GRAPH_OPT_DEFAULT),
			    " 0) $ 1000000000 us |  f();\n");
	/* The doc's overhead example's durations: "+ 61.770 us   |",
	 * "! 140.417 us  |", "* 33998.59 us |", "@ 119760.2 us |" and
	 * "$ 3594274 us  |". Decimals are cut, not rounded. */
	assert_string_equal(leaf_of(61770, GRAPH_OPT_DEFAULT), " 0) + 61.770 us   |  f();\n");
	assert_string_equal(leaf_of(140417, GRAPH_OPT_DEFAULT), " 0) ! 140.417 us  |  f();\n");
	assert_string_equal(leaf_of(33998599, GRAPH_OPT_DEFAULT), " 0) * 33998.59 us |  f();\n");
	assert_string_equal(leaf_of(119760299, GRAPH_OPT_DEFAULT), " 0) @ 119760.2 us |  f();\n");
	assert_string_equal(leaf_of(3594274999ull, GRAPH_OPT_DEFAULT), " 0) $ 3594274 us  |  f();\n");
}

static void test_depths(void **state)
{
	struct graph_line l = { .kind = GRAPH_LINE_LEAF, .func = "f", .duration_ns = 100 };

	(void)state;
	/* The code's TRACE_GRAPH_INDENT: two spaces a level, after "|  ". */
	assert_string_equal(line(&l, GRAPH_OPT_DEFAULT), " 0)   0.100 us    |  f();\n");
	l.depth = 1;
	assert_string_equal(line(&l, GRAPH_OPT_DEFAULT), " 0)   0.100 us    |    f();\n");
	l.depth = 5;
	assert_string_equal(line(&l, GRAPH_OPT_DEFAULT), " 0)   0.100 us    |            f();\n");
	l.kind = GRAPH_LINE_ENTRY;
	assert_string_equal(line(&l, GRAPH_OPT_DEFAULT), " 0)               |            f() {\n");
	l.kind = GRAPH_LINE_RETURN;
	assert_string_equal(line(&l, GRAPH_OPT_DEFAULT), " 0)   0.100 us    |            }\n");
}

static void test_proc(void **state)
{
	struct graph_line l = { .kind = GRAPH_LINE_ENTRY, .depth = 8, .func = "d_free",
				.comm = "sh", .pid = 4802 };
	unsigned int opts = GRAPH_OPT_DEFAULT | GRAPH_OPT_PROC;

	(void)state;
	/* The doc's funcgraph-proc example ("0)    sh-4802     |   ...")
	 * with today's CPU column: the code centres "comm-pid" in 14
	 * columns, the odd space after, then " | ". */
	assert_string_equal(line(&l, opts), " 0)    sh-4802     |               |                  d_free() {\n");
	l = (struct graph_line){ .kind = GRAPH_LINE_RETURN, .depth = 7, .duration_ns = 49370,
				 .comm = "sh", .pid = 4802 };
	assert_string_equal(line(&l, opts), " 0)    sh-4802     | + 49.370 us   |                }\n");
	/* The code keeps 7 bytes of the name; a pair of 14 or more has no
	 * spaces around it. */
	l = (struct graph_line){ .kind = GRAPH_LINE_LEAF, .func = "f", .comm = "kworker/0:1",
				 .pid = 12345 };
	assert_string_equal(line(&l, opts), " 0) kworker-12345  |   0.000 us    |  f();\n");
	l.comm = "abcdefgh";
	l.pid = 4294967295u;
	assert_string_equal(line(&l, opts), " 0) abcdefg-4294967295 |   0.000 us    |  f();\n");
	/* A thread whose name is not known: "<...>", as trace_find_cmdline
	 * gives. */
	l.comm = NULL;
	l.pid = 7;
	assert_string_equal(line(&l, opts), " 0)    <...>-7     |   0.000 us    |  f();\n");
}

static void test_abstime(void **state)
{
	struct graph_line l = { .kind = GRAPH_LINE_RETURN, .cpu = 1, .depth = 20,
				.duration_ns = 541, .time_ns = 360774522999ull };
	unsigned int opts = GRAPH_OPT_DEFAULT | GRAPH_OPT_ABSTIME;

	(void)state;
	/* The doc's funcgraph-abstime example, "360.774522 |   1)   0.541 us
	 * |" (its leading spaces trimmed there): the code's "%5lu.%06lu |  ",
	 * the microseconds cut, not rounded. */
	assert_string_equal(line(&l, opts),
			    "  360.774522 |   1)   0.541 us    |                                          }\n");
	l = (struct graph_line){ .kind = GRAPH_LINE_LEAF, .func = "f", .time_ns = 123456000001000ull };
	assert_string_equal(line(&l, opts), "123456.000001 |   0)   0.000 us    |  f();\n");
	/* TIME, CPU, TASK/PID: the order of the code's print_graph_prologue. */
	l.comm = "cat";
	l.pid = 5;
	assert_string_equal(line(&l, opts | GRAPH_OPT_PROC),
			    "123456.000001 |   0)     cat-5      |   0.000 us    |  f();\n");
}

static void test_columns_off(void **state)
{
	struct graph_line entry = { .kind = GRAPH_LINE_ENTRY, .depth = 1, .func = "g" };
	struct graph_line leaf = { .kind = GRAPH_LINE_LEAF, .depth = 1, .func = "f", .duration_ns = 12310 };
	struct graph_line ret = { .kind = GRAPH_LINE_RETURN, .depth = 1, .duration_ns = 12310 };
	unsigned int no_cpu = GRAPH_OPT_DEFAULT & ~GRAPH_OPT_CPU;
	unsigned int no_duration = GRAPH_OPT_DEFAULT & ~GRAPH_OPT_DURATION;
	unsigned int no_overhead = GRAPH_OPT_DEFAULT & ~GRAPH_OPT_OVERHEAD;

	(void)state;
	/* The code prints each column only under its flag: nofuncgraph-cpu
	 * drops " 0) ", nofuncgraph-duration the whole DURATION column (its
	 * bar too, and the mark with it: the doc's "depends on:
	 * funcgraph-duration"), nofuncgraph-overhead the mark alone. */
	assert_string_equal(line(&entry, no_cpu), "              |    g() {\n");
	assert_string_equal(line(&leaf, no_cpu), "+ 12.310 us   |    f();\n");
	assert_string_equal(line(&entry, no_duration), " 0)   g() {\n");
	assert_string_equal(line(&leaf, no_duration), " 0)   f();\n");
	assert_string_equal(line(&ret, no_duration), " 0)   }\n");
	assert_string_equal(line(&leaf, no_overhead), " 0)   12.310 us   |    f();\n");
	assert_string_equal(line(&ret, no_overhead), " 0)   12.310 us   |    }\n");
	assert_string_equal(line(&leaf, 0), "  f();\n");
	assert_string_equal(line(&ret, GRAPH_OPT_TAIL), "  }\n");
}

static void test_irq_arrows(void **state)
{
	struct graph_line in = { .kind = GRAPH_LINE_IRQ_ENTRY, .cpu = 2, .depth = 3,
				 .comm = "sh", .pid = 4802, .time_ns = 1500000 };
	struct graph_line out = in;

	(void)state;
	out.kind = GRAPH_LINE_IRQ_EXIT;
	/* The code's print_graph_irq: the context columns, then the arrow
	 * inside the DURATION column ("  " before, " |" after: its
	 * FLAGS_FILL_START and FLAGS_FILL_END), never indented. */
	assert_string_equal(line(&in, GRAPH_OPT_DEFAULT), " 2)   ==========> |\n");
	assert_string_equal(line(&out, GRAPH_OPT_DEFAULT), " 2)   <========== |\n");
	assert_string_equal(line(&in, GRAPH_OPT_DEFAULT & ~GRAPH_OPT_DURATION), " 2) ==========>\n");
	assert_string_equal(line(&out, GRAPH_OPT_DEFAULT | GRAPH_OPT_PROC | GRAPH_OPT_ABSTIME),
			    "    0.001500 |   2)    sh-4802     |   <========== |\n");
}

static void test_comments(void **state)
{
	struct graph_line l = { .kind = GRAPH_LINE_COMMENT, .comment = "I'm a comment!\n" };

	(void)state;
	/* The code's print_graph_comment: the empty DURATION column, then
	 * (depth + 1) levels in when the CPU's depth is over 0 and none at
	 * all at 0, then the text with its ending newline dropped. The doc's
	 * trace_printk example shows the form (its spacing is by hand). */
	assert_string_equal(line(&l, GRAPH_OPT_DEFAULT), " 0)               |  /* I'm a comment! */\n");
	l.depth = 1;
	assert_string_equal(line(&l, GRAPH_OPT_DEFAULT), " 0)               |      /* I'm a comment! */\n");
	l.depth = 2;
	assert_string_equal(line(&l, GRAPH_OPT_DEFAULT),
			    " 0)               |        /* I'm a comment! */\n");
	/* Only one ending newline goes; a text without one is kept whole. */
	l.depth = 0;
	l.comment = "sched_switch: prev=sh";
	assert_string_equal(line(&l, GRAPH_OPT_DEFAULT & ~GRAPH_OPT_DURATION),
			    " 0) /* sched_switch: prev=sh */\n");
	l.comment = "two\n\n";
	assert_string_equal(line(&l, 0), "/* two\n */\n");
}

static void test_headers(void **state)
{
	unsigned int all = GRAPH_OPT_DEFAULT | GRAPH_OPT_PROC | GRAPH_OPT_ABSTIME | GRAPH_OPT_TAIL;

	(void)state;
	/* The defaults: the doc's function_graph example shows these two. */
	assert_string_equal(header(0, GRAPH_OPT_DEFAULT), "# CPU  DURATION                  FUNCTION CALLS\n");
	assert_string_equal(header(1, GRAPH_OPT_DEFAULT), "# |     |   |                     |   |   |   |\n");
	assert_int_equal(graph_format_header((char[4]){ 'x' }, 4, 2, GRAPH_OPT_DEFAULT), 0);
	assert_string_equal(header(2, GRAPH_OPT_DEFAULT), "");
	assert_string_equal(header(9, GRAPH_OPT_DEFAULT), "");
	/* The rest from the code's __print_graph_headers_flags, each column's
	 * piece under its flag; the doc's proc and abstime headers are an
	 * older kernel's and a space or so off. Neither overhead nor tail
	 * changes the header. */
	assert_string_equal(header(0, GRAPH_OPT_DEFAULT | GRAPH_OPT_PROC),
			    "# CPU  TASK/PID         DURATION                  FUNCTION CALLS\n");
	assert_string_equal(header(1, GRAPH_OPT_DEFAULT | GRAPH_OPT_PROC),
			    "# |     |    |           |   |                     |   |   |   |\n");
	assert_string_equal(header(0, GRAPH_OPT_DEFAULT | GRAPH_OPT_ABSTIME),
			    "#     TIME        CPU  DURATION                  FUNCTION CALLS\n");
	assert_string_equal(header(1, GRAPH_OPT_DEFAULT | GRAPH_OPT_ABSTIME),
			    "#      |          |     |   |                     |   |   |   |\n");
	assert_string_equal(header(0, all),
			    "#     TIME        CPU  TASK/PID         DURATION                  FUNCTION CALLS\n");
	assert_string_equal(header(1, all),
			    "#      |          |     |    |           |   |                     |   |   |   |\n");
	assert_string_equal(header(0, GRAPH_OPT_CPU), "# CPU               FUNCTION CALLS\n");
	assert_string_equal(header(1, GRAPH_OPT_CPU), "# |                 |   |   |   |\n");
	assert_string_equal(header(0, GRAPH_OPT_DURATION | GRAPH_OPT_OVERHEAD),
			    "#  DURATION                  FUNCTION CALLS\n");
	assert_string_equal(header(1, GRAPH_OPT_DURATION | GRAPH_OPT_OVERHEAD),
			    "#   |   |                     |   |   |   |\n");
	assert_string_equal(header(0, GRAPH_OPT_PROC), "#  TASK/PID                      FUNCTION CALLS\n");
	assert_string_equal(header(1, GRAPH_OPT_PROC), "#   |    |                       |   |   |   |\n");
	assert_string_equal(header(0, 0), "#               FUNCTION CALLS\n");
	assert_string_equal(header(1, GRAPH_OPT_TAIL), "#               |   |   |   |\n");
}

static void test_switch(void **state)
{
	char buf[BIG];
	size_t n;

	(void)state;
	/* The code's verif_pid: a rule, the CPU (whatever funcgraph-cpu
	 * says), the two threads centred as in the TASK/PID column with
	 * " => " between, the rule again, then a blank line (after the
	 * banner: nothing comes before it). */
	n = graph_format_switch(buf, sizeof(buf), 0, "sh", 1, "cat", 5, GRAPH_OPT_DEFAULT);
	assert_string_equal(buf, " ------------------------------------------\n"
				 " 0)      sh-1      =>     cat-5     \n"
				 " ------------------------------------------\n"
				 "\n");
	assert_int_equal(n, strlen(buf));
	n = graph_format_switch(buf, sizeof(buf), 1, "migration/0", 12, NULL, 1755, 0);
	assert_string_equal(buf, " ------------------------------------------\n"
				 " 1)   migrati-12   =>   <...>-1755  \n"
				 " ------------------------------------------\n"
				 "\n");
	assert_int_equal(n, strlen(buf));
}

/* At every size from 0 to past the whole line: the line's first size - 1
 * bytes, terminated, nothing written beyond, and that count returned. */
static void check_every_size(const struct graph_line *l, unsigned int opts)
{
	char full[BIG], buf[BIG];
	size_t len = graph_format_line(full, sizeof(full), l, opts);

	assert_true(len > 10);
	for (size_t size = 0; size <= len + 2; size++) {
		size_t want = size ? MIN(len, size - 1) : 0;
		size_t n;

		memset(buf, '@', sizeof(buf));
		n = graph_format_line(buf, size, l, opts);
		assert_int_equal(n, want);
		if (size) {
			assert_memory_equal(buf, full, want);
			assert_int_equal(buf[want], '\0');
		}
		for (size_t i = size; i < sizeof(buf); i++)
			assert_int_equal(buf[i], '@');
	}
}

static void test_small_buffers(void **state)
{
	struct graph_line ret = { .kind = GRAPH_LINE_RETURN, .depth = 3, .func = "vfs_read",
				  .named = true, .duration_ns = 3594274999ull, .comm = "worker",
				  .pid = 42, .time_ns = 5000000000ull };
	struct graph_line comment = { .kind = GRAPH_LINE_COMMENT, .depth = 2, .comment = "hello\n" };
	unsigned int all = GRAPH_OPT_DEFAULT | GRAPH_OPT_PROC | GRAPH_OPT_ABSTIME;
	char buf[8];

	(void)state;
	check_every_size(&ret, all);
	check_every_size(&comment, GRAPH_OPT_DEFAULT);
	memset(buf, '@', sizeof(buf));
	assert_int_equal(graph_format_header(buf, 5, 0, GRAPH_OPT_DEFAULT), 4);
	assert_string_equal(buf, "# CP");
	assert_int_equal(buf[5], '@');
	assert_int_equal(graph_format_switch(buf, 3, 0, "sh", 1, "cat", 5, 0), 2);
	assert_string_equal(buf, " -");
	assert_int_equal(graph_format_switch(buf, 0, 0, "sh", 1, "cat", 5, 0), 0);
	assert_int_equal(buf[0], ' ');
}

/* trace_stat/functionN's lines: Linux's function_stat_show. */
static void test_profile_lines(void **state)
{
	char buf[200];

	(void)state;
	graph_format_profile_header(buf, sizeof(buf));
	assert_string_equal(buf,
		"  Function                               Hit    Time            Avg             s^2\n"
		"  --------                               ---    ----            ---             ---\n");
	graph_format_profile_line(buf, sizeof(buf), "vfs_read", 300, 2361406, 7871, 604000);
	assert_string_equal(buf, "  vfs_read                               300    2361.406 us     7.871 us        0.604 us    \n");
	/* A name past 30 characters is cut; a time of 7 digits has no
	 * decimals, of 8 no padding. */
	graph_format_profile_line(buf, sizeof(buf), "a_function_name_longer_than_thirty", 7,
				  12345678901ull, 1234567890ull, 0);
	assert_string_equal(buf, "  a_function_name_longer_than_th           7    12345678 us     1234567 us      0.000 us    \n");
}

static void test_profile_variance(void **state)
{
	(void)state;
	assert_int_equal(graph_profile_variance(0, 0, 0), 0);
	assert_int_equal(graph_profile_variance(1, 5, 25), 0);
	assert_int_equal(graph_profile_variance(2, 30, 500), 50);		/* 10, 20 */
	assert_int_equal(graph_profile_variance(4, 10, 30), 1);			/* 1..4: 5/3 */
	assert_int_equal(graph_profile_variance(3, 7, 21), 2);			/* 1, 2, 4: 2.33 */
	/* 1000 calls of 10^8: n * sum_sq would overflow; the variance is 0. */
	assert_int_equal(graph_profile_variance(1000, 100000000000ull, 10000000000000000000ull), 0);
	/* A square past 2^64 saturates. */
	assert_true(graph_profile_variance(2, 1ull << 33, UINT64_MAX) == UINT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entry_leaf_return),
		cmocka_unit_test(test_return_names),
		cmocka_unit_test(test_marks),
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_depths),
		cmocka_unit_test(test_proc),
		cmocka_unit_test(test_abstime),
		cmocka_unit_test(test_columns_off),
		cmocka_unit_test(test_irq_arrows),
		cmocka_unit_test(test_comments),
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_switch),
		cmocka_unit_test(test_small_buffers),
		cmocka_unit_test(test_profile_lines),
		cmocka_unit_test(test_profile_variance),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
