/* Creating and freeing kernel threads. */
#include "kernel/arch.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/stack.h"
#include "kernel/rethook.h"
#include "kernel/sched_internal.h"
#include "lib/errno.h"
#include "lib/string.h"

LIST_HEAD(all_threads);
static unsigned int next_id;

extern const struct thread_clone_hook __start_thread_clone_hooks[],
	__stop_thread_clone_hooks[];

static struct thread *thread_alloc(const char *name)
{
	struct thread *t = kzalloc(sizeof(*t));

	if (!t)
		return NULL;
	t->id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
	strlcpy(t->name, name, sizeof(t->name));
	list_init(&t->all_node);
	list_init(&t->queue_node);
	rethook_thread_init(&t->rethooks);
	return t;
}

/* Run every THREAD_CLONE_HOOK on the new thread t; the first error. */
static int run_clone_hooks(struct thread *t)
{
	for (const struct thread_clone_hook *h = __start_thread_clone_hooks;
	     h < __stop_thread_clone_hooks; h++) {
		int err = h->run(t);

		if (err)
			return err;
	}
	return 0;
}

/* Not inlined into thread_create: a probe on kernel_clone (Linux's
 * kprobe_example.c and kretprobe_example.c probe it by default) must see
 * every thread made. */
__noinline int kernel_clone(struct kernel_clone_args *args)
{
	/* From the stack region, not the heap: an overflow runs into the
	 * guard below and faults there (kernel/mm/stack.h). */
	void *stack = stack_alloc();
	struct thread *t = stack ? thread_alloc(args->name) : NULL;
	int id;

	if (!t) {
		if (stack)
			stack_free(stack);
		return -ENOMEM;
	}
	t->stack = stack;
	t->stack_size = KERNEL_STACK_SIZE;
	id = run_clone_hooks(t);
	if (id < 0) {
		thread_run_exit_hooks(t);
		thread_free(t);
		return id;
	}
	*(uint64_t *)stack = STACK_END_MAGIC;
	t->entry = args->fn;
	t->arg = args->fn_arg;
	t->pinned = args->pinned;
	t->pinned_cpu = args->cpu;
	t->cpu = args->cpu;	/* what ps shows until it first runs */
	arch_context_init(&t->context, (char *)stack + t->stack_size);
	id = (int)t->id;	/* t may have run and been freed once it is queued */
	sched_enqueue_new(t);
	return id;
}

int thread_create(const char *name, void (*fn)(void *), void *arg)
{
	struct kernel_clone_args args = { .name = name, .fn = fn, .fn_arg = arg };

	return kernel_clone(&args);
}

int thread_create_on(unsigned int cpu, const char *name, void (*fn)(void *), void *arg)
{
	struct kernel_clone_args args = {
		.name = name, .fn = fn, .fn_arg = arg, .pinned = true, .cpu = cpu,
	};

	return kernel_clone(&args);
}

void thread_free_stack(struct thread *t)
{
	stack_free(t->stack);
	t->stack = NULL;
}

void thread_free(struct thread *t)
{
	thread_free_stack(t);
	kfree(t);
}

struct thread *thread_adopt_boot(const char *name)
{
	struct thread *t = thread_alloc(name);

	if (!t)
		return NULL;
	/* t->stack stays NULL: a CPU's boot stack (the boot CPU's in .bss,
	 * another's from kernel/smp.c) carries no end mark, and the idle
	 * thread never exits to free it. Its guard is there all the same. */
	t->state = THREAD_RUNNING;
	return t;
}

const char *thread_state_name(enum thread_state state)
{
	static const char *const names[] = {
		[THREAD_RUNNING] = "running", [THREAD_READY] = "ready",
		[THREAD_SLEEPING] = "sleeping", [THREAD_BLOCKED] = "blocked",
		[THREAD_DEAD] = "dead",
	};

	return state < ARRAY_SIZE(names) ? names[state] : "?";
}
