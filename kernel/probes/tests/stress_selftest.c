/*
 * The probes stress selftest: a kprobe on every instruction of every
 * probe-able function of lib/ and the VFS at once (stress_probes.c),
 * while workloads whose results are checked run in this thread and in a
 * reader thread that the timer preempts. Afterwards every probe is
 * removed, and the text must be byte-identical to before, and the heap
 * and instruction slots back where they started.
 */
#include "kernel/cmd_output.h"
#include "kernel/probes/tests/stress_workload.h"
#include "kernel/selftest.h"

static void probe_everything_in_lib_and_vfs(void)
{
	struct stress_probes sp;
	struct stress_snapshot snap;
	unsigned long hits, rounds;

	stress_snapshot_take(&snap);
	stress_probe_lib_and_vfs(&sp);
	EXPECT(sp.count > 500);
	EXPECT(sp.rejected_boundary > sp.count);	/* most bytes are mid-instruction */

	rounds = stress_run_workload();

	hits = stress_probes_hits(&sp);
	EXPECT(hits > 1000);
	cmd_printf("    # %zu probes; offsets refused: %lu inside an instruction, %lu other;"
		   " %lu hits; reader rounds %lu\n", sp.count, sp.rejected_boundary,
		   sp.rejected_other, hits, rounds);
	stress_unprobe(&sp);
	stress_snapshot_check(&snap);
}

static const struct selftest_case stress_cases[] = {
	SELFTEST_CASE(probe_everything_in_lib_and_vfs),
};
SELFTEST_SUITE("kprobes-stress", stress_cases);
