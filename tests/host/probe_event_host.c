/* The kernel's services for probe events, on the host (probe_event_host.h). */
#include <stdint.h>

#include "tests/host/rename.h"
#include "tests/host/probe_event_host.h"
#include "kernel/mm/nofault.h"
#include "kernel/symtab.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

static const struct {
	const char *name;
	uint64_t addr;
	int count;
} symbols[] = {
	{ "vfs_read", HOST_VFS_READ, 1 },
	{ "_sdata", 0xffffffff82000000, 1 },
	{ "do_fork", 0xffffffff81200000, 1 },
	{ "twice", 0xffffffff81300000, 2 },
};

static int symbol_addr(const char *name, uint64_t *addr)
{
	for (size_t i = 0; i < ARRAY_SIZE(symbols); i++)
		if (!strcmp(symbols[i].name, name)) {
			*addr = symbols[i].addr;
			return 0;
		}
	return -ENOENT;
}

static int count_symbol(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(symbols); i++)
		if (!strcmp(symbols[i].name, name))
			return symbols[i].count;
	return 0;
}

struct kprobe_parse_env probe_host_env(const struct probe_reg *regs)
{
	return (struct kprobe_parse_env){
		.fetch = { .regs = regs, .symbol_addr = symbol_addr },
		.count_symbol = count_symbol,
	};
}

void sym_format(uintptr_t addr, char *buf, size_t size)
{
	if (addr == HOST_VFS_READ)
		snprintf(buf, size, "vfs_read+0x0/0x90");
	else
		snprintf(buf, size, "0x%lx", (unsigned long)addr);
}

static uintptr_t readable_start = 4096, readable_end = UINTPTR_MAX;

void probe_host_readable(uintptr_t start, uintptr_t end)
{
	readable_start = start < 4096 ? 4096 : start;
	readable_end = end;
}

static bool can_read(const void *p, size_t n)
{
	uintptr_t a = (uintptr_t)p;

	return a >= readable_start && a < readable_end && n <= readable_end - a;
}

int copy_from_kernel_nofault(void *dst, const void *src, size_t n)
{
	if (!can_read(src, n))
		return -EFAULT;
	memcpy(dst, src, n);
	return 0;
}

int load_u64_nofault(uint64_t *out, const void *src)
{
	*out = 0;
	return copy_from_kernel_nofault(out, src, 8);
}

long strncpy_from_kernel_nofault(char *dst, const void *src, size_t size)
{
	const char *s = src;
	size_t i;

	for (i = 0; i + 1 < size; i++) {
		if (!can_read(s + i, 1))
			return -EFAULT;
		dst[i] = s[i];
		if (!s[i])
			return (long)i + 1;
	}
	dst[i] = '\0';
	return (long)i + 1;
}
