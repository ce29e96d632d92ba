/*
 * The background worker: a thread that keeps calling vfs_read, so that a
 * probe on vfs_read can be watched firing in a thread other than the
 * shell, interrupted and preempted by the timer like any real workload.
 *
 * Each tick it reads READS_PER_TICK chunks of WORKER_FILE, wrapping at the
 * end, then sleeps one tick. The shell and the worker share only the
 * fields of struct worker, through atomic loads and stores.
 */
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/shell/shell.h"
#include "kernel/vfs.h"
#include "lib/errno.h"
#include "lib/string.h"

#define WORKER_FILE "/data/lorem.txt"
#define READS_PER_TICK 4
#define CHUNK 64

static struct worker {
	bool running;		/* set by start, cleared by the thread at exit */
	bool stop;		/* asks the thread to finish */
	uint64_t reads;		/* successful vfs_read calls */
	int error;		/* why the thread stopped early, or 0 */
} worker;

static void worker_main(void *unused)
{
	char buf[CHUNK];
	struct file *file = NULL;
	loff_t pos = 0;
	int err = vfs_open(WORKER_FILE, O_RDONLY, &file);

	(void)unused;
	while (!err && !__atomic_load_n(&worker.stop, __ATOMIC_ACQUIRE)) {
		for (int i = 0; i < READS_PER_TICK; i++) {
			ssize_t n = vfs_read(file, buf, sizeof(buf), &pos);

			if (n < 0) {
				err = (int)n;
				break;
			}
			if (n == 0)
				pos = 0;	/* end of file: start over */
			__atomic_fetch_add(&worker.reads, 1, __ATOMIC_RELAXED);
		}
		thread_sleep(1);
	}
	if (file)
		vfs_close(file);
	worker.error = err;
	__atomic_store_n(&worker.running, false, __ATOMIC_RELEASE);
}

static void worker_start(void)
{
	int id;

	if (__atomic_load_n(&worker.running, __ATOMIC_ACQUIRE)) {
		kprintf("worker: already running\n");
		return;
	}
	worker.stop = false;
	worker.reads = 0;
	worker.error = 0;
	__atomic_store_n(&worker.running, true, __ATOMIC_RELEASE);
	id = thread_create("worker", worker_main, NULL);
	if (id < 0) {
		worker.running = false;
		kprintf("worker: %s\n", strerror(-id));
		return;
	}
	kprintf("worker: started (thread %d, reading %s)\n", id, WORKER_FILE);
}

static void worker_stop(void)
{
	if (!__atomic_load_n(&worker.running, __ATOMIC_ACQUIRE)) {
		kprintf("worker: not running\n");
		return;
	}
	__atomic_store_n(&worker.stop, true, __ATOMIC_RELEASE);
	while (__atomic_load_n(&worker.running, __ATOMIC_ACQUIRE))
		thread_sleep(1);
	kprintf("worker: stopped after %lu reads\n", (unsigned long)worker.reads);
}

static void cmd_worker(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "start") == 0)
		worker_start();
	else if (argc == 2 && strcmp(argv[1], "stop") == 0)
		worker_stop();
	else if (argc == 1 && __atomic_load_n(&worker.running, __ATOMIC_ACQUIRE))
		kprintf("worker: running, %lu reads\n",
			(unsigned long)__atomic_load_n(&worker.reads, __ATOMIC_RELAXED));
	else if (argc == 1 && worker.error)
		kprintf("worker: stopped: %s\n", strerror(worker.error));
	else if (argc == 1)
		kprintf("worker: stopped\n");
	else
		kprintf("worker: usage: worker [start|stop]\n");
}
SHELL_COMMAND("worker", "[start|stop]", "background thread calling vfs_read", cmd_worker);
