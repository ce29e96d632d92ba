/* A small program that carries its own symbol table, built by
 * tests/host/host.mk exactly as the kernel's is (nm, tools/mksymtab.py,
 * three links). check_symtab.py verifies the table against nm; running
 * the program checks that kernel/symtab.c finds its own symbols. */
#include <stdio.h>

#include "tests/host/rename.h"
#include "kernel/symtab.h"
#include "lib/string.h"

int demo_counter = 1;			/* .data */
static char demo_buffer[64];		/* .bss */
const char demo_greeting[] = "hi";	/* .rodata */

__noinline int demo_add(int a, int b)
{
	return a + b + demo_counter;
}

static __noinline void demo_fill(char c)
{
	memset(demo_buffer, c, sizeof(demo_buffer));
}

static int failures;

/* addr must be found as name, with the given offset into it and nm's
 * type letter. */
static void expect(const void *addr, const char *name, size_t offset, char type)
{
	struct symbol sym;

	if (sym_by_addr((uintptr_t)addr, &sym) < 0 ||
	    strcmp(sym.name, name) != 0 || sym.type != type ||
	    (uintptr_t)addr - sym.addr != offset) {
		printf("symtab_demo: %p is not %s+%#zx\n", addr, name, offset);
		failures++;
	}
	if (sym_by_name(name, &sym) < 0 || sym.addr + offset != (uintptr_t)addr) {
		printf("symtab_demo: %s not found by name\n", name);
		failures++;
	}
}

int main(void)
{
	char buf[128];

	demo_fill('x');
	expect((const void *)demo_add, "demo_add", 0, 'T');
	expect((const void *)demo_fill, "demo_fill", 0, 't');
	expect((const void *)main, "main", 0, 'T');
	expect(&demo_counter, "demo_counter", 0, 'D');
	expect(demo_buffer + 10, "demo_buffer", 10, 'b');
	expect(demo_greeting + 1, "demo_greeting", 1, 'R');
	expect(&kernel_symtab, "kernel_symtab", 0, 'R');

	sym_format((uintptr_t)demo_buffer + 3, buf, sizeof(buf));
	if (strcmp(buf, "demo_buffer+0x3/0x40") != 0) {
		printf("symtab_demo: sym_format gave %s\n", buf);
		failures++;
	}
	printf("symtab_demo: %zu symbols, %s (%d)\n", kernel_symtab.count,
	       failures ? "FAILED" : "ok", demo_add(1, 1));
	return failures != 0;
}
