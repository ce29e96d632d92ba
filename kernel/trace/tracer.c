/* The current tracer and the choice of another: see tracer.h. */
#include "kernel/trace/tracer.h"
#include "kernel/trace/trace.h"
#include "kernel/mm/heap.h"
#include "kernel/mutex.h"
#include "lib/errno.h"

extern const struct tracer __start_tracers[], __stop_tracers[];

/* The tracer of no records: nothing to start or stop. */
DEFINE_TRACER(nop_tracer) = { .name = "nop" };

/* Written under the mutex, read without it (the trace file's header):
 * one pointer. */
static const struct tracer *current = &nop_tracer;
static struct mutex tracer_mutex = MUTEX_INIT(tracer_mutex, "tracer");

const struct tracer *tracer_nth(unsigned int i)
{
	return i < (unsigned int)(__stop_tracers - __start_tracers) ? &__start_tracers[i] : NULL;
}

const struct tracer *tracer_current(void)
{
	return __atomic_load_n(&current, __ATOMIC_ACQUIRE);
}

int tracer_choose(const struct tracer *t)
{
	int err = 0;

	mutex_lock(&tracer_mutex);
	if (t != current) {
		if (current->stop)
			current->stop();
		__atomic_store_n(&current, &nop_tracer, __ATOMIC_RELEASE);
		trace_lock();
		trace_clear_locked();
		trace_unlock();
		err = t->start ? t->start() : 0;
		if (!err)
			__atomic_store_n(&current, t, __ATOMIC_RELEASE);
	}
	mutex_unlock(&tracer_mutex);
	return err;
}

int trace_iter_start(struct trace_iter *it)
{
	const struct tracer *t = tracer_current();
	void *data = t->iter_size ? kzalloc(t->iter_size) : NULL;

	if (t->iter_size && !data)
		return -ENOMEM;
	kfree(it->data);
	it->data = data;
	it->tracer = t;
	return 0;
}

void trace_iter_end(struct trace_iter *it)
{
	kfree(it->data);
	it->data = NULL;
}

size_t trace_iter_format(struct trace_iter *it, char *line, size_t size,
			 const struct ring_entry *e, unsigned int cpu)
{
	if (it->tracer && it->tracer->print_line)
		return it->tracer->print_line(it, line, size, e, cpu);
	return trace_format_record(line, size, e, cpu);
}
