/*
 * The module loader on the host (module_host.h): stand-ins for the
 * kernel services kernel/module/'s load steps call (with those of
 * host_kernel.c: the heap, mutexes, RCU), and the call that runs them.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tests/host/rename.h"
#include "kernel/arch.h"
#include "kernel/cmd_output.h"
#include "kernel/mm/execmem.h"
#include "kernel/module/internal.h"
#include "kernel/mutex.h"
#include "kernel/printk.h"
#include "kernel/rcu.h"
#include "kernel/trace/ftrace.h"
#include "lib/format.h"
#include "lib/string.h"
#include "tests/host/module_host.h"
#include <asm/layout.h>

/* The module region: as big as the kernel's, at a fixed low address
 * (module_host.h says why). The exports' made-up addresses lie just
 * below it (HOST_EXPORTS_BASE, given to mkexports.py). */
#define HOST_REGION_BASE 0x40000000UL
#define PAGE 4096UL

static FILE *log_file;
static uint8_t *region;
static size_t region_used, region_live;

void module_host_log_to(void *file)
{
	log_file = file;
}

static int log_vprintf(const char *fmt, va_list ap)
{
	char line[512];
	int n = vsnprintf(line, sizeof(line), fmt, ap);

	if (log_file)
		fputs(line, log_file);
	return n;
}

int kprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = log_vprintf(fmt, ap);
	va_end(ap);
	return n;
}

/* The loader's warnings (KERN_WARNING and all) go where its messages go. */
int printk(const char *fmt, ...) __attribute__((alias("kprintf")));

/* The loader's lines for the command that called it (already loaded, a
 * failed init, rmmod's refusals) go to the same log as its kernel
 * messages: the tests read what it said, whichever stream. */
static ssize_t host_output(bool error, const char *buf, size_t len)
{
	(void)error;
	if (log_file)
		fwrite(buf, 1, len, log_file);
	return (ssize_t)len;
}
#include "tests/host/cmd_output_host.c"

/* Ranges are handed out in order and all given back together: the
 * loader on the host holds one module at a time. */
void *execmem_alloc_range(size_t npages)
{
	void *p;

	if (!region) {
		region = mmap((void *)HOST_REGION_BASE, EXEC_REGION_SIZE, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE,
			      -1, 0);
		if (region != (void *)HOST_REGION_BASE) {
			fprintf(stderr, "module_host: cannot map the module region at 0x%lx\n",
				HOST_REGION_BASE);
			abort();
		}
	}
	if (npages > (EXEC_REGION_SIZE - region_used) / PAGE)
		return NULL;
	p = region + region_used;
	memset(p, 0, npages * PAGE);
	region_used += npages * PAGE;
	region_live++;
	return p;
}

void execmem_free_range(void *addr, size_t npages)
{
	(void)addr;
	(void)npages;
	if (--region_live == 0)
		region_used = 0;
}

int execmem_protect(void *addr, size_t npages, unsigned int prot)
{
	(void)addr;
	(void)npages;
	(void)prot;
	return 0;
}

void arch_sync_icache(uintptr_t addr, size_t len)
{
	(void)addr;
	(void)len;
}

/* Only start_module, never reached here, publishes a module. */
void symtab_add_module(struct symtab_module *m)
{
	(void)m;
	abort();
}

void symtab_remove_module(struct symtab_module *m)
{
	(void)m;
	abort();
}

void symtab_drop_module_init(struct symtab_module *m)
{
	(void)m;
	abort();
}

void ftrace_sites_add(struct ftrace_sites *sites)
{
	(void)sites;
	abort();
}

void ftrace_sites_remove(struct ftrace_sites *sites)
{
	(void)sites;
	abort();
}

int ftrace_update_sites(void)
{
	abort();
}

/* The host runs none of the module's code: its sites stay as built. */
int ftrace_init_sites(const uintptr_t *ips, size_t n)
{
	(void)ips;
	(void)n;
	return 0;
}

int module_host_prepare(const void *image, size_t size, int nargs, char **args)
{
	/* The loader wants the file 8-byte aligned, as insmod's buffer is. */
	void *copy = malloc(size ? size : 1);
	struct load_info li = { .image = copy, .size = size };
	int err;

	memcpy(copy, image, size);
	li.mod = calloc(1, sizeof(*li.mod));
	err = prepare_module(&li, nargs, args);
	if (err == 0)
		free_module(li.mod);
	free(copy);
	return err;
}
