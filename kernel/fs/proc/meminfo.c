/* /proc/meminfo: the machine's memory, in Linux's lines and columns (the
 * name and its colon in 16 columns, the count in 8, then " kB"):
 *
 *	MemTotal:         245760 kB
 *
 * from the frame allocator's counts and the heap's (kernel/mm/):
 *   MemTotal      the usable RAM the frame allocator manages
 *   MemFree       its frames not allocated
 *   MemAvailable  what allocations can still get: the free frames, and
 *                 the heap's free blocks, which kmalloc hands out
 *                 without taking a frame
 *   Slab          the pages the kernel heap (kmalloc, Linux's slab
 *                 allocator's part) holds; none can be reclaimed, so
 *   SReclaimable  is 0 and
 *   SUnreclaim    is all of them.
 *   KernelStack   the threads' and CPUs' stacks from the stack region
 *                 (kernel/mm/stack.c): 16 KiB each while they live. */

#include "kernel/fs/procfs.h"
#include "kernel/initcall.h"
#include "kernel/mm/frame.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/stack.h"
#include "lib/errno.h"
#include <asm/layout.h>

static void show_kb(struct seq_file *m, const char *name, size_t bytes)
{
	seq_printf(m, "%-16s%8zu kB\n", name, bytes / 1024);
}

static int meminfo_show(struct seq_file *m, void *v)
{
	struct frame_stats frames;
	struct heap_stats heap;
	size_t free;

	(void)v;
	frame_get_stats(&frames);
	heap_get_stats(&heap);
	free = (frames.total - frames.used) * PAGE_SIZE;
	show_kb(m, "MemTotal:", frames.total * PAGE_SIZE);
	show_kb(m, "MemFree:", free);
	show_kb(m, "MemAvailable:", free + heap.free_bytes);
	show_kb(m, "Slab:", heap.pages * PAGE_SIZE);
	show_kb(m, "SReclaimable:", 0);
	show_kb(m, "SUnreclaim:", heap.pages * PAGE_SIZE);
	show_kb(m, "KernelStack:", stack_bytes_in_use());
	return 0;
}

static int proc_meminfo_init(void)
{
	return proc_create_single("meminfo", 0444, NULL, meminfo_show) ? 0 : -ENOMEM;
}
late_initcall(proc_meminfo_init);
