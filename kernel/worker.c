/*
 * The background workers: threads that keep calling vfs_read, so that a
 * probe on vfs_read can be watched firing in threads other than the
 * shell, on every CPU, interrupted and preempted by the timer like any
 * real workload.
 *
 * `worker start [N]` starts N of them, one per CPU by default, each
 * pinned to a CPU in turn (worker i on the i-th CPU that runs threads),
 * so that N CPUs hit the probe at once. Each tick a worker reads
 * READS_PER_TICK chunks of WORKER_FILE, wrapping at the end, then sleeps
 * one tick. The shell and the workers share only the fields of struct
 * workers, through atomic loads and stores.
 */
#include "kernel/cpu.h"
#include "kernel/cmd_output.h"
#include "kernel/sched.h"
#include "kernel/command.h"
#include "kernel/smp.h"
#include "kernel/fs/vfs.h"
#include "lib/bitops.h"
#include "lib/errno.h"
#include "lib/string.h"

#define WORKER_FILE "/data/lorem.txt"
#define READS_PER_TICK 4
#define CHUNK 64
#define MAX_WORKERS (2 * MAX_CPUS)

static struct workers {
	unsigned int running;	/* threads not yet finished */
	bool stop;		/* asks the threads to finish */
	uint64_t reads;		/* successful vfs_read calls, all threads */
	int error;		/* why a thread stopped early, or 0 */
} workers;

static void worker_main(void *unused)
{
	char buf[CHUNK];
	struct file *file = NULL;
	loff_t pos = 0;
	int err = vfs_open(WORKER_FILE, O_RDONLY, &file);

	(void)unused;
	while (!err && !__atomic_load_n(&workers.stop, __ATOMIC_ACQUIRE)) {
		for (int i = 0; i < READS_PER_TICK; i++) {
			ssize_t n = vfs_read(file, buf, sizeof(buf), &pos);

			if (n < 0) {
				err = (int)n;
				break;
			}
			if (n == 0)
				pos = 0;	/* end of file: start over */
			__atomic_fetch_add(&workers.reads, 1, __ATOMIC_RELAXED);
		}
		thread_sleep(1);
	}
	if (file)
		vfs_close(file);
	if (err)
		workers.error = err;
	__atomic_fetch_sub(&workers.running, 1, __ATOMIC_RELEASE);
}

/* The CPU number of the i-th CPU (counting from 0, round and round)
 * that runs threads. */
static unsigned int nth_running_cpu(unsigned int i)
{
	unsigned long mask = smp_cpus_running();
	unsigned int n = i % bits_set(mask);

	while (n--)
		mask &= mask - 1;	/* drop the lowest CPU */
	return (unsigned int)__builtin_ctzl(mask);
}

/* Start n workers; 0, or the negative errno after saying why not all
 * started. */
static int workers_start(unsigned int n)
{
	if (__atomic_load_n(&workers.running, __ATOMIC_ACQUIRE)) {
		cmd_eprintf("worker: already running\n");
		return -EBUSY;
	}
	workers.stop = false;
	workers.reads = 0;
	workers.error = 0;
	for (unsigned int i = 0; i < n; i++) {
		unsigned int cpu = nth_running_cpu(i);
		int id;

		__atomic_fetch_add(&workers.running, 1, __ATOMIC_RELEASE);
		id = thread_create_on(cpu, "worker", worker_main, NULL);
		if (id < 0) {
			__atomic_fetch_sub(&workers.running, 1, __ATOMIC_RELEASE);
			cmd_eprintf("worker: %s\n", strerror(-id));
			return id;
		}
		cmd_printf("worker: started (thread %d on CPU %u, reading %s)\n", id, cpu,
			   WORKER_FILE);
	}
	return 0;
}

/* Counts the threads still running worker_main, including those that
 * have finished but not yet been freed: a thread's stack goes back at
 * the next switch on its CPU, after `running` has dropped. */
static void count_worker(const struct thread *t, void *count)
{
	if (t->entry == worker_main)
		++*(unsigned int *)count;
}

static unsigned int worker_threads(void)
{
	unsigned int count = 0;

	sched_for_each_thread(count_worker, &count);
	return count;
}

/* Stop the workers and return once they are freed, so that `mem` right
 * after `worker stop` shows their stacks given back. */
static int workers_stop(void)
{
	if (!__atomic_load_n(&workers.running, __ATOMIC_ACQUIRE)) {
		cmd_eprintf("worker: not running\n");
		return -EINVAL;	/* nothing to stop */
	}
	__atomic_store_n(&workers.stop, true, __ATOMIC_RELEASE);
	while (worker_threads())
		thread_sleep(1);
	cmd_printf("worker: stopped after %lu reads\n", (unsigned long)workers.reads);
	return 0;
}

/* `worker start N`: N from 1 to MAX_WORKERS. */
static int parse_count(const char *s, unsigned int *n)
{
	uint64_t v;
	int err = shell_parse_number("worker", "count", s, 1, MAX_WORKERS, &v);

	if (err == 0)
		*n = (unsigned int)v;
	return err;
}

static int cmd_worker(int argc, char **argv)
{
	bool start = argc >= 2 && argc <= 3 && strcmp(argv[1], "start") == 0;
	unsigned int n = bits_set(smp_cpus_running());
	int err = start && argc == 3 ? parse_count(argv[2], &n) : 0;

	if (err == -ERANGE)
		return err;	/* parse_count said why */
	if (start && err == 0)
		return workers_start(n);
	if (argc == 2 && strcmp(argv[1], "stop") == 0)
		return workers_stop();
	if (argc == 1 && __atomic_load_n(&workers.running, __ATOMIC_ACQUIRE))
		cmd_printf("worker: running, %lu reads\n",
			   (unsigned long)__atomic_load_n(&workers.reads, __ATOMIC_RELAXED));
	else if (argc == 1 && workers.error)
		cmd_printf("worker: stopped: %s\n", strerror(workers.error));
	else if (argc == 1)
		cmd_printf("worker: stopped\n");
	else {
		err = shell_usage(argv[0]);
		cmd_eprintf("worker: N from 1 to %d\n", MAX_WORKERS);
	}
	return err;
}
SHELL_COMMAND("worker", "[start [N]|stop]", "N threads calling vfs_read (one per CPU)",
	      cmd_worker);
