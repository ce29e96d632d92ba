/*
 * Kernel services for kernel code run as a host program, one thread on
 * one CPU (the module loader's host tests and fuzz targets, and the
 * fuzzer's paths target): the heap is malloc, so that AddressSanitizer
 * watches every block; a mutex is never contended; and no reader is
 * ever in an RCU read-side section on another CPU, so a grace period
 * is over at once.
 */
#include <stdlib.h>

#include "tests/host/rename.h"
#include "kernel/mm/heap.h"
#include "kernel/mutex.h"
#include "kernel/rcu.h"

void *kmalloc(size_t size)
{
	return malloc(size ? size : 1);
}

void *kzalloc(size_t size)
{
	return calloc(1, size ? size : 1);
}

void kfree(void *ptr)
{
	free(ptr);
}

void mutex_lock(struct mutex *m)
{
	(void)m;
}

void mutex_unlock(struct mutex *m)
{
	(void)m;
}

void synchronize_rcu(void)
{
}
