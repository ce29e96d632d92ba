/* Selftests of tracefs's tracing files that a boot test cannot reach
 * from the shell: trace_pipe takes one reader at a time. (The files'
 * formats and behaviour are tests/boot's tracefs_files.) */
#include "kernel/fs/vfs.h"
#include "kernel/selftest.h"
#include "lib/errno.h"

#define TRACE_PIPE "/sys/kernel/tracing/trace_pipe"

static void trace_pipe_has_one_reader(void)
{
	struct file *first, *second;

	EXPECT_EQ(vfs_open(TRACE_PIPE, O_RDONLY, &first), 0);
	EXPECT_EQ(vfs_open(TRACE_PIPE, O_RDONLY, &second), -EBUSY);
	vfs_close(first);
	/* Free again once the reader has gone. */
	EXPECT_EQ(vfs_open(TRACE_PIPE, O_RDONLY, &second), 0);
	vfs_close(second);
}

static const struct selftest_case tracefs_cases[] = {
	SELFTEST_CASE(trace_pipe_has_one_reader),
};
SELFTEST_SUITE("tracefs", tracefs_cases);
